"""What the rules-fidelity tests share: a folder of play logs, legal and illegal side by side.

Each `legal-*.yaml` must check clean (no violation, not even a consequence).  Each
`illegal-*.yaml` marks every line where a counted violation is reported with a comment
`# VIOLATION: RULE` (several rules on one line: `# VIOLATION: a, b`); the counted
violations must be exactly those, and a line marked `# CONSEQUENCE: RULE` holds a
report that only echoes an earlier refused step (shown, not counted).
"""
from __future__ import annotations

import re
from pathlib import Path

from sheetgen.definitions.registry import load_file

MARK = re.compile(r"#\s*(VIOLATION|CONSEQUENCE):\s*([\w.\-, ]+)")


def judgement(path: Path):
    loaded = load_file(path)
    return loaded.handler.check(loaded.definition)


def marks(path: Path, kind: str) -> set[tuple[int, str]]:
    """(line, rule) for every `# VIOLATION: rule` (or CONSEQUENCE) comment in the file."""
    out = set()
    for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in MARK.finditer(text):
            if m.group(1) == kind:
                out |= {(n, r.strip()) for r in m.group(2).split(",") if r.strip()}
    return out


def reported(path: Path) -> tuple[set, set, list]:
    """(counted (line, rule), consequences (line, rule), the messages) of a log's verdict."""
    verdict = judgement(path)
    counted = {(v.line, v.rule) for v in verdict.violations if not v.consequence}
    echoes = {(v.line, v.rule) for v in verdict.violations if v.consequence}
    return counted, echoes, [f"{v.line}: {v.rule}: {v.message}" for v in verdict.violations]


def logs(folder: Path, prefix: str) -> list[Path]:
    return sorted(folder.glob(f"{prefix}-*.yaml"))
