"""The layout lint (sheetgen.draw.lint): what it finds on made-up pages, then every
built-in sheet at A4 and Letter, in colour and in grayscale: no text runs into another
element, both papers print the same elements, and the pages a player writes on leave
their corners to the scanner's marks.  A finding is printed;
`python tests/tools/lint_sheets.py [NAME ...]` lists all of them.
"""
import pytest

from sheetgen.draw.lint import (OVERLAP_OK, allow_overlap, element_ids, overlaps, page_overlaps,
                                paper_difference)
from sheetgen.draw.model import Document, Group, Line, Page, Polygon, Rect, Style, Text
from sheetgen.fonts import ink_box, text_width

from sheet_helpers import builtin_sheets, composed

# -- on made-up pages -------------------------------------------------------------------------------


def _label(x=10.0, y=20.0, text="Life Points", **kw):
    return Text(x, y, text, size=10, font="sans-bold", id="label", **kw)


def _right_of(label: Text) -> float:
    return label.x + ink_box(label.text, label.font, label.size)[2]


def test_a_label_touching_its_box_is_found_and_one_clear_of_it_is_not():
    label = _label()
    touching = Rect(_right_of(label) + 0.1, 14.0, 5.0, 5.0, id="box1")
    (found,) = page_overlaps([label, touching])
    assert (found.text, found.text_id, found.other, found.other_id) == ("Life Points", "label", "rect box1", "box1")
    assert "runs into rect box1" in str(found)
    assert page_overlaps([label, Rect(_right_of(label) + 0.5, 14.0, 5.0, 5.0)]) == []


def test_text_boxes_are_the_glyphs_ink_descenders_included():
    above = Text(10, 20, "Dungeon", size=14, font="serif-bold", id="title")
    bottom = 20 + ink_box("Dungeon", "serif-bold", 14)[3]           # the 'g' reaches below the baseline
    below = Text(10, bottom + 0.1 - ink_box("x", "sans", 8)[1], "x subtitle", size=8, id="note")
    assert [f.other_id for f in page_overlaps([above, below])] == ["note"]
    # the same line without descenders is clear of it
    assert page_overlaps([Text(10, 20, "DUNEON", size=14, font="serif-bold"), below]) == []


def test_anchors_place_the_box():
    width = text_width("Centre", "sans", 10)
    label = Text(50, 20, "Centre", size=10, anchor="middle")
    assert page_overlaps([label, Line(50 + width / 2 + 0.5, 0, 50 + width / 2 + 0.5, 40)]) == []
    assert len(page_overlaps([label, Line(50 - width / 2 + 1, 0, 50 - width / 2 + 1, 40)])) == 1


def test_a_label_inside_its_box_is_fine_but_not_one_across_its_outline():
    label = _label(12, 20)
    assert page_overlaps([Rect(5, 10, 60, 15), label]) == []
    assert len(page_overlaps([Rect(20, 10, 60, 15), label])) == 1          # the left edge crosses it
    # a filled shape without an outline behind the text: a background
    assert page_overlaps([Rect(5, 10, 60, 15, Style(stroke=None, fill="#eeeeee")), label]) == []


def test_lines_are_their_strokes_not_their_bounds():
    label = _label(10, 20)
    diagonal_clear = Line(0, 40, 40, 60)           # its bounds overlap nothing of the label
    assert page_overlaps([label, diagonal_clear]) == []
    assert len(page_overlaps([label, Line(0, 0, 60, 40)])) == 1
    polyline = Polygon(((0, 30), (15, 30), (15, 10)), closed=False)     # up through the label
    assert len(page_overlaps([label, polyline])) == 1


def test_texts_that_overlap_each_other_are_one_finding():
    a, b = Text(10, 20, "first", size=10, id="a"), Text(12, 21, "second", size=10, id="b")
    (found,) = page_overlaps([a, b])
    assert {found.text_id, found.other_id} == {"a", "b"}


def test_the_parts_of_one_icon_are_not_compared_but_the_icon_is():
    from sheetgen.draw.icons import icon
    die = icon("die", 10, 10, 10, id="die1")
    assert page_overlaps([die]) == []
    near = Text(12, 15, "six", size=8, id="near")
    # one finding for the icon, not one per stroke of it
    assert [(f.text_id, f.other_id) for f in page_overlaps([die, near])] == [("near", "die1")]


def test_a_deliberate_overlap_is_said_in_the_drawing_model():
    label, box = _label(), Rect(20, 14, 5, 5, id="box")
    assert page_overlaps([label, box])
    assert page_overlaps([allow_overlap(label), box]) == []
    assert page_overlaps([label, allow_overlap(box)]) == []
    assert page_overlaps([Group((label,), cls=f"legend {OVERLAP_OK}"), box]) == []
    assert allow_overlap(allow_overlap(box)).cls == OVERLAP_OK


def test_a_layout_element_says_overlap_true(tmp_path):
    from sheetgen.build import compose_loaded
    from sheetgen.definitions.registry import load
    from sheetgen.draw.options import BuildOptions
    text = ("sheetgen: 1\nkind: layout\nelements:\n"
            "  box: {type: box, x: 20mm, y: 5mm, width: 10mm, height: 10mm}\n"
            "  label: {type: text, text: Overlapping label, x: 10mm, y: 8mm, size: 12}\n")
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    found = overlaps(compose_loaded(load(path), BuildOptions()))
    assert [(f.text_id, f.other_id) for f in found] == [("el-label", "el-box")]
    path.write_text(text.replace("size: 12}", "size: 12, overlap: true}"), encoding="utf-8")
    assert overlaps(compose_loaded(load(path), BuildOptions())) == []


def test_paper_difference_names_what_one_paper_leaves_out():
    def compose_at(paper):
        page = Page(210, 297)
        page.add(Rect(0, 0, 5, 5, id="always"), Text(10, 10, "Welcome on " + paper, id="title"))
        if paper == "a4":
            page.add(Group((Text(10, 50, "DIE TABLE"), Text(10, 60, "1 chest")),))       # no ids
            page.add(Rect(0, 0, 5, 5, id="only-here"))
        return Document([page])
    diff = paper_difference(compose_at)
    assert diff.only_a4 == {"only-here"} and diff.only_letter == frozenset()
    assert diff.words_only_a4 == (("DIE", 1), ("TABLE", 1), ("chest", 1))   # "1" and the paper names aside
    assert str(diff) == "elements only on A4: only-here; words only on A4: DIE TABLE chest"
    assert not paper_difference(lambda paper: compose_at("letter"))
    assert element_ids(compose_at("a4")) == {"always", "title", "only-here"}


# -- every built-in sheet -----------------------------------------------------------------------------

SHOWN = 12          # findings printed per sheet and paper
# the pages a player writes on (the scanner reads them): their corners stay empty
PLAYABLE = ("ancient-story", "slaughter", "santa", "strength", "kraken", "foury-blank", "foury-blank-plain",
            "sheet-character", "sheet-heroes", "sheet-2players", "graph-20x28", "hex-sheet",
            "exploration-sheet-20x28", "nav-crypt", "nav-player-sheet")
# the footer line, the ruler and the scanner's corner markers (what the corners are kept for)
FURNITURE = ("footer", "calibration-ruler") + tuple(f"scan-marker-{c}" for c in
                                                    ("top-left", "top-right", "bottom-right", "bottom-left"))


def _report(capsys, title: str, lines: list[str]) -> None:
    """Print the findings past pytest's capture (`python tests/tools/lint_sheets.py` lists all)."""
    if not lines:
        return
    with capsys.disabled():
        print(f"\n{title}: {len(lines)} finding{'s' if len(lines) != 1 else ''}")
        for line in lines[:SHOWN]:
            print(f"    {line}")
        if len(lines) > SHOWN:
            print(f"    ... and {len(lines) - SHOWN} more (python tests/tools/lint_sheets.py lists all)")


def test_the_list_of_built_in_sheets():
    assert len(builtin_sheets()) >= 24 and "default-pack" not in builtin_sheets()
    assert {"ancient-story", "graph-20x28", "nav-rooms", "shuffle-core", "exploration-sheet-20x28"} \
        <= set(builtin_sheets())
    assert set(PLAYABLE) <= set(builtin_sheets())


@pytest.mark.parametrize("name", builtin_sheets())
def test_no_text_runs_into_another_element(name, capsys):
    for paper in ("a4", "letter"):
        for grayscale in (False, True):
            findings = [str(f) for f in overlaps(composed(name, paper, grayscale))]
            _report(capsys, f"layout lint, {name} on {paper}{' (grayscale)' if grayscale else ''}", findings)
            assert findings == [], f"{name} on {paper}: {len(findings)} overlaps"


@pytest.mark.parametrize("name", builtin_sheets())
def test_a4_and_letter_print_the_same_elements(name, capsys):
    diff = paper_difference(lambda paper: composed(name, paper))
    _report(capsys, f"A4 and Letter, {name}", [str(diff)] if diff else [])
    assert not diff, str(diff)


def _corner_intruders(page) -> list[str]:
    from sheetgen.draw.furniture import CORNER_ZONE
    from sheetgen.draw.lint import _shape, _walk
    zones = [(0, 0), (page.width - CORNER_ZONE, 0), (0, page.height - CORNER_ZONE),
             (page.width - CORNER_ZONE, page.height - CORNER_ZONE)]
    out = []
    for found in _walk(page.items):
        if found[4] in FURNITURE:
            continue
        shape = _shape(*found)
        if shape is None:
            continue
        x0, y0, x1, y1 = shape.box
        for zx, zy in zones:
            if x0 < zx + CORNER_ZONE and zx < x1 and y0 < zy + CORNER_ZONE and zy < y1:
                out.append(f"{shape.description} in the corner at {zx:.0f}, {zy:.0f} mm")
    return out


@pytest.mark.parametrize("name", PLAYABLE)
def test_playable_pages_keep_their_corners_free_for_the_scanner(name, capsys):
    for paper in ("a4", "letter"):
        for page in composed(name, paper).pages:
            found = _corner_intruders(page)
            _report(capsys, f"corners, {name} on {paper}", found)
            assert found == [], f"{name} on {paper}: {found[:3]}"


def test_the_corner_check_sees_what_sits_in_a_corner():
    page = Page(210, 297)
    page.add(Text(5, 10, "Title", id="title"), Rect(20, 20, 50, 50), Text(5, 293, "footer", id="footer"))
    assert [f.split(" in the corner")[0] for f in _corner_intruders(page)] == ["text 'Title' (title)"]
