"""The Dungeon Foury vocabulary tables of docs/formats/foury-vocabulary.md, written from the game's own data.

    python tests/tools/vocabulary_tables.py          # rewrite the tables in docs/formats/foury-vocabulary.md
    python tests/tools/vocabulary_tables.py --check  # exit 1 if the page differs (tests/test_foury_vocabulary.py)

Each table sits between `<!-- vocabulary WORD -->` and `<!-- /vocabulary -->` and holds the rows of
`sheetgen list WORD` (sheetgen.games.foury.vocabulary.markdown).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"(<!-- vocabulary (?P<word>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /vocabulary -->)", re.S)


def with_tables(text: str) -> str:
    from sheetgen.games.foury.vocabulary import markdown
    return BLOCK.sub(lambda m: m.group(1) + markdown(m.group("word")) + "\n" + m.group(4), text)


def words_in(text: str) -> list[str]:
    return [m.group("word") for m in BLOCK.finditer(text)]


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    readme = ROOT / "docs" / "formats" / "foury-vocabulary.md"
    text = readme.read_text(encoding="utf-8")
    fresh = with_tables(text)
    if "--check" in argv:
        return 0 if fresh == text else 1
    readme.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
