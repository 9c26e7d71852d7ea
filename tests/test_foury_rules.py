"""The Dungeon Foury rules engine: every rule from both sides (legal and illegal).

Geometry of the Test Hall (tests/data/foury_logs/test-hall.yaml):
    A A A A A        items: B1 B2 E1 statue, D2 chest, A4 cornucopia,
    D A A A B               B4 stairs, D4 A5 lever; printed wall B3:E
    D D O B B        entries: C1:N (A), E3:E (B), C5:S (C), A3:W (D)
    D C C C B
    C C C C C
"""
import pytest

from foury_helpers import HALL as BOARD, enter, game, mv, play, refused
from sheetgen.games.foury import rules as E
from sheetgen.games.foury.actions import (Circle, Climb, Coin, Collect, Exit, Fight, Flee, Lever, Market, Move, Oracle, Redeem, Score, Sheet, Shovel)
from sheetgen.games.foury.board import parse_cell as P, parse_cell_side
from sheetgen.games.foury.heroes import free_hero, named_hero
from sheetgen.games.foury.notation import describe


def _with_items(board, items):
    """BOARD with ITEMS (cell -> items) printed instead of what its cells had."""
    import dataclasses
    return dataclasses.replace(board, items={**board.items, **items})


def at(state, cell, foe=None, round_no=1, **res):
    """A state placed in cell (inside round round_no) with an optional foe there."""
    s = state.copy()
    s.phase = E.INSIDE
    s.pos = P(cell)
    s.facing = "S"
    s.round_no = round_no
    s.completed = round_no - 1
    s.explored = s.explored | {P(cell)}
    if foe:
        s.spawned = {P(cell): foe}
        s.engaged = True
    if res:
        s.res = dict(s.res, **res)
    return s


A_START = (enter("C1:N"),)


# -- movement -------------------------------------------------------------------------
def test_move_adjacent_through_open_side():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"))       # extra step: no roll
    assert s.pos == P("C2")
    assert "move.adjacent" in refused(s, mv("E2", 3))


def test_printed_wall_blocks_and_open_side_does_not():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"))   # Oracle: no roll
    assert "move.wall" in refused(s, mv("B3", 3))               # B3:E is printed
    assert play(s, mv("D3")).pos == P("D3")                      # leaving the Oracle: placing, no roll


def test_collapsed_wall_blocks_until_a_shovel_erases_it():
    s = play(game(), *A_START, mv("C1", 2))                     # collapse left right: C1:E, C1:W
    assert "move.wall" in refused(s, mv("D1", 1))
    s2 = play(s, Shovel(P("C1"), "E"))
    assert s2.pos == P("D1") and s2.res["shovels"] == 1 and P("D1") in s2.explored
    assert E.sheet_value(s2, "walls") == ["C1:W"]


def test_map_edge_is_a_wall_and_off_map_refused():
    s = play(game(), *A_START, mv("C1", 6))
    assert refused(s, Move((2, -1), None)) == {"move.off_map"}
    assert "shovel.edge" in refused(s, Shovel(P("C1"), "N"))


def test_collapsed_room_cannot_be_entered_even_with_shovel():
    s = play(game(), enter("E3:E"), mv("E3", 3), mv("D3", 1))   # B1: the room you came from collapses
    assert E.sheet_value(s, "rooms") == ["E3"]
    assert "move.collapsed_room" in refused(s, mv("E3"))
    assert play(s, mv("C3")).pos == P("C3")


def test_solid_rock_cannot_be_entered():
    from dataclasses import replace
    board = replace(BOARD, cells={**BOARD.cells, P("D1"): "#"})
    s = play(game(board=board), *A_START, mv("C1", 6))
    assert "move.rock" in refused(s, mv("D1"))


def test_nothing_after_death_but_one_coin():
    s = at(game(), "D2", "orc", hearts=1)
    s = play(s, Fight(1, 6))
    assert s.phase == E.DEAD
    assert refused(s, mv("D1", 3)) == {"dead"}
    s2 = play(s, Coin())
    assert s2.phase in (E.START, E.BETWEEN) and s2.res["hearts"] == 4
    s3 = at(s2, "D2", "orc", hearts=1)
    s3 = play(s3, Fight(1, 6))
    assert refused(s3, Coin()) == {"coin.used"}
    assert refused(game(), Coin()) == {"coin.alive"}


# -- rolls ----------------------------------------------------------------------------
def test_roll_due_on_unexplored_refused_on_explored():
    s = play(game(), *A_START, mv("C1", 5))
    assert "roll.missing" in refused(s, mv("D1"))               # roll 5 closed front and behind: east is open
    s = play(s, mv("D1", 6))
    assert "roll.not_due" in refused(s, mv("C1", 3))
    assert play(s, mv("C1")).pos == P("C1")


def test_free_movement_along_explored_cells_any_number_of_steps():
    s = play(game(), *A_START, mv("C1", 6), mv("D1"), mv("D2", 6), mv("E2"))
    for cell in ("D2", "D1", "C1", "D1", "D2"):
        s = play(s, mv(cell))
    assert s.pos == P("D2")


def test_roll_out_of_range():
    assert "roll.range" in refused(play(game(), *A_START), mv("C1", 7))
    assert "roll.range" in refused(play(game(), *A_START), mv("C1", 0))


def test_extra_step_grants_one_move_without_roll_only():
    s = play(game(), *A_START, mv("C1", 6))
    assert "roll.not_due" in refused(s, mv("D1", 3))
    s = play(s, mv("D1"))
    assert "roll.missing" in refused(s, mv("E1"))


# -- walls relative to the direction of movement -----------------------------------------
@pytest.mark.parametrize("entry, cell, roll, walls", [
    ("C1:N", "C1", 2, ["C1:W", "D1:W"]),          # facing S: left E (=D1:W), right W
    ("C1:N", "C1", 3, ["C2:N", "D1:W"]),          # left E, front S (=C2:N)
    ("C1:N", "C1", 4, ["C1:W", "C2:N"]),          # right W, front S
    ("C1:N", "C1", 5, ["C1:N", "C2:N"]),          # front S, behind N: the arrow's opening collapses too
    ("E3:E", "E3", 3, ["E4:N"]),                  # zone B facing W: left is S
    ("E3:E", "E3", 4, ["E3:N"]),                  # right is N
    ("E3:E", "E3", 5, ["E3:W"]),                  # front W (= D3:E, stored canonically as E3:W)
])
def test_collapse_relative_to_direction(entry, cell, roll, walls):
    s = play(game(), enter(entry), mv(cell, roll))
    assert E.sheet_value(s, "walls") == walls


def test_walls_already_present_stay_and_are_not_added():
    s = play(game(), *A_START, mv("C1", 6), mv("D1"))           # D1: N is the map edge
    s = play(s, mv("E1", 5))                                    # moving E into E1: front E is the edge
    assert E.sheet_value(s, "walls") == ["E1:W"]                # only behind (W) is drawn


def test_sheet_walls_claim_checked():
    s = play(game(), *A_START, mv("C1", 2))
    play(s, Sheet((("walls", ["C1:E", "C1:W"]),)))              # C1:E is D1:W: the same wall
    assert refused(s, Sheet((("walls", ["C1:E"]),))) == {"sheet.walls"}


def test_collapse_origin_and_flood_origin_apply_to_the_cell_moved_from():
    s = play(game(), enter("A3:W"), mv("A3", 4), mv("A2", 1))   # zone D event 1: A3 floods
    assert E.sheet_value(s, "flooded") == ["A3"]
    assert E.sheet_value(s, "rooms") == []
    assert refused(s, Sheet((("flooded", ["A2"]),))) == {"sheet.flooded"}      # not the room entered
    assert play(s, mv("A3")).pos == P("A3")                      # swim back: explored and flooded, no roll


# -- encounters -------------------------------------------------------------------------------
def test_monster_must_be_fought_before_collecting_or_moving_on():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("D2", 1))
    assert s.enemy_at(P("D2")) == "monster" and s.engaged
    assert "collect.enemy" in refused(s, Collect("chest"))
    assert "fight.pending" in refused(s, mv("C2"))
    s2 = play(s, Fight(5, 2), Collect("chest"), mv("C2"))
    assert s2.res["chests"] == 1 and s2.kills == 1


def test_statue_must_be_faced_and_counts_in_the_temple_even_when_not_beaten():
    s = play(game(), *A_START, mv("C1", 6), mv("B1"))           # B1 statue (extra step)
    assert s.engaged and "fight.pending" in refused(s, mv("C1"))
    s = play(s, Fight(3, 3))                                    # tie: faced, counts
    assert s.requirement_progress() == 1 and s.enemy_at(P("B1")) == "statue"
    s = play(s, Fight(4, 3))                                    # beaten: erased, still one statue
    assert s.requirement_progress() == 1 and s.enemy_at(P("B1")) is None and s.kills == 0


def test_a_monster_is_fled_after_any_exchange_a_statue_after_a_tie_or_blocked_hit():
    s = at(game(), "D2", "orc")
    assert "flee.when" in refused(s, Flee())                    # not faced yet
    assert play(s, Fight(3, 3), Flee()).fled
    assert play(s, Fight(1, 5, shield=True), Flee()).fled
    # "If the Monster is still alive, you can decide to continue the combat or flee"
    hit = play(s, Fight(1, 2))
    assert play(hit, Flee()).fled and play(hit, mv("D3", 3)).pos == P("D3")
    statue = at(game(), "D2", "statue")
    assert play(statue, Fight(3, 3), Flee()).fled
    assert play(statue, Fight(1, 5, shield=True), Flee()).fled
    dart = play(statue, Fight(1, 2))                            # the statue's section: no flight after a hit
    assert "flee.when" in refused(dart, Flee()) and "fight.pending" in refused(dart, mv("D3", 3))
    fled = play(s, Fight(3, 3), Flee())
    assert "collect.enemy" in refused(play(fled), Collect("chest"))   # the orc is still there
    assert refused(game(), Flee()) == {"round.not_started"}


@pytest.mark.parametrize("foe, round_no, bonus", [
    ("orc", 1, 0), ("orc", 2, 1), ("orc", 4, 3), ("goblin", 4, 0), ("minotaur", 2, 2), ("minotaur", 3, 4),
    ("statue", 4, 0), ("kraken", 1, 6), ("monster", 3, 2),
])
def test_enemy_strength_by_round_and_type(foe, round_no, bonus):
    s = at(game(), "D2", foe, round_no=round_no, hearts=15)
    s.caps = dict(s.caps, hearts=20)
    # hero 6 against enemy 1 + bonus: a win exactly when 6 > 1 + bonus
    won = play(s, Fight(6, 1))
    assert (won.enemy_at(P("D2")) is None or foe == "kraken") == (6 > 1 + bonus) or foe == "kraken"
    lost = play(s, Fight(1, 6))
    assert lost.res["hearts"] == 15 - (6 + bonus - 1)


def test_weapon_adds_full_value_and_drops_by_one_after_the_fight():
    s = at(game(), "D2", "orc")
    s = play(s, Fight(3, 4, weapon=True))
    assert s.enemy_at(P("D2")) is None and s.res["weapon"] == 1
    s2 = play(at(game(), "D2", "orc"), Fight(3, 4))
    assert s2.res["weapon"] == 2 and s2.res["hearts"] == 3


def test_shield_blocks_and_is_refused_without_a_hit_or_a_shield():
    s = at(game(), "D2", "orc")
    b = play(s, Fight(1, 6, shield=True))
    assert b.res["hearts"] == 4 and b.res["shields"] == 1 and b.enemy_at(P("D2")) == "orc"
    assert refused(s, Fight(6, 1, shield=True)) == {"shield.no_hit"}
    assert refused(at(game(), "D2", "orc", shields=0), Fight(1, 6, shield=True)) == {"shield.none"}


def test_clover_rerolls_one_die_and_needs_a_clover():
    s = at(game(), "D2", "orc")
    c = play(s, Fight(1, 6, clover_die="enemy", clover_roll=1))
    assert c.res["clovers"] == 1 and c.last == "tie" and c.res["hearts"] == 4   # 1 v rerolled 1
    assert refused(at(game(), "D2", "orc", clovers=0), Fight(1, 6, clover_die="hero", clover_roll=6)) == {"clover.none"}


def test_melyra_chooses_the_clover_result():
    s = at(game(named_hero("melyra")), "D2", "orc")
    c = play(s, Fight(1, 6, clover_die="hero", clover_roll=6))
    assert c.last == "tie"


def test_lose_hearts_equal_to_difference_never_below_zero():
    s = at(game(), "D2", "orc", round_no=4)
    s = play(s, Fight(1, 6))                                    # 1 v 6+3: 8 damage, 4 hearts
    assert s.res["hearts"] == 0 and s.phase == E.DEAD


def test_imp_destroys_the_resource_in_its_cell_first():
    from dataclasses import replace
    board = replace(BOARD, items={**BOARD.items, P("D2"): ("chest", "imp")})
    s = play(game(board=board), *A_START, mv("C1", 6), mv("C2"), mv("D2", 3))
    assert s.enemy_at(P("D2")) == "imp" and s.items_at(P("D2")) == []
    s = play(s, Fight(6, 1))
    assert "collect.absent" in refused(s, Collect("chest"))
    plain = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("D2", 3))
    assert play(plain, Collect("chest")).res["chests"] == 1


def test_bandit_steals_on_a_hit_and_gives_a_cornucopia_when_beaten():
    s = at(game(), "D2", "bandit")
    hit = play(s, Fight(1, 3, stolen="shovels"))
    assert hit.res["hearts"] == 2 and hit.res["shovels"] == 1
    # the theft not named: the next sheet shows which resource went (a sheet showing none lost is wrong)
    unnamed = play(s, Fight(1, 3))
    assert unnamed.theft == 1
    settled = play(unnamed, Sheet((("shovels", 1), ("clovers", 2))))
    assert settled.res["shovels"] == 1 and settled.theft == 0
    nothing_lost = Sheet(tuple((k, unnamed.res[k]) for k in ("shields", "weapon", "clovers", "shovels")))
    assert refused(unnamed, nothing_lost) == {"bandit.steal"}
    assert refused(s, Fight(1, 3, stolen="chests")) == {"bandit.steal"}        # has no chest
    won = play(s, Fight(6, 1))
    assert won.res["cornucopias"] == 1
    assert refused(s, Fight(6, 1, stolen="shovels")) == {"bandit.steal"}


def test_thalindra_gains_an_extra_cornucopia_from_kills():
    s = at(game(named_hero("thalindra")), "D2", "bandit")
    assert play(s, Fight(6, 1)).res["cornucopias"] == 2
    assert play(at(game(named_hero("kael")), "D2", "bandit"), Fight(6, 1)).res["cornucopias"] == 1


def test_troll_returns_at_the_end_of_the_round():
    s = play(game(), enter("E3:E"), mv("E3", 6), mv("D3", 4), mv("C3"))
    s = play(s, mv("D3"))
    s.spawned = {P("D3"): "troll"}
    s.engaged = True
    s = play(s, Fight(6, 1))
    assert s.enemy_at(P("D3")) is None
    s = play(s, mv("C3"), mv("C2", 6), mv("C1"), Exit(P("C1"), "N"))     # leaving the Oracle: zone A's 6
    assert s.enemy_at(P("D3")) == "troll"
    back = at(s, "C3")
    back = play(back, mv("D3"))
    assert back.engaged and "fight.pending" in refused(back, mv("E3"))       # it must be fought again


def test_kael_rolls_no_event_entering_a_space_with_an_enemy():
    from dataclasses import replace
    board = replace(BOARD, items={**BOARD.items, P("D1"): ("orc",)})
    kael = play(game(named_hero("kael"), board=board), *A_START, mv("C1", 6), mv("C2"))
    assert play(kael, mv("D2", 5)).pos == P("D2")
    k2 = play(game(named_hero("kael"), board=board), *A_START, mv("C1", 4))
    assert "roll.not_due" in refused(k2, mv("D1", 2))           # Kael: no roll into the orc's room
    other = play(game(board=board), *A_START, mv("C1", 4))
    assert "roll.missing" in refused(other, mv("D1"))


def test_resources_never_above_caps():
    from dataclasses import replace
    board = replace(BOARD, items={**BOARD.items, P("D2"): ("potion",)})
    s = play(game(free_hero({"hearts": 12, "shields": 0, "weapon": 0, "clovers": 0, "shovels": 0}), board=board),
             *A_START, mv("C1", 6), mv("C2"), mv("D2", 3))
    s = play(s, Collect("potion"))
    assert s.res["hearts"] == 12                                # a free character's sheet has 12 heart boxes
    assert refused(s, Sheet((("hearts", 13),))) == {"sheet.hearts"}


# -- requirements, Oracle, exits -----------------------------------------------------------------
def test_requirement_counts_only_its_own_kind():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("D2", 1), Fight(6, 1))
    assert s.kills == 1 and s.requirement_progress() == 0       # round A counts statues, not kills
    b = play(game(), enter("E3:E"), mv("E3", 2))                 # B: a monster
    b = play(b, Fight(6, 1))
    assert b.requirement_progress() == 1


def test_oracle_gives_its_chest_only_when_awakened():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"))
    assert s.visited and not s.awakened and s.res["chests"] == 0
    s = play(s, Oracle("two words"))
    assert s.res["chests"] == 0
    assert refused(s, Sheet((("chests", 1),))) == {"sheet.chests"}
    t = at(game(), "C2")
    t.zone, t.kind, t.progress, t.awakened = "A", "statues", 3, True
    t = play(t, mv("C3"))
    assert t.res["chests"] == 1
    assert play(t, Oracle("x")).res["chests"] == 1             # once per round


def test_cornucopia_carried_to_the_oracle_awakens_it_in_the_waterways():
    s = play(game(), enter("A3:W"), mv("A3", 6), mv("A4"), Collect("cornucopia"))
    assert s.requirement_progress() == 1 and not s.awakened
    spent = play(s, Redeem("hearts"))
    assert spent.requirement_progress() == 0                    # redeemed: no longer counts
    s = play(s, mv("A3"), mv("B3", 6), mv("B2"), Fight(3, 3), Flee(), mv("C2", 6), mv("C3"))
    assert s.awakened and s.res["cornucopias"] == 0 and s.res["chests"] == 1


def test_exit_rules():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"))
    s = play(s, mv("D3"), mv("E3", 4))
    ok = play(s, Exit(P("E3"), "E"))
    assert ok.phase == E.BETWEEN and ok.completed == 1 and ok.round_no == 2 and ok.kills == 0
    no_oracle = play(game(), *A_START, mv("C1", 6), mv("D1"), mv("D2", 6), mv("E2"), mv("E3", 4))
    assert refused(no_oracle, Exit(P("E3"), "E")) == {"exit.oracle"}
    same_zone = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("C2"), mv("C1"))
    assert refused(same_zone, Exit(P("C1"), "N")) >= {"exit.used", "exit.zone"}
    assert "exit.where" in refused(s, Exit(P("C5"), "S"))


def test_used_entry_is_closed_for_good_and_a_zone_is_played_once():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("D3"), mv("E3", 4), Exit(P("E3"), "E"))
    assert refused(s, enter("C1:N")) >= {"entry.used", "round.zone_done"}
    assert refused(s, enter("E3:E")) == {"entry.used"}           # the exit's arrow is closed too
    r2 = play(s, enter("C5:S"))
    assert r2.zone == "C" and r2.round_no == 2


def test_exit_cell_rolls_its_events_like_any_cell():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("D3"), mv("E3", 4))
    assert E.sheet_value(s, "explored")[-1] == "E3"
    s2 = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("D3"))
    assert "roll.missing" in refused(s2, mv("E3"))
    s3 = play(s2, mv("E3", 2))                                   # B2: collapse behind + monster
    assert s3.engaged and "fight.pending" in refused(s3, Exit(P("E3"), "E"))


def test_kills_reset_and_chest_values_rise_each_round():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("D2", 1), Fight(6, 1), Collect("chest"),
             mv("C2"), mv("C3"), mv("D3"), mv("E3", 4), Exit(P("E3"), "E"))
    assert s.kills == 0 and s.kills_total == 1 and s.res["chests"] == 1
    assert E.chest_value(s) == 1
    play(s, Market(1, (("hearts", 1),)))
    assert refused(s, Market(1, (("hearts", 2),))) == {"market.price"}
    s.completed, s.round_no = 2, 3
    assert E.chest_value(s) == 2
    play(s, Market(1, (("hearts", 1), ("shovels", 1))))


def test_market_trades_one_for_one_within_caps():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("D3"), mv("E3", 4), Exit(P("E3"), "E"))
    t = play(s, Market(0, (), (("weapon", 2),), (("shovels", 2),)))
    assert t.res["weapon"] == 0 and t.res["shovels"] == 4
    assert refused(s, Market(0, (), (("weapon", 2),), (("shovels", 1),))) == {"market.trade"}
    assert refused(s, Market(0, (), (("weapon", 3),), (("shovels", 3),))) == {"market.trade"}
    s.caps = dict(s.caps, hearts=8)
    assert "resource.cap" in refused(s, Market(0, (), (("weapon", 2), ("shovels", 2), ("clovers", 1)), (("hearts", 5),)))
    assert refused(play(game(), *A_START), Market(0, (), (("weapon", 1),), (("hearts", 1),))) == {"market.when"}


def test_elydion_trades_once_per_round_at_the_next_rounds_value():
    s = play(game(named_hero("elydion")), *A_START, mv("C1", 6), mv("C2"), mv("D2", 3), Collect("chest"))
    s2 = play(s, Market(1, (("hearts", 2),)))                    # round 1, inside: x2
    assert s2.res["hearts"] == 5 and s2.elydion_used
    s2.res = dict(s2.res, chests=1)
    assert "market.elydion" in refused(s2, Market(1, (("hearts", 2),)))
    assert refused(play(game(), *A_START, mv("C1", 6), mv("C2"), mv("D2", 3), Collect("chest")),
                   Market(1, (("hearts", 2),), next_rate=True)) >= {"market.rate"}


def test_four_rounds_end_the_game_and_final_score():
    from dataclasses import replace
    board = replace(BOARD, entries=BOARD.entries + ((P("E1"), "N"),))   # a fifth arrow, zone A
    s = game(board=board)
    s.completed, s.round_no, s.phase = 3, 4, E.BETWEEN
    s.used_entries = frozenset({parse_cell_side(e) for e in ("C1:N", "E3:E", "C5:S")})
    s.zones_done = frozenset("ABC")
    s = play(s, enter("A3:W"), mv("A3", 6), mv("B3"), mv("B2", 6), Fight(3, 3), Flee(), mv("C2"), mv("C3"))
    assert refused(s, enter("C5:S")) == {"round.unfinished"}
    s = play(s, mv("C2"), mv("C1", 6), mv("D1"), mv("E1", 6), Fight(4, 1), Exit(P("E1"), "N"))
    assert s.phase == E.OVER
    assert refused(s, enter("C5:S")) == {"game.over"}
    score = E.final_score(s) + s.kills_total - s.kills
    play(s, Score(score))
    assert refused(s, Score(score + 1)) == {"score.count"}


def test_levers_are_reached_from_the_upper_level_of_the_stairs():
    s = play(game(), enter("C5:S"), mv("C5", 6), mv("B5"), mv("B4", 3))
    assert refused(s, Lever(P("D4"))) == {"lever.stairs"}
    up = play(s, Climb(), Lever(P("D4")), Lever(P("A5")))
    assert up.requirement_progress() == 2 and up.awakened
    assert refused(up, Lever(P("D4"))) == {"lever.used"}
    assert refused(play(game(), enter("C5:S"), mv("C5", 6)), Climb()) == {"climb.stairs"}


def test_magic_circle_to_magic_circle():
    from dataclasses import replace
    board = replace(BOARD, items={**BOARD.items, P("C1"): ("magic circle",), P("E5"): ("magic circle",)})
    s = play(game(board=board), *A_START, mv("C1", 6), Circle(P("E5")))
    assert s.pos == P("E5") and P("E5") in s.explored
    assert refused(s, Circle(P("A1"))) == {"circle.there"}


def test_legal_actions_lists_what_can_be_done():
    s = play(game(), *A_START, mv("C1", 2))
    names = {describe(a) for a in E.legal_actions(s)}
    assert "move C2" in names and "shovel C1:E" in names and "move D1" not in names
    assert {describe(a) for a in E.legal_actions(game())} == {"enter C1:N", "enter E3:E", "enter C5:S", "enter A3:W"}


def test_die_item_follows_our_die_table():
    from dataclasses import replace
    board = replace(BOARD, items={**BOARD.items, P("D2"): ("die",)})
    s = play(game(board=board), *A_START, mv("C1", 6), mv("C2"), mv("D2", 3))
    assert play(s, Collect("die", roll=2)).res["hearts"] == 3
    assert play(s, Collect("die", roll=3)).res["shovels"] == 3
    monster = play(s, Collect("die", roll=1))
    assert monster.engaged and "fight.pending" in refused(monster, mv("C2"))
    assert refused(s, Collect("die")) == {"roll.missing"}


def test_chest_event_is_marked_at_once_and_a_collect_step_is_the_same_chest():
    s = play(game(), enter("E3:E"), mv("E3", 6))                  # zone B event 6: a chest
    assert s.res["chests"] == 1
    assert play(s, Collect("chest")).res["chests"] == 1
    assert "collect.absent" in refused(play(s, Collect("chest")), Collect("chest"))


def test_oracle_reached_before_awakening_then_again_after():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"))
    assert s.visited and not s.awakened and s.res["chests"] == 0
    s = play(s, mv("C2"), mv("B2", 6), Fight(3, 3), Flee(), mv("B1"), Fight(2, 2), Flee())
    s = play(s, mv("C1"), mv("D1", 6), mv("E1"), Fight(6, 1))
    assert s.requirement_progress() == 3 and s.awakened               # still counting after the first visit
    s = play(s, mv("D1"), mv("C1"), mv("C2"), mv("C3"))
    assert s.res["chests"] == 1
    s = play(s, mv("C2"), mv("B2"), Fight(6, 1))
    assert s.requirement_progress() == 3                              # no more counting once awake and reached


def test_a_wall_collapsing_on_the_exit_arrow_does_not_stop_the_exit():
    # "If you end your movement on an unused Entry/Exit space ... roll ... Have you survived?
    # CONGRATULATIONS": the exit cell's events matter for its encounters, not for its walls
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("D3"), mv("E3", 5))   # B5: front (E) collapses
    assert play(s, Exit(P("E3"), "E")).completed == 1
    s = play(s, Shovel(P("E3"), "E"))           # clearing it anyway is allowed; the hero stays
    assert s.pos == P("E3") and s.res["shovels"] == 1
    assert play(s, Exit(P("E3"), "E")).completed == 1


def test_an_events_monster_is_a_plain_monster_a_printed_one_may_be_named():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("D2", 1))
    s.round_no = 3
    # "you encounter a monster": the round's strength; naming it a goblin (+0) is refused (issue 28)
    assert refused(s, Fight(4, 3, enemy_type="goblin")) == {"fight.enemy_type"}
    assert play(s, Fight(4, 3)).last == "hit"                                   # a plain monster: +2
    assert s.rules.monster_types(s, s.pos) == ()
    printed = s.copy()
    printed.spawned = {}
    printed.board = _with_items(s.board, {P("D2"): ("chest", "monster")})
    assert "goblin" in printed.rules.monster_types(printed, printed.pos)
    assert "yeti" not in printed.rules.monster_types(printed, printed.pos)     # Santa's, not this map's
    won = play(printed, Fight(4, 3, enemy_type="goblin"))                         # goblin: +0 even in round 3
    assert won.enemy_at(P("D2")) is None and won.kills == 1
    orc = at(game(), "D2", "orc")
    assert refused(orc, Fight(3, 3, enemy_type="goblin")) == {"fight.enemy_type"}


def test_exit_from_the_cell_next_to_the_arrow_moves_and_rolls_first():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("D3"))
    out = play(s, Exit(P("E3"), "E", 4))                         # move E3 rolling 4, then leave
    assert out.completed == 1 and E.sheet_value(out, "walls") == ["E4:N"]
    assert "roll.missing" in refused(s, Exit(P("E3"), "E"))
    there = play(s, mv("E3", 4))
    assert "roll.not_due" in refused(there, Exit(P("E3"), "E", 4))


def test_shovel_needs_a_shovel_a_collapsed_wall_and_the_heros_room():
    s = play(game(), *A_START, mv("C1", 2))                      # C1:E and C1:W collapse
    assert refused(at(s, "C1", shovels=0), Shovel(P("C1"), "E")) == {"shovel.none"}
    assert "shovel.no_wall" in refused(s, Shovel(P("C1"), "S"))
    assert "shovel.where" in refused(s, Shovel(P("C2"), "E"))
    t = play(game(), enter("E3:E"), mv("E3", 6), mv("D3", 4))
    t = play(t, mv("C3"))
    assert "shovel.printed" in refused(t, Shovel(P("C3"), "W"))   # B3:E is printed


def test_items_and_entries_that_are_not_there():
    s = play(game(), *A_START, mv("C1", 6))
    assert refused(s, Collect("potion")) == {"collect.absent"}
    assert refused(s, Collect("statue")) == {"collect.not_item"}
    assert refused(s, Circle(P("E5"))) == {"circle.here"}
    assert refused(s, Redeem("hearts")) == {"cornucopia.none"}
    assert "entry.unknown" in refused(game(), enter("B1:N"))
    assert "move.entry" in refused(play(game(), *A_START), mv("D1", 3))


def test_market_cannot_spend_chests_not_owned_and_score_waits_for_the_end():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("D3"), mv("E3", 4), Exit(P("E3"), "E"))
    assert "market.chests" in refused(s, Market(1, (("hearts", 1),)))
    assert "score.when" in refused(s, Score(E.final_score(s)))
    assert play(s, Market()).phase == E.BETWEEN                  # an empty market visit is fine


def test_collapsed_entry_arrow_cannot_be_entered():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("C3"), mv("D3"), mv("E3", 5), Shovel(P("E3"), "E"))
    s = play(s, Exit(P("E3"), "E"))
    from sheetgen.games.foury.board import wall_key
    s.walls = s.walls | {wall_key(P("C5"), "S")}                 # a wall collapsed across the arrow C5:S
    assert "move.wall" in refused(play(s, enter("C5:S")), mv("C5", 3))


def test_elydion_at_the_end_of_a_round_buys_at_the_next_value_once():
    s = play(game(named_hero("elydion")), *A_START, mv("C1", 6), mv("C2"), mv("D2", 3), Collect("chest"),
             mv("C2"), mv("C3"), mv("D3"), mv("E3", 6), Exit(P("E3"), "E"))           # 2 chests now
    assert s.res["chests"] == 2
    t = play(s, Market(1, (("hearts", 2),)))                     # x2 instead of x1: his once per round
    assert t.elydion_used and t.res["hearts"] == 5
    assert refused(t, Market(1, (("hearts", 2),))) == {"market.price"}
    assert play(t, Market(1, (("hearts", 1),))).res["chests"] == 0
    plain = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("D2", 3), Collect("chest"),
                 mv("C2"), mv("C3"), mv("D3"), mv("E3", 6), Exit(P("E3"), "E"))
    assert refused(plain, Market(1, (("hearts", 2),))) == {"market.price"}


def test_an_extra_step_is_the_very_next_move_even_into_an_explored_room():
    s = play(game(), *A_START, mv("C1", 6), mv("C2"), mv("D2", 6))   # D2 rolled zone A's 6: one extra step
    back = play(s, mv("C2"))                                           # spent on a free move
    assert back.extra == 0
    assert "roll.missing" in refused(back, mv("B2"))
    assert play(back, mv("B2", 3)).pos == P("B2")
    assert play(s, mv("E2")).pos == P("E2")                             # or into a new room without rolling
