"""The same user commands, whole process, at an older revision and at this checkout.

    python bench/compare.py REV            # e.g. the commit before a refactoring
    python bench/compare.py REV --runs 9   # more runs of each (default 7)

A refactoring that should change nothing the user sees should not cost time either (issue 26:
"within 5%"). Each command runs as a new process, `python -m sheetgen ...`, with the older
revision's sources first on the path (a git worktree of REV in a temporary folder) or this
checkout's; the two alternate run by run, so a busy moment of the machine hits both, and the
figure is the ratio of the medians (new / old) of wall time. Each side has its own warm user
cache (a first run of each command is left out), and the outputs of the two sides are
compared: a command whose output differs is named, since then the timings compare different work.

Not a timed test: the ratio is what travels between machines, and on a loaded machine even the
ratio wanders by a few percent, so the load is printed with it.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOURY_LOG = "tests/data/foury_logs/legal-full-game.yaml"

# (what it is, the arguments after `python -m sheetgen`); paths relative to this checkout,
# read by both sides (the data, not the code, is shared)
COMMANDS = [
    ("build a page (PDF)", ["build", "graph-20x28", "--format", "pdf", "-o", "{out}"]),
    ("check a Foury game", ["check", FOURY_LOG, "--format", "json"]),
    ("check an Exploration game", ["check", "tests/data/exploration/legal-example.yaml", "--format", "json"]),
    ("check a navigation game", ["check", "nav-crypt-game", "--format", "json"]),
    ("check a Shuffle game", ["check", "shuffle-game", "--format", "json"]),
    ("validate a map", ["validate", "ancient-story"]),
    ("simulate 400 games", ["simulate", "ancient-story", "--games", "400", "--seed", "7", "--format", "json"]),
]


def _run(src: Path, args: list[str], cache: Path, out: Path) -> tuple[float, bytes]:
    env = dict(os.environ, PYTHONPATH=str(src), XDG_CACHE_HOME=str(cache), PYTHONHASHSEED="0")
    argv = [sys.executable, "-m", "sheetgen", *[a.replace("{out}", str(out)) for a in args]]
    t = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True)
    wall = time.perf_counter() - t
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} at {src}: exit {done.returncode}\n{done.stderr.decode()[-2000:]}")
    return wall, done.stdout.replace(str(out).encode(), b"{out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="the older revision (a commit, tag or branch)")
    ap.add_argument("--runs", type=int, default=7, help="runs of each command on each side")
    ap.add_argument("--only", help="only the commands whose label contains this text")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(old), opts.rev], cwd=ROOT, check=True)
        try:
            sides = {"old": old, "new": ROOT}
            caches = {name: Path(tmp) / f"cache-{name}" for name in sides}
            print(f"{opts.rev} (old) against this checkout (new), {opts.runs} alternating runs of each, "
                  f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            ratios = []
            for label, args in [c for c in COMMANDS if not opts.only or opts.only in c[0]]:
                times: dict[str, list[float]] = {name: [] for name in sides}
                outputs: dict[str, bytes] = {}
                for name, src in sides.items():          # warm each side's cache, not timed
                    _, outputs[name] = _run(src, args, caches[name], Path(tmp) / f"out-{name}")
                for i in range(opts.runs):
                    order = list(sides) if i % 2 == 0 else list(reversed(sides))
                    for name in order:
                        wall, _ = _run(sides[name], args, caches[name], Path(tmp) / f"out-{name}")
                        times[name].append(wall)
                o, n = statistics.median(times["old"]), statistics.median(times["new"])
                ratios.append(n / o)
                same = "" if outputs["old"] == outputs["new"] else "   (outputs differ)"
                print(f"  {label:<28} old {o * 1000:7.0f} ms   new {n * 1000:7.0f} ms   new/old {n / o:5.3f}{same}")
            print(f"geometric mean new/old {statistics.geometric_mean(ratios):.3f}; "
                  f"load {os.getloadavg()[0]:.1f} at the end")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
