"""A pack: an ordered list of definitions built into one multi-page document.

    sheetgen: 1
    kind: pack
    title: sheetgen default print pack
    sheets: [graph-20x28, hex-sheet, room-cards]

Each entry is a built-in name or a path relative to the pack file.  A pack loaded
before comes back from its snapshot (sheetgen.definitions.snapshot) without pydantic;
the model (PackModel, MODEL) is built only when a pack is validated.
"""
from __future__ import annotations

from ..games.base import Handler
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import SheetgenError
from .registry import Source

KIND = "pack"


@lru_cache(maxsize=1)
def pack_model() -> type:
    """The model of a pack file (made on first use: it needs pydantic)."""
    from typing import Annotated, Literal

    from pydantic import Field

    from .models import Strict

    class PackModel(Strict):
        sheetgen: Literal[1]
        kind: Literal["pack"]
        title: str = "sheetgen print pack"
        name: str = Field("sheetgen-pack", description="base name of the output files")
        sheets: list[Annotated[str, Field(min_length=1)]] = Field(
            min_length=1, description="built-in names or paths relative to this file")

    PackModel.__module__ = __name__
    PackModel.__qualname__ = "PackModel"
    return PackModel


def __getattr__(name: str):
    if name in ("PackModel", "MODEL"):
        return pack_model()
    raise AttributeError(name)


@dataclass
class Pack:
    model: Any                  # a PackModel, or its snapshot's Plain stand-in
    source: Source

    def members(self) -> list[str]:
        out = []
        for entry in self.model.sheets:
            p = self.source.folder / entry
            out.append(str(p) if entry.endswith((".yaml", ".yml")) else entry)
        return out


def load(data, source: Source) -> Pack:
    from . import snapshot
    kept = snapshot.recall(KIND, source.path)
    if kept is not None:
        return Pack(kept, source)
    from .models import validate_model
    model = validate_model(pack_model(), data, source.filename)
    snapshot.remember(KIND, source.path, snapshot.plain(model))
    return Pack(model, source)


def lint(pack: Pack):
    """Every member must load; a broken member is reported at its line."""
    from .registry import Finding, load as load_definition
    findings = []
    for i, member in enumerate(pack.members()):
        try:
            loaded = load_definition(member)
        except SheetgenError as exc:
            for problem in exc.problems:
                findings.append(Finding(pack.source.problem(("sheets", i), f"'{member}': {problem.format()}")))
            continue
        if loaded.handler.compose is None:
            findings.append(Finding(pack.source.problem(("sheets", i), f"'{member}' is a {loaded.kind}, which has no pages to print")))
    return findings


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, lint=lint, models=pack_model)
