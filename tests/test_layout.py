"""The general layout format: elements, units, extends, grid fit, grayscale."""
import math
from pathlib import Path

import pytest

from sheetgen.definitions.registry import load
from sheetgen.draw.layout import FURNITURE_MM
from sheetgen.draw.model import Group, Image, Line, Polygon, Rect, Text, walk
from sheetgen.draw.options import PAPER_SIZES, BuildOptions

DATA = Path(__file__).parent / "data" / "layout"
LAYOUTS = Path(__file__).resolve().parent.parent / "layouts"


def compose(name_or_path, **opts):
    loaded = load(name_or_path)
    return loaded.handler.compose(loaded.definition, BuildOptions(**opts))


def write(tmp_path, text, name="t.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def by_id(items):
    """Every item (groups included) by its id, searching nested groups."""
    found = {}

    def visit(seq):
        for item in seq:
            if item.id:
                found[item.id] = item
            if isinstance(item, Group):
                visit(item.items)
    visit(items)
    return found


def test_graph_sheet_fits_20x28_whole_cells_on_a4_and_letter():
    for paper in ("a4", "letter"):
        page = compose(LAYOUTS / "graph-20x28.yaml", paper=paper).pages[0]
        assert (page.width, page.height) == PAPER_SIZES[paper]
        grid = by_id(page.items)["el-main"]
        verticals = [i for i in grid.items if isinstance(i, Line) and i.x1 == i.x2]
        horizontals = [i for i in grid.items if isinstance(i, Line) and i.y1 == i.y2]
        assert len(verticals) == 19 and len(horizontals) == 27        # inner lines of 20 x 28 cells
        border = by_id(page.items)["el-main-border"]
        cell = border.w / 20
        assert border.h / 28 == pytest.approx(cell)                   # square cells
        assert cell >= 8.5                                            # large enough to draw in
        # whole cells: every inner line sits on a cell boundary
        assert sorted(round((v.x1 - border.x) / cell, 6) for v in verticals) == list(range(1, 20))
        assert sorted(round((h.y1 - border.y) / cell, 6) for h in horizontals) == list(range(1, 28))
        # inside the margins, centred across, clear of the footer band
        assert border.x >= 8 and border.x + border.w <= page.width - 8
        assert border.x == pytest.approx(page.width - border.x - border.w)
        assert border.y + border.h <= page.height - FURNITURE_MM - 2
        # as large as fit: one more 0.1 mm of cell would overflow the area on one axis
        assert (cell + 0.1) * 20 > page.width - 16 or (cell + 0.1) * 28 > page.height - 8 - 15 - 10   # margins 8, 15


def test_graph_sheet_entrance_at_bottom_centre():
    page = compose(LAYOUTS / "graph-20x28.yaml").pages[0]
    ids = by_id(page.items)
    border, mark = ids["el-main-border"], ids["el-entrance"]
    xs = [p[0] for p in mark.points]
    ys = [p[1] for p in mark.points]
    assert (min(xs) + max(xs)) / 2 == pytest.approx(border.x + border.w / 2)
    assert border.y + border.h < min(ys) < max(ys) < page.height - 6.5   # below the grid, above the footer
    assert ids["el-entrance-label"].text == "ENTRANCE"


def test_every_element_type_composes(tmp_path):
    page = compose(DATA / "all-elements.yaml").pages[0]
    ids = by_id(page.items)
    for name in ("heading", "board", "marker", "rule", "arrow", "blurb", "hp", "loot", "skull", "photo",
                 "panel", "badge-1", "badge-2"):
        assert f"el-{name}" in ids, name
    assert ids["el-heading"].text == "Every element on a4"
    # cells count from the grid's corner: marker is the cell C2 of an 8 mm grid
    board = ids["el-board-border"]
    marker = ids["el-marker"]
    assert (marker.x, marker.y, marker.w, marker.h) == pytest.approx((board.x + 16, board.y + 8, 8, 8))
    assert marker.style.fill == "#c0392b"
    # majors every 3 cells
    assert "major" in ids["el-board-v3"].cls and "minor" in ids["el-board-v2"].cls
    assert [t.text for t in ids["el-board"].items if isinstance(t, Text)][:2] == ["A", "B"]
    # wrapping inside 40 mm
    from sheetgen.fonts import text_width
    lines = [t for t in ids["el-blurb"].items]
    assert len(lines) >= 3 and all(text_width(t.text, t.font, t.size) <= 40 for t in lines)
    # checkbox track: box 1 is a cap, the last two blacked out
    capped = [i.id for i in ids["el-hp"].items if isinstance(i, Rect) and i.style.fill == "#000000"]
    assert capped == ["el-hp-box1", "el-hp-box7", "el-hp-box8"]
    # table: header text, wrapped long cell, stripe on a row
    texts = [t.text for t in ids["el-loot"].items if isinstance(t, Text)]
    assert texts[:3] == ["d6", "Loot", "Notes"] and "adventure" in texts
    assert isinstance(ids["el-photo"], Image) and ids["el-photo"].h == pytest.approx(15)   # 2:1 image, 30 mm wide
    assert Path(ids["el-photo"].path).is_absolute()
    # groups move their contents; use places a named group, rotated
    assert ids["el-panel"].transform[4:] == (10.0, 130.0)
    assert "el-badge-1-outline" in ids and ids["el-badge-2"].transform[1] == pytest.approx(math.sin(math.radians(10)))


def test_grayscale_swaps_colour_fills_for_clipped_patterns():
    colour = compose(DATA / "all-elements.yaml").pages[0]
    grey = compose(DATA / "all-elements.yaml", grayscale=True).pages[0]
    ids = by_id(grey.items)
    marker = ids["el-marker"]
    assert isinstance(marker, Group)
    pattern = marker.items[0]
    assert pattern.cls.startswith("pattern") and len(pattern.items) > 3
    box = marker.items[1]
    for line in pattern.items:            # clipped to the box geometrically
        for x, y in ((line.x1, line.y1), (line.x2, line.y2)):
            assert box.x - 1e-6 <= x <= box.x + box.w + 1e-6 and box.y - 1e-6 <= y <= box.y + box.h + 1e-6
    from sheetgen.draw.patterns import is_grey
    assert all(is_grey(item.style.fill) for item, _ in walk(grey.items)
               if hasattr(item, "style") and item.id and item.id.startswith("el-") and "icon" not in (item.cls or ""))
    assert not all(is_grey(item.style.fill) for item, _ in walk(colour.items) if hasattr(item, "style"))
    # the two colours got different patterns
    assert ids["el-marker-pattern"].cls != ids["el-arrow-pattern"].cls


def test_extends_overrides_by_name_adds_after_and_null_deletes(tmp_path):
    write(tmp_path, "sheetgen: 1\nkind: layout\ntitle: Base\nelements:\n"
          "  a: {type: box, x: 1mm, y: 1mm, width: 5mm, height: 5mm}\n"
          "  b: {type: text, text: hello, size: 12}\n"
          "  c: {type: line, x: 0, y: 0, x2: 10mm, y2: 0}\n", "base.yaml")
    child = write(tmp_path, "sheetgen: 1\nkind: layout\nextends: base.yaml\ntitle: Child\nelements:\n"
                  "  d: {type: text, text: new}\n"
                  "  b: {text: bye}\n"
                  "  c: null\n", "child.yaml")
    page = compose(child).pages[0]
    ids = [i.id for i in page.items if i.id and i.id.startswith("el-")]
    assert ids == ["el-a", "el-b", "el-d"]
    b = by_id(page.items)["el-b"]
    assert (b.text, b.size) == ("bye", 12)                  # one key replaced, the rest inherited
    assert "Child" in by_id(page.items)["footer"].text


def test_hex_sheet_extends_the_graph_sheet():
    page = compose("hex-sheet").pages[0]
    ids = by_id(page.items)
    assert "el-entrance" not in ids and "el-adventurer" in ids
    assert ids["el-title"].text == "Hex map"
    hexes = [i for i in ids["el-main"].items if isinstance(i, Polygon)]
    assert len(hexes) == 13 * 16
    assert "el-main-0101" in ids and "el-main-1316" in ids
    # every hex inside the content area
    xs = [x for h in hexes for x, _ in h.points]
    ys = [y for h in hexes for _, y in h.points]
    assert min(xs) >= 8 - 1e-6 and max(xs) <= page.width - 8 + 1e-6
    assert max(ys) <= page.height - FURNITURE_MM


def test_cells_inside_a_group_count_from_the_group(tmp_path):
    path = write(tmp_path, "sheetgen: 1\nkind: layout\nelements:\n"
                 "  g: {type: grid, columns: 4, rows: 4, cell: 10mm, x: 0, y: 0, border_width: 0}\n"
                 "  top: {type: box, x: 1cells, y: 2cells, width: 1cells, height: 1cells}\n"
                 "  grp: {type: group, at: {x: 2cells, y: 0cells}, elements: {in: {type: box, x: 1cells, width: 5mm, height: 0.5cells}}}\n")
    ids = by_id(compose(path).pages[0].items)
    assert (ids["el-top"].x, ids["el-top"].y) == (20.0, 30.0)             # 10 mm margins + cells
    assert ids["el-grp"].transform[4:] == (30.0, 10.0)
    inner = ids["el-grp-in"]
    assert (inner.x, inner.y, inner.w, inner.h) == (10.0, 0.0, 5.0, 5.0)


def test_percent_units_follow_the_paper(tmp_path):
    path = write(tmp_path, "sheetgen: 1\nkind: layout\npage: {margins: 0}\n"
                 "elements:\n  t: {type: text, text: mid, x: 50%, y: 10%, align: center}\n")
    for paper in ("a4", "letter"):
        t = by_id(compose(path, paper=paper).pages[0].items)["el-t"]
        w, h = PAPER_SIZES[paper]
        assert t.x == pytest.approx(w / 2) and t.anchor == "middle"
        assert t.y > (h - FURNITURE_MM) * 0.1


def test_landscape_and_custom_pages(tmp_path):
    path = write(tmp_path, "sheetgen: 1\nkind: layout\npage: {size: custom, width: 100mm, height: 4in, orientation: landscape}\n")
    page = compose(path).pages[0]
    assert (page.width, page.height) == (pytest.approx(101.6), 100.0)


def test_schema_lists_every_element_type():
    from sheetgen.definitions.layout import ELEMENT_TYPES, MODEL
    schema = MODEL.model_json_schema()
    names = set(schema["$defs"])
    for t in ELEMENT_TYPES:
        model = {"checkbox_track": "CheckboxTrackElement"}.get(t, t.capitalize() + "Element")
        assert model in names, model
    assert schema["$defs"]["TextElement"]["properties"]["font"]["enum"][0] == "sans"


def test_text_alignment_valign_shrink_and_upper(tmp_path):
    path = write(tmp_path, "sheetgen: 1\nkind: layout\npage: {margins: 0}\nelements:\n"
                 "  r: {type: text, text: right, x: 10mm, y: 10mm, width: 50mm, align: right}\n"
                 "  m: {type: text, text: mid, x: 0, y: 0, width: 100mm, height: 40mm, valign: middle, size: 10}\n"
                 "  b: {type: text, text: bottom, x: 0, y: 0, width: 100mm, height: 40mm, valign: bottom}\n"
                 "  s: {type: text, text: a very long line that cannot fit, x: 0, y: 50mm, width: 20mm, shrink: true, upper: true}\n")
    ids = by_id(compose(path).pages[0].items)
    assert (ids["el-r"].x, ids["el-r"].anchor) == (60.0, "end")
    assert 0 < ids["el-m"].y - 20 < 2.5 and 37 < ids["el-b"].y < 40
    from sheetgen.fonts import text_width
    s = ids["el-s"]
    assert s.text == "A VERY LONG LINE THAT CANNOT FIT" and s.size < 10
    assert text_width(s.text, s.font, s.size) <= 20.01 or s.size == 4.0


def test_deck_cards_override_template_parts_by_name(tmp_path):
    path = write(tmp_path, "sheetgen: 1\nkind: deck\ncard: {width: 50mm, height: 70mm}\n"
                 "template:\n  title: {type: text, text: Room, size: 9, font: serif}\n  frame: {type: box}\n"
                 "cards:\n  - {name: hall, elements: {title: {text: Hall}}}\n"
                 "  - {count: 2, elements: {title: {text: 'Cell {n}'}, extra: {type: line, x: 0, y: 0, x2: 5mm, y2: 5mm}}}\n")
    page = compose(path).pages[0]
    ids = by_id(page.items)
    assert [ids[f"c{n}-el-title"].text for n in (1, 2, 3)] == ["Hall", "Cell 2", "Cell 3"]
    assert ids["c1-el-title"].font == "serif" and ids["c1-el-title"].size == 9     # the rest inherited
    assert "c2-el-extra" in ids and "c1-el-extra" not in ids
