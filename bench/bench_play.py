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

Not a timed test: the figures depend on the machine (target: p99 under 50 ms here).

Usage: python bench/bench_play.py [--games 50] [--actions 200] [--kills 20] [--think 0.5] [--workers 1]
  --workers N: `sheetgen play --workers N` (server processes sharing the socket)
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


def new_journal(path: Path, count: int) -> list[int]:
    from sheetgen.definitions.registry import tracker_for
    from sheetgen.tracker.journal import Journal
    header = tracker_for("foury").start({"map": "ancient-story", "traits": TRAITS})
    with Journal(path) as j:
        return [j.new_game("foury", header) for _ in range(count)]


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
    status = int((await reader.readline()).split()[1])
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


def verify(journal: Path, gids: list[int], games: list[list], folder: Path) -> list[str]:
    from click.testing import CliRunner

    from sheetgen.cli import main
    from sheetgen.definitions.registry import tracker_for
    from sheetgen.tracker.journal import Journal
    problems = []
    ad = tracker_for("foury")
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


def kill_check(journal: Path, games: list[list], kills: int, workers: int = 1) -> list[str]:
    """Kill the server with SIGKILL mid-game KILLS times; after each restart the journal holds
    every acknowledged action (and nothing but the game's actions, in order).  A game played
    to its end makes way for the next one."""
    from sheetgen.tracker.journal import Journal
    problems = []
    rng = random.Random(7)
    pool = itertools.cycle(games)      # a small run (--games 3 --actions 20) may play them all: again, as new games
    steps = next(pool)
    gid = new_journal(journal, 1)[0]
    done = total = 0
    for round_no in range(kills):
        if done >= len(steps):
            steps, done = next(pool), 0
            gid = new_journal(journal, 1)[0]
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
import sqlite3, sys, threading
from urllib.parse import parse_qsl
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import RedirectResponse
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
async def act(request):
    form = dict(parse_qsl((await request.body()).decode()))
    seq = await run_in_threadpool(record, request.path_params["gid"], form["step"])
    return RedirectResponse(f"/g/{request.path_params['gid']}?told={seq}", status_code=303)
async def page(request):
    from starlette.responses import HTMLResponse
    return HTMLResponse('<input name="key" value="plain">')
sock = bind("127.0.0.1", 0)
print(f"serving at http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
app = Starlette(routes=[Route("/g/{gid:int}", page), Route("/g/{gid:int}/act", act, methods=["POST"])])
uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
'''


def main(argv: list[str]) -> int:
    def opt(name, default, kind=int):
        return kind(argv[argv.index(name) + 1]) if name in argv else default
    count, actions, kills = opt("--games", 50), opt("--actions", 200), opt("--kills", 20)
    think = opt("--think", THINK_S, float)
    workers = opt("--workers", 1)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ.setdefault("SHEETGEN_DATA_DIR", str(folder / "data"))
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
    for p in problems[:20]:
        print("problem:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
