"""The photo the --review tests share: the corpus's legal Foury game on the test hall (a custom
map) with a wall nobody explains (A4:E), made in the test; and a review session over it."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

DATA = Path(__file__).parent / "data"
HALL = str(DATA / "foury_logs" / "test-hall.yaml")
LEGAL = str(DATA / "foury_logs" / "audit" / "legal-melyra-chooses-clover.yaml")
WALL = "wall-A4-E"          # penciled on the photo, explained by no event of the log


def tampered_photo(folder: Path) -> Path:
    import cv2
    import pytest

    from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    recipes = {r.id: r for r in load_recipes(DATA / "scan" / "recipes.yaml")}
    img, _ = photo_of(replace(recipes["photo-0041"], id="tampered", tamper=(("wall", "A4:E"),)))
    path = folder / "tampered.jpg"
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def review_session(photo: Path, folder: Path, record: str | None = LEGAL):
    from sheetgen.scan.pipeline import scan_photo, scanner_for
    from sheetgen.scan.review import ReviewSession
    result = scan_photo(photo, sheet_ref=HALL, record=record, keep_images=True)
    return ReviewSession(result, scanner_for(result.sheet), folder / "tampered.sheetscan.yaml", record=record)
