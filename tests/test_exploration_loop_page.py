"""Issue 28: Dungeon Exploration's whole loop on the page and at `track`: an empty room searched
once on the player's word (a secret door comes to light), the retreat out of the entrance with a
retrace d6 per room walked back through, the party's death as an ending, what the paper records
for each kind of contents, and the squares' coordinates readable on the zoomed map; every export
accepted by `sheetgen check`."""
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
    res = CliRunner().invoke(main, ["track", "new", "--ruleset", "exploration", "--journal", str(path)])
    assert res.exit_code == 0, res.output
    return path


def _state(path):
    with Journal(path) as j:
        g = j.current()
        return tracker_for("exploration").replay(g.header, j.steps(g.id))


def _client(journal):
    c = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:1")
    c.post("/g/1/dice", data={"key": KEY, "mode": "ask"})
    return c


def post(c, step, **dice):
    return c.post("/g/1/act", data={"key": KEY, "step": json.dumps(step),
                                    **{f"die.{k}": str(v) for k, v in dice.items()}}, follow_redirects=False)


def told(page):
    box = re.search(r'<div class="box told" id="told">(.*?)</div>', page, re.S)
    import html
    return [html.unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)]


def record(c, step):
    """STEP recorded, answering each die the page asks with a 4 (a 2 for the contents: empty)."""
    res = post(c, step)
    for _ in range(12):
        where = res.headers["location"]
        if "told=" in where or "refused=" in where:
            return c.get(where).text
        pending = json.loads(__import__("urllib.parse").parse.unquote(where.split("do=", 1)[1]))
        key = re.search(r'name="die\.([a-z_0-9]+)"', c.get(where).text).group(1)
        if key == "place":
            raise AssertionError("a placement to choose")
        res = post(c, pending, **{key: 1 if key.startswith("contents") else 4})
    raise AssertionError("the page kept asking")


def check(c, tmp_path) -> int:
    log = tmp_path / "log.yaml"
    log.write_text(c.get("/g/1/log.yaml").text)
    res = CliRunner().invoke(main, ["check", str(log)])
    assert res.exit_code == 0, res.output
    return res.exit_code


def _open_some(c, journal, rooms: int):
    """Open doors (the last one offered each time) until ROOMS rooms are drawn."""
    while len(_state(journal).ex.rooms) < rooms:
        ex = _state(journal).ex
        room, door = ex.unexplored()[-1]
        page = record(c, {"open": door.at, "tens": 1, "units": 5, "place": 1})
        assert "Refused" not in page, page


def test_an_empty_room_is_searched_once_on_the_players_word(journal, tmp_path):
    c = _client(journal)
    page = record(c, {"entrance": 3})
    assert "room 1 is empty: you may search it, once (secret doors come to light)" in told(page)
    assert "search room 1 (once: it is empty)" in page
    page = record(c, {"search": True})
    assert any(line.startswith("you search room 1 (once): ") and "write 'searched' beside room 1" in line
               for line in told(page))
    assert "search room 1 (once: it is empty)" not in page    # once
    assert "only the empty room just placed is searched" in record(c, {"search": True})
    check(c, tmp_path)


def test_a_search_brings_a_secret_door_to_light_and_the_log_says_so(journal, tmp_path):
    from sheetgen.games.exploration.mapmode import SECRET
    c = _client(journal)
    record(c, {"entrance": 3})
    # d66 33 of the built-in table has a secret exit; at the entrance's west door, placement 2
    # keeps it on the sheet; contents 7: empty
    step = {"open": "9,26:W", "tens": 3, "units": 3, "place": 2, "contents_1": 3, "contents_2": 4}
    page = record(c, step)
    hidden = [d for d in _state(journal).ex.rooms[-1].doors if d.state == SECRET]
    assert hidden and "search room 2" in page
    page = record(c, {"search": True})
    found = [d.at for d in _state(journal).ex.rooms[-1].doors if d.secret]
    assert any(f"a secret door comes to light at {found[0]}" in line for line in told(page))
    log = c.get("/g/1/log.yaml").text
    assert "search: true" in log and "secret: true" in log
    check(c, tmp_path)


def test_the_party_retreats_out_the_entrance_with_the_retrace_dice(journal, tmp_path):
    c = _client(journal)
    record(c, {"entrance": 3})
    _open_some(c, journal, 3)
    ex = _state(journal).ex
    back = len(ex.path(ex.here, 1)) - 1
    assert back >= 1
    page = c.get("/g/1").text
    assert f"retreat out the entrance (walking back through {back} room" in page
    page = record(c, {"retreat": True})
    lines = told(page)
    assert lines[0].startswith("walk back to the entrance: ") and lines[0].count(" d6 ") == back
    assert "the party retreats out the entrance: the dungeon ends" in lines[1]
    assert "The party retreated out the entrance" in page
    assert _state(journal).ex.ended == "retreat"
    log = c.get("/g/1/log.yaml").text
    assert "\nretrace: [" in log and "end: {reason: retreat" in log
    check(c, tmp_path)


def test_the_partys_death_ends_the_dungeon(journal, tmp_path):
    c = _client(journal)
    record(c, {"entrance": 3})
    _open_some(c, journal, 2)
    page = record(c, {"dead": True})
    assert told(page)[0].startswith("the party dies in room ")
    assert "The party died: the dungeon has ended" in page
    assert "end: {reason: dead" in c.get("/g/1/log.yaml").text
    check(c, tmp_path)


def test_the_contents_say_what_the_paper_records(journal):
    c = _client(journal)
    record(c, {"entrance": 3})
    door = _state(journal).ex.unexplored()[0][1].at
    res = post(c, {"open": door, "tens": 1, "units": 5, "place": 1, "contents_1": 3, "contents_2": 3})
    lines = told(c.get(res.headers["location"]).text)
    room = _state(journal).ex.rooms[-1]
    category = room.result.category
    assert category != "empty"
    assert any(line.startswith(f"contents 2d6 6: {room.result.label} - {room.result.text}") for line in lines)
    words = {"monsters": "write the monsters beside room 2", "traps": "roll the trap save",
             "treasure": "roll on the treasure table", "special": "resolve it as the table says",
             "events": "resolve it as the table says", "boss": "fight it"}[category]
    assert any(words in line for line in lines), lines
    assert not any("you may search" in line for line in lines)        # not empty: no search


def test_a_game_started_before_keeps_searching_by_itself(journal):
    with Journal(journal) as j:
        j.update_header(1, {"search": None})
    c = _client(journal)
    record(c, {"entrance": 3})
    assert "search room" not in c.get("/g/1").text
    assert "searches every empty room by itself" in record(c, {"search": True})


def test_the_zoomed_map_shows_the_squares_coordinates(journal):
    c = _client(journal)
    record(c, {"entrance": 3})
    page = c.get("/g/1").text
    near = re.search(r'<g[^>]*id="coords-near".*?</g>', page, re.S).group(0)
    xs = [int(n) for n in re.findall(r'id="coord-x-(\d+)"', near)]
    ys = [int(n) for n in re.findall(r'id="coord-y-(\d+)"', near)]
    # the entrance (squares 9..11, 26..28) is in the view: its squares' numbers are along its edges
    assert {9, 10, 11} <= set(xs) and {26, 27} <= set(ys)
    assert xs == sorted(xs) and all(b - a == 1 for a, b in zip(xs, xs[1:]))
    assert 'class="coords near"' in near


@pytest.mark.browser
@pytest.mark.parametrize("width, height, name", [(360, 740, "phone"), (1280, 900, "desktop")])
def test_the_loop_in_the_browser(journal, live_server, browser, width, height, name):  # noqa: F811
    from selenium.webdriver.common.by import By
    c = _client(journal)
    record(c, {"entrance": 3})
    _open_some(c, journal, 3)
    page = browser(width, height)
    page.get(live_server(make_play_app(journal), "/g/1"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.save_screenshot(str(SHOTS / f"explore-loop-{name}-1-room3.png"))
    near = page.find_element(By.ID, "coords-near")
    assert near.is_displayed() == (name == "phone")          # the whole map on a desktop has its own numbers
    labels = [b.text for b in page.find_elements(By.CSS_SELECTOR, "#actions button")]
    assert any(t.startswith("retreat out the entrance") for t in labels)
    assert "the party died: the dungeon ends" in labels
