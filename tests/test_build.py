"""`sheetgen build` end to end: page sizes read back, reproducibility, calibration, the default pack."""
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main

pypdf = pytest.importorskip("pypdf")


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def pdf_pages(path: Path):
    return pypdf.PdfReader(str(path)).pages


def test_graph_sheet_a4_and_letter_sizes_read_back(tmp_path):
    for paper, size in (("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))):
        out = tmp_path / paper
        result = run("build", "graph-20x28", "--paper", paper, "-o", str(out))
        assert result.exit_code == 0, result.output
        pdfs = list(out.glob("*.pdf"))
        assert len(pdfs) == 1
        page = pdf_pages(pdfs[0])[0]
        assert float(page.mediabox.width) == pytest.approx(size[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size[1], abs=0.01)
        svg = ET.parse(next(out.glob("*.svg"))).getroot()
        assert svg.get("width") == f"{210 if paper == 'a4' else 215.9:g}mm"
        from PIL import Image
        with Image.open(next(out.glob("*.png"))) as im:
            w_mm = 210 if paper == "a4" else 215.9
            assert im.size[0] == round(w_mm * 150 / 25.4)


def test_same_inputs_give_byte_identical_pdf_and_svg(tmp_path):
    for name in ("one", "two"):
        assert run("build", "graph-20x28", "--seed", "7", "--format", "pdf,svg", "-o", str(tmp_path / name)).exit_code == 0
    for f in (tmp_path / "one").iterdir():
        assert f.read_bytes() == (tmp_path / "two" / f.name).read_bytes(), f.name


def test_footer_names_seed_sheet_id_and_calibration(tmp_path):
    assert run("calibrate", "--measured-x", "99.2", "--measured-y", "99.6").exit_code == 0
    out = tmp_path / "cal"
    assert run("build", "graph-20x28", "--seed", "42", "--format", "pdf,svg", "-o", str(out)).exit_code == 0
    text = pdf_pages(next(out.glob("*.pdf")))[0].extract_text()
    assert "seed 42" in text
    assert re.search(r"sheet [0-9a-f]{8}", text)
    assert "scale corrected x1.0081 y1.0040" in text
    svg = next(out.glob("*.svg")).read_text()
    assert 'id="calibrated"' in svg
    plain = tmp_path / "plain"
    assert run("build", "graph-20x28", "--no-calibration", "--format", "pdf", "-o", str(plain)).exit_code == 0
    assert "no scale correction" in pdf_pages(next(plain.glob("*.pdf")))[0].extract_text()


def test_default_pack_is_one_pdf_and_a_file_per_page(tmp_path):
    result = run("build", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "sheetgen-pack.pdf"
    pages = pdf_pages(pdf)
    assert len(pages) >= 3
    assert len(list(tmp_path.glob("*.svg"))) == len(pages)
    assert len(list(tmp_path.glob("*.png"))) == len(pages)
    assert not list(tmp_path.glob("*.part"))
    # many files: counted in the folder, the PDF named, and the count agrees with the folder
    n = len(pages)
    on_disk = sorted(tmp_path.iterdir())
    assert result.output.splitlines() == [
        f"built {n} pages into {tmp_path}/ ({2 * n + 1} files in {tmp_path}/; no scale correction)",
        f"  {pdf}",
        f"  and {2 * n} more files ({n} SVG, {n} PNG; --verbose lists them)"]
    assert len(on_disk) == 2 * n + 1
    # --verbose names every one of them
    again = run("build", "-o", str(tmp_path), "--verbose")
    listed = [line.strip() for line in again.output.splitlines()[1:]]
    assert again.output.splitlines()[0] == f"built {n} pages into {tmp_path}/ ({2 * n + 1} files; no scale correction)"
    assert sorted(Path(p) for p in listed) == on_disk


def test_a_small_build_lists_every_file_it_wrote(tmp_path):
    result = run("build", "graph-20x28", "nav-rooms", "-o", str(tmp_path), "--format", "pdf,svg")
    assert result.exit_code == 0, result.output
    head, *listed = result.output.splitlines()
    assert head == f"built 3 pages into {tmp_path}/ (5 files; no scale correction)"
    assert sorted(Path(line.strip()) for line in listed) == sorted(tmp_path.iterdir())
    assert sum(line.endswith(".pdf") for line in listed) == 2


def test_bad_definition_writes_nothing(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("sheetgen: 1\nkind: layout\ntitle: x\npage: {size: a4}\nelements:\n"
                   "  pic: {type: image, path: missing.png, x: 10mm, y: 10mm, width: 20mm, height: 20mm}\n")
    out = tmp_path / "out"
    result = run("build", str(bad), "-o", str(out))
    assert result.exit_code == 2
    assert "missing.png" in result.output
    assert not out.exists() or not any(out.iterdir())


def test_calibration_test_page(tmp_path):
    result = run("calibrate", "-o", str(tmp_path), "--paper", "letter")
    assert result.exit_code == 0, result.output
    page = pdf_pages(tmp_path / "calibrate.pdf")[0]
    assert float(page.mediabox.width) == pytest.approx(612.0, abs=0.01)
    text = page.extract_text()
    assert "100 mm" in text and "4 in" in text
