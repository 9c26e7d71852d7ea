"""Exit codes say what happened (issue 16): 0 ok, 1 rule violations only, 2 unusable
input, 3 a bug in sheetgen.  An unexpected exception prints one line asking for a
bug report and exits 3; `sheetgen --debug` adds the traceback.  The system refusing
a name (too long) is unusable input wherever it surfaces, inside a game's code too.
"""
from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from sheetgen.cli import main

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "tests" / "data" / "foury_logs" / "legal-example.yaml"
ILLEGAL = ROOT / "tests" / "data" / "foury_logs" / "illegal-roll-7.yaml"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_exit_codes_0_1_2_are_what_they_were():
    assert invoke("check", LOG).exit_code == 0
    assert invoke("check", ILLEGAL).exit_code == 1
    assert invoke("check", ROOT / "nope.yaml").exit_code == 2


def test_an_unexpected_exception_exits_3_with_one_line(monkeypatch, tmp_path):
    import sheetgen.build as builder

    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(builder, "documents", broken)
    result = invoke("build", "graph-20x28", "-o", tmp_path / "out")
    assert result.exit_code == 3
    lines = result.output.strip().splitlines()
    assert lines == ["error: internal error (ZeroDivisionError: division by zero); this is a bug in sheetgen: "
                     "please report it with the command and its input files (`sheetgen --debug ...` prints "
                     "the traceback)"]
    assert "Traceback" not in result.output


def test_debug_prints_the_traceback(monkeypatch, tmp_path):
    import sheetgen.build as builder

    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(builder, "documents", broken)
    result = invoke("--debug", "build", "graph-20x28", "-o", tmp_path / "out")
    assert result.exit_code == 3
    assert "internal error (ZeroDivisionError" in result.output
    assert "Traceback (most recent call last):" in result.output and "in broken" in result.output
    # and the next command without --debug is quiet again
    assert "Traceback" not in invoke("build", "graph-20x28", "-o", tmp_path / "out").output


def test_input_errors_are_not_bugs_even_under_debug(tmp_path):
    result = invoke("--debug", "validate", tmp_path / "nope.yaml")
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_name_too_long_raised_anywhere_is_unusable_input(monkeypatch, tmp_path):
    """A game asking the file system about a name no file can have (Path.exists raises
    ENAMETOOLONG) is exit 2 with the name, not a bug."""
    import sheetgen.build as builder

    def asks(*args, **kwargs):
        raise OSError(errno.ENAMETOOLONG, "File name too long", "x" * 300)
    monkeypatch.setattr(builder, "documents", asks)
    result = invoke("build", "graph-20x28", "-o", tmp_path / "out")
    assert result.exit_code == 2
    assert "file name too long: one name in a path is at most 255 bytes, this one is 300" in result.output


def test_a_full_disk_is_unusable_input_not_a_bug(monkeypatch, tmp_path):
    import sheetgen.build as builder

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "out" / "x.pdf"))
    monkeypatch.setattr(builder, "render", full)
    result = invoke("build", "graph-20x28", "-o", tmp_path / "out")
    assert result.exit_code == 2 and "cannot write: the disk is full (no space left on the device)" in result.output
    assert "/out/x.pdf: cannot write" in result.output


def test_ctrl_c_is_130(monkeypatch, tmp_path):
    import sheetgen.build as builder

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(builder, "documents", interrupted)
    result = invoke("build", "graph-20x28", "-o", tmp_path / "out")
    assert result.exit_code == 130 and "interrupted" in result.output


def test_a_broken_game_plugin_is_a_bug_report_not_a_traceback(tmp_path):
    """An exception outside any command (a game module that fails as it loads) exits 3 too."""
    (tmp_path / "brokengame.py").write_text("raise RuntimeError('half-written plugin')\n")
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{tmp_path}", SHEETGEN_GAMES="brokengame")
    proc = subprocess.run([sys.executable, "-m", "sheetgen", "list"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 3, proc.stderr
    assert "internal error (RuntimeError: half-written plugin)" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "sheetgen", "--debug", "list"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 3 and "Traceback (most recent call last):" in proc.stderr


def test_the_help_names_the_debug_flag():
    assert "--debug" in invoke("--help").output
