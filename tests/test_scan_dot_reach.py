"""A dot read empty is no surer than this photo's own marks could have shown there (sheetgen.scan.read.DOT_REACH,
Page.dot_reach, _doubt_dots): a light pencil's dot drawn over a printed icon about as dark as the pencil adds
nothing there, and read empty "sure" it let a checker say "consistent" over a missed visited room (issue 27:
light graphite's 60 missed dots over icons, read empty with confidence 1).  On synthetic pages: rooms on plain
paper and rooms with a grey printed icon at their centre, penciled with a mark that covers what it is drawn over
(its own grey where that is darker), lit unevenly, blurred, with noise."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import read                                      # noqa: E402
from sheetgen.scan.contract import DOT, UNCERTAIN, Region           # noqa: E402
from sheetgen.scan.geometry import DotShape                         # noqa: E402
from sheetgen.scan.read import Page, Plan, read_regions             # noqa: E402

K = 5                       # px a mm
PAGE_MM = (90.0, 50.0)
PLAIN = [(x, 14.0) for x in (12.0, 26.0, 40.0, 54.0, 68.0)]        # mm: rooms' centres on plain paper
ICONS = [(x, 36.0) for x in (12.0, 26.0, 40.0, 54.0, 68.0)]         # ... and with a printed icon there
ICON = 0.5                  # the icon's grey (a disc 2 mm across)
LIGHT, DARK = 0.6, 0.2      # a hard pencil pressed lightly, a soft one: the grey a mark leaves on white
R = 0.75                    # mm: a visited dot region's radius (and a drawn dot's)


def _template() -> np.ndarray:
    rgb = np.ones((int(PAGE_MM[1] * K), int(PAGE_MM[0] * K), 3), np.float32)
    yy, xx = np.mgrid[0:rgb.shape[0], 0:rgb.shape[1]]
    for x, y in ICONS:
        rgb[((xx + 0.5) / K - x) ** 2 + ((yy + 0.5) / K - y) ** 2 <= 1.0] = ICON
    rgb[4:6, :] = 0.1                                               # a frame: the tone's dark end
    rgb[:, 4:6] = 0.1
    return rgb


def _photo(template: np.ndarray, dots: list, tone: float, seed: int = 3) -> np.ndarray:
    """The template's grey with a dot of grey `tone` at each of `dots` covering what is under it, lit
    unevenly, blurred, with noise."""
    grey = template @ np.float32([0.299, 0.587, 0.114])
    yy, xx = np.mgrid[0:grey.shape[0], 0:grey.shape[1]]
    for x, y in dots:
        disc = ((xx + 0.5) / K - x) ** 2 + ((yy + 0.5) / K - y) ** 2 <= R ** 2
        grey[disc] = np.minimum(grey[disc], tone)
    light = np.linspace(0.95, 0.86, grey.shape[1], dtype=np.float32)[None, :]
    page = cv2.GaussianBlur(grey * light * 235, (0, 0), 1.0)
    rng = np.random.default_rng(seed)
    return np.clip(page + rng.normal(0, 1.5, page.shape), 0, 255).astype(np.float32)


def _read(monkeypatch, dots: list, tone: float, on: bool = True, over: list = (), over_tone: float = DARK) -> dict:
    """The rooms read, DOTS drawn in TONE (and OVER in OVER_TONE, after them)."""
    monkeypatch.setattr(read, "DOT_REACH", on)
    template = _template()
    photo = _photo(template, dots, tone)
    if over:
        photo = np.minimum(photo, _photo(template, list(over), over_tone))
    page = Page(photo, template, PAGE_MM, align=False)
    regions = [Region(f"cell-{x:g}-{y:g}", DOT, DotShape(x, y, R), "visited") for x, y in PLAIN + ICONS]
    readings = read_regions(page, Plan(regions, template.shape[:2], PAGE_MM))
    return {(x, y): readings[f"cell-{x:g}-{y:g}"] for x, y in PLAIN + ICONS}


def _sure(reading) -> bool:
    return reading.confidence >= UNCERTAIN


def test_a_light_dot_over_an_icon_as_dark_as_the_pencil_is_unsure_not_read_empty_sure(monkeypatch):
    drawn = PLAIN[:4] + ICONS[:3]
    before = _read(monkeypatch, drawn, LIGHT, on=False)
    after = _read(monkeypatch, drawn, LIGHT)
    for xy in ICONS[:3]:
        # the pencil adds nothing over the icon: empty both ways, sure before (the bug), unsure now
        assert not before[xy].marked and _sure(before[xy])
        assert not after[xy].marked and not _sure(after[xy])
    for xy in ICONS[3:]:                # not drawn: as little can be said of it
        assert not after[xy].marked and not _sure(after[xy])
    for xy in PLAIN[:4]:                # the photo's own marks: read as before
        assert after[xy].marked and _sure(after[xy])
        assert after[xy].confidence == before[xy].confidence
    assert not after[PLAIN[4]].marked and _sure(after[PLAIN[4]])    # a bare room on paper stays sure


def test_a_dark_pencil_shows_over_the_icon_so_its_empty_dots_there_stay_sure(monkeypatch):
    drawn = PLAIN[:4] + ICONS[:3]
    readings = _read(monkeypatch, drawn, DARK)
    for xy in drawn:
        assert readings[xy].marked and _sure(readings[xy])
    for xy in ICONS[3:] + PLAIN[4:]:
        assert not readings[xy].marked and _sure(readings[xy])


def test_without_enough_of_the_photos_own_marks_the_pencil_is_unknown_and_nothing_is_doubted(monkeypatch):
    drawn = PLAIN[:read.DOT_REACH_LEAST - 1] + ICONS[:2]
    before = _read(monkeypatch, drawn, LIGHT, on=False)
    after = _read(monkeypatch, drawn, LIGHT)
    assert {xy: (r.value, r.confidence) for xy, r in after.items()} == \
        {xy: (r.value, r.confidence) for xy, r in before.items()}


def test_a_bare_room_on_paper_stays_sure_under_a_pencil_read_by_its_faint_contrast(monkeypatch):
    # a pencil so light its dots on paper read by the faint rule's contrast more than by their darkness: what they
    # read there is what a mark there reads, so a bare room on paper is as sure as the least of them (its darkness
    # alone would have put it at 0.15, unsure)
    drawn = PLAIN[:4]
    after = _read(monkeypatch, drawn, 0.75)
    assert all(after[xy].marked and _sure(after[xy]) for xy in drawn)
    bare = after[PLAIN[4]]
    assert not bare.marked and _sure(bare)
    assert bare.confidence >= min(after[xy].confidence for xy in drawn)


def test_the_doubt_only_lowers_a_confidence(monkeypatch):
    for tone in (LIGHT, DARK, 0.4):
        before = _read(monkeypatch, PLAIN[:4] + ICONS[:1], tone, on=False)
        after = _read(monkeypatch, PLAIN[:4] + ICONS[:1], tone)
        for xy, r in after.items():
            assert r.value == before[xy].value and r.score == before[xy].score
            assert r.confidence <= before[xy].confidence


def test_a_dark_mark_over_an_icon_does_not_make_the_pencil_darker(monkeypatch):
    # the tone comes from marks on plain paper: a dark dot over an icon (another pen, a slip) leaves the light
    # pencil's doubt where it was
    drawn = PLAIN[:4] + ICONS[:2]
    alone = _read(monkeypatch, drawn, LIGHT)
    with_dark = _read(monkeypatch, drawn, LIGHT, over=ICONS[4:], over_tone=0.05)
    assert with_dark[ICONS[4]].marked
    for xy in ICONS[:2]:
        assert not with_dark[xy].marked and not _sure(with_dark[xy])
        assert with_dark[xy].confidence == alone[xy].confidence
