"""A deck's cards from a spreadsheet: `cards_from: rooms.csv` in a `kind: deck` file.

What designers coming from card tools (Squib, nanDECK, protograf) keep their card data
in: one row a card, one column a field.  The first row names the columns:

- `count` (optional): how many copies of the row's card (a whole number, 1 to 1000);
- `name` (optional): the card's name (its id in messages);
- `ELEMENT` (a text element of the deck's `template:`): the card's text there;
- `ELEMENT.KEY`: any key of that template element (`icon.name`, `title.colour`,
  `art.path`, `title.size`), as it would be written under the card's `elements:`.

An empty cell leaves the template's value.  Comma-, semicolon- or tab-separated
(as spreadsheets export it, UTF-8, a byte-order mark allowed).  The rows become the
deck's `cards:` before the file is validated, each value marked with its place in the
CSV, so every error names the CSV file, line and column, and the column's name.

An .xlsx workbook is read too (sheetgen.definitions.xlsxcards: its first sheet, or the one
`cards_sheet:` names), with the same columns; its values are marked with their row and
column number, and its errors name the sheet and the cell (`monsters.xlsx: sheet "Cards",
cell C7 ('kind.size'): ...`) instead of a line and a column.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from ..errors import InputError, Problem, did_you_mean
from .yamlsource import MarkedDict, MarkedList

MAX_BYTES = 2_000_000           # a deck of 1,000 cards with long texts is well under this
MAX_ROWS = 1000                 # the deck's card limit (layout.MAX_COUNT)
RESERVED = ("count", "name")
XLSX = (".xlsx", ".xlsm")       # the same package (an .xlsm's macros are never run, nor read)
OTHER_SPREADSHEETS = (".xls", ".ods", ".numbers", ".xlsb")


Row = tuple[int, list[tuple[str, int]]]        # (line, [(cell, column)])


def is_workbook(path: str | Path) -> bool:
    return Path(path).suffix.lower() in XLSX


def read_table(path: Path, shown: str, sheet: str | None = None) -> tuple[Row, list[Row], str | None]:
    """(the header, the rows, the sheet's name) of a card file: a CSV file (no sheet) or an .xlsx
    workbook's sheet (the first, or the one named)."""
    suffix = path.suffix.lower()
    if suffix in XLSX:
        from .xlsxcards import read_table as read_workbook
        table = read_workbook(path, shown, sheet)
        return table.header, table.rows, table.sheet
    if suffix in OTHER_SPREADSHEETS:
        raise InputError(Problem(f"a {suffix} spreadsheet is not read", shown,
                                 expected="the sheet saved as .xlsx or as CSV UTF-8"))
    header, rows = read_rows(path, shown)
    return header, rows, None


def read_rows(path: Path, shown: str) -> tuple[Row, list[Row]]:
    """(the header, the rows) of a CSV file, each as (line, [(cell, column)]); the columns are
    character columns of the cells' first characters (1-based), as an editor shows them."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError(Problem(f"the card file is {size:,} bytes, more than {MAX_BYTES:,}", shown))
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError(Problem("card file not found", shown, expected="a CSV file (path relative to the deck's file)")) \
            from None
    except UnicodeDecodeError as exc:
        raise InputError(Problem(f"the card file is not UTF-8 text (byte {exc.start + 1})", shown,
                                 expected="CSV saved as UTF-8 (spreadsheets: 'CSV UTF-8')")) from None
    except OSError as exc:
        raise InputError(Problem(f"cannot read the card file: {exc.strerror or exc}", shown)) from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise InputError(Problem("the card file has no header row", shown, 1, 1,
                                 expected="a first row naming the columns (count, name, template elements)"))
    first = lines[0]
    delimiter = max(",;\t", key=first.count) if any(d in first for d in ",;\t") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[Row] = []
    start = 1
    try:
        for record in reader:
            line = start
            start = reader.line_num + 1
            cells = list(zip(record, _columns(lines[line - 1] if line <= len(lines) else "", delimiter, len(record))))
            if rows and not any(c.strip() for c in record):
                continue                        # a blank row (spreadsheets leave them at the end)
            rows.append((line, cells))
    except csv.Error as exc:
        raise InputError(Problem(f"the card file is not valid CSV: {exc}", shown, reader.line_num)) from None
    if len(rows) - 1 > MAX_ROWS:
        raise InputError(Problem(f"the card file has {len(rows) - 1} cards, more than {MAX_ROWS}", shown,
                                 rows[MAX_ROWS + 1][0], 1))
    return rows[0], rows[1:]


def _columns(line: str, delimiter: str, n: int) -> list[int]:
    """The 1-based character column where each of the n cells of a (one-line) record starts."""
    out, i = [], 0
    while len(out) < n:
        out.append(i + 1)
        if i < len(line) and line[i] == '"':
            i += 1
            while i < len(line):
                if line[i] == '"':
                    if i + 1 < len(line) and line[i + 1] == '"':
                        i += 2
                        continue
                    break
                i += 1
        while i < len(line) and line[i] != delimiter:
            i += 1
        i += 1
    return out


def column_letter(index: int) -> str:
    """A spreadsheet's column letter: 0 -> A, 26 -> AA."""
    out = ""
    index += 1
    while index:
        index, r = divmod(index - 1, 26)
        out = chr(65 + r) + out
    return out


def cards_node(path: Path, shown: str, template: dict, node_type: Any, sheet: str | None = None) -> MarkedList:
    """The deck's `cards:` made from the CSV or workbook at path (shown: its name in messages;
    sheet: the workbook's sheet, default its first), as merged data whose every key names the
    file (node_type: layout.Node) and every value its place (a workbook's: row, column number)."""
    (_, header), rows, sheet_name = read_table(path, shown, sheet)
    try:
        return _cards(header, rows, shown, template, node_type)
    except InputError as exc:
        if sheet_name is not None:
            at_cells(exc.problems, shown, sheet_name)
        raise


def _cards(header: list, rows: list[Row], shown: str, template: dict, node_type: Any) -> MarkedList:
    columns: list[tuple[str, str | None] | None] = []       # (element, key) per column; None: unusable
    problems: list[Problem] = []
    text_elements = [k for k, v in template.items() if isinstance(v, dict) and v.get("type") == "text"]
    seen: dict[str, int] = {}
    for i, (name, col) in enumerate(header):
        name = name.strip()
        where = dict(file=shown, line=1, column=col)
        label = f"column {column_letter(i)} '{name}'"
        if not name:
            problems.append(Problem(f"{label}: a column without a name", **where,
                                    expected="count, name, an element of the template or ELEMENT.KEY"))
            columns.append(None)
            continue
        if name in seen:
            problems.append(Problem(f"{label}: named twice (also column {column_letter(seen[name])})", **where))
        seen[name] = i
        if name in RESERVED:
            columns.append((name, None))
            continue
        element, _, key = name.partition(".")
        if element not in template:
            problems.append(Problem(f"{label}: the template has no element '{element}'", **where,
                                    expected="count, name, one of the template's elements (" +
                                    ", ".join(list(template)[:12]) + ") or ELEMENT.KEY",
                                    suggestion=did_you_mean(element, list(template) + list(RESERVED))))
            columns.append(None)
            continue
        if not key and element not in text_elements:
            kind = template[element].get("type") if isinstance(template[element], dict) else None
            problems.append(Problem(f"{label}: '{element}' is a {kind or 'non-text'} element, it has no text",
                                    **where, expected=f"'{element}.KEY' to set one of its keys (e.g. "
                                    f"{element}.colour)"))
            columns.append(None)
            continue
        columns.append((element, key or "text"))
    if problems:
        raise InputError(problems)
    cards = MarkedList()
    cards.mark = (1, 1)
    for line, cells in rows:
        card = node_type()
        card.mark = (line, 1)
        elements = node_type()
        elements.mark = (line, 1)
        for i, (value, col) in enumerate(cells):
            if i >= len(columns):
                if value.strip():
                    problems.append(Problem(f"a cell past the last named column ({column_letter(i)})", shown, line, col,
                                            expected=f"{len(columns)} columns, as the header names them"))
                continue
            spec = columns[i]
            if spec is None or not value.strip():
                continue
            element, key = spec
            value = value.strip() if key != "text" else value
            if key is None:
                if element == "count" and not (value.isdigit() and 1 <= int(value) <= MAX_ROWS):
                    problems.append(Problem(f"column {column_letter(i)} 'count': '{value}' is not a number of copies",
                                            shown, line, col, expected=f"a whole number from 1 to {MAX_ROWS}"))
                    continue
                _put(card, element, int(value) if element == "count" else value, shown, (line, col))
                continue
            target = elements.get(element)
            if target is None:
                target = node_type()
                target.mark = (line, col)
                _put(elements, element, target, shown, (line, col))
            _put(target, key, value, shown, (line, col))
        _put(card, "elements", elements, shown, (line, 1))
        cards.append(card)
        cards.item_marks.append((line, 1))
    if problems:
        raise InputError(problems)
    if not cards:
        raise InputError(Problem("the card file has a header but no cards", shown, 2, 1,
                                 expected="a row for each card under the header"))
    return cards


def _put(node: MarkedDict, key: str, value: Any, file: str, mark: tuple[int, int]) -> None:
    node[key] = value
    node.key_marks[key] = mark
    node.value_marks[key] = mark
    node.key_files[key] = file          # type: ignore[attr-defined]  (a layout.Node)


def relabel(problems: list[Problem], shown: str, sheet: str | None = None) -> None:
    """Name the column of each problem in the card file as the spreadsheet does (`column D
    'icon.name'`) instead of the key path its value took (`cards[0].elements.icon.name`); in a
    workbook, the sheet and the cell (`sheet "Cards", cell D3 ('icon.name')`)."""
    mine = [p for p in problems if p.file == shown and p.line is not None]
    if not mine:
        return
    try:
        (_, header), rows, sheet_name = read_table(Path(shown), shown, sheet)
    except InputError:
        return
    cells = {line: cells for line, cells in rows}
    for p in mine:
        for i, (_, col) in enumerate(cells.get(p.line, ())):
            if col == p.column and i < len(header):
                p.path = f"column {column_letter(i)} '{header[i][0].strip()}'" if sheet_name is None \
                    else f"'{header[i][0].strip()}'"
    if sheet_name is not None:
        at_cells(mine, shown, sheet_name)


def at_cells(problems: list[Problem], shown: str, sheet: str) -> None:
    """A workbook's problems at their sheet and cell: its values are marked (row, column number),
    which as FILE:LINE:COLUMN would read as a text file's place."""
    from .xlsxcards import place
    for p in problems:
        if p.file != shown or p.line is None:
            continue
        where = place(sheet, p.line, p.column if p.column is not None else 1)
        p.path = f"{where} ({p.path})" if p.path else where
        p.line = p.column = None
