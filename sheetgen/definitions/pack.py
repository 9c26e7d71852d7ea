"""A pack: an ordered list of definitions built into one multi-page document.

    sheetgen: 1
    kind: pack
    title: sheetgen default print pack
    sheets: [graph-20x28, hex-sheet, room-cards]

Each entry is a built-in name or a path relative to the pack file.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from ..errors import InputError, SheetgenError
from .models import Strict, validate_model
from .registry import Source


class PackModel(Strict):
    sheetgen: Literal[1]
    kind: Literal["pack"]
    title: str = "sheetgen print pack"
    name: str = Field("sheetgen-pack", description="base name of the output files")
    sheets: list[Annotated[str, Field(min_length=1)]] = Field(min_length=1, description="built-in names or paths relative to this file")


MODEL = PackModel


@dataclass
class Pack:
    model: PackModel
    source: Source

    def members(self) -> list[str]:
        out = []
        for entry in self.model.sheets:
            p = self.source.folder / entry
            out.append(str(p) if entry.endswith((".yaml", ".yml")) else entry)
        return out


def load(data, source: Source) -> Pack:
    return Pack(validate_model(PackModel, data, source.filename), source)


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
        if not hasattr(loaded.handler, "compose"):
            findings.append(Finding(pack.source.problem(("sheets", i), f"'{member}' is a {loaded.kind}, which has no pages to print")))
    return findings
