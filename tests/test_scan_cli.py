"""`sheetgen scan` through the command line: text and JSON, the sheetscan YAML and the
overlay PNG it writes (atomically), --log and --journal, exit codes (0 consistent, 1 rule
violations or differences, 2 a photo that cannot be used, with a clear message and no
traceback).  The photos are the corpus's (tests/data/scan/recipes.yaml), made in the test."""
from __future__ import annotations

import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")
np = pytest.importorskip("numpy")

from sheetgen.cli import main                                        # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of   # noqa: E402

DATA = Path(__file__).parent / "data"
HALL = str(DATA / "foury_logs" / "test-hall.yaml")
LEGAL = str(DATA / "foury_logs" / "audit" / "legal-melyra-chooses-clover.yaml")
EXPLORATION = str(DATA / "exploration" / "legal-example.yaml")


def run(*args):
    return CliRunner().invoke(main, ["scan", *map(str, args)], catch_exceptions=False)


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> dict[str, Path]:
    """JPEG photos: a legal Foury game on the test hall (a custom map), the same sheet with
    a wall nobody explains, an exploration sheet (built in), one whose QR code is unreadable,
    and photos that are no use: no sheet at all, far too dark, a corner cut off."""
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    recipes = {r.id: r for r in load_recipes(DATA / "scan" / "recipes.yaml")}
    folder = tmp_path_factory.mktemp("photos")
    out = {}

    def save(name, img):
        path = folder / f"{name}.jpg"
        cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        out[name] = path
    foury = recipes["photo-0041"]                   # legal-melyra-chooses-clover
    img, _ = photo_of(foury)
    save("foury", img)
    save("tampered", photo_of(replace(foury, id="tampered", tamper=(("wall", "A4:E"),)))[0])
    save("exploration", photo_of(recipes["photo-0184"])[0])
    save("kael", photo_of(replace(foury, id="kael", log=str(DATA / "scan" / "logs" / "tracked-kael.yaml")))[0])
    save("no-qr", photo_of(recipes["photo-0185"])[0])
    rng = np.random.default_rng(1)
    save("table", (rng.random((900, 1200, 3)) * 80 + 60).astype(np.uint8))
    save("dark", (img.astype(np.float32) * 0.08).astype(np.uint8))
    save("cut", img[: img.shape[0] // 2, :])
    save("blurred", cv2.GaussianBlur(photo_of(recipes["photo-0184"])[0], (0, 0), 4.0))
    save("covered-qr", _qr_covered(photo_of(recipes["photo-0184"])[0]))
    return out


def _qr_covered(img):
    """The photo with its QR code (and its quiet zone) painted over with paper, where the drawing
    model puts it on the page the markers find."""
    from sheetgen.draw import scanmarks as SM
    from sheetgen.scan import image as I
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    loc = I.locate(img, gray, "covered", I.find_markers(gray))
    x, y, s, _ = SM.qr_box(*loc.size)
    pad = SM.QUIET + 0.5
    quad = loc.to_photo(np.float32([[x - pad, y - pad], [x + s + pad, y - pad], [x + s + pad, y + s + pad],
                                    [x - pad, y + s + pad]]))
    out = img.copy()
    cv2.fillConvexPoly(out, np.round(quad).astype(np.int32), (235, 235, 235))
    return out


def test_a_legal_sheet_reads_consistent_text_and_files(photos, tmp_path):
    result = run(photos["exploration"], "-o", tmp_path)
    assert result.exit_code == 0, result.output
    assert "exploration-sheet-20x28 on a4" in result.output and "known by the QR code" in result.output
    assert result.output.rstrip().splitlines()[-2].strip() == "consistent"
    data = yaml.safe_load((tmp_path / "exploration.sheetscan.yaml").read_text(encoding="utf-8"))
    assert data["kind"] == "sheetscan" and data["ruleset"] == "exploration" and data["verdict"] == "consistent"
    assert data["sheet"]["code"].startswith("SG1/EXPLORATION-SHEET-20X28/A4/")
    assert data["shows"]["rooms"] and data["violations"] == []
    regions = data["regions"]
    assert len(regions) > 1000 and {"id", "role", "reading", "confidence"} <= set(regions[0])
    # the uncertain regions come first, and are the ones the list names
    n = len(data["uncertain"])
    assert [r["id"] for r in regions[:n]] == data["uncertain"]
    assert all(r["confidence"] < 0.5 for r in regions[:n]) and all(r["confidence"] >= 0.5 for r in regions[n:])
    overlay = cv2.imread(str(tmp_path / "exploration.overlay.png"))
    assert overlay is not None and overlay.shape[0] > overlay.shape[1] > 800          # the page, upright, portrait


def test_json_output_is_the_sheetscan_data(photos, tmp_path):
    result = run(photos["exploration"], "-o", tmp_path, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    written = yaml.safe_load((tmp_path / "exploration.sheetscan.yaml").read_text(encoding="utf-8"))
    data.pop("seconds"), written.pop("seconds")
    assert data == written


@pytest.mark.parametrize("name, sheet", [("exploration", None), ("foury", HALL)])
def test_the_sheetscan_file_is_the_text_pyyaml_writes(photos, tmp_path, name, sheet):
    """Its thousands of region lines are written directly (PyYAML took seconds a photo): the
    very text PyYAML writes for the same data, hidden regions and all."""
    from sheetgen.scan.pipeline import scan_photo
    from sheetgen.scan.report import as_data, sheetscan_yaml
    result = scan_photo(photos[name], sheet_ref=sheet)
    text = sheetscan_yaml(result)
    data = as_data(result)
    head, _, body = text.partition("\n")
    assert head.startswith("# sheetgen scan of ")
    assert body == yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)
    if name == "foury":
        assert any(r.get("hidden") for r in data["regions"])


def test_a_custom_map_asks_for_its_file_and_reads_with_it(photos, tmp_path):
    result = run(photos["foury"], "-o", tmp_path)
    assert result.exit_code == 2
    assert "a custom sheet" in result.output and "--sheet FILE" in result.output
    assert "Traceback" not in result.output
    result = run(photos["foury"], "--sheet", HALL, "-o", tmp_path)
    assert result.exit_code == 0, result.output
    assert "hero melyra" in result.output and "consistent" in result.output


def _variant(tmp_path, name: str, old: str, new: str) -> str:
    """LEGAL with one line changed (its map named by an absolute path)."""
    text = Path(LEGAL).read_text(encoding="utf-8").replace("map: ../test-hall.yaml", f"map: {HALL}")
    assert old in text
    path = tmp_path / f"{name}.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


def test_the_log_the_sheet_was_played_with_agrees_and_another_game_does_not(photos, tmp_path):
    other_game = _variant(tmp_path, "no-chest", "      - {collect: chest}\n", "")
    assert CliRunner().invoke(main, ["check", other_game]).exit_code == 0
    same = run(photos["foury"], "--sheet", HALL, "--log", LEGAL, "-o", tmp_path)
    assert same.exit_code == 0, same.output
    assert "the paper shows what the log does" in same.output
    other = run(photos["foury"], "--sheet", HALL, "--log", other_game, "-o", tmp_path, "--format", "json")
    assert other.exit_code == 1, other.output
    data = json.loads(other.output)
    assert data["verdict"] == "not consistent" and data["record"]["file"] == other_game
    # the chest of D2 collected on paper (counted and struck through), not in that log
    assert [d["message"] for d in data["record"]["differences"]] == [
        "paper: chests 1, log: 0", "an item of D2 struck through, the log takes or beats nothing there"]
    assert data["record"]["violations"] == []           # the other log is legal: the differences are the paper's


def test_an_illegal_log_is_reported_as_sheetgen_check_reports_it(photos, tmp_path):
    bad = _variant(tmp_path, "illegal", "{move: C1, roll: 2}", "{move: C1, roll: 7}")
    check = CliRunner().invoke(main, ["check", str(bad), "--format", "json"], catch_exceptions=False)
    assert check.exit_code == 1, check.output
    result = run(photos["foury"], "--sheet", HALL, "--log", bad, "-o", tmp_path, "--format", "json")
    assert result.exit_code == 1
    got = {v["message"] for v in json.loads(result.output)["record"]["violations"]}
    want = {v["message"] for v in json.loads(check.output)["violations"]}
    assert got == want and got


def test_a_wall_nobody_explains_breaks_the_rules_of_the_paper(photos, tmp_path):
    result = run(photos["tampered"], "--sheet", HALL, "-o", tmp_path)
    assert result.exit_code == 1, result.output
    assert "rule: wall A4:E penciled, but neither A4 nor B4" in result.output
    assert "NOT consistent" in result.output
    with_log = run(photos["tampered"], "--sheet", HALL, "--log", LEGAL, "-o", tmp_path)
    assert "wall A4:E penciled, no event of the log collapses it" in with_log.output


def test_the_journal_is_compared_as_its_exported_log_is(photos, tmp_path):
    """tests/data/scan/tracked-kael.sqlite: a game recorded with `sheetgen track` (Kael on the
    Ancient Story); logs/tracked-kael.yaml is its export."""
    import shutil
    journal = tmp_path / "journal.sqlite"
    shutil.copy(DATA / "scan" / "tracked-kael.sqlite", journal)
    log = DATA / "scan" / "logs" / "tracked-kael.yaml"
    sheet = ("--sheet", "ancient-story", "--hero", "kael")          # its QR code is too small in this photo
    via_journal = run(photos["kael"], *sheet, "--journal", journal, "-o", tmp_path, "--format", "json")
    via_log = run(photos["kael"], *sheet, "--log", log, "-o", tmp_path, "--format", "json")
    assert via_journal.exit_code == via_log.exit_code, via_journal.output
    a, b = json.loads(via_journal.output), json.loads(via_log.output)
    assert a["sheet"]["code"] == b["sheet"]["code"] and "/HKAEL" in a["sheet"]["code"]
    assert a["record"]["differences"] == b["record"]["differences"]
    assert a["record"]["violations"] == b["record"]["violations"] == []
    assert a["record"]["file"].startswith(f"{journal} (game ")
    missing = run(photos["kael"], *sheet, "--journal", tmp_path / "none.sqlite", "-o", tmp_path)
    assert missing.exit_code == 2 and "no such journal" in missing.output


def test_log_and_journal_together_are_refused(photos, tmp_path):
    result = run(photos["foury"], "--log", LEGAL, "--journal", tmp_path / "j.sqlite", "-o", tmp_path)
    assert result.exit_code == 2 and "not both" in result.output


# -- photos that cannot be used: exit 2, a clear message --------------------------------------------

def test_no_sheet_in_the_photo(photos, tmp_path):
    result = run(photos["table"], "-o", tmp_path)
    assert result.exit_code == 2
    assert "no sheetgen corner markers and no QR code found" in result.output and "--sheet" in result.output
    assert "Traceback" not in result.output and not list(tmp_path.iterdir())


def test_too_dark(photos, tmp_path):
    result = run(photos["dark"], "-o", tmp_path)
    assert result.exit_code == 2
    assert "too dark" in result.output and "/255" in result.output and "more light" in result.output


def test_too_blurred_says_how_blurred_and_what_is_needed(photos, tmp_path):
    result = run(photos["blurred"], "-o", tmp_path)
    assert result.exit_code == 2
    spread = float(re.search(r"edges are spread over ([0-9.]+) px", result.output).group(1))
    assert spread > 3.0 and "at most 2 px" in result.output and "Traceback" not in result.output


def test_a_corner_cut_off_is_named(photos, tmp_path):
    result = run(photos["cut"], "--sheet", HALL, "-o", tmp_path)
    assert result.exit_code == 2
    message = result.output
    assert "corner marker" in message
    assert any(corner in message for corner in ("top-left", "top-right", "bottom-left", "bottom-right"))


def test_a_qr_code_too_soft_to_decode_is_matched_to_the_sheet_it_is(photos, tmp_path):
    """photo-0185's code does not decode (2 MP, its modules under 2 pixels and blurred), but its
    modules agree with the exploration sheet's code and with no other sheet's."""
    result = run(photos["no-qr"], "-o", tmp_path, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.output)
    assert data["sheet"]["known_by"] == "QR code (matched)"
    assert data["sheet"]["code"] == "SG1/EXPLORATION-SHEET-20X28/A4/S1"


def test_a_covered_qr_code_needs_sheet_and_then_reads(photos, tmp_path):
    result = run(photos["covered-qr"], "-o", tmp_path)
    assert result.exit_code == 2
    assert "QR code cannot be read" in result.output and "--sheet NAME or --sheet FILE" in result.output
    result = run(photos["covered-qr"], "--sheet", "exploration-sheet-20x28", "-o", tmp_path)
    assert result.exit_code == 0, result.output
    assert "known by the --sheet" in result.output


def test_an_unidentified_photo_in_a_batch_does_not_stop_the_others(photos, tmp_path):
    """Three photos, the middle one's sheet unknown (its code covered): the others are read and
    written, it gets its own error naming it, and the run's exit code says a photo was unusable."""
    result = run(photos["exploration"], photos["covered-qr"], photos["no-qr"], "-o", tmp_path, "--format", "json")
    assert result.exit_code == 2
    items = json.loads(result.stdout)
    read = [item for item in items if "error" not in item]
    failed = [item for item in items if "error" in item]
    assert sorted(Path(item["photo"]).name for item in read) == ["exploration.jpg", "no-qr.jpg"]
    assert [Path(item["photo"]).name for item in failed] == ["covered-qr.jpg"]
    assert "covered-qr.jpg" in failed[0]["error"][0] and "QR code cannot be read" in failed[0]["error"][0]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "exploration.overlay.png", "exploration.sheetscan.yaml", "no-qr.overlay.png", "no-qr.sheetscan.yaml"]


def test_the_wrong_sheet(photos, tmp_path):
    result = run(photos["exploration"], "--sheet", "ancient-story", "-o", tmp_path)
    assert result.exit_code == 2 and "is not the sheet in the photo" in result.output
    result = run(photos["foury"], "--sheet", str(DATA / "foury_logs" / "legal-example.yaml"), "-o", tmp_path)
    assert result.exit_code == 2 and "not the sheet in the photo" in result.output


def test_a_log_of_another_sheet_is_refused(photos, tmp_path):
    result = run(photos["exploration"], "--log", LEGAL, "-o", tmp_path)
    assert result.exit_code == 2 and "not a Dungeon Exploration play log" in result.output
    result = run(photos["foury"], "--sheet", HALL, "--log", DATA / "scan" / "logs" / "tracked-kael.yaml",
                 "-o", tmp_path)
    assert result.exit_code == 2 and "the wrong sheet for this log" in result.output


def test_several_photos_one_unusable_the_worst_exit(photos, tmp_path):
    result = run(photos["exploration"], photos["table"], "-o", tmp_path)
    assert result.exit_code == 2
    assert "consistent" in result.output and "no sheetgen corner markers" in result.output
    assert (tmp_path / "exploration.sheetscan.yaml").is_file() and not (tmp_path / "table.sheetscan.yaml").exists()


def test_without_the_scan_extra_it_says_what_to_install(photos, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)
    result = run(photos["exploration"], "-o", tmp_path)
    assert result.exit_code == 2
    assert "pip install 'sheetgen[scan]'" in result.output and "opencv-python-headless" in result.output


def test_the_overlay_is_written_atomically(photos, tmp_path, monkeypatch):
    """A rename that fails leaves the earlier overlay whole and no part file behind."""
    first = run(photos["exploration"], "-o", tmp_path)
    assert first.exit_code == 0
    overlay = tmp_path / "exploration.overlay.png"
    overlay.write_bytes(b"the earlier overlay")
    import sheetgen.atomic as atomic
    real = atomic.os.replace

    def refuse_the_overlay(src, dst):
        if str(dst).endswith(".overlay.png"):
            raise OSError(28, "No space left on device")
        return real(src, dst)
    monkeypatch.setattr(atomic.os, "replace", refuse_the_overlay)
    result = CliRunner().invoke(main, ["scan", str(photos["exploration"]), "-o", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert overlay.read_bytes() == b"the earlier overlay"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exploration.overlay.png", "exploration.sheetscan.yaml"]


# the fast lane leaves these out (README): they render, photograph and read whole sheets
pytestmark = pytest.mark.photo
