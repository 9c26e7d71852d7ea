"""Corner markers on blurred and tilted photos (issue 27, the identity figure): a marker ArUco
cannot decode is read softly where the others and the page's outline put it, and a photo whose
markers are lost to blur is refused with the blur measured, not as covered.

The photos are the simulator's with cameras that are not the family corpus's (its recipes'
logs and hands, other cameras)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from sheetgen.draw import scanmarks as SM                          # noqa: E402
from sheetgen.errors import InputError                              # noqa: E402
from sheetgen.scan import image as I                                # noqa: E402
from sheetgen.scan.pipeline import scan_photo                       # noqa: E402
from sheetgen.testing.corpus import load_recipes, pdftoppm_available, photo_of  # noqa: E402

FAMILY_RECIPES = Path(__file__).parent / "data" / "scan" / "families.yaml"

LAYOUT = ("a4", "portrait")
K = 6.0                                     # px a mm of the drawn page


def _page_with(markers: dict, blur_mm: float) -> np.ndarray:
    """A blank A4 page k px a mm with the given markers (corner -> id) where the page puts its
    corners' markers, blurred by blur_mm (sigma), a little noise."""
    w, h = SM.page_size(*LAYOUT)
    page = np.full((int(h * K), int(w * K)), 230, np.uint8)
    aruco = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for corner, mid in markers.items():
        x, y, s, _ = SM.marker_box(w, h, corner)
        m = cv2.aruco.generateImageMarker(aruco, mid, int(s * K))
        page[int(y * K):int(y * K) + m.shape[0], int(x * K):int(x * K) + m.shape[1]] = np.where(m > 0, 230, 30)
    blurred = cv2.GaussianBlur(page.astype(np.float32), (0, 0), blur_mm * K)
    return np.clip(blurred + np.random.default_rng(7).normal(0, 3, page.shape), 0, 255).astype(np.uint8)


def test_a_marker_too_blurred_for_its_bits_is_read_softly_where_it_is_expected():
    w, h = SM.page_size(*LAYOUT)
    H = np.diag([K, K, 1.0])                # page mm -> pixels of the drawn page
    want = SM.marker_id(*LAYOUT, "top-right")
    gray = _page_with({"top-right": want}, 0.7)
    # ArUco's bit-by-bit read gives up at this blur (a 1 mm cell, sigma 0.7 mm) ...
    assert I._close_up(gray, H, LAYOUT, "top-right", 4.0) is None
    # ... the soft read finds the corner's own id, its corners within a cell of where it is drawn
    got = I._close_up(gray, H, LAYOUT, "top-right", 4.0, soft=True)
    assert got is not None
    mid, quad, soft = got
    assert (mid, soft) == (want, True)
    drawn = np.array(SM.marker_corners(w, h, "top-right")) * K
    assert np.abs(quad - drawn).max() < K


def test_the_soft_read_takes_no_other_id_than_the_corner_s_own():
    # the top-right corner's marker drawn where the top-left's should be: a marker, the wrong one
    gray = _page_with({"top-left": SM.marker_id(*LAYOUT, "top-right")}, 0.7)
    assert I._close_up(gray, np.diag([K, K, 1.0]), LAYOUT, "top-left", 4.0, soft=True) is None
    # and a sharp wrong marker is not taken either (ArUco reads it, as another id)
    gray = _page_with({"top-left": SM.marker_id(*LAYOUT, "top-right")}, 0.1)
    assert I._close_up(gray, np.diag([K, K, 1.0]), LAYOUT, "top-left", 4.0, soft=True) is None


@pytest.fixture(scope="module")
def recipes():
    if not pdftoppm_available():
        pytest.fail("pdftoppm (poppler-utils) is needed to rasterise the corpus: apt-get install poppler-utils")
    return {r.id: r for r in load_recipes(FAMILY_RECIPES)}


# a tilted, blurred 2 MP camera with a shadow across the page (not one of the family corpus's):
# the frame's detectors find only the top-left and bottom-left markers (two on one side)
TILTED = dict(megapixels=2, rotation=229.25, tilt=31.94, tilt_axis=144.99, fill=0.84, shift=(0.641, -0.302),
              k1=0.0004, light=0.123, light_angle=268.5, shadow=0.183, shadow_line=(0.52, 77.8),
              cast=(0.927, 0.921, 0.971), blur=1.516, noise=3.32, jpeg=52, background=4206, seed=1682621287,
              motion=0.0)


@pytest.mark.photo
def test_markers_lost_to_blur_and_tilt_are_found_where_the_others_and_the_outline_put_them(recipes):
    recipe = recipes["baseline-01"]
    cam = replace(recipe.camera, **TILTED)
    sharp = I.find_markers(cv2.cvtColor(photo_of(replace(recipe, camera=replace(cam, blur=0.0)))[0],
                                        cv2.COLOR_BGR2GRAY))
    assert sorted(sharp.corners) == sorted(SM.CORNERS)          # the same page, sharp: where they are
    img, _ = photo_of(replace(recipe, camera=cam))
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    markers = I.find_markers(gray)
    assert sorted(markers.corners) == sorted(SM.CORNERS)
    assert markers.soft                                         # some only the soft read made out
    for corner, quad in markers.corners.items():
        cell = np.mean(np.hypot(*(quad - np.roll(quad, 1, axis=0)).T)) / 6
        assert np.abs(quad - sharp.corners[corner]).max() < cell, corner
    loc = I.locate(img, gray, "tilted", markers)
    assert loc.error_px < 3.0


@pytest.mark.photo
@pytest.mark.parametrize("rid, blur", [("baseline-01", 2.4), ("baseline-02", 2.6)])
def test_a_photo_whose_markers_are_lost_to_blur_is_refused_with_the_blur_measured(recipes, rid, blur):
    """Not 'covered, in a shadow or a reflection?': the blur fitted on the markers found, taken to
    the missing ones' place, against the reader's limit."""
    recipe = recipes[rid]
    img, _ = photo_of(replace(recipe, camera=replace(recipe.camera, blur=blur)))
    with pytest.raises(InputError) as exc:
        scan_photo(rid, img=img)
    problem = exc.value.problems[0]
    assert problem.message.startswith("too blurred"), problem.message
    assert "covered" not in problem.message
    spread = float(problem.message.split("spread over ")[1].split(" mm")[0])
    assert spread > I.MAX_BLUR_MM
    assert f"at most {I.MAX_BLUR_MM:.2f} mm" in problem.expected


@pytest.mark.photo
@pytest.mark.parametrize("rid, length, angle", [("baseline-02", 14.0, 30.0), ("baseline-01", 13.0, 100.0)])
def test_a_shaken_photo_without_markers_found_is_refused_as_shaken(recipes, rid, length, angle):
    """No --sheet and no marker found: the shake is measured per direction on the whole photo (the
    steepest edges of all lie along the shake, sharp)."""
    recipe = recipes[rid]
    img, _ = photo_of(replace(recipe, camera=replace(recipe.camera, blur=0.2, motion=length, motion_angle=angle)))
    with pytest.raises(InputError) as exc:
        scan_photo(rid, img=img)
    problem = exc.value.problems[0]
    assert "too blurred to find the sheet's markers: the phone moved" in problem.message, problem.message
    most, least = (float(v) for v in problem.message.split("spread over ")[1].replace(" px the other", "")
                   .split(" (sigma)")[0].split(" px one way and "))
    assert most > 3.0 and most > 1.6 * least
    assert "hold the phone still" in problem.expected
