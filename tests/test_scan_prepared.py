"""A sheet made ready to read kept in the user cache (sheetgen.scan.prepared): loaded back it is the
sheet made afresh, to the last array element, and reads every region the same; a damaged or
foreign entry is made again, an unwritable folder only means nothing is kept, a process waits for
another making the same sheet, and the entries stay under their budget."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the scan extra: pip install 'sheetgen[scan]'")
pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen import usercache                                       # noqa: E402
from sheetgen.draw.scanmarks import SheetIdentity                    # noqa: E402
from sheetgen.scan import pipeline, prepared, read                   # noqa: E402
from sheetgen.scan.sheet import rebuild                              # noqa: E402

DATA = Path(__file__).parent / "data"
# a map read by dots, lines and boxes (with a game's layout kept on the sheet), and an
# exploration sheet (lines read by their centre band, its grid kept on the sheet)
SHEETS = ["SG1/KRAKEN/A4/S1", "SG1/EXPLORATION-SHEET-20X28/A4/S1"]


def _fresh(code: str):
    """The sheet and its scanner as a new process has them: nothing kept in memory."""
    pipeline.forget_sheets()
    sheet = rebuild(SheetIdentity.decode(code))
    return sheet, pipeline.scanner_for(sheet)


def _same(a, b, where: str = "") -> list[str]:
    """Where A and B differ (arrays by type, shape and every element; objects by their attributes)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        ok = (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
              and a.shape == b.shape and np.array_equal(a, b))
        return [] if ok else [where]
    if isinstance(a, (list, tuple)) and type(a) is type(b):
        if len(a) != len(b):
            return [where]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _same(x, y, f"{where}[{i}]")]
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [where]
        return [d for k in a for d in _same(a[k], b[k], f"{where}.{k}")]
    if hasattr(a, "__dict__") and type(a) is type(b) and not isinstance(a, type):
        return _same(vars(a), vars(b), where)
    return [] if a == b else [where]


@pytest.fixture
def no_making(monkeypatch):
    """Making a sheet ready fails the test from here on (it must come from the cache)."""
    def refused(*args):
        raise AssertionError("the sheet was made ready again: the cache was not used")
    return lambda: monkeypatch.setattr(prepared, "_made", refused)


@pytest.mark.parametrize("code", SHEETS)
def test_a_sheet_from_the_cache_is_the_sheet_made_afresh(code, no_making):
    sheet, scanner = _fresh(code)
    made = prepared.ready(scanner, sheet)
    k = prepared.page_k(made.template.shape, (sheet.page.width, sheet.page.height))
    made_printed = vars(read.printed(made.template, k))
    assert made.worked_out, "the scanner keeps its layout on the sheet: it is kept with the regions"
    no_making()
    again, scanner = _fresh(code)
    loaded = prepared.ready(scanner, again)
    assert _same(loaded.template, made.template) == []
    assert loaded.regions == made.regions
    assert _same(vars(loaded.plan), vars(made.plan)) == []
    loaded_printed = vars(read.printed(loaded.template, k))
    # what Printed works out only when asked is worked out again on use (an earlier test may have asked
    # for it of a template kept in memory): the rest is kept
    lazy = ("rgb", "_seen_as_printed", "_light_channels", "_plain_spots", "_plain_samples", "_align_grid")
    assert _same({n: v for n, v in loaded_printed.items() if n not in lazy},
                 {n: v for n, v in made_printed.items() if n not in lazy}) == []
    # the plain paper every window size of the plan measures its noise on is kept, not worked out again
    rings = {read.FAINT_DOT_RING * size for size, *_ in made.plan.dot_groups}
    windows = {max(1, cols, rows) | 1 for cols, rows in made.plan.fill_windows.tolist()}
    assert rings | windows                      # the map has dots and fills, the exploration sheet fills
    assert rings <= loaded_printed["_plain_spots"].keys()                      # the dots' masks ...
    assert rings | windows <= loaded_printed["_plain_samples"].keys()          # ... every size's samples
    for name in ("_plain_spots", "_plain_samples"):
        assert _same(loaded_printed[name], {n: made_printed[name][n] for n in loaded_printed[name]}) == []
    assert _same(loaded_printed["_seen_as_printed"], made_printed["_seen_as_printed"]) == []
    assert _same(loaded.worked_out, made.worked_out) == []
    assert {n: vars(again)[n] for n in made.worked_out}.keys() == made.worked_out.keys()


def _entry(code: str) -> tuple[Path, bytes]:
    """The cache entry of the sheet CODE, made ready once, and its bytes."""
    sheet, scanner = _fresh(code)
    prepared.ready(scanner, sheet)
    path = usercache.entry_path(prepared.KIND, prepared.sheet_key(sheet))
    return path, path.read_bytes()


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "another sheet's", "not an entry"])
def test_a_damaged_or_foreign_entry_is_made_again(damage, monkeypatch):
    code = SHEETS[0]
    path, data = _entry(code)
    if damage == "truncated":
        path.write_bytes(data[:len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(os.urandom(4096))
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "another sheet's":
        path.write_bytes(_entry(SHEETS[1])[1])
    else:
        import pickle
        path.write_bytes(pickle.dumps({"format": prepared.FORMAT, "printed": "no print"}))
    made = []
    real = prepared._made
    monkeypatch.setattr(prepared, "_made", lambda *a: made.append(1) or real(*a))
    sheet, scanner = _fresh(code)
    ready = prepared.ready(scanner, sheet)
    assert made == [1]
    assert ready.template.shape[2] == 3 and len(ready.regions) > 100
    assert path.read_bytes() == data             # stored again, whole


def test_an_unwritable_cache_folder_still_scans(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SHEETGEN_CACHE_DIR", str(blocker / "cache"))
    sheet, scanner = _fresh(SHEETS[1])
    ready = prepared.ready(scanner, sheet)
    assert len(ready.regions) > 100 and ready.plan.regions
    assert not (blocker / "cache").exists()


def test_a_process_waits_for_the_one_making_the_sheet(monkeypatch):
    """A --jobs worker wanting a sheet another is making waits for it and loads it (made once)."""
    code = SHEETS[1]
    path, data = _entry(code)
    path.unlink()
    made, missed = [], threading.Event()
    real_loaded = prepared._loaded
    monkeypatch.setattr(prepared, "_made", lambda *a: made.append(1))

    def loaded(*args):
        hit = real_loaded(*args)
        missed.set()
        return hit
    monkeypatch.setattr(prepared, "_loaded", loaded)
    sheet, scanner = _fresh(code)
    got = []
    with prepared._lock(path):                  # the other process, making it
        worker = threading.Thread(target=lambda: got.append(prepared.ready(scanner, sheet)))
        worker.start()
        missed.wait()                           # the worker found no entry: now it waits for the lock
        path.write_bytes(data)                  # the other process stores the sheet
    worker.join()
    assert made == [] and len(got) == 1 and len(got[0].regions) > 100


def test_the_entries_stay_under_their_budget_least_recently_used_first(tmp_path):
    folder = usercache.entry_path(prepared.KIND, "x").parent
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(5):
        path = usercache.entry_path(prepared.KIND, f"{i:040d}")
        path.write_bytes(b"x" * 1000)
        os.utime(path, (1000 + i, 1000 + i))
        paths.append(path)
    os.utime(paths[0], (2000, 2000))            # the oldest written, but used last
    other = usercache.entry_path("qr-codes", "kept")
    other.write_bytes(b"y" * 10_000)            # another kind's entry: not this budget's
    prepared.prune(budget=2500)
    assert [p.exists() for p in paths] == [True, False, False, False, True]
    assert other.exists()


@pytest.mark.photo
def test_a_warm_cache_scan_reads_what_a_cold_one_does(no_making):
    """Every region of photos of two games reads the same (value, confidence, score) with the
    sheet made afresh and with it loaded from the cache."""
    from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    recipes = {r.id: r for r in load_recipes(DATA / "scan" / "recipes.yaml")}
    images = [photo_of(recipes[rid])[0] for rid in ("photo-0001", "photo-0005")]

    def readings() -> list[dict]:
        out = []
        for img in images:
            pipeline.forget_sheets()
            result = pipeline.scan_photo("photo.jpg", img=img)
            out.append({rid: (r.value, r.confidence, r.score) for rid, r in result.readings.items()})
        return out
    cold = readings()
    assert len(list(usercache.entry_path(prepared.KIND, "x").parent.glob(f"{prepared.KIND}-*.pickle"))) == 2
    no_making()
    warm = readings()
    assert [len(r) for r in cold] == [len(r) for r in warm] and all(len(r) > 100 for r in cold)
    assert warm == cold


def test_a_sheet_has_one_name_in_every_process_and_another_sheet_another():
    """The name is the same in each process (workers, later runs: Python salts its string hashes per
    process), and differs with the sheet, its paper or its options."""
    import subprocess
    import sys
    script = ("from sheetgen.draw.scanmarks import SheetIdentity\nfrom sheetgen.scan import prepared, sheet\n"
              "print(prepared.sheet_key(sheet.rebuild(SheetIdentity.decode('SG1/ANCIENT-STORY/A4/S1/HKAEL'))))")
    names = {subprocess.run([sys.executable, "-c", script], env=dict(os.environ, PYTHONHASHSEED=str(seed)),
                            capture_output=True, text=True, check=True).stdout.strip() for seed in (1, 2)}
    assert len(names) == 1 and len(names.pop()) == 40
    keys = {code: prepared.sheet_key(_fresh(code)[0]) for code in
            ("SG1/ANCIENT-STORY/A4/S1", "SG1/ANCIENT-STORY/A4/S1/HKAEL", "SG1/ANCIENT-STORY/LT/S1")}
    assert len(set(keys.values())) == 3
