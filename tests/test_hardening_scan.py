"""`scan`'s photo reading is bounded and names what it was given (issue 29, item 2).

The image's size is read from its header (Pillow's lazy open) before any pixel is
decoded: past MAX_PHOTO_PIXELS it is refused naming the size; a folder, a FIFO, a
loop of links and a device are named as what they are; a PDF or HEIC gets a hint.
"""
from __future__ import annotations

import os
import re
import struct
import zlib

import pytest

from sheetgen.errors import InputError
from sheetgen.scan import image
from sheetgen.scan.image import MAX_PHOTO_PIXELS, MAX_PHOTO_SIDE, load_photo


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims width x height pixels and holds almost nothing (a decompression bomb's header)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def refused(path) -> str:
    with pytest.raises(InputError) as info:
        load_photo(path)
    return str(info.value)


@pytest.mark.parametrize("width, height", [(30_000, 30_000), (8_000, 7_000), (2 ** 31 - 1, 2)])
def test_an_image_past_the_pixel_limit_is_refused_by_its_header(tmp_path, width, height):
    path = tmp_path / "huge.png"
    path.write_bytes(png_header(width, height))
    message = refused(path)
    assert f"{width:,} x {height:,} pixels" in message and "at most 50 MP" in message


def test_the_limit_is_50_megapixels():
    assert MAX_PHOTO_PIXELS == 50_000_000


def test_a_folder_a_fifo_a_link_loop_and_a_device_are_named(tmp_path):
    assert "is a folder" in refused(tmp_path)
    fifo = tmp_path / "pipe.jpg"
    os.mkfifo(fifo)
    assert "FIFO" in refused(fifo)                     # and it did not block reading it
    loop = tmp_path / "loop.jpg"
    loop.symlink_to(loop)
    assert "loop of symbolic links" in refused(loop)
    assert "device" in refused("/dev/zero")
    assert "no such file" in refused(tmp_path / "missing.jpg")


def test_a_pdf_and_a_heic_get_a_hint(tmp_path):
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
    assert "a PDF" in refused(pdf)
    heic = tmp_path / "IMG_0001.HEIC"
    heic.write_bytes(b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + b"\0" * 64)
    assert "HEIC" in refused(heic) and "JPEG" in refused(heic)


def _netpbm(magic: bytes, width: int, height: int) -> bytes:
    return magic + f"\n# a comment\n{width} {height}\n255\n".encode() + b"\0" * 64


OTHER_HEADERS = {       # kinds OpenCV reads and Pillow does not (or not at every size)
    "huge.hdr": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 100000 +X 100000\n" + b"\0" * 64,
    "huge.pfm": b"PF\n100000 100000\n-1.0\n" + b"\0" * 64,
    "huge.pam": b"P7\nWIDTH 9000\nHEIGHT 9000\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n" + b"\0" * 64,
    "wide.pgm": _netpbm(b"P5", 2_000_000, 20),
    "wide.png": png_header(33_000, 1_000),
}


@pytest.mark.parametrize("name", sorted(OTHER_HEADERS))
def test_an_image_past_opencvs_limits_is_refused_naming_its_size(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(OTHER_HEADERS[name])
    message = refused(path)
    assert re.search(r"the image is [\d,]+ x [\d,]+ pixels", message), message
    assert "at most 50 MP are read" in message or f"at most {MAX_PHOTO_SIDE:,} pixels" in message


def test_a_size_no_header_reader_knows_is_refused_by_opencvs_own_check(tmp_path, monkeypatch):
    """A kind whose header sheetgen does not read: OpenCV's decoder refuses it, and that is a clean error."""
    monkeypatch.setattr(image, "_other_header_size", lambda head: None)
    path = tmp_path / "huge.hdr"
    path.write_bytes(OTHER_HEADERS["huge.hdr"])
    assert "past OpenCV's limit of 1,073,741,824 pixels" in refused(path)


def test_the_scan_command_refuses_it_with_exit_2(tmp_path):
    from click.testing import CliRunner

    from sheetgen.cli import main
    path = tmp_path / "wide.pgm"
    path.write_bytes(OTHER_HEADERS["wide.pgm"])
    result = CliRunner().invoke(main, ["scan", str(path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "2,000,000 x 20 pixels" in result.output and "internal error" not in result.output


@pytest.mark.parametrize("suffix", [".hdr", ".pfm", ".pam", ".pgm", ".png"])
def test_such_kinds_within_the_limits_are_read(tmp_path, suffix):
    import cv2
    import numpy as np
    path = tmp_path / f"small{suffix}"
    pixels = np.full((240, 320, 3), 200, np.uint8)
    if suffix in (".hdr", ".pfm"):
        pixels = pixels.astype(np.float32) / 255
    if suffix == ".pgm":
        pixels = pixels[..., 0]
    assert cv2.imwrite(str(path), pixels)
    assert load_photo(path).shape == (240, 320, 3)


# -- outputs: one name a photo, however many share a file name (item 2) ------------------------
def test_photos_of_one_file_name_from_two_folders_get_their_folders_names():
    from sheetgen.commands.scan import output_names
    assert output_names(["trip/IMG_0001.jpg", "home/IMG_0001.jpg", "trip/IMG_0002.jpg"]) == [
        "trip-IMG_0001", "home-IMG_0001", "IMG_0002"]
    # letter case aside (a file system that ignores it would take them for one file)
    assert output_names(["a/scan.png", "b/SCAN.jpg"]) == ["a-scan", "b-SCAN"]


def test_names_no_folder_tells_apart_are_numbered_and_never_taken_twice():
    from sheetgen.commands.scan import output_names
    names = output_names(["x/IMG.jpg", "x/IMG.png", "y/x/IMG.jpg", "x-IMG-1.jpg"])
    assert len({n.casefold() for n in names}) == 4
    assert names[3] == "x-IMG-1" and names[:3] == ["x-IMG-2", "x-IMG-3", "x-IMG-4"]


def test_distinct_names_stay_as_they_are():
    from sheetgen.commands.scan import _renamed, output_names
    photos = ["a/IMG_0001.jpg", "b/IMG_0002.jpg", "c/scan.png"]
    assert output_names(photos) == ["IMG_0001", "IMG_0002", "scan"]
    assert _renamed(photos, output_names(photos)) == []


def test_the_json_of_many_photos_written_one_by_one_is_json_dumps_text(capsys):
    import json

    from sheetgen.commands.scan import _echo_json
    items = [{"photo": "a.jpg", "regions": [{"id": "r1", "reading": True}], "shows": {}},
             {"photo": "b.jpg", "error": ["b.jpg: too dark"]}]
    for i, item in enumerate(items):
        _echo_json(item, i, many=True)
    print("\n]")
    assert capsys.readouterr().out == json.dumps(items, indent=2) + "\n"


def test_the_regions_formatted_directly_are_json_dumps_text():
    """report.as_json writes the regions itself: the same text as json.dumps(indent=2), whatever
    the values (floats, a non-ASCII or quoted id, true, null), and json.dumps itself for anything
    it does not format (a nested value)."""
    import json

    from sheetgen.scan.report import as_json
    regions = [{"id": "wall-B3-E", "role": "wall", "reading": "marked", "confidence": 0.1 + 0.2},
               {"id": "caf\u00e9 \"q\"", "role": "box", "reading": "empty", "confidence": 1.0, "hidden": True},
               {"id": "n", "role": "dot", "reading": "empty", "confidence": 0, "by": None}]
    for data in ({"kind": "sheetscan", "regions": regions, "seconds": 0.25},
                 {"kind": "sheetscan", "regions": [], "note": "\x00regions\x00"},
                 {"kind": "sheetscan", "regions": [{"id": "x", "nested": [1, 2]}]},
                 {"regions": regions, "also": "\x00regions\x00"}):
        assert as_json(data) == json.dumps(data, indent=2)


def test_the_docs_state_the_photo_limits_the_code_enforces():
    from pathlib import Path
    section = (Path(__file__).resolve().parent.parent / "docs" / "limits.md").read_text(encoding="utf-8")
    assert f"past {MAX_PHOTO_PIXELS // 1_000_000} MP naming its size" in section
    assert f"A side past {MAX_PHOTO_SIDE:,} pixels" in section


def test_the_region_lines_written_directly_are_pyyamls_text():
    """report._region_lines writes floats, ints, ids and flags as PyYAML's safe dumper does (or
    gives up, and PyYAML writes them): exponents without a point, ids PyYAML would quote, again
    with the ids already seen (they are kept from one photo to the next)."""
    import yaml

    from sheetgen.scan.report import _region_lines
    regions = [{"id": "wall-B3-E", "role": "wall", "reading": "marked", "confidence": 0.1 + 0.2},
               {"id": "d-7", "role": "dot", "reading": "empty", "confidence": 1e-05, "hidden": True},
               {"id": "big", "role": "box", "reading": "crossed", "confidence": 1e16},
               {"id": "n", "role": "dot", "reading": "empty", "confidence": 0},
               {"id": "one", "role": "dot", "reading": "empty", "confidence": 1.0, "by": "person"}]

    def pyyaml(rows):
        return yaml.safe_dump({"regions": rows}, sort_keys=False, allow_unicode=True, width=120,
                              default_flow_style=None)
    for _ in range(2):
        assert "regions:\n" + "".join(_region_lines(regions)) == pyyaml(regions)
    for quoted in ("yes", "1.5", "null", "a  b", "caf\u00e9", "x:"):
        rows = [{"id": quoted, "role": "dot", "reading": "empty", "confidence": 0.5}]
        lines = _region_lines(rows)
        assert lines is None or "regions:\n" + "".join(lines) == pyyaml(rows)
    assert _region_lines([{"id": "x", "reading": False}]) is None
    assert _region_lines([{"id": "x", "confidence": float("nan")}]) in (None, ["- {id: x, confidence: .nan}\n"])
