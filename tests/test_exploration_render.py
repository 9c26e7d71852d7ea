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
    assert 'class="door secret"' in svg and 'class="door unexplored"' in svg


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
