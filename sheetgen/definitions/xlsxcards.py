"""A deck's cards from an Excel workbook: `cards_from: monsters.xlsx` (sheetgen.definitions.csvcards
makes the cards; this reads the cells).

An .xlsx file is a zip archive of XML parts (ECMA-376): the workbook lists its sheets, each
sheet part holds its rows of cells, and most texts sit once in the shared strings, the cells
pointing at them.  Read with the standard library (zipfile and ElementTree), so the core needs
no spreadsheet library: the first sheet (or the one `cards_sheet:` names), its texts (shared,
inline and formulas' saved results), numbers and booleans, as the cells' values, never their
display formats.  Dates are refused (their number is no card text): format such a column as
text.  What is read is bounded before anything is inflated (the file's size, its parts' count
and their declared sizes, each part read no further than its bound) and so are the rows and
columns, so a zip bomb or a huge sheet is refused, not unpacked; anything malformed is an
InputError naming the file, the sheet and the cell where there is one.
"""
from __future__ import annotations

import io
import posixpath
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator
from xml.etree import ElementTree

from ..errors import InputError, Problem, did_you_mean
from .csvcards import column_letter

MAX_FILE_BYTES = 5_000_000      # the .xlsx itself: a workbook of 1,000 cards is well under 1 MB
MAX_PARTS = 500                 # zip members: a workbook of a few sheets has 10-40
MAX_PART_BYTES = 10_000_000     # one part inflated (a sheet of 1,000 rows of long texts: ~1 MB)
MAX_TOTAL_BYTES = 30_000_000    # every part the archive declares, inflated
MAX_COLUMNS = 200               # a column past GR holding a value is no card field
MAX_ROWS = 1000                 # cards (the deck's limit, layout.MAX_COUNT), the header row besides

EXPECTED = "an .xlsx workbook (Excel, LibreOffice Calc, Numbers or Google Sheets: save or download as .xlsx)"
# number formats that show a date or a time (ECMA-376 18.8.30; 27-36 and 50-58: East Asian dates)
DATE_FORMATS = set(range(14, 23)) | set(range(27, 37)) | set(range(45, 48)) | set(range(50, 59))
_CELL_REF = re.compile(r"^([A-Z]{1,3})([1-9][0-9]{0,6})$")

Row = tuple[int, list[tuple[str, int]]]        # (row number, [(value, column number)]), as csvcards


@dataclass
class Table:
    sheet: str                  # the sheet's name
    header: Row
    rows: list[Row]


letter = column_letter          # a spreadsheet's column letter: 0 -> A, 26 -> AA (as csvcards names it)


def cell_name(row: int, column: int) -> str:
    """C7 for row 7, column 3."""
    return f"{letter(column - 1)}{row}"


def place(sheet: str, row: int | None = None, column: int | None = None) -> str:
    """Where in the workbook: `sheet "Cards", cell C7` (or the row, or the sheet)."""
    where = f'sheet "{sheet}"'
    if row is not None and column is not None:
        return f"{where}, cell {cell_name(row, column)}"
    return f"{where}, row {row}" if row is not None else where


class _Book:
    """The archive, each part read within its bound."""

    def __init__(self, path: Path, shown: str):
        self.shown = shown
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise self.error(f"the card file is {size:,} bytes, more than {MAX_FILE_BYTES:,}")
            with path.open("rb") as f:
                head = f.read(8)
        except FileNotFoundError:
            raise InputError(Problem("card file not found", shown,
                                     expected="an .xlsx file (path relative to the deck's file)")) from None
        except IsADirectoryError:
            raise self.error("the card file is a folder") from None
        except OSError as exc:
            raise self.error(f"cannot read the card file: {exc.strerror or exc}") from None
        if head.startswith(b"\xd0\xcf\x11\xe0"):
            raise self.error("the card file is an old .xls workbook or a password-protected one")
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, ValueError):
            raise self.error("the card file is not an .xlsx workbook (not a zip archive)") from None
        infos = self.zip.infolist()
        if len(infos) > MAX_PARTS:
            raise self.error(f"the workbook has {len(infos):,} parts, more than {MAX_PARTS}")
        total = sum(i.file_size for i in infos)
        if total > MAX_TOTAL_BYTES:
            raise self.error(f"the workbook would unpack to {total:,} bytes, more than {MAX_TOTAL_BYTES:,} "
                             "(a zip bomb, or a workbook with much more than cards in it)")
        self.parts = {i.filename: i for i in infos}

    def error(self, message: str, where: str | None = None) -> InputError:
        return InputError(Problem(message, self.shown, path=where, expected=EXPECTED))

    def has(self, name: str) -> bool:
        return name in self.parts

    def read(self, name: str) -> bytes:
        info = self.parts.get(name)
        if info is None:
            raise self.error(f"the workbook has no part {name}")
        if info.file_size > MAX_PART_BYTES:
            raise self.error(f"the workbook's part {name} would unpack to {info.file_size:,} bytes, more than "
                             f"{MAX_PART_BYTES:,}")
        try:
            with self.zip.open(info) as f:
                data = f.read(MAX_PART_BYTES + 1)      # never past the bound, whatever its header says
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError) as exc:
            raise self.error(f"the workbook's part {name} cannot be unpacked ({exc})") from None
        if len(data) > MAX_PART_BYTES:
            raise self.error(f"the workbook's part {name} unpacks to more than {MAX_PART_BYTES:,} bytes")
        if re.search(rb"<!(?:DOCTYPE|ENTITY)", data, re.IGNORECASE):
            # spreadsheets never declare entities: refused rather than expanded
            raise self.error(f"the workbook's part {name} declares XML entities")
        return data

    def parse(self, name: str) -> ElementTree.Element:
        return _parse(self.read(name), name, self)

    def events(self, name: str) -> Iterator[ElementTree.Element]:
        """The part's elements as each ends (a sheet is read row by row, never held whole as a tree)."""
        data = self.read(name)
        try:
            for _, element in ElementTree.iterparse(io.BytesIO(data), events=("end",)):
                yield element
        except ElementTree.ParseError as exc:
            raise self.error(f"the workbook's part {name} is not well-formed XML ({exc})") from None


def _parse(data: bytes, name: str, book: _Book) -> ElementTree.Element:
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise book.error(f"the workbook's part {name} is not well-formed XML ({exc})") from None


def _local(tag: str) -> str:
    """A tag or attribute name without its namespace (transitional and strict OOXML alike)."""
    return tag.rsplit("}", 1)[-1]


def _attr(element: ElementTree.Element, name: str) -> str | None:
    """The attribute of that local name (r:id in whichever namespace the writer used)."""
    value = element.get(name)
    if value is not None:
        return value
    for key, value in element.attrib.items():
        if _local(key) == name:
            return value
    return None


def _children(element: ElementTree.Element, name: str) -> list[ElementTree.Element]:
    return [c for c in element if _local(c.tag) == name]


def _relationships(book: _Book, part: str) -> dict[str, tuple[str, str]]:
    """Id -> (type, the target part's name) of a part's relationships."""
    folder, base = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", base + ".rels")
    if not book.has(rels):
        return {}
    out = {}
    for rel in book.parse(rels):
        target = rel.get("Target") or ""
        if rel.get("TargetMode") == "External":
            continue
        name = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        out[rel.get("Id") or ""] = (rel.get("Type") or "", name)
    return out


def _text(element: ElementTree.Element) -> str:
    """A string item's text: its <t>, or its rich text runs' <t>s (phonetic runs left out)."""
    own = _children(element, "t")
    if own:
        return own[0].text or ""
    return "".join(t.text or "" for r in _children(element, "r") for t in _children(r, "t"))


def _shared_strings(book: _Book, name: str | None) -> list[str]:
    if name is None:
        return []
    out = []
    for element in book.events(name):
        if _local(element.tag) == "si":
            out.append(_text(element))
            element.clear()
    return out


def _is_date_format(code: str) -> bool:
    """A custom number format that shows a date or a time: d, m, y, h or s outside quoted
    text, escapes and [colour]/[condition] brackets ([h] and [mm]: elapsed time, a time too)."""
    if re.search(r"\[(h+|m+|s+)\]", code, re.IGNORECASE):
        return True
    plain = re.sub(r'"[^"]*"|\\.|\[[^\]]*\]|_.|\*.', "", code)
    return bool(re.search(r"[dmyhs]", plain, re.IGNORECASE))


def _date_styles(book: _Book, name: str | None) -> set[int]:
    """The indexes of the cell formats (a cell's s) that show their number as a date or time."""
    if name is None:
        return set()
    root = book.parse(name)
    custom: dict[int, str] = {}
    out: set[int] = set()
    for child in root:
        if _local(child.tag) == "numFmts":
            for fmt in _children(child, "numFmt"):
                try:
                    custom[int(fmt.get("numFmtId") or "")] = fmt.get("formatCode") or ""
                except ValueError:
                    continue
        elif _local(child.tag) == "cellXfs":
            for i, xf in enumerate(_children(child, "xf")):
                try:
                    fid = int(xf.get("numFmtId") or "0")
                except ValueError:
                    continue
                if fid in DATE_FORMATS or (fid in custom and _is_date_format(custom[fid])):
                    out.add(i)
    return out


def _sheet_part(book: _Book, wanted: str | None) -> tuple[str, str, dict[str, tuple[str, str]]]:
    """(the sheet's name, its part, the workbook's relationships)."""
    workbook = "xl/workbook.xml"
    for rel_type, target in _relationships(book, "").values():
        if rel_type.endswith("/officeDocument"):
            workbook = target
    if not book.has(workbook):
        raise book.error("the card file is not an .xlsx workbook (it has no workbook part)")
    rels = _relationships(book, workbook)
    sheets = []
    for child in book.parse(workbook):
        if _local(child.tag) == "sheets":
            sheets = [(s.get("name") or "", _attr(s, "id") or "") for s in _children(child, "sheet")]
    if not sheets:
        raise book.error("the workbook has no sheets")
    names = [n for n, _ in sheets]
    if wanted is None:
        name, rid = sheets[0]
    else:
        found = [s for s in sheets if s[0] == wanted] or [s for s in sheets if s[0].casefold() == wanted.casefold()]
        if not found:
            raise InputError(Problem(f'the workbook has no sheet "{wanted}"', book.shown, path="cards_sheet",
                                     expected="one of " + ", ".join(f'"{n}"' for n in names[:12]),
                                     suggestion=did_you_mean(wanted, names)))
        name, rid = found[0]
    rel_type, part = rels.get(rid, ("", ""))
    if not rel_type.endswith("/worksheet"):
        kind = "a chart" if rel_type.endswith("/chartsheet") else "not a sheet of cells"
        raise book.error(f'the workbook\'s sheet "{name}" is {kind}', place(name))
    return name, part, rels


def _cell_ref(ref: str | None, row: int, after: int, book: _Book, sheet: str) -> int:
    """The column number of a cell (its r, or the one after the last when the writer left r out)."""
    if ref is None:
        return after + 1
    m = _CELL_REF.match(ref)
    if m is None:
        raise book.error(f"a cell's reference '{ref}' is malformed", place(sheet, row))
    column = 0
    for ch in m.group(1):
        column = column * 26 + ord(ch) - 64
    if int(m.group(2)) != row:
        raise book.error(f"the cell {ref} is listed in row {row}", place(sheet, row))
    return column


def _value(c: ElementTree.Element, strings: list[str], dates: set[int], where: str, book: _Book) -> str:
    kind = c.get("t") or "n"
    v = next((x.text or "" for x in c if _local(x.tag) == "v"), None)
    if kind == "inlineStr":
        inline = _children(c, "is")
        return _text(inline[0]) if inline else ""
    if v is None:
        if _children(c, "f"):
            raise book.error("the cell holds a formula whose value was never saved", where)
        return ""
    if kind == "s":
        try:
            return strings[int(v)]
        except (ValueError, IndexError):
            raise book.error(f"the cell points at shared string {v!r}, which the workbook does not have",
                             where) from None
    if kind == "str":
        return v
    if kind == "b":
        if v.strip() not in ("0", "1"):
            raise book.error(f"the cell's boolean is {v!r}", where)
        return "true" if v.strip() == "1" else "false"
    if kind == "e":
        raise InputError(Problem(f"the cell holds the error {v}", book.shown, path=where,
                                 expected="a value (the spreadsheet shows the error in that cell)"))
    if kind == "d":
        raise _date(book, where)
    if kind != "n":
        raise book.error(f"the cell's type '{kind}' is unknown", where)
    try:
        number = float(v)
    except ValueError:
        raise book.error(f"the cell's number {v!r} is malformed", where) from None
    if number != number or number in (float("inf"), float("-inf")):
        raise book.error(f"the cell's number {v!r} is malformed", where)
    style = c.get("s")
    if style is not None and style.isdigit() and int(style) in dates:
        raise _date(book, where)
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return repr(number)


def _date(book: _Book, where: str) -> InputError:
    return InputError(Problem("the cell holds a date or a time, which sheetgen does not read", book.shown,
                              path=where, expected="text: format the column as Text (or type the date "
                              "with a leading apostrophe)"))


def read_table(path: Path, shown: str, sheet: str | None = None) -> Table:
    """The header and the rows of the workbook's first sheet (or the sheet named), every row
    (blank ones left out) as (row number, [(value, column number)]) from column A on."""
    book = _Book(path, shown)
    name, part, rels = _sheet_part(book, sheet)
    types = {t.rsplit("/", 1)[-1]: target for t, target in rels.values()}
    strings = _shared_strings(book, types.get("sharedStrings") if types.get("sharedStrings") in book.parts else None)
    dates = _date_styles(book, types.get("styles") if types.get("styles") in book.parts else None)
    rows: list[Row] = []
    seen_rows: set[int] = set()
    last_row = 0
    for element in book.events(part):
        if _local(element.tag) != "row":
            continue
        r = element.get("r")
        number = int(r) if r and r.isdigit() else last_row + 1
        if number in seen_rows or number < 1:
            raise book.error(f"row {number} is listed twice", place(name, number))
        seen_rows.add(number)
        last_row = number
        cells: dict[int, str] = {}
        column = 0
        for c in _children(element, "c"):
            column = _cell_ref(c.get("r"), number, column, book, name)
            where = place(name, number, column)
            value = _value(c, strings, dates, where, book)
            if not value.strip():
                continue
            if column > MAX_COLUMNS:
                raise InputError(Problem(f"a value in column {letter(column - 1)}, past column "
                                         f"{letter(MAX_COLUMNS - 1)}", shown, path=where,
                                         expected=f"at most {MAX_COLUMNS} columns of card fields"))
            cells[column] = value
        element.clear()
        if not cells:
            continue                            # a blank row
        if len(rows) > MAX_ROWS:
            raise InputError(Problem(f"the sheet has more than {MAX_ROWS} cards", shown, path=place(name, number),
                                     expected=f"at most {MAX_ROWS} rows under the header"))
        rows.append((number, [(cells.get(i, ""), i) for i in range(1, max(cells) + 1)]))
    if not rows:
        raise InputError(Problem("the sheet is empty: it has no header row", shown, path=place(name),
                                 expected="a first row naming the columns (count, name, template elements)"))
    rows.sort(key=lambda row: row[0])
    return Table(name, rows[0], rows[1:])
