"""Nothing a printer must print sits within PRINTER_MARGIN (4.5 mm) of the paper's edge on any
built-in page, A4 and Letter: many lasers print nothing within 4.2 mm (issue 30).  Crop marks
run to the edge on purpose (a clipped mark still shows where to cut) and white fills print nothing."""
import pytest

from sheetgen.build import compose_loaded, load
from sheetgen.definitions.builtins import builtin_names
from sheetgen.draw.furniture import PRINTER_MARGIN
from sheetgen.draw.lint import _shape, _walk, near_edge
from sheetgen.draw.options import BuildOptions

BUILDABLE = [n for n in builtin_names() if load(n).kind not in ("pack", "playlog")]


def _too_near(page) -> list[str]:
    return [f"{description} {gap:.2f} mm from the edge" for description, _, gap in near_edge(page, PRINTER_MARGIN)]


def test_every_buildable_builtin_is_checked():
    assert {"graph-20x28", "hex-sheet", "ancient-story", "sheet-heroes", "nav-crypt", "shuffle-reference",
            "exploration-treasure", "room-cards"} <= set(BUILDABLE)


@pytest.mark.parametrize("name", BUILDABLE)
def test_nothing_printed_within_the_printer_margin(name):
    for paper in ("a4", "letter"):
        doc = compose_loaded(load(name), BuildOptions(paper=paper))
        for i, page in enumerate(doc.pages):
            assert _too_near(page) == [], f"{name} on {paper}, page {i + 1}"


def test_the_footer_and_the_qr_code_are_where_printers_print():
    for paper in ("a4", "letter"):
        page = compose_loaded(load("ancient-story"), BuildOptions(paper=paper)).pages[0]
        bottoms: dict[str, float] = {}
        for found in _walk(page.items):
            shape = _shape(*found)
            owner = found[4] or ""
            style = getattr(found[0], "style", None)
            if shape is None or owner not in ("footer", "scan-qr", "calibration-ruler") or \
                    style is not None and style.fill == "#ffffff":
                continue
            bottoms[owner] = max(bottoms.get(owner, 0.0), shape.box[3])
        assert set(bottoms) == {"footer", "scan-qr", "calibration-ruler"}
        for owner, bottom in bottoms.items():
            assert page.height - bottom >= PRINTER_MARGIN, (paper, owner, page.height - bottom)


def test_a_user_layout_near_the_edge_gets_a_located_warning(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from sheetgen.cli import main
    monkeypatch.chdir(tmp_path)
    (tmp_path / "edge.yaml").write_text(
        "sheetgen: 1\nkind: layout\ntitle: Edge\npage: {size: a4, margins: 2mm}\nelements:\n"
        "  title: {type: text, text: Edge, x: 0, y: 0, size: 12}\n"
        "  box: {type: box, x: 20mm, y: 20mm, width: 50mm, height: 50mm}\n")
    result = CliRunner().invoke(main, ["build", "edge.yaml", "-o", "out", "--format", "pdf"])
    assert result.exit_code == 0
    warnings = [line for line in result.output.splitlines() if "from the paper's edge" in line]
    assert len(warnings) == 1 and warnings[0].startswith("warning: edge.yaml:6:") and "el-title" in warnings[0]
