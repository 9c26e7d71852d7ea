"""Shuffle Dungeons notation both ways: every action kind survives
parse(serialize(a)) == a (also through YAML, as a tracker export writes it), and
every form docs/formats-cards.md documents parses to what it means."""
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from card_helpers import (assert_journal_round_trip, assert_round_trip, assert_turn_start_is_no_log_action,
                          documented_forms)

from sheetgen.games.shuffle import notation
from sheetgen.games.shuffle.actions import (KINDS, BeginTurn, Build, Burn, Draw, Eat, Effect, EndTurn, Equip, Fight,
                                            LevelUp, Loot, Move, PlaceMonster, Power, Shift, Shrine, Slide, Swap,
                                            Trade, Trap, Twist, Ward)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "formats-cards.md"

WORDS = ["goblin", "bend", "hall", "war", "axe", "east", "to", "monster", "x1", "null", "yes", "room"]
ids = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map("-".join)      # card ids
cards = st.lists(ids, max_size=3).map(tuple)
names = st.sampled_from(["Ada", "Bo", "Cy Two", "Null", "true"])
heroes = st.lists(names, unique=True, max_size=3).map(lambda h: tuple(sorted(h)))
dirs = st.sampled_from("NESW")
cells = st.tuples(st.integers(-4, 4), st.integers(-4, 4))
refs = st.one_of(ids, cells)
by = st.one_of(st.none(), names)
maybe = st.none().__or__                        # maybe(x): None or x
small = st.integers(0, 4)
amounts = st.lists(st.tuples(names, small), unique_by=lambda p: p[0], max_size=3).map(lambda p: tuple(sorted(p)))
results = maybe(st.sampled_from(["reward", "penalty"]))

ACTIONS = {
    Move: st.builds(Move, st.lists(dirs, min_size=1, max_size=4).map(tuple), maybe(st.integers(1, 6)), results,
                    small, by=by),
    Trap: st.builds(Trap, st.integers(1, 6), results, small, maybe(cards), by=by),
    Draw: st.one_of(st.builds(Draw, by=by), st.builds(Draw, count=small, by=by), st.builds(Draw, cards=cards, by=by)),
    PlaceMonster: st.builds(PlaceMonster, ids, dirs, by=by),
    Build: st.one_of(st.builds(Build, ids, path=dirs, turns=st.integers(0, 3), by=by),
                     st.builds(Build, ids, at=cells, turns=st.integers(0, 3), by=by)),
    Equip: st.builds(Equip, ids, by=by), Eat: st.builds(Eat, ids, maybe(names), by=by),
    Burn: st.builds(Burn, cards, by=by), Trade: st.builds(Trade, names, cards, cards, st.booleans(), by=by),
    Power: st.builds(Power, ids, by=by), Shrine: st.builds(Shrine, by=by), Ward: st.builds(Ward, by=by),
    Shift: st.builds(Shift, refs, dirs, maybe(cells), maybe(ids), st.booleans(), by=by),
    Slide: st.one_of(st.builds(Slide, dirs, room=refs, to=maybe(cells), via=maybe(ids), empty=st.booleans(), by=by),
                     st.builds(Slide, dirs, hero=names, to=maybe(cells), via=maybe(ids), empty=st.booleans(),
                               by=by)),
    Swap: st.builds(Swap, st.tuples(refs, refs), maybe(ids), st.booleans(), by=by),
    Twist: st.builds(Twist, refs, st.integers(0, 3), maybe(ids), st.booleans(), by=by),
    Fight: st.builds(Fight, monster=maybe(ids), at=maybe(cells),
                     hero_dice=st.lists(st.integers(0, 7), max_size=3).map(tuple),
                     monster_dice=st.lists(st.integers(0, 7), max_size=3).map(tuple),
                     hero_bonus=st.integers(-2, 3), monster_bonus=st.integers(-2, 3), extra_damage=st.integers(-1, 3),
                     damage=maybe(st.integers(-1, 9)), hero_attack=maybe(st.integers(0, 20)),
                     monster_attack=maybe(st.integers(0, 20)), winner=maybe(st.sampled_from(["hero", "monster"])),
                     level_up=maybe(names), assist=maybe(heroes), loot=maybe(cards), red=amounts, armor=amounts,
                     by=by).filter(lambda f: f.monster is not None or f.at is not None),
    LevelUp: st.builds(LevelUp, maybe(names), by=by),
    Loot: st.one_of(st.builds(Loot, st.integers(-1, 4), monster=maybe(ids), by=by),
                    st.builds(Loot, cards=cards, monster=maybe(ids), by=by)),
    Effect: st.builds(Effect, small, small, small, maybe(st.lists(names, max_size=3).map(tuple)), by=by),
    EndTurn: st.builds(EndTurn, by=by),
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
    "move east east": Move(("E", "E")), "move e": Move(("E",)), "go north": Move(("N",)),
    "{move: [e, e]}": Move(("E", "E")), "{move: east, roll: 4, result: reward}": Move(("E",), 4, "reward"),
    "trap 5": Trap(5), "{trap: {roll: 5, result: penalty, armor: 1}}": Trap(5, "penalty", 1),
    "draw": Draw(), "draw 2": Draw(2), "{draw: 2}": Draw(2), "{draw: [bread, goblin]}": Draw(cards=("bread", "goblin")),
    "place-monster goblin east": PlaceMonster("goblin", "E"),
    "{place-monster: {monster: goblin, path: east}}": PlaceMonster("goblin", "E"),
    "build bend north": Build("bend", "N"), "build bend north 90": Build("bend", "N", turns=1),
    "{build: {room: bend, path: north, rotation: 90}}": Build("bend", "N", turns=1),
    "{build: {room: bend, at: [0, -1]}}": Build("bend", at=(0, -1)),
    "equip war-axe": Equip("war-axe"), "{equip: war-axe}": Equip("war-axe"),
    "eat bread": Eat("bread"), "{eat: bread, target: Bo}": Eat("bread", "Bo"),
    "{eat: bread, by: Bo, target: Ada}": Eat("bread", "Ada", by="Bo"),
    "burn bread": Burn(("bread",)), "burn bread spark": Burn(("bread", "spark")),
    "{burn: [bread, spark]}": Burn(("bread", "spark")),
    "{burn: {top: 1}}": Burn(top=1), "{burn: {top: 1, monster: ogre}}": Burn(top=1, monster="ogre"),
    "{trade: {with: Bo, give: [bread], take: [spark], agreed: true}}": Trade("Bo", ("bread",), ("spark",), True),
    "power knight": Power("knight"), "{power: spark}": Power("spark"),
    "shrine": Shrine(), "ward": Ward(), "{shrine: {}}": Shrine(),
    "shift bend east": Shift("bend", "E"),
    "{shift: {room: [1, 0], dir: east, to: [2, 0], via: rogue}}": Shift((1, 0), "E", (2, 0), "rogue"),
    "slide bend south": Slide("S", room="bend"),
    "{slide: {room: bend, dir: south, to: [1, 3]}}": Slide("S", room="bend", to=(1, 3)),
    "{slide: {hero: Ada, dir: east, via: blink}}": Slide("E", hero="Ada", via="blink"),
    "swap bend gate-hall": Swap(("bend", "gate-hall")),
    "{swap: {rooms: [bend, [2, 0]], via: rogue, empty: true}}": Swap(("bend", (2, 0)), "rogue", True),
    "twist bend 90": Twist("bend", 1), "{twist: {room: [0, -1], rotation: 90, via: mage}}": Twist((0, -1), 1, "mage"),
    "{fight: {monster: goblin, hero-dice: [5], monster-dice: [3], winner: hero, damage: 2}}":
        Fight("goblin", hero_dice=(5,), monster_dice=(3,), winner="hero", damage=2),
    "loot 1": Loot(1), "{loot: [war-axe]}": Loot(cards=("war-axe",)), "{loot: 1, monster: goblin}": Loot(1, monster="goblin"),
    "level-up Ada": LevelUp("Ada"), "{level-up: Ada}": LevelUp("Ada"),
    "{effect: {damage: 1, heal: 0, armor: 0}}": Effect(1), "{effect: {damage: 1, target: [Ada, Bo]}}":
        Effect(1, targets=("Ada", "Bo")),
    "end turn": EndTurn(), "halt": EndTurn(), "end": EndTurn(), "pass": EndTurn(),
}


def test_the_docs_table_is_the_one_tested_here():
    assert documented_forms(DOCS, "| action | string form | mapping form |", (2, 3)) == list(DOCUMENTED)


@pytest.mark.parametrize("written, meant", DOCUMENTED.items(), ids=list(DOCUMENTED))
def test_a_documented_form_parses_to_what_it_means(written, meant):
    raw = yaml.safe_load(written) if written.startswith("{") else written
    assert notation.parse(raw) == meant
