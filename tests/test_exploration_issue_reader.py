"""Logs written the way an outside author would, from the rules text, the issue's log format
and the README only (tests/data/exploration/issue_reader/): rooms placed by hand on a 20x28
sheet from the built-in tables.  Legal ones must pass `sheetgen check` (exit 0); each illegal
one must fail (exit 1) with a violation at every line marked `# <- rule`, printed as
FILE:LINE: message, and with no violation on a line that holds nothing wrong."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main

LOGS = Path(__file__).parent / "data" / "exploration" / "issue_reader"
LEGAL = sorted(LOGS.glob("legal-*.yaml"))
ILLEGAL = sorted(LOGS.glob("illegal-*.yaml"))


def marked_lines(path):
    return {i for i, line in enumerate(path.read_text().split("\n"), 1) if "# <- " in line}


def run(path, *extra):
    result = CliRunner().invoke(main, ["check", str(path), *extra])
    assert "Traceback" not in result.output
    return result


def test_the_logs_cover_both_sides():
    assert len(LEGAL) >= 10 and len(ILLEGAL) >= 10
    assert all(marked_lines(p) for p in ILLEGAL) and not any(marked_lines(p) for p in LEGAL)


@pytest.mark.parametrize("path", LEGAL, ids=[p.stem for p in LEGAL])
def test_legal_log_passes(path):
    result = run(path)
    assert result.exit_code == 0, result.output
    assert "legal" in result.output


@pytest.mark.parametrize("path", ILLEGAL, ids=[p.stem for p in ILLEGAL])
def test_illegal_log_is_reported_at_the_marked_line(path):
    result = run(path, "--format", "json")
    assert result.exit_code == 1, result.output
    violations = json.loads(result.output)["violations"]
    lines = {v["line"] for v in violations}
    # one slip is one violation: at one of the lines that may hold it, naming the others
    named = {int(n) for v in violations for n in re.findall(r"(?:see also line|at line|\(line) (\d+)", v["message"])}
    assert marked_lines(path) <= lines | named, result.output
    text = run(path).output.splitlines()
    for line in marked_lines(path):
        assert any(t.startswith(f"{path}:{line}: ") or f"line {line}" in t for t in text), text
    # lines named besides the marked one hold the same slip (an echo) or its direct consequence
    # (the earlier room's door that now leads nowhere); never more than two of them
    assert len(lines - marked_lines(path)) <= 2, result.output


def test_block_style_keys_are_blamed_on_their_own_lines():
    """A contents or transform mapping written one key per line: the wrong key's line is named."""
    path = LOGS / "illegal-17-block-style-stretch.yaml"
    text = run(path).output
    stretch = next(i for i, l in enumerate(path.read_text().split("\n"), 1) if "stretch: 3" in l)
    transform = next(i for i, l in enumerate(path.read_text().split("\n"), 1) if "transform:" in l
                     and i > stretch - 5)
    assert f":{stretch}: step 2: stretch 3" in text and f":{transform}:" not in text
