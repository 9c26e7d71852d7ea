"""Card-grid navigation notation both ways: every action kind survives
parse(serialize(a)) == a (also through YAML, as a tracker export writes it), and
every form docs/formats-cards.md documents parses to what it means."""
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from card_helpers import (assert_journal_round_trip, assert_round_trip, assert_turn_start_is_no_log_action,
                          documented_forms)

from sheetgen.games.navigation import notation
from sheetgen.games.navigation.actions import (KINDS, BeginTurn, EndTurn, Gain, Lose, Mirror, Move, MoveTo, Pay,
                                               PlaceToken, Resolve, Unresolve, Warp, Wrap)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "formats-cards.md"

WORDS = ["rat", "den", "forge", "east", "gate", "to", "use", "x1", "b2", "hall", "north", "room", "null", "yes"]
ids = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map("-".join)      # card ids, functions, items
names = st.sampled_from(["Ada", "Bo", "Cy Two", "Null", "true", "5"])
dirs = st.sampled_from("NESW")
uses = st.sampled_from([None, "key", "bomb", "hp"])
items = ids.filter(lambda k: k not in ("boots", "speedboots", "mirror", "magicmirror"))


@st.composite
def changes(draw):
    """Resource changes as a log can write them: each resource once, the items together."""
    numeric = draw(st.permutations(["hp", "keys", "bombs", "xp"]))[:draw(st.integers(0, 4))]
    entries = [(name, draw(st.integers(-3, 20))) for name in numeric]
    things = [("item", i) for i in draw(st.lists(items, max_size=3))]
    at = draw(st.integers(0, len(entries)))
    return tuple(entries[:at] + things + entries[at:])


functions = st.one_of(st.none(), ids, st.sampled_from(["1", "2", "elsewhere", "entered"]))
xps = st.one_of(st.none(), st.integers(-2, 12))
ACTIONS = {
    Move: st.builds(Move, dirs, uses), MoveTo: st.builds(MoveTo, ids, uses), Wrap: st.builds(Wrap, dirs, uses),
    Mirror: st.builds(Mirror, ids), Warp: st.builds(Warp, ids), Unresolve: st.builds(Unresolve, ids),
    Pay: st.builds(Pay, st.sampled_from(["key", "bomb", "hp"])),
    Resolve: st.builds(Resolve, functions, xps, changes(), changes()),
    PlaceToken: st.builds(PlaceToken, functions, xps, changes(), changes()),
    Gain: st.builds(Gain, changes()), Lose: st.builds(Lose, changes()), EndTurn: st.just(EndTurn()),
}
actions = st.one_of(*ACTIONS.values())


def test_every_action_kind_has_a_strategy():
    assert set(ACTIONS) | {BeginTurn} == set(KINDS)


@settings(max_examples=300, deadline=None)
@given(actions)
def test_parse_serialize_round_trip(action):
    assert_round_trip(notation, action)


@settings(max_examples=100, deadline=None)
@given(st.one_of(actions, st.builds(BeginTurn, names)))
def test_journal_steps_round_trip(action):
    assert_journal_round_trip(notation, action)


def test_a_turn_start_is_no_log_action():
    assert_turn_start_is_no_log_action(notation, BeginTurn("Ada"))


# every form the docs' action table writes, and what it means
DOCUMENTED = {
    "move east": Move("E"), "move e": Move("E"), "move right": Move("E"), "{move: east}": Move("E"),
    "{move: {dir: east}}": Move("E"),
    "{move: {dir: south, use: key}}": Move("S", "key"), "{move: south, use: bomb}": Move("S", "bomb"),
    "{move: {dir: s, use: hp}}": Move("S", "hp"),
    "move-to rat-den": MoveTo("rat-den"), "move to rat-den": MoveTo("rat-den"), "{move-to: rat-den}": MoveTo("rat-den"),
    "{move: {to: rat-den}}": MoveTo("rat-den"),
    "wrap east": Wrap("E"), "{wrap: east}": Wrap("E"), "{wrap: {dir: north, use: bomb}}": Wrap("N", "bomb"),
    "mirror silent-shrine": Mirror("silent-shrine"), "{mirror: silent-shrine}": Mirror("silent-shrine"),
    "warp east-gate": Warp("east-gate"), "{warp: east-gate}": Warp("east-gate"),
    "key": Pay("key"), "bomb": Pay("bomb"), "sacrifice: hp": Pay("hp"), "sacrifice hp": Pay("hp"),
    "sacrifice": Pay("hp"),
    "resolve": Resolve(), "resolve forge": Resolve("forge"), "{resolve: forge}": Resolve("forge"),
    "{resolve: {function: forge, xp: 2, gain: {item: Magic Mirror}, lose: {hp: 1}}}":
        Resolve("forge", 2, (("item", "magic-mirror"),), (("hp", 1),), "function"),   # always the function
    "{resolve: {function: forge}}": Resolve("forge", named="function"),
    "{resolve: {room: forge}}": Resolve("forge", named="room"),
    "place-token repair": PlaceToken("repair"), "{place-token: repair}": PlaceToken("repair"),
    "place-token elsewhere": PlaceToken("elsewhere"),
    "unresolve rat-den": Unresolve("rat-den"), "{unresolve: rat-den}": Unresolve("rat-den"),
    "{gain: {keys: 1, xp: 2, item: Speed Boots}}": Gain((("keys", 1), ("xp", 2), ("item", "speed-boots"))),
    "{lose: {hp: 2}}": Lose((("hp", 2),)),
    "end turn": EndTurn(), "end-turn": EndTurn(), "end": EndTurn(), "pass": EndTurn(),
}


def test_the_docs_table_is_the_one_tested_here():
    assert documented_forms(DOCS, "| action | written as | meaning |", (2,)) == list(DOCUMENTED)


@pytest.mark.parametrize("written, meant", DOCUMENTED.items(), ids=list(DOCUMENTED))
def test_a_documented_form_parses_to_what_it_means(written, meant):
    raw = yaml.safe_load(written) if written.startswith("{") or ":" in written else written
    assert notation.parse(raw) == meant


@pytest.mark.parametrize("word", ["n", "north", "N", "up", "e", "east", "right", "s", "south", "down",
                                  "w", "west", "left"])
def test_every_direction_word_of_the_docs(word):
    assert notation.parse(f"move {word}").dir == {"n": "N", "u": "N", "e": "E", "r": "E", "s": "S", "d": "S",
                                                  "w": "W", "l": "W"}[word[0].lower()]
