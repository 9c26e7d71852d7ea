"""Write tests/data/scan/recipes.yaml: the seeded recipes of the synthetic photo corpus.

    python tests/tools/make_scan_corpus.py [COUNT]

Each recipe names a play log (the scan corpus's own logs: simulate and tracker exports, and
the legal logs of tests/data), the paper, the seed of the hand that pencils it and a camera
(sheetgen.testing.photo.Camera).  The images are made from the recipes when the tests and the
bench run (sheetgen.testing.corpus); only the recipes are kept.  Seeded: the same COUNT gives
the same file.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data"
OUT = DATA / "scan" / "recipes.yaml"
SEED = 2024
HANDS = 2                   # pencil seeds per log (flat rasters are shared by the photos of one hand)


def logs() -> list[Path]:
    from sheetgen.testing.corpus import played
    found = sorted((DATA / "scan" / "logs").glob("*.yaml"))
    found += sorted(DATA.glob("foury_logs/legal-*.yaml")) + sorted(DATA.glob("foury_logs/audit*/legal-*.yaml"))
    found += sorted(DATA.glob("exploration/legal-*.yaml")) + sorted(DATA.glob("exploration/audit/legal-*.yaml"))
    usable = []
    for path in found:
        try:
            played(str(path))
        except Exception as exc:  # noqa: BLE001 - a log the corpus cannot draw (another sheet size ...)
            print(f"skipped {path.relative_to(ROOT)}: {exc}", file=sys.stderr)
            continue
        usable.append(path)
    return usable


def main(argv: list[str]) -> int:
    from sheetgen.testing.corpus import Recipe, dump_recipes
    from sheetgen.testing.photo import Camera
    count = int(argv[0]) if argv else 320
    rng = random.Random(SEED)
    paths = logs()
    recipes = []
    for i in range(count):
        log = paths[i % len(paths)]
        mp = 12 if rng.random() < 0.2 else 2
        paper = "letter" if rng.random() < 0.15 else "a4"
        hand = rng.randrange(HANDS)
        recipes.append(Recipe(f"photo-{i + 1:04d}", os.path.relpath(log, OUT.parent), paper, hand,
                              300 if mp == 12 else 150, Camera.random(rng, mp)))
    header = ("# The synthetic photo corpus of `sheetgen scan` (tests/test_scan*.py, bench/bench_scan.py):\n"
              f"# {count} recipes over {len(paths)} play logs; written by tests/tools/make_scan_corpus.py.\n")
    OUT.write_text(dump_recipes(recipes, header), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {count} recipes over {len(paths)} logs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
