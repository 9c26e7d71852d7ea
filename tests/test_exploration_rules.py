"""The exploration engine follows the contract (sheetgen.games.base): step(state, action) ->
Outcome with base.Violation values and stable rule ids, apply raises Illegal, legal_actions
lists what step accepts; the checker is a replay of a log's actions through step, and map
mode's placements are the ones the engine lists."""
from dataclasses import replace

import pytest

from sheetgen.games.base import Illegal, Outcome, Violation
from sheetgen.games.dice import RandomDice
from sheetgen.games.exploration.actions import (Contents, DoorMark, End, Place, Retrace, RetraceRoll, Time, Transform,
                                                Unreadable)
from sheetgen.games.exploration.formats import builtin_tables
from sheetgen.games.exploration.mapmode import Explorer, actions_of, explore
from sheetgen.games.exploration.rules import ExplorationRules, Sheet, entrance_origin, fitting

TABLES = builtin_tables()
RULES = ExplorationRules(*TABLES)


def entrance(state=None):
    """Entrance 4 (the issue's 2x2 porch) at the bottom centre, door north, as legal_actions lists it."""
    state = state or RULES.new_game()
    return next(a for a in RULES.legal_actions(state) if a.roll == 4)


def opened(rolls=(7,)):
    """The sheet after the entrance and its contents roll."""
    state = RULES.apply(RULES.new_game(), entrance())
    return RULES.apply(state, Contents(rolls[0], "empty"))


def test_the_first_legal_actions_are_the_six_entrances_at_the_bottom_centre():
    state = RULES.new_game()
    first = list(RULES.legal_actions(state))
    assert sorted(a.roll for a in first) == [1, 2, 3, 4, 5, 6]
    for a in first:
        outcome = RULES.step(state, a)
        assert isinstance(outcome, Outcome) and outcome.legal and outcome.followed
        assert max(y for _, y in a.cells) == 28
    assert state.rooms == () and not any(state.sheet.owner)        # step never changes the state it is given
    assert entrance().cells == ((10, 27), (11, 27), (10, 28), (11, 28))


def test_contents_follow_a_room_and_every_listed_roll_is_legal():
    state = RULES.apply(RULES.new_game(), entrance())
    rolls = list(RULES.legal_actions(state))
    assert {a.roll for a in rolls} == set(range(2, 13)) and all(isinstance(a, Contents) for a in rolls)
    assert all(RULES.is_legal(state, a) for a in rolls)
    wrong = RULES.step(state, Contents(7, "boss"))
    assert [v.rule for v in wrong.violations] == ["contents.result"]
    assert RULES.step(state, Contents(13, "empty")).violations[0].rule == "roll.range"


def test_every_placement_of_a_rolled_shape_at_a_door_is_a_legal_step():
    state = opened()
    door = (10, 27, "N")
    for roll in (35, 23, 62, 13):
        places = RULES.placements(state, roll, 1, door)
        assert places, roll
        for a in places:
            assert RULES.step(state, a).legal, (roll, a)
    # the listed actions of a sheet after a room are these placements, door by door, roll by roll
    listed = RULES.legal_actions(state)
    first = next(listed)
    assert isinstance(first, Place) and first.roll == 11 and first.parent == 1


def test_illegal_placements_break_the_right_rules_side_by_side_with_legal_ones():
    state = opened()
    good = RULES.placements(state, 35, 1, (10, 27, "N"))[0]          # the passage up from the porch
    assert RULES.step(state, good).legal
    cases = {
        "cell.overlap": replace(good, cells=((10, 26), (10, 27), (10, 25))),   # onto the porch
        "cell.on-sheet": replace(good, cells=((10, 26), (10, 25), (10, 24), (10, 0))),
        "cell.format": replace(good, cells=((10, 26), Unreadable("10;25"), (10, 24))),
        "roll.range": replace(good, roll=70),
        "room.joined": replace(good, cells=((3, 10), (3, 9), (3, 8))),
        "transform.value": replace(good, transform=Transform(45, False, 0)),
        "shape.match": replace(good, cells=((10, 26), (10, 25), (11, 25))),
        "room.id": replace(good, id=1),
    }
    for rule, bad in cases.items():
        outcome = RULES.step(state, bad)
        assert outcome.violations, rule
        assert all(isinstance(v, Violation) for v in outcome.violations)
        assert rule in [v.rule for v in outcome.violations], (rule, outcome.violations)
        with pytest.raises(Illegal) as caught:
            RULES.apply(state, bad)
        assert caught.value.rule == outcome.violations[0].rule and caught.value.lenient is not None


def test_door_states_are_judged_at_the_end_on_the_finished_sheet():
    state = opened()
    second = RULES.placements(state, 35, 1, (10, 27, "N"))[0]
    state = RULES.apply(state, second)
    state = RULES.apply(state, Contents(3, "empty"))
    # the porch's door was written unexplored although room 2 lies beyond it
    end = RULES.step(state, End())
    assert [v.rule for v in end.violations] == ["door.state"]
    assert "so it is explored (to: 2)" in end.violations[0].message
    fixed = RULES.new_game()
    porch = entrance()
    porch = replace(porch, doors=(replace(porch.doors[0], state="explored", to=2),))
    for a in (porch, Contents(7, "empty"), second, Contents(3, "empty"), Time(20), End(rooms=2, minutes=20)):
        outcome = RULES.step(fixed, a)
        assert outcome.legal, (a, outcome.violations)
        fixed = outcome.state


def test_retrace_and_time_and_end():
    state = opened()
    def walk(*rolls):
        return RULES.step(state, Retrace(tuple(RetraceRoll(*r) for r in rolls), 2))
    assert walk((1, 4, False), (1, 2)).legal
    assert [v.rule for v in walk((1, 1, False)).violations] == ["retrace.wandering"]
    assert [v.rule for v in walk((5, 3)).violations] == ["retrace.room"]
    assert [v.rule for v in walk((1, 7), (1, 1, True)).violations] == ["roll.range"]
    assert [v.rule for v in RULES.step(state, Retrace((RetraceRoll(9, 3),))).violations] == ["retrace.room"]
    porch = replace(entrance(), doors=())
    state = RULES.apply(RULES.apply(RULES.new_game(), porch), Contents(7, "empty"))
    assert [v.rule for v in RULES.step(RULES.step(state, Time(20)).state, End()).violations] == ["time"]
    assert [v.rule for v in RULES.step(state, End(rooms=3)).violations] == ["end.rooms"]
    assert [v.rule for v in RULES.step(state, End("final-boss")).violations] == ["end.reason"]


@pytest.mark.parametrize("seed", range(8))
def test_a_map_mode_game_is_a_sequence_of_legal_steps(seed):
    rooms, entrances, contents = TABLES
    ex = explore(rooms, entrances, contents, seed=seed, policy=("first", "random", "deepest")[seed % 3])
    state = RULES.new_game(ex.width, ex.height)
    for action in actions_of(ex):
        outcome = RULES.step(state, action)
        assert outcome.legal, (seed, action, outcome.violations)
        state = outcome.state
    assert state.ended is not None and len(state.rooms) == len(ex.rooms)
    # the engine's sheet holds every room where map mode drew it
    assert state.sheet.owner == ex.owner


def test_map_mode_places_rooms_where_the_engine_lists_them():
    rooms, entrances, contents = TABLES
    for seed in range(10):
        ex = Explorer(rooms, entrances, contents, RandomDice(seed), max_rooms=6)
        ex.run()
        first = ex.rooms[0]
        w = max(x for x, _ in first.cells) - min(x for x, _ in first.cells) + 1
        h = max(y for _, y in first.cells) - min(y for _, y in first.cells) + 1
        assert (min(x for x, _ in first.cells), min(y for _, y in first.cells)) == entrance_origin(ex.sheet, w, h)
        state = RULES.new_game()
        for action in actions_of(ex):
            if isinstance(action, Place) and action.die == "d66" and not action.truncated:
                parent = state.by_id[action.parent]
                listed = [a.cells for door, _ in parent.doors
                          for a in RULES.placements(state, action.roll, parent.id, door)]
                assert tuple(sorted(action.cells)) in [tuple(sorted(c)) for c in listed], (seed, action.id)
            state = RULES.step(state, action).state


def test_fitting_never_places_off_the_sheet_or_on_a_room():
    rooms, _, _ = TABLES
    sheet = Sheet(6, 6)
    sheet.claim_all([(3, 3), (4, 3)], 1)
    for v, tx, ty in fitting(sheet, rooms[23].variants(0), 3, 4, "N"):
        cells = [(x + tx, y + ty) for x, y in v.cells]
        assert all(sheet.occupant(*c) == 0 for c in cells)
    assert not list(fitting(Sheet(2, 2), rooms[23].variants(0), 1, 1, "N"))


def test_doors_of_a_placement_are_what_the_sheet_makes_of_its_exits():
    state = opened()
    for a in RULES.placements(state, 23, 1, (10, 27, "N")):
        assert all(isinstance(d, DoorMark) and d.state in ("unexplored", "explored", "secret") for d in a.doors)
        assert all(d.at != (10, 26, "S") for d in a.doors)          # the door it came in by is the porch's
