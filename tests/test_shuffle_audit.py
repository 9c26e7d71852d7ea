"""Independent audit of the shuffle checker: hand-made logs written from the
rules text (tests/data/shuffle/audit/), legal and illegal side by side.

Each log's first line is `# expect: legal` or `# expect: RULE`; an illegal log
marks the line that must be reported with `# <-`."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main

AUDIT = Path(__file__).parent / "data" / "shuffle" / "audit"
LOGS = sorted(AUDIT.glob("*.yaml"))


def _expectation(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    expect = lines[0].removeprefix("# expect: ").strip()
    marked = [i + 1 for i, line in enumerate(lines) if re.search(r"#\s*<-", line)]
    return expect, marked


def test_audit_has_both_sides():
    kinds = [_expectation(p)[0] == "legal" for p in LOGS]
    assert sum(kinds) >= 8 and len(kinds) - sum(kinds) >= 8


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_audit_log(path):
    expect, marked = _expectation(path)
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    report = json.loads(result.output)
    found = [(v["rule"], v["line"]) for v in report["violations"]]
    if expect == "legal":
        assert result.exit_code == 0, found
    else:
        assert result.exit_code == 1, result.output
        assert len(marked) == 1, "an illegal audit log marks exactly one line"
        assert found == [(expect, marked[0])], found
