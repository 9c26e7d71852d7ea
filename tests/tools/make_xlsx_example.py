"""Write docs/examples/xlsx-deck/monsters.xlsx, the example workbook of `cards_from: FILE.xlsx`,
with XlsxWriter (a well-known writer of Excel files; not a sheetgen dependency: run it from an
environment that has it, `pip install xlsxwriter`):

    python tests/tools/make_xlsx_example.py

The cards are those of docs/examples/csv-deck/monsters.csv (tests/test_xlsx_deck.py holds the
two decks to the same cards): a "Read me" sheet first, the cards on the sheet "Monsters" (so
the deck names it with `cards_sheet:`), counts as numbers, everything else as text (strengths
such as +3 too: typed into a spreadsheet they would become the number 3)."""
from __future__ import annotations

import csv
from pathlib import Path

import xlsxwriter

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCE = ROOT / "docs" / "examples" / "csv-deck" / "monsters.csv"
TARGET = ROOT / "docs" / "examples" / "xlsx-deck" / "monsters.xlsx"


def main() -> None:
    with SOURCE.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    book = xlsxwriter.Workbook(str(TARGET))
    # a fixed creation date: the same file every run
    from datetime import datetime
    book.set_properties({"title": "sheetgen example: monster cards", "created": datetime(2026, 1, 1)})
    notes = book.add_worksheet("Read me")
    notes.write(0, 0, "The cards are on the sheet Monsters: one row a card, the first row names the columns.")
    sheet = book.add_worksheet("Monsters")
    bold = book.add_format({"bold": True})
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if r == 0:
                sheet.write_string(r, c, value, bold)
            elif rows[0][c] == "count" and value.isdigit():
                sheet.write_number(r, c, int(value))
            elif value:
                sheet.write_string(r, c, value)
    sheet.set_column(0, 0, 6)
    sheet.set_column(1, 5, 14)
    sheet.set_column(6, 6, 60)
    book.close()
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
