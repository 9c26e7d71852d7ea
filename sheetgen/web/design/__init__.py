"""`sheetgen design`: the map workbench page, served by the shared local server (web/server.py).

The page edits ONE map file, the one given on the command line: it reads and writes no other
file (the print preview and the PDF are made in memory). The map's game does the work through
its designer module (the registry's `find_game(ruleset).module("designer")`, its Game.designer):
this package only speaks HTTP.

    GET  /                 the page            GET  /api/state      the draft as JSON
    POST /api/op           one edit (JSON)     POST /api/save       write the file (atomic)
    POST /api/playtest     start a playtest    GET  /api/playtest   its progress and result
    POST /api/suggest      start a suggestion  GET  /api/suggest    its progress and result
    POST /api/suggest/cancel                   POST /api/suggest/apply   the result becomes the draft
    GET  /api/yaml         the draft's text    GET  /preview.png?paper=a4|letter   GET /sheet.pdf?paper=...

What this package asks of a designer module:
`open_draft(path)`, `new_draft(path, columns, rows)` -> a draft with `apply(op)`, `state()`,
`save()`, `text()`, `document(paper)`, `path`, `saved_text`; `palette()`, `icon_svgs()`, and
`playtest(path, text, saved_text, games, progress, cancelled=, hero=)`. A game that provides these
gets the workbench.  Suggest (optional): `suggest_options()` -> {keep: [{name, meaning}], budgets,
win_rate, tolerance, player}, `suggest(path, text, keep, win_rate, budget, progress, cancelled)` ->
{text, met, win_rate, report, ...} or {cancelled: True}, and the draft's `replace(text)` (one change,
undoable, unsaved).  A suggestion runs in a thread, one at a time per server, within the game's
budgets; its result is only offered: the draft changes when the designer applies it.

Every change is a POST with a JSON body (a form on another site cannot send one without the
browser asking first), bounded in size, from this page's own origin; the shared guard checks
the Host and, when the server is shared, the token.
"""
from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sheetgen.errors import InputError, Problem

HERE = Path(__file__).resolve().parent
MAX_BODY = 64 * 1024            # bytes of one request's JSON: an edit is a few hundred
PAPERS = ("a4", "letter")
PLAYTEST_GAMES = (500, 2000, 5000)


def designer_for(path: Path | None, ruleset: str | None = None):
    """The designer module of the map's game (found through the registry, by the file's ruleset);
    a new map (no file yet): RULESET's, by default the first game with a designer."""
    from sheetgen.definitions.registry import find_game, games, read_header
    from sheetgen.definitions.yamlsource import read_yaml
    if path is not None and path.exists():
        data = read_yaml(path)
        kind, ruleset = read_header(data, str(path))
        if kind != "map":
            raise InputError(Problem(f"the workbench edits maps; {path} is a {kind} definition", str(path), 1, 1,
                                     path="kind", expected="kind: map"))
    if ruleset is None:
        ruleset = next((name for name, g in games().items() if g.designer), None)
        if ruleset is None:
            raise InputError(Problem("no game has a map workbench", str(path or "")))
    game = find_game(ruleset)
    try:
        return game.module("designer")
    except LookupError:
        raise InputError(Problem(f"{game.title} has no map workbench", str(path or ""), path="ruleset")) from None


def open_workbench(path: Path, new: tuple[int, int] | None = None):
    """(draft, designer module) of path (new: a grid of nothing, for a file that does not exist yet)."""
    path = Path(path)
    if new is not None:
        if path.exists():
            raise InputError(Problem(f"{path} exists already: open it without --new", str(path), path="MAP"))
        designer = designer_for(None)
        return designer.new_draft(path, *new), designer
    if not path.is_file():
        if path.exists():
            raise InputError(Problem("not a map file", str(path), path="MAP"))
        hint = "give --new WxH to start a map there"
        if path.suffix == "" and "/" not in str(path):
            hint += f", or copy a built-in map first: sheetgen new map my-map --from {path}"
        raise InputError(Problem(f"no such file ({hint})", str(path), path="MAP"))
    designer = designer_for(path)
    return designer.open_draft(path), designer


class Playtest:
    """One background job of the page (the playtest, the suggestion): progress, result or error."""

    def __init__(self, what: str = "the playtest"):
        self.what = what
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.generation = 0
        self.status = {"running": False, "done": 0, "total": 0, "result": None, "error": None}

    def start(self, run) -> None:
        with self.lock:
            self.generation += 1
            mine = self.generation
            self.status = {"running": True, "done": 0, "total": 0, "result": None, "error": None}

        def progress(done, total):
            with self.lock:
                if mine == self.generation:
                    self.status.update(done=done, total=total)

        def work():
            try:
                result, error = run(progress, lambda: mine != self.generation), None
            except InputError as exc:
                result, error = None, _message(exc)
            except Exception as exc:        # noqa: BLE001 - shown on the page, the server keeps serving
                result, error = None, f"{self.what} failed: {exc}"
            with self.lock:
                if mine == self.generation:
                    self.status.update(running=False, result=result, error=error)

        self.thread = threading.Thread(target=work, daemon=True, name="playtest")
        self.thread.start()

    def busy(self) -> bool:
        """A job's thread still works (a cancelled one until its next progress call)."""
        return self.thread is not None and self.thread.is_alive()

    def cancel(self) -> None:
        """The running job stops at its next progress call (its result is dropped)."""
        with self.lock:
            self.generation += 1
            self.status = {"running": False, "done": 0, "total": 0, "result": None, "error": None}

    def snapshot(self) -> dict:
        with self.lock:
            return dict(self.status)


def _message(exc: InputError) -> str:
    parts = []
    for p in exc.problems:
        text = p.message
        if p.expected:
            text += f" (expected {p.expected})"
        if p.suggestion:
            text += f"; did you mean '{p.suggestion}'?"
        parts.append(text)
    return "; ".join(parts) or str(exc)


def _error(exc: InputError, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": _message(exc)}, status_code=status)


async def _json_body(request: Request):
    """The request's JSON, refused when too large, not JSON or from another origin."""
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).netloc.lower() != (request.headers.get("host") or "").lower():
        raise InputError(Problem("a change must come from the workbench page itself"))
    if (request.headers.get("content-type") or "").split(";")[0].strip().lower() != "application/json":
        raise InputError(Problem("a change is sent as JSON (Content-Type: application/json)"))
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise InputError(Problem(f"the request is larger than {MAX_BODY} bytes"))
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise InputError(Problem(f"the request is larger than {MAX_BODY} bytes"))
    try:
        return json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise InputError(Problem("the request is not JSON")) from None


def _paper(request: Request) -> str:
    paper = request.query_params.get("paper", "a4").lower()
    if paper not in PAPERS:
        raise InputError(Problem(f"unknown paper '{paper}'", path="paper", expected=" or ".join(PAPERS)))
    return paper


def design_routes(draft, designer) -> list:
    """The workbench's routes over one draft (its designer module does the work)."""
    lock = threading.Lock()             # one change at a time (the server may run handlers in threads)
    playtest = Playtest()
    suggestion = Playtest("the suggestion")
    suggesting = getattr(designer, "suggest_options", None)
    suggest_options = suggesting() if suggesting is not None else None
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))
    icons = designer.icon_svgs()
    palette = designer.palette()

    def state() -> dict:
        with lock:
            out = draft.state()
        out["playtest"] = playtest.snapshot()["running"]
        return out

    async def page(request: Request):
        html = env.get_template("design.html").render(
            file=draft.path.name, icons=icons, palette=palette, papers=PAPERS, games=PLAYTEST_GAMES,
            suggest=suggest_options,
            palette_json=json.dumps(palette).replace("<", "\\u003c"))
        return HTMLResponse(html, headers={"Cache-Control": "no-store", "X-Frame-Options": "DENY",
                                           "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:;"
                                                                      " style-src 'self' 'unsafe-inline'"})

    async def get_state(request: Request):
        return JSONResponse(state())

    async def post_op(request: Request):
        try:
            op = await _json_body(request)
            with lock:
                draft.apply(op)
        except InputError as exc:
            return _error(exc)
        return JSONResponse(state())

    async def post_save(request: Request):
        try:
            await _json_body(request)
            with lock:
                draft.save()
        except InputError as exc:
            return _error(exc, 409)
        except OSError as exc:
            return JSONResponse({"error": f"cannot write {draft.path.name}: {exc.strerror or exc}"}, status_code=500)
        return JSONResponse(state())

    async def post_playtest(request: Request):
        try:
            body = await _json_body(request)
            games = int(body.get("games", 2000)) if isinstance(body, dict) else 2000
            hero = (body.get("hero") or None) if isinstance(body, dict) else None
            if hero is not None and hero not in {h["name"] for h in palette["heroes"]}:
                raise InputError(Problem(f"unknown hero {hero!r}", path="hero",
                                         expected=", ".join(h["name"] for h in palette["heroes"])))
            if games not in PLAYTEST_GAMES:
                raise InputError(Problem(f"{games} games: the workbench plays "
                                         + ", ".join(map(str, PLAYTEST_GAMES)), path="games"))
            with lock:
                path, text, saved, revision = draft.path, draft.text(), draft.saved_text, draft.revision
        except (InputError, ValueError, TypeError) as exc:
            return _error(exc if isinstance(exc, InputError) else InputError(Problem(str(exc))))

        def run(progress, cancelled):
            result = designer.playtest(path, text, saved, games, progress, cancelled=cancelled, hero=hero)
            result["revision"] = revision          # the draft it played (the page says when it changed since)
            return result
        playtest.start(run)
        return JSONResponse(playtest.snapshot())

    async def get_playtest(request: Request):
        return JSONResponse(playtest.snapshot())

    async def post_suggest(request: Request):
        try:
            if suggest_options is None:
                raise InputError(Problem("this game's workbench has no Suggest"))
            body = await _json_body(request)
            if not isinstance(body, dict):
                raise InputError(Problem("a suggestion is asked as a JSON object"))
            keep = body.get("keep") or []
            names = [k["name"] for k in suggest_options["keep"]]
            if not isinstance(keep, list) or any(k not in names for k in keep):
                raise InputError(Problem(f"keep: {keep!r}", path="keep", expected="a list of " + ", ".join(names)))
            win_rate = float(body.get("win_rate", suggest_options["win_rate"]))
            budget = int(body.get("budget", suggest_options["budgets"][0]))
            if budget not in suggest_options["budgets"]:
                raise InputError(Problem(f"a budget of {budget} games", path="budget",
                                         expected=", ".join(map(str, suggest_options["budgets"]))))
            if suggestion.busy():
                raise InputError(Problem("a suggestion is running already: wait for it or cancel it"))
            with lock:
                path, text, revision = draft.path, draft.text(), draft.revision
        except (InputError, ValueError, TypeError) as exc:
            return _error(exc if isinstance(exc, InputError) else InputError(Problem(f"a bad value: {exc}")))

        def run(progress, cancelled):
            result = designer.suggest(path, text, keep, win_rate, budget, progress, cancelled)
            result["revision"] = revision          # the draft it started from
            return result
        suggestion.start(run)
        return JSONResponse(suggestion.snapshot())

    async def get_suggest(request: Request):
        return JSONResponse(suggestion.snapshot())

    async def post_suggest_cancel(request: Request):
        try:
            await _json_body(request)
        except InputError as exc:
            return _error(exc)
        suggestion.cancel()
        return JSONResponse(suggestion.snapshot())

    async def post_suggest_apply(request: Request):
        """The finished suggestion becomes the draft: one change (Undo takes it back), not saved."""
        try:
            await _json_body(request)
            result = suggestion.snapshot()["result"]
            if not result or not result.get("text"):
                raise InputError(Problem("there is no suggestion to apply: Suggest first"))
            with lock:
                draft.replace(result["text"])
        except InputError as exc:
            return _error(exc, 409)
        suggestion.cancel()                     # applied once: no longer offered (a reload does not offer it again)
        return JSONResponse(state())

    async def get_yaml(request: Request):
        with lock:
            text = draft.text()
        return PlainTextResponse(text, headers={"Cache-Control": "no-store"})

    def _document(request: Request):
        """The sheet of the draft: 400 for a paper we do not print, 409 for a map that does not build."""
        try:
            paper = _paper(request)
        except InputError as exc:
            return None, _error(exc, 400)
        try:
            with lock:
                return draft.document(paper), None
        except InputError as exc:
            return None, _error(exc, 409)

    async def preview(request: Request):
        from sheetgen.render.png import png_bytes
        doc, refused = _document(request)
        if refused is not None:
            return refused
        return Response(png_bytes(doc.pages[0], dpi=110), media_type="image/png",
                        headers={"Cache-Control": "no-store"})

    async def pdf(request: Request):
        from sheetgen.render.pdf import render_pdf
        doc, refused = _document(request)
        if refused is not None:
            return refused
        name = (re.sub(r"[^\w.-]+", "-", draft.path.stem, flags=re.ASCII).strip("-.") or "map") + ".pdf"   # a safe header value
        return Response(render_pdf(doc, None), media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{name}"',
                                 "Cache-Control": "no-store"})

    return [Route("/", page), Route("/api/state", get_state), Route("/api/op", post_op, methods=["POST"]),
            Route("/api/save", post_save, methods=["POST"]),
            Route("/api/playtest", post_playtest, methods=["POST"]), Route("/api/playtest", get_playtest),
            Route("/api/suggest", post_suggest, methods=["POST"]), Route("/api/suggest", get_suggest),
            Route("/api/suggest/cancel", post_suggest_cancel, methods=["POST"]),
            Route("/api/suggest/apply", post_suggest_apply, methods=["POST"]),
            Route("/api/yaml", get_yaml), Route("/preview.png", preview), Route("/sheet.pdf", pdf),
            Mount("/design", app=StaticFiles(directory=HERE / "static"), name="design-static")]


def make_design_app(draft, designer, *, host: str = "127.0.0.1", token: str | None = None):
    """The workbench app over draft (its game's designer module), with the shared server's guard."""
    from sheetgen.web.server import make_app
    return make_app(design_routes(draft, designer), host=host, token=token)
