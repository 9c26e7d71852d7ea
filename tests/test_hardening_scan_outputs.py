"""`scan`'s outputs over many photos (issue 29, item 2): photos of one file name from two
folders never overwrite each other's outputs; a photo's sheetscan YAML and overlay are
one set, written both or neither; and nothing of a photo is kept once it is written (a
run over a folder of 500 photos takes the memory of one: bench/bench_scan.py --memory)."""
from __future__ import annotations

import gc
import json
import shutil
import weakref
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.cli import main                                        # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of   # noqa: E402

DATA = Path(__file__).parent / "data"

# the fast lane leaves these out (README): they render, photograph and read whole sheets
pytestmark = pytest.mark.photo


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> Path:
    """A 2 MP photo of a legal exploration sheet (its QR code reads)."""
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    recipes = {r.id: r for r in load_recipes(DATA / "scan" / "recipes.yaml")}
    path = tmp_path_factory.mktemp("photo") / "IMG_0001.jpg"
    cv2.imwrite(str(path), photo_of(recipes["photo-0184"])[0], [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def same_name_in(folders: list[Path], photo: Path) -> list[Path]:
    out = []
    for folder in folders:
        folder.mkdir(parents=True)
        out.append(Path(shutil.copy(photo, folder / photo.name)))
    return out


def scan(*args):
    return CliRunner().invoke(main, ["scan", *map(str, args)], catch_exceptions=False)


def test_photos_of_one_name_from_two_folders_keep_their_own_outputs(photo, tmp_path):
    first, second = same_name_in([tmp_path / "trip", tmp_path / "home"], photo)
    out = tmp_path / "out"
    result = scan(first, second, "-o", out)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "home-IMG_0001.overlay.png", "home-IMG_0001.sheetscan.yaml",
        "trip-IMG_0001.overlay.png", "trip-IMG_0001.sheetscan.yaml"]
    for folder in ("trip", "home"):                  # each file names its own photo
        data = yaml.safe_load((out / f"{folder}-IMG_0001.sheetscan.yaml").read_text(encoding="utf-8"))
        assert data["photo"] == str(tmp_path / folder / "IMG_0001.jpg")
        assert f"wrote {out / f'{folder}-IMG_0001.sheetscan.yaml'}" in result.output
    assert "2 photos are named IMG_0001.jpg" in result.output       # said (on stderr)


def test_one_photo_keeps_its_plain_name(photo, tmp_path):
    result = scan(photo, "-o", tmp_path)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["IMG_0001.overlay.png", "IMG_0001.sheetscan.yaml"]
    assert "note:" not in result.output


def test_the_yaml_and_the_overlay_are_written_both_or_neither(photo, tmp_path, monkeypatch):
    yaml_file, overlay = tmp_path / "IMG_0001.sheetscan.yaml", tmp_path / "IMG_0001.overlay.png"
    yaml_file.write_text("the earlier reading")
    overlay.write_bytes(b"the earlier overlay")
    import sheetgen.atomic as atomic
    real = atomic.os.replace

    def refuse_the_overlay(src, dst, *args, **kwargs):
        if str(dst).endswith(".overlay.png") and str(src).endswith(".part") and not str(src).endswith(".old.part"):
            raise OSError(28, "No space left on device")
        return real(src, dst, *args, **kwargs)
    monkeypatch.setattr(atomic.os, "replace", refuse_the_overlay)
    result = scan(photo, "-o", tmp_path)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert yaml_file.read_text() == "the earlier reading"          # the YAML was not renamed alone
    assert overlay.read_bytes() == b"the earlier overlay"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["IMG_0001.overlay.png", "IMG_0001.sheetscan.yaml"]
    monkeypatch.undo()
    assert scan(photo, "-o", tmp_path).exit_code == 0             # the other side: both written
    assert yaml_file.read_text(encoding="utf-8").startswith("# sheetgen scan of")
    assert overlay.read_bytes().startswith(b"\x89PNG")


def test_nothing_of_a_photo_is_kept_once_it_is_written(photo, tmp_path, monkeypatch):
    """Each photo's result and its images are let go once its outputs are written (the run kept
    every result with its images: about 43 MB a 2 MP photo); the outputs of one photo are written
    while the next is read, so when a photo is read only the one before it may still be alive."""
    import sheetgen.scan.pipeline as pipeline
    real = pipeline.scan_photo
    kept: list[list[weakref.ref]] = []
    alive_before: list[list[int]] = []

    def scan_photo(*args, **kwargs):
        gc.collect()
        alive_before.append([i for i, refs in enumerate(kept) if any(ref() is not None for ref in refs)])
        result = real(*args, **kwargs)
        kept.append([weakref.ref(x) for x in (result, result.page, result.colour, result.gray)])
        return result
    monkeypatch.setattr(pipeline, "scan_photo", scan_photo)
    photos = same_name_in([tmp_path / f"f{i}" for i in range(4)], photo)
    result = scan(*photos, "-o", tmp_path / "out", "--format", "json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == 4
    assert all(set(alive) <= {i - 1} for i, alive in enumerate(alive_before)), alive_before
    gc.collect()
    assert not any(ref() is not None for refs in kept for ref in refs)      # and all of them at the end
