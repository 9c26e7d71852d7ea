"""sheetgen's benchmark: one line per figure, each a ratio against a plain
baseline measured in the same run.

    python bench/run.py                 # cold start, render, then every bench/bench_*.py
    python bench/run.py --only render   # cold start and render figures only
    python bench/run.py --only AREA     # just bench/bench_AREA.py
    python bench/run.py --quick         # fewer repetitions

Not a timed test: the numbers depend on the machine; the ratios travel better.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def best_time(cmd: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
        best = min(best, time.perf_counter() - t)
    return best


def cold_start(runs: int) -> None:
    exe = shutil.which("sheetgen")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "sheetgen", "--help"]
    best_time(cmd, 1)                                   # warm the file cache, not the interpreter
    base = best_time([sys.executable, "-c", "import click"], runs)
    ours = best_time(cmd, runs)
    print(f"cold start `sheetgen --help`: {ours / base:.2f}x `python -c 'import click'` "
          f"({ours * 1000:.0f} ms vs {base * 1000:.0f} ms; target <= 1.5x)", flush=True)


def main(argv: list[str]) -> int:
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        if i + 1 >= len(argv):
            print("--only needs an area name, e.g. --only render", file=sys.stderr)
            return 2
        only = argv[i + 1]
    quick = "--quick" in argv
    scripts = sorted(HERE.glob("bench_*.py"))
    if only:
        scripts = [s for s in scripts if s.stem == f"bench_{only}"]
        if not scripts:
            known = ", ".join(s.stem[len("bench_"):] for s in sorted(HERE.glob("bench_*.py")))
            print(f"no bench/bench_{only}.py (areas: {known})", file=sys.stderr)
            return 2
    if only in (None, "render"):
        cold_start(5 if quick else 10)
    # render first: it is the figure the issue names; others follow in name order
    scripts.sort(key=lambda s: (s.stem != "bench_render", s.stem))
    failed = 0
    for script in scripts:
        sys.stdout.flush()
        extra = ["--quick"] if quick and script.stem == "bench_render" else []
        result = subprocess.run([sys.executable, str(script)] + extra, cwd=ROOT)
        if result.returncode != 0:
            print(f"{script.name}: failed (exit {result.returncode})")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
