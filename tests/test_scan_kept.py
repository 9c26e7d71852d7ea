"""What a run keeps of its sheets (scan.sheet.Kept): a folder of photos of a few sheets makes
each sheet ready once (template rendered, its print and regions worked out), a photo whose QR
code reads and one named by --sheet share the sheet, and the sheet used least recently is the
one let go.  And the overlay PNG: every region outlined in the colour of what was read."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.scan import image as I                                     # noqa: E402
from sheetgen.scan import pipeline, sheet as sheets                      # noqa: E402
from sheetgen.testing.corpus import flat_of, load_recipes, pdftoppm_available   # noqa: E402
from sheetgen.scan.contract import LINE                                     # noqa: E402
from sheetgen.scan.overlay import EMPTY, MARKED, _percentile_u8, overlay_image, overlay_png   # noqa: E402
from sheetgen.scan.pipeline import scan_photo                            # noqa: E402
from sheetgen.scan.sheet import Kept                                     # noqa: E402

RECIPES = Path(__file__).parent / "data" / "scan" / "recipes.yaml"


def test_kept_lets_go_of_the_least_recently_used():
    kept = Kept(3)
    for key in "abc":
        kept.put(key, key.upper())
    assert kept.get("a") == "A"                 # a used again: b is now the oldest
    kept.put("d", "D")
    assert kept.get("b") is None and [kept.get(k) for k in "acd"] == ["A", "C", "D"] and len(kept) == 3
    kept.put("c", "C2")                         # put again: replaced, not doubled
    assert len(kept) == 3 and kept.get("c") == "C2"
    assert kept.get("missing") is None and kept.get(None) is None


def test_kept_keeps_no_more_bytes_than_its_budget_and_says_what_it_lets_go():
    dropped = []
    kept = Kept(16, budget=100, on_drop=lambda key, value: dropped.append(key))
    for key, weight in (("a", 40), ("b", 40), ("c", 40)):       # c takes the total past 100: a goes
        kept.put(key, key.upper(), weight)
    assert dropped == ["a"] and kept.get("a") is None and kept.weight == 80
    kept.put("big", "BIG", 500)                                 # the newest stays, however heavy
    assert kept.get("big") == "BIG" and len(kept) == 1 and dropped == ["a", "b", "c"]


def test_a_template_let_go_leaves_every_kept_entry_holding_it():
    tmpl, other = np.zeros((2, 2)), np.ones((2, 2))
    templates, worked_out = Kept(), Kept()                      # as sheet._templates and read._printed hold it
    templates.put("t", tmpl)
    worked_out.put(("id", 5.0), (tmpl, "printed"))
    worked_out.put(("other", 5.0), (other, "printed"))
    sheets.forget_template(tmpl)
    assert templates.get("t") is None and worked_out.get(("id", 5.0)) is None
    assert worked_out.get(("other", 5.0)) == (other, "printed")


@pytest.fixture(scope="module")
def flats():
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    recipes = {r.id: r for r in load_recipes(RECIPES)}
    out = {}
    for rid in ("photo-0001", "photo-0005"):          # an exploration sheet and a Foury map
        out[rid] = flat_of(replace(recipes[rid], id=f"{rid}-flat", dpi=300, camera=None))
    return out


def _counting_renders(monkeypatch) -> list:
    from sheetgen.render import png
    made = []
    real = png.render_page_image

    def counted(*args, **kwargs):
        made.append(args[0])
        return real(*args, **kwargs)
    monkeypatch.setattr(png, "render_page_image", counted)
    return made


def test_photos_of_a_few_sheets_make_each_sheet_ready_once(flats, monkeypatch):
    for kept in (pipeline._sheets, sheets._templates):
        kept.clear()
    pipeline._asked.clear()
    made = _counting_renders(monkeypatch)
    (a, pa), (b, pb) = flats.values()
    results = [scan_photo(name, sheet_ref=p.ref, options=p.options, img=img)
               for name, img, p in [("a1", a, pa), ("b1", b, pb), ("a2", a, pa), ("b2", b, pb), ("a3", a, pa)]]
    assert len(made) == 2                                   # one template a sheet
    assert results[0].sheet is results[2].sheet is results[4].sheet
    assert results[1].sheet is results[3].sheet
    assert all(r.identity_from == "QR code" for r in results)
    # the same photo with its QR code unreadable, named by --sheet: the sheet already made
    monkeypatch.setattr(pipeline.I, "read_qr", lambda *a, **k: None)
    monkeypatch.setattr(pipeline, "identify", lambda *a, **k: (None, "no match"))
    by_name = scan_photo("a4", sheet_ref=pa.ref, options=pa.options, img=a)
    assert by_name.identity_from == "--sheet" and by_name.sheet is results[0].sheet and len(made) == 2
    assert {r: v.value for r, v in by_name.readings.items()} == {r: v.value for r, v in results[0].readings.items()}


@pytest.mark.parametrize("cache", ["kept", "unwritable"])
def test_a_sheet_let_go_is_made_again_and_reads_the_same(flats, monkeypatch, tmp_path, cache):
    """A sheet let go comes back from the user cache (sheetgen.scan.prepared: not rendered again),
    or, where the cache folder cannot be written, is made again; either way it reads the same."""
    if cache == "unwritable":
        (tmp_path / "a file").write_text("not a folder")
        monkeypatch.setenv("SHEETGEN_CACHE_DIR", str(tmp_path / "a file" / "cache"))
    (a, pa), (b, pb) = flats.values()
    pipeline.forget_sheets()                # a made ready by this test (and kept, where it can be)
    first = scan_photo("a", sheet_ref=pa.ref, options=pa.options, img=a)
    monkeypatch.setattr(pipeline, "_sheets", Kept(1))
    monkeypatch.setattr(sheets, "_templates", Kept(1))
    made = _counting_renders(monkeypatch)
    scan_photo("a", sheet_ref=pa.ref, options=pa.options, img=a)       # loaded, or made without a cache
    scan_photo("b", sheet_ref=pb.ref, options=pb.options, img=b)        # a is let go
    again = scan_photo("a", sheet_ref=pa.ref, options=pa.options, img=a)
    assert len(made) == {"kept": 1, "unwritable": 3}[cache] and again.sheet is not first.sheet
    assert {r: v.value for r, v in again.readings.items()} == {r: v.value for r, v in first.readings.items()}


def test_the_percentile_of_a_byte_channel_is_numpys():
    rng = np.random.default_rng(7)
    for n in (1, 2, 7, 1000, 54321):
        channel = rng.integers(0, 256, n).astype(np.uint8)
        for q in (0, 3, 50, 97, 100):
            assert _percentile_u8(channel, q) == pytest.approx(np.percentile(channel, q), abs=1e-9)
    assert _percentile_u8(np.full(10, 200, np.uint8), 97) == 200


def test_the_overlay_outlines_every_region_in_the_colour_of_its_reading(flats):
    img, p = flats["photo-0001"]
    result = scan_photo("flat", sheet_ref=p.ref, options=p.options, img=img, keep_images=True)
    overlay = overlay_image(result)
    assert overlay.shape == (result.page.rows, result.page.cols, 3) and overlay.dtype == np.uint8
    # the photo itself, flat and in colour, with the paper drawn near white
    paper = np.median(overlay.reshape(-1, 3), axis=0)
    assert (paper > 200).all()
    kx, ky = result.page.kx, result.page.ky
    marked = [r for r in result.readings.values() if r.marked and not r.uncertain and not r.hidden]
    empty = [r for r in result.readings.values() if r.value == "empty" and not r.uncertain and not r.hidden]
    assert marked and empty

    def outline_colours(reading):
        g = reading.region.shape
        if reading.region.kind == LINE:
            x, y = (g.x1 + g.x2) / 2, (g.y1 + g.y2) / 2
        else:
            x, y = g.x, g.y + g.h / 2               # a box's left edge, half way down
        c, r = int(round(x * kx)), int(round(y * ky))
        return {tuple(int(v) for v in overlay[rr, cc]) for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)}
    hits = sum(tuple(MARKED) in outline_colours(r) for r in marked)
    assert hits >= 0.9 * len(marked)
    hits = sum(tuple(EMPTY) in outline_colours(r) or tuple(MARKED) in outline_colours(r) for r in empty)
    assert hits >= 0.9 * len(empty)
    # and it is written as a PNG that reads back the same (stored, not deflated: overlay.PNG_PARAMS)
    data = overlay_png(result)
    assert data.startswith(b"\x89PNG")
    assert (cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) == overlay).all()


def test_the_overlay_rectifies_the_colour_photo_as_the_grey_one(flats):
    img, p = flats["photo-0005"]
    result = scan_photo("flat", sheet_ref=p.ref, options=p.options, img=img, keep_images=True)
    colour = I.rectify(result.colour, result.location, (result.page.rows, result.page.cols))
    grey = I.rectify(result.gray, result.location, (result.page.rows, result.page.cols))
    # one warp of the three channels lands where the grey page the regions were read on lands
    diff = np.abs(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY).astype(int) - grey.astype(int))
    assert np.median(diff) <= 2


# the fast lane leaves these out (README): they render, photograph and read whole sheets
pytestmark = pytest.mark.photo
