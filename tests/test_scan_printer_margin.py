"""A sheet built with --printer-margin (its content, scan marks included, scaled about the page
centre) scans as the same sheet: its QR code reads, and every region reads as on the sheet printed
without it.  The corner markers scale with the content, so the photo rectified on them shows the
sheet as composed unscaled, which is the template the scanner composes from the QR code (the
margin is a way of printing, like the printer scale correction, not part of the sheet's identity)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.build import compose_loaded                                    # noqa: E402
from sheetgen.draw.model import Group, Page                                  # noqa: E402
from sheetgen.testing.corpus import drawn_page, pdftoppm_available, played, rasterise   # noqa: E402
from sheetgen.scan.pipeline import as_seen, scan_photo                       # noqa: E402

LOGS = Path(__file__).parent / "data" / "scan" / "logs"


@pytest.mark.parametrize("log, paper", [("sim-ancient-story-1.yaml", "a4"), ("explore-8.yaml", "letter")])
def test_a_sheet_built_with_a_printer_margin_scans_like_one_without(log, paper):
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the sheet: apt-get install poppler-utils")
    p = played(str(LOGS / log), paper)
    # the page `sheetgen build --printer-margin 8` prints: the page the scanner composes, scaled
    (printed,) = [pg for pg in compose_loaded(p.sheet.loaded, replace(p.sheet.options, printer_margin=8.0)).pages
                  if pg.name == p.sheet.page.name]
    (group,) = printed.items
    assert group.id == "printer-margin" and list(group.items) == p.sheet.page.items
    assert 0.9 < printed.content_scale < 0.99
    # the player's pencil lands on the scaled print: the penciled page, scaled the same way
    penciled = drawn_page(p, seed=2)
    scaled = Page(penciled.width, penciled.height,
                  [Group(tuple(penciled.items), transform=group.transform, id="printer-margin")])
    results = {}
    for name, page in (("plain", penciled), ("margin", scaled)):
        img = cv2.cvtColor(rasterise(page, 200), cv2.COLOR_RGB2BGR)
        results[name] = scan_photo(f"{name}.png", img=img, keep_images=True)
    plain, margin = results["plain"], results["margin"]
    assert margin.identity_from == "QR code" and margin.sheet.identity == p.sheet.identity
    # the rectified photo lies on the template as the plain one does: no field of shifts to take up
    # a scale (against a template composed scaled, the reader's alignment has to move it 4-5 mm)
    assert max(margin.page.shift) < 0.5 and max(plain.page.shift) < 0.5
    assert {r: v.value for r, v in margin.readings.items()} == {r: v.value for r, v in plain.readings.items()}
    differences = p.scanner.compare(margin.sheet, margin.view, as_seen(p.scanner, margin, p.expected))
    assert [d.message for d in differences] == []
    assert margin.consistent == plain.consistent and not margin.violations
