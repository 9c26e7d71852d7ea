"""`sheetgen validate`: load each file through its handler, then lint it."""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..errors import SheetgenError
from .registry import Loaded, load


def validate_files(files: Iterable[str], echo: Callable[..., Any], quiet: bool = False,
                   page_warnings: Callable[[Loaded], list[str]] | None = None) -> int:
    """Validate every file; returns the exit code (worst of 0, 1, 2).  page_warnings(loaded)
    gives more warnings from the pages a valid file builds (sheetgen.build.page_warnings: the
    layout lint); warnings never change the exit code."""
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
        lint = loaded.handler.lint
        if lint is not None:
            findings = lint(loaded.definition)
        errors = [f for f in findings if f.severity == "error"]
        for finding in findings:
            echo(f"{finding.severity}: {finding.problem.format()}", err=True)
        layout = page_warnings(loaded) if page_warnings is not None and not errors else []
        for line in layout:
            echo(line, err=True)
        if errors:
            worst = max(worst, 1)
            what = "not playable as designed" if loaded.kind == "map" else "has problems"
            echo(f"{loaded.source.filename}: {what} ({len(errors)} problem"
                 f"{'s' if len(errors) != 1 else ''})", err=True)
        elif not quiet:
            warned = len(findings) + len(layout)
            note = f" ({warned} warning{'s' if warned != 1 else ''})" if warned else ""
            echo(f"{loaded.source.filename}: ok, {loaded.kind}"
                 f"{' ' + loaded.ruleset if loaded.ruleset else ''}{note}")
    return worst

