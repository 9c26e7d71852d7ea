"""The Foury readings the rules text leaves open (docs/readings.md): each default judged one way,
the alternative a log may declare judged the other, both sides tested."""
from __future__ import annotations

from foury_helpers import TRAITS, game, mv, play, refused
from sheetgen.games.foury import rules as E
from sheetgen.games.foury.actions import Market
from sheetgen.games.foury.board import parse_cell as P
from sheetgen.games.foury.formats.map import load_map
from sheetgen.games.foury.heroes import free_hero


def inside(state, cell, **fields):
    """state with the hero inside round 1 at cell (explored), fields set as given."""
    s = state.copy()
    s.phase, s.pos, s.facing, s.round_no, s.completed = E.INSIDE, P(cell), "S", 1, 0
    s.zone, s.kind = "A", "statues"
    s.explored = s.explored | {P(cell)}
    for k, v in fields.items():
        setattr(s, k, v)
    return s


# -- a potion's free step and the step into the Oracle's room ---------------------------------------
def test_a_potions_step_is_spent_by_the_step_into_the_oracle_by_default():
    s = inside(game(), "C2", extra=1, extra_may=1)          # a yellow potion drunk in C2, next to the Oracle
    oracle = play(s, mv("C3"))
    assert oracle.extra == 0 and oracle.turns == 0          # the Oracle step was the potion's: no new turn
    # where the step out of the Oracle is rolled, nothing is left to pay for it
    rolled = inside(game(readings=("oracle-exit-rolled",)), "C2", extra=1, extra_may=1)
    assert "roll.missing" in refused(play(rolled, mv("C3")), mv("D3"))


def test_a_potions_step_kept_past_the_oracle_under_its_reading():
    s = inside(game(readings=("potion-step-kept", "oracle-exit-rolled")), "C2", extra=1, extra_may=1)
    oracle = play(s, mv("C3"))
    assert oracle.extra == 1 and oracle.turns == 1          # the Oracle step is a turn of its own
    assert play(oracle, mv("D3")).pos == P("D3")               # the kept step: no roll
    # the extra step event's step ("then move one additional space") is not a potion's: spent
    event = inside(game(readings=("potion-step-kept",)), "C2", extra=1, extra_may=0)
    assert play(event, mv("C3")).extra == 0


# -- the step out of the Oracle's room -------------------------------------------------------------
def test_the_step_out_of_the_oracle_is_placing_yourself_no_roll_due_by_default():
    s = inside(game(), "C3", visited=True)
    assert play(s, mv("D3")).pos == P("D3")                   # "PLACE YOURSELF outside the Oracle's room"
    assert play(s, mv("D3", 3)).pos == P("D3")                # a roll written is resolved all the same


def test_the_step_out_of_the_oracle_is_rolled_under_its_reading():
    s = inside(game(readings=("oracle-exit-rolled",)), "C3", visited=True)
    assert "roll.missing" in refused(s, mv("D3"))
    assert play(s, mv("D3", 3)).pos == P("D3")
    # the events rolled are those of the space entered (D3: the Palace, 3 = a wall to the left)
    assert play(s, mv("D3", 3)).walls


# -- In and Out with Your Strength: the market -----------------------------------------------------
STRENGTH = load_map("strength").board


def test_the_strength_market_opens_between_rounds_by_default():
    s = inside(E.new_game(STRENGTH, free_hero(TRAITS)), "E1", res={**TRAITS, "chests": 1})
    assert "market.when" in refused(s, Market(1, (("hearts", 1),)))


def test_the_strength_market_opens_after_every_turn_under_its_reading():
    s = inside(E.new_game(STRENGTH, free_hero(TRAITS), ("market-every-turn",)), "E1", res={**TRAITS, "chests": 1})
    bought = play(s, Market(1, (("hearts", 1),)))
    assert bought.res["chests"] == 0 and bought.res["hearts"] == TRAITS["hearts"] + 1
    engaged = inside(E.new_game(STRENGTH, free_hero(TRAITS), ("market-every-turn",)), "E1",
                     res={**TRAITS, "chests": 1}, spawned={P("E1"): "orc"}, engaged=True)
    assert "market.when" in refused(engaged, Market(1, (("hearts", 1),)))   # not in the middle of a fight
    # the base game keeps its market between rounds whatever a log declares
    base = inside(game(readings=("market-every-turn",)), "C2", res={**TRAITS, "chests": 1})
    assert "market.when" in refused(base, Market(1, (("hearts", 1),)))
