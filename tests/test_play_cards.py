"""`sheetgen play` for the card games through Starlette's TestClient: a three-player navigation
game that clears the dungeon and a four-hero Shuffle game that reaches the Boss room, played by
the page's own buttons, taps and forms; refusals not recorded; undo; the join page; the version
the pages poll; `play` on a journal it cannot serve."""
import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from sheetgen.cli import main  # noqa: E402
from sheetgen.definitions.registry import tracker_for  # noqa: E402
from sheetgen.tracker.journal import Journal  # noqa: E402
from sheetgen.web.play import make_play_app  # noqa: E402
from tests.cards_page_helpers import SHUFFLE_SCRIPT, SHUFFLE_SETUP, nav_plan  # noqa: E402

KEY = "test-form-key"
ROOT = Path(__file__).resolve().parent.parent


def _game(tmp_path, ruleset, params):
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    gid = j.new_game(ruleset, tracker_for(ruleset).start(params))
    j.close()
    return path, gid


def _client(path, **kw):
    return TestClient(make_play_app(path, form_key=KEY, **kw), base_url="http://127.0.0.1:8765")


def _offered(page: str) -> list:
    """Every step the page offers: its buttons' steps, its choices, its taps."""
    steps = [json.loads(html.unescape(v)) for v in re.findall(r'name="step" value="([^"]*)"', page) if v]
    steps += [json.loads(html.unescape(v)) for v in re.findall(r'<option value="(\{[^"]*\})"', page)]
    return steps


def _target(page: str, ident: str):
    m = re.search(rf'id="{re.escape(ident)}" data-step="([^"]*)"', page)
    assert m, f"the page offers no tap {ident}"
    return json.loads(html.unescape(m.group(1)))


def _act(client, gid, step=None, **fields):
    data = {"key": KEY, **fields}
    if step is not None:
        data["step"] = json.dumps(step)
    return client.post(f"/g/{gid}/act", data=data)


def _check(tmp_path, client, gid):
    log = client.get(f"/g/{gid}/log.yaml")
    assert log.status_code == 200
    out = tmp_path / "game.yaml"
    out.write_text(log.text)
    res = CliRunner().invoke(main, ["check", str(out)])
    assert res.exit_code == 0, res.output


def test_navigation_three_players_clear_the_dungeon(tmp_path):
    from sheetgen.games.navigation.tracker import ADAPTER
    path, gid = _game(tmp_path, "navigation", {"map": "nav-crypt", "hero": "Ada,Bo,Cy"})
    client = _client(path)
    seen = set()
    for _ in range(200):
        page = client.get(f"/g/{gid}").text
        if 'id="over"' in page:
            break
        j = Journal(path)
        ts = ADAPTER.replay(j.game(gid).header, j.steps(gid))
        j.close()
        assert f"turn of <b>{ts.player}</b>" in page
        kind, what = nav_plan(ts)
        step = _target(page, f"go-{what}") if kind == "tap" else what
        if kind == "step":
            assert what in _offered(page), f"{what} is not offered"
        seen.add(next(iter(step)) if isinstance(step, dict) else step.split()[0])
        res = _act(client, gid, step)
        assert res.status_code == 200 and "Refused" not in res.text, res.text[:2000]
    else:
        pytest.fail("the dungeon was not cleared")
    assert "The dungeon is cleared" in page
    assert {"move", "resolve", "turn"} <= seen
    assert "go-" not in page            # nothing to tap once the game is over
    _check(tmp_path, client, gid)


def test_navigation_offers_only_legal_steps_and_refuses_the_rest(tmp_path):
    from sheetgen.games.navigation.tracker import ADAPTER
    path, gid = _game(tmp_path, "navigation", {"map": "nav-crypt", "hero": "Ada,Bo,Cy"})
    client = _client(path)
    page = client.get(f"/g/{gid}").text
    header = {"ruleset": "navigation", "map": "nav-crypt", "dungeon": "nav-crypt",
              "players": [{"name": n} for n in ("Ada", "Bo", "Cy")]}
    ts = ADAPTER.replay(header, [])
    offered = _offered(page) + [_target(page, f"go-{r}") for r in ("rat-den", "old-forge", "spike-pit")]
    for step in offered:
        ADAPTER.apply(ts, step)         # raises Illegal for a step the rules refuse
    assert not any(isinstance(s, dict) and "resolve" in s for s in offered)   # the entrance has no action
    version = client.get(f"/g/{gid}/version").json()
    res = _act(client, gid, {"move": "south"})      # an empty space south of the entrance
    # refused: told on the page the POST redirects to (Post/Redirect/Get), nothing recorded
    assert res.history and res.history[0].status_code == 303 and "refused=" in res.history[0].headers["location"]
    assert "Refused: nothing recorded" in res.text and "no room south" in res.text
    assert client.get(f"/g/{gid}/version").json() == version
    _act(client, gid, _target(page, "go-rat-den"))
    moved = client.get(f"/g/{gid}/version").json()
    assert moved["steps"] == 1 and moved["version"] != version["version"]
    page = client.get(f"/g/{gid}").text
    assert "must resolve the hazard" in page and {"turn": "Bo"} not in _offered(page)
    res = client.post(f"/g/{gid}/undo", data={"key": KEY})
    assert res.status_code == 200 and "Undone" in res.text
    assert client.get(f"/g/{gid}/version").json()["steps"] == 0


def test_shuffle_four_heroes_reach_the_boss(tmp_path):
    setup = tmp_path / "setup.yaml"
    setup.write_text(SHUFFLE_SETUP)
    path, gid = _game(tmp_path, "shuffle", {"map": str(setup)})
    client = _client(path)
    for hero, (kind, *what) in SHUFFLE_SCRIPT:
        page = client.get(f"/g/{gid}").text
        assert f"turn of <b>{hero}</b>" in page
        if kind in ("step", "choose"):
            assert what[0] in _offered(page), f"{what[0]} is not offered"
            res = _act(client, gid, what[0])
        elif kind == "tap":
            res = _act(client, gid, _target(page, what[0]))
        else:
            form, fields, _ = what
            assert f'id="{form}"' in page
            panel = re.search(rf'id="{form}".*?name="panel" value="([a-z]+)"', page, re.S).group(1)
            data = {k: v for k, v in fields.items() if not isinstance(v, list)}
            for k, v in fields.items():
                if isinstance(v, list):
                    data.update({f"{k}.{card}": "1" for card in v})
            if panel == "fight":
                data["at"] = re.search(r'name="at" value="([^"]+)"', page).group(1)
            res = _act(client, gid, panel=panel, **data)
        assert res.status_code == 200 and "Refused" not in res.text, res.text[:3000]
    page = client.get(f"/g/{gid}").text
    assert 'id="over"' in page and "Boss room" in page
    state = client.get(f"/g/{gid}/state.json").json()
    assert state["steps"] == len(SHUFFLE_SCRIPT)
    _check(tmp_path, client, gid)


def test_shuffle_fight_lost_offers_the_monster_power_and_end_waits_for_it(tmp_path):
    setup = tmp_path / "setup.yaml"
    setup.write_text(SHUFFLE_SETUP)
    path, gid = _game(tmp_path, "shuffle", {"map": str(setup)})
    client = _client(path)
    _act(client, gid, "draw")
    _act(client, gid, {"place-monster": {"monster": "goblin", "path": "south"}})
    res = _act(client, gid, panel="fight", at="0,1", hero_dice="1 1 1 1", monster_dice="6")
    assert res.status_code == 200
    page = res.text
    assert "LOOT 1 card(s) into its pile" in page and "Before the turn can end" in page
    assert {"turn": "Bo"} not in _offered(page)
    assert {"loot": 1, "monster": "goblin"} in _offered(page)
    res = _act(client, gid, panel="fight", at="0,1", hero_dice="6", monster_dice="1")
    assert res.history and res.history[0].status_code == 303 and "Refused" in res.text   # fighting ended the turn


def test_join_page_gives_each_player_an_address_and_a_qr_code(tmp_path):
    path, gid = _game(tmp_path, "navigation", {"map": "nav-crypt", "hero": "Ada,Bo,Cy"})
    client = TestClient(make_play_app(path, form_key=KEY, host="0.0.0.0", token="tok123"),
                        base_url="http://192.168.1.7:8765")
    assert client.get(f"/g/{gid}/join").status_code == 403         # the token guards it too
    assert client.get(f"/g/{gid}?token=tok123").status_code == 200
    page = client.get(f"/g/{gid}/join").text
    links = re.findall(r'class="join-link">([^<]+)<', page)
    assert [html.unescape(u) for u in links] == [f"http://192.168.1.7:8765/g/{gid}?as={n}&token=tok123"
                                                 for n in ("Ada", "Bo", "Cy")]
    assert page.count("<svg") == 3


@pytest.mark.parametrize("broken", ["ruleset", "dungeon"])
def test_play_on_a_journal_it_cannot_serve_says_why_and_exits_2(tmp_path, broken):
    dungeon = tmp_path / "d.yaml"
    dungeon.write_text((ROOT / "layouts" / "navigation" / "nav-crypt.yaml").read_text())
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    if broken == "ruleset":
        j.new_game("no-such-game", {"map": "x"})
    else:
        j.new_game("navigation", tracker_for("navigation").start({"map": str(dungeon), "hero": "Ada"}))
        dungeon.unlink()
    j.close()
    res = CliRunner().invoke(main, ["play", "--journal", str(path), "--port", "0"])
    assert res.exit_code == 2, res.output
    assert "cannot be played on the page" in res.output and "Traceback" not in res.output


def test_play_starts_a_navigation_table_and_prints_its_join_page(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import urllib.request
    proc = subprocess.Popen([sys.executable, "-m", "sheetgen", "play", "--ruleset", "navigation", "--map", "nav-crypt",
                             "--hero", "Ada,Bo,Cy", "--journal", str(tmp_path / "j.sqlite"), "--port", "0",
                             "--workers", "0"], cwd=ROOT, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("Ctrl-C stops"):
                break
        out = "".join(lines)
        join = re.search(r"each player joins from (http://127\.0\.0\.1:\d+/g/1/join)", out)
        assert join, out
        page = urllib.request.urlopen(join.group(1), timeout=30).read().decode()
        assert len(re.findall(r'class="join-link">', page)) == 3
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)


def test_shuffle_trap_is_rolled_before_anything_else(tmp_path):
    setup = tmp_path / "setup.yaml"
    setup.write_text(SHUFFLE_SETUP.replace("rooms: [{room: long-corridor, at: [1, 0]}]",
                                           "rooms: [{room: pit-trap, at: [1, 0]}]"))
    path, gid = _game(tmp_path, "shuffle", {"map": str(setup)})
    client = _client(path)
    page = client.get(f"/g/{gid}").text
    _act(client, gid, _target(page, "go-east"))
    page = client.get(f"/g/{gid}").text
    assert 'id="trap-form"' in page and "against the challenge 6" in page
    assert "draw" not in _offered(page) and {"turn": "Bo"} not in _offered(page)
    res = _act(client, gid, panel="trap", roll="2")         # 2 + speed 2 < 6: the penalty
    assert res.status_code == 200 and "Refused" not in res.text
    assert "Ada: damage 0 -&gt; 2" in res.text
    assert 'id="trap-form"' not in res.text and {"turn": "Bo"} in _offered(res.text)
