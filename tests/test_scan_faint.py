"""A faint line (sheetgen.scan.read.FAINT_LINES): a thin line's point is penciled where the darkness
integrated across its band stands FAINT_Z of the photo's own paper noise above the paper (at least
FAINT_LEAST), so a light pencil's clean stroke reads where the same ink scattered as noise cannot (issue 27:
light graphite and blue ballpoint missed paths and struck items).  On synthetic pages: a white template
with a printed frame, photographed with uneven light, a little blur and noise."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import read                                      # noqa: E402
from sheetgen.scan.contract import DOT, LINE, Region                # noqa: E402
from sheetgen.scan.geometry import DotShape, LineShape              # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions             # noqa: E402

K = 5                       # px a mm
PAGE_MM = (80.0, 60.0)
ROWS = (12.0, 20.0, 28.0, 36.0, 44.0)           # mm: where the strokes run (and their lines' regions)
EMPTY_ROWS = (16.0, 24.0, 32.0, 40.0, 48.0)     # mm: lines on bare paper between them
X0, X1 = 10.0, 70.0                             # mm: the strokes' and the lines' ends
WIDTH = 0.4                                     # mm: the stroke (two pixels)
# darkness of a stroke pixel: integrated across 0.4 mm it gives 0.07 mm of black, under LINE_PER_MM (0.10)
# and above FAINT_LEAST: a hard pencil pressed lightly
FAINT = 0.07 / WIDTH


def _template() -> np.ndarray:
    rgb = np.ones((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K), 3), np.float32)
    rgb[4:6, :] = 0.1                                               # printed lines: the tone's dark end
    rgb[:, 4:6] = 0.1
    return rgb


def _photo(template: np.ndarray, ink: np.ndarray, noise: float = 1.5, seed: int = 5) -> np.ndarray:
    """The template's grey darkened by `ink` (per pixel, the share of the light taken), lit unevenly,
    blurred a little as a camera does, with noise (of 255), in 0..255."""
    grey = template @ np.float32([0.299, 0.587, 0.114])
    page = grey * (1.0 - ink)
    light = np.linspace(0.95, 0.82, page.shape[1], dtype=np.float32)[None, :]
    page = cv2.GaussianBlur(page * light * 235, (0, 0), 0.6)
    rng = np.random.default_rng(seed)
    return np.clip(page + rng.normal(0, noise, page.shape), 0, 255).astype(np.float32)


def _strokes(darkness: float) -> np.ndarray:
    """The ink of a stroke WIDTH wide along each of ROWS, from X0 to X1."""
    ink = np.zeros((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K)), np.float32)
    for y in ROWS:
        r = int(round(y * K))
        ink[r - 1:r + 1, int(X0 * K):int(X1 * K)] = darkness
    return ink


def _lines(black: float | None = None) -> list[Region]:
    return [Region(f"line-{y:g}", LINE, LineShape(X0 + 2, y, X1 - 2, y, band=1.8, black=black), "path")
            for y in ROWS + EMPTY_ROWS]


def _read(monkeypatch, ink: np.ndarray, on: bool = True, noise: float = 1.5, black: float | None = None):
    monkeypatch.setattr(read, "FAINT_LINES", on)
    template = _template()
    page = Page(_photo(template, ink, noise), template, PAGE_MM, align=False)
    regions = _lines(black)
    plan = Plan(regions, template.shape[:2], PAGE_MM)
    readings = read_regions(page, plan)
    marked = {y for y in ROWS + EMPTY_ROWS if readings[f"line-{y:g}"].marked}
    return marked, page, plan


def test_a_faint_clean_stroke_reads_marked_where_the_plain_rule_misses_it(monkeypatch):
    off, _, _ = _read(monkeypatch, _strokes(FAINT), on=False)
    on, page, plan = _read(monkeypatch, _strokes(FAINT))
    assert off == set()                                             # under LINE_PER_MM: missed before
    assert on == set(ROWS)                                          # every stroke, and no bare line
    level = page.faint_level(plan)
    assert level is not None and read.FAINT_LEAST <= level < read.LINE_PER_MM


def test_the_same_ink_scattered_as_noise_reads_empty(monkeypatch):
    # the strokes' ink, pixel for pixel, moved to random places over the page: specks, not a line
    ink = _strokes(FAINT)
    rng = np.random.default_rng(11)
    scattered = rng.permutation(ink.ravel()).reshape(ink.shape)
    assert float(scattered.sum()) == pytest.approx(float(ink.sum()))
    marked, _, _ = _read(monkeypatch, scattered)
    assert marked == set()


def test_zero_mean_noise_of_the_strokes_energy_reads_empty(monkeypatch):
    # paper noise with as much energy (the sum of squares) over the page as the strokes have: it darkens
    # and lightens alike, a pencil only darkens
    ink = _strokes(FAINT)
    sigma = float(np.sqrt((ink ** 2).sum() / ink.size))
    rng = np.random.default_rng(12)
    marked, _, _ = _read(monkeypatch, rng.normal(0.0, sigma, ink.shape).astype(np.float32))
    assert marked == set()


def test_the_level_follows_the_photo_s_noise_and_a_noisy_paper_keeps_the_plain_rule(monkeypatch):
    _, quiet, quiet_plan = _read(monkeypatch, _strokes(FAINT), noise=1.0)
    _, grainy, grainy_plan = _read(monkeypatch, _strokes(FAINT), noise=6.0)
    q, g = quiet.faint_level(quiet_plan), grainy.faint_level(grainy_plan)
    assert q is not None and (g is None or g > q)
    # paper this noisy: its level would reach LINE_PER_MM, so the plain rule alone reads it
    marked, noisy, plan = _read(monkeypatch, _strokes(FAINT), noise=25.0)
    assert noisy.faint_level(plan) is None
    off, _, _ = _read(monkeypatch, _strokes(FAINT), on=False, noise=25.0)
    assert marked == off


def test_a_stroke_fainter_than_the_least_level_reads_empty_even_on_clean_paper(monkeypatch):
    # a rubbed-out stroke's residue: integrated across, under FAINT_LEAST however clean the paper
    residue = 0.6 * read.FAINT_LEAST / WIDTH
    marked, page, plan = _read(monkeypatch, _strokes(residue), noise=0.5)
    assert page.faint_level(plan) == pytest.approx(read.FAINT_LEAST)
    assert marked == set()


def test_a_line_with_its_own_threshold_keeps_it(monkeypatch):
    # a wall (its own mm of black: a thick line, an erased one is not) is not read at the faint level
    marked, _, _ = _read(monkeypatch, _strokes(FAINT), black=0.18)
    assert marked == set()


# dots: a visited room's dot of a hard pencil pressed lightly, FAINT_DOT of the light taken over its disc
DOTS = [(15.0 + 10 * i, 15.0 + 10 * j) for i in range(5) for j in range(2)]        # mm: dots drawn
BARE = [(15.0 + 10 * i, 45.0) for i in range(5)]                                    # mm: rooms left bare
DOT_R = 0.7                 # mm: the dot's region (and the dot drawn)
FAINT_DOT = 0.18            # under DOT_MARKED (0.20) plus the darkness floor: missed by the plain rule


def _dots(darkness: float) -> np.ndarray:
    ink = np.zeros((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K)), np.float32)
    yy, xx = np.mgrid[0:ink.shape[0], 0:ink.shape[1]]
    for cx, cy in DOTS:
        ink[((xx + 0.5) / K - cx) ** 2 + ((yy + 0.5) / K - cy) ** 2 <= DOT_R ** 2] = darkness
    return ink


def _read_dots(monkeypatch, ink: np.ndarray, on: bool = True, noise: float = 1.5):
    monkeypatch.setattr(read, "FAINT_DOTS", on)
    template = _template()
    page = Page(_photo(template, ink, noise), template, PAGE_MM, align=False)
    regions = [Region(f"cell-{x:g}-{y:g}", DOT, DotShape(cx=x, cy=y, r=DOT_R), "visited") for x, y in DOTS + BARE]
    readings = read_regions(page, Plan(regions, template.shape[:2], PAGE_MM))
    return {(x, y) for x, y in DOTS + BARE if readings[f"cell-{x:g}-{y:g}"].marked}, page


def test_a_faint_dot_reads_marked_where_the_plain_rule_misses_it(monkeypatch):
    off, _ = _read_dots(monkeypatch, _dots(FAINT_DOT), on=False)
    on, page = _read_dots(monkeypatch, _dots(FAINT_DOT))
    assert off == set()
    assert on == set(DOTS)
    (_, level), = page._faint_spots.values()
    assert level is not None and read.FAINT_DOT_LEAST <= level < read.DOT_MARKED


def test_the_dots_ink_scattered_as_noise_reads_empty(monkeypatch):
    ink = _dots(FAINT_DOT)
    scattered = np.random.default_rng(13).permutation(ink.ravel()).reshape(ink.shape)
    marked, _ = _read_dots(monkeypatch, scattered)
    assert marked == set()


def test_a_dot_fainter_than_the_least_level_reads_empty(monkeypatch):
    # a rubbed-out dot's residue on clean paper
    marked, _ = _read_dots(monkeypatch, _dots(0.6 * read.FAINT_DOT_LEAST), noise=0.5)
    assert marked == set()
