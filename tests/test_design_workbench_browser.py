"""The workbench's keyboard map and Suggest in a real browser (headless chromium, tests/browser.py):
a cursor cell moved by the arrows paints, places items and toggles walls with no pointer, and says
what is under it (aria-live); a refused edit puts its field back and its message stays until
dismissed; Suggest runs with progress and its result changes the map only when applied (issue 31).
Screenshots at a phone's width and a desktop's (output/screenshots/, to look at)."""
import shutil
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from sheetgen.games.foury import design as D
from sheetgen.web.design import make_design_app, open_workbench
from tests.browser import SHOTS, browser, live_server  # noqa: F401  (pytest fixtures)
from tests.test_accessibility_browser import _findings
from tests.test_design_browser import button, settled, wait

STORY = Path(__file__).parent.parent / "layouts" / "foury" / "ancient-story.yaml"
pytestmark = pytest.mark.browser


@pytest.fixture
def story(tmp_path, monkeypatch):
    monkeypatch.setattr(D, "SUGGEST_BUDGETS", (2000, 3000))      # a short search (the page's choices)
    path = tmp_path / "story.yaml"
    shutil.copy(STORY, path)
    return path


def keys(page, *sequence) -> None:
    """Keys typed where the focus is (the map), each change answered before the next."""
    for k in sequence:
        ActionChains(page).send_keys(k).perform()
        settled(page)


def shift(page, key) -> None:
    ActionChains(page).key_down(Keys.SHIFT).send_keys(key).key_up(Keys.SHIFT).perform()
    settled(page)


def said(page) -> str:
    return page.find_element(By.ID, "cursor-say").get_attribute("textContent")


def js(page, script: str, *args):
    return page.execute_script(script, *args)


def test_the_map_from_the_keyboard_alone(story, live_server, browser):  # noqa: F811
    before = story.read_text()
    draft, designer = open_workbench(story)
    url = live_server(make_design_app(draft, designer))
    page = browser(1280, 900)
    page.get(url)
    settled(page)
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)                         # the first Tab stop after the header's buttons...
    for _ in range(40):                              # ...Tab until the map has the focus, as a user would
        if js(page, "return document.activeElement.id") == "map":
            break
        ActionChains(page).send_keys(Keys.TAB).perform()
    assert js(page, "return document.activeElement.id") == "map"
    assert js(page, "return getComputedStyle(document.getElementById('cursor')).display") != "none"
    assert said(page).startswith("A1, zone A")
    keys(page, Keys.ARROW_RIGHT, Keys.ARROW_DOWN)
    assert page.find_element(By.ID, "map").get_attribute("data-cursor") == "B2"
    assert said(page).startswith("B2, zone A (The Temple)") and "walls west" in said(page)   # A2:E
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.save_screenshot(str(SHOTS / "design-desktop-keyboard.png"))
    # I: the items tool; Enter places the chosen item (a statue) on the cursor's cell
    keys(page, "i")
    assert "mode-items" in body.get_attribute("class")
    keys(page, Keys.ENTER)
    assert page.find_elements(By.ID, "item-B2-statue") and "items statue" in said(page)
    # ] picks the next item: the palette says which, and Enter places it too
    keys(page, "]")
    chosen = js(page, "return document.querySelector('.item[aria-pressed=true]').dataset.item")
    assert chosen != "statue" and said(page) == f"item {chosen}"
    # Shift+arrow: the wall on that side of the cursor cell
    shift(page, Keys.ARROW_DOWN)
    assert js(page, "return !!(document.getElementById('wall-B2-S') || document.getElementById('wall-B3-N'))")
    assert "walls south, west" in said(page)
    # P, then [ back from the first zone to rock; Space paints the cursor's cell
    keys(page, "p", "[")
    assert "rock" in said(page)
    keys(page, Keys.SPACE)
    assert page.find_element(By.ID, "cell-B2").get_attribute("class") == "cell rock"
    assert said(page).startswith("B2, rock")
    # the focus stayed on the map all along
    assert js(page, "return document.activeElement.id") == "map"
    for _ in range(3):
        button(page, "#undo")
    assert page.find_element(By.ID, "save").get_attribute("disabled") == "true"
    assert story.read_text() == before


def test_a_refused_edit_puts_the_field_back_and_its_message_stays(story, live_server, browser):  # noqa: F811
    draft, designer = open_workbench(story)
    page = browser(360, 740)
    page.get(live_server(make_design_app(draft, designer)))
    settled(page)
    button(page, '[data-tab="options"]')
    start = page.find_element(By.CSS_SELECTOR, '#options [name="start"]')
    start.send_keys("Z99", Keys.TAB)
    settled(page)
    message = page.find_element(By.ID, "message")
    assert message.is_displayed() and "Z99" in message.text
    assert start.get_attribute("value") == ""                  # the draft's value (none), not the refused one
    # another change meanwhile: the message is still there until the designer dismisses it
    title = page.find_element(By.CSS_SELECTOR, '#options [name="title"]')
    title.send_keys(" II", Keys.TAB)
    settled(page)
    assert message.is_displayed() and "Z99" in message.text
    button(page, "#message-dismiss")
    assert not message.is_displayed()


@pytest.mark.parametrize("width, height", [(360, 740), (1280, 900)])
def test_suggest_offers_a_map_and_applies_it_when_asked(story, live_server, browser, width, height):  # noqa: F811
    before = story.read_text()
    draft, designer = open_workbench(story)
    page = browser(width, height)
    page.get(live_server(make_design_app(draft, designer)))
    settled(page)
    button(page, '[data-tab="suggest"]')
    for part in ("zones", "walls"):
        button(page, f'#tab-suggest input[name="keep"][value="{part}"]')
    rate = page.find_element(By.ID, "suggest-rate")
    rate.send_keys(Keys.CONTROL, "a")
    rate.send_keys("30")
    button(page, "#suggest")
    apply = wait(page, lambda: page.find_elements(By.ID, "suggest-apply"), "the suggestion", 180)[0]
    verdict = page.find_element(By.ID, "suggest-verdict").text
    assert "target 30.0%" in verdict and ("Found" in verdict or "closest" in verdict)
    assert len(page.find_elements(By.CSS_SELECTOR, "#suggest-result ol li")) >= 1
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", apply)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.save_screenshot(str(SHOTS / f"design-suggest-{width}.png"))
    assert _findings(page) == []                                 # axe: the Suggest tab with its result
    # offered, not applied: the draft and the file unchanged; a reload offers it again
    assert not page.find_element(By.ID, "dirty").is_displayed() and story.read_text() == before
    page.refresh()
    settled(page)
    button(page, '[data-tab="suggest"]')
    wait(page, lambda: page.find_elements(By.ID, "suggest-apply"), "the suggestion offered again")
    button(page, "#suggest-apply")
    assert page.find_element(By.ID, "save").get_attribute("disabled") is None        # dirty: Save is the designer's
    assert story.read_text() == before
    assert "Applied" in page.find_element(By.ID, "suggest-result").text
    yaml = page.execute_script("const r = new XMLHttpRequest(); r.open('GET', '/api/yaml', false); r.send();"
                               "return r.responseText;")
    assert "(written by `sheetgen generate map`)" in yaml and yaml != before      # the suggestion is the draft
    button(page, "#undo")
    assert page.find_element(By.ID, "save").get_attribute("disabled") == "true"
