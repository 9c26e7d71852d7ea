"""Several phones at one table: the long poll GET /g/ID/wait?after=VERSION (sheetgen/web/play/follow.py)
answers at once when the game has moved past VERSION, holds otherwise and answers when another
player acts (or undoes), refuses beyond its caps, ends when its client goes away, obeys the token
rules like every request; the card page carries the version it shows.  No durations are asserted:
the order of events and what is answered."""
import asyncio
import json
import re

import pytest

pytest.importorskip("starlette")
import httpx  # noqa: E402

from sheetgen.definitions.registry import tracker_for  # noqa: E402
from sheetgen.tracker.journal import Journal  # noqa: E402
from sheetgen.web.play import follow  # noqa: E402
from sheetgen.web.play import make_play_app  # noqa: E402

KEY = "test-form-key"
BASE = "http://127.0.0.1:8765"


def _game(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game("navigation", tracker_for("navigation").start({"map": "nav-crypt", "hero": "Ada,Bo,Cy"}))
    return path, gid


def _tap(page: str, ident: str) -> str:
    from html import unescape
    m = re.search(rf'id="{re.escape(ident)}" data-step="([^"]*)"', page)
    assert m, f"the page offers no tap {ident}"
    return unescape(m.group(1))


def _run(app, body):
    async def main():
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as client:
            return await body(client)
    return asyncio.run(main())


async def _until_waiting(app, n: int) -> None:
    """Let the loop run until N waits are open (an order, not a duration)."""
    for _ in range(10_000):
        if app.state.waits.count >= n:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{app.state.waits.count} waits open, {n} expected")


def test_wait_answers_at_once_when_the_game_has_moved(tmp_path):
    path, gid = _game(tmp_path)
    app = make_play_app(path, form_key=KEY)

    async def body(client):
        now = (await client.get(f"/g/{gid}/version")).json()
        res = await client.get(f"/g/{gid}/wait", params={"after": "an-older-version"})
        assert res.status_code == 200 and res.headers["cache-control"] == "no-store"
        assert res.json() == {**now, "moved": True}
        assert app.state.waits.count == 0
        page = (await client.get(f"/g/{gid}")).text
        assert f'data-version="{now["version"]}"' in page       # what the page waits after
        assert "/play-static/follow.js" in page
    _run(app, body)


def test_wait_holds_until_another_player_acts_then_tells_every_page(tmp_path):
    path, gid = _game(tmp_path)
    app = make_play_app(path, form_key=KEY)

    async def body(client):
        page = (await client.get(f"/g/{gid}")).text
        now = (await client.get(f"/g/{gid}/version")).json()
        waiting = [asyncio.ensure_future(client.get(f"/g/{gid}/wait", params={"after": now["version"]}))
                   for _ in range(3)]
        await _until_waiting(app, 3)
        assert not any(w.done() for w in waiting)       # nothing moved: all three still wait
        res = await client.post(f"/g/{gid}/act", data={"key": KEY, "step": _tap(page, "go-rat-den")})
        assert res.status_code == 303
        answers = [(await w).json() for w in waiting]
        after = (await client.get(f"/g/{gid}/version")).json()
        assert after["steps"] == 1 and after["version"] != now["version"]
        assert answers == [{**after, "moved": True}] * 3
        assert app.state.waits.count == 0
        # a refused step moves nothing: the wait goes on, and the undo then wakes it
        waiting = asyncio.ensure_future(client.get(f"/g/{gid}/wait", params={"after": after["version"]}))
        await _until_waiting(app, 1)
        res = await client.post(f"/g/{gid}/act", data={"key": KEY, "step": json.dumps({"move": "south"})})
        assert "refused=" in res.headers["location"]
        for _ in range(100):
            await asyncio.sleep(0)
        assert not waiting.done()
        await client.post(f"/g/{gid}/undo", data={"key": KEY})
        undone = (await waiting).json()
        assert undone["moved"] and undone["steps"] == 0 and undone["version"] == now["version"]
    _run(app, body)


def test_wait_refuses_beyond_its_caps_and_the_page_is_told_to_retry(tmp_path):
    path, gid = _game(tmp_path)
    with Journal(path) as j:
        other = j.new_game("navigation", tracker_for("navigation").start({"map": "nav-crypt", "hero": "Ada,Bo"}))
    app = make_play_app(path, form_key=KEY)
    app.state.waits.per_game, app.state.waits.total = 2, 3

    async def body(client):
        v = {g: (await client.get(f"/g/{g}/version")).json()["version"] for g in (gid, other)}
        held = [asyncio.ensure_future(client.get(f"/g/{gid}/wait", params={"after": v[gid]})) for _ in range(2)]
        await _until_waiting(app, 2)
        refused = await client.get(f"/g/{gid}/wait", params={"after": v[gid]})       # past the game's cap
        assert refused.status_code == 503 and refused.headers["retry-after"] == str(follow.RETRY_S)
        assert refused.json() == {"retry": follow.RETRY_S}
        # a page behind the table is answered even when the waits are full: it need not wait
        assert (await client.get(f"/g/{gid}/wait", params={"after": "old"})).json()["moved"] is True
        held.append(asyncio.ensure_future(client.get(f"/g/{other}/wait", params={"after": v[other]})))
        await _until_waiting(app, 3)
        assert (await client.get(f"/g/{other}/wait", params={"after": v[other]})).status_code == 503  # in all
        assert app.state.waits.count == 3
        for g in (gid, other):          # header changes move the version too: every wait answered
            await client.post(f"/g/{g}/question", data={"key": KEY, "question": "who opens the door?"})
        assert [(await h).json()["moved"] for h in held] == [True, True, True]
        assert app.state.waits.count == 0
    _run(app, body)


def test_wait_obeys_the_token_rules(tmp_path):
    path, gid = _game(tmp_path)
    app = make_play_app(path, form_key=KEY, host="0.0.0.0", token="the-token")

    async def body(client):
        refused = await client.get(f"/g/{gid}/wait", params={"after": "x"})
        assert refused.status_code == 403 and "token" in refused.text
        client.cookies.set("sheetgen_token", "not-the-token")
        assert (await client.get(f"/g/{gid}/wait", params={"after": "x"})).status_code == 403
        client.cookies.set("sheetgen_token", "the-token")
        res = await client.get(f"/g/{gid}/wait", params={"after": "x"})
        assert res.status_code == 200 and res.json()["moved"] is True
        assert (await client.get("/g/999/wait", params={"after": "x"})).status_code == 404
    _run(app, body)


def test_a_wait_ends_when_its_client_goes_away():
    async def body():
        waits = follow.Waits()
        left = asyncio.Event()
        messages = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive():
            if messages:
                return messages.pop()
            await left.wait()
            return {"type": "http.disconnect"}

        async def read():
            return {"steps": 0, "version": "v0"}
        task = asyncio.ensure_future(follow.wait(waits, 1, "v0", read, receive))
        for _ in range(100):
            await asyncio.sleep(0)
        assert waits.count == 1 and not task.done()
        left.set()
        assert await task == ("gone", None)
        assert waits.count == 0 and not waits.watched(1)
    asyncio.run(body())


def test_a_wait_sees_a_step_another_program_recorded_and_says_nothing_moved_at_its_end():
    async def never():
        await asyncio.Event().wait()

    async def body():
        waits = follow.Waits()
        seen = iter([{"steps": 0, "version": "v0"}, {"steps": 0, "version": "v0"}, {"steps": 1, "version": "v1"}])

        async def read():          # the journal read again while waiting: `sheetgen track` recorded
            return next(seen)
        assert await follow.wait(waits, 1, "v0", read, never, recheck_s=0) == ("moved", {"steps": 1, "version": "v1"})

        async def same():
            return {"steps": 0, "version": "v0"}
        assert await follow.wait(waits, 1, "v0", same, never, wait_s=0) == ("same", {"steps": 0, "version": "v0"})
        assert waits.count == 0
    asyncio.run(body())


def test_the_phones_of_a_table_get_one_drawing_of_the_page_and_never_a_stale_one(tmp_path):
    path, gid = _game(tmp_path)
    app = make_play_app(path, form_key=KEY)
    pages = app.state.play.pages
    drawn = []
    draw = pages.page

    def counted(*args, **kw):
        drawn.append(args)
        return draw(*args, **kw)
    pages.page = counted

    async def body(client):
        first = await asyncio.gather(*(client.get(f"/g/{gid}", params={"as": n}) for n in ("Ada", "Bo", "Cy")))
        assert len({r.text for r in first}) == 1 and len(drawn) == 1      # three phones, one drawing
        assert (await client.get(f"/g/{gid}")).text == first[0].text and len(drawn) == 1     # kept
        with Journal(path) as j:        # another program (`sheetgen track`) records a step
            j.append(gid, json.loads(_tap(first[0].text, "go-rat-den")))
        page = (await client.get(f"/g/{gid}")).text
        assert 'data-steps="1"' in page and len(drawn) == 2
        # the page after the step, for the phone that posted it: the table's page telling it, not drawn again
        told = (await client.get(f"/g/{gid}", params={"told": "1"})).text
        assert "Recorded" in told and 'data-steps="1"' in told and len(drawn) == 2
    _run(app, body)
