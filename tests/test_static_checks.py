"""The static checks pass: mypy over the contracts and ruff's rules, both as pyproject.toml configures
them (a plain `python -m mypy` and `python -m ruff check sheetgen tests bench` run exactly these)."""
import re
import subprocess
import sys
from pathlib import Path

from mypy import api as mypy_api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_passes_over_the_contracts(tmp_path, monkeypatch):
    # the files listed in pyproject.toml are relative to the repository; a cache of its own in
    # tmp_path, so every run checks from a cold cache and leaves nothing in the work tree
    monkeypatch.chdir(ROOT)
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                     "--cache-dir", str(tmp_path / "mypy_cache")])
    assert status == 0, f"mypy failed (exit {status}):\n{out}{err}"
    # the configured files were all checked (a `files` list that matched less would pass too)
    checked = re.search(r"Success: no issues found in (\d+) source files", out)
    assert checked and int(checked[1]) >= 7, out + err


def test_ruff_passes():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "sheetgen", "tests", "bench"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, f"ruff failed (exit {done.returncode}):\n{done.stdout}{done.stderr}"
