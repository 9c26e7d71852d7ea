"""Regression tests for the readings revised in the audit of the Foury rules engine
(see the engine docstring): each one legal and illegal side by side."""
from __future__ import annotations
import pytest

from foury_helpers import enter, game, mv, play, refused
from sheetgen.games.foury.formats.map import load_map
from sheetgen.games.foury.actions import Climb, Collect, Exit, Fight, Lever, Market, Sheet
from sheetgen.games.foury.board import parse_cell as P
from sheetgen.games.foury.heroes import named_hero

ANCIENT = load_map("ancient-story").board
MONSTER_D2 = (enter("C1:N"), mv("C1", 2), mv("C2", 4), mv("D2", 1))    # the example: a monster in D2


def test_moving_on_from_a_monster_still_alive_after_an_exchange_is_fleeing():
    s = play(game(), *MONSTER_D2)
    assert "fight.pending" in refused(s, mv("D3", 3))                  # not faced at all
    assert play(s, Fight(3, 3), mv("D3", 3)).pos == P("D3")            # a tie: moving on is the flight
    assert play(s, Fight(1, 5, shield=True), mv("D3", 3)).pos == P("D3")
    assert play(s, Fight(1, 2), mv("D3", 3)).pos == P("D3")            # hit, still alive: "continue ... or flee"


def test_weapon_point_per_exchange_or_once_per_combat():
    per_exchange = play(game(), *MONSTER_D2, Fight(2, 4, weapon=True), Fight(4, 3, weapon=True))
    assert per_exchange.res["weapon"] == 0 and per_exchange.kills == 1     # 2+2 ties 4, then 4+1 beats 3
    once = game(readings=("weapon-once",))
    s = play(once, *MONSTER_D2, Fight(2, 4, weapon=True))
    assert s.res["weapon"] == 2                                           # not paid while the combat goes on
    s = play(s, Fight(3, 4, weapon=True))                                 # 3 + 2 = 5 beats 4
    assert s.res["weapon"] == 1 and s.kills == 1
    fled = play(once, *MONSTER_D2, Fight(2, 4, weapon=True), mv("D3", 3))
    assert fled.res["weapon"] == 1                                        # paid when fleeing


def test_flooded_cells_may_be_entered_with_or_without_a_roll():
    s = play(game(board=ANCIENT), enter("A3:W"), mv("A3", 3), mv("A4", 5))
    assert play(s, mv("A5")).pos == P("A5")
    rolled = play(s, mv("A5", 6))
    assert rolled.extra == 1                                              # the roll's event applies
    assert refused(s, mv("A5", 7)) == {"roll.range"}


def test_kael_may_roll_or_not_entering_a_statue_but_never_an_enemy():
    kael = named_hero("kael")
    s = play(game(kael), enter("C1:N"), mv("C1", 4), mv("D1", 2))
    assert play(s, mv("E1")).engaged and play(s, mv("E1", 3)).engaged
    k = play(game(kael, ANCIENT), enter("K2:E"), mv("K2", 4))
    assert refused(k, mv("K3", 2)) == {"roll.not_due"}
    assert refused(play(game(board=ANCIENT), enter("K2:E"), mv("K2", 4)), mv("K3")) == {"roll.missing"}


def test_an_unnamed_bandit_theft_is_settled_by_the_next_sheet():
    s = play(game(board=ANCIENT), enter("K2:E"), mv("K2", 4), mv("K3", 4), Fight(4, 2), mv("K4", 4), mv("K5", 4))
    hit = play(s, Fight(1, 3))
    assert hit.res["hearts"] == 2 and hit.theft == 1
    settled = play(hit, Sheet((("clovers", 1),)))
    assert settled.res["clovers"] == 1 and settled.theft == 0
    assert "bandit.steal" in refused(hit, Sheet(tuple((k, hit.res[k]) for k in ("shields", "weapon", "clovers",
                                                                                   "shovels"))))


def test_cornucopias_spent_on_the_sheet():
    s = play(game(board=ANCIENT), enter("K2:E"), mv("K2", 4), mv("K3", 4), Fight(4, 2), mv("K4", 4), mv("K5", 4),
             Fight(6, 1))
    assert s.res["cornucopias"] == 1
    used = play(s, Sheet((("hearts", 5), ("cornucopias", 0))))
    assert used.res["hearts"] == 5 and used.res["cornucopias"] == 0
    assert "sheet.hearts" in refused(s, Sheet((("hearts", 6), ("cornucopias", 0))))   # one buys one
    assert "sheet.cornucopias" in refused(s, Sheet((("cornucopias", 0),)))            # gone for nothing


def test_round_d_cornucopia_may_be_penciled_in_the_requirement_space():
    s = play(game(), enter("A3:W"), mv("A3", 5), mv("A4", 5), Collect("cornucopia"))
    assert play(s, Sheet((("cornucopias", 0), ("requirement", 1)))).res["cornucopias"] == 1
    assert play(s, Sheet((("cornucopias", 1), ("requirement", 1)))).res["cornucopias"] == 1
    assert "sheet.cornucopias" in refused(s, Sheet((("cornucopias", 2),)))


def test_walls_sheet_tolerates_blank_map_walls_and_arrow_walls_but_not_wrong_ones():
    s = play(game(), enter("C1:N"), mv("C1", 5))                         # front C1:S, behind the arrow C1:N
    assert play(s, Sheet((("walls", ["C1:S"]),)))
    assert play(s, Sheet((("walls", ["C1:S", "C1:N"]),)))
    assert play(s, Sheet((("walls", ["C2:N", "B3:E"]),)))               # the other name; a printed wall
    assert play(s, Sheet((("walls", 1),)))
    assert refused(s, Sheet((("walls", ["C1:E"]),))) == {"sheet.walls"}
    assert refused(s, Sheet((("walls", []),))) == {"sheet.walls"}


def test_a_move_after_a_lever_may_start_from_the_lever_room():
    s = play(game(), enter("C5:S"), mv("C5", 3), mv("B5", 6), mv("B4"), Climb(), Lever(P("A5")), Lever(P("D4")))
    assert play(s, mv("D5", 2)).pos == P("D5")                          # walked to D4 above
    assert play(s, mv("C4", 2)).pos == P("C4")                          # or still at the stairs
    assert "move.adjacent" in refused(s, mv("E2", 2))


def test_a_printed_monster_named_imp_destroys_the_resource_first():
    import dataclasses

    from foury_helpers import HALL
    # an event's monster is a plain monster: naming it an imp is refused (issue 28)
    assert refused(play(game(), *MONSTER_D2), Fight(6, 1, enemy_type="imp")) == {"fight.enemy_type"}
    printed = dataclasses.replace(HALL, items={**HALL.items, P("D2"): ("chest", "monster")})
    s = play(game(board=printed), *MONSTER_D2, Fight(6, 1, enemy_type="imp"))
    assert s.items_at(P("D2")) == []
    assert "collect.absent" in refused(s, Collect("chest"))
    assert play(game(board=printed), *MONSTER_D2, Fight(6, 1, enemy_type="orc"), Collect("chest")).res["chests"] == 1


def test_market_takes_at_most_the_round_value():
    s = play(game(), *MONSTER_D2, Fight(6, 1), Collect("chest"), mv("D3", 6), mv("C3"), mv("D3"), mv("E3", 4),
             Exit(P("E3"), "E"))
    assert play(s, Market(1, (("hearts", 1),))).res["hearts"] == 5
    assert play(s, Market(1, ())).res["chests"] == 0                      # a poor deal, not a broken rule
    assert refused(s, Market(1, (("hearts", 2),))) == {"market.price"}
    assert refused(s, Market(0, (("hearts", 1),))) == {"market.price"}


def test_requirement_boxes_by_zone_or_kind_and_kills_between_rounds():
    s = play(game(), enter("C1:N"), mv("C1", 6), mv("B1"), Fight(5, 3))
    assert play(s, Sheet((("requirement", {"A": 1}),)))
    assert play(s, Sheet((("requirement", {"statues": 1, "kills": 0}),)))
    assert refused(s, Sheet((("requirement", {"A": 2}),))) == {"sheet.requirement"}
    b = play(game(), *MONSTER_D2, Fight(6, 1), mv("D3", 6), mv("C3"), mv("D3"), mv("E3", 4), Exit(P("E3"), "E"))
    assert b.kills == 0
    assert play(b, Sheet((("kills", 1),))) and play(b, Sheet((("kills", 0),)))   # reset at the exit or the next start
    assert refused(b, Sheet((("kills", 2),))) == {"sheet.kills"}
    inside = play(b, enter("A3:W"))
    assert refused(inside, Sheet((("kills", 1),))) == {"sheet.kills"}           # the new round has started


def test_monster_event_in_a_statue_room_one_foe_or_two():
    start = (enter("C1:N"), mv("C1", 3), mv("B1", 1))
    one = play(game(), *start)
    assert one.enemy_at(P("B1")) == "statue"
    assert refused(play(one, Fight(4, 3)), Fight(5, 2)) == {"fight.no_enemy"}   # only the statue
    two = play(game(readings=("monster-too",)), *start)
    assert two.enemy_at(P("B1")) == "monster"
    after = play(two, Fight(4, 3))
    assert after.engaged and after.enemy_at(P("B1")) == "statue" and after.kills == 1
    assert "fight.pending" in refused(after, mv("A1", 2))
    assert play(after, Fight(5, 2)).requirement_progress() == 1


def test_a_pending_extra_step_is_the_next_move_even_a_free_one():
    steps = (enter("C1:N"), mv("C1", 2), mv("C2", 6), mv("C1"), mv("C2"))     # C2's roll 6: an extra step
    spent = play(game(), *steps)
    assert spent.extra == 0 and refused(spent, mv("D2")) == {"roll.missing"}   # the free move back was the step
    with pytest.raises(ValueError, match="unknown reading 'extra-after-free'"):   # retired: not in the text
        game(readings=("extra-after-free",))


def test_leaving_the_oracle_rolls_the_zone_entered_or_the_rounds_zone():
    to_oracle = (enter("C1:N"), mv("C1", 2), mv("C2", 2), mv("C3"))
    s = play(game(), *to_oracle)
    entered = play(s, mv("D3", 6))                                  # zone B's 6: a chest
    assert entered.res["chests"] == s.res["chests"] + 1 and entered.extra == 0
    assert play(s, mv("D3")).pos == P("D3")                         # placing yourself: the roll is optional
    rounds = play(game(readings=("oracle-round-zone",)), *to_oracle, mv("D3", 6))   # zone A's 6: an extra step
    assert rounds.extra == 1 and rounds.res["chests"] == s.res["chests"]
