"""Hand-made Dungeon Foury play logs, written from the rules text and the issue's log format
(tests/data/foury_logs/audit/): legal ones must check clean; each illegal one marks with
`# VIOLATION` the line(s) that must be reported, and nothing else may be reported."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main

AUDIT = Path(__file__).parent / "data" / "foury_logs" / "audit"
LOGS = sorted(AUDIT.glob("*.yaml"))


def _marked_lines(path: Path) -> set[int]:
    return {i for i, line in enumerate(path.read_text().splitlines(), 1) if "# VIOLATION" in line}


def _check(path: Path):
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    return result.exit_code, json.loads(result.output) if result.output.strip().startswith("{") else result.output


def test_the_audit_set_has_legal_and_illegal_logs_side_by_side():
    names = [p.name for p in LOGS]
    assert sum(n.startswith("legal-") for n in names) >= 12
    assert sum(n.startswith("illegal-") for n in names) >= 25
    for p in LOGS:
        assert p.name.startswith(("legal-", "illegal-")), p.name
        assert bool(_marked_lines(p)) == p.name.startswith("illegal-"), p.name


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_audit_log(path):
    code, report = _check(path)
    assert isinstance(report, dict), report
    lines = {v["line"] for v in report["violations"]}
    if path.name.startswith("legal-"):
        assert code == 0, report["violations"]
        assert report["legal"]
    else:
        assert code == 1
        assert lines == _marked_lines(path), report["violations"]
        first = min(report["violations"], key=lambda v: v["line"])
        assert first["line"] == min(_marked_lines(path))
