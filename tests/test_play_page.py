"""`sheetgen play`'s page through Starlette's TestClient: a whole Foury round played by its forms
and compared with the engine replaying the same steps; the die asked once per game; refusals
explained and not recorded; undo; the exports; the journal shared with `sheetgen track`; the
form key, the token, the body limit."""
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


def cli(*args, journal):
    return CliRunner().invoke(main, ["track", *args, "--journal", str(journal)], catch_exceptions=False)


@pytest.fixture
def game(tmp_path):
    journal = tmp_path / "j.sqlite"
    assert cli("new", "--map", str(HALL), "--traits", TRAITS, journal=journal).exit_code == 0
    client = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:8765")
    return journal, client


def post(client, path, **fields):
    return client.post(path, data={"key": KEY, **fields}, follow_redirects=False)


def refusal(client, res) -> str:
    """The page a refused POST redirects to (Post/Redirect/Get: a reload posts nothing again)."""
    assert res.status_code == 303 and "?refused=" in res.headers["location"], res.status_code
    page = client.get(res.headers["location"])
    assert page.status_code == 200
    return page.text


def act(client, step, **dice):
    return post(client, "/g/1/act", step=json.dumps(step), **{f"die.{k}": str(v) for k, v in dice.items()})


def told(page: str) -> list[str]:
    box = re.search(r'<div class="box told" id="told">(.*?)</div>', page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)] if box else []


def engine(journal):
    with Journal(journal) as j:
        g = j.current()
        ad = tracker_for(g.ruleset)
        return ad.replay(g.header, j.steps(g.id)), j.steps(g.id)


# the first round of tests/data/foury_logs/legal-round-a-then-c.yaml, as the page plays it
ROUND_A = yaml.safe_load((LOGS / "legal-round-a-then-c.yaml").read_text())["rounds"][0]


def test_a_whole_round_on_the_page_matches_the_engine(game):
    journal, client = game
    assert post(client, "/g/1/dice", mode="ask").status_code == 303
    assert act(client, {"entry": ROUND_A["entry"]}).headers["location"] == "/g/1?told=1"
    for step in ROUND_A["steps"]:
        if isinstance(step, dict) and "sheet" in step:
            continue                                    # what the player penciled: not an action
        if isinstance(step, dict) and "move" in step and "roll" in step:
            # the die is asked: the tap records nothing until the die is given
            first = act(client, {"move": step["move"]})
            assert first.status_code == 303 and "do=" in first.headers["location"]
            page = client.get(first.headers["location"]).text
            assert 'id="die-6"' in page and f"the d6 for entering {step['move']}" in page
            res = act(client, {"move": step["move"]}, roll=step["roll"])
        elif isinstance(step, dict) and "fight" in step:
            f = step["fight"]
            res = post(client, "/g/1/act", panel="fight", hero=str(f["hero"]), enemy=str(f["enemy"]))
        elif isinstance(step, dict) and "oracle" in step:
            res = post(client, "/g/1/act", panel="oracle", words=step["oracle"]["words"])
        elif isinstance(step, dict) and "market" in step:
            res = post(client, "/g/1/act", panel="market", spend="1", gain_hearts="1")
        else:
            res = act(client, step)
        assert res.status_code == 303, (step, res.text[-600:])
        state, steps = engine(journal)
        page = client.get(res.headers["location"]).text
        # the page shows the engine's state: resources, position, the legal moves as targets
        for name in ("hearts", "shields", "weapon", "chests"):
            assert re.search(rf'id="res-{name}"><b>{state.game.res[name]}</b>', page), name
        view = client.get("/g/1/state.json").json()
        assert view["steps"] == len(steps)
        legal = {a.to for a in state.game.rules.legal_actions(state.game) if type(a).__name__ == "Move"}
        assert {t for t in view["targets"] if t.startswith("go-")} == {f"go-{chr(65 + c)}{r + 1}" for c, r in legal}
        assert told(page), step
    # the round as recorded is the log's round, and `sheetgen check` accepts the export
    log = client.get("/g/1/log.yaml").text
    assert "words: silent river" in log
    out = journal.parent / "exported.yaml"
    out.write_text(log.replace(f"map: {HALL}", f"map: {HALL}"))
    assert CliRunner().invoke(main, ["check", str(out)]).exit_code == 0
    assert engine(journal)[0].game.completed == 1


def test_the_narration_names_walls_by_side_and_highlights_them(game):
    journal, client = game
    post(client, "/g/1/dice", mode="ask")
    act(client, {"entry": "C1:N"})
    res = act(client, {"move": "C1"}, roll=3)          # zone A, 3: the walls to the left and in front collapse
    page = client.get(res.headers["location"]).text
    lines = told(page)
    # entering C1 from its north arrow heads south: left is east, front is south
    assert "roll 3 on zone A (The Temple): the walls to the left and in front collapse" in lines
    assert "draw walls: left (C1:E) and front (C1:S)" in lines
    assert 'id="hl-wall-C1-E"' in page and 'id="hl-wall-C1-S"' in page
    assert 'id="pencil-wall-C1-E"' in page or 'id="pencil-wall-D1-W"' in page


def test_a_fight_says_totals_and_damage(game):
    journal, client = game
    post(client, "/g/1/dice", mode="ask")
    act(client, {"entry": "C1:N"})
    act(client, {"move": "C1"}, roll=6)                 # an extra step
    act(client, {"move": "B1"})                         # the statue
    page = client.get("/g/1").text
    assert 'id="fight"' in page and "Fight the statue" in page
    res = post(client, "/g/1/act", panel="fight", hero="1", enemy="4", weapon="1")
    lines = told(client.get(res.headers["location"]).text)
    assert "you 1 + weapon 2 = 3 against the statue 4: you are hit, lose 1 heart(s); the statue remains: " \
           "fight again or flee" in lines
    assert any(line.startswith("on your sheet: hearts 4 -> 3") and "weapon 2 -> 1" in line for line in lines)


def test_a_refused_step_is_explained_and_not_recorded(game):
    journal, client = game
    post(client, "/g/1/dice", mode="ask")
    act(client, {"entry": "C1:N"})
    before = engine(journal)[1]
    res = act(client, {"move": "E5"}, roll=2)
    page = refusal(client, res)
    assert "Refused: nothing recorded" in page and "is not next to" in page or "first move" in page
    assert client.get(res.headers["location"]).status_code == 200       # a reload: the page again, nothing posted
    assert engine(journal)[1] == before
    assert engine(journal)[1] == before
    garbage = post(client, "/g/1/act", step="{not json")
    assert "not a step" in refusal(client, garbage)


def test_only_legal_actions_are_offered(game):
    journal, client = game
    post(client, "/g/1/dice", mode="ask")
    page = client.get("/g/1").text
    assert set(re.findall(r'id="(in-[A-Z0-9-]+)"', page)) == {"in-C1-N", "in-E3-E", "in-C5-S", "in-A3-W"}
    assert "Oracle's words" not in page and "flee" not in page.lower().split("fight again or flee")[0]
    act(client, {"entry": "C1:N"})
    page = client.get("/g/1").text
    assert re.findall(r'id="(go-[A-Z0-9]+)"', page) == ["go-C1"] and 'id="in-' not in page


def test_roll_for_me_is_chosen_once_per_game_and_never_silent_otherwise(game):
    journal, client = game
    page = client.get("/g/1").text
    assert 'id="dice-ask"' in page and 'id="dice-auto"' in page      # asked before the first roll
    act(client, {"entry": "C1:N"})
    res = act(client, {"move": "C1"})                                   # no mode yet: the die is asked
    assert "do=" in res.headers["location"] and len(engine(journal)[1]) == 1
    post(client, "/g/1/dice", mode="auto")
    assert 'id="dice-ask"' not in client.get("/g/1").text
    res = act(client, {"move": "C1"})
    assert res.headers["location"] == "/g/1?told=2"
    assert 1 <= engine(journal)[1][-1]["roll"] <= 6
    # the setting is the game's: `sheetgen track` rolls for it too, without --auto-roll
    with Journal(journal) as j:
        assert j.current().header["dice"] == "auto"


def test_undo_takes_back_the_last_step(game):
    journal, client = game
    act(client, {"entry": "C1:N"})
    assert len(engine(journal)[1]) == 1
    res = post(client, "/g/1/undo")
    assert res.headers["location"].startswith("/g/1?undid=1&u=")   # the step taken back: what to erase
    assert engine(journal)[1] == []
    assert "taken back" in client.get(res.headers["location"]).text


def test_a_game_goes_on_in_either_the_page_or_the_cli(game):
    journal, client = game
    act(client, {"entry": "C1:N"})
    res = cli("move", "C1", "--roll", "6", journal=journal)
    assert res.exit_code == 0, res.output
    view = client.get("/g/1/state.json").json()
    assert view["position"] == "C1" and view["steps"] == 2
    act(client, {"move": "B1"})
    assert "step 3" in cli("status", journal=journal).output or len(engine(journal)[1]) == 3


def test_exports(game):
    journal, client = game
    act(client, {"entry": "C1:N"})
    post(client, "/g/1/question", question="Will the   river rise?")
    log = client.get("/g/1/log.yaml")
    assert log.status_code == 200 and "question: Will the river rise?" in log.text
    png = client.get("/g/1/pencil.png")
    assert png.headers["content-type"] == "image/png" and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    for what in ("pencil.pdf", "sheet.pdf"):
        pdf = client.get(f"/g/1/{what}")
        assert pdf.headers["content-type"] == "application/pdf" and pdf.content[:5] == b"%PDF-"
    assert client.get("/g/1/sheet.svg").text.startswith("<svg")
    assert client.get("/g/1/nothing").status_code == 404
    assert client.get("/g/99").status_code == 404


def test_posts_need_the_form_key_and_same_origin(game):
    journal, client = game
    res = client.post("/g/1/act", data={"step": '{"entry": "C1:N"}'}, follow_redirects=False)
    assert res.status_code == 403 and engine(journal)[1] == []
    res = client.post("/g/1/act", data={"key": KEY, "step": '{"entry": "C1:N"}'},
                      headers={"origin": "http://evil.example"}, follow_redirects=False)
    assert res.status_code == 403 and engine(journal)[1] == []
    assert client.get("/g/1/act").status_code in (404, 405)   # changes are POSTs only
    assert engine(journal)[1] == []


def test_request_bodies_are_size_limited(game):
    journal, client = game
    res = client.post("/g/1/act", data={"key": KEY, "step": "x" * 20000}, follow_redirects=False)
    assert res.status_code == 413 and engine(journal)[1] == []


def test_a_shared_server_refuses_requests_without_its_token(tmp_path):
    journal = tmp_path / "j.sqlite"
    cli("new", "--map", str(HALL), "--traits", TRAITS, journal=journal)
    app = make_play_app(journal, host="0.0.0.0", token="tok", form_key=KEY)
    client = TestClient(app, base_url="http://192.168.1.7:8765")
    assert client.get("/g/1").status_code == 403
    assert client.post("/g/1/act", data={"key": KEY, "step": '{"entry": "C1:N"}'}).status_code == 403
    assert client.get("/g/1?token=tok", follow_redirects=False).status_code == 303
    assert client.get("/g/1").status_code == 200
    assert engine(journal)[1] == []


def test_home_goes_to_the_current_game_or_says_how_to_start(tmp_path):
    empty = TestClient(make_play_app(tmp_path / "none.sqlite"), base_url="http://127.0.0.1:1")
    assert "No game yet" in empty.get("/").text
    journal = tmp_path / "j.sqlite"
    cli("new", "--map", str(HALL), "--traits", TRAITS, journal=journal)
    client = TestClient(make_play_app(journal), base_url="http://127.0.0.1:1")
    assert client.get("/", follow_redirects=False).headers["location"] == "/g/1"


def test_the_play_command_refuses_unusable_input_cleanly(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["play", "--journal", str(tmp_path / "j.sqlite"), "--port", "0"])
    assert res.exit_code == 2 and "no game in" in res.output and "--map" in res.output
    res = runner.invoke(main, ["play", "--map", str(HALL), "--journal", str(tmp_path / "j.sqlite")])
    assert res.exit_code == 2 and "--hero" in res.output
    res = runner.invoke(main, ["play", "--map", "no-such-map", "--hero", "kael", "--journal", str(tmp_path / "j.sqlite")])
    assert res.exit_code == 2 and "Traceback" not in res.output


def _random_steps(map_name: str, hero: str | None, seed: int, count: int):
    from sheetgen.games.foury import notation
    from sheetgen.games.foury.formats.map import load_map
    from sheetgen.games.foury.heroes import free_hero, named_hero
    from sheetgen.games.foury.randomplay import random_game
    from sheetgen.games.foury.tracker import track_hero
    board = load_map(map_name).board
    hero_obj = track_hero({"hero": {"name": hero}} if hero else {"hero": {"traits": dict(
        hearts=4, shields=2, weapon=2, clovers=2, shovels=2)}}, board)[0]
    assert free_hero and named_hero
    return [notation.serialize(a) for a in random_game(board, hero_obj, seed, max_actions=count)]


@pytest.mark.parametrize("map_name, hero", [("ancient-story", "kael"), ("ancient-story", "melyra"),
                                            ("ancient-story", "thalindra"), ("ancient-story", "elydion"),
                                            ("slaughter", "kael"), ("santa", None), ("strength", "melyra"),
                                            ("kraken", "thalindra")])
def test_every_campaign_and_hero_plays_on_the_page(tmp_path, map_name, hero):
    journal = tmp_path / "j.sqlite"
    args = ["new", "--map", map_name] + (["--hero", hero] if hero else ["--traits", TRAITS])
    assert cli(*args, journal=journal).exit_code == 0
    client = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:8765")
    steps = _random_steps(map_name, hero, 3, 60)
    for i, step in enumerate(steps):
        res = act(client, step)
        assert res.status_code == 303 and res.headers["location"] == f"/g/1?told={i + 1}", (step, res.text[-500:])
        if i % 7 == 0 or i == len(steps) - 1:
            page = client.get(res.headers["location"])
            assert page.status_code == 200 and told(page.text), step
            # every action the page offers is legal now (the dice it needs given)
            state, _ = engine(journal)
            ad = tracker_for("foury")
            for offered in client.get("/g/1/state.json").json()["offered"]:
                for path, _ in ad.dice_due(state, offered):
                    target = offered
                    for k in path[:-1]:
                        target = target[k]
                    target[path[-1]] = 1
                ad.apply(state, offered)          # raises Illegal if the page offered a refused step
    assert engine(journal)[1] == steps


def test_unusable_requests_are_clean_refusals(game):
    journal, client = game
    assert client.get("/g/1?do=%7Bnot").status_code == 400
    assert client.get("/g/1?do=" + "%5B" * 3000).status_code == 400
    deep = post(client, "/g/1/act", step="[" * 3000)
    assert "not a step" in refusal(client, deep)
    nested = post(client, "/g/1/act", step='{"a":' * 10 + "1" + "}" * 10)
    assert "nested" in refusal(client, nested)
    odd = post(client, "/g/1/act", panel="fight", hero="abc", enemy="9")
    assert "Refused" in refusal(client, odd)
    unknown = post(client, "/g/1/act", panel="nothing")
    assert "no form" in refusal(client, unknown)
    assert client.post("/g/1/act", content=b"\xff\xfe", headers={"content-type": "application/x-www-form-urlencoded"}
                       ).status_code in (400, 403)
    assert client.post("/g/1/act", content=b"{}", headers={"content-type": "application/json"}).status_code == 415
    assert engine(journal)[1] == []


def _pencil_svg(page):
    marks = re.search(r'<g[^>]*id="pencil".*?</g>', page, re.S)
    return marks.group(0) if marks else ""


def test_what_the_server_remembers_never_differs_from_a_fresh_replay(tmp_path):
    """The server keeps each game's steps, states and pencil trail between taps; after taps, an
    undo, and a step recorded by another process (`sheetgen track`) the page, the engine's view
    and the pencil equal those of a new server that replays everything."""
    journal = tmp_path / "j.sqlite"
    assert cli("new", "--map", str(HALL), "--traits", TRAITS, journal=journal).exit_code == 0
    client = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:8765")
    steps = [{"entry": ROUND_A["entry"]}] + [s for s in ROUND_A["steps"] if not (isinstance(s, dict) and "sheet" in s)]
    assert post(client, "/g/1/dice", mode="ask").status_code == 303

    def same_as_fresh():
        fresh = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:8765")
        ours, theirs = client.get("/g/1/state.json").json(), fresh.get("/g/1/state.json").json()
        assert ours == theirs
        assert _pencil_svg(client.get("/g/1").text) == _pencil_svg(fresh.get("/g/1").text)
        return ours

    for step in steps[:4]:
        assert act(client, step).status_code == 303
        client.get("/g/1")
    before_undo = same_as_fresh()
    assert post(client, "/g/1/undo").status_code == 303
    after_undo = same_as_fresh()
    assert after_undo["steps"] == before_undo["steps"] - 1
    # another process records the undone step again, behind the server's back
    res = cli("step", json.dumps(steps[3]), journal=journal)
    assert res.exit_code == 0, res.output
    assert same_as_fresh() == before_undo
    for step in steps[4:7]:
        assert act(client, step).status_code == 303
    state = same_as_fresh()
    replayed, recorded = engine(journal)
    assert state["steps"] == 7 == len(recorded)
    assert state["resources"] == {k: replayed.game.res.get(k, 0) for k in state["resources"]}


def test_two_workers_over_one_journal_go_on_from_what_each_remembers(tmp_path, monkeypatch):
    """`sheetgen play --workers 2`: each worker process keeps its own memory of a game and the
    other records in between. Taps alternating between two apps over one journal: every page,
    engine view and pencil equals a fresh server's, and neither app replays the game from the
    start after its first look (it goes on from its state by the steps the other recorded)."""
    journal = tmp_path / "j.sqlite"
    assert cli("new", "--map", str(HALL), "--traits", TRAITS, journal=journal).exit_code == 0
    a = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:8765")
    b = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:8765")
    steps = [{"entry": ROUND_A["entry"]}] + [s for s in ROUND_A["steps"] if not (isinstance(s, dict) and "sheet" in s)]
    assert post(a, "/g/1/dice", mode="ask").status_code == 303
    a.get("/g/1")
    b.get("/g/1")
    ad = tracker_for("foury")
    replays = []
    real = type(ad).replay
    monkeypatch.setattr(type(ad), "replay", lambda self, header, st: replays.append(len(st)) or real(self, header, st))
    for i, step in enumerate(steps[:8]):
        recorder, viewer = (a, b) if i % 2 == 0 else (b, a)
        assert act(recorder, step).status_code == 303
        page = viewer.get(f"/g/1?told={i + 1}")
        assert page.status_code == 200
    monkeypatch.undo()
    assert replays == [], f"replayed from the start for {replays}"
    fresh = TestClient(make_play_app(journal, form_key=KEY), base_url="http://127.0.0.1:8765")
    for client in (a, b):
        assert client.get("/g/1/state.json").json() == fresh.get("/g/1/state.json").json()
        assert _pencil_svg(client.get("/g/1").text) == _pencil_svg(fresh.get("/g/1").text)
    replayed, recorded = engine(journal)
    assert len(recorded) == 8
