"""The exploration notation both ways: parse(serialize(a)) == a for every action kind
(hypothesis), whole rooms and logs round-trip, every play log under tests/data reads back
the same after writing, and map mode's writer (dump_log) writes exactly the actions of
its game through it."""
from pathlib import Path

from hypothesis import given, settings, strategies as st

from sheetgen.definitions.registry import load_file
from sheetgen.errors import SheetgenError
from sheetgen.games.exploration import notation
from sheetgen.games.exploration.actions import (Contents, DoorMark, End, Escalation, Place, Retrace, RetraceRoll,
                                                Time, Transform, Unreadable)
from sheetgen.games.exploration.formats import builtin_tables
from sheetgen.games.exploration.mapmode import actions_of, explore
from sheetgen.games.exploration.formats.playlog import dump_log

DATA = Path(__file__).parent / "data" / "exploration"
ints = st.integers(-5, 80)
rooms_ids = st.integers(1, 60)
cells = st.tuples(ints, ints)
unreadable = st.sampled_from(["10;27", "x", "10,27,3", "", "ten,two"]).map(Unreadable)
edges = st.one_of(st.tuples(ints, ints, st.sampled_from("NESW")), st.sampled_from(["10,27", "10,27:Q", "a:N"]).map(Unreadable))
words = st.text("abcdefghij-", min_size=1, max_size=10).filter(lambda w: w.strip("-") == w)
door_states = st.sampled_from(["unexplored", "explored", "secret", "dead-end", "opne"])

doors = st.builds(DoorMark, edges, door_states, st.none() | rooms_ids, st.booleans())
transforms = st.builds(Transform, st.sampled_from([0, 90, 180, 270, -90, 45, 360]), st.booleans(),
                       st.integers(0, 3))
rolls = st.one_of(st.tuples(st.just("entrance"), st.integers(0, 8)), st.tuples(st.just("d66"), st.integers(0, 70)),
                  st.just((None, None)))


@st.composite
def places(draw):
    die, roll = draw(rolls)
    listed = draw(st.booleans())            # no doors key: no doors
    return Place(draw(rooms_ids), die, roll, tuple(draw(st.lists(st.one_of(cells, unreadable), max_size=8))),
                 draw(st.none() | rooms_ids), draw(st.none() | transforms),
                 draw(st.none() | st.sampled_from(["room", "corridor", "hall"])), draw(st.none() | words),
                 draw(st.none() | st.booleans()), tuple(draw(st.lists(doors, max_size=4))) if listed else (), listed)


escalations = st.builds(Escalation, st.integers(0, 7), st.none() | st.integers(0, 3), st.none() | st.integers(0, 10),
                        st.none() | st.booleans())
contents = st.one_of(st.just(Contents()),
                     st.builds(Contents, st.integers(1, 13), st.none() | words, st.none() | escalations))
retrace_rolls = st.builds(RetraceRoll, st.none() | rooms_ids, st.integers(0, 7), st.none() | st.booleans())
retraces = st.lists(retrace_rolls, min_size=1, max_size=4).map(lambda rolls: Retrace(tuple(rolls)))
times = st.builds(Time, st.integers(0, 400))
ends = st.builds(End, st.none() | st.sampled_from(["final-boss", "retreat", "no-doors", "stopped"]),
                 st.none() | st.integers(0, 50), st.none() | st.integers(0, 500), st.none() | st.integers(0, 9))


@settings(max_examples=150)
@given(st.one_of(places(), contents, retraces, times, ends))
def test_every_action_kind_round_trips(action):
    assert notation.parse(type(action), notation.serialize(action)) == action


@st.composite
def logs(draw):
    """A well-formed log: rooms (retrace rolls walked to each, the room, its contents, a time),
    retrace rolls kept beside the rooms, the end."""
    out = []
    for place in draw(st.lists(places(), min_size=1, max_size=5)):
        out += [Retrace(r.rolls, place.id) for r in draw(st.lists(retraces, max_size=1))]
        out.append(place)
        out.append(draw(contents))
        out += draw(st.lists(times, max_size=1))
    out += draw(st.lists(retraces, max_size=1))
    out.append(draw(ends))
    return out


@settings(max_examples=80)
@given(logs())
def test_whole_logs_round_trip(actions):
    assert notation.log_actions(notation.log_dict(actions)) == actions


def test_written_forms_read_the_same_way_as_their_variants():
    room = {"id": 2, "roll": {"d66": "3-5"}, "transform": {"rotate": "90 ccw", "mirror": "horizontal"},
            "kind": " Corridor ", "cells": [[10, 26], "10, 25"], "doors": [{"at": "10,24:north", "state": "Dead End"}],
            "contents": 7, "retrace": 4, "time": "20 min"}
    actions = notation.parse_room(room, 1)
    assert actions == [Retrace((RetraceRoll(None, 4),), 2),
                       Place(2, "d66", 35, ((10, 26), (10, 25)), None, Transform(-90, True, 0), "corridor", None, None,
                             (DoorMark((10, 24, "N"), "dead-end"),)),
                       Contents(7), Time(20)]
    assert notation.parse_room({"id": 1, "roll": 4, "cells": []}, 0)[0].die == "entrance"   # the first room's bare roll
    assert notation.parse_room({"id": 1, "roll": {"d6": 4, "d66": 11}, "cells": []}, 0)[0].die is None   # both: none
    assert notation.parse_end("retreat", total=30) == End("retreat", minutes=30)


def _logs():
    for path in sorted(DATA.rglob("*.yaml")):
        try:
            loaded = load_file(path)
        except SheetgenError:
            continue
        if loaded.kind == "playlog":
            yield path, loaded.definition


def test_every_exploration_log_reads_back_the_same_after_writing():
    found = list(_logs())
    assert len(found) > 80
    for path, defn in found:
        again = notation.log_actions(notation.log_dict(defn.actions))
        assert again == defn.actions, path


def test_map_mode_writes_its_actions_through_the_notation():
    rooms, entrances, contents_table = builtin_tables()
    for seed in range(6):
        ex = explore(rooms, entrances, contents_table, seed=seed, policy=("first", "random", "deepest")[seed % 3])
        import yaml
        written = yaml.safe_load(dump_log(ex, seed=seed))
        assert notation.log_actions(written) == actions_of(ex), seed
