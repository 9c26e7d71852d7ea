"""The SVG back end writes each page's text straight from svgwrite's elements (drawing_text)
instead of svgwrite's tostring(), which builds an ElementTree copy first.  The text must be the
same, character for character: on every page of the default pack (colour and grayscale), on
the pencil overlays of the companion page, and on the awkward cases (text to escape, empty
text, a title)."""
import pytest

from sheetgen.build import DEFAULT_PACK, compose_pack, load
from sheetgen.draw.model import Circle, Document, Group, Line, Page, Path, Polygon, Rect, Style, Text
from sheetgen.draw.options import BuildOptions
from sheetgen.render.svg import SvgRenderer, drawing_text


def _pages(doc, grayscale=False):
    """(name, the page's text by page(), by drawing_text, and svgwrite's own tostring())."""
    svg = SvgRenderer(doc, grayscale)
    for page in doc.pages:
        yield page.name, svg.page(page), drawing_text(svg.drawing(page)), svg.drawing(page).tostring()


@pytest.fixture(scope="module")
def pack():
    return compose_pack(load(DEFAULT_PACK), BuildOptions())


@pytest.mark.parametrize("grayscale", [False, True])
def test_every_page_of_the_default_pack_reads_as_svgwrite_writes_it(pack, grayscale):
    count = 0
    for name, ours, direct, theirs in _pages(pack, grayscale):
        assert direct == theirs, name
        assert ours == theirs, name
        count += 1
    for name, ours, direct, theirs in _pages(pack, grayscale):      # now from the kept texts
        assert ours == theirs, name
    assert count >= 30


def test_awkward_text_reads_as_svgwrite_writes_it():
    odd = Style(stroke="#123456", stroke_width=0.3, dash=(1.0, 0.5), cap="round", fill="#ffeeaa", opacity=0.5)
    doc = Document([Page(100, 80, [
        Text(5, 5, 'Tom & "Jerry" <b> \u00e9\u00e8 \u2014 d66', 9, id="odd-text"),
        Text(5, 15, "", 9, id="empty-text"),
        Line(0, 0, 10, 10, odd, id="a-line", cls="pencil"),
        Line(0, 0, 10, 10, odd, id="a-line"),                       # the repeated id becomes a class
        Rect(10, 10, -5, -5, odd, radius=1.0, id="negative-rect"),
        Circle(50, 40, 3, odd),
        Polygon(((0, 0), (3, 1), (2, 4)), odd, closed=False),
        Path((("M", 0, 0), ("L", 5, 5), ("C", 1, 2, 3, 4, 5, 6), ("Z",)), odd),
        Group((Group((Text(0, 0, "nested", 8),), id="inner"),), transform=(1, 0, 0, 1, 3.333333, 4)),
    ])], title="A title with <angle> & 'quotes'")
    for _ in range(2):                                  # written, then from the kept texts
        for name, ours, direct, theirs in _pages(doc):
            assert ours == direct == theirs


def test_the_companion_pages_overlay_reads_as_svgwrite_writes_it():
    from sheetgen.games.foury.randomplay import random_game
    from sheetgen.games.foury import notation
    from sheetgen.games.foury.formats.map import load_map
    from sheetgen.games.foury.heroes import free_hero
    from sheetgen.games.foury.tracker import ADAPTER
    from sheetgen.games.foury.web import PAGE
    traits = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}
    board = load_map("ancient-story").board
    steps = [notation.serialize(a) for a in random_game(board, free_hero(traits), 3, max_actions=120)]
    header = ADAPTER.start({"map": "ancient-story", "traits": traits})
    view = PAGE.view(header, steps, PAGE.sheet(header))
    for _ in range(2):
        for name, ours, direct, theirs in _pages(view["overlay"]):
            assert ours == direct == theirs
    # one step more: most primitives are kept, the page is still what svgwrite writes
    more = PAGE.view(header, steps[:-5], PAGE.sheet(header))
    for name, ours, direct, theirs in _pages(more["overlay"]):
        assert ours == direct == theirs


def test_a_kept_text_is_used_only_where_its_ids_are_new_as_when_written():
    """A small group kept whole: its text depends on which of its ids the page used before
    (a repeated id becomes a class), so each case is its own."""
    st = Style()
    group = Group((Line(0, 0, 1, 1, st, id="x"),), id="g")
    docs = [Document([Page(10, 10, [Line(0, 0, 1, 1, st, id="x"), group])]),
            Document([Page(10, 10, [Rect(0, 0, 1, 1, st, id="g"), group])]),
            Document([Page(10, 10, [group, group])]),
            Document([Page(10, 10, [group])])]
    for _ in range(2):
        for doc in docs:
            for name, ours, direct, theirs in _pages(doc):
                assert ours == direct == theirs


def test_the_pencil_given_again_from_marks_kept_over_a_sheet_is_the_pencil_drawn_fresh():
    """The companion page passes its sheet's rects, and the overlay gives the marks made over
    that sheet before again (the same objects, whose SVG text is kept by identity): at every
    step of a game the marks and the page's text equal those of an overlay made from nothing."""
    traits = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}
    kinds = set()
    for map_name in ("ancient-story", "kraken"):     # walls on the one, floods on the other
        _kept_equals_fresh(map_name, traits, kinds)
    assert {"pencil path", "pencil dot", "pencil wall", "pencil cross", "pencil flood", "pencil monster"} <= kinds


def _kept_equals_fresh(map_name, traits, kinds):
    from sheetgen.draw.model import Document, Page
    from sheetgen.games.foury import notation
    from sheetgen.games.foury.formats.map import load_map
    from sheetgen.games.foury.heroes import free_hero
    from sheetgen.games.foury.randomplay import random_game
    from sheetgen.games.foury.sheets.pencil import overlay, replay_with_trail
    from sheetgen.games.foury.tracker import ADAPTER, played_actions
    from sheetgen.games.foury.web import PAGE
    board = load_map(map_name).board
    steps = [notation.serialize(a) for a in random_game(board, free_hero(traits), 5, max_actions=160)]
    header = ADAPTER.start({"map": map_name, "traits": traits})
    sheet = PAGE.sheet(header)
    page = sheet.doc.pages[0]
    hero = free_hero(traits)
    for n in range(0, len(steps) + 1, 4):
        state, trail = replay_with_trail(board, hero, played_actions(steps[:n]))
        kept = overlay(page, state, trail, rects=sheet.rects)
        fresh = overlay(page, state, trail)                     # rects looked up again: nothing kept
        assert kept == fresh, n
        again = overlay(page, state, trail, rects=sheet.rects)
        assert all(a is b for a, b in zip(again, kept)) and len(again) == len(kept)    # given again
        kinds.update(m.cls for m in kept)
        docs = [Document([Page(page.width, page.height, marks)]) for marks in (kept, fresh)]
        ours = SvgRenderer(docs[0]).page(docs[0].pages[0])
        assert ours == SvgRenderer(docs[1]).drawing(docs[1].pages[0]).tostring(), n
