"""Dungeon Foury's 2 Players Mode on two phones, in a real browser (tests/browser.py): one headless
chromium per player at 360 px, each joined as its player (?as=NAME); the game of
tests/data/foury_logs/two_players/legal-meet-duel.yaml is played by taps, the die panel and the duel
form; the phone that did not act follows the table without a reload and offers nothing to tap while
the other player moves; the export passes `sheetgen check`.  axe-core finds nothing serious or
critical on the page at 360 px and desktop width.  Screenshots go to output/screenshots/."""
import json
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import tracker_for
from sheetgen.tracker.journal import Journal
from sheetgen.web.play import make_play_app
from tests.browser import SHOTS, browser, gone, live_server  # noqa: F401  (pytest fixtures)
from tests.test_accessibility_browser import _findings

pytestmark = pytest.mark.browser
HALL = Path(__file__).parent / "data" / "foury_logs" / "test-hall.yaml"
TRAITS = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}
WAIT = 30           # seconds a page may take to follow the table (a bound, not a measure)
# (who, the controls tapped in turn): the die panel's faces after a tap on an unexplored room
SCRIPT = [("Ada", ["#in-C1-N"]), ("Ben", ["#in-E3-E"]),
          ("Ada", ["#go-C1", "#die-6"]), ("Ada", ["#go-D1"]), ("Ben", ["#go-E3", "#die-6"]),
          ("Ada", ["#go-D2", "#die-2"]), ("Ada", ["collect"]), ("Ben", ["#go-D3", "#die-6"]),
          ("Ada", ["#go-D1"]), ("Ben", ["#go-D4", "#die-6"]), ("Ada", ["#go-D2"]), ("Ada", ["#go-D3"]),
          ("Ada", ["#go-D4"])]


def _start(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("foury", tracker_for("foury").start({"map": str(HALL), "players": "Ada,Ben",
                                                               "traits": TRAITS}))
    return path, gid


class Phones:
    def __init__(self, browser, url, path, gid):
        from selenium.webdriver.support.ui import WebDriverWait
        self.path, self.gid, self.url = path, gid, url
        self.pages = {}
        for name in ("Ada", "Ben"):
            page = browser(360, 740)
            page.get(f"{url}/g/{gid}?as={name}")
            WebDriverWait(page, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")
            page.execute_script("window.sheetgenMark = 1")
            self.pages[name] = page

    def steps(self) -> int:
        with Journal(self.path) as j:
            return len(j.steps(self.gid))

    def ready(self, name):
        from selenium.webdriver.support.ui import WebDriverWait
        page = self.pages[name]
        n = str(self.steps())
        WebDriverWait(page, WAIT).until(lambda d: d.execute_script(
            "return document.readyState === 'complete' && document.body.dataset.steps") == n)
        return page

    def click(self, page, css):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
        if css == "collect":
            el = next(f.find_element(By.TAG_NAME, "button") for f in page.find_elements(By.CSS_SELECTOR, "form.act")
                      if '"collect"' in (f.find_element(By.NAME, "step").get_attribute("value") or ""))
        else:
            el = page.find_element(By.CSS_SELECTOR, css + (" rect" if css.startswith(("#go-", "#in-")) else ""))
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        old = page.find_element(By.TAG_NAME, "html")
        el.click()
        WebDriverWait(page, WAIT).until(gone(old))
        WebDriverWait(page, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def act(self, name, controls):
        from selenium.webdriver.common.by import By
        page = self.ready(name)
        before = self.steps()
        for css in controls:
            self.click(page, css)
        page = self.ready(name)
        assert self.steps() == before + 1, page.find_element(By.TAG_NAME, "main").text[:1500]
        assert not page.find_elements(By.ID, "refused")
        page.execute_script("window.sheetgenMark = 1")
        other = "Ben" if name == "Ada" else "Ada"
        watcher = self.ready(other)      # followed the table by itself, without a reload
        assert watcher.execute_script("return window.sheetgenMark") == 1, f"{other}'s page was reloaded"

    def shoot(self, label):
        SHOTS.mkdir(parents=True, exist_ok=True)
        for name, page in self.pages.items():
            page.save_screenshot(str(SHOTS / f"foury-two-{label}-360-{name}.png"))


def test_two_phones_play_a_two_player_game_and_export_it(tmp_path, live_server, browser):  # noqa: F811
    from selenium.webdriver.common.by import By
    path, gid = _start(tmp_path)
    url = live_server(make_play_app(path), "").rstrip("/")
    phones = Phones(browser, url, path, gid)
    ada = phones.pages["Ada"]
    phones.click(ada, "#dice-ask")              # real dice, asked once for the game (both phones)
    phones.shoot("0-start")
    for n, (who, controls) in enumerate(SCRIPT):
        phones.act(who, controls)
        if n == 4:
            ben = phones.pages["Ben"]
            # Ada's turn: Ben's phone says so and has nothing to tap
            assert "It is Ada's turn" in ben.find_element(By.ID, "seat").text
            assert not [e for e in ben.find_elements(By.CSS_SELECTOR, "a.target") if e.is_displayed()]
            phones.shoot("1-middle")
    ben = phones.ready("Ben")
    assert "Ada reached you" in ben.find_element(By.CSS_SELECTOR, "p.hint").text
    assert not ben.find_elements(By.ID, "duel-form")
    ada = phones.ready("Ada")
    assert ada.find_element(By.ID, "duel").is_displayed()
    phones.shoot("2-duel")
    assert _findings(ada) == []         # the duel panel too: nothing serious or critical
    ada.execute_script("window.sheetgenMark = 2")
    for css in ("#duel-form input[name=hero][value='5'] + span", "#duel-form input[name=opponent][value='2'] + span",
                "#duel-weapon"):
        el = ada.find_element(By.CSS_SELECTOR, css)
        ada.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()
    phones.act("Ada", ["#duel-go"])
    ben = phones.ready("Ben")
    assert "Last step, by Ada" in ben.find_element(By.ID, "last").text
    assert ben.find_element(By.ID, "res-hearts").text.startswith("3")
    phones.shoot("3-after-duel")
    for name, page in phones.pages.items():       # the whole page, to look at
        page.set_window_size(360, 2600)
        page.save_screenshot(str(SHOTS / f"foury-two-4-whole-360-{name}.png"))
    text = urllib.request.urlopen(f"{url}/g/{gid}/log.yaml", timeout=WAIT).read().decode()
    out = tmp_path / "exported.yaml"
    out.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(out)])
    assert res.exit_code == 0, res.output + text
    assert "duel: {hero: 5, opponent: 2" in text


@pytest.mark.parametrize("width, height", [(360, 740), (1280, 900)])
def test_the_two_player_page_passes_axe(tmp_path, live_server, browser, width, height):  # noqa: F811
    path, gid = _start(tmp_path)
    with Journal(path) as j:            # both entered: Ada to play, Ben's page follows
        for who, step in (("Ada", {"entry": "C1:N"}), ("Ben", {"entry": "E3:E"})):
            j.append(gid, {"player": who, **step})
    url = live_server(make_play_app(path), "").rstrip("/")
    for name in ("Ada", "Ben"):
        page = browser(width, height)
        page.get(f"{url}/g/{gid}?as={name}")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.save_screenshot(str(SHOTS / f"a11y-foury-two-{name}-{width}.png"))
        found = _findings(page)
        assert found == [], json.dumps(found, indent=1)
