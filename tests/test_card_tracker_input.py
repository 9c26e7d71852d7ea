"""The card games' trackers tell unusable input (exit 2, "error:") from a step the rules
refuse (exit 1, "refused:"): a missing, malformed or wrong-kind file, a name no file can
have, or a bad player setting is never reported as a rules refusal."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main

DATA = Path(__file__).parent / "data"
NAV_DUNGEON = DATA / "navigation" / "t-dungeon.yaml"
SHUFFLE_SETUP = DATA / "shuffle" / "cases" / "fight-win-legal.yaml"


def _new(tmp_path, ruleset, *args):
    return CliRunner().invoke(main, ["track", "--journal", str(tmp_path / "j.sqlite"), "new",
                                     "--ruleset", ruleset, *map(str, args)])


@pytest.mark.parametrize("ruleset", ["navigation", "shuffle"])
def test_unusable_files_are_input_errors(tmp_path, ruleset):
    malformed = tmp_path / "bad.yaml"
    malformed.write_text("a: [\n")
    graph = Path(__file__).parent.parent / "layouts" / "graph-20x28.yaml"
    for target, words in ((tmp_path / "nope.yaml", "no such file"), (malformed, "malformed YAML"),
                          ("x" * 300 + ".yaml", "file name too long"), (graph, "is a layout")):
        result = _new(tmp_path, ruleset, "--map", target)
        assert result.exit_code == 2, (target, result.output)
        assert result.output.startswith("error:") and words in result.output, result.output
        assert "refused" not in result.output and "Traceback" not in result.output


def test_bad_player_settings_are_input_errors(tmp_path):
    result = _new(tmp_path, "navigation", "--map", NAV_DUNGEON, "--hero", "Ada,Ada")
    assert result.exit_code == 2 and "player names must differ" in result.output
    result = _new(tmp_path, "navigation", "--map", NAV_DUNGEON, "--traits", "mana=3")
    assert result.exit_code == 2 and "unknown player setting 'mana'" in result.output


def test_good_files_still_start_and_a_refused_step_is_still_exit_1(tmp_path):
    assert _new(tmp_path, "navigation", "--map", NAV_DUNGEON).exit_code == 0
    shuffle = tmp_path / "shuffle"
    shuffle.mkdir()
    assert _new(shuffle, "shuffle", "--map", SHUFFLE_SETUP).exit_code == 0
    refused = CliRunner().invoke(main, ["track", "--journal", str(shuffle / "j.sqlite"), "step", "{move: east}"])
    assert refused.exit_code == 1 and refused.output.startswith("refused:"), refused.output
