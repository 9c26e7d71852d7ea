"""`sheetgen play` for Dungeon Foury's 2 Players Mode (games/foury/web_two.py) through Starlette's
TestClient: two clients, each joined as one player (?as=NAME, kept in a cookie), play the game of
tests/data/foury_logs/two_players/legal-meet-duel.yaml by the page's own taps, buttons and duel
form; each page shows its own sheet and offers only its player's steps on their turn; another
player's step, a step out of turn and an undo of the other's step are refused and not recorded;
the export passes `sheetgen check`.  The page adapter's view and forms are tested directly too."""
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

KEY = "test-form-key"
HALL = Path(__file__).parent / "data" / "foury_logs" / "test-hall.yaml"
TRAITS = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}
# (who, the tap or step the page offers): legal-meet-duel.yaml played on the page
SCRIPT = [("Ada", "in-C1-N"), ("Ben", "in-E3-E"),
          ("Ada", {"move": "C1", "roll": 6}), ("Ada", "go-D1"), ("Ben", {"move": "E3", "roll": 6}),
          ("Ada", {"move": "D2", "roll": 2}), ("Ada", {"collect": "chest"}), ("Ben", {"move": "D3", "roll": 6}),
          ("Ada", "go-D1"), ("Ben", {"move": "D4", "roll": 6}), ("Ada", "go-D2"), ("Ada", "go-D3"), ("Ada", "go-D4")]


def start(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("foury", tracker_for("foury").start({"map": str(HALL), "players": "Ada,Ben",
                                                               "traits": TRAITS}))
    return path, gid


def phones(path, gid):
    app = make_play_app(path, form_key=KEY)
    out = {}
    for name in ("Ada", "Ben"):
        client = TestClient(app, base_url="http://127.0.0.1:8765")
        assert client.get(f"/g/{gid}?as={name}").status_code == 200      # joined: the cookie keeps the seat
        out[name] = client
    return out


def act(client, gid, step=None, **fields):
    data = {"key": KEY, **fields}
    if step is not None:
        data["step"] = json.dumps(step)
    return client.post(f"/g/{gid}/act", data=data)


def offered(page: str) -> list:
    steps = [json.loads(html.unescape(v)) for v in re.findall(r'name="step" value="([^"]*)"', page) if v]
    steps += [json.loads(html.unescape(v)) for v in re.findall(r'data-step="([^"]*)"', page)]
    return steps


def target(page: str, ident: str):
    m = re.search(rf'id="{re.escape(ident)}" data-step="([^"]*)"', page)
    assert m, f"the page offers no tap {ident}"
    return json.loads(html.unescape(m.group(1)))


def refusal(res) -> str | None:
    m = re.search(r'id="refused"[^>]*><h2>[^<]*</h2><p>(.*?)</p>', res.text, re.S)
    return html.unescape(m.group(1)) if m else None


def steps_of(path, gid) -> int:
    with Journal(path) as j:
        return len(j.steps(gid))


def play_script(path, gid, clients) -> None:
    for who, how in SCRIPT:
        other = "Ben" if who == "Ada" else "Ada"
        page = clients[who].get(f"/g/{gid}").text
        watcher = clients[other].get(f"/g/{gid}").text
        if isinstance(how, str):
            step = target(page, how)
            assert step["player"] == who
        else:
            step = {"player": who, **how}
            bare = {"player": who, **{k: v for k, v in how.items() if k != "roll"}}
            assert bare in offered(page), f"{who}'s page does not offer {how}"
        if not (isinstance(how, str) and how.startswith("in-")):
            # the acting phone says it is its turn, or that its move starts it (the opponent's may go on:
            # an extra step, a walk along explored rooms), or that what is left of its own is offered
            assert re.search(r"<b>Your turn\.</b>|your move starts your turn|what is left of yours", page), (who, how)
        # the other phone offers no step of another player
        assert all(s["player"] == other for s in offered(watcher))
        n = steps_of(path, gid)
        res = act(clients[who], gid, step)
        assert res.status_code == 200 and refusal(res) is None, refusal(res) or res.text[:2000]
        assert steps_of(path, gid) == n + 1


def test_two_phones_play_to_the_duel_and_the_export_passes_check(tmp_path):
    path, gid = start(tmp_path)
    clients = phones(path, gid)
    play_script(path, gid, clients)
    ada, ben = (clients[n].get(f"/g/{gid}").text for n in ("Ada", "Ben"))
    # Ada reached Ben: her phone has the duel form, his says she records it
    assert 'id="duel-form"' in ada and 'id="duel-form"' not in ben and "Ada reached you" in ben
    res = act(clients["Ada"], gid, panel="duel", hero="5", opponent="2", weapon="1")
    assert refusal(res) is None and "Pencil this" in res.text and "Ben: hearts 4 -&gt; 3" in res.text
    ben = clients["Ben"].get(f"/g/{gid}").text
    assert "Last step, by Ada" in ben and "Ben: hearts 4 -&gt; 3" in ben
    assert re.search(r'id="res-hearts"><b>3</b>', ben) and re.search(r'id="res-hearts"><b>4</b>', res.text)
    log = clients["Ben"].get(f"/g/{gid}/log.yaml")
    out = tmp_path / "game.yaml"
    out.write_text(log.text, encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", str(out)])
    assert checked.exit_code == 0, checked.output + log.text
    assert "duel: {hero: 5, opponent: 2, weapon: true" in log.text
    state = clients["Ada"].get(f"/g/{gid}/state.json").json()        # the engine's view: the player to play
    assert state["steps"] == len(SCRIPT) + 1 and state["phase"] == "inside"
    assert clients["Ada"].get(f"/g/{gid}/pencil.pdf").status_code == 200


def test_the_pencil_png_shows_both_sheets_as_the_pdf_has_them(tmp_path):
    """The PNG download is one image: both players' sheets side by side, in the PDF's page order;
    ?page=N is page N's sheet alone, its file named after its player."""
    import io

    from PIL import Image, ImageChops, ImageStat
    from pypdf import PdfReader
    path, gid = start(tmp_path)
    clients = phones(path, gid)
    play_script(path, gid, clients)
    pdf = PdfReader(io.BytesIO(clients["Ben"].get(f"/g/{gid}/pencil.pdf").content))
    assert len(pdf.pages) == 2
    both = clients["Ben"].get(f"/g/{gid}/pencil.png")
    assert both.status_code == 200 and f"game-{gid}-pencil.png" in both.headers["content-disposition"]
    sheets = []
    for n, who in ((1, "Ada"), (2, "Ben")):
        one = clients["Ben"].get(f"/g/{gid}/pencil.png?page={n}")
        assert one.status_code == 200 and f"game-{gid}-{who}-pencil.png" in one.headers["content-disposition"]
        sheets.append(Image.open(io.BytesIO(one.content)).convert("RGB"))
    image = Image.open(io.BytesIO(both.content)).convert("RGB")
    w, h = sheets[0].size
    assert sheets[0].size == sheets[1].size and h == image.height and 2 * w < image.width < 2.2 * w
    assert ImageChops.difference(sheets[0], sheets[1]).getbbox() is not None     # two sheets, not one twice
    # the image's left part is the first page's sheet (Ada's), its right part the second (Ben's):
    # each closer to its own than to the other (on a wider page, edges round a little apart: not equal)
    def far(a, b):
        return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean)
    left, right = image.crop((0, 0, w, h)), image.crop((image.width - w, 0, image.width, h))
    assert far(left, sheets[0]) < far(left, sheets[1]) and far(right, sheets[1]) < far(right, sheets[0])
    for bad in ("3", "0", "x"):
        assert clients["Ben"].get(f"/g/{gid}/pencil.png?page={bad}").status_code == 404


def test_each_phone_shows_its_own_sheet_and_both_positions(tmp_path):
    path, gid = start(tmp_path)
    clients = phones(path, gid)
    play_script(path, gid, clients)
    ada, ben = (clients[n].get(f"/g/{gid}").text for n in ("Ada", "Ben"))
    assert "You play <b>Ada</b>" in ada and "You play <b>Ben</b>" in ben
    # her own sheet: one chest (D2), his: three; both markers on the map, each phone's own first
    assert re.search(r'id="res-chests"><b>1</b>', ada) and re.search(r'id="res-chests"><b>3</b>', ben)
    for page in (ada, ben):
        assert 'id="hero-here"' in page and 'id="opponent-here"' in page and 'id="players"' in page
        assert "D4" in page


def test_the_wrong_player_and_out_of_turn_are_refused_and_not_recorded(tmp_path):
    path, gid = start(tmp_path)
    clients = phones(path, gid)
    res = act(clients["Ben"], gid, {"player": "Ada", "entry": "C1:N"})
    assert refusal(res) == "You play Ben: this step is Ada's, recorded from Ada's phone"
    assert steps_of(path, gid) == 0
    act(clients["Ada"], gid, {"player": "Ada", "entry": "C1:N"})
    res = act(clients["Ben"], gid, {"player": "Ben", "entry": "C1:N"})       # Ada's side
    assert "different side" in refusal(res) and steps_of(path, gid) == 1
    act(clients["Ben"], gid, {"player": "Ben", "entry": "E3:E"})
    res = act(clients["Ben"], gid, {"player": "Ben", "move": "E3", "roll": 6})   # Ada plays first
    assert "Ada first" in refusal(res) and steps_of(path, gid) == 2
    # undo: only the phone of the player whose step it was takes it back (the other's button says why)
    assert 'id="undo" disabled' in clients["Ada"].get(f"/g/{gid}").text
    assert 'id="undo" disabled' not in clients["Ben"].get(f"/g/{gid}").text
    res = clients["Ada"].post(f"/g/{gid}/undo", data={"key": KEY})
    assert "The last step is Ben's" in refusal(res) and steps_of(path, gid) == 2
    res = clients["Ben"].post(f"/g/{gid}/undo", data={"key": KEY})
    assert res.status_code == 200 and "Undone" in res.text and steps_of(path, gid) == 1


def test_a_fight_keeps_the_other_phone_waiting_and_its_panel_records_it(tmp_path):
    path, gid = start(tmp_path)
    clients = phones(path, gid)
    for who, step in (("Ada", {"entry": "C1:N"}), ("Ben", {"entry": "E3:E"}), ("Ada", {"move": "C1", "roll": 6}),
                      ("Ada", {"move": "B1"})):         # the extra step into B1: the statue's fight
        assert refusal(act(clients[who], gid, {"player": who, **step})) is None
    ben = clients["Ben"].get(f"/g/{gid}").text
    assert not offered(ben) and "It is <b>Ada</b>'s turn" in ben
    res = act(clients["Ben"], gid, {"player": "Ben", "move": "E3", "roll": 6})
    assert refusal(res) == "It is Ada's turn: Ada finishes it first (a fight or a choice is due)"
    assert steps_of(path, gid) == 4
    # Ada's fight panel in the rules' order: her die 6, no weapon, the statue's 1; its form is Ada's step
    page = clients["Ada"].get(f"/g/{gid}?fh=6&fw=0&fe=1").text
    form = re.search(r'<form method="post" action="/g/1/act" class="act">(.*?)</form>',
                     page[page.index('id="fight"'):], re.S).group(1)
    fields = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', form))
    assert fields["player"] == "Ada" and fields["panel"] == "fight"
    res = act(clients["Ada"], gid, **{k: v for k, v in fields.items() if k != "key"})
    assert refusal(res) is None and steps_of(path, gid) == 5
    with Journal(path) as j:
        assert j.steps(gid)[-1]["player"] == "Ada" and j.steps(gid)[-1]["fight"]["hero"] == 6
    assert offered(clients["Ben"].get(f"/g/{gid}").text)       # the fight is over: Ben may move


def test_the_forms_make_the_players_steps():
    from sheetgen.games.foury.web import PAGE
    step = PAGE.step_from_form("fight", {"player": "Ada", "hero": "6", "enemy": "1", "weapon": "1"})
    assert step == {"player": "Ada", "fight": {"hero": 6, "enemy": 1, "weapon": True}}
    assert PAGE.step_from_form("oracle", {"as": "Ben", "words": "dark  door"}) == \
        {"player": "Ben", "oracle": {"words": "dark door"}}
    assert PAGE.step_from_form("duel", {"as": "Ben", "hero": "3", "opponent": "", "shield": "1"}) == \
        {"player": "Ben", "duel": {"hero": 3, "opponent": None, "shield": True}}
    # a one-player form without a player is the one-player step, as before
    assert PAGE.step_from_form("fight", {"hero": "2", "enemy": "3"}) == {"fight": {"hero": 2, "enemy": 3}}


def test_the_view_of_each_seat_offers_only_that_players_steps(tmp_path):
    from sheetgen.games.foury.web import PAGE
    path, gid = start(tmp_path)
    with Journal(path) as j:
        header = j.game(gid).header
    sheet = PAGE.sheet(header)
    steps = [{"player": "Ada", "entry": "C1:N"}, {"player": "Ben", "entry": "E3:E"}]
    state = tracker_for("foury").replay(header, steps)
    ada = PAGE.seat_view("Ada", header, steps, sheet, state=state)
    ben = PAGE.seat_view("ben", header, steps, sheet, state=state)      # a seat's case does not matter
    assert ada["turn"] == ben["turn"] == "Ada" and ada["seat"] == "Ada" and ben["seat"] == "Ben"
    assert [t["step"] for t in ada["targets"]] == [{"player": "Ada", "move": "C1"}]
    assert ben["targets"] == [] and ben["actions"] == [] and ben["watching"]
    assert "Ada's turn" in ben["hint"] and "Your turn" in ada["hint"]
    assert [p["name"] for p in ada["players"]] == ["Ada", "Ben"] and ada["players"][0]["you"]
    from sheetgen.render import render_svg_pages
    drawn = render_svg_pages(ben["overlay"])[0]
    assert 'id="hero-here"' in drawn and 'id="opponent-here"' in drawn     # beside their arrows, before a move
    # without a seat (a phone passed round) the page shows the player to play
    assert PAGE.seat_view(None, header, steps, sheet, state=state)["targets"] == ada["targets"]
    assert PAGE.seat_refusal(header, state, {"player": "Ada", "move": "C1"}, "Ben").startswith("You play Ben")
    assert PAGE.seat_refusal(header, state, {"player": "Ada", "move": "C1"}, "Ada") is None
    assert "not a player" in PAGE.seat_refusal(header, state, {"player": "Ada", "move": "C1"}, "Cy")
    assert PAGE.undo_refusal(header, steps[-1], "Ada").startswith("The last step is Ben's")
    assert PAGE.seats(header) == ["Ada", "Ben"] and PAGE.title(header).endswith("Ada and Ben")


def test_play_serves_a_two_player_journal(tmp_path):
    from sheetgen.commands.play import _servable
    path, gid = start(tmp_path)
    with Journal(path) as j:
        _servable(j, gid)               # no InputError: the page serves it
    client = TestClient(make_play_app(path, form_key=KEY, host="0.0.0.0", token="tok123"),
                        base_url="http://192.168.1.7:8765")
    join = client.get(f"/g/{gid}/join?token=tok123").text
    for name in ("Ada", "Ben"):         # an address (and a QR code) per player, carrying the token
        assert f"/g/{gid}?as={name}&amp;token=tok123" in join


# the page plays the default readings: a log declaring another (duel-treasure) is not for it
LEGAL_LOGS = sorted(p for p in (HALL.parent / "two_players").glob("legal-*.yaml")
                    if "readings: [duel" not in p.read_text(encoding="utf-8"))


def test_the_example_logs_left_for_the_page_are_most_of_them():
    assert len(LEGAL_LOGS) >= 7


@pytest.mark.parametrize("log", LEGAL_LOGS, ids=lambda p: p.stem)
def test_every_legal_example_log_plays_on_the_two_phones(tmp_path, log):
    """Each step of the log is offered on its player's phone (a fight or a duel: its panel) and
    recorded from it; the export passes `sheetgen check`."""
    import yaml
    data = yaml.safe_load(log.read_text(encoding="utf-8"))
    header = {"ruleset": "foury", "map": str((log.parent / data["map"]).resolve()), "players": [{"name": p["name"], "hero": p["hero"]}
                                                                 for p in data["players"]]}
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("foury", header)
    clients = phones(path, gid)
    steps = [{"player": p["name"], "entry": p["entry"]} for p in data["players"]] + data["steps"]
    for step in steps:
        who = step["player"]
        if {"sheet", "score"} & step.keys():
            continue                    # the sheet's own bookkeeping: no step of the page
        page = clients[who].get(f"/g/{gid}").text
        if "fight" in step:
            assert 'id="fight"' in page, step
        elif "duel" in step:
            assert 'id="duel-form"' in page, step
        elif "exit" in step and not step["exit"].startswith(page_position(page)):
            # an exit written with the move into its cell: the page offers that move first
            assert {"player": who, "move": step["exit"].split(":")[0]} in offered(page), step
        else:
            bare = {k: v for k, v in step.items() if k != "roll"}
            assert bare in offered(page), f"{who}'s page does not offer {step}"
        res = act(clients[who], gid, step)
        assert refusal(res) is None, (step, refusal(res))
    if data.get("winner"):              # decided: both phones say who won
        said = "a draw" if str(data["winner"]).lower() == "draw" else f"{data['winner']} wins"
        for client in clients.values():
            assert f"The game is over: {said}" in client.get(f"/g/{gid}").text
    text = clients["Ada"].get(f"/g/{gid}/log.yaml").text
    out = tmp_path / "game.yaml"
    out.write_text(text, encoding="utf-8")
    checked = CliRunner().invoke(main, ["check", str(out)])
    assert checked.exit_code == 0, checked.output + text


def page_position(page: str) -> str:
    m = re.search(r'<span class="where">in ([A-Z][0-9]+) ', page)
    return m.group(1) + ":" if m else "-"
