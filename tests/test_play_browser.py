"""`sheetgen play` in a real browser (Debian's chromium, tests/browser.py): a whole Foury round
played by taps at phone size (360x740) and at desktop size, the page checked against the
engine after every step; screenshots saved to output/screenshots/ to look at."""
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import tracker_for
from sheetgen.tracker.journal import Journal
from sheetgen.web.play import make_play_app
from tests.browser import SHOTS, browser, gone, live_server  # noqa: F401  (pytest fixtures)

LOGS = Path(__file__).parent / "data" / "foury_logs"
HALL = LOGS / "test-hall.yaml"
ROUND_A = yaml.safe_load((LOGS / "legal-round-a-then-c.yaml").read_text())["rounds"][0]


def _engine(journal):
    with Journal(journal) as j:
        g = j.current()
        steps = j.steps(g.id)
        return tracker_for(g.ruleset).replay(g.header, steps).game, steps


def _wait_for_step(page, journal, count):
    import time
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if len(_engine(journal)[1]) == count and page.execute_script("return document.readyState") == "complete":
            return
        time.sleep(0.05)
    raise AssertionError(f"the page did not record step {count}")


@pytest.mark.parametrize("width, height, name", [(360, 740, "phone"), (1280, 900, "desktop")])
def test_a_whole_round_by_taps(tmp_path, live_server, browser, width, height, name):  # noqa: F811
    from selenium.webdriver.common.by import By
    journal = tmp_path / "j.sqlite"
    res = CliRunner().invoke(main, ["track", "new", "--map", str(HALL), "--journal", str(journal),
                                    "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"])
    assert res.exit_code == 0
    url = live_server(make_play_app(journal), "/g/1")
    page = browser(width, height)
    page.get(url)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.save_screenshot(str(SHOTS / f"play-{name}-0-start.png"))
    def tap(css, loads=True):
        """Tap CSS; when the tap loads the next page, wait until it has."""
        from selenium.webdriver.support.ui import WebDriverWait
        old = page.find_element(By.TAG_NAME, "html")
        el = page.find_element(By.CSS_SELECTOR, css)
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()
        if loads:
            WebDriverWait(page, 10).until(gone(old))
            WebDriverWait(page, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")

    tap("#dice-ask")

    count = 0
    tap(f"#in-{ROUND_A['entry'].replace(':', '-')} rect")
    count += 1
    _wait_for_step(page, journal, count)
    for step in ROUND_A["steps"]:
        if isinstance(step, dict) and "sheet" in step:
            continue
        if isinstance(step, dict) and "move" in step:
            tap(f"#go-{step['move']} rect")
            if "roll" in step:
                tap(f"#die-{step['roll']}")          # the die panel: my real die's face
        elif isinstance(step, dict) and "fight" in step:
            f = step["fight"]
            # the rules' order: my die, then the weapon (kept), then the foe's die
            if count == 3:
                page.save_screenshot(str(SHOTS / f"play-{name}-2-fight-start.png"))
            tap(f"#fight-die-{f['hero']}")
            tap("#fight-no-weapon")
            tap(f"#fight-die-{f['enemy']}")
            if count == 3:
                page.save_screenshot(str(SHOTS / f"play-{name}-2-fight.png"))
            total = page.find_element(By.ID, "fight-total").text
            assert total.startswith(f"you {f['hero']} against"), total
            tap("#fight-go")
        elif step == "flee":
            tap("form.act button.flee")
        elif isinstance(step, dict) and "oracle" in step:
            field = page.find_element(By.ID, "oracle-words")
            page.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
            field.send_keys(step["oracle"]["words"])
            tap("#oracle-form button")
        elif isinstance(step, dict) and "exit" in step:
            tap("form.act button.exit")
        elif isinstance(step, dict) and "market" in step:
            tap("#market summary", loads=False)
            spend = page.find_element(By.NAME, "spend")
            spend.clear()
            spend.send_keys("1")
            hearts = page.find_element(By.NAME, "gain_hearts")
            hearts.clear()
            hearts.send_keys("1")
            tap("#market button")
        else:
            raise AssertionError(f"no tap for {step}")
        count += 1
        _wait_for_step(page, journal, count)
        game, steps = _engine(journal)
        # the page against the engine: the step recorded, the resources shown, the taps offered
        assert steps[-1] == step or (isinstance(step, dict) and "market" in step and "market" in steps[-1]), \
            (steps[-1], step)
        for res_name in ("hearts", "shields", "weapon", "chests", "clovers"):
            shown = page.find_element(By.CSS_SELECTOR, f"#res-{res_name} b").text
            assert int(shown) == game.res[res_name], (res_name, step)
        told = page.find_elements(By.CSS_SELECTOR, "#told li")
        assert told, step
        legal = sorted(f"go-{chr(65 + a.to[0])}{a.to[1] + 1}" for a in game.rules.legal_actions(game)
                       if type(a).__name__ == "Move")
        assert sorted(e.get_attribute("id") for e in page.find_elements(By.CSS_SELECTOR, "a.target")
                      if e.get_attribute("id").startswith("go-")) == legal
        if step == {"move": "B2", "roll": 2}:
            # the walls of the roll, by side, highlighted on the map
            assert any("draw walls:" in e.text for e in told)
            assert page.find_elements(By.CSS_SELECTOR, "#highlight .hl.wall, [id^='hl-wall-']")
            page.save_screenshot(str(SHOTS / f"play-{name}-1-walls.png"))
    game, _ = _engine(journal)
    assert game.completed == 1 and game.res["hearts"] == 5
    page.save_screenshot(str(SHOTS / f"play-{name}-3-round-done.png"))
    # the phone: nothing wider than the screen, every control a finger's size (44 css px)
    if name == "phone":
        assert page.execute_script("return document.documentElement.scrollWidth") <= width
        assert small_controls(page) == []


def small_controls(page) -> list:
    """The visible controls smaller than 44 css px tall (a checkbox or radio counts by its label)."""
    return page.execute_script(
        "return [...document.querySelectorAll('button, .button, select, input, summary, label.die span')]"
        ".filter(b => b.offsetParent && b.type !== 'hidden')"
        ".map(b => (b.type === 'checkbox' || b.type === 'radio') ? (b.closest('label') || b) : b)"
        ".filter(b => b.getBoundingClientRect().height < 44)"
        ".map(b => b.tagName + ':' + (b.textContent.trim() || b.name || b.id))")


def test_the_shield_is_offered_only_for_a_hit(tmp_path, live_server, browser):  # noqa: F811
    from selenium.webdriver.common.by import By
    journal = tmp_path / "j.sqlite"
    CliRunner().invoke(main, ["track", "new", "--map", str(HALL), "--journal", str(journal),
                              "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"])
    for step in ("enter C1:N", "move C1 --roll 6", "move B1"):
        assert CliRunner().invoke(main, ["track", *step.split(), "--journal", str(journal)]).exit_code == 0
    page = browser(360, 740)
    page.get(live_server(make_play_app(journal), "/g/1"))      # no dice mode yet: the fight asks my dice

    def pick(css):
        el = page.find_element(By.CSS_SELECTOR, css)
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()
    pick("#fight-die-5")
    pick("#fight-no-weapon")
    pick("#fight-die-2")
    assert not page.find_elements(By.ID, "fight-shield")      # 5 beats 2: no hit to block
    assert "you win" in page.find_element(By.ID, "fight-total").text
    pick("#fight-restart")
    pick("#fight-die-5")
    pick("#fight-no-weapon")
    pick("#fight-die-6")
    assert page.find_element(By.ID, "fight-shield").is_displayed()     # 5 against 6: a hit
    assert "you are hit, lose 1 heart(s)" in page.find_element(By.ID, "fight-total").text


# the fast lane leaves these out (README): a real chromium per test
pytestmark = pytest.mark.browser
