"""sheetgen's benchmark: one line per figure, each a ratio against a plain
baseline measured in the same run.

    python bench/run.py                 # cold start, whole process, first run, render, then every bench/bench_*.py
    python bench/run.py --only render   # cold start, whole process, first run and render figures
    python bench/run.py --only start    # cold start, whole-process and first-run figures only
    python bench/run.py --only AREA     # just bench/bench_AREA.py
    python bench/run.py --quick         # fewer repetitions (bench_generate: 10 maps, not 100)
    python bench/run.py --docs          # also write every figure into docs/performance.md

The docs' performance page is written by this script (--docs), never edited by hand: the
figures, the machine they were measured on and its load, in the order they were printed.

Not a timed test: the numbers depend on the machine; the ratios travel better.
The whole-process figures time what a user waits for: `sheetgen build graph-20x28
--format pdf` (and a 100-page pack of that sheet) as a new process, against
bench/plain_graph.py drawing the same page(s) with plain reportlab, the two run
alternately so a busy moment of the machine hits both; the median of N runs of each.
The first-run figures time the one-page build and `sheetgen track status` (a Foury game
of about 115 steps) with an empty user cache (a newcomer's first command, a fresh
machine) against the same with the cache a previous run left, alternately, medians.
"""
from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _wall(cmd: list[str], env: dict | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT, env=env)
    return time.perf_counter() - t


def cold_start(runs: int) -> None:
    exe = shutil.which("sheetgen")
    cmd = [exe, "--help"] if exe else [sys.executable, "-m", "sheetgen", "--help"]
    base_cmd = [sys.executable, "-c", "import click"]
    _wall(cmd), _wall(base_cmd)                         # warm the file cache, not the interpreter
    ours, base = [], []
    for _ in range(runs):                               # alternately: a busy moment hits both
        ours.append(_wall(cmd))
        base.append(_wall(base_cmd))
    ours_s, base_s = statistics.median(ours), statistics.median(base)
    print(f"cold start `sheetgen --help`: {ours_s / base_s:.2f}x `python -c 'import click'` "
          f"({ours_s * 1000:.0f} ms vs {base_s * 1000:.0f} ms, median of {runs}; target <= 1.5x)", flush=True)


def first_run(runs: int) -> None:
    """A newcomer's first command (an empty user cache) against the same command run again
    (the cache the previous run left), alternately; the median of each."""
    sys.path.insert(0, str(HERE))
    from bench_track import _journal
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        env = dict(os.environ, SHEETGEN_CONFIG_DIR=str(tmp / "config"), SHEETGEN_CACHE_DIR=str(tmp / "cache"),
                   SHEETGEN_DATA_DIR=str(tmp / "data"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)        # as a user runs it: compiled modules kept
        journal = tmp / "game.sqlite"
        _journal(journal, env)
        for label, cmd in (("one page `sheetgen build graph-20x28 --format pdf`",
                            _sheetgen() + ["build", "graph-20x28", "--format", "pdf", "-o", str(tmp / "one")]),
                           ("`sheetgen track status` after a game's 115 steps",
                            _sheetgen() + ["track", "--journal", str(journal), "status"])):
            _wall(cmd, env), _wall(cmd, env)            # the warm cache, and the file cache
            cold, warm = [], []
            for n in range(runs):
                empty = tmp / f"empty-{n}"
                cold.append(_wall(cmd, dict(env, SHEETGEN_CACHE_DIR=str(empty))))
                warm.append(_wall(cmd, env))
                shutil.rmtree(empty, ignore_errors=True)
            c, w = statistics.median(cold), statistics.median(warm)
            print(f"first run, {label}: cold (empty user cache) {c * 1000:.0f} ms, warm {w * 1000:.0f} ms: "
                  f"{c / w:.2f}x (medians of {runs} alternating; target <= 1.5x; load {os.getloadavg()[0]:.1f})",
                  flush=True)


def _sheetgen() -> list[str]:
    exe = shutil.which("sheetgen")
    return [exe] if exe else [sys.executable, "-m", "sheetgen"]


def _timed(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def alternate(ours: list[str], plain: list[str], runs: int, env: dict) -> tuple[tuple, tuple]:
    """Medians of (wall, cpu) for ours and plain, run one after the other runs times."""
    _timed(ours, env), _timed(plain, env)           # warm the file cache (and sheetgen's font cache)
    got: dict[str, list] = {"ours": [], "plain": []}
    for _ in range(runs):
        got["ours"].append(_timed(ours, env))
        got["plain"].append(_timed(plain, env))
    return tuple(tuple(statistics.median(r[i] for r in got[k]) for i in (0, 1)) for k in ("ours", "plain"))


def whole_process(runs: int) -> None:
    """`sheetgen build` as a user runs it, against a plain reportlab script drawing the same."""
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        env = dict(os.environ, SHEETGEN_CONFIG_DIR=str(tmp / "config"), SHEETGEN_CACHE_DIR=str(tmp / "cache"))
        # as a user runs it: Python keeps its compiled modules (a sandbox may switch that off)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        pack = tmp / "graph-100.yaml"
        pack.write_text("sheetgen: 1\nkind: pack\ntitle: 100 graph sheets\nname: graph-100\nsheets:\n"
                        + "  - graph-20x28\n" * 100, encoding="utf-8")
        plain = [sys.executable, str(HERE / "plain_graph.py"), str(tmp / "plain.pdf")]
        for label, ours, pages, target in (
                ("one page", _sheetgen() + ["build", "graph-20x28", "--format", "pdf", "-o", str(tmp / "one")], 1, 2.0),
                ("100-page pack", _sheetgen() + ["build", str(pack), "--format", "pdf", "-o", str(tmp / "pack")],
                 100, 1.5)):
            (wall, cpu), (base_wall, base_cpu) = alternate(ours, plain + [str(pages)], runs, env)
            print(f"whole process, {label}: `sheetgen build {'graph-20x28' if pages == 1 else 'a 100-page pack'} "
                  f"--format pdf` {wall / base_wall:.2f}x a plain reportlab script ({wall:.2f} s vs "
                  f"{base_wall:.2f} s, median of {runs}; CPU {cpu / base_cpu:.2f}x, {cpu:.2f} s vs {base_cpu:.2f} s; "
                  f"target <= {target}x; load {os.getloadavg()[0]:.1f})", flush=True)


PAGE = ROOT / "docs" / "performance.md"
PAGE_INTRO = """# Measured performance

Written by `python bench/run.py --docs` (never by hand). Each figure is a ratio against a plain
baseline the bench runs itself in the same run, alternately, as medians; whole-process runs keep
Python's compiled modules, as a user's do. The machine, its load and the date are below: on a
shared machine the absolute times move with the load, the ratios much less.

What makes the start fast: fonts are registered in a PDF only when a page uses them; what is
costly to rebuild is kept in the user cache folder (`SHEETGEN_CACHE_DIR`, else
`$XDG_CACHE_HOME/sheetgen`, else `~/.cache/sheetgen`): the parsed TrueType fonts, a snapshot of
each valid layout, deck and pack, a Foury map's board and a game's replayed state; what a first
run would build for the built-ins ships in `sheetgen/prebuilt/`. A missing or damaged entry is
simply rebuilt; the folder may be deleted at any time.
"""


class _Recorder:
    """stdout, with every line kept for the docs page."""

    def __init__(self, out):
        self.out, self.lines = out, []

    def write(self, text: str) -> int:
        self.lines.extend(line for line in text.splitlines() if line.strip())
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


def _machine() -> str:
    import platform
    return (f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
            f"{platform.machine()}, {os.cpu_count()} cores")


def write_page(lines: list[str], argv: list[str]) -> None:
    from datetime import datetime, timezone
    from sheetgen.atomic import write_text
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    body = [PAGE_INTRO, f"## Figures of {stamp}\n",
            f"`python bench/run.py {' '.join(argv)}`; {_machine()}; load average at the end "
            f"{os.getloadavg()[0]:.1f}.\n"]
    body += [f"- {line.strip()}" for line in lines]
    write_text(PAGE, "\n".join(body) + "\n")
    print(f"wrote {PAGE.relative_to(ROOT)}")


def main(argv: list[str]) -> int:
    recorder = _Recorder(sys.stdout)
    sys.stdout = recorder
    try:
        code = _run(argv)
    finally:
        sys.stdout = recorder.out
    if "--docs" in argv:
        write_page(recorder.lines, argv)
    return code


def _run(argv: list[str]) -> int:
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        if i + 1 >= len(argv):
            print("--only needs an area name, e.g. --only render", file=sys.stderr)
            return 2
        only = argv[i + 1]
    quick = "--quick" in argv
    scripts = sorted(HERE.glob("bench_*.py"))
    if only == "start":
        cold_start(5 if quick else 10)
        whole_process(5 if quick else 11)
        first_run(7 if quick else 11)
        return 0
    if only:
        scripts = [s for s in scripts if s.stem == f"bench_{only}"]
        if not scripts:
            known = ", ".join(["start"] + [s.stem[len("bench_"):] for s in sorted(HERE.glob("bench_*.py"))])
            print(f"no bench/bench_{only}.py (areas: {known})", file=sys.stderr)
            return 2
    if only in (None, "render"):
        cold_start(5 if quick else 10)
        whole_process(5 if quick else 11)
        first_run(7 if quick else 11)
    # render first: it is the figure the issue names; others follow in name order
    scripts.sort(key=lambda s: (s.stem != "bench_render", s.stem))
    failed = 0
    for script in scripts:
        sys.stdout.flush()
        # scripts that take --quick: bench_play (Foury's page and the card games' tables), bench_generate
        extra = ["--quick"] if quick and script.stem in ("bench_render", "bench_play", "bench_generate") else []
        result = subprocess.Popen([sys.executable, str(script)] + extra, cwd=ROOT, stdout=subprocess.PIPE,
                                  text=True)
        for line in result.stdout:                   # shown as it comes, and kept
            sys.stdout.write(line)
            sys.stdout.flush()
        result.wait()
        if result.returncode != 0:
            print(f"{script.name}: failed (exit {result.returncode})")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
