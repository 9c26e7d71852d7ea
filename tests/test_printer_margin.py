"""Nothing a printer must print sits within PRINTER_MARGIN (5 mm) of the paper's edge on any
built-in page, A4 and Letter: many lasers print nothing within 4.2 mm, some nothing within 5 (issue 30).  Crop marks
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


# -- --printer-margin MM: for printers that need more than PRINTER_MARGIN --------------------------
WIDE = 8.0


@pytest.mark.parametrize("name", BUILDABLE)
def test_every_builtin_keeps_a_wider_printer_margin_when_asked(name):
    for paper in ("a4", "letter"):
        doc = compose_loaded(load(name), BuildOptions(paper=paper, printer_margin=WIDE))
        for i, page in enumerate(doc.pages):
            assert [f"{d} {gap:.2f} mm" for d, _, gap in near_edge(page, WIDE)] == [], f"{name} on {paper}, page {i + 1}"
            # one scale for the whole document (duplex backs stay on their fronts), not smaller than needed
            assert page.content_scale == doc.pages[0].content_scale
            assert 0.9 < page.content_scale < 1.0


def test_the_content_is_scaled_about_the_centre_with_its_marks_and_boxes():
    from sheetgen.draw.model import Group
    plain = compose_loaded(load("ancient-story"), BuildOptions(paper="letter"))
    wide = compose_loaded(load("ancient-story"), BuildOptions(paper="letter", printer_margin=WIDE))
    (page,), (scaled,) = plain.pages, wide.pages
    (group,) = scaled.items
    s = scaled.content_scale
    cx, cy = page.width / 2, page.height / 2
    assert isinstance(group, Group) and group.id == "printer-margin"
    assert group.transform == pytest.approx((s, 0, 0, s, cx * (1 - s), cy * (1 - s)))
    # everything the unscaled page prints, the QR code and corner markers included, in the same order
    assert list(group.items) == page.items and "scan-marks" in [getattr(i, "id", None) for i in group.items]


def test_a_margin_the_sheets_already_keep_changes_nothing():
    plain = compose_loaded(load("graph-20x28"), BuildOptions())
    asked = compose_loaded(load("graph-20x28"), BuildOptions(printer_margin=3.0))
    assert asked.pages[0].items == plain.pages[0].items and asked.pages[0].content_scale == 1.0


def test_card_sheets_scale_their_trim_and_bleed_boxes_with_the_cards():
    plain = compose_loaded(load("room-cards"), BuildOptions())
    wide = compose_loaded(load("room-cards"), BuildOptions(printer_margin=WIDE))
    for before, after in zip(plain.pages, wide.pages):
        if before.trim is None:
            continue
        s, cx = after.content_scale, before.width / 2
        assert after.trim.w == pytest.approx(before.trim.w * s)
        assert after.trim.x == pytest.approx(cx + (before.trim.x - cx) * s)


def _build(tmp_path, monkeypatch, *args):
    from click.testing import CliRunner

    from sheetgen.cli import main
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, ["build", *args, "-o", "out", "--format", "pdf"])


def test_build_says_the_scale_on_stderr(tmp_path, monkeypatch):
    result = _build(tmp_path, monkeypatch, "ancient-story", "--printer-margin", "8")
    assert result.exit_code == 0, result.output
    (note,) = [line for line in result.stderr.splitlines() if line.startswith("note: content scaled to ")]
    assert note.endswith("% to keep 8 mm clear of the paper's edges")
    assert 90 < float(note.split("to ")[1].split("%")[0]) < 100
    result = _build(tmp_path, monkeypatch, "graph-20x28", "--printer-margin", "4")
    assert result.exit_code == 0 and "already keeps 4 mm clear" in result.stderr


@pytest.mark.parametrize("value", ["-1", "15.5", "100", "nan"])
def test_an_unusable_printer_margin_is_refused_with_the_range(tmp_path, monkeypatch, value):
    result = _build(tmp_path, monkeypatch, "ancient-story", "--printer-margin", value)
    assert result.exit_code == 2
    assert f"--printer-margin {value} is out of range" in result.stderr and "from 0 to 15 mm" in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_a_user_layout_near_the_edge_is_scaled_clear_and_not_warned(tmp_path, monkeypatch):
    (tmp_path / "edge.yaml").write_text(
        "sheetgen: 1\nkind: layout\ntitle: Edge\npage: {size: a4, margins: 2mm}\nelements:\n"
        "  title: {type: text, text: Edge, x: 0, y: 0, size: 12}\n")
    result = _build(tmp_path, monkeypatch, "edge.yaml", "--printer-margin", "6")
    assert result.exit_code == 0
    assert "from the paper's edge" not in result.output and "content scaled to" in result.stderr


def test_a_printer_margin_stored_by_calibrate_is_kept_by_builds(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from sheetgen import calibration
    from sheetgen.cli import main
    stored = CliRunner().invoke(main, ["calibrate", "--margin", "8", "--printer", "office"])
    assert stored.exit_code == 0 and "builds keep 8 mm clear of the paper's edges" in stored.output
    assert calibration.current().margin == 8.0 and calibration.current().is_identity
    # measured again later: the margin stays the printer's
    assert CliRunner().invoke(main, ["calibrate", "--measured-x", "99.2", "--measured-y", "99.6",
                                     "--printer", "office"]).exit_code == 0
    assert calibration.current().margin == 8.0 and calibration.current().measured_x == 99.2
    assert "office: measured x 99.2 mm, y 99.6 mm; margin 8 mm" in CliRunner().invoke(main, ["calibrate", "--show"]).output
    result = _build(tmp_path, monkeypatch, "ancient-story")
    assert result.exit_code == 0
    assert "to keep 8 mm clear of the paper's edges (the margin stored for printer 'office')" in result.stderr
    # --printer-margin wins; --no-calibration leaves the stored margin out too
    assert "to keep 10 mm clear of the paper's edges\n" in _build(tmp_path, monkeypatch, "ancient-story",
                                                                   "--printer-margin", "10").stderr
    assert "content scaled" not in _build(tmp_path, monkeypatch, "ancient-story", "--no-calibration").stderr
    refused = CliRunner().invoke(main, ["calibrate", "--margin", "16"])
    assert refused.exit_code == 2 and "--margin 16 is out of range" in refused.output
