"""The hardening figures of README's "Limits" (issue 16): not a test, a measurement.

    python tests/tools/fuzz_figures.py                    # all three parts
    python tests/tools/fuzz_figures.py --inputs 2000 --kills 5 --crashes /tmp/crashes
    python tests/tools/fuzz_figures.py --only fuzz|refused|kills

1. fuzz: mutated built-in definitions and play logs (tests/test_robustness.py's
   mutate) through validate + build, check + validate, and `track step`, in-process:
   how many inputs were tried and how many ended in a traceback (or exit 3).
   --crashes DIR keeps every input that did, for tests/data/robustness/.
2. refused: hostile inputs (huge files, devices, a FIFO, alias bombs on a file and on
   the command line, giant grids and texts, deep nesting, long names), each in its own
   process: the worst wall time and peak memory (max RSS) of any refused input; and
   the same for inputs just inside the limits, which are built.
3. kills: `track` steps and `build`s killed at random moments (SIGKILL, and SIGTERM
   for build): every acknowledged step still in an intact journal; every output file
   the complete old or the complete new version, no part file after the next build.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
sys.path[:0] = [str(ROOT), str(TESTS)]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
HALL = TESTS / "data" / "foury_maps" / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"


# -- 1. fuzz ------------------------------------------------------------------------------------------


def fuzz(inputs: int, seed: int, crashes: Path | None) -> dict:
    import test_robustness as suite
    definitions, logs, steps = suite.sources("definitions"), suite.sources("logs"), suite.step_texts()
    tried = tracebacks = 0
    kinds: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        journal = tmp / "journal.sqlite"
        for args in (["new", "--map", HALL, "--traits", TRAITS], ["enter", "C1:N"]):
            assert suite.fuzz_run(["track", *args, "--journal", journal])[0] == 0
        started = time.time()
        for i in range(inputs):
            rng = random.Random(seed * 1_000_003 + i)
            work = tmp / f"w{i % 50}"
            work.mkdir(exist_ok=True)
            lane = i % 5                            # 2 in 5 definitions, 2 in 5 logs, 1 in 5 steps
            if lane in (0, 1):
                source = rng.choice(definitions)
                for extra in source.parent.glob("*.png"):
                    (work / extra.name).write_bytes(extra.read_bytes())
                text = suite.mutate(source.read_text(encoding="utf-8"), rng)
                problems = suite.fuzz_definition(text, work)
            elif lane in (2, 3):
                source = rng.choice(logs)
                text = suite.mutate(source.read_text(encoding="utf-8"), rng)
                problems = suite.fuzz_log(text, suite.beside(source, work))
            else:
                source = Path("track-step")
                text = suite.mutate(rng.choice(steps), rng)
                code, out, tb = suite.fuzz_run(["track", "step", text, "--journal", journal])
                problems = [f"track step: {tb}"] if tb else []
                if code == 0:
                    suite.fuzz_run(["track", "undo", "--journal", journal])
            tried += 1
            # "nothing half-written" problems are kept apart from tracebacks
            bad = [p for p in problems if "Traceback" in p or "internal error" in p]
            if problems:
                key = problems[0].strip().splitlines()[-1][:120]
                kinds[key] = kinds.get(key, 0) + 1
            if bad:
                tracebacks += 1
            if problems and crashes is not None:
                crashes.mkdir(parents=True, exist_ok=True)
                stem = f"{i:05d}-{source.stem}"
                (crashes / f"{stem}.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
                (crashes / f"{stem}.txt").write_text(f"{source}\n\n" + "\n".join(problems), encoding="utf-8")
            if (i + 1) % 1000 == 0:
                print(f"  {i + 1} inputs, {tracebacks} tracebacks, {time.time() - started:.0f} s", flush=True)
    return {"tried": tried, "tracebacks": tracebacks, "kinds": kinds}


# -- 2. refused (and just allowed) inputs ------------------------------------------------------------


# sheetgen run with its own peak memory written at exit: /proc's VmHWM belongs to the process's
# own memory, while the rusage of a child counts the memory of the process that forked it
_MEASURED = ("import atexit, sys\n"
             "def peak(path=sys.argv[1]):\n"
             "    with open('/proc/self/status') as f, open(path, 'w') as out:\n"
             "        out.write(next(l for l in f if l.startswith('VmHWM')).split()[1])\n"
             "atexit.register(peak)\n"
             "sys.argv = ['sheetgen'] + sys.argv[2:]\n"
             "from sheetgen.cli import main\n"
             "main()\n")


def measure(args: list[str], cwd: Path, timeout: float = 120.0) -> tuple[int, float, float, float, str]:
    """(exit code, wall seconds, CPU seconds, peak memory MB, first stderr line) of `sheetgen ARGS`
    in its own process (CPU time as well as wall time: a busy machine stretches the wall time)."""
    err, peak = cwd / "stderr.txt", cwd / "peak.txt"
    peak.unlink(missing_ok=True)
    with open(err, "w") as stderr:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", _MEASURED, str(peak), *args], cwd=cwd, env=ENV,
                                stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    lines = err.read_text(errors="replace").strip().splitlines()
    cpu = usage.ru_utime + usage.ru_stime
    mb = int(peak.read_text()) / 1024 if peak.exists() else float("nan")
    return code, wall, cpu, mb, (lines[0] if lines else "")[:150]


def _hostile(tmp: Path) -> list[tuple[str, list[str]]]:
    head = "sheetgen: 1\nkind: layout\ntitle: t\n"
    with open(tmp / "50mb.yaml", "w") as f:
        f.write(head + "description: '")
        for _ in range(50):
            f.write("x" * 1_000_000)
        f.write("'\n")
    (tmp / "5mb.yaml").write_text(head + "x:\n" + "".join(f"  - {{move: C{i % 9}, roll: {i % 6 + 1}}}\n"
                                                          for i in range(200_000)))
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    (tmp / "laughs.yaml").write_text(head + "\n".join(levels) + "\n")
    (tmp / "map-zero.yaml").write_text("sheetgen: 1\nkind: playlog\nruleset: foury\nmap: /dev/zero\n"
                                       "hero: {name: kael}\nrounds: []\n")
    (tmp / "map-urandom.yaml").write_text("sheetgen: 1\nkind: playlog\nruleset: foury\nmap: /dev/urandom\n"
                                          "hero: {name: kael}\nrounds: []\n")
    os.mkfifo(tmp / "fifo.yaml")
    (tmp / "map-fifo.yaml").write_text("sheetgen: 1\nkind: playlog\nruleset: foury\nmap: fifo.yaml\n"
                                       "hero: {name: kael}\nrounds: []\n")
    (tmp / "hex1000.yaml").write_text(head + "elements:\n  g: {type: grid, shape: hex, columns: 1000, rows: 1000,"
                                             " cell: 1mm}\n")
    (tmp / "text1e7.yaml").write_text(head + "elements:\n  t: {type: text, text: '" + "x" * 10 ** 7 + "'}\n")
    (tmp / "text-alias.yaml").write_text(head + "t: &t '" + "x" * 200_000 + "'\nelements:\n"
                                         + "".join(f"  t{i}: {{type: text, text: *t}}\n" for i in range(100)))
    (tmp / "deck-hexes.yaml").write_text("sheetgen: 1\nkind: deck\ntitle: t\ncard: {width: 63mm, height: 88mm}\n"
                                         "count: 1000\ntemplate:\n  g: {type: grid, shape: hex, columns: 70,"
                                         " rows: 70, cell: 1mm}\n")
    (tmp / "deep.yaml").write_text(head + "elements: " + "[" * 100_000 + "]" * 100_000 + "\n")
    n = 30_001
    (tmp / "nodes.yaml").write_text(head + "x: [" + ", ".join(["1"] * n) + "]\n")
    (tmp / "at-nodes.yaml").write_text(head + "x: [" + ", ".join(["{a: 1}"] * 9_990) + "]\n")
    long = "n" * 300 + ".yaml"
    step_bomb = "{" + ", ".join(levels) + "}"
    journal = tmp / "journal.sqlite"
    return [
        ("a 50 MB YAML file", ["validate", "50mb.yaml"]),
        ("a 5 MB YAML file", ["validate", "5mb.yaml"]),
        ("check /dev/zero", ["check", "/dev/zero"]),
        ("validate /dev/urandom", ["validate", "/dev/urandom"]),
        ("map: /dev/zero in a log", ["check", "map-zero.yaml"]),
        ("map: /dev/urandom in a log", ["check", "map-urandom.yaml"]),
        ("map: a FIFO in a log", ["check", "map-fifo.yaml"]),
        ("validate a FIFO", ["validate", "fifo.yaml"]),
        ("a billion-laughs file", ["validate", "laughs.yaml"]),
        ("an alias bomb as `track step`", ["track", "step", step_bomb, "--journal", str(journal)]),
        ("a 1000x1000 hex grid (build)", ["build", "hex1000.yaml", "-o", "out"]),
        ("a 10^7-character text (build)", ["build", "text1e7.yaml", "-o", "out"]),
        ("20 MB of text through aliases (build)", ["build", "text-alias.yaml", "-o", "out"]),
        ("1000 cards of 4,900 hexes (build)", ["build", "deck-hexes.yaml", "-o", "out"]),
        ("100,000 levels of nesting", ["validate", "deep.yaml"]),
        ("30,001 values written", ["validate", "nodes.yaml"]),
        ("29,971 values, then an unknown key", ["validate", "at-nodes.yaml"]),
        ("a 305-byte file name (validate)", ["validate", long]),
        ("a 305-byte file name (track new --map)", ["track", "new", "--map", long, "--traits", TRAITS,
                                                     "--journal", str(journal)]),
        ("a 300-byte output folder (build -o)", ["build", "graph-20x28", "-o", "o" * 300]),
    ]


def _allowed(tmp: Path) -> list[tuple[str, list[str]]]:
    head = "sheetgen: 1\nkind: layout\ntitle: t\n"
    (tmp / "hex-limit.yaml").write_text(head + "elements:\n  g: {type: grid, shape: hex, columns: 50, rows: 60,"
                                               " cell: 2mm, labels: true}\n")
    words = " ".join(["word"] * 4_000)[:20_000]
    (tmp / "text-limit.yaml").write_text(head + f"elements:\n  t: {{type: text, text: '{words}', width: 180mm,"
                                                " size: 5}\n")
    (tmp / "deck-limit.yaml").write_text("sheetgen: 1\nkind: deck\ntitle: t\ncard: {width: 63mm, height: 88mm}\n"
                                         "count: 200\ntemplate:\n  g: {type: grid, shape: hex, columns: 10,"
                                         " rows: 10, cell: 5mm}\n")
    # the largest play log sheetgen itself writes: map mode on the largest sheet, to the end
    subprocess.run([sys.executable, "-m", "sheetgen", "explore", "--seed", "17", "--sheet", "60x80", "--rooms",
                    "10000", "--policy", "deepest", "--format", "none", "-o", str(tmp / "explored")], env=ENV,
                   capture_output=True, check=True)
    [big_log] = (tmp / "explored").glob("*.yaml")
    return [
        ("the graph-20x28 built-in, for comparison (build)", ["build", "graph-20x28", "-o", "out"]),
        ("a 50x60 hex grid with labels (build, 3 formats)", ["build", "hex-limit.yaml", "-o", "out"]),
        ("a 20,000-character text (build, 3 formats)", ["build", "text-limit.yaml", "-o", "out"]),
        ("200 cards of 100 hexes (20,000 hexes; build, PDF)", ["build", "deck-limit.yaml", "-o", "out",
                                                              "--format", "pdf"]),
        (f"check a 60x80 map-mode log ({big_log.stat().st_size // 1024} KB)", ["check", str(big_log)]),
    ]


def refused() -> dict:
    rows, allowed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run([sys.executable, "-m", "sheetgen", "track", "new", "--map", str(HALL), "--traits", TRAITS,
                        "--journal", str(tmp / "journal.sqlite")], env=ENV, cwd=tmp, capture_output=True, check=True)
        for label, args in _hostile(tmp):
            rows.append((label, *measure(args, tmp)))
        for label, args in _allowed(tmp):
            allowed.append((label, *measure(args, tmp)))
    return {"refused": rows, "allowed": allowed}


# -- 3. kills --------------------------------------------------------------------------------------------


def _steps_in(journal: Path) -> list[str]:
    db = sqlite3.connect(journal)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [r[0] for r in db.execute("SELECT step FROM steps ORDER BY game_id, seq")]
    finally:
        db.close()


def kill_tracks(kills: int, rng: random.Random) -> tuple[int, int, int]:
    """SIGKILL a process recording a whole legal game step by step (tests/data's
    legal-full-game.yaml) at a random moment: the journal is intact and holds exactly the
    first N steps of the game, N the steps acknowledged ('recorded step' printed) or one
    more (killed between the commit and the print), never half a step."""
    import json

    import yaml
    log = yaml.safe_load((TESTS / "data" / "foury_logs" / "legal-full-game.yaml").read_text(encoding="utf-8"))
    game = []
    for rnd in log["rounds"]:
        game.append({"entry": rnd["entry"]})
        game += rnd["steps"]
    script = ("import json, sys\nfrom click.testing import CliRunner\nfrom sheetgen.cli import main\n"
              "for step in json.loads(sys.argv[2]):\n"
              "    r = CliRunner().invoke(main, ['track', 'step', json.dumps(step), '--journal', sys.argv[1]])\n"
              "    assert r.exit_code == 0, r.output\n"
              "    print('ACK', flush=True)\n")
    survived = landed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(kills):
            journal = Path(tmp) / f"journal-{k}.sqlite"
            subprocess.run([sys.executable, "-m", "sheetgen", "track", "new", "--map", "ancient-story", "--traits",
                            TRAITS, "--journal", str(journal)], env=ENV, capture_output=True, check=True)
            proc = subprocess.Popen([sys.executable, "-c", script, str(journal), json.dumps(game)], env=ENV,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            time.sleep(rng.uniform(0.3, 2.0))
            proc.send_signal(signal.SIGKILL)
            out, _ = proc.communicate()
            acked = out.count("ACK")
            landed += acked < len(game)             # killed before the game was all recorded
            try:
                recorded = [json.loads(s) for s in _steps_in(journal)]
            except (AssertionError, sqlite3.DatabaseError):
                continue
            if len(recorded) in (acked, acked + 1) and recorded == game[:len(recorded)]:
                survived += 1
    return kills, survived, landed


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()
            if p.is_file() and not p.name.endswith(".part")}


def kill_builds(kills: int, rng: random.Random) -> tuple[int, int, int, int]:
    """SIGKILL or SIGTERM the default pack's build at a random moment, into a folder holding
    a complete earlier build: each file is then the old or the new complete version, and the
    next build leaves no part file.  Returns (kills, survived, sets left mixed)."""
    survived = mixed = landed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old, new, out = tmp / "old", tmp / "new", tmp / "out"
        for folder, seed in ((old, "1"), (new, "2")):
            subprocess.run([sys.executable, "-m", "sheetgen", "build", "-o", str(folder), "--seed", seed], env=ENV,
                           capture_output=True, check=True)
        old_d, new_d = _digests(old), _digests(new)
        for k in range(kills):
            if out.exists():
                for p in out.iterdir():
                    p.unlink()
            else:
                out.mkdir()
            for name in old_d:
                (out / name).write_bytes((old / name).read_bytes())
            proc = subprocess.Popen([sys.executable, "-m", "sheetgen", "build", "-o", str(out), "--seed", "2"],
                                    env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.3, 6.0))
            proc.send_signal(signal.SIGKILL if k % 2 == 0 else signal.SIGTERM)
            landed += proc.wait() != 0                 # killed before the build finished
            now = _digests(out)
            whole = set(now) == set(old_d) and all(now[n] in (old_d[n], new_d.get(n)) for n in now)
            if whole and any(now[n] != old_d[n] for n in now) and any(now[n] == old_d[n] for n in now):
                mixed += 1
            subprocess.run([sys.executable, "-m", "sheetgen", "build", "graph-20x28", "-o", str(out), "--format",
                            "svg"], env=ENV, capture_output=True, check=True)
            parts = [p for p in out.iterdir() if p.name.endswith(".part")]
            if whole and not parts:
                survived += 1
    return kills, survived, mixed, landed


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=10_000)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--crashes", type=Path, default=None)
    ap.add_argument("--only", choices=["fuzz", "refused", "kills"], default=None)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    if args.only in (None, "fuzz"):
        started = time.time()
        f = fuzz(args.inputs, args.seed, args.crashes)
        print(f"fuzzed inputs tried: {f['tried']:,}; tracebacks: {f['tracebacks']} ({time.time() - started:.0f} s)")
        for kind, count in sorted(f["kinds"].items(), key=lambda kv: -kv[1])[:15]:
            print(f"  {count:5} x {kind}")
    if args.only in (None, "refused"):
        print(f"load average before: {os.getloadavg()[0]:.1f} (other work stretches the times)")
        r = refused()
        print("refused inputs (exit code, wall s, CPU s, peak MB, first line):")
        for label, code, wall, cpu, mb, line in r["refused"]:
            print(f"  {label:42} exit {code}  {wall:5.2f} s  {cpu:5.2f} s  {mb:6.0f} MB  {line}")
        worst_t = max(r["refused"], key=lambda row: row[2])
        worst_c = max(r["refused"], key=lambda row: row[3])
        worst_m = max(r["refused"], key=lambda row: row[4])
        print(f"worst refused input: {worst_t[2]:.2f} s wall ({worst_t[0]}), {worst_c[3]:.2f} s CPU ({worst_c[0]}), "
              f"{worst_m[4]:.0f} MB ({worst_m[0]}); refused: {sum(row[1] == 2 for row in r['refused'])} of "
              f"{len(r['refused'])} with exit 2")
        print("allowed inputs at the limits (exit code, wall s, CPU s, peak MB):")
        for label, code, wall, cpu, mb, line in r["allowed"]:
            print(f"  {label:50} exit {code}  {wall:5.2f} s  {cpu:5.2f} s  {mb:6.0f} MB")
    if args.only in (None, "kills"):
        k, s, landed = kill_tracks(args.kills, rng)
        print(f"track killed (SIGKILL) while recording a game ({landed} of {k} before its end): {s} of {k} left an "
              "intact journal holding every acknowledged step, no half step")
        k, s, m, landed = kill_builds(args.kills, rng)
        print(f"build of the default pack killed (SIGKILL, SIGTERM by turns; {landed} of {k} before it finished): "
              f"{s} of {k} left every file whole (old or new) and no part file after the next build; "
              f"{m} left a mix of old and new files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
