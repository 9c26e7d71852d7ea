"""`sheetgen validate`: load each file through its handler, then lint it."""
from __future__ import annotations

from ..errors import SheetgenError
from .registry import load


def validate_files(files, echo, quiet: bool = False) -> int:
    """Validate every file; returns the exit code (worst of 0, 1, 2)."""
    worst = 0
    for name in files:
        try:
            loaded = load(name)
        except SheetgenError as exc:
            for problem in exc.problems:
                echo(f"error: {problem.format()}", err=True)
            worst = max(worst, exc.exit_code)
            continue
        findings = []
        lint = getattr(loaded.handler, "lint", None)
        if lint is not None:
            findings = lint(loaded.definition)
        errors = [f for f in findings if f.severity == "error"]
        for finding in findings:
            echo(f"{finding.severity}: {finding.problem.format()}", err=True)
        if errors:
            worst = max(worst, 1)
            what = "not playable as designed" if loaded.kind == "map" else "has problems"
            echo(f"{loaded.source.filename}: {what} ({len(errors)} problem"
                 f"{'s' if len(errors) != 1 else ''})", err=True)
        elif not quiet:
            note = f" ({len(findings)} warning{'s' if len(findings) != 1 else ''})" if findings else ""
            echo(f"{loaded.source.filename}: ok, {loaded.kind}"
                 f"{' ' + loaded.ruleset if loaded.ruleset else ''}{note}")
    return worst
