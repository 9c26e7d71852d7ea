"""The built-in layouts through the real back ends: PDF page sizes, boxes and
text read back with pypdf; SVG ids for grid lines and cards."""
import io
import xml.etree.ElementTree as ET

import pytest

render = pytest.importorskip("sheetgen.render")
pypdf = pytest.importorskip("pypdf")

from sheetgen.definitions.registry import load  # noqa: E402
from sheetgen.draw.model import PT_PER_MM  # noqa: E402
from sheetgen.draw.options import BuildOptions  # noqa: E402


def compose(name, **opts):
    loaded = load(name)
    return loaded.handler.compose(loaded.definition, BuildOptions(**opts))


@pytest.mark.parametrize("paper,size", [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_graph_sheet_pdf_page_size_and_text(paper, size):
    reader = pypdf.PdfReader(io.BytesIO(render.render_pdf_bytes(compose("layouts/graph-20x28.yaml", paper=paper))))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(size, abs=0.01)
    text = reader.pages[0].extract_text()
    assert "ENTRANCE" in text and "Dungeon exploration" in text
    assert paper in text                               # the cell note names the paper


def test_room_cards_pdf_trim_box_and_duplex_pages():
    doc = compose("room-cards", duplex=True)
    reader = pypdf.PdfReader(io.BytesIO(render.render_pdf_bytes(doc)))
    assert len(reader.pages) == 2
    trim = reader.pages[0].trimbox
    page = doc.pages[0]
    assert float(trim.width) == pytest.approx(189 * PT_PER_MM, abs=0.05)
    assert float(trim.height) == pytest.approx(264 * PT_PER_MM, abs=0.05)
    assert float(trim.left) == pytest.approx(page.trim.x * PT_PER_MM, abs=0.05)


def test_svg_carries_stable_ids_and_classes():
    svg = render.render_svg_pages(compose("layouts/graph-20x28.yaml"))[0]
    root = ET.fromstring(svg)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    assert {"el-main", "el-main-v10", "el-main-h27", "el-main-border", "el-entrance"} <= ids
    classes = [el.get("class") or "" for el in root.iter()]
    assert sum("grid-line major" in c for c in classes) == 3 + 5      # every 5 of 20 x 28
    assert root.get("width").endswith("mm")
