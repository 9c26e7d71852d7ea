"""The review page of `sheetgen scan --review` in Debian's chromium, at phone width (360 px) and
desktop width: no page wider than the screen, a tap on a region of the sheet flips it and the
verdict follows, the list's button flips it back; screenshots in output/screenshots."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")

from tests.browser import SHOTS, browser, gone, live_server  # noqa: E402,F401  (pytest fixtures)
from tests.review_photo import WALL, review_session, tampered_photo  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.photo]


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> Path:
    return tampered_photo(tmp_path_factory.mktemp("review-browser"))


def _tap_at(element):
    """A real pointer tap on ELEMENT, a third of the way along it (a wall's SVG line has no width to
    click by element; its middle is where a path between the two rooms crosses it)."""
    def tap(page) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        x, y = page.execute_script("const b = arguments[0].getBoundingClientRect();"
                                   "return [b.left + b.width / 3, b.top + b.height / 3];", element)
        builder = ActionBuilder(page)
        builder.pointer_action.move_to_location(int(x), int(y)).click()
        builder.perform()
    return tap


def _submit_and_wait(page, element) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    old = page.find_element(By.TAG_NAME, "html")
    element(page) if callable(element) else element.click()
    WebDriverWait(page, 20).until(gone(old))
    WebDriverWait(page, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")


@pytest.mark.parametrize("width, height", [(360, 740), (1280, 900)])
def test_a_tap_on_the_sheet_flips_a_region_and_the_check_follows(photo, tmp_path, live_server, browser,  # noqa: F811
                                                                  width, height):
    from selenium.webdriver.common.by import By

    from sheetgen.web.review import make_review_app
    session = review_session(photo, tmp_path)
    number = [r["id"] for r in session.regions()].index(WALL)
    page = browser(width, height)
    page.get(live_server(make_review_app(session)))
    assert "Not consistent" in page.find_element(By.ID, "verdict").text
    assert page.execute_script("return document.documentElement.scrollWidth") <= width
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.save_screenshot(str(SHOTS / f"review-{width}.png"))
    if width < 600:
        page.find_element(By.ID, "zoom").click()       # a wall is a few px wide on a phone: zoom first
        assert "zoomed" in page.find_element(By.ID, "frame").get_attribute("class")
    wall = page.find_element(By.CSS_SELECTOR, f'svg [data-n="{number}"]')
    page.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", wall)
    _submit_and_wait(page, _tap_at(wall))
    verdict = page.find_element(By.ID, "verdict").text
    assert "Consistent after 1 correction of yours" in verdict, (verdict, session.result.corrections)
    assert session.summary()["corrections"] == 1
    assert "corrections:" in session.yaml_path.read_text(encoding="utf-8")
    item = page.find_element(By.ID, f"r{number}")
    assert "you said: empty" in item.text
    page.execute_script("arguments[0].scrollIntoView()", item)
    page.save_screenshot(str(SHOTS / f"review-{width}-corrected.png"))
    _submit_and_wait(page, page.find_element(By.CSS_SELECTOR, f"#r{number} button"))
    assert "Not consistent" in page.find_element(By.ID, "verdict").text
    assert session.summary()["corrections"] == 0
