"""Card-grid navigation rules fidelity (issue "Rules fidelity"): `{resolve: {function: X}}`
always names the function, a bare `resolve X` that could be a card or a function is an
error asking which, and a refused action's echoes are consequences.  Logs side by side in
tests/data/navigation/fidelity/ (see fidelity_helpers for their marks)."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.navigation import notation
from sheetgen.games.navigation.actions import PlaceToken, Resolve

HERE = Path(__file__).parent / "data" / "navigation" / "fidelity"




def test_an_ambiguous_bare_resolve_stops_the_check_asking_which():
    result = CliRunner().invoke(main, ["check", str(HERE / "unreadable-resolve-ambiguous.yaml")])
    assert result.exit_code == 2
    assert "unreadable-resolve-ambiguous.yaml:19:9" in result.output
    assert "'forge' is both a card of the dungeon and a function" in result.output
    assert "{resolve: {function: forge}}" in result.output and "{resolve: {room: forge}}" in result.output
    # the player stands in the forge card, whose function is forge: both meanings resolve the same
    # function, and the bare name is an error all the same (its message says so)
    assert "never guessed, even where both meanings would give the same result" in result.output


@pytest.mark.parametrize("written, meant", [
    ({"resolve": {"function": "forge"}}, Resolve("forge", named="function")),
    ({"resolve": {"room": "forge"}}, Resolve("forge", named="room")),
    ("resolve forge", Resolve("forge")),
    ({"resolve": "forge", "lose": {"hp": 1}}, Resolve("forge", lose=(("hp", 1),))),
    ({"place-token": {"function": "repair"}}, PlaceToken("repair", named="function")),
])
def test_how_a_resolve_names_what_it_resolves(written, meant):
    assert notation.parse(written) == meant
    assert notation.parse(notation.serialize(meant)) == meant


def test_naming_both_is_refused():
    with pytest.raises(ValueError, match="name the function or the room, not both"):
        notation.parse({"resolve": {"function": "forge", "room": "forge"}})
