"""Independent audit of the shuffle checker: hand-made logs written from the
rules text (tests/data/shuffle/audit/), legal and illegal side by side.

Each log's first line is `# expect: legal` or `# expect: RULE`; an illegal log
marks the line that must be reported with `# <-`."""
from pathlib import Path

import pytest

from card_helpers import assert_audit_log, expectation

AUDIT = Path(__file__).parent / "data" / "shuffle" / "audit"
LOGS = sorted(AUDIT.glob("*.yaml"))


def test_audit_has_both_sides():
    kinds = [expectation(p)[0] == "legal" for p in LOGS]
    assert sum(kinds) >= 8 and len(kinds) - sum(kinds) >= 8


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_audit_log(path):
    assert_audit_log(path)
