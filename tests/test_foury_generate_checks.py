"""`sheetgen generate map`'s checks besides the win rate (sim/checks.py): the checked games are the
simulator's own, a face that changes nothing is measured as such, and a map within the target that
fails a check is rejected and mended, or reported when the search may not change that part."""
import pytest

from sheetgen.games.foury.sim import checks as C
from sheetgen.games.foury.sim import generate as G
from sheetgen.games.foury.sim.runner import play_game
from sheetgen.games.foury.sim.stats import Stats


def _world(values):
    return G.play_world(G.render("T", values), None)


def test_checked_games_are_the_simulators_games():
    board, hero, nav = _world(G.start_values(7, 7, "ancient"))
    checked = C.play_checked(board, hero, "cautious", 11, 0, 60, nav)
    stats = Stats()
    for i in range(60):
        stats.add(play_game(board, hero, "cautious", 11, i, nav=nav))
    # the second, event-free resolution of each rolled move must not touch the game itself
    assert checked.games == 60 and checked.wins == stats.wins
    assert dict(checked.rounds) == dict(stats.req_rounds) and dict(checked.met) == dict(stats.req_met)
    assert set(checked.rolled) == {k for k, v in stats.face_rolls.items() if v}
    # every event face in this map changes the game when it comes up (walls, foes, steps, chests)
    assert set(checked.mattered) <= set(checked.rolled) and checked.mattered


def test_an_event_face_that_changes_nothing_never_matters():
    values = G.start_values(7, 7, "ancient")
    values["zones"][0]["events"][3] = "find die"       # the rules follow no effect of a die found
    board, hero, nav = _world(values)
    checked = C.play_checked(board, hero, "cautious", 3, 0, 80, nav)
    assert checked.rolled[("A", 3)] > 0 and checked.mattered[("A", 3)] == 0
    assert checked.mattered[("A", 4)] > 0
    found = C.findings(checked, board)
    assert [(f.kind, f.zone, f.face, f.fixable) for f in found] == [("event", "A", 3, True)]
    assert [f.fixable for f in C.findings(checked, board, can_change_events=False)] == [False]


def test_a_die_face_that_changes_nothing_never_matters():
    values = G.start_values(7, 7, "ancient")
    values["die_table"] = {1: "monster", 2: "nothing", 3: "nothing", 4: "nothing", 5: "nothing", 6: "gain 1 chest"}
    board, hero, nav = _world(values)
    checked = C.play_checked(board, hero, "greedy", 5, 0, 150, nav)     # the greedy player takes the die
    assert sum(checked.die_rolled[f] for f in (2, 3, 4, 5)) > 0
    assert not {2, 3, 4, 5} & set(checked.die_mattered) and checked.die_mattered[6] > 0
    die = [f for f in C.findings(checked, board) if f.kind == "die"]
    assert {f.face for f in die} >= {2, 3, 4, 5} and not any(f.fixable for f in die)


def test_a_requirement_never_met_is_a_finding():
    board, _, _ = _world(G.start_values(7, 7, "ancient"))
    checks = C.Checks(games=200, wins=20)
    for zone in "ABCD":
        checks.rounds[zone] = 200
        checks.met[zone] = 0 if zone == "A" else 100
        for face in C.FACES:
            checks.mattered[(zone, face)] = 50
    found = C.findings(checks, board)
    assert [(f.kind, f.zone, f.fixable) for f in found] == [("requirement", "A", True)]
    assert "zone A's requirement met in 0 of 200 rounds" in found[0].text
    checks.met["A"] = 30                # 15%: enough
    assert C.findings(checks, board) == []
    checks.rounds["A"], checks.met["A"] = 10, 0     # 0 of 10 proves nothing (its interval reaches 10%)
    assert C.findings(checks, board) == []


class _Scripted(G.Player):
    """Plays no game: every map wins the target's share, and zone A's requirement is met only once
    its count is 1 (what a requirement met too rarely looks like to the search)."""

    def __init__(self, rate):
        super().__init__([None], "cautious")
        self.rate = rate

    def wins(self, text, seed, start, stop):
        n = stop - start
        self.played += n
        return round(self.rate * n), n

    def checks(self, text, seed, start, stop):
        n = stop - start
        self.played += n
        fmap, _ = G.load_text(text)
        out = C.Checks(games=n, wins=round(self.rate * n))
        for letter, zone in fmap.board.zones.items():
            out.rounds[letter] = n
            out.met[letter] = n // 2 if letter != "A" or zone.requirement_count == 1 else 0
            for face in C.FACES:
                out.mattered[(letter, face)] = n
        return out


def test_a_map_within_the_target_failing_a_check_is_rejected_and_mended():
    values = G.start_values(7, 7, "ancient")
    out = G.generate(values, "T", G.Target(0.2, 0.1), _Scripted(0.2), 1, 20_000, set())
    assert out.met and out.rejected == 2          # statues 3 -> 2 still fails, 2 -> 1 passes
    assert [c.split(" (win")[0] for c in out.changes] == [
        "zone A requirement: statues 3 -> 2 (met too rarely)", "zone A requirement: statues 2 -> 1 (met too rarely)"]
    fmap, lint = G.load_text(out.text)
    assert lint == [] and fmap.board.zones["A"].requirement_count == 1
    lines = G.header_lines(out, G.Target(0.2, 0.1), "cautious", None, 1, "cmd")
    assert any(line.startswith("Requirements met") and "A 50% of" in line for line in lines)
    assert any(line.startswith("Checks: 2 map(s) within the target failed") for line in lines)


def test_a_failed_check_the_search_may_not_change_is_reported():
    values = G.start_values(7, 7, "ancient")
    out = G.generate(values, "T", G.Target(0.2, 0.1), _Scripted(0.2), 1, 20_000, {"zones"}, from_file=True)
    assert out.met and out.rejected == 0 and out.changes == []
    assert [f.kind for f in out.reported] == ["requirement"]
    lines = G.header_lines(out, G.Target(0.2, 0.1), "cautious", None, 1, "cmd")
    assert any(line.startswith("Reported, not changed") and "zone A's requirement met in 0 of" in line
               for line in lines)


@pytest.mark.parametrize("harder", [True, False])
def test_a_face_that_changes_nothing_is_moved_along_the_ladder(harder):
    values = G.start_values(7, 7, "ancient")
    values["zones"][0]["events"][3] = "find die"
    step = G.repair(values, C.Finding("x", "A", 3, "event"), harder)
    assert step is not None
    new = step[0]["zones"][0]["events"][3]
    assert new in G.EVENT_LADDER and values["zones"][0]["events"][3] == "find die"     # a copy was changed
    middle = G.EVENT_LADDER.index(new) - len(G.EVENT_LADDER) // 2
    assert middle == (1 if harder else -1)
