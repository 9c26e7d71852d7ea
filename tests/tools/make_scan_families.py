"""Write tests/data/scan/families.yaml: the family corpus of `sheetgen scan` (sheetgen.testing.families).

    python tests/tools/make_scan_families.py [PER_FAMILY]

Every family (a way of penciling or of photographing) gets PER_FAMILY recipes (default 6)
over the scan corpus's play logs (tests/tools/make_scan_corpus.py's), each family its own
draw of them.  Seeded: the same PER_FAMILY gives the same file.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "tools"))
OUT = ROOT / "tests" / "data" / "scan" / "families.yaml"
SEED = 27


def main(argv: list[str]) -> int:
    from make_scan_corpus import logs

    from sheetgen.testing.corpus import dump_recipes
    from sheetgen.testing.families import FAMILIES, family_recipes
    per = int(argv[0]) if argv else 6
    paths = [os.path.relpath(p, OUT.parent) for p in logs()]
    floods = [p for p in paths if "kraken" in p]
    recipes = family_recipes(paths, per, SEED, floods)
    header = ("# The family corpus of `sheetgen scan` (bench/bench_scan.py --families): "
              f"{per} recipes in each of {len(FAMILIES)} families\n"
              "# (sheetgen.testing.families); written by tests/tools/make_scan_families.py.\n")
    OUT.write_text(dump_recipes(recipes, header), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(recipes)} recipes in {len(FAMILIES)} families")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
