"""Issue 28, Dungeon Foury at the table: an event's monster is a plain monster (page, `track`,
`check` agree); a fight is asked in the rules' order (your die, the weapon, the foe's die, then
the clover or the shield after a loss) on the page and in `track play`; the round's bookkeeping,
undo and the entry arrows are told; a refused step leaves no URL that posts again; a tab left
behind is told the game moved on."""
import html
import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from starlette.testclient import TestClient

from sheetgen.cli import main
from sheetgen.definitions.registry import tracker_for
from sheetgen.tracker.journal import Journal
from sheetgen.web.play import make_play_app

LOGS = Path(__file__).parent / "data" / "foury_logs"
HALL = LOGS / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"
KEY = "test-form-key"
ROUND_A = yaml.safe_load((LOGS / "legal-round-a-then-c.yaml").read_text())["rounds"][0]


def track(*args, journal, input=None):
    return CliRunner().invoke(main, ["track", *args, "--journal", str(journal)], input=input,
                              catch_exceptions=False)


def new_game(journal, rounds_done=0):
    assert track("new", "--map", str(HALL), "--traits", TRAITS, journal=journal).exit_code == 0
    if rounds_done:
        assert track("step", json.dumps({"entry": ROUND_A["entry"]}), journal=journal).exit_code == 0
        for step in ROUND_A["steps"]:
            if not (isinstance(step, dict) and "sheet" in step):
                res = track("step", json.dumps(step), journal=journal)
                assert res.exit_code == 0, res.output


def client(journal):
    return TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:8765")


def post(c, path, follow=False, **fields):
    return c.post(path, data={"key": KEY, **fields}, follow_redirects=follow)


def act(c, step, **dice):
    return post(c, "/g/1/act", step=json.dumps(step), **{f"die.{k}": str(v) for k, v in dice.items()})


def told(page: str) -> list[str]:
    box = re.search(r'<div class="box told" id="told">(.*?)</div>', page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)] \
        if box else []


def fight_box(page: str) -> str:
    m = re.search(r'<div class="box fight" id="fight".*?<!-- the fight panel\'s end -->', page, re.S)
    assert m, "no fight panel"
    return html.unescape(m.group(0))


def state(journal):
    with Journal(journal) as j:
        g = j.current()
        return tracker_for(g.ruleset).replay(g.header, j.steps(g.id)).game


@pytest.fixture
def round_two(tmp_path):
    """Round A played, round 2 entered at C5:S and C5 rolled 1: an event's monster (+1)."""
    journal = tmp_path / "j.sqlite"
    new_game(journal, rounds_done=1)
    c = client(journal)
    post(c, "/g/1/dice", mode="ask")
    assert act(c, {"entry": "C5:S"}).status_code == 303
    assert act(c, {"move": "C5"}, roll=1).status_code == 303
    return journal, c


# -- 1. an event's monster -------------------------------------------------------------------------
def test_an_events_monster_is_offered_as_a_plain_monster_and_judged_as_the_engine(round_two, tmp_path):
    journal, c = round_two
    box = fight_box(c.get("/g/1").text)
    assert "Fight the monster" in box and "Its die +1" in box
    for foe in ("goblin", "orc", "yeti", "grinch", 'name="type"'):
        assert foe not in box
    assert client(journal).get("/g/1/state.json").json()["fight"]["types"] == []
    # the exchange before it is recorded: the engine's words, the round's +1 in them
    box = fight_box(c.get("/g/1?fh=4&fw=0&fe=3").text)
    line = "you 4 against the monster 3 + 1 = 4: a tie, nothing happens; fight again or flee"
    assert line in html.unescape(box)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', box))
    assert fields["type"] == ""
    res = post(c, "/g/1/act", **{k: v for k, v in fields.items() if k != "key"})
    assert res.status_code == 303
    assert line in told(c.get(res.headers["location"]).text)
    assert state(journal).last == "tie"
    # the same dice at `track`: the same outcome
    other = tmp_path / "cli.sqlite"
    new_game(other, rounds_done=1)
    track("step", json.dumps({"entry": "C5:S"}), journal=other)
    track("move", "C5", "--roll", "1", journal=other)
    out = track("fight", "--hero", "4", "--enemy", "3", journal=other).output
    assert line in out and state(other).last == state(journal).last


def test_check_refuses_a_log_that_names_an_events_monster(tmp_path):
    log = yaml.safe_load((LOGS / "legal-round-a-then-c.yaml").read_text())
    log["map"] = str(HALL)
    path = tmp_path / "log.yaml"
    path.write_text(yaml.safe_dump(log, sort_keys=False))
    assert CliRunner().invoke(main, ["check", str(path)]).exit_code == 0
    log["rounds"][1]["steps"][1] = {"fight": {"hero": 4, "enemy": 3, "type": "goblin"}}   # 4 beats a goblin's 3
    log["rounds"][1]["steps"][2] = {"sheet": {"round": 2, "kills": 1}}
    path.write_text(yaml.safe_dump(log, sort_keys=False))
    res = CliRunner().invoke(main, ["check", str(path)])
    assert res.exit_code == 1
    assert "plain monster" in res.output and "not a goblin" in res.output


# -- 2. the rules' order -----------------------------------------------------------------------
def test_the_page_asks_your_die_then_the_weapon_then_the_foes_die(round_two):
    journal, c = round_two
    first = fight_box(c.get("/g/1").text)
    assert "Roll your die first" in first and "weapon" not in first.split("Roll your die first")[1]
    assert "monster's die" not in first                       # the foe's die comes after the weapon
    second = fight_box(c.get("/g/1?fh=2").text)
    assert "add your weapon (+2" in second and "monster's die" not in second
    assert 'href="/g/1?fh=2&fw=1#fight"' in second and 'href="/g/1?fh=2&fw=0#fight"' in second
    third = fight_box(c.get("/g/1?fh=2&fw=1").text)
    assert "Now the monster's die" in third and 'href="/g/1?fh=2&fw=1&fe=6#fight"' in third
    assert "<form" not in third                               # nothing to record before the foe's die


def test_a_lost_exchange_offers_the_clover_and_the_shield_and_records_the_choice(round_two):
    journal, c = round_two
    lost = html.unescape(fight_box(c.get("/g/1?fh=2&fw=1&fe=6").text))
    assert "you 2 + weapon 2 = 4 against the monster 6 + 1 = 7: you are hit, lose 3 heart(s)" in lost
    assert 'id="fight-take"' in lost and 'id="fight-shield"' in lost
    assert 'id="clover-hero"' in lost and 'id="clover-enemy"' in lost
    rerolled = html.unescape(fight_box(c.get("/g/1?fh=2&fw=1&fe=6&fc=enemy&fr=5").text))
    assert "you 2 + weapon 2 = 4 against the monster 5 + 1 = 6: you are hit, lose 2 heart(s)" in rerolled
    assert 'id="clover-hero"' not in rerolled and 'id="fight-shield"' in rerolled   # one clover, then the shield
    form = re.search(r'<form[^>]*>(?:(?!</form>).)*id="fight-shield".*?</form>', rerolled, re.S).group(0)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    before = state(journal).res
    res = post(c, "/g/1/act", **{k: v for k, v in fields.items() if k != "key"})
    assert res.status_code == 303
    after = state(journal)
    assert after.res["hearts"] == before["hearts"] and after.res["shields"] == before["shields"] - 1
    assert after.res["clovers"] == before["clovers"] - 1 and after.res["weapon"] == before["weapon"] - 1
    with Journal(journal) as j:
        assert j.steps(1)[-1] == {"fight": {"hero": 2, "enemy": 6, "weapon": True,
                                            "clover": {"die": "enemy", "roll": 5}, "shield": True}}


def test_the_auto_dice_are_rolled_one_at_a_time_and_the_same_on_a_reload(round_two):
    journal, c = round_two
    track("dice", "auto", journal=journal)
    page = fight_box(c.get("/g/1").text)
    assert 'href="/g/1?fh=roll#fight"' in page and "monster's die" not in page
    once, again = c.get("/g/1?fh=roll").text, c.get("/g/1?fh=roll").text
    hero = re.search(r'id="rolled-hero">(\d)<', once).group(1)
    assert re.search(r'id="rolled-hero">(\d)<', again).group(1) == hero
    assert "add your weapon" in once and 'id="rolled-enemy"' not in once


def test_track_play_asks_in_the_rules_order_and_offers_the_shield_after_a_loss(round_two):
    journal, _ = round_two
    res = track("play", journal=journal, input="fight\n2\ny\n6\ns\nquit\n")
    out = res.output
    assert out.index("your die") < out.index("add your weapon (+2 = 4") < out.index("the monster's die")
    assert "you 2 + weapon 2 = 4 against the monster 6 + 1 = 7: you are hit, lose 3 heart(s)" in out
    assert "s: a shield blocks it (2 left)" in out and "c: a clover rerolls your die" in out
    with Journal(journal) as j:
        assert j.steps(1)[-1] == {"fight": {"hero": 2, "enemy": 6, "weapon": True, "shield": True}}
    assert state(journal).res["hearts"] == 5


def test_track_play_clover_then_take_the_hit(round_two):
    journal, _ = round_two
    res = track("play", journal=journal, input="fight\n1\nn\n6\nc\n2\nt\nquit\n")
    assert "you 2 against the monster 6 + 1 = 7: you are hit, lose 5 heart(s)" in res.output
    with Journal(journal) as j:
        assert j.steps(1)[-1] == {"fight": {"hero": 1, "enemy": 6, "clover": {"die": "hero", "roll": 2}}}


# -- 3. the round's bookkeeping, undo, the arrows ---------------------------------------------------
def test_a_rounds_start_and_end_tell_what_the_sheet_needs(tmp_path):
    journal = tmp_path / "j.sqlite"
    new_game(journal, rounds_done=0)
    out = track("step", json.dumps({"entry": "C1:N"}), journal=journal).output
    assert "round 1 on your sheet: monsters +0 (the mark beside MONSTERS), chests x1 (beside TREASURES), " \
           "the kills counter back to 0" in out
    for step in ROUND_A["steps"]:
        if isinstance(step, dict) and "exit" in step:
            out = track("step", json.dumps(step), journal=journal).output
            assert "the kills counter goes back to 0: it resets when exiting the dungeon" in out
        elif not (isinstance(step, dict) and "sheet" in step):
            track("step", json.dumps(step), journal=journal)
    out = track("step", json.dumps({"entry": "C5:S"}), journal=journal).output
    assert "round 2 on your sheet: monsters +1 (the mark beside MONSTERS), chests x2 (beside TREASURES)" in out


def test_a_beaten_troll_is_not_erased_and_is_told_back_at_the_rounds_end(tmp_path):
    from sheetgen.games.foury.tracker import ADAPTER, TrackState
    journal = tmp_path / "j.sqlite"
    new_game(journal)
    track("step", json.dumps({"entry": "C1:N"}), journal=journal)
    track("move", "C1", "--roll", "6", journal=journal)
    with Journal(journal) as j:
        g = j.current()
        before = ADAPTER.replay(g.header, j.steps(g.id))
    s = before.game.copy()
    s.spawned = {s.pos: "troll"}
    s.engaged = True
    inside = TrackState(before.header, before.board, before.hero, s, before.steps)
    after = ADAPTER.apply(inside, {"fight": {"hero": 6, "enemy": 1}})
    lines = ADAPTER.tell(inside, after, {"fight": {"hero": 6, "enemy": 1}}).lines
    assert any("do not erase the troll: write 3 in a corner of its space, it is back at the round's end" in x
               for x in lines), lines
    assert "erase the troll" not in " ".join(lines).replace("do not erase the troll", "")
    said: list[str] = []
    ADAPTER._tell_round_end(after.game, after.game, said.append)
    assert any(x.startswith("the troll in C1 is back: leave its 3 written in the corner (do not erase it)")
               for x in said), said


def test_undo_says_what_to_erase_on_the_page_and_at_track(tmp_path):
    journal = tmp_path / "j.sqlite"
    new_game(journal)
    c = client(journal)
    post(c, "/g/1/dice", mode="ask")
    act(c, {"entry": "C1:N"})
    act(c, {"move": "C1"}, roll=3)                       # the walls left and in front: C1:E and C1:S
    res = post(c, "/g/1/undo")
    page = c.get(res.headers["location"]).text
    lines = told(page)
    assert "erase the walls C1:E and C1:S" in lines
    assert "erase the line the arrow -> C1 and the circle in C1" in lines
    act(c, {"move": "C1"}, roll=3)
    out = track("undo", journal=journal).output
    assert "erase the walls C1:E and C1:S" in out


def test_an_entry_arrow_names_its_zone_and_requirement(tmp_path):
    journal = tmp_path / "j.sqlite"
    new_game(journal)
    page = html.unescape(client(journal).get("/g/1").text)
    assert "enter through C1:N: zone A, The Temple, requirement 3 statues" in page
    assert "enter through C5:S: zone C, The Castle Cliff, requirement 2 levers" in page


# -- 4. the page on a phone ------------------------------------------------------------------------------
def test_a_refused_step_redirects_and_a_reload_posts_nothing(tmp_path):
    journal = tmp_path / "j.sqlite"
    new_game(journal)
    c = client(journal)
    post(c, "/g/1/dice", mode="ask")
    act(c, {"entry": "C1:N"})
    res = act(c, {"move": "E5"}, roll=2)
    assert res.status_code == 303                           # not a page answering the POST itself
    where = res.headers["location"]
    assert where.startswith("/g/1?refused=")
    for _ in range(2):                                      # shown, and shown again on a reload (a GET)
        page = c.get(where).text
        assert "Refused: nothing recorded" in page
    with Journal(journal) as j:
        assert len(j.steps(1)) == 1


def test_a_tab_left_behind_is_told_the_game_moved_on_before_a_die(tmp_path):
    journal = tmp_path / "j.sqlite"
    new_game(journal)
    c = client(journal)
    post(c, "/g/1/dice", mode="ask")
    act(c, {"entry": "C1:N"})
    old = c.get("/g/1").text                                # this tab shows step 1
    assert 'name="at" value="1"' in old and "&amp;at=1" in old
    track("move", "C1", "--roll", "2", journal=journal)     # the game goes on elsewhere (C2 then needs a die)
    res = post(c, "/g/1/act", step=json.dumps({"move": "C2"}), at="1")    # the old tab's tap
    assert res.status_code == 303 and res.headers["location"] == "/g/1?moved=1"
    page = c.get(res.headers["location"]).text
    assert "The game moved on" in page and 'id="die"' not in page
    link = c.get("/g/1?do=%7B%22move%22%3A%22C2%22%7D&at=1").text      # the same tap without JavaScript
    assert "The game moved on" in link and 'id="die"' not in link
    fresh = post(c, "/g/1/act", step=json.dumps({"move": "C2"}), at="2")
    assert "do=" in fresh.headers["location"]                # a tab up to date: the die is asked


def test_the_hint_under_the_map_follows_the_phase(round_two):
    journal, c = round_two
    page = c.get("/g/1").text
    hint = re.search(r'<p class="hint">(.*?)</p>', page, re.S).group(1)
    assert "A fight: face the monster in the fight panel" in html.unescape(hint) and "Tap a ringed cell" not in hint


def test_the_pencil_writes_a_beaten_trolls_3_and_does_not_strike_it():
    import dataclasses

    from foury_helpers import HALL as BOARD
    from foury_helpers import TRAITS as HERO_TRAITS
    from foury_helpers import enter, mv
    from sheetgen.draw.model import Page, walk
    from sheetgen.games.foury.actions import Fight
    from sheetgen.games.foury.board import parse_cell as P
    from sheetgen.games.foury.heroes import free_hero
    from sheetgen.games.foury.sheets.pencil import overlay, replay_with_trail
    board = dataclasses.replace(BOARD, items={**BOARD.items, P("C1"): ("troll",)})
    state, trail = replay_with_trail(board, free_hero(HERO_TRAITS), [enter("C1:N"), mv("C1", 6), Fight(6, 1)])
    assert P("C1") in state.trolls and state.enemy_at(P("C1")) is None
    ids = {item.id for item, _ in walk(overlay(Page(210, 297, []), state, trail,
                                               rects={"cell-A1": (0, 10, 10, 10), "cell-C1": (20, 10, 10, 10)}))}
    assert "pencil-troll-C1" in ids and "pencil-removed-C1-troll" not in ids
