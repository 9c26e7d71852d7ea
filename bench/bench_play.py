"""`sheetgen play` under load: concurrent games against the real server on 127.0.0.1.

1. GAMES games of ACTIONS actions each (legal games of the random player on the Ancient
   Story, dice written in), every game played by its own client at once (coroutines of one
   event loop: the clients take little of the machine, and none waits for another client
   thread to time its answer), one POST per action, against `sheetgen play` running as its own
   process, in two loads:
   - flat out: every player sends its next action the moment the last is answered (no pause):
     the server's throughput; with GAMES players never pausing, each waits about GAMES /
     throughput (Little's law), whatever the server does;
   - table pace: a player pauses before each action (exponential, mean THINK s: 0.5 s is ten
     times faster than a player rolling a die and penciling), then taps: the POST and the page
     it leads to (what the browser fetches) are timed, the POST alone and the whole tap;
   each against a plain baseline under the same load: a bare Starlette app that only records
   each POST in SQLite (one transaction each, synchronous=FULL, the stdlib's own locking);
2. afterwards: no action lost or doubled (each game's journal is exactly its actions) and
   every game's export passes `sheetgen check`;
3. KILLS times: the server killed with SIGKILL in the middle of a game, restarted, and
   every acknowledged action is in the journal (the one in flight may or may not be).

The card games (navigation, Shuffle Dungeons: several phones at one table): GAMES tables of 4
players at the table pace, each table's steps ones its page offers (picked at random, 8 distinct
games shared by the tables, up to 120 steps each, fewer where a game ends): the acting phone
POSTs and fetches its page, the 3 other players' pages wait on the long poll (GET
/g/ID/wait?after=VERSION) and fetch the page again when it answers, as cards.js does: the POST,
the other pages told (the POST sent -> the wait answered) and redrawn (-> their page fetched),
beside the plain baseline (the same, with an asyncio.Event long poll and a page of one line);
then the journals checked and KILLS (10) SIGKILLs as above.

Not a timed test: the figures depend on the machine (target: p99 under 50 ms here; the card
games' other pages within 200 ms p99).

Usage: python bench/bench_play.py [--game all|foury|navigation|shuffle] [--quick] [--games 50]
       [--actions 200] [--kills 20] [--think 0.5] [--workers 1] [--before DIR]
  --workers N: `sheetgen play --workers N` (processes that draw the pages)
  --before DIR: the card games' tables also served by the sheetgen of DIR (an earlier version
    unpacked: git archive REV | tar -x -C DIR), in the same run: before and after beside the
    plain baseline
  --quick: 5 games (tables) of 20 actions, 3 kills
"""
from __future__ import annotations

import asyncio
import itertools
import http.client
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
TARGET_P99_MS = 50.0
TARGET_SEEN_MS = 200.0  # a card game: another player's action seen by the other pages
THINK_S = 0.5       # the mean pause of a player between actions at the table pace (a real one takes seconds)
TRAITS = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}


def games_of(count: int, actions: int) -> list[list]:
    """COUNT games of the random player with at least ACTIONS actions, as play-log steps."""
    from sheetgen.games.foury import notation
    from sheetgen.games.foury.formats.map import load_map
    from sheetgen.games.foury.heroes import free_hero
    from sheetgen.games.foury.randomplay import random_game
    board = load_map("ancient-story").board
    hero = free_hero(TRAITS)
    out, seed = [], 0
    while len(out) < count:
        game = random_game(board, hero, seed, max_actions=5000)
        seed += 1
        if len(game) >= actions:
            out.append([notation.serialize(a) for a in game[:actions]])
    return out


def new_journal(path: Path, count: int, ruleset: str = "foury", params: dict | None = None) -> list[int]:
    from sheetgen.definitions.registry import tracker_for
    from sheetgen.tracker.journal import Journal
    header = tracker_for(ruleset).start(params or {"map": "ancient-story", "traits": TRAITS})
    with Journal(path) as j:
        return [j.new_game(ruleset, header) for _ in range(count)]


def start(cmd: list[str], env=None) -> tuple[subprocess.Popen, str]:
    """Start a server process; its address from the line it prints."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                            env=env)
    deadline = time.monotonic() + 60
    for line in proc.stdout:
        m = re.search(r"(?:playing|serving) at (http://\S+)", line)
        if m:
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
            return proc, m.group(1)
        if time.monotonic() > deadline:
            break
    proc.kill()
    raise RuntimeError("the server did not start")


def form_key(base: str, gid: int) -> str:
    host = urlsplit(base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    conn.request("GET", f"/g/{gid}")
    page = conn.getresponse().read().decode()
    conn.close()
    return re.search(r'name="key" value="([^"]+)"', page).group(1)


async def _exchange(reader, writer, method: str, path: str, host: str, body: bytes = b"") -> tuple[int, dict, bytes]:
    """One HTTP/1.1 request on a kept-alive connection: (status, headers, body)."""
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n"
    if method == "POST":
        head += f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
    writer.write(head.encode() + b"\r\n" + body)
    line = await reader.readline()
    if not line:
        raise EOFError("the server closed the connection")     # killed: no answer
    status = int(line.split()[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if "content-length" not in headers:
        raise http.client.HTTPException(f"a response without content-length ({headers})")
    return status, headers, await reader.readexactly(int(headers["content-length"]))


async def play_async(base: str, key: str, gid: int, steps: list, latencies: list, errors: list,
                     think: float = 0.0, taps: list | None = None, acked: list | None = None) -> None:
    """One player: each step POSTed on one kept-alive connection (its latency in LATENCIES; the
    index of each acknowledged one in ACKED); with THINK, a pause of that mean (exponential,
    seeded by the game) before each action, and the page the browser is sent to fetched after it
    (the whole tap, POST + page, in TAPS).  Many players run as coroutines of one event loop, so
    the load's own clients take little of the machine and no player's timing waits for another
    client thread to let go of Python's lock."""
    url = urlsplit(base)
    host = f"{url.hostname}:{url.port}"
    rng = random.Random(gid)
    failures = (OSError, EOFError, asyncio.IncompleteReadError, http.client.HTTPException, ValueError)
    try:
        reader, writer = await asyncio.open_connection(url.hostname, url.port)   # TCP_NODELAY: asyncio's default
    except OSError as exc:
        errors.append(f"game {gid}: cannot connect: {exc!r}")
        return
    try:
        for i, step in enumerate(steps):
            if think:
                await asyncio.sleep(rng.expovariate(1.0 / think))
            body = urlencode({"key": key, "step": json.dumps(step)}).encode()
            t = time.perf_counter()
            try:
                status, headers, _ = await _exchange(reader, writer, "POST", f"/g/{gid}/act", host, body)
                posted = time.perf_counter()
                if taps is not None and status == 303:
                    shown, _, _ = await _exchange(reader, writer, "GET", headers["location"], host)
                    if shown != 200:
                        errors.append(f"game {gid} action {i + 1}: the page after it: HTTP {shown}")
                        return
                    taps.append(time.perf_counter() - t)
            except failures as exc:
                errors.append(f"game {gid} action {i + 1}: {exc!r}")
                return
            latencies.append(posted - t)
            if status != 303:
                errors.append(f"game {gid} action {i + 1}: HTTP {status}")
                return
            if acked is not None:
                acked.append(i)
    finally:
        writer.close()


def load(base: str, key: str, gids: list[int], games: list[list], think: float = 0.0,
         taps: list | None = None) -> tuple[list, list, float]:
    """Every game played at once, each by its own player (coroutines of one event loop)."""
    latencies: list = []
    errors: list = []

    async def everyone():
        await asyncio.gather(*(play_async(base, key, gid, steps, latencies, errors, think, taps)
                               for gid, steps in zip(gids, games)))
    t = time.perf_counter()
    asyncio.run(everyone())
    return latencies, errors, time.perf_counter() - t


def figures(name: str, latencies: list, wall: float) -> dict:
    ms = sorted(x * 1000 for x in latencies)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    out = {"p50": statistics.median(ms), "p99": p99, "max": ms[-1], "rate": len(ms) / wall}
    print(f"{name}: {len(ms)} actions in {wall:.1f} s ({out['rate']:.0f}/s): p50 {out['p50']:.1f} ms, "
          f"p99 {out['p99']:.1f} ms, max {out['max']:.1f} ms")
    return out


def verify(journal: Path, gids: list[int], games: list[list], folder: Path, ruleset: str = "foury") -> list[str]:
    from click.testing import CliRunner

    from sheetgen.cli import main
    from sheetgen.definitions.registry import tracker_for
    from sheetgen.tracker.journal import Journal
    problems = []
    ad = tracker_for(ruleset)
    with Journal(journal) as j:
        for gid, steps in zip(gids, games):
            got = j.steps(gid)
            if got != steps:
                problems.append(f"game {gid}: {len(got)} steps recorded, {len(steps)} played"
                                + ("" if len(got) == len(steps) else "") + " (lost or doubled)")
                continue
            log = folder / f"game-{gid}.yaml"
            log.write_text(ad.export(j.game(gid).header, got, folder))
            res = CliRunner().invoke(main, ["check", str(log)])
            if res.exit_code != 0:
                problems.append(f"game {gid}: sheetgen check exit {res.exit_code}: {res.output[:200]}")
    return problems


def kill_check(journal: Path, games: list[list], kills: int, workers: int = 1,
               new_game=lambda path: new_journal(path, 1)[0]) -> list[str]:
    """Kill the server with SIGKILL mid-game KILLS times; after each restart the journal holds
    every acknowledged action (and nothing but the game's actions, in order).  A game played
    to its end makes way for the next one."""
    from sheetgen.tracker.journal import Journal
    problems = []
    rng = random.Random(7)
    pool = itertools.cycle(games)      # a small run (--games 3 --actions 20) may play them all: again, as new games
    steps = next(pool)
    gid = new_game(journal)
    done = total = 0
    for round_no in range(kills):
        if done >= len(steps):
            steps, done = next(pool), 0
            gid = new_game(journal)
        proc, base = start([sys.executable, "-m", "sheetgen", "play", "--journal", str(journal), "--port", "0",
                            "--workers", str(workers)])
        key = form_key(base, gid)
        acked: list = []
        errors: list = []
        client = threading.Thread(target=asyncio.run,
                                  args=(play_async(base, key, gid, steps[done:], [], errors, acked=acked),))
        client.start()
        time.sleep(rng.uniform(0.05, 0.3))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        client.join()
        with Journal(journal) as j:
            got = j.steps(gid)
        acknowledged = done + len(acked)
        if len(got) < acknowledged:
            problems.append(f"kill {round_no + 1}: {acknowledged} acknowledged, {len(got)} in the journal")
        if got != steps[:len(got)]:
            problems.append(f"kill {round_no + 1}: the journal is not the game's actions in order")
        total += len(got) - done
        done = len(got)
    print(f"SIGKILL: {kills} kills mid-game, {total} actions recorded across them, "
          f"{'every acknowledged action kept' if not problems else 'PROBLEMS'}")
    return problems


PLAIN = '''
import asyncio, sqlite3, sys, threading
from urllib.parse import parse_qsl
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse
from starlette.routing import Route
import uvicorn
from sheetgen.web.server import bind
local = threading.local()
def db():
    c = getattr(local, "c", None)
    if c is None:
        c = local.c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
        c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA synchronous=FULL")
        c.execute("CREATE TABLE IF NOT EXISTS steps (game INTEGER, seq INTEGER, step TEXT, PRIMARY KEY (game, seq))")
    return c
def record(gid, step):
    c = db()
    c.execute("BEGIN IMMEDIATE")
    seq = c.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM steps WHERE game = ?", (gid,)).fetchone()[0]
    c.execute("INSERT INTO steps VALUES (?, ?, ?)", (gid, seq, step))
    c.execute("COMMIT")
    return seq
def current(gid):
    return db().execute("SELECT COALESCE(MAX(seq), 0) FROM steps WHERE game = ?", (gid,)).fetchone()[0]
waiting = {}        # game -> an asyncio.Event set (and dropped) when the game moves
async def act(request):
    form = dict(parse_qsl((await request.body()).decode()))
    gid = request.path_params["gid"]
    seq = await run_in_threadpool(record, gid, form["step"])
    event = waiting.pop(gid, None)
    if event is not None:
        event.set()
    return RedirectResponse(f"/g/{gid}?told={seq}", status_code=303)
async def page(request):
    n = await run_in_threadpool(current, request.path_params["gid"])
    return HTMLResponse(f'<body data-steps="{n}" data-version="{n}"><input name="key" value="plain">')
async def wait(request):
    gid = request.path_params["gid"]
    event = waiting.setdefault(gid, asyncio.Event())
    n = await run_in_threadpool(current, gid)
    if str(n) == request.query_params.get("after"):
        try:
            await asyncio.wait_for(event.wait(), 25)
        except asyncio.TimeoutError:
            pass
        n = await run_in_threadpool(current, gid)
    return JSONResponse({"steps": n, "version": str(n)})
sock = bind("127.0.0.1", 0)
print(f"serving at http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
app = Starlette(routes=[Route("/g/{gid:int}", page), Route("/g/{gid:int}/act", act, methods=["POST"]),
                       Route("/g/{gid:int}/wait", wait)])
uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
'''


# -- the card games: several phones at one table --------------------------------------------------

PLAYERS = ["Ada", "Bo", "Cy", "Di"]
# Shuffle Dungeons: four heroes, and a pile long enough for a game of some length (the cards of
# layouts/shuffle/shuffle-game.yaml's pile, three times)
SHUFFLE_SETUP = """\
sheetgen: 1
kind: playlog
ruleset: shuffle
deck: shuffle-core
setup:
  start: {room: gate-hall, at: [0, 0]}
  rooms: [{room: long-corridor, at: [1, 0]}]
  boss: {at: [1, -1]}
  pile: [%s]
  heroes:
    - {name: Ada, hero: knight}
    - {name: Bo, hero: rogue}
    - {name: Cy, hero: mage}
    - {name: Di, hero: knight}
turns: []
""" % ", ".join(["bread", "short-sword", "bend", "leather-coat", "goblin", "war-axe", "mushroom-stew", "spark",
                 "long-corridor", "tee", "bread"] * 3)


def card_params(ruleset: str, folder: Path) -> dict:
    if ruleset == "navigation":
        return {"map": "nav-crypt", "hero": ",".join(PLAYERS)}
    setup = folder / "shuffle-setup.yaml"
    setup.write_text(SHUFFLE_SETUP)
    return {"map": str(setup)}


def card_games(ruleset: str, params: dict, count: int, actions: int) -> list[list]:
    """COUNT games of about ACTIONS steps (to the end of a turn), each step one the page offers at
    that point (a tap on a card, a button, a choice, a fight or trap form left to sheetgen's
    dice), picked at random (seeded), its dice written in; a game ends where the page says it is
    over."""
    from sheetgen.definitions.registry import tracker_for
    from sheetgen.games.base import Illegal
    from sheetgen.web.play.app import game_page
    ad, page = tracker_for(ruleset), game_page(ruleset)
    header = ad.start(params)
    sheet = page.sheet(header)
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        steps: list = []
        ts = ad.replay(header, [])
        # ACTIONS steps, then on to the end of that turn (a log cut within a turn ends that turn
        # there, and `sheetgen check` would find what it left undone): cut where the page offered
        # the turn's end and the engine accepted it
        while len(steps) < actions + 60:
            view = page.view(header, steps, sheet, state=ts, game=1)
            if view.get("over"):
                break
            offered = [t["step"] for t in view["targets"]]
            for a in view["actions"]:
                offered += ([a["step"]] if a.get("step") is not None else []) + [c["step"] for c in a.get("choices", ())]
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
                break               # nothing the page offers is legal: the game cannot go on
            if len(steps) >= actions and isinstance(step, dict) and "turn" in step:
                break
            steps.append(step)
            ts = after
        out.append(steps)
    return out


async def _connect(base: str):
    url = urlsplit(base)
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    return reader, writer, f"{url.hostname}:{url.port}"


async def table_async(base: str, key: str, gid: int, steps: list, think: float, posts: list, told: list,
                      seen: list, errors: list, seated, go: asyncio.Event) -> None:
    """One table: the phone of the player acting POSTs each step after a pause (exponential, mean
    THINK) and fetches the page it is sent to; the pages of the three other players each wait on
    the long poll (GET /g/ID/wait?after=VERSION) on their own connection and, when it answers,
    fetch the page again (what cards.js does).  TOLD: from the POST sent to a waiting page's
    answer; SEEN: to that page's new HTML received, for every step each of the three pages
    came to show (a step it skipped over counts from its own POST).  The players sit down first:
    the first action waits until every page of every table has its first page (SEATED called
    once per page, GO set when all are), so no page's late connection counts as a slow update."""
    sent: dict[int, float] = {}
    failures = (OSError, EOFError, asyncio.IncompleteReadError, http.client.HTTPException, ValueError, KeyError)

    async def watcher(n: int) -> None:
        try:
            reader, writer, host = await _connect(base)
        except OSError as exc:
            errors.append(f"game {gid} page {n}: cannot connect: {exc!r}")
            seated()
            return
        last = 0
        try:
            try:
                status, _, page = await _exchange(reader, writer, "GET", f"/g/{gid}", host)
            finally:
                seated()
            version = re.search(rb'data-version="([^"]*)"', page).group(1).decode()
            while last < len(steps):
                status, _, body = await _exchange(reader, writer, "GET", f"/g/{gid}/wait?after={version}", host)
                answered = time.perf_counter()
                if status != 200:
                    errors.append(f"game {gid} page {n}: the wait answered HTTP {status}")
                    return
                moved = json.loads(body)
                if moved["version"] == version:
                    continue            # nothing in ~25 s: ask again
                told.extend(answered - sent[k] for k in range(last + 1, moved["steps"] + 1) if k in sent)
                told_upto = max(last, moved["steps"])
                status, _, page = await _exchange(reader, writer, "GET", f"/g/{gid}", host)
                shown_at = time.perf_counter()
                if status != 200:
                    errors.append(f"game {gid} page {n}: the page answered HTTP {status}")
                    return
                version = re.search(rb'data-version="([^"]*)"', page).group(1).decode()
                shown = int(re.search(rb'data-steps="(\d+)"', page).group(1))
                seen.extend(shown_at - sent[k] for k in range(last + 1, shown + 1) if k in sent)
                # a step recorded while the page was fetched is told by the page itself
                told.extend(shown_at - sent[k] for k in range(told_upto + 1, shown + 1) if k in sent)
                last = max(last, shown)
        except failures as exc:
            errors.append(f"game {gid} page {n}: {exc!r}")
        finally:
            writer.close()

    async def actor() -> None:
        rng = random.Random(gid)
        try:
            reader, writer, host = await _connect(base)
        except OSError as exc:
            errors.append(f"game {gid}: cannot connect: {exc!r}")
            return
        try:
            await go.wait()
            for i, step in enumerate(steps):
                await asyncio.sleep(rng.expovariate(1.0 / think))
                body = urlencode({"key": key, "step": json.dumps(step)}).encode()
                t = sent[i + 1] = time.perf_counter()
                status, headers, _ = await _exchange(reader, writer, "POST", f"/g/{gid}/act", host, body)
                posts.append(time.perf_counter() - t)
                if status != 303 or "told=" not in headers.get("location", ""):
                    errors.append(f"game {gid} action {i + 1}: HTTP {status} {headers.get('location')}")
                    return
                status, _, _ = await _exchange(reader, writer, "GET", headers["location"], host)
                if status != 200:
                    errors.append(f"game {gid} action {i + 1}: the page after it: HTTP {status}")
                    return
        except failures as exc:
            errors.append(f"game {gid}: {exc!r}")
        finally:
            writer.close()

    pages = [asyncio.ensure_future(watcher(n)) for n in range(1, len(PLAYERS))]
    await actor()
    try:
        await asyncio.wait_for(asyncio.gather(*pages), 60)
    except asyncio.TimeoutError:
        errors.append(f"game {gid}: a page did not come to show the last step within 60 s")


def tables(base: str, key: str, gids: list[int], games: list[list], think: float):
    posts: list = []
    told: list = []
    seen: list = []
    errors: list = []

    async def everyone():
        go = asyncio.Event()
        waiting = [(len(PLAYERS) - 1) * len(gids)]

        def seated():
            waiting[0] -= 1
            if waiting[0] <= 0:
                go.set()
        await asyncio.gather(*(table_async(base, key, gid, steps, think, posts, told, seen, errors, seated, go)
                               for gid, steps in zip(gids, games)))
    t = time.perf_counter()
    asyncio.run(everyone())
    return posts, told, seen, errors, time.perf_counter() - t


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) used so far by process PID and by its children (Linux /proc;
    zeros elsewhere)."""
    def own(p: int) -> float:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return own(pid), sum(own(c) for c in children)


def serve(ruleset: str, who: str, env: dict, journal: Path, gids: list[int], games: list[list], think: float,
          workers: int, plain: dict, plain_told: dict, plain_seen: dict, plain_cpu: float) -> tuple[dict, list]:
    """The tables of GAMES played against `sheetgen play` (the one ENV imports) on JOURNAL: the POST,
    the other pages told and redrawn, each beside the plain baseline's; its CPU per action."""
    proc, base = start([sys.executable, "-m", "sheetgen", "play", "--journal", str(journal), "--port", "0",
                        "--workers", str(workers)], env)
    try:
        key = form_key(base, gids[0])
        cpu = cpu_seconds(proc.pid)
        posts, told, seen, errors, wall = tables(base, key, gids, games, think)
        now = cpu_seconds(proc.pid)
        server_cpu, drawers_cpu = now[0] - cpu[0], now[1] - cpu[1]
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    ours = figures(f"{ruleset}, {who} --workers {workers}: the POST", posts, wall)
    ours_told = figures(f"{ruleset}, {who}: the other players' pages told (POST sent -> wait answered)",
                        told, wall)
    ours_seen = figures(f"{ruleset}, {who}: the other players' pages redrawn (-> their page fetched)",
                        seen, wall)
    print(f"{ruleset} at the table pace, {who}: POST p99 {ours['p99']:.1f} ms ({ours['p99'] / plain['p99']:.2f}x the "
          f"plain baseline's), target {TARGET_P99_MS:.0f} ms: {'met' if ours['p99'] < TARGET_P99_MS else 'NOT met'}; "
          f"the other pages told p99 {ours_told['p99']:.1f} ms ({ours_told['p99'] / plain_told['p99']:.2f}x), "
          f"redrawn p99 {ours_seen['p99']:.1f} ms ({ours_seen['p99'] / plain_seen['p99']:.2f}x), target "
          f"{TARGET_SEEN_MS:.0f} ms: told {'met' if ours_told['p99'] < TARGET_SEEN_MS else 'NOT met'}, redrawn "
          f"{'met' if ours_seen['p99'] < TARGET_SEEN_MS else 'NOT met'}; load average {os.getloadavg()[0]:.1f}")
    print(f"{ruleset}, {who}: CPU per action: the plain baseline {plain_cpu / max(1, len(posts)) * 1000:.1f} ms; "
          f"sheetgen play's server process {server_cpu / max(1, len(posts)) * 1000:.1f} ms, its page-drawing "
          f"processes {drawers_cpu / max(1, len(posts)) * 1000:.1f} ms (4 phones: 1 POST, 3 waits answered, "
          f"4 pages served)")
    return ours_seen, errors


def cards_bench(ruleset: str, count: int, actions: int, kills: int, think: float, workers: int,
                env: dict, folder: Path, before: Path | None = None) -> list[str]:
    """COUNT tables of 4 players of RULESET at the table pace, against the plain baseline (which
    has a long poll of its own: an asyncio.Event per game, set after the insert) and then
    `sheetgen play`; the journals checked; the server SIGKILLed mid-game KILLS times."""
    params = card_params(ruleset, folder)
    t = time.perf_counter()
    distinct = card_games(ruleset, params, min(count, 8), actions)
    games = [distinct[i % len(distinct)] for i in range(count)]
    total = sum(len(g) for g in games)
    print(f"{ruleset}: {count} tables of {len(PLAYERS)} players, {total} actions in all "
          f"({min(len(g) for g in distinct)}-{max(len(g) for g in distinct)} a game, {len(distinct)} distinct games "
          f"made in {time.perf_counter() - t:.1f} s of the steps each page offered), think {think:g} s, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    journal = folder / f"{ruleset}.sqlite"
    gids = new_journal(journal, count, ruleset, params)
    plain_script = folder / "plain.py"
    plain_script.write_text(PLAIN)
    proc, base = start([sys.executable, str(plain_script), str(folder / f"plain-{ruleset}.sqlite")], env)
    try:
        cpu = cpu_seconds(proc.pid)[0]
        posts, told, seen, errors, wall = tables(base, "plain", gids, games, think)
        plain_cpu = cpu_seconds(proc.pid)[0] - cpu
    finally:
        proc.kill()
        proc.wait()
    plain = figures(f"{ruleset}, plain baseline (Starlette, one SQLite insert per POST, an asyncio.Event "
                    "long poll): the POST", posts, wall)
    plain_told = figures(f"{ruleset}, plain baseline: the other pages told (POST sent -> wait answered)", told, wall)
    plain_seen = figures(f"{ruleset}, plain baseline: the other pages redrawn (-> their page fetched)", seen, wall)
    problems = [f"plain baseline: {e}" for e in errors]
    if before:
        # the same tables served by an earlier sheetgen (an unpacked tree), in this run: before and after
        early = folder / f"{ruleset}-before.sqlite"
        early_gids = new_journal(early, count, ruleset, params)
        serve(ruleset, f"the sheetgen in {before}", dict(env, PYTHONPATH=str(before)), early, early_gids, games,
              think, workers, plain, plain_told, plain_seen, plain_cpu)
    _, errors = serve(ruleset, "sheetgen play", env, journal, gids, games, think, workers, plain, plain_told,
                      plain_seen, plain_cpu)
    problems += errors
    problems += verify(journal, gids, games, folder, ruleset)
    print(f"{ruleset} journals: {count} games, "
          f"{'no action lost or doubled, every export passes sheetgen check' if not problems else 'PROBLEMS'}")
    problems += kill_check(folder / f"kill-{ruleset}.sqlite", games, kills, workers,
                           lambda path: new_journal(path, 1, ruleset, params)[0])
    return problems


def main(argv: list[str]) -> int:
    def opt(name, default, kind=int):
        return kind(argv[argv.index(name) + 1]) if name in argv else default
    quick = "--quick" in argv
    game = opt("--game", "all", str)
    if game not in ("all", "foury", "navigation", "shuffle"):
        print("--game: all, foury, navigation or shuffle", file=sys.stderr)
        return 2
    count, actions, kills = opt("--games", 5 if quick else 50), opt("--actions", 20 if quick else 200), \
        opt("--kills", 3 if quick else 20)
    think = opt("--think", THINK_S, float)
    workers = opt("--workers", 1)
    before = Path(opt("--before", "", str)).resolve() if "--before" in argv else None
    if before is not None and not (before / "sheetgen" / "__init__.py").is_file():
        print(f"--before: {before} holds no sheetgen package (an unpacked tree: git archive REV | tar -x -C DIR)",
              file=sys.stderr)
        return 2
    problems: list = []
    with tempfile.TemporaryDirectory() as data:
        os.environ.setdefault("SHEETGEN_DATA_DIR", data)      # no user's remembered journal touched
        if game in ("all", "foury"):
            problems += foury_bench(count, actions, kills, think, workers)
        for ruleset in {"all": ["navigation", "shuffle"], "foury": []}.get(game, [game]):
            with tempfile.TemporaryDirectory() as tmp:
                problems += cards_bench(ruleset, count, opt("--actions", 20 if quick else 120),
                                        opt("--kills", 3 if quick else 10), think, workers,
                                        dict(os.environ, PYTHONPATH=str(ROOT)), Path(tmp), before)
    for p in problems[:20]:
        print("problem:", p)
    return 1 if problems else 0


def foury_bench(count: int, actions: int, kills: int, think: float, workers: int) -> list[str]:
    """Foury's page: flat out and at the table pace, beside the plain baseline; the journals
    checked; SIGKILLs."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        games = games_of(count, actions)
        journal = folder / "play.sqlite"
        flat_gids, paced_gids = new_journal(journal, count), new_journal(journal, count)
        plain_script = folder / "plain.py"
        plain_script.write_text(PLAIN)
        # the plain baseline: flat out, then at the table pace
        proc, base = start([sys.executable, str(plain_script), str(folder / "plain.sqlite")], env)
        try:
            lat, errors, wall = load(base, "plain", flat_gids, games)
            plain_flat = figures("plain baseline, flat out (Starlette + one SQLite insert per POST)", lat, wall)
            lat, errors, wall = load(base, "plain", paced_gids, games, think)
            plain_paced = figures(f"plain baseline, table pace (think {think:g} s)", lat, wall)
        finally:
            proc.kill()
            proc.wait()
        proc, base = start([sys.executable, "-m", "sheetgen", "play", "--journal", str(journal), "--port", "0",
                            "--workers", str(workers)], env)
        print(f"sheetgen play --workers {workers} ({os.cpu_count()} cores)")
        try:
            key = form_key(base, flat_gids[0])
            lat, errors, wall = load(base, key, flat_gids, games)
            flat = figures(f"sheetgen play, flat out ({count} games x {actions} actions, no pause)", lat, wall)
            taps: list = []
            lat, more, wall = load(base, key, paced_gids, games, think, taps)
            errors += more
            paced = figures(f"sheetgen play, table pace ({count} games x {actions} actions, think {think:g} s), "
                            "the POST", lat, wall)
            tap = figures("sheetgen play, table pace, the whole tap (POST + the page it leads to)", taps, wall)
            # one player alone (a fresh copy of the first game): what one action costs, no queue
            solo_gid = new_journal(journal, 1)[0]
            solo: list = []
            solo_taps: list = []
            t = time.perf_counter()
            asyncio.run(play_async(base, key, solo_gid, games[0], solo, errors, 0.0, solo_taps))
            solo_wall = time.perf_counter() - t
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        figures("sheetgen play, one game alone, the POST", solo, solo_wall)
        figures("sheetgen play, one game alone, the whole tap", solo_taps, solo_wall)
        print(f"flat out: {flat['rate']:.0f} actions/s ({flat['rate'] / plain_flat['rate']:.2f}x the plain baseline's "
              f"{plain_flat['rate']:.0f}/s); with {count} players never pausing, latency is players / rate "
              f"(Little's law): p99 {flat['p99'] / plain_flat['p99']:.2f}x the plain baseline's")
        print(f"table pace: p99 {paced['p99'] / plain_paced['p99']:.2f}x the plain baseline's; p99 target "
              f"{TARGET_P99_MS:.0f} ms: the POST {'met' if paced['p99'] < TARGET_P99_MS else 'NOT met'}, "
              f"the whole tap {'met' if tap['p99'] < TARGET_P99_MS else 'NOT met'}")
        problems = errors + verify(journal, flat_gids + paced_gids, games + games, folder)
        print(f"journals: {2 * count} games, "
              f"{'no action lost or doubled, every export passes sheetgen check' if not problems else 'PROBLEMS'}")
        problems += kill_check(folder / "kill.sqlite", games, kills, workers)
    return problems


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
