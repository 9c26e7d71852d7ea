"""A dot's ink over the print (sheetgen.scan.read.DOT_INK): a visited room's dot drawn with a light pencil over
or beside an icon is measured below the darkest print within TOLERANCE less the noise floor, and the faint dot's
rule does not read where print is within its ring, so it reads empty (issue 27: light graphite's visited dots
beside print).  Read by what the photo takes away from the expected print, opened by a disc of the dot's size (a
thin excess along the print's outlines goes, a dot's blob stays), against this photo's own paper and noise, it
reads marked, where print alone, print a little off its place and noise do not.  On synthetic pages: a white
template with grey printed icons, photographed with uneven light, blur and noise."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import read                                      # noqa: E402
from sheetgen.scan.contract import DOT, Region                      # noqa: E402
from sheetgen.scan.geometry import DotShape                         # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions             # noqa: E402

K = 5                       # px a mm
PAGE_MM = (80.0, 60.0)
CENTRES = [(x, y) for y in (14.0, 30.0, 46.0) for x in (14.0, 30.0, 46.0, 62.0)]   # mm: each room's dot
RADIUS = 0.9                # mm: the dot region's radius (a visited room's: its spot 5 px)
ICON = 0.5                  # the printed icon's grey
DRAWN = CENTRES[::3]


def _template() -> np.ndarray:
    """An icon at every dot: a ring 2 mm across (0.4 mm wide) and a bar through it, 1.2 mm right of the centre."""
    rgb = np.ones((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K), 3), np.float32)
    yy, xx = np.mgrid[:rgb.shape[0], :rgb.shape[1]] / K
    for cx, cy in CENTRES:
        d = np.hypot(xx - cx, yy - cy)
        rgb[(d >= 0.8) & (d <= 1.2)] = ICON
        rgb[(np.abs(xx - cx - 1.2) <= 0.2) & (np.abs(yy - cy) <= 2.0)] = ICON
    rgb[4:6, :] = 0.1                                               # a frame: the tone's dark end
    rgb[:, 4:6] = 0.1
    return rgb


def _photo(template: np.ndarray, ink: np.ndarray, noise: float = 1.5, blur: float = 1.2, shift: int = 0,
           seed: int = 7) -> np.ndarray:
    """The template's grey (its print moved `shift` px right: print a little off where the template has it)
    darkened by `ink` (the share of the light taken), lit unevenly, blurred, with noise (of 255)."""
    grey = template @ np.float32([0.299, 0.587, 0.114])
    if shift:
        grey = np.hstack([grey[:, :shift], grey[:, :-shift]])
    page = grey * (1.0 - ink)
    light = np.linspace(0.95, 0.84, page.shape[1], dtype=np.float32)[None, :]
    page = cv2.GaussianBlur(page * light * 235, (0, 0), blur)
    rng = np.random.default_rng(seed)
    return np.clip(page + rng.normal(0, noise, page.shape), 0, 255).astype(np.float32)


def _ink(centres: list, darkness: float, radius: float = 0.8) -> np.ndarray:
    """A dot `radius` mm round at each of `centres`, `darkness` of the light taken."""
    shape = (int(PAGE_MM[1] * K), int(PAGE_MM[0] * K))
    yy, xx = np.mgrid[:shape[0], :shape[1]] / K
    ink = np.zeros(shape, np.float32)
    for cx, cy in centres:
        ink[np.hypot(xx - cx, yy - cy) <= radius] = darkness
    return ink


def _read(monkeypatch, ink: np.ndarray, on: bool = True, **photo) -> tuple[dict, Page]:
    monkeypatch.setattr(read, "DOT_INK", on)
    template = _template()
    page = Page(_photo(template, ink, **photo), template, PAGE_MM, align=False)
    regions = [Region(f"dot-{x:g}-{y:g}", DOT, DotShape(x, y, RADIUS), "visited") for x, y in CENTRES]
    readings = read_regions(page, Plan(regions, template.shape[:2], PAGE_MM))
    return {(x, y): readings[f"dot-{x:g}-{y:g}"] for x, y in CENTRES}, page


def _marked(readings: dict) -> set:
    return {xy for xy, r in readings.items() if r.marked}


NONE = np.zeros((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K)), np.float32)
LIGHT = 0.3                 # a light graphite dot: 0.3 of the light taken


def test_a_faint_dot_over_an_icon_reads_marked_where_the_other_rules_miss_it(monkeypatch):
    off, _ = _read(monkeypatch, _ink(DRAWN, LIGHT), on=False)
    on, _ = _read(monkeypatch, _ink(DRAWN, LIGHT))
    assert _marked(off) == set()                                    # the print takes the measure: missed before
    assert _marked(on) == set(DRAWN)                                # every dot, and no empty icon
    assert all(on[xy].confidence >= 0.5 for xy in DRAWN)
    assert all(on[xy].confidence >= 0.5 for xy in CENTRES if xy not in DRAWN)


def test_an_icon_alone_reads_empty_even_off_its_place(monkeypatch):
    for shift in (0, 2):            # the print where the template has it, then 0.4 mm off (TOLERANCE)
        readings, _ = _read(monkeypatch, NONE, shift=shift)
        assert _marked(readings) == set()


def _stroke(width_px: int, darkness: float) -> np.ndarray:
    """A stroke width_px wide, 6 mm long, through every icon's centre."""
    ink = NONE.copy()
    for cx, cy in CENTRES:
        r = int(round(cy * K))
        ink[r - width_px // 2:r - width_px // 2 + width_px, int((cx - 3) * K):int((cx + 3) * K)] = darkness
    return ink


def test_a_stroke_across_an_icon_is_no_dot_or_an_unsure_one(monkeypatch):
    # a light stroke through every icon (0.4 mm at 0.3 of the light, 0.2 mm at 0.5): opened away, empty
    for ink in (_stroke(2, 0.3), _stroke(1, 0.5)):
        readings, _ = _read(monkeypatch, ink)
        assert _marked(readings) == set()
    # a darker one (0.4 mm at 0.5), blurred to about a dot's width: at most just marked, and unsure
    readings, _ = _read(monkeypatch, _stroke(2, 0.5))
    assert all(not r.marked or r.uncertain for r in readings.values())


def test_noise_alone_reads_empty_or_unsure(monkeypatch):
    for seed in range(4):
        readings, _ = _read(monkeypatch, NONE, noise=40.0, seed=seed)
        assert all(not r.marked or r.uncertain for r in readings.values())
