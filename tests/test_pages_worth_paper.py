"""Every page worth its paper (issue 30): the stand-alone table pages and the shuffle reference
filled, a door legend only where doors are drawn, the small card and hex texts readable."""
import pytest

from sheetgen.build import compose_loaded, load
from sheetgen.draw.furniture import CORNER_ZONE
from sheetgen.draw.lint import _shape, _walk
from sheetgen.draw.model import Text, walk
from sheetgen.draw.options import BuildOptions

PAPERS = ("a4", "letter")
FURNITURE = ("footer", "calibration-ruler")


def _pages(name, paper):
    return compose_loaded(load(name), BuildOptions(paper=paper)).pages


def _lowest(page) -> float:
    """Where the page's own content ends (the footer and ruler left out)."""
    bottom = 0.0
    for found in _walk(page.items):
        shape = _shape(*found)
        if shape is not None and (found[4] or "") not in FURNITURE:
            bottom = max(bottom, shape.box[3])
    return bottom


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("name", ["exploration-treasure", "exploration-contents", "exploration-entrance",
                                  "exploration-tables", "shuffle-reference"])
def test_the_page_is_filled(name, paper):
    for page in _pages(name, paper):
        assert _lowest(page) >= 0.85 * (page.height - CORNER_ZONE), (name, page.name)


def _texts(page):
    return [(item, t) for item, t in walk(page.items) if isinstance(item, Text) and item.text.strip()]


@pytest.mark.parametrize("name", ["exploration-treasure", "exploration-contents"])
def test_no_door_legend_where_no_door_is_drawn(name):
    words = {item.text for item, _ in _texts(_pages(name, "a4")[0])}
    assert "secret door" not in words


def test_the_door_legend_goes_with_the_entrance_rooms():
    words = {item.text for item, _ in _texts(_pages("exploration-entrance", "a4")[0])}
    assert "secret door" in words


def _printed_pt(item, t) -> float:
    return item.size * (abs(t[0] * t[3] - t[1] * t[2]) ** 0.5 if t else 1.0)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("name", ["nav-crypt", "nav-rooms"])
def test_card_texts_are_6_pt_or_more(name, paper):
    for page in _pages(name, paper):
        small = {(item.text, round(_printed_pt(item, t), 1)) for item, t in _texts(page) if _printed_pt(item, t) < 6.0}
        assert small == set(), name


def test_the_crypt_start_card_is_not_labelled_over_its_wall_band():
    page = _pages("nav-crypt", "a4")[0]
    labels = [item for item, _ in walk(page.items) if isinstance(item, Text) and item.id == "start"]
    start_types = [item for item, _ in _texts(page) if item.cls == "card-type" and item.text == "START"]
    # the start card says START itself; an extra label would only sit on the card's bottom band
    assert start_types and labels == []


@pytest.mark.parametrize("paper", PAPERS)
def test_hex_numbers_are_readable(paper):
    labels = [item for item, _ in _texts(_pages("hex-sheet", paper)[0]) if item.cls and "grid-label" in item.cls]
    assert len(labels) > 100
    assert all(item.size >= 7 for item in labels)
    assert all(int(item.fill[1:3], 16) <= 0x60 for item in labels)      # dark grey, not light


@pytest.mark.parametrize("duplex", [False, True])
@pytest.mark.parametrize("paper", PAPERS)
def test_the_last_card_sheet_is_filled_with_spare_room_cards(paper, duplex):
    from sheetgen.draw.model import Group
    pages = compose_loaded(load("shuffle-core"), BuildOptions(paper=paper, duplex=duplex)).pages
    slots = [[item.items[0] for item in page.items if isinstance(item, Group) and item.cls in ("card", "card back")]
             for page in pages]
    assert len({len(s) for s in slots}) == 1          # every sheet, fronts and backs, full
    spares = [face.id for s in slots for face in s if face.cls == "card spare"]
    assert 0 < len(spares) < len(slots[0])            # only the last sheet's empty slots
    with_spares = [page.name for page, s in zip(pages, slots) if any(face.cls == "card spare" for face in s)]
    assert with_spares == [[page.name for page in pages if not page.name.endswith("-back")][-1]]
