"""A wall's ink over the print (sheetgen.scan.read.WALL_INK): a wall is drawn on a printed edge, and a thin
stroke there (a ballpoint's) loses most of its darkness to the darkest print within TOLERANCE, which the other
lines are measured against; read by what the photo takes away from the expected print, integrated across the
band above the paper at its edges, it keeps its mm of black, where a misplaced printed line integrates to
none and a rubbed-out wall's wide, light residue stays under the wall's threshold (issue 27: blue ballpoint's
walls read empty).  On synthetic pages: a white template with grey printed edges, photographed with uneven
light, blur and noise."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import read                                      # noqa: E402
from sheetgen.scan.contract import LINE, Region                     # noqa: E402
from sheetgen.scan.geometry import LineShape                        # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions             # noqa: E402

K = 5                       # px a mm
PAGE_MM = (80.0, 60.0)
EDGES = (10.0, 18.0, 26.0, 34.0, 42.0, 50.0)        # mm: printed edges (a grid's), each a wall's region
PATHS = (14.0, 22.0, 30.0, 38.0, 46.0)              # mm: plain-threshold lines on bare paper between them
X0, X1 = 10.0, 70.0
WALL_BLACK = 0.18           # mm of black: Dungeon Foury's wall threshold
GRID = 0.6                  # the printed edge's grey (0.4 mm wide)


def _template() -> np.ndarray:
    rgb = np.ones((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K), 3), np.float32)
    for y in EDGES:
        r = int(round(y * K))
        rgb[r - 1:r + 1, int(4 * K):int(76 * K)] = GRID
    rgb[4:6, :] = 0.1                                               # a frame: the tone's dark end
    rgb[:, 4:6] = 0.1
    return rgb


def _photo(template: np.ndarray, ink: np.ndarray, noise: float = 1.5, blur: float = 1.2, shift: int = 0,
           seed: int = 7) -> np.ndarray:
    """The template's grey (its printed edges moved `shift` px down: print a little off where the template
    has it) darkened by `ink` (the share of the light taken), lit unevenly, blurred, with noise (of 255)."""
    grey = template @ np.float32([0.299, 0.587, 0.114])
    if shift:
        grey = np.vstack([grey[:shift], grey[:-shift]])
    page = grey * (1.0 - ink)
    light = np.linspace(0.95, 0.84, page.shape[1], dtype=np.float32)[None, :]
    page = cv2.GaussianBlur(page * light * 235, (0, 0), blur)
    rng = np.random.default_rng(seed)
    return np.clip(page + rng.normal(0, noise, page.shape), 0, 255).astype(np.float32)


def _ink(rows: tuple, width_px: int, darkness: float, off_px: int = 0) -> np.ndarray:
    """A stroke width_px wide, off_px below the edge's middle, along each of `rows` from X0 to X1."""
    ink = np.zeros((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K)), np.float32)
    for y in rows:
        r = int(round(y * K)) + off_px
        ink[r - width_px // 2:r - width_px // 2 + width_px, int(X0 * K):int(X1 * K)] = darkness
    return ink


def _read(monkeypatch, ink: np.ndarray, on: bool = True, **photo) -> tuple[set, Page, Plan]:
    monkeypatch.setattr(read, "WALL_INK", on)
    template = _template()
    page = Page(_photo(template, ink, **photo), template, PAGE_MM, align=False)
    regions = [Region(f"wall-{y:g}", LINE, LineShape(X0 + 2, y, X1 - 2, y, band=1.8, black=WALL_BLACK), "wall")
               for y in EDGES]
    regions += [Region(f"path-{y:g}", LINE, LineShape(X0 + 2, y, X1 - 2, y, band=1.8), "path") for y in PATHS]
    plan = Plan(regions, template.shape[:2], PAGE_MM)
    readings = read_regions(page, plan)
    return {y for y in EDGES if readings[f"wall-{y:g}"].marked}, page, plan


# a ballpoint's wall: 0.4 mm at 0.75 of the light (0.30 mm of black), 0.2 mm off the printed edge's middle
BALLPOINT = dict(width_px=2, darkness=0.75, off_px=1)
DRAWN = EDGES[::2]


def test_a_thin_dark_wall_over_a_printed_edge_reads_marked_where_the_plain_rule_misses_it(monkeypatch):
    off, _, _ = _read(monkeypatch, _ink(DRAWN, **BALLPOINT), on=False)
    on, page, plan = _read(monkeypatch, _ink(DRAWN, **BALLPOINT))
    assert off == set()                                             # lost to the print beside it: missed before
    assert on == set(DRAWN)                                         # every wall, and no bare edge
    assert page.line_noise(plan) < WALL_BLACK


def test_a_rubbed_out_walls_wide_light_residue_reads_empty(monkeypatch):
    # a rubber's residue: 1 mm wide at 0.12 of the light (0.12 mm of black), over the edge
    marked, _, _ = _read(monkeypatch, _ink(DRAWN, width_px=5, darkness=0.12))
    assert marked == set()


def test_print_off_its_place_is_no_ink(monkeypatch):
    # the printed edges 0.4 mm off where the template has them, darker than the tone expects on one side and
    # lighter on the other: integrated across the band, none
    marked, _, _ = _read(monkeypatch, np.zeros((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K)), np.float32), shift=2)
    assert marked == set()


def test_paper_noisier_than_the_walls_threshold_keeps_the_plain_rule(monkeypatch):
    ink = _ink(DRAWN, **BALLPOINT)
    marked, page, plan = _read(monkeypatch, ink, noise=60.0)
    assert page.line_noise(plan) >= WALL_BLACK
    off, _, _ = _read(monkeypatch, ink, on=False, noise=60.0)
    assert marked == off


def _confidences(monkeypatch, ink: np.ndarray, on: bool = True) -> tuple[dict, Page, Plan]:
    monkeypatch.setattr(read, "WALL_INK", on)
    template = _template()
    page = Page(_photo(template, ink), template, PAGE_MM, align=False)
    regions = [Region(f"wall-{y:g}", LINE, LineShape(X0 + 2, y, X1 - 2, y, band=1.8, black=WALL_BLACK), "wall")
               for y in EDGES]
    regions += [Region(f"path-{y:g}", LINE, LineShape(X0 + 2, y, X1 - 2, y, band=1.8), "path") for y in PATHS]
    plan = Plan(regions, template.shape[:2], PAGE_MM)
    readings = read_regions(page, plan)
    return {y: readings[f"wall-{y:g}"] for y in EDGES}, page, plan


def test_a_wall_nearly_as_dark_as_a_stroke_is_unsure_and_a_residue_stays_sure(monkeypatch):
    # a hard pencil pressed lightly along the drawn edges: 0.6 mm at 0.33 of the light (0.20 mm of black drawn,
    # blurred partly past the band's middle: read about 0.15, under WALL_BLACK and within half a margin of it);
    # a rubber's residue along the others: 1 mm at 0.06 (0.06 mm)
    ink = _ink(DRAWN, width_px=3, darkness=0.33) + _ink(EDGES[1::2], width_px=5, darkness=0.06)
    off, _, _ = _confidences(monkeypatch, ink, on=False)
    on, page, plan = _confidences(monkeypatch, ink)
    assert not any(r.marked for r in off.values()) and all(r.confidence == 1.0 for r in off.values())
    assert not any(r.marked for r in on.values())
    levels = dict(zip([plan.regions[i].id for i in plan.own_index], page.wall_ink_level(plan)))
    for y in DRAWN:
        assert 0.5 * WALL_BLACK < levels[f"wall-{y:g}"] < WALL_BLACK
        assert on[y].uncertain                                      # said unsure, not read empty with confidence
    for y in EDGES[1::2]:
        assert levels[f"wall-{y:g}"] < 0.5 * WALL_BLACK
        assert on[y].confidence == 1.0
