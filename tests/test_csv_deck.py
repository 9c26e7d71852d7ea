"""A deck's cards from a spreadsheet (`cards_from: FILE.csv`): the example deck builds, and
every error names the CSV file, line, column and the column's name."""
import shutil
from pathlib import Path

import pytest

from sheetgen.build import compose_loaded
from sheetgen.definitions.registry import load
from sheetgen.draw.model import Text, walk
from sheetgen.draw.options import BuildOptions
from sheetgen.errors import InputError

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "csv-deck"


@pytest.fixture
def deck(tmp_path, monkeypatch):
    shutil.copy(EXAMPLE / "monster-cards.yaml", tmp_path)
    shutil.copy(EXAMPLE / "monsters.csv", tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _texts(doc) -> list[str]:
    return [item.text for page in doc.pages for item, _ in walk(page.items) if isinstance(item, Text)]


def _problems(csv_text: str, deck: Path) -> list:
    (deck / "monsters.csv").write_text(csv_text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load("monster-cards.yaml")
    return info.value.problems


def test_the_example_deck_builds_from_its_csv(deck):
    doc = compose_loaded(load("monster-cards.yaml"), BuildOptions())
    texts = _texts(doc)
    assert texts.count("Goblin") == 2 and texts.count("Healing Potion") == 2        # count: 2
    assert "Cave Troll" in texts and "+3" in texts
    assert "Pass it quietly (roll 4+), or it wakes." in " ".join(texts)             # a quoted cell (wrapped)


def test_a_changed_csv_changes_the_cards(deck):
    compose_loaded(load("monster-cards.yaml"), BuildOptions())          # remembered (snapshot)
    (deck / "monsters.csv").write_text("name,title\nbat,Giant Bat\n", encoding="utf-8")
    texts = _texts(compose_loaded(load("monster-cards.yaml"), BuildOptions()))
    assert "Giant Bat" in texts and "Goblin" not in texts


def test_semicolons_and_a_byte_order_mark_as_spreadsheets_write_them(deck):
    (deck / "monsters.csv").write_bytes("\ufeffcount;name;title\n3;bat;Giant Bat\n".encode("utf-8"))
    assert _texts(compose_loaded(load("monster-cards.yaml"), BuildOptions())).count("Giant Bat") == 3


def test_an_unknown_column_is_located_with_a_suggestion(deck):
    (p,) = _problems("count,titel\n1,Goblin\n", deck)
    assert (p.file, p.line, p.column) == ("monsters.csv", 1, 7)
    assert "column B 'titel'" in p.message and p.suggestion == "title" and "text" in p.expected


def test_a_bad_count_and_a_bad_value_name_their_cells_and_columns(deck):
    (p,) = _problems("count,name,title\ntwo,goblin,Goblin\n", deck)
    assert (p.line, p.column) == (2, 1) and "column A 'count'" in p.message and "whole number" in p.expected
    (p,) = _problems("name,title,kind.size\ngoblin,Goblin,7\ntroll,Troll,big\n", deck)
    assert (p.file, p.line, p.column, p.path) == ("monsters.csv", 3, 13, "column C 'kind.size'")
    (p,) = _problems("name,icon.name\ngoblin,monstr\n", deck)
    assert (p.line, p.column, p.path) == (2, 8, "column B 'icon.name'") and p.suggestion == "monster"


def test_a_column_for_an_element_without_text_says_to_name_a_key(deck):
    (p,) = _problems("name,frame\ngoblin,x\n", deck)
    assert "box element" in p.message and "frame.KEY" in p.expected


def test_cards_from_and_cards_together_and_a_missing_file(deck):
    yaml = deck / "monster-cards.yaml"
    yaml.write_text(yaml.read_text().replace("cards_from: monsters.csv", "cards_from: monsters.csv\ncount: 2"))
    with pytest.raises(InputError) as info:
        load("monster-cards.yaml")
    assert "either 'cards_from' or 'count'" in info.value.problems[0].message
    assert info.value.problems[0].file == "monster-cards.yaml"
    yaml.write_text(yaml.read_text().replace("cards_from: monsters.csv\ncount: 2", "cards_from: nothere.csv"))
    with pytest.raises(InputError) as info:
        load("monster-cards.yaml")
    assert info.value.problems[0].message == "card file not found" and info.value.problems[0].file == "nothere.csv"


def test_cards_from_is_for_decks_only(deck):
    (deck / "page.yaml").write_text("sheetgen: 1\nkind: layout\ncards_from: monsters.csv\n")
    with pytest.raises(InputError) as info:
        load("page.yaml")
    assert any("only for kind: deck" in p.message for p in info.value.problems)
