"""`sheetgen track` as a player runs it at the table: one short process per action.

A Foury game (tests/data/foury_logs/legal-full-game.yaml, four rounds) is put in a journal up
to its last move (about 115 steps); then, each a new process and alternated with the plain baseline
(bench/plain_track.py: Python opening the journal and reading its steps), the median of N:
    track status       the state after the game's steps (kept in the user cache by the last command)
    track step         that last move (then undone, untimed, and the state cached again)
    track status, cold the same with an empty user cache: the map validated and every step
                       replayed (what each command cost before the cache)
Target (issue "Print polish ... a fast start"): a track command under 0.15 s.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LOG = ROOT / "tests" / "data" / "foury_logs" / "legal-full-game.yaml"


def _cmd() -> list[str]:
    exe = shutil.which("sheetgen")
    return [exe] if exe else [sys.executable, "-m", "sheetgen"]


def _run(cmd, env) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT, env=env)
    return time.perf_counter() - t


def _journal(path: Path, env: dict) -> str:
    """Record the log's steps up to its last move; return that move (the timed step)."""
    from click.testing import CliRunner

    from sheetgen.cli import main
    log = yaml.safe_load(LOG.read_text())
    runner = CliRunner(env=env)
    base = ["track", "--journal", str(path)]
    traits = ",".join(f"{k}={v}" for k, v in log["hero"]["traits"].items())
    assert runner.invoke(main, base + ["new", "--map", log["map"], "--traits", traits]).exit_code == 0
    steps = []
    for rnd in log["rounds"]:
        first = {"entry": rnd["entry"]} if "entry" in rnd else {"start": rnd["start"]}
        steps += [first, *rnd.get("steps", [])]
    texts = [yaml.safe_dump(step, default_flow_style=True, width=1000).strip() for step in steps]
    last_move = max(i for i, step in enumerate(steps) if isinstance(step, dict) and "move" in step)
    for text in texts[:last_move]:
        result = runner.invoke(main, base + ["step", text])
        assert result.exit_code == 0, (text, result.output)
    return texts[last_move]


def main() -> int:
    runs = 5 if "--quick" in sys.argv else 11
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        env = dict(os.environ, SHEETGEN_CONFIG_DIR=str(tmp / "config"), SHEETGEN_CACHE_DIR=str(tmp / "cache"),
                   SHEETGEN_DATA_DIR=str(tmp / "data"), PYTHONPATH=str(ROOT))
        journal = tmp / "game.sqlite"
        last = _journal(journal, env)
        track = _cmd() + ["track", "--journal", str(journal)]
        plain = [sys.executable, str(ROOT / "bench" / "plain_track.py"), str(journal)]
        cold_env = dict(env, SHEETGEN_CACHE_DIR=str(tmp / "empty"))
        figures = {"status": [], "step": [], "cold": [], "plain": []}
        _run(track + ["status"], env), _run(plain, env)          # warm the file cache
        for _ in range(runs):
            figures["status"].append(_run(track + ["status"], env))
            figures["plain"].append(_run(plain, env))
            figures["step"].append(_run(track + ["step", last], env))
            subprocess.run(track + ["undo"], stdout=subprocess.DEVNULL, env=env, check=True)
            subprocess.run(track + ["status"], stdout=subprocess.DEVNULL, env=env, check=True)
            shutil.rmtree(tmp / "empty", ignore_errors=True)
            figures["cold"].append(_run(track + ["status"], cold_env))
        med = {k: statistics.median(v) for k, v in figures.items()}
        for key, label in (("status", "track status"), ("step", "track step"), ("cold", "track status, cold cache")):
            print(f"whole process, `sheetgen {label}` after the game's steps: {med[key] / med['plain']:.2f}x the plain "
                  f"journal reader ({med[key] * 1000:.0f} ms vs {med['plain'] * 1000:.0f} ms, median of {runs}"
                  f"{'; target < 150 ms' if key != 'cold' else ''}; load {os.getloadavg()[0]:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
