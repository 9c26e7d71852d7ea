"""Campaign rules, enforced when the map names its campaign (legal and illegal cases)."""
from dataclasses import replace

import pytest

from foury_helpers import TRAITS, play, refused
from sheetgen.games.foury.formats.map import load_map
from sheetgen.games.foury import rules as E
from sheetgen.games.foury.actions import Candy, Collect, Enter, Exit, Fight, Flood, Move
from sheetgen.games.foury.board import parse_cell as P
from sheetgen.games.foury.heroes import FREE_CAPS, SCALE, check_free_traits, free_hero


def board(name):
    return load_map(name).board


def at(b, cell, foe=None, hero=None, **res):
    s = E.new_game(b, hero or free_hero(TRAITS))
    s.phase, s.pos, s.facing = E.INSIDE, P(cell), "S"
    s.explored = frozenset({P(cell)})
    if foe:
        s.spawned, s.engaged = {P(cell): foe}, True
    s.res = dict(s.res, **res)
    return s


# -- The Slaughter of Monsters ---------------------------------------------------------------
def test_slaughter_starts_at_the_triangle_and_has_no_exits():
    b = board("slaughter")
    s = play(E.new_game(b, free_hero(TRAITS)), Enter())
    assert s.pos == b.start and s.phase == E.INSIDE
    assert refused(s, Exit(P("A2"), "W")) == {"campaign.no_exit"}


def test_slaughter_fury_instead_of_losses_only_there():
    s = play(at(board("slaughter"), "C3", "orc"), Fight(1, 4, fury=3))
    assert s.res["hearts"] == 4 and s.fury == 3
    assert "fury.campaign" in refused(at(board("ancient-story"), "C3", "orc"), Fight(1, 4, fury=3))


def test_slaughter_cornucopia_every_three_kills_and_at_most_48():
    s = at(board("slaughter"), "C3", "orc")
    s.kills_total = 2
    assert play(s, Fight(6, 1)).res["cornucopias"] == 1
    s.kills_total = 3
    assert play(s, Fight(6, 1)).res["cornucopias"] == 0
    s.kills_total = 48
    assert refused(s, Fight(6, 1)) == {"slaughter.max"}


def test_slaughter_rolls_find_items():
    b = board("slaughter")
    s = play(E.new_game(b, free_hero(TRAITS)), Enter())      # F6, zone A
    s2 = play(s, Move(P("F5"), 1))                              # A1: find potion
    assert s2.res["hearts"] == 5


# -- Santa Crash'n Foury ---------------------------------------------------------------------------
def test_santa_hourglass_limits_the_turns():
    b = board("santa")
    s = play(E.new_game(b, free_hero(TRAITS)), Enter())
    assert s.pos == P("F7")
    s.turns = b.turns - 1
    s2 = play(s, Move(P("G7"), 5))                              # the last hourglass box
    assert s2.turns == b.turns
    s2.extra, s2.turn_open = 0, False
    assert "santa.time" in refused(s2, Move(P("G8"), 3))


def test_santa_grinch_and_yeti_destroy_packages_and_candy_canes_distract():
    b = board("santa")
    g = play(at(b, "C3", "grinch", **{"green packages": 2}), Fight(1, 3))
    assert g.res["green packages"] == 1 and g.res["hearts"] == 2
    y = play(at(b, "C3", "yeti", **{"blue packages": 1}), Fight(1, 2))
    assert y.res["blue packages"] == 0
    c = play(at(b, "C3", "grinch", **{"candy canes": 1}), Candy())
    assert c.enemy_at(P("C3")) is None and c.kills == 0 and c.res["candy canes"] == 0
    assert refused(at(b, "C3", "grinch"), Candy()) == {"candy.none"}
    assert refused(at(b, "C3", "orc", **{"candy canes": 1}), Candy()) == {"candy.who"}


def test_santa_star_gives_four_free_steps():
    b = board("santa")
    s = at(b, "G2")                                             # a printed star
    s = play(s, Collect("star"))
    assert s.extra == 4
    for cell in ("G3", "G4", "F4", "F3"):
        s = play(s, Move(P(cell)))
    assert "roll.missing" in refused(s, Move(P("F2")))


# -- In and Out with Your Strength ---------------------------------------------------------------
def test_strength_caps_are_the_full_scale():
    traits = {"hearts": 3, "shields": 9, "weapon": 0, "clovers": 0, "shovels": 0}
    assert check_free_traits(traits)                              # above a plain sheet's 8 shields
    assert check_free_traits(traits, full_scale=True) == []
    assert free_hero(traits, full_scale=True).cap("shields") == SCALE["shields"] > FREE_CAPS["shields"]


@pytest.mark.parametrize("potion, hearts", [("yellow potion", 2), ("purple potion", 3), ("potion", 1)])
def test_potions_heal_and_the_elixirs_give_an_extra_step(potion, hearts):
    b = board("strength")
    b = replace(b, items={**b.items, P("C3"): (potion,)})
    s = play(at(b, "C3", hearts=4), Collect(potion))
    assert s.res["hearts"] == 4 + hearts
    free_cell = next(n for n in (P("C4"), P("D3"), P("B3"), P("C2"))
                     if not b.is_rock(n) and not s.has_wall(P("C3"), E.direction(P("C3"), n)))
    if potion == "potion":
        assert "roll.missing" in refused(s, Move(free_cell))
    else:
        assert play(s, Move(free_cell)).pos == free_cell
        # "you MAY move 1 step without rolling": a roll on that step is resolved as usual
        rolled = play(s, Move(free_cell, 4))
        assert rolled.pos == free_cell and rolled.extra == 0


# -- Discovering the Kraken -------------------------------------------------------------------------
def test_kraken_is_immortal_with_strength_6():
    b = board("kraken")
    s = at(b, "F6", "kraken")
    s.spawned = {}
    s.engaged = True
    lost = play(s, Fight(6, 1))                                  # 6 against 1 + 6: hit for 1
    assert lost.res["hearts"] == 3
    s.res = dict(s.res, weapon=5)
    beaten = play(s, Fight(6, 1, weapon=True))                   # 11 against 7
    assert beaten.enemy_at(P("F6")) == "kraken" and not beaten.engaged


def test_kraken_water_must_be_faced_and_swimming_is_limited_to_5():
    b = board("kraken")
    s = at(b, "D5")
    s2 = play(s, Move(P("D6")))                                   # flooded, connected to the lair
    assert s2.enemy_at(P("D6")) == "kraken" and s2.engaged
    pool = replace(b, items={}, flooded=frozenset(P(c) for c in ("C3", "B3")))
    t = at(pool, "D3")
    t.flooded = frozenset(P(c) for c in ("C3", "B3", "A3"))       # a pool not joined to the Kraken
    t = play(t, Move(P("C3")), Move(P("B3")), Move(P("C3")), Move(P("B3")), Move(P("C3")))
    assert t.swim == 5 and t.phase == E.INSIDE
    assert play(t, Move(P("B3"))).phase == E.DEAD                 # the 6th swim


def test_kraken_backtracking_limited_to_5_spaces():
    b = board("kraken")
    s = at(b, "E3")
    s.explored = frozenset(P(c) for c in ("E3", "F3", "E4"))
    s.turn_open = True
    for cell in ("F3", "E3", "F3", "E3", "F3"):
        s = play(s, Move(P(cell)))
    assert "kraken.backtrack" in refused(s, Move(P("E3")))


def test_kraken_floods_every_5_turns():
    b = board("kraken")
    s = at(b, "C4")
    s.turns = s.turns_hi = 5
    s.turn_open = False
    # a flood not yet written: an unexplored cell next to the Kraken's water may be swum into
    # without a roll (facing the Kraken), but the next turn starting without it is a violation
    d4 = at(b, "D4")
    d4.turns = d4.turns_hi = 5
    assert "kraken.flood_due" in refused(d4, Move(P("D5")))
    d5 = E.step(d4, Move(P("D5"))).state
    assert P("D5") in d5.flooded and d5.enemy_at(P("D5")) == "kraken"
    assert "roll.missing" in refused(d4, Move(P("E4")))     # E4 is not next to the water
    assert "kraken.flood_due" in refused(s, Move(P("C5"), 3))
    # one space beside each of D6, E6, F6, F7, F8, G8 (F7 and G8 may both pour into G7)
    full = (P("D5"), P("E5"), P("F5"), P("E7"), P("E8"), P("G7"))
    f = play(s, Flood(full))
    assert set(full) <= f.flooded and f.floods_done == 1
    assert play(f, Move(P("C5"), 3)).pos == P("C5")               # turn 6: the flood is written
    assert "kraken.flood_few" in refused(s, Flood((P("E5"),)))   # five sources left dry
    assert "kraken.flood_many" in refused(s, Flood((P("C6"),) + full))   # D6 cannot flood both C6 and D5
    assert "kraken.flood_far" in refused(s, Flood((P("A1"),)))
    assert "kraken.flood_far" in refused(s, Flood((P("E6"),)))   # flooded already
    assert "kraken.flood_early" in refused(f, Flood((P("D5"),)))
    # the actions offered while a flood is due: the flood (one the rule accepts), no move into turn 6
    offered = s.rules.legal_actions(s)
    floods = [a for a in offered if isinstance(a, Flood)]
    assert len(floods) == 1 and not [a for a in offered if isinstance(a, Move)]
    assert any(isinstance(a, Move) for a in s.rules.legal_actions(play(s, floods[0])))
    # a log counting a turn per move floods after its fifth move, though free moves made fewer turns
    m = at(b, "D4")
    m.turns, m.turns_hi = 3, 5
    assert play(m, Flood(full)).floods_done == 1
    m.turns_hi = 4
    assert "kraken.flood_early" in refused(m, Flood(full))


def test_a_kraken_flood_with_no_free_space_needs_no_step():
    b = board("kraken")
    s = at(b, "C4")
    s.turns = s.turns_hi = 5
    s.turn_open = False
    rules = s.rules
    while rules.flood_targets(s):               # every space around the Kraken's water is water already
        s.flooded = s.flooded | {n for free in rules.flood_targets(s).values() for n in free}
    assert play(s, Move(P("C5"))).floods_done == 1


def test_kraken_exit_needs_all_four_requirements():
    b = board("kraken")
    s = at(b, "K4")
    s.entry, s.used_entries, s.visited = None, frozenset({(P("D1"), "N")}), True
    assert "kraken.requirements" in refused(s, Exit(P("K4"), "E"))
    s.kprogress = {"statues": 3, "kills": 3, "levers": 2, "cornucopias": 1}
    s.last_req_zone = "D"                                        # K4 is in zone B, opposite D
    assert play(s, Exit(P("K4"), "E")).completed == 1
    for zone in "ABC":
        s.last_req_zone = zone
        assert "kraken.exit_side" in refused(s, Exit(P("K4"), "E"))


def test_slaughter_fury_pays_the_weapon_point_and_its_peak_ends_the_game():
    s = at(board("slaughter"), "C3", "orc")
    w = play(s, Fight(6, 1, weapon=True, fury=1))
    assert w.res["weapon"] == 2 and w.fury == 1
    assert refused(s, Fight(6, 1, fury=1)) == {"fury.excess"}
    s.fury = 4
    assert refused(s, Fight(1, 3, fury=2)) == {"fury.full"}
    end = play(s, Fight(1, 3, fury=1))                          # the 5th box: Furious
    assert end.phase == E.DEAD and end.fury == 5 and end.kills >= 1
    assert end.enemy_at(P("C3")) is None                        # every monster of the sector erased
