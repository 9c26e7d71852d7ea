"""The vector icon set: every Foury element has an icon, icons stay in their square,
are told apart by shape (not only colour), and render alike in every back end."""
import io
import itertools

import pytest

from sheetgen.draw.icons import (ICON_NAMES, grey_of, icon, icon_key)
from sheetgen.games.foury.sheets.pictograms import event_pictogram
from sheetgen.draw.model import Circle, Document, Group, Line, Page, Path, Polygon, Rect, Text, walk
from sheetgen.errors import InputError
from sheetgen.games.foury.board import ITEMS

SHEET_SYMBOLS = ("heart", "skull", "oracle", "entry", "coin", "start")


def _points(item):
    """Corner points of a primitive (stroke half-widths ignored)."""
    if isinstance(item, Rect):
        return [(item.x, item.y), (item.x + item.w, item.y + item.h)]
    if isinstance(item, Circle):
        return [(item.cx - item.r, item.cy - item.r), (item.cx + item.r, item.cy + item.r)]
    if isinstance(item, Line):
        return [(item.x1, item.y1), (item.x2, item.y2)]
    if isinstance(item, Polygon):
        return list(item.points)
    if isinstance(item, Path):
        pts = []
        for cmd in item.commands:
            nums = cmd[1:]
            pts += [(nums[i], nums[i + 1]) for i in range(0, len(nums), 2)]
        return pts
    if isinstance(item, Text):
        return [(item.x, item.y)]
    return []


def test_every_item_name_has_an_icon():
    missing = [name for name in ITEMS if name not in ICON_NAMES]
    assert not missing
    drawings = {}
    for name in (*ITEMS, *SHEET_SYMBOLS):
        g = icon(name, 0, 0, 8)
        assert isinstance(g, Group) and g.items, name
        drawings[name] = repr(g.items)
    assert len(set(drawings.values())) == len(drawings)     # no shared placeholder drawing


def test_unknown_icon_is_a_clean_error_with_a_suggestion():
    with pytest.raises(InputError) as exc:
        icon("potoin", 0, 0, 8)
    assert "potion" in str(exc.value)
    assert icon_key("Sword") == "weapon" and icon_key("yellow_potion") == "yellow potion"


@pytest.mark.parametrize("name", ICON_NAMES)
def test_icon_stays_inside_its_square(name):
    x, y, size = 20.0, 30.0, 8.0
    g = icon(name, x, y, size, id=f"t-{name}")
    assert g.id == f"t-{name}"
    for item, _ in walk([g]):
        for px, py in _points(item):
            assert x - 0.02 * size <= px <= x + size * 1.02, (name, item)
            assert y - 0.02 * size <= py <= y + size * 1.02, (name, item)


def test_without_colour_every_fill_and_stroke_is_grey():
    for name in ICON_NAMES:
        for item, _ in walk([icon(name, 0, 0, 8, colour=False)]):
            style = getattr(item, "style", None)
            for c in ((style.fill, style.stroke) if style else (getattr(item, "fill", None),)):
                if c:
                    assert c[1:3] == c[3:5] == c[5:7], (name, c)
    assert grey_of("#d0312d") != grey_of("#3f9b3a")        # hues keep distinct greys


def _mask(name, dpi=150, size=8.0):
    from PIL import Image
    from sheetgen.render import render_png_pages
    png = render_png_pages(Document([Page(size + 2, size + 2, [icon(name, 1, 1, size, colour=False)])]), dpi)[0]
    im = Image.open(io.BytesIO(png)).convert("L")
    return im.point(lambda v: 255 if v < 128 else 0)        # the dark silhouette


def test_silhouettes_differ_at_8mm():
    """Two icons whose dark shapes nearly coincide could only be told apart by colour."""
    pytest.importorskip("sheetgen.render")
    from PIL import ImageChops
    masks = {n: _mask(n) for n in ICON_NAMES}
    area = masks["chest"].size[0] * masks["chest"].size[1]
    close = []
    for a, b in itertools.combinations(ICON_NAMES, 2):
        diff = ImageChops.difference(masks[a], masks[b]).histogram()[255] / area
        if diff < 0.04:
            close.append((a, b, round(diff, 3)))
    assert not close


def test_event_pictogram_draws_collapsed_walls_relative_to_the_move():
    size = 10.0
    g = event_pictogram("collapse left front", 0, 0, size)
    thick = [i for i, _ in walk([g]) if isinstance(i, Line) and i.style.stroke_width > 0.08 * size]
    # left wall: vertical at the room's left (u=0.22); front: horizontal at the top (v=0.12)
    assert any(abs(l.x1 - 2.2) < 1e-6 and abs(l.x2 - 2.2) < 1e-6 for l in thick)
    assert any(abs(l.y1 - 1.2) < 1e-6 and abs(l.y2 - 1.2) < 1e-6 for l in thick)
    assert not any(abs(l.x1 - 7.8) < 1e-6 and abs(l.x2 - 7.8) < 1e-6 for l in thick)   # right stays open
    right = event_pictogram("collapse right", 0, 0, size)
    thick_r = [i for i, _ in walk([right]) if isinstance(i, Line) and i.style.stroke_width > 0.08 * size]
    assert len(thick_r) == 1 and abs(thick_r[0].x1 - 7.8) < 1e-6


def test_event_pictogram_shows_the_monster_and_rejects_bad_events():
    g = event_pictogram("collapse behind + monster orc", 0, 0, 10, id="event-B-2")
    assert g.id == "event-B-2"
    assert any(isinstance(i, Group) and i.cls == "icon icon-orc" for i in g.items)
    with pytest.raises(InputError):
        event_pictogram("collapse sideways", 0, 0, 10)


def test_icons_are_vectors_in_svg_and_pdf():
    pytest.importorskip("sheetgen.render")
    from sheetgen.render import render_pdf_bytes, render_svg_pages
    page = Page(100, 60, [icon(n, 2 + (i % 10) * 9.5, 2 + (i // 10) * 9.5, 8, id=f"i{i}")
                          for i, n in enumerate(ICON_NAMES)])
    doc = Document([page])
    svg = render_svg_pages(doc)[0]
    assert all(f'id="i{i}"' in svg for i in range(len(ICON_NAMES)))
    assert "<image" not in svg                          # no bitmaps
    assert render_pdf_bytes(doc).startswith(b"%PDF")


def _box(items):
    pts = [p for item, _ in walk(items) for p in _points(item)]
    return min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)


def test_the_extra_steps_plus_one_sits_above_the_room_clear_of_what_it_holds():
    from sheetgen.draw.lint import page_overlaps
    size = 10.0
    for event in ("extra step", "extra step + find yellow potion", "extra step + monster goblin"):
        g = event_pictogram(event, 0, 0, size, id="ev")
        plus = [i for i, _ in walk([g]) if isinstance(i, Text) and i.text == "+1"]
        assert len(plus) == 1 and plus[0].y < 0.12 * size              # above the room's front wall
        assert page_overlaps([g]) == [], event                          # clear of every part of the pictogram
        icons = [i for i in g.items if isinstance(i, Group) and "icon" in (i.cls or "")]
        dashed = [i for i, _ in walk([g]) if isinstance(i, Line) and i.style.dash]
        for ic in icons:                                                # the move's dashed arrow passes above it
            top = _box([ic])[1]
            assert all(max(l.y1, l.y2) <= top + 1e-6 for l in dashed), event


def test_an_event_with_a_monster_and_a_chest_shows_both():
    g = event_pictogram("monster + chest", 0, 0, 10)
    names = [i.cls for i in g.items if isinstance(i, Group)]
    assert names == ["icon icon-monster", "icon icon-chest"]
    a, b = (_box([i]) for i in g.items if isinstance(i, Group))
    assert a[2] <= b[0] + 1e-6                                          # side by side, not over each other


def test_the_card_games_monsters_and_heroes_each_have_their_own_icon():
    from sheetgen.definitions.registry import load
    from sheetgen.draw.icons import CARD_ICONS, MAP_ICONS
    from sheetgen.games.shuffle.sheets import card_icon
    assert not set(CARD_ICONS) & set(MAP_ICONS) and set(CARD_ICONS) <= set(ICON_NAMES)
    deck = load("shuffle-core").definition.deck
    chosen = {c.id: card_icon(c, "monster") for c in deck.monsters}
    heroes = {h.id: card_icon(h, "start") for h in deck.heroes}
    assert chosen == {"cave-rat": "rat", "goblin": "goblin", "skeleton": "skeleton", "ogre": "ogre"}
    assert heroes == {"knight": "knight", "rogue": "rogue", "mage": "mage"}
    assert len(set(chosen.values()) | set(heroes.values())) == 7      # no two cards share an icon
    # a card whose words name no icon keeps the generic one
    from types import SimpleNamespace
    assert card_icon(SimpleNamespace(id="blob", title="Gelatinous Blob"), "monster") == "monster"


def test_the_card_sheets_draw_each_card_with_its_icon():
    from sheetgen.definitions.registry import load
    from sheetgen.draw.options import BuildOptions
    loaded = load("shuffle-core")
    doc = loaded.handler.compose(loaded.definition, BuildOptions())
    art = {}
    for page in doc.pages:
        stack = list(page.items)
        while stack:
            g = stack.pop()
            if isinstance(g, Group):
                if (g.id or "").startswith("art-"):
                    art[g.id] = g.cls
                stack.extend(g.items)
    assert art["art-cave-rat"] == "icon icon-rat" and art["art-knight"] == "icon icon-knight"
    assert art["art-mage-leveled"] == "icon icon-mage"                 # the levelled side: the same hero
