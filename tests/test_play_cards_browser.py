"""The card games at one table in a real browser (tests/browser.py): one headless chromium per
player, each joined as that player (?as=NAME); the player whose turn it is acts by taps, buttons
and forms, and the other players' pages follow the table without a reload (their window keeps a
mark that a reload would drop).  A three-player navigation game clears the dungeon, a four-hero
Shuffle game reaches the Boss room; both exports pass `sheetgen check`.  Screenshots (the first
player at desktop width, the others at 360 px) are saved to output/screenshots/ to look at."""
import json

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import tracker_for
from sheetgen.tracker.journal import Journal
from sheetgen.web.play import make_play_app
from tests.browser import SHOTS, browser, gone, live_server  # noqa: F401  (pytest fixtures)
from tests.cards_page_helpers import SHUFFLE_SCRIPT, SHUFFLE_SETUP, nav_plan

pytestmark = pytest.mark.browser
WAIT = 30           # seconds a page may take to follow the table (a bound, not a measure)


class Table:
    """The phones of the players: one browser each."""

    def __init__(self, browser, url: str, names: list[str], journal, gid: int):
        from selenium.webdriver.support.ui import WebDriverWait
        self.journal, self.gid, self.url = journal, gid, url
        self.pages = {}
        for i, name in enumerate(names):
            page = browser(1280, 900) if i == 0 else browser(360, 740)
            page.get(f"{url}/g/{gid}?as={name}")
            WebDriverWait(page, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")
            page.execute_script("window.sheetgenMark = 1")
            self.pages[name] = page

    def steps(self) -> int:
        with Journal(self.journal) as j:
            return len(j.steps(self.gid))

    def ready(self, name: str) -> object:
        """NAME's page once it shows the table as the journal has it; it must not have reloaded
        to get there unless NAME acted last (their own form loads the next page)."""
        from selenium.webdriver.support.ui import WebDriverWait
        page = self.pages[name]
        n = str(self.steps())
        WebDriverWait(page, WAIT).until(lambda d: d.execute_script(
            "return document.readyState === 'complete' && document.body.dataset.steps") == n)
        return page

    def follows(self, name: str) -> None:
        """NAME did not act: their page followed the table by itself, without a reload."""
        page = self.ready(name)
        assert page.execute_script("return window.sheetgenMark") == 1, f"{name}'s page was reloaded"

    def act(self, name: str, how) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
        page = self.ready(name)
        before = self.steps()
        old = page.find_element(By.TAG_NAME, "html")
        kind, *what = how
        if kind == "tap":
            el = page.find_element(By.ID, what[0])
            page.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
            el.click()
        elif kind == "step":
            for form in page.find_elements(By.CSS_SELECTOR, "form.act"):
                field = form.find_elements(By.CSS_SELECTOR, "input[name=step]")
                if field and field[0].get_attribute("value") and \
                        json.loads(field[0].get_attribute("value")) == what[0]:
                    button = form.find_element(By.TAG_NAME, "button")
                    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
                    button.click()
                    break
            else:
                raise AssertionError(f"{name}'s page offers no button for {what[0]}")
        elif kind == "choose":
            from selenium.webdriver.support.ui import Select
            for select in page.find_elements(By.CSS_SELECTOR, "form.act select[name=step]"):
                option = [o for o in select.find_elements(By.TAG_NAME, "option")
                          if json.loads(o.get_attribute("value")) == what[0]]
                if option:
                    Select(select).select_by_value(option[0].get_attribute("value"))
                    button = select.find_element(By.XPATH, "./ancestor::form//button")
                    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
                    button.click()
                    break
            else:
                raise AssertionError(f"{name}'s page offers no choice of {what[0]}")
        else:
            box_id, fields, submit = what
            box = page.find_element(By.ID, box_id)
            if box.tag_name == "details":
                box.find_element(By.TAG_NAME, "summary").click()
            for key, value in fields.items():
                if isinstance(value, list):
                    for card in value:
                        box.find_element(By.CSS_SELECTOR, f"input[name='{key}.{card}']").click()
                    continue
                el = box.find_element(By.NAME, key)
                if el.tag_name == "select":
                    from selenium.webdriver.support.ui import Select
                    Select(el).select_by_value(value) if el.find_elements(
                        By.CSS_SELECTOR, f"option[value='{value}']") else Select(el).select_by_visible_text(value)
                elif el.get_attribute("type") != "hidden":
                    el.clear()
                    el.send_keys(value)
            button = page.find_element(By.ID, submit)
            page.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        WebDriverWait(page, WAIT).until(gone(old))
        page = self.ready(name)
        assert self.steps() == before + 1, page.find_element(By.TAG_NAME, "main").text[:1500]
        assert not page.find_elements(By.ID, "refused")
        page.execute_script("window.sheetgenMark = 1")
        for other in self.pages:
            if other != name:
                self.follows(other)

    def shoot(self, label: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        for i, (name, page) in enumerate(self.pages.items()):
            if i < 2:
                page.save_screenshot(str(SHOTS / f"{label}-{'desktop' if i == 0 else '360'}-{name}.png"))

    def export_checks(self, tmp_path) -> None:
        import urllib.request
        text = urllib.request.urlopen(f"{self.url}/g/{self.gid}/log.yaml", timeout=WAIT).read().decode()
        out = tmp_path / "exported.yaml"
        out.write_text(text)
        res = CliRunner().invoke(main, ["check", str(out)])
        assert res.exit_code == 0, res.output


def _start(tmp_path, ruleset, params):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game(ruleset, tracker_for(ruleset).start(params))
    return path, gid


def test_three_players_clear_a_navigation_dungeon_each_on_their_phone(tmp_path, live_server, browser):  # noqa: F811
    from selenium.webdriver.common.by import By

    from sheetgen.games.navigation.tracker import ADAPTER
    path, gid = _start(tmp_path, "navigation", {"map": "nav-crypt", "hero": "Ada,Bo,Cy"})
    url = live_server(make_play_app(path), "").rstrip("/")
    table = Table(browser, url, ["Ada", "Bo", "Cy"], path, gid)
    table.shoot("cards-nav-start")
    for n in range(200):
        with Journal(path) as j:
            ts = ADAPTER.replay(j.game(gid).header, j.steps(gid))
        from sheetgen.games.navigation.web import cleared
        if cleared(ts.state):
            break
        kind, what = nav_plan(ts)
        # the others see whose turn it is, and no control to take it
        watcher = table.ready(next(p for p in table.pages if p != ts.player))
        assert not [e for e in watcher.find_elements(By.CSS_SELECTOR, ".card-target, .turn-only") if e.is_displayed()]
        table.act(ts.player, ("tap", f"go-{what}") if kind == "tap" else ("step", what))
        if n == 12:
            table.shoot("cards-nav-middle")
    else:
        pytest.fail("the dungeon was not cleared")
    for name in table.pages:
        page = table.ready(name)
        assert page.find_element(By.ID, "over").is_displayed()
    table.shoot("cards-nav-over")
    table.export_checks(tmp_path)


def test_four_heroes_play_shuffle_to_the_boss_each_on_their_phone(tmp_path, live_server, browser):  # noqa: F811
    from selenium.webdriver.common.by import By
    setup = tmp_path / "setup.yaml"
    setup.write_text(SHUFFLE_SETUP)
    path, gid = _start(tmp_path, "shuffle", {"map": str(setup)})
    url = live_server(make_play_app(path), "").rstrip("/")
    table = Table(browser, url, ["Ada", "Bo", "Cy", "Di"], path, gid)
    table.shoot("cards-shuffle-start")
    for n, (hero, how) in enumerate(SHUFFLE_SCRIPT):
        table.act(hero, how)
        if n == 4:
            table.shoot("cards-shuffle-fought")
    for name in table.pages:
        assert table.ready(name).find_element(By.ID, "over").is_displayed()
    table.shoot("cards-shuffle-over")
    table.export_checks(tmp_path)
