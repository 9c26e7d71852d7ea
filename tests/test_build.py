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


# -- the layout lint on a user's definition: warnings naming the element, never silent overlap ------

HALL = Path(__file__).parent / "data" / "foury_maps" / "test-hall.yaml"


def _map(tmp_path, name, replace=(), extra=""):
    text = HALL.read_text(encoding="utf-8")
    for old, new in replace:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return path


def _layout_warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "does not fit its place" in line]


def _wide_map(tmp_path):
    """A 26 x 20 map with items in small cells: the zone letters reach the icons."""
    import yaml
    from sheetgen.games.foury.formats.map import blank_layout
    cells, entries = blank_layout(26, 20)
    by_zone: dict = {}
    for y, row in enumerate(cells.strip().split("\n")):
        for x, sym in enumerate(row.split()):
            by_zone.setdefault(sym, []).append(f"{chr(65 + x)}{y + 1}")
    items = {cell: item for sym, item in (("A", "statue"), ("B", "orc"), ("C", "lever"), ("D", "cornucopia"))
             for cell in by_zone[sym][5:20:5]}
    data = yaml.safe_load(HALL.read_text(encoding="utf-8"))
    data.update(title="Wide Hall", grid="26x20", cells=cells, entries=entries, walls=[], items=items)
    path = tmp_path / "wide.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path, items


def test_text_that_does_not_fit_is_a_warning_naming_the_element_and_its_key(tmp_path):
    cases = {
        # a long title runs over the cut line into the character half
        "long-title": ([("title: Test Hall", "title: The Extraordinarily Long and Winding Tale of the Seven "
                                             "Drowned Kings of the Deep")], "map-title", ":4:", "title: ",
                       "cut-line"),
        # a long zone name prints over the next zone's heading
        "long-zone": ([("    name: The Temple", "    name: The Temple of the Thousand Forgotten Whispering "
                                               "Statues")], "zone-A-name", ":14:", "zones.A.name: ",
                      "zone-B-name"),
        # a description of three lines runs over the column letters
        "long-description": ([("title: Test Hall", "title: Test Hall\ndescription: " + "A drowned hall of "
                                                   "statues and levers, told at great length. " * 5)],
                             "map-description", ":5:", "description: ", "(column-"),
    }
    for name, (replace, element, line, key, other) in cases.items():
        path = _map(tmp_path, name, replace)
        out = tmp_path / name
        result = run("build", str(path), "--format", "svg", "-o", str(out))
        assert result.exit_code == 0, result.output                 # a warning, not an error
        found = [w for w in _layout_warnings(result.stderr) if f"({element}," in w]
        assert found, (name, result.stderr)
        assert found[0].startswith(f"warning: {path}{line}") and key in found[0] and other in found[0], found[0]
        assert not _layout_warnings(result.stdout)                 # warnings go to stderr only
        checked = run("validate", str(path))
        assert checked.exit_code == 0 and any(f"({element}," in w for w in _layout_warnings(checked.stderr))
        assert "warning" in checked.stdout                        # "ok, map foury (N warnings)"
    # the map as it was fits: no layout warning
    plain = run("build", str(_map(tmp_path, "plain")), "--format", "svg", "-o", str(tmp_path / "plain-out"))
    assert plain.exit_code == 0 and not _layout_warnings(plain.stderr)


def test_zone_letters_over_icons_on_a_wide_map_are_named_per_cell(tmp_path):
    path, items = _wide_map(tmp_path)
    result = run("build", str(path), "--format", "svg", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0
    warned = _layout_warnings(result.stderr)
    assert warned
    for line in warned:
        cell = re.search(r"\(letter-([A-Z]\d+),", line)
        assert cell and cell[1] in items, line                     # the letter of a cell with an item ...
        assert f"items.{cell[1]}: " in line and f"item-{cell[1]}-" in line     # ... and the item it meets


def test_built_in_sheets_and_packs_of_them_build_without_layout_warnings(tmp_path):
    pack = tmp_path / "pack.yaml"
    pack.write_text("sheetgen: 1\nkind: pack\ntitle: Some\nname: some\nsheets:\n  - ancient-story\n"
                    f"  - {_map(tmp_path, 'long', [('    name: The Temple', '    name: ' + 'Temple ' * 12)])}\n",
                    encoding="utf-8")
    result = run("build", "ancient-story", "graph-20x28", "--format", "svg", "-o", str(tmp_path / "a"))
    assert result.exit_code == 0 and not _layout_warnings(result.stderr)
    # in a pack, the user's sheet is linted and named; the built-in one is not
    result = run("build", str(pack), "--format", "svg", "-o", str(tmp_path / "b"))
    assert result.exit_code == 0
    assert _layout_warnings(result.stderr) and all("long.yaml" in w for w in _layout_warnings(result.stderr))


def test_a_user_layout_names_its_element(tmp_path):
    path = tmp_path / "card.yaml"
    path.write_text("sheetgen: 1\nkind: layout\nelements:\n"
                    "  box: {type: box, x: 20mm, y: 5mm, width: 10mm, height: 10mm}\n"
                    "  label: {type: text, text: Overlapping label, x: 10mm, y: 8mm, size: 12}\n", encoding="utf-8")
    result = run("build", str(path), "--format", "svg", "-o", str(tmp_path / "out"))
    (warning,) = _layout_warnings(result.stderr)
    assert warning.startswith(f"warning: {path}:5:") and "elements.label: " in warning and "rect el-box" in warning
    assert result.exit_code == 0


def test_a_custom_map_without_a_description_is_not_labelled_the_ancient_story(tmp_path):
    from sheetgen.definitions.registry import load
    from sheetgen.draw.model import Text, walk
    from sheetgen.draw.options import BuildOptions
    from sheetgen.games.foury.sheets.map import compose_map

    def texts(path):
        doc = compose_map(load(str(path)).definition, BuildOptions())
        return [i.text for i, _ in walk(doc.pages[0].items) if isinstance(i, Text)]
    plain = texts(_map(tmp_path, "hall"))
    assert not any("Ancient Story" in t for t in plain)
    assert "Test Hall" in plain                                    # the character half names the map
    assert "The Ancient Story" in texts("layouts/foury/ancient-story.yaml")   # ... and the base game's own map
    kraken = texts(_map(tmp_path, "flooded", [("title: Test Hall", "title: Test Hall\ncampaign: kraken")],
                        "turns: 60\n"))
    assert "A map for Discovering the Kraken." in kraken           # a campaign's map says which campaign
