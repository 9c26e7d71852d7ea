"""Map mode: the rules of placement (bottom-centre entrance, rotate/mirror/stretch to fit,
truncate as a dead end, doors off the edge are dead ends), never an overlap or a square
off the sheet, door states, time, retracing, endings, and its logs pass the checker."""
import random

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.exploration.formats import builtin_tables
from sheetgen.games.dice import RandomDice
from sheetgen.games.exploration import shapes as sh
from sheetgen.games.exploration.rules import check
from sheetgen.games.exploration.mapmode import Explorer, actions_of, explore
from sheetgen.games.exploration.tables import RoomEntry, RoomTable

TABLES = builtin_tables()


class Scripted:
    """Dice that give preset results (then fall back to a seeded roller)."""
    def __init__(self, d6=(), d66=(), two_d6=()):
        self.q = {"d6": list(d6), "d66": list(d66), "two_d6": list(two_d6)}
        self.fallback = RandomDice(random.Random(0))

    def _next(self, kind):
        return self.q[kind].pop(0) if self.q[kind] else getattr(self.fallback, kind)()

    def d6(self, reason=""):
        return self._next("d6")

    def d66(self, reason=""):
        return self._next("d66")

    def two_d6(self, reason=""):
        return self._next("two_d6")


def test_transforms():
    corridor = sh.parse_picture("+###+").shape
    turned = sh.rotate(corridor, 90)
    assert turned.cells == {(0, 0), (0, 1), (0, 2)}
    assert set(turned.exits) == {(0, 0, "N"), (0, 2, "S")}
    ell = sh.parse_picture("+#.\n.##\n..+").shape
    assert sh.mirror(sh.mirror(ell)) == ell
    assert sh.rotate(ell, 360) == ell and sh.rotate(sh.rotate(ell, 90), 270) == ell
    longer = sh.transform(corridor, 0, False, 2)
    assert longer.cells == {(x, 0) for x in range(5)} and set(longer.exits) == {(0, 0, "W"), (4, 0, "E")}
    room = sh.parse_picture(".+.\n+##\n.##").shape
    tall = sh.stretch(room, 1, "y", 1)
    assert tall.height == 3 and len(tall.cells) == 6 and (0, 0, "W") in tall.exits


def test_map_mode_never_overlaps_or_leaves_the_sheet_and_passes_check_500_seeds():
    rooms, entrances, contents = TABLES
    policies = ("first", "random", "deepest")
    for seed in range(500):
        ex = explore(rooms, entrances, contents, seed=seed, policy=policies[seed % 3])
        seen = set()
        for room in ex.rooms:
            for x, y in room.cells:
                assert 1 <= x <= 20 and 1 <= y <= 28, (seed, room.id)
                assert (x, y) not in seen, (seed, room.id)
                seen.add((x, y))
            for d in room.doors:
                assert (d.x, d.y) in room.cells
                bx, by = d.beyond
                assert 1 <= bx <= 20 and 1 <= by <= 28      # doors off the edge became dead ends
        assert ex.ended in ("final-boss", "no-doors")
        broken = check(actions_of(ex), rooms, entrances, contents, ex.width, ex.height).violations
        assert not broken, (seed, broken[:3])


def test_entrance_at_bottom_centre():
    rooms, entrances, contents = TABLES
    for roll in range(1, 7):
        ex = Explorer(rooms, entrances, contents, Scripted(d6=[roll]), max_rooms=1)
        ex.run()
        first = ex.rooms[0]
        assert first.roll == roll and first.die == "entrance"
        assert max(y for _, y in first.cells) == 28
        xs = [x for x, _ in first.cells]
        assert min(xs) <= 11 and max(xs) >= 10          # covers a centre column
        assert ex.ended == "rooms"


def test_example_opening_matches_the_issue():
    """Entrance 4 then d66 35 up its door: the cells of the issue's example."""
    rooms, entrances, contents = TABLES
    ex = Explorer(rooms, entrances, contents, Scripted(d6=[4], d66=[35], two_d6=[7, 3]), max_rooms=2)
    ex.run()
    one, two = ex.rooms
    assert sorted(one.cells) == sorted([(10, 28), (11, 28), (10, 27), (11, 27)])
    assert [(d.at, d.state, d.to) for d in one.doors] == [("10,27:N", "explored", 2)]
    assert sorted(two.cells) == [(10, 24), (10, 25), (10, 26)]
    assert (two.rotate, two.mirror, two.stretch, two.kind) in ((90, False, 0, "corridor"), (270, False, 0, "corridor"),
                                                               (90, True, 0, "corridor"), (270, True, 0, "corridor"))
    assert [(d.at, d.state) for d in two.doors] == [("10,24:N", "unexplored")]
    # the entrance rolls no contents (it is not opened through a door): room 2 rolls the first 2d6
    assert one.contents_roll is None and two.contents_roll == 7 and two.result.id == "empty"
    assert ex.minutes == 20


def _one_room_table(picture, kind):
    entry = RoomEntry(11, kind, "test", sh.parse_picture(picture).shape)
    return RoomTable({k: entry for k in range(11, 67)})


def test_truncated_as_a_dead_end_when_nothing_fits():
    rooms, entrances, contents = TABLES
    # a 3x3 room through a door with only a 1-square gap: it cannot fit, so it is truncated
    table = _one_room_table("+###\n.###\n.###", "room")
    ex = Explorer(table, entrances, contents, Scripted(d6=[1]), width=5, height=4, max_rooms=3)
    ex.run()
    assert any(r.truncated for r in ex.rooms)
    for r in ex.rooms[1:]:
        if r.truncated:
            assert r.doors == [] and r.result is not None       # a dead end that still rolls contents
    assert not check(actions_of(ex), table, entrances, contents, ex.width, ex.height).violations


def test_doors_into_existing_rooms_are_explored():
    rooms, entrances, contents = TABLES
    for seed in range(60):
        ex = explore(rooms, entrances, contents, seed=seed)
        owner = {c: r.id for r in ex.rooms for c in r.cells}
        for r in ex.rooms:
            for d in r.doors:
                beyond = owner.get(d.beyond)
                if d.state == "unexplored":
                    assert beyond is None
                if d.state == "explored":
                    assert beyond == d.to


def test_rooms_limit_policies_and_time():
    rooms, entrances, contents = TABLES
    ex = explore(rooms, entrances, contents, seed=11, max_rooms=5)
    assert len(ex.rooms) <= 5 and ex.minutes == 10 * len(ex.rooms)
    assert [r.minutes for r in ex.rooms] == [10 * (i + 1) for i in range(len(ex.rooms))]
    depths = {}
    for policy in ("first", "random", "deepest"):
        ex = explore(rooms, entrances, contents, seed=4, policy=policy, max_rooms=12)
        depths[policy] = max(r.depth for r in ex.rooms)
        assert explore(rooms, entrances, contents, seed=4, policy=policy, max_rooms=12).rooms[-1].cells == \
            ex.rooms[-1].cells
    assert depths["deepest"] >= depths["first"]
    with pytest.raises(ValueError):
        Explorer(rooms, entrances, contents, RandomDice(1), policy="widest")


def test_retracing_rolls_d6_per_room_and_1_means_wandering_monsters():
    rooms, entrances, contents = TABLES
    total = wandering = 0
    for seed in range(40):
        ex = explore(rooms, entrances, contents, seed=seed, policy="first")
        for r in ex.rooms:
            for rid, roll in r.retrace:
                assert 1 <= roll <= 6 and rid < r.id
                total += 1
                wandering += roll == 1
        assert ex.wandering() == sum(1 for r in ex.rooms for _, roll in r.retrace if roll == 1)
    assert total > 50 and 0 < wandering < total


def test_final_boss_ends_the_dungeon_and_escalation_counts_prior_bosses():
    rooms, entrances, contents = TABLES
    # 11 then escalation 3 (boss), 11 then escalation 5 (+1 for the earlier boss = 6: Final Boss)
    dice = Scripted(d6=[2, 3, 5], d66=[23, 35, 35, 35], two_d6=[7, 11, 11, 7, 7])
    ex = Explorer(rooms, entrances, contents, dice, policy="deepest")
    ex.run()
    assert ex.ended == "final-boss"
    boss, final = [r for r in ex.rooms if r.escalation]
    assert boss.escalation == (3, 0, 3) and boss.result.id == "boss"
    assert final.escalation == (5, 1, 6) and final.result.id == "final-boss"
    assert ex.rooms[-1] is final


def test_explore_command_writes_log_and_map(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["explore", "--seed", "5", "-o", str(tmp_path), "--format", "svg"])
    assert result.exit_code == 0, result.output
    log = tmp_path / "explore-5.yaml"
    assert log.exists()
    svg = next(tmp_path.glob("explore-5-*.svg")).read_text()
    assert 'id="room-1"' in svg and 'id="room-label-1"' in svg and "door explored" in svg
    check = runner.invoke(main, ["check", str(log)])
    assert check.exit_code == 0, check.output
    again = runner.invoke(main, ["explore", "--seed", "5", "-o", str(tmp_path / "b"), "--format", "none"])
    assert again.exit_code == 0
    assert (tmp_path / "b" / "explore-5.yaml").read_text() == log.read_text()
    assert runner.invoke(main, ["explore", "--sheet", "20by28"]).exit_code == 2
    assert "Example" in runner.invoke(main, ["explore", "--help"]).output


def test_explore_with_a_generated_table_and_other_size(tmp_path):
    runner = CliRunner()
    table = tmp_path / "t.yaml"
    assert runner.invoke(main, ["table", "d66", "--seed", "9", "-o", str(table)]).exit_code == 0
    out = tmp_path / "out"
    result = runner.invoke(main, ["explore", "--seed", "2", "--table", str(table), "--sheet", "16x20",
                                  "--policy", "random", "-o", str(out), "--format", "none"])
    assert result.exit_code == 0, result.output
    log = out / "explore-2.yaml"
    assert "sheet: 16x20" in log.read_text()
    assert runner.invoke(main, ["check", str(log)]).exit_code == 0


def test_interactive_takes_typed_rolls(tmp_path):
    runner = CliRunner()
    # entrance 4, contents 7; open door 1; d66 35; contents 3; then quit
    result = runner.invoke(main, ["explore", "-i", "-o", str(tmp_path), "--format", "none"],
                           input="4\n7\n1\n35\n3\nq\n")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "explore-1.yaml").read_text()
    assert "roll: {entrance: 4}" in text and "roll: {d66: 35}" in text
    assert runner.invoke(main, ["check", str(tmp_path / "explore-1.yaml")]).exit_code == 0
