"""Every finding of the layout lint on the built-in sheets (tests/test_layout_lint.py
prints the first few of each):

    python tests/tools/lint_sheets.py              # every built-in sheet
    python tests/tools/lint_sheets.py kraken santa # some of them
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main(names: list[str]) -> int:
    from sheet_helpers import builtin_sheets, composed
    from sheetgen.draw.lint import overlaps, paper_difference
    dirty = 0
    for name in names or builtin_sheets():
        lines = [f"{paper}: {f}" for paper in ("a4", "letter") for f in overlaps(composed(name, paper))]
        diff = paper_difference(lambda paper: composed(name, paper))
        if diff:
            lines.append(f"A4 and Letter: {diff}")
        print(f"{name}: {len(lines)} finding{'s' if len(lines) != 1 else ''}")
        for line in lines:
            print(f"    {line}")
        dirty += bool(lines)
    return 1 if dirty else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
