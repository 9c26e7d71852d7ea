"""The workbench in a real browser (headless chromium, tests/browser.py): a 5x5 map painted from
nothing to a valid, playable map; the YAML written validates and builds; a playtest and a print
preview; screenshots at a phone's width and a desktop's (output/screenshots/, to look at)."""
import pytest
import time

from click.testing import CliRunner
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from sheetgen.cli import main
from sheetgen.games.foury import board as fb
from sheetgen.games.foury.formats.map import lint, load_map
from sheetgen.web.design import make_design_app, open_workbench
from tests.browser import SHOTS, browser, live_server  # noqa: F401  (pytest fixtures)

HALL_ROWS = ["A A A A A", "D A A A B", "D D O B B", "D C C C B", "C C C C C"]
HALL_ENTRIES = ["C1-N", "E3-E", "C5-S", "A3-W", "A1-N", "E5-S", "A5-W", "E2-E"]
HALL_ITEMS = {"statue": ["B1", "B2", "E1"], "chest": ["D2"], "cornucopia": ["A4"], "stairs": ["B4"],
              "lever": ["D4", "A5"], "orc": ["E4"]}


def wait(page, condition, what: str, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = condition()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


def settled(page):
    """Every change sent has its answer (the page's state is the server's)."""
    wait(page, lambda: page.execute_script("return document.body.dataset.ready === '1' && "
                                           "(document.body.dataset.pending || '0') === '0'"), "the page to settle")


def point_of(page, element_id: str) -> tuple[float, float]:
    return page.execute_script(
        "const el = document.getElementById(arguments[0]); el.scrollIntoView({block: 'center'});"
        "const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", element_id)


def tap(page, element_id: str) -> None:
    """A pointer click where the element is drawn (SVG hit lines are transparent)."""
    x, y = point_of(page, element_id)
    actions = ActionBuilder(page)
    actions.pointer_action.move_to_location(int(x), int(y)).click()
    actions.perform()
    settled(page)


def drag(page, ids: list[str], touch: bool = False) -> None:
    """Press on the first element, move over the others, release: one paint stroke (a finger's
    with touch)."""
    points = [point_of(page, i) for i in ids]
    actions = ActionBuilder(page, mouse=PointerInput(interaction.POINTER_TOUCH, "finger")) if touch \
        else ActionBuilder(page)
    actions.pointer_action.move_to_location(int(points[0][0]), int(points[0][1])).pointer_down()
    for x, y in points[1:]:
        actions.pointer_action.move_to_location(int(x), int(y))
    actions.pointer_action.pointer_up()
    actions.perform()
    settled(page)


def button(page, css: str):
    el = page.find_element(By.CSS_SELECTOR, css)
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    el.click()
    settled(page)
    return el


def test_a_map_painted_from_nothing_in_the_browser_validates_builds_and_plays(tmp_path, live_server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "cellar.yaml"
    draft, designer = open_workbench(path, (5, 5))
    url = live_server(make_design_app(draft, designer))
    page = browser(1280, 900)
    page.get(url)
    settled(page)
    assert "error" in page.find_element(By.ID, "counts").text           # nothing yet: no centre, no entries

    # the zones, one stroke a row run, each letter new (+ zone gives the next free one)
    for letter in "ABCD":
        button(page, "#new-zone")
        assert page.find_element(By.CSS_SELECTOR, f'.swatch[data-symbol="{letter}"]').get_attribute(
            "aria-pressed") == "true"
        cells = [fb.cell_name((x, y)) for y, row in enumerate(HALL_ROWS) for x, s in enumerate(row.split())
                 if s == letter]
        runs, run = [], [cells[0]]               # a drag over each run of a row, a click for a lone cell
        for a, b in zip(cells, cells[1:]):
            if b[1:] == a[1:] and ord(b[0]) == ord(a[0]) + 1:
                run.append(b)
            else:
                runs.append(run)
                run = [b]
        runs.append(run)
        for run in runs:
            drag(page, [f"cell-{c}" for c in run]) if len(run) > 1 else tap(page, f"cell-{run[0]}")
    # two centre rooms for a moment: the finding outlines both cells on the map
    button(page, '.swatch[data-symbol="O"]')
    tap(page, "cell-C3")
    tap(page, "cell-D3")
    outlined = page.execute_script("return Array.from(document.querySelectorAll('#overlay rect.finding'))"
                                   ".map(r => [r.getAttribute('x'), r.getAttribute('y')])")
    assert ["32", "32"] in outlined and ["42", "32"] in outlined, outlined      # C3 and D3 (margin 12, cell 10)
    assert any("centre rooms" in li.text for li in page.find_elements(By.CSS_SELECTOR, "#findings li"))
    button(page, "#undo")
    assert page.find_element(By.ID, "cell-D3").get_attribute("class") == "cell zone-B"

    # entries on border edges, one wall inside
    button(page, '[data-mode="edges"]')
    for edge in HALL_ENTRIES:
        tap(page, f"edge-{edge}")
    tap(page, "edge-B3-E")
    for edge in HALL_ENTRIES:
        assert page.find_elements(By.ID, "entry-" + edge), edge
    assert page.find_elements(By.ID, "wall-B3-E")

    # items from the palette of icons
    button(page, '[data-mode="items"]')
    for name, cells in HALL_ITEMS.items():
        button(page, f'.item[data-item="{name}"]')
        for cell in cells:
            tap(page, f"cell-{cell}")
    assert page.find_elements(By.ID, "item-B1-statue") and page.find_elements(By.ID, "item-E4-orc")

    # a zone's name and one event, typed in the zones tab
    button(page, '[data-tab="zones"]')
    name = page.find_element(By.CSS_SELECTOR, '[data-key="zone-A-name"]')
    name.send_keys(Keys.CONTROL, "a")             # typed over, as a designer does (clear() would send an empty name)
    name.send_keys("The Flooded Temple", Keys.TAB)
    settled(page)
    event = page.find_element(By.CSS_SELECTOR, '[data-key="zone-A-event-6"]')
    event.send_keys(Keys.CONTROL, "a")
    event.send_keys("find potion", Keys.TAB)
    settled(page)
    button(page, '[data-tab="findings"]')
    counts = page.find_element(By.ID, "counts").text
    assert "0 errors" in counts or counts == "valid", [li.text for li in page.find_elements(By.CSS_SELECTOR, "#findings li")]
    page.save_screenshot(str(SHOTS / "design-desktop.png"))

    # save: the file written validates, builds and plays
    button(page, "#save")
    assert path.exists() and not page.find_element(By.ID, "dirty").is_displayed()
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0 and "ok, map foury" in result.output, result.output
    fmap = load_map(path)
    assert fmap.model.zones["A"].name == "The Flooded Temple" and fmap.model.zones["A"].events[6] == "find potion"
    assert not [f for f in lint(fmap) if f.severity == "error"]
    result = CliRunner().invoke(main, ["build", str(path), "-o", str(tmp_path / "out"), "--format", "pdf"])
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "out").rglob("*.pdf"))

    # a playtest of the saved map, then a change and the comparison with the saved file
    button(page, '[data-tab="playtest"]')
    Select(page.find_element(By.ID, "games")).select_by_visible_text("500")
    button(page, "#playtest")
    wait(page, lambda: page.find_elements(By.ID, "win-rate"), "the playtest's result", 240)
    assert "95% interval" in page.find_element(By.ID, "win-rate").text
    assert page.find_elements(By.CSS_SELECTOR, "#overlay rect.heat")
    # a change not saved yet: the next playtest compares the draft with the saved file
    button(page, '[data-mode="items"]')
    button(page, '.item[data-item="potion"]')
    tap(page, "cell-C2")
    button(page, "#playtest")
    wait(page, lambda: page.find_elements(By.ID, "comparison"), "the comparison with the saved file", 240)
    assert "Against the saved file" in page.find_element(By.ID, "comparison").text
    # the base game beside it, and what each way a game ended means
    assert "The base game (ancient-story)" in page.find_element(By.ID, "base-rate").text
    ends = page.find_element(By.ID, "outcomes").text
    assert "games" in ends and len(page.find_elements(By.CSS_SELECTOR, "#outcomes dd")) >= 1
    page.save_screenshot(str(SHOTS / "design-desktop-playtest.png"))
    assert not page.find_element(By.ID, "stale").is_displayed()
    tap(page, "cell-C2")                                          # the potion taken away again
    assert page.find_element(By.ID, "stale").is_displayed()       # the result is of the map before

    # the print preview of the sheet
    button(page, '[data-tab="print"]')
    button(page, "#preview")
    wait(page, lambda: page.execute_script("const i = document.getElementById('preview-image');"
                                           "return !i.hidden && i.complete && i.naturalWidth > 500"), "the preview")
    page.save_screenshot(str(SHOTS / "design-desktop-print.png"))

    # the same page on a phone
    phone = browser(360, 740)
    phone.get(url)
    settled(phone)
    phone.save_screenshot(str(SHOTS / "design-phone.png"))
    width = phone.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    svg_width = phone.execute_script("return document.querySelector('#map svg').getBoundingClientRect().width")
    assert svg_width >= 300
    button(phone, '[data-tab="zones"]')
    phone.execute_script("document.querySelector('#zones .zone').scrollIntoView()")
    phone.save_screenshot(str(SHOTS / "design-phone-zones.png"))


def test_a_designers_map_opens_and_a_cut_off_zone_is_outlined(tmp_path, live_server, browser):
    import shutil
    from pathlib import Path
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "story.yaml"
    shutil.copy(Path(__file__).parent.parent / "layouts" / "foury" / "ancient-story.yaml", path)
    before = path.read_text()
    draft, designer = open_workbench(path)
    url = live_server(make_design_app(draft, designer))
    page = browser(1280, 900)
    page.get(url)
    settled(page)
    assert page.find_element(By.ID, "counts").text == "valid"
    # rock across the Temple's row 3 and its link to the centre: part of zone A is cut off
    button(page, '.swatch[data-symbol="#"]')
    drag(page, ["cell-A2", "cell-B2", "cell-C2", "cell-D2"])
    drag(page, ["cell-D3", "cell-D4"])
    texts = [li.text for li in page.find_elements(By.CSS_SELECTOR, "#findings li")]
    assert any("zone A is not one connected region" in t for t in texts), texts
    outlined = page.find_elements(By.CSS_SELECTOR, "#overlay rect.finding.error")
    assert outlined, texts
    page.save_screenshot(str(SHOTS / "design-desktop-findings.png"))
    button(page, '[data-tab="options"]')
    assert page.find_element(By.CSS_SELECTOR, '#options [name="campaign"]').get_attribute("value") == "ancient"
    assert "Oracle" in page.find_element(By.ID, "campaign-meaning").text
    page.save_screenshot(str(SHOTS / "design-desktop-options.png"))
    columns = page.find_element(By.ID, "grid-columns")
    columns.send_keys(Keys.CONTROL, "a")
    columns.send_keys("12")
    button(page, "#resize")
    assert page.find_element(By.ID, "cell-L1").get_attribute("class") == "cell rock"
    button(page, "#undo")
    assert not page.find_elements(By.ID, "cell-L1")
    button(page, '[data-tab="zones"]')
    page.save_screenshot(str(SHOTS / "design-desktop-zones.png"))
    phone = browser(360, 740)
    phone.get(url)
    settled(phone)
    # a finger's stroke on the phone paints too
    button(phone, '.swatch[data-symbol="#"]')
    drag(phone, ["cell-H6", "cell-I6", "cell-J6"], touch=True)
    assert [phone.find_element(By.ID, f"cell-{c}").get_attribute("class") for c in ("H6", "I6", "J6")] == \
        ["cell rock"] * 3
    phone.execute_script("document.getElementById('findings').scrollIntoView()")
    phone.save_screenshot(str(SHOTS / "design-phone-findings.png"))
    button(phone, "#undo")
    # undo all of it: the file's text comes back to the byte, comments and all
    page.refresh()                                  # the other window's stroke and undo are the server's
    settled(page)
    for _ in range(2):                              # the two strokes (the resize is undone already)
        button(page, "#undo")
    assert page.find_element(By.ID, "save").get_attribute("disabled") == "true"      # nothing to save
    assert path.read_text() == before


# the fast lane leaves these out (README): a real chromium per test
pytestmark = pytest.mark.browser
