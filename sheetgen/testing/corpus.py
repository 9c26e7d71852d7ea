"""The photo corpus: play logs drawn in pencil on their sheets, rasterised, photographed.

A recipe (`Recipe`) is one photo: the play log, the paper, the seed of the hand that
draws the pencil and the camera (sheetgen.testing.photo.Camera).  Recipes are small data
(tests/data/scan/recipes.yaml keeps a few hundred); `photo_of(recipe)` makes the image:

1. the log's sheet is composed as it was printed (with its scan marks), and the game's
   scanner draws the log's pencil over it (its pencil sheet, what
   `sheetgen track render` draws), with the marks erased during play as residue;
2. sheetgen.testing.graphite turns the clean marks into a hand's graphite;
3. the page goes to PDF and pdftoppm (poppler: a renderer sheetgen did not write)
   rasterises it at the recipe's dpi;
4. sheetgen.testing.photo photographs the raster.

Flat rasters are cached per (log, paper, pencil seed, dpi) for the run.
"""
from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..draw.scanmarks import SheetIdentity, content_hash
from ..errors import InputError, Problem
from .graphite import PLAIN, Hand
from .photo import Camera, photograph
from ..scan.sheet import rebuild

_flats: dict = {}


@dataclass(frozen=True)
class Recipe:
    id: str
    log: str                            # the play log (relative to the recipe file's folder, or absolute)
    paper: str = "a4"
    pencil: int = 0                     # the seed of the hand
    dpi: int = 150                      # the flat raster's resolution
    camera: Camera | None = None        # None: the flat raster itself (a flatbed scan)
    tamper: tuple = ()                  # extra marks the log does not explain: ('wall', 'D4:N') ...
    hand: Hand = PLAIN                  # how the player marks (sheetgen.testing.graphite.Hand)
    family: str = ""                    # the corpus family the recipe belongs to (sheetgen.testing.families)

    def as_dict(self) -> dict:
        out: dict = {"id": self.id, "log": self.log, "paper": self.paper, "pencil": self.pencil, "dpi": self.dpi}
        if self.family:
            out["family"] = self.family
        if self.hand != PLAIN:
            out["hand"] = self.hand.as_dict()
        if self.camera is not None:
            out["camera"] = self.camera.as_dict()
        if self.tamper:
            out["tamper"] = [list(t) for t in self.tamper]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Recipe":
        cam = data.get("camera")
        return cls(str(data["id"]), str(data["log"]), data.get("paper", "a4"), int(data.get("pencil", 0)),
                   int(data.get("dpi", 150)), Camera.from_dict(cam) if cam else None,
                   tuple(tuple(t) for t in data.get("tamper", ())), Hand(**data.get("hand", {})),
                   str(data.get("family", "")))


def load_recipes(path: str | Path) -> list[Recipe]:
    import yaml
    path = Path(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for item in data["recipes"]:
        r = Recipe.from_dict(item)
        if not Path(r.log).is_absolute():
            r = replace(r, log=str((path.parent / r.log).resolve()))
        out.append(r)
    return out


def dump_recipes(recipes: list[Recipe], header: str = "") -> str:
    import yaml
    body = yaml.safe_dump({"recipes": [r.as_dict() for r in recipes]}, sort_keys=False, default_flow_style=None,
                          width=140)
    return header + body


@dataclass
class Played:
    """A log on its sheet: what the corpus photographs and the scan is held to."""
    log: str
    record: object
    scanner: object
    sheet: object                       # ScannedSheet of the printed page
    sheet_ref: str | None               # --sheet for a custom definition (its file)
    expected: object = None             # the scanner's SheetView of the log
    truth: dict = field(default_factory=dict)   # region id -> expected reading
    options: tuple = ()                 # the game options the sheet was built with

    @property
    def ref(self) -> str:
        """--sheet: the built-in name or the file."""
        return self.sheet_ref or self.sheet.identity.definition


def played(log: str, paper: str = "a4") -> Played:
    from ..definitions.registry import games, load, resolve
    record = load(log)
    game = games().get(record.ruleset)
    if game is None or not game.scanner:
        raise InputError(Problem(f"the {record.ruleset} game has no scanner", log))
    scanner = game.module("scanner").SCANNER
    ref, options = scanner.record_sheet_ref(record)
    path, builtin = resolve(ref)
    definition = path.stem if builtin else content_hash(path.read_bytes())
    identity = SheetIdentity(definition, paper=paper, options=tuple(sorted(options)))
    sheet = rebuild(identity, None if builtin else str(path))
    out = Played(log, record, scanner, sheet, None if builtin else str(path), options=tuple(options))
    out.expected = scanner.expected(sheet, record)
    out.truth = scanner.expected_values(sheet, out.expected)
    return out


def drawn_page(p: Played, seed: int, tamper=(), hand: Hand = PLAIN):
    """The page as the player left it: the log's pencil by hand, erased marks, tampering."""
    from .graphite import pencil_by_hand
    rng = random.Random(seed)
    page, residue = p.scanner.penciled(p.sheet, p.record, rng)
    if tamper:
        page = p.scanner.tamper(p.sheet, page, tamper)
    return pencil_by_hand(page, rng, residue, hand=hand)


def pdftoppm_available() -> bool:
    return shutil.which("pdftoppm") is not None


def rasterise(page, dpi: int) -> np.ndarray:
    """The page as RGB pixels at dpi: its PDF through pdftoppm (poppler)."""
    from ..draw.model import Document
    from ..render import render_pdf_bytes
    from PIL import Image
    pdf = render_pdf_bytes(Document([page], title="scan corpus"))
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "page.pdf"
        src.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", str(src), str(Path(tmp) / "out")],
                       check=True, capture_output=True)
        with Image.open(Path(tmp) / "out.png") as im:
            return np.asarray(im.convert("RGB"))


def flat_of(recipe: Recipe, p: Played | None = None) -> tuple[np.ndarray, Played]:
    key = (recipe.log, recipe.paper, recipe.pencil, recipe.dpi, recipe.tamper, recipe.hand)
    hit = _flats.get(key)
    if hit is not None:
        return hit
    p = p or played_cached(recipe.log, recipe.paper)
    page = drawn_page(p, recipe.pencil, recipe.tamper, recipe.hand)
    flat = rasterise(page, recipe.dpi)
    if len(_flats) > 24:
        _flats.clear()
    _flats[key] = (flat, p)
    return flat, p


_played: dict = {}


def played_cached(log: str, paper: str) -> Played:
    key = (log, paper)
    if key not in _played:
        _played[key] = played(log, paper)
    return _played[key]


def photo_of(recipe: Recipe) -> tuple[np.ndarray, Played]:
    """The recipe's image (BGR) and the log on its sheet."""
    import cv2
    flat, p = flat_of(recipe)
    if recipe.camera is None:
        return cv2.cvtColor(flat, cv2.COLOR_RGB2BGR), p
    page = p.sheet.page
    return photograph(flat, (page.width, page.height), recipe.camera), p


def make_recipes(logs: list[str], count: int, seed: int, twelve_mp_share: float = 0.2,
                 relative_to: Path | None = None) -> list[Recipe]:
    """count recipes over the logs (cycled), each with its own hand and camera."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        log = logs[i % len(logs)]
        mp = 12 if rng.random() < twelve_mp_share else 2
        cam = Camera.random(rng, mp)
        ref = str(Path(log).resolve().relative_to(relative_to.resolve())) if relative_to else log
        paper = "letter" if rng.random() < 0.15 else "a4"
        out.append(Recipe(f"photo-{i + 1:04d}", ref, paper, rng.randint(0, 10 ** 6), 300 if mp == 12 else 150, cam))
    return out
