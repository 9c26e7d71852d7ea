"""The companion page: PlayApp (record(): what a POST of a step does) and its routes (make_play_app).

GET  /                      the current game of the journal (or how to start one)
GET  /g/ID                  the page of game ID: the map with the pencil so far, what to pencil
                            after the last step, the die, the fight, the actions legal now
POST /g/ID/act              record one step (checked by the rules; a refusal is explained, never
                            recorded); then 303 back to the page, which tells the step
POST /g/ID/undo             take back the last step
POST /g/ID/dice             this game's dice: ask (a real die) or auto (sheetgen rolls), chosen once
POST /g/ID/question         the question asked of the Oracle
GET  /g/ID/log.yaml         the play log (`sheetgen check` accepts it)
GET  /g/ID/pencil.png|pdf   the sheet as the pencil has it;  GET /g/ID/sheet.pdf: the print sheet
GET  /g/ID/sheet.svg        the printed map sheet the page draws over (cached)
GET  /g/ID/state.json       the engine's view of the game (tests, the bench)
GET  /g/ID/version          what the pages poll to follow the table (several phones: join.py)
GET  /g/ID/wait?after=V     answered as soon as the game's version is not V (a long poll: follow.py)
GET  /g/ID/join             an address and a QR code per player, for each phone to join

Every POST carries the page's form key (a secret of this server process, written into its
forms): a page of another site cannot make a change even on 127.0.0.1; request bodies past
MAX_BODY bytes are refused (413).  Nothing a request says names a file: the journal is the
one given at start, the map is the one its game header names.
"""
from __future__ import annotations

import contextlib
import json
import re
import secrets
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...errors import InputError, SheetgenError
from ...tracker.journal import JournalError
from ..server import DEFAULT_HOST, make_app, same_secret
from . import follow as _follow

HERE = Path(__file__).resolve().parent
MAX_BODY = 16 * 1024            # bytes: a step, a fight form or the Oracle's words need far less
MAX_STEP = 4 * 1024             # characters of a step's JSON
MAX_DEPTH = 6                   # nesting of a step ({fight: {clover: {die: ...}}} is 3)
FORM_KEY = "key"
SEAT_COOKIE = "sheetgen-seat-{}"     # per game: the player this browser joined as (?as=NAME)
MAX_SEAT = 60                       # characters of a player's name kept
# open connections the server takes: the usual ones, and the long polls of the pages (follow.TOTAL)
# on top, so waiting pages never take the room of a tap
MAX_CONNECTIONS = 200 + _follow.TOTAL


class Store:
    """The server's journal (one SQLite connection per worker thread) and what it keeps in memory:
    the printed sheets, and per game the steps last read (their JSON text and decoded) with the
    states after them and after all but the last, so a tap replays nothing."""

    def __init__(self, journal_path):
        from ...tracker.journal import resolve
        self.path = resolve(journal_path)
        self.local = threading.local()
        self.sheets: dict = {}          # sheet key -> (game sheet, its SVG text)
        self.games: dict = {}           # game id -> Memo
        self.lock = threading.Lock()
        from ...tracker.journal import GroupCommit
        self.group = GroupCommit(self.path)     # many players at once: their fsyncs shared

    def read(self, gid: int, header: dict, texts: list[str]) -> list:
        """The decoded steps of TEXTS (the journal's step_texts): the ones remembered when unchanged,
        only the new ones decoded when steps were added since (by this process or another)."""
        with self.lock:
            memo = self.games.get(gid)
        if memo is None or memo.header != header or memo.texts is None:
            return self.journal().decode_steps(gid, texts)
        known = len(memo.texts)
        if memo.texts == texts:
            return memo.steps
        if known < len(texts) and texts[:known] == memo.texts:
            return memo.steps + self.journal().decode_steps(gid, texts[known:], first=known + 1)
        return self.journal().decode_steps(gid, texts)

    def state(self, ad, gid: int, header: dict, steps: list, texts: list[str] | None = None):
        """The state after STEPS: remembered (after them, or after all of them but the last:
        the page shown after a tap tells what changed) when the journal still holds exactly
        these steps; when steps were added since (another worker process of this server, or
        `sheetgen track`), the remembered state goes on by them; else replayed.  TEXTS: the
        journal's texts of STEPS, remembered with them so the next read decodes nothing."""
        from ...games.base import Illegal
        with self.lock:
            memo = self.games.get(gid)
        if memo is not None and memo.header == header:
            if memo.steps == steps:
                if memo.texts is None and texts is not None:
                    memo.texts = list(texts)
                return memo.state
            if memo.steps[:-1] == steps:
                if memo.before is None:
                    memo.before = ad.replay(header, steps)
                return memo.before
            known = len(memo.steps)
            if known < len(steps) and steps[:known] == memo.steps:
                state = before = memo.state
                try:
                    for step in steps[known:]:
                        before, state = state, ad.apply(state, step)
                except Illegal:
                    pass                # recorded, yet refused now (a map file changed): replayed below
                else:
                    self.keep(gid, header, texts, steps, state, before=before)
                    return state
        state = ad.replay(header, steps)
        self.keep(gid, header, texts, steps, state)
        return state

    def keep(self, gid: int, header: dict, texts: list[str] | None, steps: list, state, before=None) -> None:
        with self.lock:
            if len(self.games) > 256:
                self.games.clear()
            memo = self.games.get(gid)
            if texts is None and memo is not None and memo.header == header and memo.steps == steps:
                return
            self.games[gid] = Memo(header, None if texts is None else list(texts), list(steps), state, before)

    async def durable(self, ticket: int) -> None:
        """Return once the commit of TICKET is on disk (the group's flusher thread says so to the
        event loop); JournalError if the disk refused the flush."""
        import asyncio
        loop = asyncio.get_running_loop()
        settled = loop.create_future()

        def done(error):
            loop.call_soon_threadsafe(_settle, settled, error)
        self.group.when_durable(ticket, done)
        await settled

    def journal(self):
        from ...tracker.journal import Journal
        j = getattr(self.local, "journal", None)
        if j is None:
            j = self.local.journal = Journal(self.path, group=self.group)
        return j

    def close(self):
        j = getattr(self.local, "journal", None)
        if j is not None:
            j.close()
            self.local.journal = None


def _quiet(task) -> None:
    """A task nobody awaits: its failure is told where it matters (the page asked for again)."""
    if not task.cancelled():
        task.exception()


def _settle(future, error) -> None:
    if not future.done():
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


class Memo:
    """One game as the server last saw it: TEXTS (None when not read from the journal) decode to
    STEPS, which replay to STATE; BEFORE: the state after all steps but the last, when known."""
    __slots__ = ("header", "texts", "steps", "state", "before")

    def __init__(self, header, texts, steps, state, before):
        self.header, self.texts, self.steps, self.state, self.before = header, texts, steps, state, before


def game_page(ruleset: str):
    """A game's page adapter (its module 'web', attribute PAGE), or InputError."""
    from ...definitions.registry import find_game
    game = find_game(ruleset)
    try:
        return game.module("web").PAGE
    except LookupError:
        raise InputError(f"the {game.title} game has no companion page yet (`sheetgen track` records it)") from None


NEWS = ("<!--news-->", "<!--/news-->")     # the part of a card game's page that says what the last step did
GAP_MM = 8.0                    # between the sheets of a side-by-side image


def side_by_side(doc):
    """DOC's pages side by side on one page (a one-page document as it is): the one-image download
    of a game of several sheets, left to right in the order of the PDF's pages."""
    from ...draw.model import Document, Group, Page, Rect, Style, translate
    if len(doc.pages) < 2:
        return doc
    width = sum(p.width for p in doc.pages) + GAP_MM * (len(doc.pages) - 1)
    height = max(p.height for p in doc.pages)
    items: list = [Rect(0, 0, width, height, Style(stroke=None, fill="#ffffff"))]
    x = 0.0
    for p in doc.pages:
        items.append(Group(tuple(p.items), transform=translate(x, 0.0), id=f"sheet-{p.name}"))
        x += p.width + GAP_MM
    return Document([Page(width, height, items, name="sheets")], title=doc.title, name=doc.name)


def _templates():
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")),
                             autoescape=jinja2.select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
    env.filters["tojson_attr"] = lambda v: json.dumps(v, separators=(",", ":"))
    env.filters["q"] = lambda v: quote(json.dumps(v, separators=(",", ":")) if not isinstance(v, str) else v)
    return env


class Pages:
    """The game pages drawn from a Store: in the server's own process, or in a page-drawing
    process of a PagePool (which has a Store of its own over the same journal)."""

    def __init__(self, store: Store, key: str):
        self.store, self.key, self.env = store, key, _templates()

    def html(self, name: str, **values) -> str:
        return self.env.get_template(name).render(form_key=self.key, **values)

    def page(self, gid: int, query: dict, refused: str | None = None, pending=None) -> str:
        """The HTML of game GID's page (its adapter's own template where it names one)."""
        values = self.values(gid, query, refused, pending)
        return self.html(values["view"].get("template", "game.html"), **values)

    def told_news(self, gid: int, seq: int, steps_shown: int) -> str | None:
        """The news part (cards_news.html) of the page that tells step SEQ to the player who posted
        it, for a table's page drawn after STEPS_SHOWN steps; None when that page is not the one to
        tell it on (another step came since: the table's page says it as the last step)."""
        from ...definitions.registry import tracker_for
        journal, game, texts, steps = self.load(gid)
        if seq != len(steps) or steps_shown != len(steps) or not steps:
            return None
        ad = tracker_for(game.ruleset)
        after = self.store.state(ad, gid, game.header, steps, texts)
        before = self.store.state(ad, gid, game.header, steps[:-1])
        lines = ad.tell(before, after, steps[-1]).lines
        return self.html("cards_news.html", told=lines, refused=None, undid=None, view={}) if lines else None

    def load(self, gid: int):
        from ...tracker.journal import JournalError
        store = self.store
        journal = store.journal()
        try:
            game = journal.game(gid)
        except JournalError as exc:
            raise NotFound(str(exc)) from None
        texts = journal.step_texts(gid)
        return journal, game, texts, store.read(gid, game.header, texts)

    def sheet_of(self, page, header):
        from ...render import render_svg_pages
        store = self.store
        k = page.sheet_key(header)
        with store.lock:
            found = store.sheets.get(k)
        if found is None:
            sheet = page.sheet(header)
            svg = render_svg_pages(sheet.doc)[0]
            found = (sheet, svg)
            with store.lock:
                if len(store.sheets) > 16:
                    store.sheets.clear()
                store.sheets[k] = found
        return found

    def values(self, gid: int, query: dict, refused: str | None = None, pending=None) -> dict:
        from ...definitions.registry import tracker_for
        from ...render import render_svg_pages
        store = self.store
        journal, game, texts, steps = self.load(gid)
        page = game_page(game.ruleset)
        ad = tracker_for(game.ruleset)
        state = store.state(ad, gid, game.header, steps, texts)
        moved = None
        at = _int(query.get("moved") or query.get("at"))
        if at is not None and at != len(steps):
            moved = (at, len(steps))     # the tap came from a page drawn at another step: no die asked
            pending = None
        told = None
        told_lines: list[str] = []
        told_seq = _int(query.get("told"))
        if refused is None and told_seq and told_seq == len(steps):
            before = store.state(ad, gid, game.header, steps[:-1])
            after = state
            told = ad.tell(before, after, steps[-1])
            told_lines = told.lines
        sheet, _ = self.sheet_of(page, game.header)
        seat = query.get("as") or None         # the player this phone joined as (several phones)
        # a page that tells every phone what the last step did takes the state before it (kept)
        extra = {"before": store.state(ad, gid, game.header, steps[:-1])} \
            if steps and getattr(page, "takes_before", False) else {}
        view = page.seat_view(seat, game.header, steps, sheet, told, pending=pending, state=state, game=gid,
                              **extra)
        overlay = _nested(render_svg_pages(view["overlay"])[0], *view["page"])
        dice = game.header.get("dice")
        pending_die = None
        if pending is not None and refused is None:
            due = ad.dice_due(state, pending)
            pending_die = {"step": pending, "due": [{"path": ".".join(p), "what": w} for p, w in due],
                           "label": _describe(pending)}
        rolled = None
        if query.get("roll") == "fight" and view.get("fight"):
            import random
            rng = random.Random()
            rolled = {"hero": rng.randint(1, 6), "enemy": rng.randint(1, 6)}
        # a game that asks a fight's dice in the rules' order (your die, a choice, the foe's)
        fightflow = page.fight_stage(game.header, steps, state, query, f"{self.key}:{gid}") \
            if view.get("fight") and pending is None else None
        erase = None
        if query.get("undid") == "1" and query.get("u"):
            try:
                erase = ad.undo_lines(state, _step_json(query["u"]))
            except (InputError, ValueError, KeyError, TypeError):
                erase = None            # not a step: the plain "erase it" is said
        # a phone whose player may not take back the last step (another player's): its undo says why
        undo_refused = page.undo_refusal(game.header, steps[-1], seat) if seat and steps else None
        from .join import version_of
        return dict(game=game, gid=gid, view=view, overlay=overlay, steps=len(steps), told=told_lines,
                    undo_refused=undo_refused, version=version_of(game.header, texts),
                    fightflow=fightflow, erase=erase, moved=moved,
                    undid=query.get("undid"), refused=refused, dice=dice, pending=pending_die, rolled=rolled,
                    question=game.header.get("question"), title=page.title(game.header), seat=seat)


class PagePool:
    """Processes that draw the game pages, so a step being recorded never waits behind a page
    being drawn (the server's process records; Python runs one thread at a time), and pages of
    many games are drawn on as many cores.  A game is always drawn by the same process (by its
    id), whose Store goes on from the last page it drew; each reads the journal, so a step
    recorded by the server (or `sheetgen track`) is seen on the next page.  Each is its own
    interpreter (drawer.py) spoken to over a socket from the event loop: no thread of the server
    waits for it.  They ignore Ctrl-C (the server stops them), die with the server even when it
    is killed, and one that died is started again for the next page."""

    def __init__(self, journal_path, key: str, workers: int):
        import os
        self.journal_path, self.key, self.server = str(journal_path), key, os.getpid()
        self.drawers = [_Drawer() for _ in range(workers)]
        self.warm_gid: int | None = None

    def spawn(self, gid: int | None) -> list:
        """Start every process now (each draws game GID once, so its first page is fast); before
        the event loop runs.  Returns what wait_ready waits on."""
        self.warm_gid = gid
        return [d.spawn(self) for d in self.drawers]

    def wait_ready(self, started: list) -> None:
        for d, sock in zip(self.drawers, started):
            d.ready_blocking(sock)

    def _start_message(self) -> dict:
        return {"journal": self.journal_path, "key": self.key, "warm": self.warm_gid}

    async def page(self, gid: int, query: dict, refused: str | None = None, pending=None) -> str:
        import asyncio
        drawer = self.drawers[gid % len(self.drawers)]
        # shielded: a request given up half way (the browser left) still reads its answer, so
        # the next request to this drawer reads its own
        kind, value = await asyncio.shield(drawer.draw(self, (gid, query, refused, pending)))
        if kind == "page":
            return value
        if kind == "not found":
            raise NotFound(value)
        raise InputError(value)

    def close(self) -> None:
        for d in self.drawers:
            d.stop()


class _Drawer:
    """One page-drawing process of a PagePool, as the server sees it."""

    def __init__(self):
        self.proc = None
        self.sock = None
        self.reader = self.writer = None
        self.lock = None                # an asyncio.Lock, made in the event loop
        self.dead: list = []            # processes ended, to be reaped

    def spawn(self, pool: PagePool):
        """Start the process (a fresh interpreter: python -m sheetgen.web.play.drawer) and send
        its start message; returns the server's end of the socket."""
        import os
        import socket
        import subprocess
        import sys
        from .drawer import frame
        ours, theirs = socket.socketpair()
        # the package this server runs from first on its path (a source tree run without installing)
        where = str(Path(__file__).resolve().parents[3])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [where] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "sheetgen.web.play.drawer", str(theirs.fileno()),
                                          str(pool.server)], pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                                         env=env)
        finally:
            theirs.close()
        ours.sendall(frame(pool._start_message()))
        return ours

    def ready_blocking(self, sock) -> None:
        from .drawer import read_message
        with sock.makefile("rb") as incoming:
            if read_message(incoming) is None:
                raise InputError("a page-drawing process did not start (run `sheetgen play --workers 0` to "
                                 "draw the pages in the server's own process)")
        self.sock = sock

    async def _connect(self, pool: PagePool) -> None:
        import asyncio
        from .drawer import read_message_async
        fresh = self.sock is None
        if fresh:                           # it died: a new one (its start read from the loop)
            self.sock = self.spawn(pool)
        self.sock.setblocking(False)
        self.reader, self.writer = await asyncio.open_connection(sock=self.sock)
        if fresh:
            await read_message_async(self.reader)       # ("ready", pid): warm

    async def draw(self, pool: PagePool, wanted: tuple):
        import asyncio
        from .drawer import frame, read_message_async
        if self.lock is None:
            self.lock = asyncio.Lock()
        async with self.lock:               # one page at a time, in the order asked
            for attempt in (1, 2):
                try:
                    if self.writer is None:
                        await self._connect(pool)
                    self.writer.write(frame(wanted))
                    await self.writer.drain()
                    return await read_message_async(self.reader)
                except (OSError, EOFError, asyncio.IncompleteReadError):
                    # its process died (killed, out of memory): the next one draws this page
                    self._lost()
                    if attempt == 2:
                        raise InputError("the page could not be drawn: its drawing process stopped twice") \
                            from None

    def _hang_up(self) -> None:
        """Close the server's end of the socket (the process returns at its end of file)."""
        if self.writer is not None:
            try:
                self.writer.close()
            except RuntimeError:        # its event loop has ended: the socket itself
                self.sock.close()
        elif self.sock is not None:
            self.sock.close()
        self.sock = self.reader = self.writer = None

    def _lost(self) -> None:
        self._hang_up()
        if self.proc is not None:
            self.dead.append(self.proc)
            self.proc = None
        self.dead = [p for p in self.dead if p.poll() is None]      # reaped when ended

    def stop(self) -> None:
        """End the process: its socket closed (it returns at the end of file), killed if slow."""
        import subprocess
        self._hang_up()
        for proc in [self.proc, *self.dead]:
            if proc is None:
                continue
            try:
                proc.wait(2)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.proc, self.dead = None, []


class _GameId(Convertor):
    """A game id in a path: a number SQLite can hold (at most 18 digits); a longer one matches no
    route (404) instead of overflowing SQLite's integers (a 500)."""
    regex = "[0-9]{1,18}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("gameid", _GameId())


class PlayApp:
    """The companion page's server side over one journal: its Store (the journal and what it
    remembers), the Pages drawn from it (here, or by a PagePool of drawing processes), and
    record(), what a POST of a step does; asgi() gives the Starlette app of its routes."""

    def __init__(self, journal_path=None, *, form_key: str | None = None, workers: int = 0):
        self.store = Store(journal_path)
        self.key = form_key or secrets.token_urlsafe(18)
        self.pages = Pages(self.store, self.key)
        self.pool = PagePool(self.store.path, self.key, workers) if workers else None
        # (game, version) -> what the step that made that version did, for the page of the phone that
        # posted it (a game whose page tells it apart, GamePage.told_apart): said as it is recorded
        self.told: dict = {}

    def record(self, gid: int, step, dice_values: dict, seat: str | None = None) -> tuple[str, Any]:
        """Record STEP in game GID (the dice of the form, DICE_VALUES, filled in): checked by the rules
        against the steps it follows, then written in one short transaction (the caller awaits its
        fsync).  Returns ("recorded", its number), ("die", the step with a die or a choice still to
        give: the page asks for it) or ("refused", why: nothing written).  SEAT: the player whose
        phone posted it (a game of several phones: the page may refuse another player's step)."""
        import random

        from ...definitions.registry import tracker_for
        from ...games.base import Illegal
        journal, game, texts, steps = self.pages.load(gid)
        ad = tracker_for(game.ruleset)
        auto = game.header.get("dice") == "auto"
        step = _fill(step, dice_values)
        state = self.store.state(ad, gid, game.header, steps, texts)
        if seat:
            why = game_page(game.ruleset).seat_refusal(game.header, state, step, seat)
            if why:
                return "refused", why
        due = ad.dice_due(state, step)
        if due and not auto:
            return "die", step
        # the dice left to sheetgen rolled; then a choice the player makes after them (map mode:
        # where the rolled room goes) is asked for
        try:
            step = ad.prepare(state, step, random.Random())
        except Illegal as exc:
            return "refused", str(exc)
        if ad.choices_due(state, step):
            return "die", step
        # checked before the journal is locked (the state remembered for these steps), then
        # recorded in one short transaction that only confirms the journal still holds exactly
        # the steps it was checked against (else, another program recorded meanwhile: checked
        # again against what is there)
        try:
            after = ad.apply(state, step)
        except Illegal as exc:
            return "refused", str(exc)
        checked = {"steps": steps, "texts": texts, "before": state, "after": after}

        def check(recorded, step):
            # another program recorded or undid meanwhile: checked again against what is there
            again = self.store.state(ad, gid, game.header, recorded)
            checked.update(steps=recorded, texts=None, before=again, after=ad.apply(again, step))
            return step
        try:
            seq = journal.append(gid, step, check, checked_against=texts)
        except Illegal as exc:
            return "refused", str(exc)
        done = checked["texts"] + [journal.last_text] if checked["texts"] is not None else None
        recorded = json.loads(journal.last_text)
        self.store.keep(gid, game.header, done, checked["steps"] + [recorded], checked["after"],
                        before=checked["before"])
        if done is not None and game_page(game.ruleset).told_apart:
            from .join import version_of
            if len(self.told) > 512:
                self.told.clear()
            self.told[(gid, version_of(game.header, done))] = ad.tell(checked["before"], checked["after"],
                                                                     recorded).lines
        return "recorded", seq

    def warm(self, gid: int) -> None:
        """Draw game GID's page once (its game's modules loaded, its printed sheet drawn), so the
        first tap does not wait for that; the page-drawing processes start meanwhile and each
        draws it too."""
        pool = self.pool
        started = pool.spawn(gid) if pool is not None else None
        try:
            self.pages.page(gid, {})
        except (NotFound, SheetgenError):
            pass                        # the page tells it when asked
        if pool is not None:
            pool.wait_ready(started)

    def asgi(self, *, host: str = DEFAULT_HOST, token: str | None = None):
        """The Starlette app of the routes (the module's docstring lists them)."""
        store, key, pages, pool, record, told = self.store, self.key, self.pages, self.pool, self.record, self.told
        refusals: dict = {}         # (game, token) -> the words of a refused step, shown after the redirect
        from . import follow
        waits = follow.Waits()
        telling: set = set()        # the tasks waking the waits (a reference kept until they end)

        async def read_version(gid: int) -> dict:
            # read in the event loop, as a step is recorded: a short read of a WAL journal (it
            # waits for no writer), cheaper than the hand-over to a worker thread and back
            from .join import version as read
            return read(store.journal(), gid)

        def moved(gid: int) -> None:
            """Game GID changed here: its waiting pages told its new version (read once for all of
            them), after the response to the change, which does not wait for it."""
            import asyncio
            if not waits.watched(gid):
                return

            async def tell():
                try:
                    version = await read_version(gid)
                except JournalError:
                    return              # the waits read the journal again themselves
                # the page the phones are about to ask for, drawn from now (they join that drawing)
                warm = asyncio.get_running_loop().create_task(plain_page(gid))
                telling.add(warm)
                warm.add_done_callback(_quiet)
                warm.add_done_callback(telling.discard)
                waits.moved(gid, version)
            task = asyncio.get_running_loop().create_task(tell())
            telling.add(task)
            task.add_done_callback(telling.discard)

        def render(name: str, status: int = 200, **values) -> HTMLResponse:
            return HTMLResponse(pages.html(name, **values), status_code=status)

        # -- the routes ---------------------------------------------------------------------
        limits: list = []

        async def drawn(fn, *args):
            """FN (a page drawn, a file rendered) in a worker thread, one at a time: pages wait their
            turn in order instead of sharing the interpreter (each would finish late), and a step
            being recorded meanwhile never waits behind more than one of them."""
            import anyio
            if not limits:
                limits.append(anyio.CapacityLimiter(1))
            return await anyio.to_thread.run_sync(fn, *args, limiter=limits[0])

        async def page_html(gid: int, query: dict, refused: str | None = None, pending=None) -> str:
            if pool is not None:
                return await pool.page(gid, query, refused, pending)
            return await drawn(pages.page, gid, query, refused, pending)

        async def home(request):
            def current():
                from ...tracker.journal import JournalError
                try:
                    return store.journal().current().id
                except JournalError:
                    return None
            gid = await run_in_threadpool(current)
            if gid is None:
                return render("none.html", journal=str(store.path))
            return RedirectResponse(f"/g/{gid}", status_code=303)

        drawing: dict = {}          # (game, seat, version) -> the task drawing its plain page
        drawn_pages: dict = {}      # (game, seat) -> (version, its plain page's HTML)

        async def plain_page(gid: int, seat: str | None = None) -> str:
            """The page of game GID as the phone of SEAT sees it (no step told, nothing refused): the
            phones of a table ask for it together after a step, so it is drawn once for all of
            them that sit alike (one drawing per seat and version at a time) and kept while the
            journal's version stays (a page that carries its version, data-version, and shows that one)."""
            import asyncio
            try:
                version = (await read_version(gid))["version"]
                by_seat = game_page(store.journal().game(gid).ruleset).pages_by_seat
            except (JournalError, SheetgenError):
                version, by_seat = None, True       # the page says what is wrong
            seat = seat if by_seat else None        # a page alike for every seat: drawn once for all
            kept = drawn_pages.get((gid, seat))
            if version is not None and kept is not None and kept[0] == version:
                return kept[1]
            task = drawing.get((gid, seat, version))
            if task is None:
                task = asyncio.ensure_future(page_html(gid, {"as": seat} if seat else {}))

                def done(t, key=(gid, seat, version)):
                    drawing.pop(key, None)
                    if t.cancelled() or t.exception() is not None:
                        return
                    if version is not None and f'data-version="{version}"' in t.result():
                        if len(drawn_pages) > 256:
                            drawn_pages.clear()
                        drawn_pages[(gid, seat)] = (version, t.result())
                task.add_done_callback(done)
                drawing[(gid, seat, version)] = task
            return await asyncio.shield(task)   # one phone leaving does not stop the others' page

        def told_apart(gid: int) -> bool:
            try:
                return game_page(store.journal().game(gid).ruleset).told_apart
            except (JournalError, SheetgenError):
                return False

        async def told_page(gid: int, seat: str | None, seq: int) -> str:
            """The page after step SEQ for the phone that posted it: the table's page of this version
            (drawn once for every phone) with its news part telling the step (Pages.told_news)."""
            html = await plain_page(gid, seat)
            shown = re.search(r'data-steps="(\d+)"', html)
            version = re.search(r'data-version="([^"]*)"', html)
            start, end = html.find(NEWS[0]), html.find(NEWS[1])
            if shown is None or version is None or start < 0 or end < start:
                return await page_html(gid, {"told": str(seq), **({"as": seat} if seat else {})})
            lines = told.get((gid, version.group(1))) if int(shown.group(1)) == seq else None
            if lines is not None:       # said as it was recorded here: nothing read again
                news = pages.html("cards_news.html", told=lines, refused=None, undid=None, view={}) if lines else None
            else:                       # recorded by another program, or by this server before a restart
                news = await run_in_threadpool(pages.told_news, gid, seq, int(shown.group(1)))
            if news is None:
                return html             # no step to tell here: the page says the last one as every phone's
            return html[:start + len(NEWS[0])] + "\n" + news + html[end:]

        async def show(request):
            gid = request.path_params["gid"]
            query = dict(request.query_params)
            pending = None
            if query.get("do"):
                try:
                    pending = _step_json(query["do"])
                except InputError as exc:
                    return PlainTextResponse(f"not a step to complete: {exc}", status_code=400)
            # a refusal redirected here (Post/Redirect/Get): its words, kept in this process by a token
            refused = refusals.get((gid, query.pop("refused", "")))
            joined = query.get("as")
            seat = joined or _seat(request, gid)
            if seat:
                query["as"] = seat
            try:
                if refused is None and pending is None and set(query) <= {"as"}:
                    html = await plain_page(gid, seat)      # the page the table's phones share
                elif refused is None and pending is None and set(query) <= {"as", "told"} \
                        and _int(query.get("told")) is not None and told_apart(gid):
                    # after a step: the table's page of this version, its news part telling the step
                    html = await told_page(gid, seat, _int(query["told"]) or 0)
                else:
                    html = await page_html(gid, query, refused, pending)
                response = HTMLResponse(html)
                if joined:          # the player this browser joined as, for its posts and its next pages
                    response.set_cookie(SEAT_COOKIE.format(gid), quote(joined[:MAX_SEAT]), httponly=True,
                                        samesite="strict")
                return response
            except NotFound as exc:
                return PlainTextResponse(str(exc), status_code=404)
            except SheetgenError as exc:
                return PlainTextResponse(str(exc), status_code=400)

        async def act(request):
            gid = request.path_params["gid"]
            form = await _form(request, key)
            if isinstance(form, Response):
                return form
            kind = form.get("panel")
            seat = form.get("as") or _seat(request, gid)        # the player this phone joined as
            try:
                if kind:
                    game = await run_in_threadpool(lambda: pages.load(gid)[1])
                    page = game_page(game.ruleset)
                    if seat and seat in page.seats(game.header):
                        form["as"] = seat           # a panel's step is this player's
                    step = page.step_from_form(kind, form)
                    if step is None:
                        raise InputError(f"no form '{kind}' on this page")
                else:
                    step = _step_json(form.get("step") or "")
                dice_values = {k[4:]: v for k, v in form.items() if k.startswith("die.") and v not in ("", "roll")}
                # recorded here in the event loop (checked, one short transaction: no thread to wait
                # for), acknowledged once the group's fsync covers it (awaited, not blocking the loop)
                journal = store.journal()
                with journal.durable_later() as tickets:
                    what, value = record(gid, step, dice_values, seat)
                if tickets:
                    try:
                        await store.durable(tickets[-1])
                    except JournalError as exc:
                        return PlainTextResponse(f"written, not confirmed: {exc}", status_code=503)
                if what == "recorded":
                    moved(gid)          # the other players' pages told once it is on disk, as the player is
            except NotFound as exc:
                return PlainTextResponse(str(exc), status_code=404)
            except JournalError as exc:     # busy, read-only, full: nothing recorded, and not a rule
                return PlainTextResponse(f"not recorded: {exc}", status_code=503)
            except SheetgenError as exc:
                what, value = "refused", str(exc)
            if what == "recorded":
                return RedirectResponse(f"/g/{gid}?told={value}", status_code=303)
            if what == "die":
                at = _int(form.get("at"))
                if at is not None:
                    now = len((await run_in_threadpool(pages.load, gid))[3])
                    if now != at:           # a tab left behind: the game moved on, no die asked for a stale tap
                        return RedirectResponse(f"/g/{gid}?moved={at}", status_code=303)
                return RedirectResponse(f"/g/{gid}?do={quote(json.dumps(value, separators=(',', ':')))}",
                                        status_code=303)
            # refused: told on a page reached by a GET, so a reload does not post the step again
            token = secrets.token_urlsafe(9)
            if len(refusals) > 256:
                refusals.clear()
            refusals[(gid, token)] = str(value)
            return RedirectResponse(f"/g/{gid}?refused={token}", status_code=303)

        async def undo(request):
            gid = request.path_params["gid"]
            form = await _form(request, key)
            if isinstance(form, Response):
                return form

            seat = form.get("as") or _seat(request, gid)

            def work():
                _, game, _, steps = pages.load(gid)
                why = game_page(game.ruleset).undo_refusal(game.header, steps[-1], seat) if seat and steps else None
                if why:
                    return why, None
                return None, store.journal().undo(gid)
            try:
                why, step = await run_in_threadpool(work)
            except NotFound as exc:
                return PlainTextResponse(str(exc), status_code=404)
            if why:                 # told on a page reached by a GET, as a refused step
                token = secrets.token_urlsafe(9)
                if len(refusals) > 256:
                    refusals.clear()
                refusals[(gid, token)] = why
                return RedirectResponse(f"/g/{gid}?refused={token}", status_code=303)
            if step is not None:
                moved(gid)
            # the step taken back goes with the redirect: the page says what to erase (the game's undo_lines)
            back = f"&u={quote(json.dumps(step, separators=(',', ':')))}" if step is not None else ""
            return RedirectResponse(f"/g/{gid}?undid={'1' if step is not None else '0'}{back[:MAX_STEP]}",
                                    status_code=303)

        async def header_change(request):
            gid = request.path_params["gid"]
            form = await _form(request, key)
            if isinstance(form, Response):
                return form
            change = {}
            if request.url.path.endswith("/dice"):
                if form.get("mode") not in ("ask", "auto"):
                    return PlainTextResponse("dice mode: ask or auto", status_code=400)
                change["dice"] = form.get("mode")
            else:
                text = " ".join(str(form.get("question") or "").split())
                if len(text) > 300:
                    return PlainTextResponse("the question is too long (at most 300 characters)", status_code=400)
                change["question"] = text

            def work():
                pages.load(gid)
                store.journal().update_header(gid, change)
            try:
                await run_in_threadpool(work)
            except NotFound as exc:
                return PlainTextResponse(str(exc), status_code=404)
            moved(gid)
            back = form.get("back") or ""
            return RedirectResponse(f"/g/{gid}" + (back if back.startswith("?") and len(back) < MAX_STEP else ""),
                                    status_code=303)

        async def download(request):
            gid, what = request.path_params["gid"], request.path_params["what"]

            def work():
                from ...definitions.registry import tracker_for
                from ...draw.model import Document
                from ...render import render_pdf_bytes, render_png_pages
                from ...render.common import safe_name
                journal, game, texts, steps = pages.load(gid)
                name = f"game-{gid}"
                if what == "log.yaml":
                    text = tracker_for(game.ruleset).export(game.header, steps, None)
                    return Response(text, media_type="text/yaml; charset=utf-8",
                                    headers={"content-disposition": f'attachment; filename="{name}.yaml"'})
                page = game_page(game.ruleset)
                if what == "sheet.svg":
                    return Response(pages.sheet_of(page, game.header)[1], media_type="image/svg+xml",
                                    headers={"cache-control": "private, max-age=3600"})
                if what == "sheet.pdf":
                    doc = page.print_document(game.header, pages.sheet_of(page, game.header)[0])
                    return Response(render_pdf_bytes(doc), media_type="application/pdf",
                                    headers={"content-disposition": f'attachment; filename="{name}-sheet.pdf"'})
                doc = page.pencil_document(game.header, steps)
                if what == "pencil.pdf":
                    return Response(render_pdf_bytes(doc), media_type="application/pdf",
                                    headers={"content-disposition": f'attachment; filename="{name}-pencil.pdf"'})
                if what == "pencil.png":
                    # one image: a game of several sheets (the 2 Players Mode: the PDF's page per player)
                    # has them side by side in the PDF's order; ?page=N is page N's sheet alone
                    pick = request.query_params.get("page")
                    if pick is not None:
                        if not pick.isdigit() or not 1 <= int(pick) <= len(doc.pages):
                            return PlainTextResponse(f"no page {pick[:20]} (1 to {len(doc.pages)})",
                                                     status_code=404)
                        one = doc.pages[int(pick) - 1]
                        doc, name = Document([one], title=doc.title, name=doc.name), f"{name}-{safe_name(one.name)}"
                    return Response(render_png_pages(side_by_side(doc))[0], media_type="image/png",
                                    headers={"content-disposition": f'attachment; filename="{name}-pencil.png"'})
                if what == "state.json":
                    from ...definitions.registry import tracker_for as t
                    ad = t(game.ruleset)
                    state = store.state(ad, gid, game.header, steps)
                    view = page.view(game.header, steps, pages.sheet_of(page, game.header)[0], state=state, game=gid)
                    return JSONResponse({"steps": len(steps), "header": game.header,
                                         "status": ad.status(state).splitlines(),
                                         "resources": {k: v for k, v, _ in view["resources"]},
                                         "position": view["position"], "phase": view["phase"],
                                         "targets": [t["id"] for t in view["targets"]],
                                         "actions": [a["label"] for a in view["actions"]],
                                         "offered": [a["step"] for a in view["actions"] if "step" in a]
                                         + [c["step"] for a in view["actions"] for c in a.get("choices", ())],
                                         "fight": view["fight"]})
                return PlainTextResponse("not found", status_code=404)
            try:
                return await drawn(work)
            except NotFound as exc:
                return PlainTextResponse(str(exc), status_code=404)

        async def version(request):
            from .join import version as read
            try:
                return JSONResponse(await run_in_threadpool(lambda: read(store.journal(), request.path_params["gid"])),
                                    headers={"cache-control": "no-store"})
            except JournalError as exc:
                return PlainTextResponse(str(exc), status_code=404)

        async def wait(request):
            gid = request.path_params["gid"]
            try:
                kind, value = await follow.wait(waits, gid, request.query_params.get("after", "")[:64],
                                                lambda: read_version(gid), request.receive)
            except JournalError as exc:
                return PlainTextResponse(str(exc), status_code=404)
            if kind == "busy":          # beyond the caps: the page polls meanwhile
                return JSONResponse({"retry": follow.RETRY_S}, status_code=503,
                                    headers={"retry-after": str(follow.RETRY_S), "cache-control": "no-store"})
            if kind == "gone":
                return Response(status_code=204)        # nobody reads it
            return JSONResponse({**value, "moved": kind == "moved"}, headers={"cache-control": "no-store"})

        async def join(request):
            from .join import join_html
            base = f"{request.url.scheme}://{request.headers.get('host') or request.url.netloc}"
            try:
                return HTMLResponse(await drawn(join_html, pages, request.path_params["gid"], base, token))
            except NotFound as exc:
                return PlainTextResponse(str(exc), status_code=404)

        routes = [
            Route("/", home),
            Route("/g/{gid:gameid}/version", version),      # several phones: what the pages poll
            Route("/g/{gid:gameid}/wait", wait),            # or wait for the next change (long poll)
            Route("/g/{gid:gameid}/join", join),            # and how each phone joins
            Route("/g/{gid:gameid}", show),
            Route("/g/{gid:gameid}/act", act, methods=["POST"]),
            Route("/g/{gid:gameid}/undo", undo, methods=["POST"]),
            Route("/g/{gid:gameid}/dice", header_change, methods=["POST"]),
            Route("/g/{gid:gameid}/question", header_change, methods=["POST"]),
            Route("/g/{gid:gameid}/{what:str}", download),
            Mount("/play-static", app=StaticFiles(directory=str(HERE / "static")), name="play-static"),
        ]

        @contextlib.asynccontextmanager
        async def lifespan(app):
            try:
                yield
            finally:
                if pool is not None:
                    pool.close()

        app = make_app(routes, host=host, token=token, lifespan=lifespan, max_body=MAX_BODY)
        app.state.store = store
        app.state.form_key = key
        app.state.warm = self.warm
        app.state.play = self
        app.state.waits = waits
        app.state.connections = MAX_CONNECTIONS
        return app


def make_play_app(journal_path=None, *, host: str = DEFAULT_HOST, token: str | None = None,
                  form_key: str | None = None, workers: int = 0):
    """The companion page's app over the journal at journal_path (resolved like `sheetgen track`);
    workers: processes that draw the pages (0: the server's own worker threads draw them)."""
    return PlayApp(journal_path, form_key=form_key, workers=workers).asgi(host=host, token=token)


class NotFound(Exception):
    pass


async def _form(request, key: str):
    """The POSTed form, after the form key and the Origin are checked (else the refusal)."""
    origin = request.headers.get("origin")
    if origin and origin != "null":
        if urlsplit(origin).netloc.lower() != (request.headers.get("host") or "").lower():
            return PlainTextResponse("refused: a page of another site cannot change this game", status_code=403)
    kind = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    if kind not in ("application/x-www-form-urlencoded", ""):
        return PlainTextResponse("a form of this page is expected (application/x-www-form-urlencoded)",
                                 status_code=415)
    body = await request.body()         # bounded by the server's BodyLimit
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=200)
    except (UnicodeDecodeError, ValueError):
        return PlainTextResponse("an unreadable form", status_code=400)
    form: dict = {}
    for k, v in pairs:
        form.setdefault(k, v)           # the first value of a name
    if not same_secret(str(form.get(FORM_KEY) or ""), key):
        return PlainTextResponse("refused: this form is not from this server's page (reload the page)",
                                 status_code=403)
    return form


def _seat(request, gid: int) -> str | None:
    """The player this browser joined game GID as (its cookie), or None."""
    from urllib.parse import unquote
    kept = request.cookies.get(SEAT_COOKIE.format(gid))
    return unquote(kept)[:MAX_SEAT] if kept else None


posted_form = _form        # the review page (sheetgen.web.review) checks its forms the same way


def _step_json(text: str):
    if len(text) > MAX_STEP:
        raise InputError(f"a step of {len(text)} characters is too long")
    try:
        step = json.loads(text)
    except (ValueError, RecursionError):
        raise InputError("not a step (JSON expected)") from None
    if _depth(step) > MAX_DEPTH:
        raise InputError(f"a step nested more than {MAX_DEPTH} deep is not a step")
    if not isinstance(step, (dict, str)):
        raise InputError("a step is a mapping like {\"move\": \"C2\"} or a word like \"flee\"")
    return step


def _depth(value, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def _fill(step, values: dict):
    """STEP with the dice of the form (fields 'die.PATH', PATH like roll or fight.hero)."""
    import copy
    if not values or not isinstance(step, dict):
        return step
    step = copy.deepcopy(step)
    for path, value in values.items():
        keys = [k for k in path.split(".") if k]
        if not keys or len(keys) > 3:
            continue
        try:
            die = int(value)
        except ValueError:
            die = 0
        target = step
        for k in keys[:-1]:
            nxt = target.get(k)
            if not isinstance(nxt, dict):
                nxt = {"item": nxt} if isinstance(nxt, str) else {}
                target[k] = nxt
            target = nxt
        target[keys[-1]] = die
    return step


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _describe(step) -> str:
    if isinstance(step, str):
        return step
    k, v = next(iter(step.items()), ("the next step", ""))
    if isinstance(v, dict):
        v = v.get("item", "")
    return f"{k} {v}".strip()


_ROOT = re.compile(r"<svg\b[^>]*>")
_BACKGROUND = re.compile(r'<rect class="page-background"[^>]*/>')


def _nested(svg: str, width: float, height: float) -> str:
    """An SVG page as a nested <svg> in page units (mm), without its white background."""
    svg = svg[svg.index("<svg"):]
    svg = _BACKGROUND.sub("", svg, count=1)
    return _ROOT.sub(f'<svg x="0" y="0" width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} {height:g}" '
                     'class="pencil-layer">', svg, count=1)
