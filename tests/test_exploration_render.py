"""The printable exploration sheets and map-mode maps: page sizes read back from the PDF,
the key text on them, SVG elements by id, and the ink saver."""
import io

import pytest
from pypdf import PdfReader

from sheetgen.games.exploration.formats import builtin_tables
from sheetgen.definitions.registry import load
from sheetgen.games.exploration.sheets import map_document
from sheetgen.draw.options import BuildOptions
from sheetgen.render import render_pdf_bytes, render_svg_pages
from sheetgen.games.exploration.mapmode import explore

PT = 72 / 25.4


def pdf(doc):
    return PdfReader(io.BytesIO(render_pdf_bytes(doc)))


def compose(name, **kw):
    loaded = load(name)
    return loaded.handler.compose(loaded.definition, BuildOptions(**kw))


@pytest.mark.parametrize("paper,size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_table_sheets(paper, size):
    reader = pdf(compose("exploration-tables", paper=paper))
    assert len(reader.pages) == 2
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(size[0] * PT, abs=0.5)
        assert float(page.mediabox.height) == pytest.approx(size[1] * PT, abs=0.5)
    shapes = reader.pages[0].extract_text()
    assert "Room shapes (d66)" in shapes
    for key in ("11", "35", "66", "Passage", "Great hall", "unexplored door", "secret door"):
        assert key in shapes
    tables = reader.pages[1].extract_text()
    for text in ("Room contents (2d6)", "Corridor", "Room", "Boss escalation", "Final Boss", "Entrance rooms (d6)",
                 "Porch", "Wandering monsters"):
        assert text in tables, text


def test_table_sheet_has_36_shapes_with_doors():
    svg = render_svg_pages(compose("exploration-tables"))[0]
    for key in (11, 16, 35, 61, 66):
        assert f'id="shape-{key}"' in svg
    assert svg.count('class="shape ') == 36
    assert 'class="door secret overlap-ok"' in svg and 'class="door unexplored"' in svg


def test_a_table_file_renders_by_itself():
    reader = pdf(compose("exploration-d66"))
    assert len(reader.pages) == 1 and "Room shapes" in reader.pages[0].extract_text()
    reader = pdf(compose("exploration-contents"))
    assert "Room contents" in reader.pages[0].extract_text()


def test_graph_sheet():
    reader = pdf(compose("exploration-sheet-20x28"))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx(210 * PT, abs=0.5)
    text = page.extract_text()
    for word in ("unexplored", "explored", "secret", "Marching order", "Time (10 min a room)", "20 x 28", "12h"):
        assert word in text, word
    svg = render_svg_pages(compose("exploration-sheet-20x28"))[0]
    for ident in ("march-1", "march-4", "time-1", "legend-unexplored", "legend-explored", "legend-secret",
                  "sheet-edge"):
        assert f'id="{ident}"' in svg


def test_map_render():
    rooms, entrances, contents = builtin_tables()
    ex = explore(rooms, entrances, contents, seed=3)
    doc = map_document(ex, BuildOptions(seed=3))
    reader = pdf(doc)
    text = reader.pages[0].extract_text()
    assert "Dungeon map (seed 3)" in text and f"{len(ex.rooms)} rooms" in text
    assert f"1. {ex.rooms[0].entry.name}" in text.replace("\n", " ")
    svg = render_svg_pages(doc)[0]
    for room in ex.rooms:
        assert f'id="room-{room.id}"' in svg and f'id="room-label-{room.id}"' in svg
        for d in room.doors:
            assert f'id="door-{d.x}-{d.y}-{d.side}"' in svg
    # the ten-minute boxes used are crossed off
    assert svg.count('class="time-box"') >= 72


def test_map_ink_saver_has_no_colour_fills():
    rooms, entrances, contents = builtin_tables()
    ex = explore(rooms, entrances, contents, seed=3)
    colour = render_svg_pages(map_document(ex, BuildOptions(seed=3)))[0]
    grey = render_svg_pages(map_document(ex, BuildOptions(seed=3, grayscale=True)))[0]
    assert "#ece3cf" in colour and "#ece3cf" not in grey and "#dfe6ee" not in grey


def test_long_key_continues_on_a_second_page():
    rooms, entrances, contents = builtin_tables()
    best = max((explore(rooms, entrances, contents, seed=s, width=40, height=56) for s in range(8)),
               key=lambda e: len(e.rooms))
    doc = map_document(best, BuildOptions(seed=1))
    assert len(best.rooms) > 80 and len(doc.pages) >= 2
    texts = " ".join(p.extract_text() for p in pdf(doc).pages).replace("\n", " ")
    for room in best.rooms:
        assert f"{room.id}. {room.entry.name}" in texts


def test_the_tables_page_prints_our_treasure_table():
    from sheetgen.games.exploration.formats import load_table
    table = load_table("exploration-treasure")
    assert table.model.table == "treasure" and sorted(table.treasure.entries) == [1, 2, 3, 4, 5, 6]
    # the contents table sends the party to it
    contents = load_table("exploration-contents").contents
    assert any("treasure table" in r.text for r in contents.results.values())
    for paper in ("a4", "letter"):
        text = pdf(compose("exploration-tables", paper=paper)).pages[1].extract_text()
        assert "Treasure (d6)" in text
        for entry in table.treasure.entries.values():
            assert entry.title in text, (paper, entry.title)
    svg = render_svg_pages(compose("exploration-tables"))[1]
    assert all(f'id="treasure-row-{n}"' in svg for n in range(1, 7))
    # a sheet may leave it out, or name its own
    alone = compose("exploration-treasure")
    assert len(alone.pages) == 1 and "Treasure (d6)" in pdf(alone).pages[0].extract_text()


def test_a_treasure_table_is_checked_like_the_others(tmp_path):
    from sheetgen.errors import InputError
    head = "sheetgen: 1\nkind: table\nruleset: exploration\ntable: treasure\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text(head + "treasure:\n" + "".join(f"  {n}: {{title: T{n}}}\n" for n in (1, 2, 3, 4, 5, 7)),
                   encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load(str(bad))
    text = str(exc.value)
    assert f"{bad}:11:3:" in text and "'7' is not a d6 result" in text and "missing treasure row 6" in text
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(head.replace("treasure\n", "contents\n") + "treasure:\n  1: {title: T}\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load(str(wrong))
    assert "'treasure' belongs in a treasure table" in str(exc.value)
    none = tmp_path / "no-treasure.yaml"
    none.write_text("sheetgen: 1\nkind: sheet\nruleset: exploration\nsheet: tables\ntreasure: null\n", encoding="utf-8")
    text = pdf(compose(str(none))).pages[1].extract_text()
    assert "Room contents (2d6)" in text and "Treasure (d6)" not in text


def test_the_graph_sheet_marks_the_entrance_at_the_bottom_centre():
    from sheetgen.draw.model import Group, Polygon, Rect
    for paper in ("a4", "letter"):
        page = compose("exploration-sheet-20x28", paper=paper).pages[0]
        by_id = {i.id: i for i in page.items if getattr(i, "id", None)}
        mark, edge = by_id["entrance-mark"], by_id["sheet-edge"]
        assert isinstance(mark, Group)
        (triangle,) = [i for i in mark.items if isinstance(i, Polygon)]
        tip = min(triangle.points, key=lambda p: p[1])
        assert tip[0] == pytest.approx(edge.x + edge.w / 2) and tip[1] >= edge.y + edge.h   # under the middle
        assert "ENTRANCE" in [t.text for t in mark.items if not isinstance(t, (Polygon, Rect))]
