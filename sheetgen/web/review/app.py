"""The review page's routes, served by the one local server (sheetgen.web.server: 127.0.0.1
unless told otherwise, a token whenever it listens elsewhere, the Host checked, no framing).

GET  /              the scan: its verdict, the uncertain regions first (each with a close-up and a
                    button that flips it), then the flattened photo with every region outlined
                    (tap one to flip it)
GET  /photo.jpg     the photo made flat;  GET /crop/N.png: the close-up of the page's region N
GET  /state.json    the verdict and the corrections (tests, scripts)
POST /flip          flip one region (form: key, n: its number on the page); the check runs again and
                    the sheetscan YAML is written again; then 303 back to the page
POST /confirm       a person says region n reads right as it is (form: key, n): sure from then on,
                    so the verdict no longer waits on it; saved as the person's; 303 back

Every POST carries the page's form key (a secret of this server process) and its Origin is
checked, as on the play page; bodies past MAX_BODY bytes are refused (413).  A region is
named by its number in the session's list, never by a path or a file name.
"""
from __future__ import annotations

import threading
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..server import DEFAULT_HOST, make_app

HERE = Path(__file__).resolve().parent
MAX_BODY = 4 * 1024             # a flip's form is a few dozen bytes
LISTED = 60                     # uncertain regions listed with a close-up (the rest: outlined on the sheet)
OTHERWISE_MOST = 12             # of them, those the verdict waits on say what the rules find read otherwise
# the page loads only its own files; no inline script or style
POLICY = ("default-src 'self'; img-src 'self'; script-src 'self'; style-src 'self'; "
          "form-action 'self'; base-uri 'none'; object-src 'none'")


def _templates():
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")),
                              autoescape=jinja2.select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)


def _drawn_size(region: dict) -> float:
    shape = region["shape"]
    if "rect" in shape:
        return shape["rect"][2] * shape["rect"][3]
    if "circle" in shape:
        return 3.1416 * shape["circle"][2] ** 2
    return 0.0                  # a line: on top of everything


def make_review_app(session, *, host: str = DEFAULT_HOST, token: str | None = None, form_key: str | None = None):
    """The review page's app over SESSION (see the package's docstring for what it must offer)."""
    import secrets

    from ..play.app import FORM_KEY, posted_form
    key = form_key or secrets.token_urlsafe(18)
    env = _templates()
    lock = threading.Lock()         # one flip at a time: a flip changes the session's readings

    def page_html() -> str:
        with lock:
            regions = session.regions()
            summary = session.summary()
            for n, r in enumerate(regions):
                r["n"] = n
            uncertain = [r for r in regions if r["uncertain"] or r["corrected"] or r["confirmed"]]
            # the listed ones the verdict waits on (not moot, not under print) say what the rules find read
            # otherwise, worked out on the readings the page shows
            said = session.otherwise([r["id"] for r in uncertain[:LISTED]], most=OTHERWISE_MOST)
            for r in uncertain[:LISTED]:
                if r["id"] in said:
                    r["otherwise"] = said[r["id"]]
        w, h = summary["page_mm"]
        # drawn biggest first, so a tap lands on the smallest region under the finger (a wall over
        # the room it bounds, a box over the panel it sits in)
        drawn = sorted(regions, key=_drawn_size, reverse=True)
        return env.get_template("review.html").render(
            form_key=key, key_name=FORM_KEY, summary=summary, regions=drawn, listed=uncertain[:LISTED],
            more=max(0, len(uncertain) - LISTED), width=w, height=h)

    def region_id(n: str) -> str | None:
        # the page numbers regions in the session's review order, which a flip never changes: no need to
        # build every region's entry (session.regions) to name one
        if not n.isdigit():
            return None
        return session.order[int(n)] if int(n) < len(session.order) else None

    async def index(request):
        html = await run_in_threadpool(page_html)
        return HTMLResponse(html, headers={"content-security-policy": POLICY, "cache-control": "no-store"})

    async def photo(request):
        data = await run_in_threadpool(session.photo_png)
        return Response(data, media_type="image/jpeg", headers={"cache-control": "private, max-age=3600"})

    async def crop(request):
        rid = await run_in_threadpool(region_id, request.path_params["n"])
        if rid is None:
            return PlainTextResponse("no such region", status_code=404)
        data = await run_in_threadpool(session.crop_png, rid)
        return Response(data, media_type="image/png", headers={"cache-control": "no-store"})

    async def state(request):
        with lock:
            summary = session.summary()
        return JSONResponse(summary, headers={"cache-control": "no-store"})

    def region_action(act):
        """A POST that does ACT(session, region id) to the region the form names (its number n on
        the page), saves the sheetscan YAML and goes back to the region (or to the sheet)."""
        async def route(request):
            form = await posted_form(request, key)
            if isinstance(form, Response):
                return form
            rid = await run_in_threadpool(region_id, str(form.get("n") or ""))
            if rid is None:
                return PlainTextResponse("no such region on this page (reload it)", status_code=400)

            def do():
                with lock:
                    act(session, rid)
                    session.save()
            await run_in_threadpool(do)
            back = "#sheet" if form.get("from") == "sheet" else f"#r{form.get('n')}"
            return RedirectResponse("/" + back, status_code=303)
        return route

    flip = region_action(lambda s, rid: s.flip(rid))
    confirm = region_action(lambda s, rid: s.confirm(rid))

    routes = [
        Route("/", index),
        Route("/photo.jpg", photo),
        Route("/crop/{n:str}.png", crop),
        Route("/state.json", state),
        Route("/flip", flip, methods=["POST"]),
        Route("/confirm", confirm, methods=["POST"]),
        Mount("/review-static", app=StaticFiles(directory=str(HERE / "static")), name="review-static"),
    ]
    app = make_app(routes, host=host, token=token, max_body=MAX_BODY)
    app.state.form_key = key
    return app
