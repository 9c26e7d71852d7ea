"""A card game's table page is drawn once per version for every phone: the page the acting phone is
sent to after its step is that page with its news part telling the step (cards_news.html), and it is
the page the page-drawing code would draw for `?told=N` on its own, byte for byte."""
import json
import re

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from sheetgen.definitions.registry import tracker_for  # noqa: E402
from sheetgen.tracker.journal import Journal  # noqa: E402
from sheetgen.web.play import app as play_app  # noqa: E402
from sheetgen.web.play import make_play_app  # noqa: E402
from tests.cards_page_helpers import SHUFFLE_SCRIPT, SHUFFLE_SETUP, nav_plan  # noqa: E402

KEY = "test-form-key"


def _game(tmp_path, ruleset, params):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game(ruleset, tracker_for(ruleset).start(params))
    return path, gid


def _target(page: str, ident: str):
    import html
    m = re.search(rf'id="{re.escape(ident)}" data-step="([^"]*)"', page)
    assert m, f"the page offers no tap {ident}"
    return json.loads(html.unescape(m.group(1)))


def _nav_steps(path, gid, page, n):
    from sheetgen.games.navigation.tracker import ADAPTER
    with Journal(path) as j:
        ts = ADAPTER.replay(j.game(gid).header, j.steps(gid))
    kind, what = nav_plan(ts)
    return _target(page, f"go-{what}") if kind == "tap" else what


def _shuffle_steps(path, gid, page, n):
    kind, *what = SHUFFLE_SCRIPT[n][1]
    if kind not in ("step", "choose", "tap"):
        return None             # a form: played by the other card tests
    return _target(page, what[0]) if kind == "tap" else what[0]


@pytest.mark.parametrize("ruleset", ["navigation", "shuffle"])
def test_the_page_after_a_step_is_the_tables_page_telling_it(tmp_path, monkeypatch, ruleset):
    if ruleset == "navigation":
        path, gid = _game(tmp_path, "navigation", {"map": "nav-crypt", "hero": "Ada,Bo,Cy"})
        next_step, count = _nav_steps, 12
    else:
        setup = tmp_path / "setup.yaml"
        setup.write_text(SHUFFLE_SETUP)
        path, gid = _game(tmp_path, "shuffle", {"map": str(setup)})
        next_step, count = _shuffle_steps, 3            # draw, place the monster, equip (forms follow)
    drawn = []
    values = play_app.Pages.values

    def counted(self, gid, query, *args, **kw):
        drawn.append(dict(query))
        return values(self, gid, query, *args, **kw)
    monkeypatch.setattr(play_app.Pages, "values", counted)
    actor = TestClient(make_play_app(path, form_key=KEY), base_url="http://127.0.0.1:8765")
    other = TestClient(actor.app, base_url="http://127.0.0.1:8765")
    apart = play_app.Pages(play_app.Store(path), KEY)       # the page drawn on its own, to compare
    told = 0
    for n in range(count):
        page = actor.get(f"/g/{gid}").text
        step = next_step(path, gid, page, n)
        assert step is not None
        drawn.clear()
        res = actor.post(f"/g/{gid}/act", data={"key": KEY, "step": json.dumps(step)})
        assert res.status_code == 200 and "Refused" not in res.text, res.text[:2000]
        seq = int(re.search(r"told=(\d+)", res.history[0].headers["location"]).group(1))
        # the acting phone's page, then another phone's: one drawing for both (the table's page)
        assert other.get(f"/g/{gid}").status_code == 200
        assert drawn == [{}], drawn
        assert res.text == apart.page(gid, {"told": str(seq)})
        told += 'id="told"' in res.text
        assert ('id="told"' in res.text) != ('id="last"' in res.text)
    assert told >= 2                    # the steps were told to the phone that posted them


def test_a_page_told_a_step_that_is_no_longer_the_last_says_the_last_one(tmp_path):
    path, gid = _game(tmp_path, "navigation", {"map": "nav-crypt", "hero": "Ada,Bo,Cy"})
    client = TestClient(make_play_app(path, form_key=KEY), base_url="http://127.0.0.1:8765")
    for n in range(2):
        page = client.get(f"/g/{gid}").text
        client.post(f"/g/{gid}/act", data={"key": KEY, "step": json.dumps(_nav_steps(path, gid, page, n))})
    late = client.get(f"/g/{gid}?told=1").text          # step 1 told after step 2 came
    assert 'id="told"' not in late and 'id="last"' in late
    assert late == play_app.Pages(play_app.Store(path), KEY).page(gid, {"told": "1"})


def test_shuffle_tiles_drawn_before_are_the_same_objects_and_draw_the_same(tmp_path):
    """An unchanged tile is the object drawn before (its SVG text is given back, not drawn again);
    the table drawn so is the table drawn afresh, step after step."""
    import random

    from sheetgen.games.base import Illegal
    from sheetgen.games.shuffle import web as shuffle_web
    from sheetgen.render import render_svg_pages
    from sheetgen.web.play.app import game_page
    setup = tmp_path / "setup.yaml"
    setup.write_text(SHUFFLE_SETUP)
    ad, page = tracker_for("shuffle"), game_page("shuffle")
    header = ad.start({"map": str(setup)})
    sheet = page.sheet(header)
    rng = random.Random(3)
    steps: list = []
    ts = ad.replay(header, [])
    kept = changed = 0
    last: dict = {}
    for _ in range(60):
        view = page.view(header, steps, sheet, state=ts)
        shuffle_web.TILES.clear()
        fresh = page.view(header, steps, sheet, state=ts)
        assert render_svg_pages(view["overlay"])[0] == render_svg_pages(fresh["overlay"])[0]
        tiles, again = (
            {g.id: g for g in v["overlay"].pages[0].items[0].items if (getattr(g, "id", None) or "").startswith("tile-")}
            for v in (fresh, page.view(header, steps, sheet, state=ts)))
        assert tiles and all(again[k] is g for k, g in tiles.items())        # drawn once, given again
        kept += sum(1 for k, g in tiles.items() if k in last and last[k] == g)
        changed += sum(1 for k, g in tiles.items() if k in last and last[k] != g)
        last = tiles
        offered = [a["step"] for a in view["actions"] if a.get("step") is not None] + \
            [c["step"] for a in view["actions"] for c in a.get("choices", ())] + [t["step"] for t in view["targets"]]
        forms = view.get("forms") or {}
        offered += [{"fight": {"at": list(f["at"])}} for f in forms.get("fights") or ()]
        offered += [{"trap": {}}] if forms.get("trap") else []
        rng.shuffle(offered)
        for step in offered:
            try:
                step = ad.prepare(ts, step, rng)
                if ad.dice_due(ts, step) or ad.choices_due(ts, step):
                    continue
                after = ad.apply(ts, step)
            except Illegal:
                continue
            break
        else:
            break
        steps.append(step)
        ts = after
    assert len(steps) >= 15 and kept > 0 and changed > 0, (len(steps), kept, changed)
