"""A command of an optional part (`design`, `play`: the web extra; `scan`: the scan extra)
run without its libraries says what to install (exit 2), never an ImportError (exit 3)."""
import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.commands._common import EXTRAS, require_extra
from sheetgen.errors import InputError


def _without(monkeypatch, *modules):
    """Make importing MODULES fail, as where they are not installed."""
    import sys
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize("extra", EXTRAS)
def test_a_missing_library_names_the_install_line(monkeypatch, extra):
    require_extra(extra, "x")                       # the test extras install every part
    _without(monkeypatch, EXTRAS[extra][0][0])
    with pytest.raises(InputError, match=rf"needs the {extra} extra .*pip install 'sheetgen\[{extra}\]'"):
        require_extra(extra, "x")


def test_design_without_the_web_extra_is_a_clean_error(monkeypatch, tmp_path):
    _without(monkeypatch, "starlette")
    result = CliRunner().invoke(main, ["design", str(tmp_path / "m.yaml"), "--new", "5x5"])
    assert result.exit_code == 2, result.output
    assert "sheetgen design` needs the web extra" in result.output and "Traceback" not in result.output


def test_play_without_the_web_extra_is_a_clean_error(monkeypatch, tmp_path):
    _without(monkeypatch, "uvicorn")
    result = CliRunner().invoke(main, ["play", "--map", "ancient-story", "--hero", "kael",
                                       "--journal", str(tmp_path / "j.sqlite")])
    assert result.exit_code == 2, result.output
    assert "sheetgen play` needs the web extra" in result.output and "Traceback" not in result.output
