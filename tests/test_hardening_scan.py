"""`scan`'s photo reading is bounded and names what it was given (issue 29, item 2).

The image's size is read from its header (Pillow's lazy open) before any pixel is
decoded: past MAX_PHOTO_PIXELS it is refused naming the size; a folder, a FIFO, a
loop of links and a device are named as what they are; a PDF or HEIC gets a hint.
"""
from __future__ import annotations

import os
import struct
import zlib

import pytest

from sheetgen.errors import InputError
from sheetgen.scan.image import MAX_PHOTO_PIXELS, load_photo


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
