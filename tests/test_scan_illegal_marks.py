"""GameScanner.illegal_marks: marks that break a rule, drawn on a played sheet, are flagged by the paper's
check with the rule and the place named (what `bench/bench_scan.py --families --illegal` measures under
every family's hand and camera); the same sheet without them breaks no rule."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan.contract import IllegalMark                                  # noqa: E402
from sheetgen.scan.pipeline import scan_photo                                   # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of, played_cached   # noqa: E402

pytestmark = pytest.mark.photo

FAMILIES = Path(__file__).parent / "data" / "scan" / "families.yaml"
# a Dungeon Foury map and a Dungeon Exploration sheet of the family corpus, our own pencil
FOURY, EXPLORATION = "baseline-01", "baseline-03"


@pytest.fixture(scope="module")
def recipes():
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the sheets: apt-get install poppler-utils")
    return {r.id: r for r in load_recipes(FAMILIES)}


def _flat(recipe, marks=()):
    """The recipe's sheet rendered flat at 150 dpi with `marks` added, read without a record."""
    flat = replace(recipe, id=f"{recipe.id}-illegal-{len(marks)}-{'-'.join(m[1] for m in marks)}", camera=None,
                   tamper=tuple(marks))
    img, played = photo_of(flat)
    return scan_photo(flat.id, sheet_ref=played.ref, options=played.options, img=img)


def _marks(recipe, seed: int = 0) -> list[IllegalMark]:
    p = played_cached(recipe.log, recipe.paper)
    return p.scanner.illegal_marks(p.sheet, p.expected, random.Random(seed))


def test_the_corpus_sheets_break_no_rule_as_read(recipes):
    for rid in (FOURY, EXPLORATION):
        result = _flat(recipes[rid])
        assert not result.violations, (rid, [v.message for v in result.violations])


@pytest.mark.parametrize("rid, kinds", [(FOURY, {"wall", "dot", "path", "box"}), (EXPLORATION, {"door", "wall"})])
def test_each_illegal_mark_is_flagged_with_its_rule_and_place(recipes, rid, kinds):
    marks = _marks(recipes[rid])
    assert {m.marks[0][0] for m in marks} == kinds
    for mark in marks:
        result = _flat(recipes[rid], mark.marks)
        assert result.verdict == "not consistent", (mark, result.verdict)
        assert any(v.rule in mark.rules and mark.place in v.message for v in result.violations), \
            (mark, [(v.rule, v.message) for v in result.violations])
        assert all(r in result.readings for r in mark.regions)


def test_the_marks_keep_clear_of_the_logs_marks_and_are_drawn_by_the_seed(recipes):
    recipe = recipes[FOURY]
    p = played_cached(recipe.log, recipe.paper)
    for seed in range(5):
        marks = _marks(recipe, seed)
        assert marks == _marks(recipe, seed)
        for mark in marks:
            kind, what = mark.marks[0]
            if kind == "box":
                continue
            cells = what.replace(":", "-").split("-")
            touched = {c for c in cells if c[:1].isalpha()}
            assert not touched & p.expected.visited, (mark, touched & p.expected.visited)
    assert len({m.marks for s in range(5) for m in _marks(recipe, s)}) > 3
