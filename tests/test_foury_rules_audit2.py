"""Regressions found by the second audit (campaigns, heroes, multi-round play): each rule from
both sides, on the built-in campaign maps."""
from foury_helpers import TRAITS, play, refused, sheet
from sheetgen.games.foury.formats.map import load_map
from sheetgen.games.foury import rules as E
from sheetgen.games.foury.actions import Climb, Collect, Enter, Exit, Fight, Lever, Market, Move
from sheetgen.games.foury.board import parse_cell as P
from sheetgen.games.foury.heroes import free_hero


def start(name, *actions):
    s = E.new_game(load_map(name).board, free_hero(TRAITS))
    return play(s, *actions)


def test_slaughter_fury_boxes_penciled_on_the_sheet_instead_of_hearts():
    s = start("slaughter", Enter(start=P("F6")), Move(P("F5"), 5), Fight(1, 4))    # a hit for 3
    assert s.res["hearts"] == 1
    kept = play(s, sheet(hearts=4, fury=3))
    assert kept.res["hearts"] == 4 and kept.fury == 3
    assert "sheet.hearts" in refused(s, sheet(hearts=4, fury=2))        # two boxes do not pay three hearts
    assert "sheet.fury" in refused(start("santa", Enter(start=P("F7"))), sheet(fury=1))   # Slaughter's track only


def test_santa_landing_on_a_printed_star_gives_four_free_steps_once():
    s = start("santa", Enter(start=P("F7")), Move(P("F8"), 2), Move(P("E8"), 2), Move(P("D8"), 2))
    landed = play(s, Move(P("C8"), 2))                  # C8: a printed star
    assert landed.extra == 4
    assert play(landed, Collect("star")).extra == 4     # the same star, not a second one
    assert play(landed, Move(P("B8"))).pos == P("B8")   # no roll


def test_turns_after_an_extra_step_and_one_per_move_reading():
    s = start("santa", Enter(start=P("F7")), Move(P("F8"), 6))     # Ice Cliff 6: an extra step
    s = play(s, Move(P("G8")), Move(P("H8"), 3))                   # the extra step, then a rolled move
    assert s.turns == 2                                            # a new turn after the extra step
    s = play(s, Move(P("G8")), Move(P("F8")))                      # a free walk back
    assert (s.turns, s.turns_hi) == (3, 4)
    for n in (3, 4):
        play(s, sheet(turns=n))
    assert "sheet.turns" in refused(s, sheet(turns=5))


def test_potion_and_star_steps_may_be_rolled_but_the_extra_step_event_may_not():
    s = start("strength", Enter(entry=(P("A3"), "W")), Move(P("A3"), 6), Move(P("B3"), 6), Move(P("C3"), 6),
              Collect("yellow potion"))
    assert play(s, Move(P("D3"), 3)).walls == frozenset({E.wall_key(P("D3"), "E")})
    ev = start("strength", Enter(entry=(P("H11"), "S")), Move(P("H11"), 6))      # the extra step event
    assert "roll.not_due" in refused(ev, Move(P("I11"), 3))


def test_an_item_found_by_the_die_may_be_collected_once_more_on_the_log():
    s = start("slaughter", Enter(start=P("F6")), Move(P("F5"), 1), Fight(6, 1))     # Bone Pit 1: find a potion
    hearts = s.res["hearts"]
    after = play(s, Collect("potion"))
    assert after.res["hearts"] == hearts
    assert "collect.absent" in refused(after, Collect("potion"))


def kraken_cornucopia():
    return start("kraken", Enter(entry=(P("A3"), "W")), Move(P("A3"), 4), Move(P("A4")), Move(P("A5"), 6),
                 Move(P("A6")), Move(P("A7"), 6), Collect("cornucopia"))


def test_kraken_market_once_at_an_exit_cell_at_the_rate_of_requirements_done():
    s = play(kraken_cornucopia(), Move(P("A6")), Move(P("A5")), Move(P("A4")))
    s = play(s, Move(P("A3")))
    s.res = dict(s.res, chests=2)
    bought = play(s, Market(2, (("shovels", 2),)))
    assert bought.res["shovels"] == 4 and bought.market_done
    assert "kraken.market" in refused(bought, Market(0, (), (("shovels", 1),), (("hearts", 1),)))
    assert "market.price" in refused(s, Market(1, (("shovels", 2),)))          # one requirement: x1
    assert "market.when" in refused(play(s, Move(P("A4"))), Market(1, (("shovels", 1),)))   # not at an exit


def test_kraken_requirements_by_kind_on_the_sheet():
    s = kraken_cornucopia()
    play(s, sheet(requirement={"cornucopias": 1, "statues": 0, "D": 1}))
    play(s, sheet(requirement=1))
    assert "sheet.requirement" in refused(s, sheet(requirement={"statues": 1}))


def test_kraken_exit_side_after_a_lever_its_zone_or_where_the_hero_stood():
    b = load_map("kraken").board
    s = E.new_game(b, free_hero(TRAITS))
    s.phase, s.pos, s.entry = E.INSIDE, P("I3"), None
    s.used_entries = frozenset({(P("H1"), "N")})
    s.kprogress = {"statues": 3, "kills": 3, "cornucopias": 1, "levers": 1}
    s = play(s, Climb(), Lever(P("D4")))          # the last requirement: a Temple lever, from Palace stairs
    assert (s.last_req_zone, s.last_req_alt) == ("B", "A")
    for cell, side in ((P("A9"), "W"), (P("E11"), "S")):      # opposite the Palace, or the Temple
        t = s.copy()
        t.pos = cell
        play(t, Exit(cell, side))
    t = s.copy()
    t.pos = P("K4")
    assert "kraken.exit_side" in refused(t, Exit(P("K4"), "E"))
