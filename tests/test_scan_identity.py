"""The sheet known when its QR code will not decode (sheetgen.scan.identify): the code's modules,
read where the drawing model puts them, matched against the codes of the sheets the photo could
be; a sheet none of them is stays unknown (never a wrong sheet)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")
np = pytest.importorskip("numpy")

from sheetgen.draw.scanmarks import SheetIdentity                      # noqa: E402
from sheetgen.games.foury.heroes import HEROES                      # noqa: E402
from sheetgen.errors import InputError                                 # noqa: E402
from sheetgen.scan import identify as ID                               # noqa: E402
from sheetgen.scan import pipeline                                     # noqa: E402
from sheetgen.testing.corpus import flat_of, load_recipes, pdftoppm_available   # noqa: E402

RECIPES = Path(__file__).parent / "data" / "scan" / "recipes.yaml"
KRAKEN = "SG1/KRAKEN/A4/S1"


def _soft(text: str, flip: float = 0.0, seed: int = 0) -> list[tuple[int, np.ndarray]]:
    """What soft_modules would give for a clean print of text's code: +1 dark, -1 light, FLIP of
    the modules read the wrong way (a blurred photo), each module read half as clearly."""
    code, _ = ID.code_of(text)
    rng = np.random.default_rng(seed)
    soft = np.where(code, 1.0, -1.0) * rng.uniform(0.3, 1.5, code.shape)
    wrong = rng.random(code.shape) < flip
    soft[wrong] *= -1
    return [(code.shape[0], soft)]


def test_a_clean_code_spells_its_text_without_error_correction():
    for text in (KRAKEN, "SG1/ANCIENT-STORY/A4/S1/HKAEL", "SG1/$981E4BBE9F/LT/S1"):
        assert ID.spelled(_soft(text)[0][1]) == text


def test_a_code_read_with_many_modules_wrong_is_matched_to_its_sheet():
    texts = [KRAKEN, "SG1/KRAKEN/A4/S2", "SG1/KRAKEN/A4/S3", "SG1/SANTA/A4/S1", "SG1/SLAUGHTER/A4/S1"]
    # 15 % of the modules wrong: twice what the code's own error correction (level L) mends
    best, how = ID.choose(_soft(KRAKEN, flip=0.15), texts)
    assert best == KRAKEN, how


def test_a_sheet_no_candidate_is_stays_unknown():
    """The code is seed 1's; the candidates are seeds 2 and 3, whose data modules are nearly all
    seed 1's: their error-correction codewords are what tells them apart, and they disagree."""
    for flip in (0.0, 0.1):
        best, how = ID.choose(_soft(KRAKEN, flip=flip), ["SG1/KRAKEN/A4/S2", "SG1/KRAKEN/A4/S3",
                                                         "SG1/SANTA/A4/S1"])
        assert best is None, how


def test_noise_is_no_sheet():
    rng = np.random.default_rng(3)
    noise = [(21, rng.normal(0, 1, (21, 21)))]
    best, how = ID.choose(noise, ID.candidates(("a4", "portrait")))
    assert best is None, how


def test_a_sheet_read_in_the_run_is_a_candidate_for_the_next_photos():
    hero = SheetIdentity("ancient-story", seed=7, options=(("hero", "kael"),))   # a seed past SEEDS
    ID.forget_seen()                            # what earlier tests' scans remembered
    assert hero.encode() not in ID.candidates(("a4", "portrait"))
    ID.remember(hero)
    try:
        assert ID.candidates(("a4", "portrait"))[0] == hero.encode()
        assert hero.encode() not in ID.candidates(("letter", "portrait"))      # the markers say the paper
    finally:
        ID.forget_seen()


def test_the_values_a_game_lists_for_a_printed_option_make_candidates():
    """A hero's sheet is known without --hero: the Foury scanner lists the heroes (printed_options),
    on that game's sheets only."""
    texts = ID.candidates(("a4", "portrait"))
    for hero in HEROES:
        assert f"SG1/ANCIENT-STORY/A4/S1/H{hero.upper()}" in texts
        assert f"SG1/KRAKEN/A4/S3/H{hero.upper()}" in texts
    assert not [t for t in texts if t.startswith("SG1/EXPLORATION") and "/H" in t]
    assert ID.candidates(("a4", "portrait"), options=(("hero", "melyra"),)).count(
        "SG1/ANCIENT-STORY/A4/S1/HMELYRA") == 1


def test_the_game_options_given_make_candidates():
    texts = ID.candidates(("a4", "portrait"), options=(("hero", "melyra"),))
    assert "SG1/ANCIENT-STORY/A4/S1/HMELYRA" in texts and "SG1/ANCIENT-STORY/A4/S1" in texts


@pytest.fixture(scope="module")
def kraken_flat():
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    recipes = [r for r in load_recipes(RECIPES) if "kraken" in r.log.lower()]
    img, played = flat_of(replace(recipes[0], id="kraken-flat", dpi=150, camera=None))
    assert played.sheet.identity.encode() == KRAKEN
    return img


def test_a_code_that_will_not_decode_is_matched_on_the_page(kraken_flat, monkeypatch):
    """The decoder told to fail: the page's own code, read module by module, is the Kraken's."""
    monkeypatch.setattr(pipeline.I, "read_qr", lambda *a, **k: None)
    result = pipeline.scan_photo("kraken", img=kraken_flat)
    assert result.identity_from == pipeline.MATCHED == "QR code (matched)"
    assert result.sheet.identity.encode() == KRAKEN


def test_without_the_sheet_among_the_candidates_the_photo_asks_for_sheet(kraken_flat, monkeypatch):
    monkeypatch.setattr(pipeline.I, "read_qr", lambda *a, **k: None)
    real = ID.candidates
    monkeypatch.setattr(ID, "candidates", lambda *a, **k: [t for t in real(*a, **k) if "KRAKEN" not in t])
    monkeypatch.setattr(ID, "_put_right", lambda *a, **k: [])
    with pytest.raises(InputError) as err:
        pipeline.scan_photo("kraken", img=kraken_flat)
    message = err.value.problems[0].format()
    assert "QR code cannot be read" in message and "--sheet" in message and "agreement" in message


def _fresh_run(monkeypatch):
    """identify as a new process starts it: nothing drawn in memory, the user cache as it is."""
    monkeypatch.setattr(ID, "_codes", type(ID._codes)())
    monkeypatch.setattr(ID, "_kept_codes", None)
    monkeypatch.setattr(ID, "_unkept", set())


def test_a_code_drawn_is_the_code_segno_prints():
    import segno
    for text in (KRAKEN, "SG1/ANCIENT-STORY/LT/S3/HKAEL", "SG1/$981E4BBE9F/LT/S1"):
        code = segno.make_qr(text, error="l")
        matrix, ec = ID.code_of(text)
        assert (matrix == np.array([list(row) for row in code.matrix], dtype=bool)).all()
        data = ID._DATA_CODEWORDS[(matrix.shape[0], code.error.upper())]
        assert ec.sum() == (ID._TOTAL_CODEWORDS[matrix.shape[0]] - data) * 8


def test_codes_drawn_are_kept_for_the_next_run_and_a_damaged_store_is_drawn_again(monkeypatch):
    import segno
    _fresh_run(monkeypatch)
    texts = ["SG1/KRAKEN/A4/S9", "SG1/$981E4BBE9F/LT/S1", "SG1/SANTA/LT/S7/HKAEL"]     # none built in
    drawn = {text: ID.code_of(text)[0].copy() for text in texts}
    ID.keep_drawn_codes()
    _fresh_run(monkeypatch)

    def no_drawing(*args, **kwargs):
        raise AssertionError("a kept code drawn again")
    with monkeypatch.context() as m:
        m.setattr(segno, "make_qr", no_drawing)
        for text in texts:
            assert (ID.code_of(text)[0] == drawn[text]).all()
    # a store that is not what was kept (damaged, another version's shape) is ignored: drawn again
    from sheetgen import usercache
    store = usercache.entry_path("qr-codes", ID._codes_key())
    some = texts[0]
    for damage in (b"\x80\x05not a pickle", __import__("pickle").dumps({some: (b"\x00", 21, "L")})):
        store.write_bytes(damage)
        _fresh_run(monkeypatch)
        assert (ID.code_of(some)[0] == drawn[some]).all()


def test_the_built_in_sheets_codes_ship_so_a_first_run_draws_none(monkeypatch):
    import segno
    _fresh_run(monkeypatch)             # and the user cache empty (tests/conftest.py)

    def no_drawing(*args, **kwargs):
        raise AssertionError("a built-in sheet's code drawn")
    monkeypatch.setattr(segno, "make_qr", no_drawing)
    monkeypatch.setattr(ID, "_seen", type(ID._seen)())
    ID.remember(SheetIdentity("kraken", seed=7))               # a sheet this run read: no built-in's code
    texts = ID.candidates(None, seen=False)
    assert KRAKEN in texts and len(texts) > 300 and "SG1/KRAKEN/A4/S7" not in texts
    for text in texts:
        ID.code_of(text)


def _code_moved(img: np.ndarray, dy_mm: float) -> tuple[np.ndarray, object]:
    """The flat page with its QR code (and the paper around it) moved DY_MM up the page, as a page bent
    near its edge moves it from where the corner markers put it; and the page's location."""
    from sheetgen.draw import scanmarks as SM
    from sheetgen.scan import image as I
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    loc = I.locate(img, gray, "kraken", I.find_markers(gray))
    qx, qy, qs, _ = SM.qr_box(*loc.size)
    pad = 3.0
    (x0, y0), (x1, y1) = loc.to_photo([(qx - pad, qy - pad), (qx + qs + pad, qy + qs + pad)]).astype(int)
    (_, up), = loc.to_photo([(qx, qy - dy_mm)]).astype(int) - loc.to_photo([(qx, qy)]).astype(int)
    moved = img.copy()
    moved[y0 + up:y1 + up, x0:x1] = img[y0:y1, x0:x1]
    return moved, loc


@pytest.mark.parametrize("dy_mm", [2.2, 2.8])
def test_a_code_moved_past_the_near_search_is_read_and_matched(kraken_flat, monkeypatch, dy_mm):
    """A code 2 to 3 mm from where the markers put it: its finders are looked for farther, so it decodes
    module by module, and when it will not, its modules match; looked for near alone, neither."""
    from sheetgen.scan import image as I
    moved, loc = _code_moved(kraken_flat, dy_mm)
    gray = cv2.cvtColor(moved, cv2.COLOR_BGR2GRAY)
    assert I.read_qr_grid(gray, loc, 0.1, I.qr_reach(loc)[-1]) == KRAKEN
    assert I.read_qr(gray, loc, 0.1) == KRAKEN
    ID.forget_seen()
    ident, how = ID.identify(gray, loc, 0.1)
    assert ident is not None and ident.encode() == KRAKEN, how
    monkeypatch.setattr(I, "QR_REACH_FAR", I.QR_REACH)
    assert I.read_qr_grid(gray, loc, 0.1) in (None, "")
    ID.forget_seen()
    assert ID.identify(gray, loc, 0.1)[0] is None
