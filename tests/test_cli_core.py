"""The core commands: help, version, list, schema, validate, calibrate, build errors."""
import json

import pytest
from click.testing import CliRunner

from sheetgen.cli import COMMANDS, main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert "sheetgen, version" in result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help_with_an_example(name):
    result = run(name, "--help")
    assert result.exit_code == 0, result.output
    assert "Example" in result.output


def test_list_shows_builtins_with_kind_and_title():
    result = run("list")
    assert result.exit_code == 0
    line = next(l for l in result.output.splitlines() if l.startswith("default-pack"))
    assert "pack" in line and "default print pack" in line


def test_schema_is_json_schema_covering_every_written_kind():
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["allOf"]            # kind (and ruleset) choose the model
    assert "PackModel" in schema["$defs"]


def test_unknown_builtin_name_suggests_and_exits_2(tmp_path):
    result = run("build", "default-pak", "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "no built-in definition named 'default-pak'" in result.output
    assert "did you mean 'default-pack'" in result.output
    assert not (tmp_path / "out").exists()


def test_unknown_format_exits_2(tmp_path):
    result = run("build", "--format", "pdf,svgg", "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "unknown format 'svgg'" in result.output and "did you mean 'svg'" in result.output
    assert not (tmp_path / "out").exists()


def test_missing_file_exits_2(tmp_path):
    result = run("validate", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2
    assert "nope.yaml: no such file" in result.output


def test_bad_header_located(tmp_path):
    f = tmp_path / "x.yaml"
    f.write_text("sheetgen: 1\nkind: layuot\n")
    result = run("validate", str(f))
    assert result.exit_code == 2
    assert f"{f}:2:7: kind: unknown kind 'layuot'" in result.output
    assert "did you mean 'layout'" in result.output


def test_pack_with_missing_member_is_a_problem(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text("sheetgen: 1\nkind: pack\nsheets:\n  - nothing-like-this\n")
    result = run("validate", str(f))
    assert result.exit_code == 1
    assert f"{f}:4:5: sheets[0]: 'nothing-like-this'" in result.output


def test_calibrate_stores_and_shows_and_rejects_nonsense():
    result = run("calibrate", "--measured-x", "99.2", "--measured-y", "99.6", "--printer", "office")
    assert result.exit_code == 0, result.output
    assert "x1.0081" in result.output
    shown = run("calibrate", "--show")
    assert "office: measured x 99.2 mm, y 99.6 mm" in shown.output
    assert run("calibrate", "--measured-x", "80", "--measured-y", "99").exit_code == 2
    assert run("calibrate", "--measured-x", "99").exit_code == 2


def test_calibration_applies_to_options():
    from sheetgen import calibration
    calibration.save(99.0, 100.0, "p1")
    cal = calibration.current()
    assert cal.printer == "p1" and cal.factor_x == pytest.approx(100 / 99)
    from sheetgen.errors import InputError
    with pytest.raises(InputError, match="did you mean 'p1'"):
        calibration.current("p2")


def test_builtin_names_are_unique():
    from collections import Counter

    from sheetgen.paths import layouts_dir
    stems = Counter(p.stem for p in layouts_dir().rglob("*.yaml"))
    assert [s for s, n in stems.items() if n > 1] == []


def test_calibrate_show_lists_every_printer_and_reset_forgets_one():
    from sheetgen import calibration
    assert run("calibrate", "--reset").output.startswith("no stored calibration to forget")
    assert run("calibrate", "--measured-x", "99.2", "--measured-y", "99.6", "--printer", "office").exit_code == 0
    assert run("calibrate", "--measured-x", "99.5", "--measured-y", "99.8", "--printer", "home").exit_code == 0
    shown = run("calibrate", "--show").output.splitlines()
    assert shown[:2] == ["* home: measured x 99.5 mm, y 99.8 mm", "  office: measured x 99.2 mm, y 99.6 mm"]
    # an unknown name is refused with the stored ones, and nothing is forgotten
    wrong = run("calibrate", "--reset", "--printer", "ofice")
    assert wrong.exit_code == 2 and "no stored calibration for printer 'ofice'" in wrong.output
    assert "did you mean 'office'" in wrong.output
    assert run("calibrate", "--reset", "--printer", "office", "--measured-x", "99").exit_code == 2
    gone = run("calibrate", "--reset", "--printer", "office")
    assert gone.exit_code == 0
    assert gone.output.strip() == ("forgot the calibration of printer 'office'; builds are printed unscaled "
                                   "unless built with --printer NAME (still stored: home)")
    assert "office" not in run("calibrate", "--show").output
    assert calibration.current().printer == "home"          # the one builds use is untouched
    # without a name: the one builds use (the last stored)
    assert run("calibrate", "--reset").exit_code == 0
    assert calibration.current().factor_x == 1.0 and calibration.stored()["printers"] == {}
    assert run("calibrate", "--show").output.startswith("no stored calibration")
