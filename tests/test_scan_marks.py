"""The marks `sheetgen scan` reads, as printed: four ArUco corner markers and a QR code with
the sheet's identity on every playable sheet (A4 and Letter), by their stable ids in the
drawing model and the SVG, found again by OpenCV on the PNG and on the PDF as poppler
rasterises it; `--no-scan-marks` and sheets nobody pencils on go without; the marks sit in
the places the sheets keep free; the identity round-trips through its QR code."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.build import compose_loaded, sheet_identity
from sheetgen.cli import main
from sheetgen.definitions.registry import load
from sheetgen.draw import scanmarks as SM
from sheetgen.draw.furniture import CORNER_ZONE, PRINTER_MARGIN
from sheetgen.draw.model import Document, Group
from sheetgen.draw.options import BuildOptions
from sheetgen.draw.scanmarks import SheetIdentity, content_hash

from sheet_helpers import composed

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")
np = pytest.importorskip("numpy")

# every sheet a player pencils on (the list), and sheets that get no marks
PLAYABLE = ("ancient-story", "slaughter", "santa", "strength", "kraken", "foury-blank", "foury-blank-plain",
            "sheet-character", "sheet-heroes", "sheet-2players", "exploration-sheet-20x28")
NOT_PLAYED = ("nav-rooms", "shuffle-core", "graph-20x28", "hex-sheet", "sheet-icons", "exploration-tables")
MARK_IDS = {f"scan-marker-{c}" for c in SM.CORNERS} | {"scan-qr"}


def _ids(items) -> set[str]:
    out = set()
    for item in items:
        if item.id:
            out.add(item.id)
        if isinstance(item, Group):
            out |= _ids(item.items)
    return out


def _group(items, gid):
    for item in items:
        if isinstance(item, Group):
            if item.id == gid:
                return item
            found = _group(item.items, gid)
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("name", PLAYABLE)
def test_every_playable_page_carries_the_four_markers_and_the_qr_code(name):
    for paper in ("a4", "letter"):
        for page in composed(name, paper).pages:
            assert MARK_IDS <= _ids(page.items), f"{name} on {paper}"
            assert SM.paper_of(page.width, page.height)[0] == paper


@pytest.mark.parametrize("name", PLAYABLE[:1] + PLAYABLE[7:8] + PLAYABLE[-1:])
def test_no_scan_marks_leaves_them_off_and_nothing_else(name):
    with_marks = compose_loaded(load(name), BuildOptions(paper="a4"))
    without = compose_loaded(load(name), BuildOptions(paper="a4", scan_marks=False))
    for a, b in zip(with_marks.pages, without.pages):
        assert not MARK_IDS & _ids(b.items)
        assert _ids(a.items) - _ids(b.items) == MARK_IDS | {"scan-marks"}


@pytest.mark.parametrize("name", NOT_PLAYED)
def test_sheets_nobody_pencils_on_get_no_marks(name):
    for page in composed(name, "a4").pages:
        assert not MARK_IDS & _ids(page.items)


def _shapes(page):
    from sheetgen.draw.lint import _shape, _walk
    for found in _walk(page.items):
        owner = found[4] or ""
        if owner.startswith("scan-"):
            continue
        shape = _shape(*found)
        if shape is not None:
            yield shape


@pytest.mark.parametrize("name", PLAYABLE)
def test_the_marks_overlap_nothing_else_on_the_page(name):
    for paper in ("a4", "letter"):
        for page in composed(name, paper).pages:
            boxes = SM.reserved_boxes(page.width, page.height)
            hits = []
            for shape in _shapes(page):
                x0, y0, x1, y1 = shape.box
                for mark, (bx, by, bw, bh) in boxes.items():
                    if x0 < bx + bw and bx < x1 and y0 < by + bh and by < y1:
                        hits.append(f"{mark} over {shape.description}")
            assert hits == [], f"{name} on {paper}: {hits[:4]}"


def test_the_markers_sit_inside_the_corner_squares_the_sheets_keep_free():
    for paper, orientation in SM.LAYOUTS:
        w, h = SM.page_size(paper, orientation)
        for corner in SM.CORNERS:
            x, y, bw, bh = SM.reserved_boxes(w, h)[f"scan-marker-{corner}"]
            zx = 0.0 if "left" in corner else w - CORNER_ZONE
            zy = 0.0 if "top" in corner else h - CORNER_ZONE
            assert zx <= x and x + bw <= zx + CORNER_ZONE and zy <= y and y + bh <= zy + CORNER_ZONE
        # the QR code: in the bottom band below the sheets (which end CORNER_ZONE above the edge)
        # (PRINTER_MARGIN or more from the edge, where printers print (issue 30), it reaches up to 2.5 mm above the
        # corner squares' top with its white: the sheets keep that clear, as the test above holds)
        qx, qy, qw, qh = SM.reserved_boxes(w, h)["scan-qr"]
        assert qy >= h - CORNER_ZONE - 2.5 and CORNER_ZONE < qx and qx + qw < w - CORNER_ZONE
        assert SM.qr_box(w, h)[1] + SM.QR <= h - PRINTER_MARGIN


def test_the_marks_are_small():
    w, h = SM.page_size("a4", "landscape")
    area = sum(bw * bh for bw, bh in ((b[2], b[3]) for b in SM.reserved_boxes(w, h).values()))
    assert area < 0.01 * w * h          # under 1 % of the page


def test_marker_ids_say_paper_orientation_and_corner():
    seen = set()
    for paper, orientation in SM.LAYOUTS:
        for corner in SM.CORNERS:
            mid = SM.marker_id(paper, orientation, corner)
            assert SM.layout_of_marker(mid) == (paper, orientation, corner)
            seen.add(mid)
    assert len(seen) == 16 and SM.layout_of_marker(16) is None and SM.layout_of_marker(-1) is None


def test_the_printed_bit_patterns_are_opencvs_dictionary():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for mid, bits in enumerate(SM.ARUCO_4X4):
        img = cv2.aruco.generateImageMarker(dictionary, mid, 6)      # 6 x 6 cells, 1 px a cell
        inner = "".join("1" if v > 127 else "0" for v in img[1:5, 1:5].ravel())
        assert inner == bits, f"marker {mid}"


# -- found again in what the renderers make ------------------------------------------------------

def _detected(gray) -> tuple:
    from sheetgen.scan import image as I
    markers = I.find_markers(gray)
    loc = I.locate(cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), gray, "page", markers)
    return markers, I.read_qr(gray, loc)


def _png_gray(page, dpi=150):
    from sheetgen.render import render_png_pages
    data = render_png_pages(Document([page]), dpi=dpi)[0]
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)


@pytest.mark.parametrize("name,paper", [("ancient-story", "a4"), ("sheet-heroes", "letter"),
                                        ("exploration-sheet-20x28", "a4"), ("exploration-sheet-20x28", "letter")])
def test_opencv_finds_the_markers_and_reads_the_identity_on_the_png(name, paper):
    loaded = load(name)
    options = BuildOptions(paper=paper)
    page = compose_loaded(loaded, options).pages[0]
    markers, text = _detected(_png_gray(page))
    layout = SM.paper_of(page.width, page.height)
    assert markers.layout == layout and sorted(markers.corners) == sorted(SM.CORNERS)
    assert SheetIdentity.decode(text) == sheet_identity(loaded, options, 1, paper)


def test_the_pdf_as_poppler_draws_it_has_the_same_marks(tmp_path):
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm (poppler-utils) is needed: apt-get install poppler-utils")
    from sheetgen.render import render_pdf_bytes
    loaded = load("kraken")
    options = BuildOptions(paper="letter", seed=7)
    doc = compose_loaded(loaded, options)
    (tmp_path / "sheet.pdf").write_bytes(render_pdf_bytes(doc))
    subprocess.run(["pdftoppm", "-r", "120", "-gray", "-png", "-singlefile", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "sheet")], capture_output=True, check=True)
    gray = cv2.imread(str(tmp_path / "sheet.png"), cv2.IMREAD_GRAYSCALE)
    markers, text = _detected(gray)
    assert markers.layout == ("letter", "landscape") and len(markers.corners) == 4
    assert text == "SG1/KRAKEN/LT/S7"


def test_the_svg_carries_the_marks_by_their_ids_as_the_model_draws_them(tmp_path):
    import xml.etree.ElementTree as ET
    result = CliRunner().invoke(main, ["build", "santa", "--format", "svg", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    root = ET.parse(next(tmp_path.glob("*.svg"))).getroot()
    groups = {g.get("id"): g for g in root.iter() if g.get("id", "").startswith("scan-")}
    assert MARK_IDS | {"scan-marks"} <= set(groups)
    page = composed("santa", "a4").pages[0]
    for mid in MARK_IDS:
        svg_rects = [e for e in groups[mid].iter() if e.tag.endswith("rect")]
        assert len(svg_rects) == len(_group(page.items, mid).items), mid


def test_build_no_scan_marks_through_the_command(tmp_path):
    for flag, present in (([], True), (["--no-scan-marks"], False)):
        out = tmp_path / str(present)
        result = CliRunner().invoke(main, ["build", "exploration-sheet-20x28", "--format", "svg", "-o", str(out),
                                           *flag])
        assert result.exit_code == 0, result.output
        text = next(out.glob("*.svg")).read_text(encoding="utf-8")
        assert ('id="scan-qr"' in text) is present and ('id="scan-marker-top-left"' in text) is present


# -- the identity -------------------------------------------------------------------------------

def test_the_identity_says_definition_paper_seed_and_geometry_options():
    loaded = load("foury-blank")
    options = BuildOptions(paper="letter", seed=42, grayscale=True,
                           game=_game_options(("columns", 8), ("rows", 9), ("hero", "kael")))
    identity = sheet_identity(loaded, options, 1, "letter")
    assert identity.encode() == "SG1/FOURY-BLANK/LT/S42/G/C8/HKAEL/R9"
    page = compose_loaded(loaded, options).pages[0]
    _, text = _detected(_png_gray(page))
    assert SheetIdentity.decode(text) == identity


def _game_options(*pairs):
    from sheetgen.draw.options import GameOptions
    from sheetgen.definitions.registry import games
    declared = frozenset(o.name for g in games().values() for o in g.build_options)
    return GameOptions(tuple(pairs), declared)


names = st.from_regex(r"[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,6}){0,2}", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(definition=st.one_of(names, st.from_regex(r"\$[0-9A-F]{10}", fullmatch=True)),
       paper=st.sampled_from(["a4", "letter"]), seed=st.integers(0, 10 ** 9), grayscale=st.booleans(),
       page=st.integers(1, 40),
       options=st.lists(st.tuples(st.sampled_from(["columns", "rows", "hero", "depth"]),
                                  st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True)),
                        unique_by=lambda t: t[0], max_size=4))
def test_any_identity_decodes_to_itself(definition, paper, seed, grayscale, page, options):
    identity = SheetIdentity(definition, paper, seed, grayscale, tuple(sorted(options)), page)
    text = identity.encode()
    assert re.fullmatch(r"[0-9A-Z $%*+\-./:]+", text)         # QR alphanumeric: the densest mode
    assert SheetIdentity.decode(text) == identity


@pytest.mark.parametrize("text", ["", "hello", "SG2/ANCIENT-STORY/A4/S1", "SG1/ANCIENT-STORY/B5/S1",
                                  "SG1/ANCIENT-STORY/A4/X1", "SG1/ANCIENT-STORY/A4/S1/QQ"])
def test_text_sheetgen_did_not_write_is_refused(text):
    with pytest.raises(ValueError):
        SheetIdentity.decode(text)


def test_a_custom_definition_is_known_by_its_content_hash(tmp_path):
    from sheetgen.definitions.registry import resolve
    src, _ = resolve("kraken")
    custom = tmp_path / "my-kraken.yaml"
    custom.write_bytes(src.read_bytes())
    loaded = load(str(custom))
    page = compose_loaded(loaded, BuildOptions(paper="a4")).pages[0]
    _, text = _detected(_png_gray(page))
    identity = SheetIdentity.decode(text)
    assert identity.custom and identity.definition == content_hash(custom.read_bytes())
    # the same bytes under another name hash the same; one byte more does not
    twin = tmp_path / "twin.yaml"
    twin.write_bytes(custom.read_bytes())
    assert content_hash(twin.read_bytes()) == identity.definition
    assert content_hash(custom.read_bytes() + b"\n") != identity.definition
