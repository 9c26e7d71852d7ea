"""`sheetgen scan --jobs N`: photos read in worker processes say and write exactly what one
process does, in the photos' order, and a photo that cannot be read does not stop the others."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.cli import main                                        # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of   # noqa: E402

pytestmark = pytest.mark.photo
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> list[Path]:
    """Three photos of two built-in sheets and, between them, a file that is no image."""
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    recipes = {r.id: r for r in load_recipes(DATA / "scan" / "recipes.yaml")}
    out = tmp_path_factory.mktemp("jobs")
    paths = []
    for i, rid in enumerate(("photo-0184", "photo-0185", "photo-0001")):
        path = out / f"{i}-{rid}.jpg"
        cv2.imwrite(str(path), photo_of(recipes[rid])[0], [cv2.IMWRITE_JPEG_QUALITY, 90])
        paths.append(path)
    broken = out / "1b-broken.jpg"
    broken.write_bytes(b"not a photo")
    return sorted([*paths, broken])


def _scan(photos, outdir: Path, *args):
    result = CliRunner().invoke(main, ["scan", *map(str, photos), "-o", str(outdir), *args], catch_exceptions=False)
    return result.exit_code, result.stdout.replace(str(outdir), "OUT"), result.stderr


def _files(outdir: Path) -> dict[str, bytes]:
    # a photo's own reading time is the one thing two runs never share
    return {p.name: re.sub(rb"(seconds: |\"seconds\": )[0-9.]+", rb"\1-", p.read_bytes())
            for p in sorted(outdir.iterdir())}


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_two_jobs_say_and_write_what_one_does(folder, tmp_path, fmt):
    one = _scan(folder, tmp_path / "one", "--jobs", "1", "--format", fmt)
    two = _scan(folder, tmp_path / "two", "--jobs", "2", "--format", fmt)
    strip = re.compile(r"(seconds: |\"seconds\": )[0-9.]+")
    assert (one[0], strip.sub("-", one[1]), one[2]) == (two[0], strip.sub("-", two[1]), two[2])
    assert _files(tmp_path / "one") == _files(tmp_path / "two")


def test_a_broken_photo_does_not_stop_the_others(folder, tmp_path):
    code, out, err = _scan(folder, tmp_path / "out", "--jobs", "2")
    assert code == 2                                    # the broken photo is unusable input
    assert "1b-broken.jpg" in err and "not an image" in err
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted(f"{p.stem}.{kind}" for p in folder if "broken" not in p.name
                             for kind in ("overlay.png", "sheetscan.yaml"))
    # reported in the photos' order
    shown = [line.split(":")[0] for line in out.splitlines() if line.endswith(")") and ".jpg:" in line]
    assert shown == [str(p) for p in folder if "broken" not in p.name]
