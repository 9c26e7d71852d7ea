"""Golden outputs around a refactor: record them before, compare after.

    python tests/tools/goldens.py record DIR     # write the goldens into DIR
    python tests/tools/goldens.py compare DIR    # record afresh and list every difference
    python tests/tools/goldens.py compare DIR --ignore-key readings   # new JSON keys, listed and explained

What it records (the contract of "One game, one package"): the sha256 of every
file `sheetgen build` writes for the default pack; `sheetgen simulate --format
json` for a few maps and seeds; `sheetgen check --format json` (and its exit
code) for every play log under tests/data and layouts/.  Commands run in-process
through Click's runner (580 logs as subprocesses would take minutes).
"""
from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIMULATIONS = [("ancient-story", "cautious", 1, 300), ("ancient-story", "greedy", 7, 200),
               ("slaughter", "cautious", 3, 100), ("santa", "cautious", 3, 100),
               ("kraken", "random", 5, 100), ("strength", "cautious", 2, 100)]


def run(args: list[str]) -> tuple[int, str]:
    from click.testing import CliRunner
    from sheetgen.cli import main
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result.exit_code, result.output


def play_logs() -> list[Path]:
    out = []
    for base in (ROOT / "tests" / "data", ROOT / "layouts"):
        for p in sorted(base.rglob("*.yaml")):
            head = p.read_text(encoding="utf-8", errors="replace")[:2000]
            if "kind: playlog" in head:
                out.append(p)
    return out


def record() -> dict:
    golden: dict = {"build": {}, "simulate": {}, "check": {}}
    with tempfile.TemporaryDirectory() as tmp:
        code, _ = run(["build", "-o", tmp])
        golden["build_exit"] = code
        for f in sorted(Path(tmp).iterdir()):
            golden["build"][f.name] = hashlib.sha256(f.read_bytes()).hexdigest()
    for name, policy, seed, games in SIMULATIONS:
        code, out = run(["simulate", name, "--policy", policy, "--seed", str(seed), "--games", str(games),
                         "--format", "json"])
        golden["simulate"][f"{name}:{policy}:{seed}:{games}"] = [code, out]
    for log in play_logs():
        rel = str(log.relative_to(ROOT))
        code, out = run(["check", rel, "--format", "json"])
        golden["check"][rel] = [code, out]
    return golden


def _strip(entry, ignored: set):
    """A recorded [exit code, output] with the ignored keys dropped from JSON output."""
    if not ignored or not isinstance(entry, list):
        return entry
    code, out = entry
    try:
        data = json.loads(out)
    except ValueError:
        return entry
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in ignored}
    return [code, data]


def main(argv: list[str]) -> int:
    import os
    os.chdir(ROOT)
    ignored = set()
    while "--ignore-key" in argv:
        i = argv.index("--ignore-key")
        ignored.add(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 2 or argv[0] not in ("record", "compare"):
        print(__doc__)
        return 2
    folder = Path(argv[1])
    now = record()
    if argv[0] == "record":
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "goldens.json").write_text(json.dumps(now, indent=1, sort_keys=True))
        print(f"recorded {len(now['build'])} build files, {len(now['simulate'])} simulations, "
              f"{len(now['check'])} play logs into {folder}")
        return 0
    before = json.loads((folder / "goldens.json").read_text())
    diffs = []
    for section in ("build", "simulate", "check"):
        for key in sorted(set(before[section]) | set(now[section])):
            if _strip(before[section].get(key), ignored) != _strip(now[section].get(key), ignored):
                diffs.append(f"{section}: {key}")
    for d in diffs:
        print("differs:", d)
    print(f"{len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
