"""A deck's cards from an Excel workbook (`cards_from: FILE.xlsx`), read with the standard
library: the example deck (a workbook written by XlsxWriter) makes the same cards as the CSV
example; shared and inline strings, numbers and booleans are read as values; errors name the
file, the sheet and the cell; dates, error cells, malformed parts and zip bombs are refused
(exit 2) before anything big is unpacked.  The workbooks of the tests are written here, with
zipfile, as a spreadsheet program lays them out."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from sheetgen.build import compose_loaded
from sheetgen.definitions import xlsxcards
from sheetgen.definitions.registry import load
from sheetgen.draw.model import Text, walk
from sheetgen.draw.options import BuildOptions
from sheetgen.errors import InputError

DOCS = Path(__file__).resolve().parent.parent / "docs" / "examples"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def _texts(doc) -> list[str]:
    return [item.text for page in doc.pages for item, _ in walk(page.items) if isinstance(item, Text)]


def _cell(ref: str, value, shared: list[str]) -> str:
    """A cell as Excel writes it: texts shared (or inline: ('inline', text)), numbers plain,
    (kind, raw, style) for anything else."""
    if isinstance(value, tuple):
        kind, raw, *style = value
        s = f' s="{style[0]}"' if style else ""
        if kind == "inline":
            return f'<c r="{ref}" t="inlineStr"{s}><is><t>{escape(raw)}</t></is></c>'
        if kind == "formula":
            return f'<c r="{ref}"{s}><f>{escape(raw)}</f></c>'
        return f'<c r="{ref}"{s}{"" if kind == "n" else f" t={chr(34)}{kind}{chr(34)}"}><v>{escape(raw)}</v></c>'
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"><v>{value!r}</v></c>'
    if value not in shared:
        shared.append(value)
    return f'<c r="{ref}" t="s"><v>{shared.index(value)}</v></c>'


def workbook(path: Path, sheets: dict[str, list[list]], extra: dict[str, bytes] | None = None) -> Path:
    """An .xlsx of the sheets (name -> rows of values, None an empty cell), with a styles part
    whose cell format 1 shows dates (numFmtId 14) and 2 a custom date format."""
    shared: list[str] = []
    parts = {}
    for n, rows in enumerate(sheets.values(), 1):
        body = []
        for r, row in enumerate(rows, 1):
            cells = "".join(_cell(f"{xlsxcards.letter(c)}{r}", v, shared) for c, v in enumerate(row) if v is not None)
            body.append(f'<row r="{r}">{cells}</row>')
        parts[f"xl/worksheets/sheet{n}.xml"] = f'<worksheet xmlns="{MAIN}"><sheetData>{"".join(body)}</sheetData></worksheet>'
    sheet_list = "".join(f'<sheet name="{escape(name)}" sheetId="{n}" r:id="rId{n}"/>' for n, name in enumerate(sheets, 1))
    rels = "".join(f'<Relationship Id="rId{n}" Type="{REL}/worksheet" Target="worksheets/sheet{n}.xml"/>'
                   for n in range(1, len(sheets) + 1))
    k = len(sheets)
    rels += (f'<Relationship Id="rId{k + 1}" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
             f'<Relationship Id="rId{k + 2}" Type="{REL}/styles" Target="styles.xml"/>')
    parts.update({
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
        "_rels/.rels": f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" '
                       'Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets>{sheet_list}</sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}">{rels}</Relationships>',
        "xl/sharedStrings.xml": f'<sst xmlns="{MAIN}">' + "".join(f"<si><t>{escape(s)}</t></si>" for s in shared) + "</sst>",
        "xl/styles.xml": f'<styleSheet xmlns="{MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="d/m/yyyy;@"/>'
                         '</numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/>'
                         '</cellXfs></styleSheet>',
    })
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(name, text)
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return path


HEADER = ["count", "name", "title", "kind", "icon.name", "strength", "text"]


@pytest.fixture
def deck(tmp_path, monkeypatch):
    """The CSV example deck, reading cards.xlsx instead (its sheet named by cards_sheet when the test adds one)."""
    text = (DOCS / "csv-deck" / "monster-cards.yaml").read_text(encoding="utf-8")
    (tmp_path / "deck.yaml").write_text(text.replace("cards_from: monsters.csv", "cards_from: cards.xlsx"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _problems(deck: Path, rows: list[list] | None = None, **sheets) -> list:
    workbook(deck / "cards.xlsx", sheets or {"Cards": rows})
    with pytest.raises(InputError) as info:
        load("deck.yaml")
    return info.value.problems


def test_the_example_workbook_makes_the_csv_examples_cards(tmp_path, monkeypatch):
    for folder in ("csv-deck", "xlsx-deck"):
        shutil.copytree(DOCS / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    from_csv = compose_loaded(load("csv-deck/monster-cards.yaml"), BuildOptions())
    from_xlsx = compose_loaded(load("xlsx-deck/monster-cards.yaml"), BuildOptions())
    texts = _texts(from_xlsx)
    assert texts.count("Goblin") == 2 and "Cave Troll" in texts and "+3" in texts
    footer = ("Monster cards (",)                   # the decks' own titles and sheet ids
    assert sorted(t for t in texts if not t.startswith(footer)) == \
        sorted(t for t in _texts(from_csv) if not t.startswith(footer))
    assert len(from_xlsx.pages) == len(from_csv.pages)


def test_shared_and_inline_strings_numbers_and_booleans_are_read_as_values(deck):
    workbook(deck / "cards.xlsx", {"Cards": [
        ["count", "name", "title", "strength", "kind", "text"],
        [2.0, "bat", ("inline", "Giant Bat"), 1.5, True, ("str", "from a formula")],
        [None, None, None, None, None, None],                          # a blank row: left out
        [1, "rat", "Rat", -3, False, ("s", "0")],
    ]})
    texts = _texts(compose_loaded(load("deck.yaml"), BuildOptions()))
    assert texts.count("Giant Bat") == 2 and texts.count("Rat") == 1
    assert {"1.5", "-3", "true", "false", "from a formula", "count"} <= set(texts)


def test_a_changed_workbook_changes_the_cards(deck):
    workbook(deck / "cards.xlsx", {"Cards": [["title"], ["Goblin"]]})
    assert "Goblin" in _texts(compose_loaded(load("deck.yaml"), BuildOptions()))     # remembered (snapshot)
    workbook(deck / "cards.xlsx", {"Cards": [["title"], ["Giant Bat"]]})
    texts = _texts(compose_loaded(load("deck.yaml"), BuildOptions()))
    assert "Giant Bat" in texts and "Goblin" not in texts


def test_the_first_sheet_or_the_one_named(deck):
    workbook(deck / "cards.xlsx", {"Read me": [["title"], ["Not a card"]], "Monsters": [["title"], ["Ogre"]]})
    assert "Not a card" in _texts(compose_loaded(load("deck.yaml"), BuildOptions()))
    yaml = deck / "deck.yaml"
    yaml.write_text(yaml.read_text().replace("cards_from: cards.xlsx", "cards_from: cards.xlsx\ncards_sheet: Monsters"))
    texts = _texts(compose_loaded(load("deck.yaml"), BuildOptions()))
    assert "Ogre" in texts and "Not a card" not in texts
    yaml.write_text(yaml.read_text().replace("cards_sheet: Monsters", "cards_sheet: Monster"))
    with pytest.raises(InputError) as info:
        load("deck.yaml")
    (p,) = info.value.problems
    assert p.message == 'the workbook has no sheet "Monster"' and p.suggestion == "Monsters"
    assert p.file == "cards.xlsx" and '"Read me", "Monsters"' in p.expected


def test_an_unknown_column_is_named_by_sheet_and_cell_with_a_suggestion(deck):
    (p,) = _problems(deck, [["count", "titel"], [1, "Goblin"]])
    assert p.format().startswith("cards.xlsx: sheet \"Cards\", cell B1: column B 'titel': the template has no element")
    assert p.suggestion == "title" and (p.line, p.column) == (None, None)


def test_a_bad_count_and_a_bad_value_name_their_cells_and_columns(deck):
    (p,) = _problems(deck, [["count", "name", "title"], ["two", "goblin", "Goblin"]])
    assert p.path == 'sheet "Cards", cell A2' and "column A 'count'" in p.message and "whole number" in p.expected
    (p,) = _problems(deck, [["count", "name", "title"], [2.5, "goblin", "Goblin"]])
    assert p.path == 'sheet "Cards", cell A2' and "'2.5' is not a number of copies" in p.message
    (p,) = _problems(deck, [["name", "title", "kind.size"], ["goblin", "Goblin", 7], ["troll", "Troll", "big"]])
    assert p.format().startswith("cards.xlsx: sheet \"Cards\", cell C3 ('kind.size'): ")
    (p,) = _problems(deck, [["name", "icon.name"], ["goblin", "monstr"]])
    assert p.path == "sheet \"Cards\", cell B2 ('icon.name')" and p.suggestion == "monster"


@pytest.mark.parametrize("cell, says", [
    (("n", "45658", 1), "a date or a time"),            # 1 January 2025, shown by the built-in date format
    (("n", "45658.5", 2), "a date or a time"),          # a custom d/m/yyyy format
    (("d", "2025-01-01T00:00:00"), "a date or a time"),
    (("e", "#DIV/0!"), "the error #DIV/0!"),
    (("formula", "SUM(A1:A2)"), "a formula whose value was never saved"),
    (("s", "99"), "shared string '99'"),
    (("b", "yes"), "boolean is 'yes'"),
])
def test_cells_that_hold_no_card_value_are_refused_at_their_cell(deck, cell, says):
    (p,) = _problems(deck, [["name", "title"], ["goblin", cell]])
    assert p.file == "cards.xlsx" and p.path == 'sheet "Cards", cell B2' and says in p.message, p.format()


def test_more_cards_or_columns_than_a_deck_takes_are_refused(deck):
    (p,) = _problems(deck, [["title"]] + [[f"card {i}"] for i in range(1001)])
    assert "more than 1000 cards" in p.message and p.path == 'sheet "Cards", row 1002'
    wide = [None] * 200 + ["x"]
    (p,) = _problems(deck, [["title"], ["card"] + wide[1:]])
    assert p.path == 'sheet "Cards", cell GS2' and "past column GR" in p.message


def _refused(deck: Path) -> str:
    with pytest.raises(InputError) as info:
        load("deck.yaml")
    (p,) = info.value.problems
    assert p.file == "cards.xlsx"
    return p.message


def test_a_zip_bomb_is_refused_before_it_is_unpacked(deck, monkeypatch):
    workbook(deck / "cards.xlsx", {"Cards": [["title"], ["Goblin"]]},
             extra={"xl/media/padding.bin": b"\0" * 40_000_000})      # 40 MB of zeros: 40 kB packed
    assert (deck / "cards.xlsx").stat().st_size < 200_000
    opened = []
    real = zipfile.ZipFile.open
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda self, *a, **k: opened.append(a) or real(self, *a, **k))
    assert "would unpack to 40,00" in _refused(deck) and opened == []


def test_a_part_past_its_bound_or_bigger_than_it_says_is_refused(deck, monkeypatch):
    workbook(deck / "cards.xlsx", {"Cards": [["title"]] + [[f"card {i}"] for i in range(300)]})
    bound = xlsxcards.MAX_PART_BYTES
    monkeypatch.setattr(xlsxcards, "MAX_PART_BYTES", 4000)
    assert "would unpack to 7," in _refused(deck)
    monkeypatch.setattr(xlsxcards, "MAX_PART_BYTES", bound)
    # the sheet's size in the zip's directory made 64 bytes: never read past them
    import struct
    data = bytearray((deck / "cards.xlsx").read_bytes())
    entry = data.index(b"PK\1\2")
    while True:
        name_len = struct.unpack_from("<H", data, entry + 28)[0]
        if data[entry + 46:entry + 46 + name_len] == b"xl/worksheets/sheet1.xml":
            break
        entry = data.index(b"PK\1\2", entry + 4)
    struct.pack_into("<I", data, entry + 24, 64)
    (deck / "cards.xlsx").write_bytes(bytes(data))
    assert "xl/worksheets/sheet1.xml cannot be unpacked" in _refused(deck)


def test_malformed_workbooks_are_refused_with_what_is_wrong(deck):
    (deck / "cards.xlsx").write_text("count,name\n1,goblin\n")
    assert "not an .xlsx workbook (not a zip archive)" in _refused(deck)
    (deck / "cards.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    assert "old .xls workbook or a password-protected one" in _refused(deck)
    with zipfile.ZipFile(deck / "cards.xlsx", "w") as z:
        z.writestr("hello.txt", "hi")
    assert "it has no workbook part" in _refused(deck)
    workbook(deck / "cards.xlsx", {"Cards": [["title"], ["Goblin"]]})
    _rewrite(deck / "cards.xlsx", "xl/worksheets/sheet1.xml", f'<worksheet xmlns="{MAIN}"><sheetData><row r="1">')
    assert "xl/worksheets/sheet1.xml is not well-formed XML" in _refused(deck)
    _rewrite(deck / "cards.xlsx", "xl/sharedStrings.xml",
             '<!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><sst><si><t>&b;</t></si></sst>')
    assert "declares XML entities" in _refused(deck)


def _rewrite(path: Path, part: str, text: str) -> None:
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts[part] = text.encode()
    if part != "xl/worksheets/sheet1.xml":          # a sheet that parses, the part under test broken
        parts["xl/worksheets/sheet1.xml"] = (f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0'
                                             '</v></c></row></sheetData></worksheet>').encode()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)


def test_other_spreadsheets_and_a_sheet_named_for_a_csv_are_refused(deck):
    yaml = deck / "deck.yaml"
    yaml.write_text(yaml.read_text().replace("cards.xlsx", "cards.ods"))
    (deck / "cards.ods").write_bytes(b"PK\3\4")
    assert _refused_any(deck) == ("cards.ods", "a .ods spreadsheet is not read")
    yaml.write_text(yaml.read_text().replace("cards_from: cards.ods", "cards_from: cards.csv\ncards_sheet: Cards"))
    (deck / "cards.csv").write_text("title\nGoblin\n")
    file, message = _refused_any(deck)
    assert file == "deck.yaml" and "cards.csv is not one" in message


def _refused_any(deck: Path) -> tuple[str | None, str]:
    with pytest.raises(InputError) as info:
        load("deck.yaml")
    (p,) = info.value.problems
    return p.file, p.message


def test_build_exits_2_naming_the_file_sheet_and_cell(deck):
    from click.testing import CliRunner

    from sheetgen.cli import main
    workbook(deck / "cards.xlsx", {"Cards": [["name", "title"], ["goblin", ("e", "#REF!")]]})
    result = CliRunner().invoke(main, ["build", "deck.yaml", "-o", "out", "--format", "pdf"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert 'cards.xlsx: sheet "Cards", cell B2: the cell holds the error #REF!' in result.output
    assert not (deck / "out").exists()
