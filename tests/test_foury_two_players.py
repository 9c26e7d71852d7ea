"""Dungeon Foury's 2 Players Mode: the engine (rules/two_players.py) and `sheetgen check` on two-player
logs (formats/playlog_two.py).  Each log under data/foury_logs/two_players/ says in its first line what
the check must find: `# expect: legal`, or `# expect: RULE@STEP, ...` (STEP `-` for a violation
outside the steps); every rule has its legal counterpart among the legal logs."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from foury_helpers import HALL, TRAITS, enter, mv
from sheetgen.definitions.registry import load_file
from sheetgen.errors import InputError
from sheetgen.games.foury import actions as A
from sheetgen.games.foury.board import parse_cell as P
from sheetgen.games.foury.heroes import free_hero
from sheetgen.games.foury.rules import two_players as T
from sheetgen.games.foury.rules.state import DEAD, OVER

LOGS = Path(__file__).parent / "data" / "foury_logs" / "two_players"
FILES = sorted(p for p in LOGS.glob("*.yaml") if p.name.startswith(("legal", "illegal")))


def expectation(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = re.fullmatch(r"# expect: (.+)", first)
    assert m, f"{path.name} starts with its # expect: line"
    return m.group(1)


def verdict(path: Path):
    loaded = load_file(path)
    return loaded.handler.check(loaded.definition)


def test_the_example_logs_cover_both_sides():
    legal = [p for p in FILES if p.name.startswith("legal")]
    illegal = [p for p in FILES if p.name.startswith("illegal")]
    assert len(legal) >= 6 and len(illegal) >= 15


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_two_player_log_is_judged_as_it_says(path):
    expected = expectation(path)
    judged = verdict(path)
    counted = [v for v in judged.violations if not v.consequence]
    if expected == "legal":
        assert judged.legal, [v.message for v in judged.violations]
        return
    assert not judged.legal
    want = {tuple(item.strip().split("@")) for item in expected.split(",")}
    got = {(v.rule, "-" if v.step is None else str(v.step)) for v in counted}
    assert got == want, [v.message for v in counted]


def test_the_cli_exit_codes_on_two_player_logs():
    run = [sys.executable, "-m", "sheetgen", "check"]
    ok = subprocess.run(run + [str(LOGS / "legal-meet-duel.yaml")], capture_output=True, text=True)
    assert ok.returncode == 0 and "legal" in ok.stdout
    bad = subprocess.run(run + [str(LOGS / "illegal-no-duel.yaml")], capture_output=True, text=True)
    assert bad.returncode == 1
    assert "illegal-no-duel.yaml:" in bad.stdout and "Ben: Ada reached Ben in D4" in bad.stdout


def test_an_undeclared_log_is_judged_by_the_reading_it_follows(tmp_path):
    # the hearts sheet after the duel fits duel-treasure: without `readings:` the check says so
    text = (LOGS / "illegal-duel-hearts.yaml").read_text(encoding="utf-8").replace("readings: []", "").replace(
        "map: ../test-hall.yaml", f"map: {(LOGS.parent / 'test-hall.yaml').as_posix()}")
    path = tmp_path / "undeclared.yaml"
    path.write_text(text, encoding="utf-8")
    judged = verdict(path)
    assert judged.legal and judged.reading_names() == ["duel-treasure"] and not judged.declared


# -- the header's problems are input errors (exit 2), located -----------------------------------
HEAD = (LOGS / "legal-meet-duel.yaml").read_text(encoding="utf-8").replace(
    "map: ../test-hall.yaml", f"map: {(LOGS.parent / 'test-hall.yaml').as_posix()}")


@pytest.mark.parametrize("old, new, words", [
    ("{player: Ben, move: E3, roll: 6}", "{move: E3, roll: 6}", "names its player"),
    ("{player: Ben, move: E3, roll: 6}", "{player: Bne, move: E3, roll: 6}", "did you mean 'Ben'"),
    ("{player: Ben, move: E3, roll: 6}", "{player: Ben, mvoe: E3, roll: 6}", "mvoe"),
    ("{player: Ada, duel: {hero: 5, opponent: 2, weapon: true}}", "{player: Ada, duel: {hero: 5}}",
     "missing required key 'opponent'"),
    ("{player: Ada, duel: {hero: 5, opponent: 2, weapon: true}}", "{player: Ada, duel: {hero: 5, oponent: 2}}",
     "did you mean 'opponent'"),
    ("{player: Ada, duel: {hero: 5, opponent: 2, weapon: true}}", "{player: Ada, duel: 7}", "a valid dictionary"),
    ("name: Ben,", "name: Ada,", "different names"),
    ("  - {name: Ben,", "  - {name: Cy, hero: kael, entry: A3:W}\n  - {name: Ben,", "two players, not 3"),
])
def test_bad_two_player_headers_are_input_errors(tmp_path, old, new, words):
    assert old in HEAD
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_file(path)
    assert words in str(err.value)


def test_a_winner_that_is_no_player_is_an_input_error(tmp_path):
    path = tmp_path / "winner.yaml"
    path.write_text(HEAD + "winner: Bem\n", encoding="utf-8")
    with pytest.raises(InputError, match="unknown winner 'Bem'.*did you mean 'Ben'"):
        load_file(path)


def test_single_player_logs_are_read_as_before():
    loaded = load_file(LOGS.parent / "legal-example.yaml")
    assert type(loaded.definition).__name__ == "FouryLog"
    assert loaded.handler.check(loaded.definition).legal


# -- the engine ------------------------------------------------------------------------------
def two(readings=()):
    g = T.new_game(HALL, (free_hero(TRAITS), free_hero(TRAITS)), ("Ada", "Ben"), readings)
    for player, action in ((0, enter("C1:N")), (1, enter("E3:E"))):
        out = T.step(g, player, action)
        assert not out.violations
        g = out.state
    return g


def play(g, *steps):
    rules = []
    for player, action in steps:
        out = T.step(g, player, action)
        rules += [v.rule for v in out.violations]
        g = out.state
    return g, rules


def test_one_map_two_sheets():
    g, rules = play(two(), (0, mv("C1", 6)), (0, mv("D1")), (1, mv("E3", 6)))
    assert rules == []
    ada, ben = g.states
    assert ben.res["chests"] == 1 and ada.res["chests"] == 0            # each player's own sheet
    assert ada.explored == ben.explored >= {P("C1"), P("E3")}   # one map
    assert (ada.turns, ben.turns) == (1, 1)


def test_the_exit_without_the_oracle_ends_that_players_game():
    g, rules = play(two(), (0, mv("C1", 6)), (0, mv("C2")), (1, mv("E3", 6)), (0, mv("B2", 2)),
                    (0, A.Fight(5, 2)), (1, mv("D3", 6)), (0, mv("A2", 5)), (1, mv("D4", 6)),
                    (0, A.Exit(P("A3"), "W", 5)))
    assert rules == []
    assert g.states[0].phase == OVER
    # the single-player rules would ask for the Oracle first
    from sheetgen.games.foury import rules as E
    s = E.new_game(HALL, free_hero(TRAITS))
    for a in (enter("C1:N"), mv("C1", 6), mv("C2"), mv("B2", 2), A.Fight(5, 2), mv("A2", 5)):
        s = E.step(s, a).state
    assert "exit.oracle" in [v.rule for v in E.step(s, A.Exit(P("A3"), "W", 5)).violations]


def _ended(g, turns, chests=(0, 0), phases=(OVER, OVER), died=(None, None)):
    g = g.copy()
    for i in (0, 1):
        s = g.states[i].copy()
        s.turns, s.phase = turns[i], phases[i]
        s.res = dict(s.res, chests=chests[i])
        g.states[i] = s
    g.died_at = list(died)
    return T.result(g)


@pytest.mark.parametrize("turns, chests, phases, died, decided, winner", [
    ((10, 12), (5, 5), (OVER, OVER), (None, None), True, 0),          # both out with 5: fewer turns
    ((12, 10), (5, 6), (OVER, OVER), (None, None), True, 1),
    ((10, 10), (5, 5), (OVER, OVER), (None, None), True, None),       # equal turns: a draw
    ((10, 8), (5, 9), (OVER, OVER), (None, None), True, 1),
    ((10, 12), (4, 5), (OVER, OVER), (None, None), True, 1),          # 4 chests do not meet the objective
    ((10, 8), (5, 0), (OVER, "inside"), (None, None), False, None),    # Ben could still do it in fewer turns
    ((10, 10), (5, 0), (OVER, "inside"), (None, None), True, 0),       # ... not any more
    ((10, 3), (5, 0), (OVER, DEAD), (None, 3), True, 0),
    ((6, 9), (0, 0), (DEAD, "inside"), (6, None), True, 1),            # survive longer
    ((6, 9), (3, 0), (DEAD, DEAD), (6, 9), True, 1),                   # the later death
    ((6, 6), (3, 0), (DEAD, DEAD), (6, 6), True, None),
    ((6, 9), (3, 2), (OVER, OVER), (None, None), True, None),          # both out without the objective
    ((6, 9), (3, 2), (OVER, "inside"), (None, None), False, None),
    ((6, 9), (3, 2), ("inside", "inside"), (None, None), False, None),
])
def test_the_winner(turns, chests, phases, died, decided, winner):
    res = _ended(two(), turns, chests, phases, died)
    assert res.decided == decided
    if decided:
        assert res.winner == winner


def test_the_two_player_mode_is_for_the_ancient_story():
    import copy
    santa = copy.copy(HALL)
    object.__setattr__(santa, "campaign", "santa")
    with pytest.raises(ValueError, match="Ancient Story"):
        T.new_game(santa, (free_hero(TRAITS), free_hero(TRAITS)), ("A", "B"))


@pytest.mark.parametrize("then, rules", [
    ((0, T.Duel(5, 2)), []),                      # the shovel's crossing reached Ben: the duel follows
    ((1, mv("E3")), ["two.face"]),                # Ben walking away instead
    ((1, A.Sheet((("hearts", 4),))), []),         # a sheet asserts, it is no action: the duel is still due
])
def test_a_shovel_into_the_opponents_room_reaches_them(then, rules):
    g, got = play(two(), (0, mv("C1", 6)), (0, mv("D1")), (1, mv("E3", 6)), (0, mv("D2", 2)),
                  (1, mv("E2", 4)), (0, A.Shovel(P("D2"), "E")))
    assert got == [] and g.duel_due == 0 and g.states[0].pos == g.states[1].pos == P("E2")
    after, got = play(g, then)
    assert got == rules
    assert (after.duel_due is not None) == isinstance(then[1], A.Sheet)


# -- sheetgen track ---------------------------------------------------------------------------
def test_track_a_two_player_game_and_export_a_log_check_accepts(tmp_path):
    from click.testing import CliRunner
    from sheetgen.cli import main
    run = CliRunner()
    j = ["track", "--journal", str(tmp_path / "j.db")]
    hall = str(LOGS.parent / "test-hall.yaml")
    out = run.invoke(main, j + ["new", "--ruleset", "foury", "--map", hall, "--players", "Ada,Ben",
                                "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"])
    assert out.exit_code == 0, out.output
    assert "2 Players Mode: Ada and Ben" in out.output
    refused = []
    for step in ("{player: Ada, entry: C1:N}", "{player: Ben, entry: E3:E}", "{player: Ben, move: E3, roll: 6}",
                 "{player: Ada, move: C1, roll: 6}", "{player: Ada, move: D1}", "{player: Ben, move: E3, roll: 6}",
                 "{player: Ada, move: D2, roll: 2}", "{player: Ada, collect: chest}",
                 "{player: Ben, move: D3, roll: 6}", "{player: Ada, move: D1}", "{player: Ben, move: D4, roll: 6}",
                 "{player: Ada, move: D2}", "{player: Ada, move: D3}", "{player: Ada, move: D4}",
                 "{player: Ben, move: D3}", "{player: Ada, duel: {weapon: true}}"):
        res = run.invoke(main, j + ["step", "--seed", "1", step])
        if "refused" in res.output:
            refused.append(step)
        else:
            assert res.exit_code == 0, res.output
    # Ben out of turn; Ben walking away from Ada before the duel
    assert refused == ["{player: Ben, move: E3, roll: 6}", "{player: Ben, move: D3}"]
    status = run.invoke(main, j + ["status"]).output
    assert "-- Ada: in the dungeon" in status and "-- Ben: in the dungeon" in status
    log = tmp_path / "game.yaml"
    assert run.invoke(main, j + ["export", "-o", str(log)]).exit_code == 0
    text = log.read_text(encoding="utf-8")
    assert "players:" in text and "entry: 'C1:N'" in text and "duel: {" in text
    loaded = load_file(log)
    judged = loaded.handler.check(loaded.definition)
    assert judged.legal, [v.message for v in judged.violations]
    from sheetgen.games.foury.formats.playlog_two import replay
    ada, ben = replay(loaded.definition)[0].states
    assert ada.res["weapon"] == 1 and ada.pos == ben.pos == P("D4")


def test_track_players_is_refused_where_a_tracker_has_no_players_mode(tmp_path):
    from click.testing import CliRunner
    from sheetgen.cli import main
    out = CliRunner().invoke(main, ["track", "--journal", str(tmp_path / "j.db"), "new", "--ruleset", "exploration",
                                    "--players", "Ada,Ben"])
    assert out.exit_code == 2 and "no players mode" in out.output


@pytest.mark.parametrize("players, words", [
    ("Ada", "two players, not 1"),
    ("Ada,ada", "different names"),
    ("Ada=kael,Ben=kale", "unknown hero 'kale'"),
])
def test_track_new_bad_players(tmp_path, players, words):
    from click.testing import CliRunner
    from sheetgen.cli import main
    out = CliRunner().invoke(main, ["track", "--journal", str(tmp_path / "j.db"), "new", "--ruleset", "foury", "--map",
                                    str(LOGS.parent / "test-hall.yaml"), "--players", players, "--hero", "kael"])
    assert out.exit_code in (1, 2) and words in out.output, out.output


def test_track_render_draws_one_sheet_per_player(tmp_path):
    """`track render` of a two-player game: the PDF has a page per player, each PNG and SVG is one
    player's sheet named after them, with their name, their hero and their own path in pencil."""
    from click.testing import CliRunner
    from pypdf import PdfReader
    from sheetgen.cli import main
    run = CliRunner()
    j = ["track", "--journal", str(tmp_path / "j.db")]
    out = run.invoke(main, j + ["new", "--ruleset", "foury", "--map", str(LOGS.parent / "test-hall.yaml"),
                                "--players", "Ada=kael,Ben", "--traits",
                                "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"])
    assert out.exit_code == 0, out.output
    for step in ("{player: Ada, entry: C1:N}", "{player: Ben, entry: E3:E}", "{player: Ada, move: C1, roll: 6}",
                 "{player: Ada, move: D1}", "{player: Ben, move: E3, roll: 6}"):
        assert run.invoke(main, j + ["step", step]).exit_code == 0
    res = run.invoke(main, j + ["render", "-o", str(tmp_path / "out"), "--format", "pdf,svg,png"])
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["test-hall-2-players-played-01-Ada.png", "test-hall-2-players-played-01-Ada.svg",
                     "test-hall-2-players-played-02-Ben.png", "test-hall-2-players-played-02-Ben.svg",
                     "test-hall-2-players-played.pdf"], names
    assert len(PdfReader(tmp_path / "out" / "test-hall-2-players-played.pdf").pages) == 2
    ada, ben = ((tmp_path / "out" / f"test-hall-2-players-played-0{i}-{n}.svg").read_text(encoding="utf-8")
                for i, n in ((1, "Ada"), (2, "Ben")))
    def penciled_name(svg):
        return re.findall(r'id="pencil-player-name"[^>]*>([^<]*)<', svg)
    assert penciled_name(ada) == ["Player: Ada"] and "Kael" in ada      # Kael's sheet has no name line
    assert penciled_name(ben) == ["Ben"] and "Kael" not in ben          # after the "Name:" of a sheet of traits
    from sheetgen.games.foury.tracker_two import pencil_document
    header = {"ruleset": "foury", "map": str(LOGS.parent / "test-hall.yaml"),
              "players": [{"name": "Ada", "hero": {"name": "kael"}}, {"name": "Ben", "hero": {"traits": dict(TRAITS)}}]}
    steps = [{"player": "Ada", "entry": "C1:N"}, {"player": "Ben", "entry": "E3:E"},
             {"player": "Ada", "move": "C1", "roll": 6}, {"player": "Ada", "move": "D1"}]
    doc = pencil_document(header, steps)
    ids = [{item.id for item in page.items[-1].items} for page in doc.pages]
    # each sheet has its own player's path: Ada went C1 -> D1, Ben has not moved
    assert {"pencil-dot-C1", "pencil-dot-D1"} <= ids[0] and not {"pencil-dot-C1", "pencil-dot-D1"} & ids[1], ids
