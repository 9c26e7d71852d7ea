"""Dungeon Exploration map mode on the companion page and in the journal: the door tapped, each
die asked (the d66's tens and units, the 2d6 of the contents, a retrace d6 per room walked back
through), the placements of the rolled shape drawn and chosen; the journal's game exported as a
play log `sheetgen check` accepts; a short run in a real browser at phone and desktop size."""
import html
import json
import re

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from sheetgen.cli import main
from sheetgen.definitions.registry import tracker_for
from sheetgen.tracker.journal import Journal
from sheetgen.web.play import make_play_app
from tests.browser import SHOTS, browser, gone, live_server  # noqa: F401  (pytest fixtures)

KEY = "k"


@pytest.fixture
def journal(tmp_path):
    path = tmp_path / "j.sqlite"
    res = CliRunner().invoke(main, ["track", "new", "--ruleset", "exploration", "--map", "builtin",
                                    "--journal", str(path)])
    assert res.exit_code == 0, res.output
    return path


def _steps(path):
    with Journal(path) as j:
        return j.steps(j.current().id)


def _state(path):
    with Journal(path) as j:
        g = j.current()
        return tracker_for("exploration").replay(g.header, j.steps(g.id))


def post(client, step, **dice):
    return client.post("/g/1/act", data={"key": KEY, "step": json.dumps(step),
                                         **{f"die.{k}": str(v) for k, v in dice.items()}}, follow_redirects=False)


def refusal(client, res) -> str:
    """The page a refused POST redirects to (Post/Redirect/Get: a reload posts nothing again)."""
    assert res.status_code == 303 and "?refused=" in res.headers["location"], res.status_code
    page = client.get(res.headers["location"])
    assert page.status_code == 200
    return page.text


def test_map_mode_on_the_page_asks_each_die_and_the_placement(journal, tmp_path):
    client = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:1")
    client.post("/g/1/dice", data={"key": KEY, "mode": "ask"})
    res = post(client, {})
    assert "do=" in res.headers["location"]
    assert "the d6 of the entrance room" in client.get(res.headers["location"]).text
    res = post(client, {}, entrance=2)          # the entrance rolls no contents: its one die, then recorded
    assert res.headers["location"] == "/g/1?told=1"
    page = client.get(res.headers["location"]).text
    assert "room 1 (the entrance): Entry hall, a room" in page and "contents 2d6" not in page
    doors = re.findall(r'id="open-(\d+)-(\d+)-([NESW])"', page)
    assert {f"{x},{y}:{s}" for x, y, s in doors} == {d.at for _, d in _state(journal).ex.unexplored()}
    # the d66 (tens, units), then the placements of the shape drawn and numbered
    step = {"open": "9,27:N"}
    post(client, step, tens=5)
    res = post(client, dict(step, tens=5), units=5)
    page = client.get(res.headers["location"]).text
    assert 'id="choose"' in page and 'id="candidate-label-1"' in page
    shows = re.findall(r'id="show-(\d+)" href="([^"]+)"', page)
    assert len(shows) >= 2 and [int(n) for n, _ in shows] == list(range(1, len(shows) + 1))
    assert 'id="open-' not in page                   # no other door while the room waits for its place
    # show the second placement, then put it there
    page = client.get(html.unescape(shows[1][1])).text
    assert 'id="candidate-label-2"' in page and 'id="candidate-label-1"' not in page
    offered = [json.loads(html.unescape(v)) for v in re.findall(r'name="step" value="([^"]+place[^"]+)"', page)]
    assert [o["place"] for o in offered] == [2] and "preview" not in offered[0]
    offered = [None, offered[0]]
    # the choice made, the contents asked, then recorded
    res = post(client, offered[1], contents_1=3)
    res = post(client, dict(offered[1], contents_1=3), contents_2=4)
    assert res.headers["location"] == "/g/1?told=2"
    assert _steps(journal)[-1] == dict(offered[1], contents_1=3, contents_2=4)
    room = _state(journal).ex.rooms[-1]
    assert room.roll == 55 and room.contents_roll == 7
    # a refused step: a door that is not there
    bad = post(client, {"open": "1,1:N", "tens": 1, "units": 1, "contents_1": 1, "contents_2": 1})
    assert "no unexplored door at 1,1:N" in refusal(client, bad)
    # the export is map mode's play log
    log = tmp_path / "log.yaml"
    log.write_text(client.get("/g/1/log.yaml").text)
    res = CliRunner().invoke(main, ["check", str(log)])
    assert res.exit_code == 0, res.output


def test_roll_for_me_rolls_up_to_the_choice_then_the_rest(journal):
    client = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:1")
    client.post("/g/1/dice", data={"key": KEY, "mode": "auto"})
    assert post(client, {}).headers["location"] == "/g/1?told=1"
    for _ in range(6):
        ex = _state(journal).ex
        if ex.ended:
            break
        door = ex.unexplored()[0][1]
        res = post(client, {"open": door.at})
        if "do=" in res.headers["location"]:
            page = client.get(res.headers["location"]).text
            choice = re.findall(r'name="step" value="([^"]+place&#34;:1})"', page)
            assert choice, page[-800:]
            res = post(client, json.loads(html.unescape(choice[0])))
        assert "told=" in res.headers["location"]
    assert len(_state(journal).ex.rooms) >= 2


def test_the_cli_records_map_mode_steps_too(journal):
    res = CliRunner().invoke(main, ["track", "step", "{open: '9,27:N'}"])
    assert res.exit_code == 1 and "the entrance room comes first" in res.output
    res = CliRunner().invoke(main, ["track", "step", "{}"])
    assert res.exit_code == 2 and "the d6 of the entrance room" in res.output      # never rolled silently
    res = CliRunner().invoke(main, ["track", "step", "{entrance: 3, contents_1: 1, contents_2: 2}"])
    assert res.exit_code == 1 and "contents_1, contents_2: not rolled in this step" in res.output
    assert "rolls no contents" in res.output
    res = CliRunner().invoke(main, ["track", "step", "{entrance: 3}"])
    assert res.exit_code == 0 and "room 1 (the entrance)" in res.output
    assert "legal now: open" in CliRunner().invoke(main, ["track", "status"]).output


@pytest.mark.parametrize("width, height, name", [(360, 740, "phone"), (1280, 900, "desktop")])
def test_a_short_run_in_the_browser(journal, live_server, browser, width, height, name):  # noqa: F811
    from selenium.webdriver.common.by import By
    page = browser(width, height)
    page.get(live_server(make_play_app(journal), "/g/1"))

    def tap(css):
        from selenium.webdriver.support.ui import WebDriverWait
        old = page.find_element(By.TAG_NAME, "html")
        el = page.find_element(By.CSS_SELECTOR, css)
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()
        WebDriverWait(page, 10).until(gone(old))       # every tap here loads the next page
        WebDriverWait(page, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    tap("#dice-ask")
    tap("form.act button.entrance")
    tap("#die-4")                            # the entrance d6 (the entrance rolls no contents)
    assert len(_steps(journal)) == 1
    door = _state(journal).ex.unexplored()[0][1]
    tap(f"#open-{door.x}-{door.y}-{door.side} rect")
    tap("#die-2")                            # tens
    tap("#die-3")                            # units: d66 23
    if page.find_elements(By.ID, "choose"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.save_screenshot(str(SHOTS / f"explore-{name}-choose.png"))
        tap("#show-2")
        page.save_screenshot(str(SHOTS / f"explore-{name}-choose-2.png"))
        tap("#choose form.act button")
    tap("#die-3")
    tap("#die-4")
    assert len(_steps(journal)) == 2
    ex = _state(journal).ex
    assert ex.rooms[-1].roll == 23 and ex.rooms[-1].contents_roll == 7
    told = [e.text for e in page.find_elements(By.CSS_SELECTOR, "#told li")]
    assert any(t.startswith("room 2 (d66 23)") for t in told)
    page.save_screenshot(str(SHOTS / f"explore-{name}-room2.png"))


def test_an_eleven_for_the_contents_asks_the_boss_escalation(journal):
    client = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:1")
    client.post("/g/1/dice", data={"key": KEY, "mode": "ask"})
    post(client, {"entrance": 1})
    door = _state(journal).ex.unexplored()[0][1]
    step = {"open": door.at, "tens": 1, "units": 1}
    for _ in range(3):                       # the placement, if the shape fits more than one way
        res = post(client, step)
        if "do=" not in res.headers["location"]:
            break
        page = client.get(res.headers["location"]).text
        if 'id="choose"' in page:
            step = dict(step, place=1)
        else:
            break
    res = post(client, dict(step, contents_1=5, contents_2=6))
    page = client.get(res.headers["location"]).text
    room_before = len(_state(journal).ex.rooms)
    if "the boss escalation d6" in page:      # 11 on the contents table: a boss, and its escalation die
        res = post(client, dict(step, contents_1=5, contents_2=6), escalation=2)
        assert res.headers["location"].startswith("/g/1?told=")
        room = _state(journal).ex.rooms[-1]
        assert room.contents_roll == 11 and room.escalation[0] == 2
    else:
        assert len(_state(journal).ex.rooms) == room_before
        pytest.fail("an 11 on the built-in contents table should be a boss that rolls its escalation")
    # an escalation die where none is due is refused
    bad = post(client, {"open": _state(journal).ex.unexplored()[0][1].at, "tens": 1, "units": 1, "place": 1,
                        "contents_1": 1, "contents_2": 1, "escalation": 3})
    assert "no boss escalation" in refusal(client, bad)
