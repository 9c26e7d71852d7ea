"""Write the drawing-call goldens afresh (tests/test_layout_goldens.py compares them):

    python tests/tools/regen_goldens.py           # every golden; review the diff before committing
    python tests/tools/regen_goldens.py --check   # only say which ones differ (exit 1 if any)

A golden changes only on purpose: when a sheet's drawing changes, regenerate, read the
diff (`git diff tests/data/layout`) and commit it with the change that explains it.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main(args: list[str]) -> int:
    from sheet_helpers import DUMP_GOLDENS, GOLDEN_DIR, dump_text
    check = "--check" in args
    differ = 0
    for golden in DUMP_GOLDENS:
        path = GOLDEN_DIR / golden
        text = dump_text(golden)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        differ += 1
        print(f"{'differs' if old is not None else 'missing'}: {path.relative_to(ROOT)}")
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if not differ:
        print("every golden is up to date")
    return 1 if check and differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
