"""The built-in sheets composed as a user builds them, for the tests and tools that
look at every sheet (layout lint, drawing-call goldens)."""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def builtin_sheets() -> tuple[str, ...]:
    """Every built-in definition that has pages to print, packs aside (a pack is its sheets)."""
    from sheetgen.definitions.builtins import builtin_info
    from sheetgen.definitions.registry import handler_for
    names = []
    for info in sorted(builtin_info(), key=lambda i: i.name):
        if info.kind != "pack" and hasattr(handler_for(info.kind, info.ruleset), "compose"):
            names.append(info.name)
    return tuple(names)


@lru_cache(maxsize=None)
def composed(name: str, paper: str | None = None):
    """The Document of a built-in sheet with the default build options (on paper)."""
    from sheetgen.build import compose_loaded
    from sheetgen.definitions.registry import load
    from sheetgen.draw.options import BuildOptions
    return compose_loaded(load(name), BuildOptions(paper=paper))
