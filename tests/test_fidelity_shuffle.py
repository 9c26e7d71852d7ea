"""Shuffle Dungeons rules fidelity (issue "Rules fidelity"): trading once per turn, a
monster's power after it wins (LOOT into its pile, BURN the top of the dungeon pile, SHIFT
the hero's room) and the Boss's flip power may not be skipped, and a refused action's
echoes are consequences.  Logs side by side in tests/data/shuffle/fidelity/ (see
fidelity_helpers for their marks)."""
from pathlib import Path

import pytest

from sheetgen.games.shuffle import notation
from sheetgen.games.shuffle.actions import Burn
from sheetgen.games.shuffle.formats import PowerEffect, _power
from sheetgen.games.shuffle.tables import power_from_text

HERE = Path(__file__).parent / "data" / "shuffle" / "fidelity"





@pytest.mark.parametrize("written, meant", [
    ({"burn": {"top": 1}}, Burn(top=1)),
    ({"burn": {"top": 2, "monster": "ogre"}}, Burn(top=2, monster="ogre")),
    ({"burn": {"top": 1}, "monster": "ogre"}, Burn(top=1, monster="ogre")),
    ({"burn": ["bread"]}, Burn(("bread",))),
])
def test_burning_the_top_of_the_pile_is_written(written, meant):
    assert notation.parse(written) == meant
    assert notation.parse(notation.serialize(meant)) == meant


@pytest.mark.parametrize("text, power", [
    ("None.", ("none", 0)), ("LOOT 1 card into its pile.", ("loot", 1)),
    ("Burn the top card of the dungeon.", ("burn", 1)), ("Burn the top 2 cards of the dungeon.", ("burn", 2)),
    ("SHIFT the hero's room one space.", ("shift", 1)),
    ("Every hero takes 1 damage. The Dragon wakes.", ("damage", 1)),
    ("Heroes start here.", None), ("", None),
])
def test_what_a_printed_power_does(text, power):
    assert power_from_text(text) == power


def test_a_deck_may_say_what_a_power_does():
    assert _power(PowerEffect(burn=2), "whatever the card prints") == ("burn", 2)
    assert _power(PowerEffect(shift="hero-room"), "") == ("shift", 1)
    assert _power("none", "LOOT 1 card into its pile.") == ("none", 0)
    with pytest.raises(ValueError, match="an effect does one thing"):
        PowerEffect(loot=1, burn=1)
