"""The built-in sheets composed as a user builds them, for the tests and tools that
look at every sheet (layout lint, drawing-call goldens)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def builtin_sheets() -> tuple[str, ...]:
    """Every built-in definition that has pages to print, packs aside (a pack is its sheets)."""
    from sheetgen.definitions.builtins import builtin_info
    from sheetgen.definitions.registry import handler_for
    names = []
    for info in sorted(builtin_info(), key=lambda i: i.name):
        if info.kind != "pack" and handler_for(info.kind, info.ruleset).compose is not None:
            names.append(info.name)
    return tuple(names)


@lru_cache(maxsize=None)
def composed(name: str, paper: str | None = None, grayscale: bool = False):
    """The Document of a built-in sheet with the default build options (on paper, in grayscale)."""
    from sheetgen.build import compose_loaded
    from sheetgen.definitions.registry import load
    from sheetgen.draw.options import BuildOptions
    return compose_loaded(load(name), BuildOptions(paper=paper, grayscale=grayscale))


# -- the drawing-call goldens: one sheet of each game, the graph sheet, a small layout ---------------

GOLDEN_DIR = Path(__file__).resolve().parent / "data" / "layout"
REGENERATE = "python tests/tools/regen_goldens.py"


def _small_layout_items():
    page = composed(str(GOLDEN_DIR / "small.yaml")).pages[0]
    return [i for i in page.items if i.id not in ("footer", "calibration-ruler")]


# golden file (under GOLDEN_DIR) -> the items it records
DUMP_GOLDENS = {
    "small.dump.txt": _small_layout_items,
    "goldens/graph-20x28.dump.txt": lambda: composed("graph-20x28").pages[0].items,
    "goldens/ancient-story.dump.txt": lambda: composed("ancient-story").pages[0].items,
    "goldens/exploration-sheet-20x28.dump.txt": lambda: composed("exploration-sheet-20x28").pages[0].items,
    "goldens/nav-rooms-page-1.dump.txt": lambda: composed("nav-rooms").pages[0].items,
    "goldens/shuffle-core-page-1.dump.txt": lambda: composed("shuffle-core").pages[0].items,
}


def dump_text(golden: str) -> str:
    """What the golden file should hold: the drawing calls as sheetgen.draw.model.dump writes them."""
    from sheetgen.draw.model import dump
    return dump(DUMP_GOLDENS[golden]()) + "\n"
