"""Issue 28 in a real browser at phone size and desktop size: a fight's panel in view when the
fight starts, every control at least 44 css px, the dark scheme; screenshots saved to
output/screenshots/ to look at."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.web.play import make_play_app
from tests.browser import SHOTS, browser, gone, live_server  # noqa: F401  (pytest fixtures)
from tests.test_play_browser import small_controls

HALL = Path(__file__).parent / "data" / "foury_logs" / "test-hall.yaml"


def _game(journal, *steps):
    run = CliRunner().invoke
    assert run(main, ["track", "new", "--map", str(HALL), "--journal", str(journal),
                      "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"]).exit_code == 0
    assert run(main, ["track", "dice", "ask", "--journal", str(journal)]).exit_code == 0
    for step in steps:
        assert run(main, ["track", "step", json.dumps(step), "--journal", str(journal)]).exit_code == 0


def _in_view(page, element_id) -> bool:
    return page.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.top >= -2 && r.top < window.innerHeight - 60", element_id)


@pytest.mark.parametrize("width, height, name", [(360, 740, "phone"), (1280, 900, "desktop")])
def test_a_fight_in_view_in_the_rules_order_and_big_controls(tmp_path, live_server, browser, width, height, name):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    journal = tmp_path / "j.sqlite"
    _game(journal, {"entry": "C1:N"}, {"move": "C1", "roll": 6})
    page = browser(width, height)
    page.get(live_server(make_play_app(journal), "/g/1"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.save_screenshot(str(SHOTS / f"companion-{name}-0-before.png"))
    # the extra step into B1: the statue's fight starts
    target = page.find_element(By.CSS_SELECTOR, "#go-B1 rect")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
    old = page.find_element(By.TAG_NAME, "html")
    target.click()
    WebDriverWait(page, 10).until(gone(old))
    WebDriverWait(page, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert page.find_element(By.ID, "fight").is_displayed()
    page.save_screenshot(str(SHOTS / f"companion-{name}-1-fight-starts.png"))
    assert _in_view(page, "fight"), page.execute_script("return [window.scrollY, window.innerHeight, document.getElementById('fight').getBoundingClientRect().top, location.href]")
    assert "A fight: face the statue" in page.find_element(By.CSS_SELECTOR, "p.hint").text
    page.save_screenshot(str(SHOTS / f"companion-{name}-1-fight-starts.png"))
    assert small_controls(page) == []
    for css in ("#fight-die-2", "#fight-weapon", "#fight-die-6"):
        el = page.find_element(By.CSS_SELECTOR, css)
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        old = page.find_element(By.TAG_NAME, "html")
        el.click()
        WebDriverWait(page, 10).until(gone(old))
        WebDriverWait(page, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    assert "you are hit, lose 2 heart(s)" in page.find_element(By.ID, "fight-total").text
    assert page.find_element(By.ID, "fight-shield").is_displayed()
    assert page.find_element(By.ID, "clover-enemy").is_displayed()
    assert _in_view(page, "fight")
    page.save_screenshot(str(SHOTS / f"companion-{name}-2-lost-exchange.png"))
    assert small_controls(page) == []
    if name == "phone":
        assert page.execute_script("return document.documentElement.scrollWidth") <= width


def test_the_dark_scheme(tmp_path, live_server, browser):  # noqa: F811
    journal = tmp_path / "j.sqlite"
    _game(journal, {"entry": "C1:N"})
    page = browser(360, 740)
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme",
                                                                       "value": "dark"}]})
    page.get(live_server(make_play_app(journal), "/g/1"))
    background = page.execute_script("return getComputedStyle(document.body).backgroundColor")
    ink = page.execute_script("return getComputedStyle(document.querySelector('.box')).color")
    box = page.execute_script("return getComputedStyle(document.querySelector('.box')).backgroundColor")

    def light(rgb):
        r, g, b = (int(x) for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
        return (r + g + b) / 3
    assert light(background) < 60 and light(box) < 60 and light(ink) > 180, (background, box, ink)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.save_screenshot(str(SHOTS / "companion-phone-dark.png"))


pytestmark = pytest.mark.browser
