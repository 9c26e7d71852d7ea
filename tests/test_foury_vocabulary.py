"""Dungeon Foury's vocabulary: `sheetgen list WORD`, the docs' tables and the loader agree."""
import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.foury import GAME, board as fb, vocabulary
from sheetgen.games.foury.rules import CAMPAIGNS
from sheetgen.games.foury.tables import die_face

ROOT = Path(__file__).resolve().parent.parent
TEST_HALL = ROOT / "tests" / "data" / "foury_maps" / "test-hall.yaml"


def _run(*args):
    result = CliRunner().invoke(main, [*map(str, args)])
    return result.exit_code, result.output


@pytest.mark.parametrize("word", sorted(GAME.vocabularies))
def test_list_prints_each_name_with_one_line_of_meaning(word):
    code, out = _run("list", word)
    assert code == 0, out
    rows = vocabulary.VOCABULARIES[word]()
    lines = out.splitlines()
    assert len(lines) == len(rows) and all(meaning for _, meaning in rows)
    width = max(len(name) for name, _ in rows)
    assert lines == [f"{name:<{width}}  {meaning}" for name, meaning in rows]


def test_the_names_are_what_the_loader_reads():
    names = lambda word: [n for n, _ in vocabulary.VOCABULARIES[word]()]      # noqa: E731
    assert names("items") == list(fb.ITEMS)
    assert names("enemies") == list(fb.ENEMIES)
    assert names("campaigns") == list(CAMPAIGNS)
    assert names("requirements") == list(fb.REQUIREMENT_KINDS)
    assert names("sides") == [*fb.SIDES, *fb.RELATIVE]
    samples = {"ENEMY": "orc", "SIDES": "left front", "ITEM": "yellow potion", "EVENT + EVENT": "chest + monster"}
    for phrase in names("events"):
        text = samples.get(phrase) or phrase
        for key, value in samples.items():
            text = text.replace(key, value)
        assert fb.parse_event(text), phrase
    for effect in names("die-effects"):
        assert die_face(1, effect.replace("N RESOURCE", "2 shields")).text
    # GAME.vocabularies names every word, each a function of this module
    assert set(GAME.vocabularies) == set(vocabulary.VOCABULARIES)
    for word, target in GAME.vocabularies.items():
        module, _, attr = target.partition(":")
        assert getattr(importlib.import_module(module), attr) is vocabulary.VOCABULARIES[word]


def test_readme_tables_are_the_lists():
    spec = importlib.util.spec_from_file_location("vocabulary_tables",
                                                  ROOT / "tests" / "tools" / "vocabulary_tables.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    text = (ROOT / "docs" / "formats" / "foury-vocabulary.md").read_text(encoding="utf-8")
    assert sorted(tool.words_in(text)) == sorted(vocabulary.VOCABULARIES)
    assert tool.with_tables(text) == text, "the vocabulary tables drifted: python tests/tools/vocabulary_tables.py"
    # and the check can fail: one meaning changed in the page is caught
    assert tool.with_tables(text.replace("+1 life point |", "+2 life points |", 1)) != \
        text.replace("+1 life point |", "+2 life points |", 1)


def test_an_unknown_word_names_the_lists():
    code, out = _run("list", "itmes")
    assert code == 2
    assert "nothing to list called 'itmes'" in out and "items" in out and "did you mean 'items'?" in out


def test_find_an_unknown_item_lists_the_allowed_ones(tmp_path):
    path = tmp_path / "banana.yaml"
    path.write_text(TEST_HALL.read_text().replace("6: extra step}", "6: find banana}", 1))
    code, out = _run("validate", path)
    assert code == 2
    assert "zones.A.events[6]: 'find banana': unknown item 'banana' (one of " + ", ".join(fb.ITEMS) + ")" in out
    path.write_text(TEST_HALL.read_text().replace("  B1: statue", "  B1: banana"))
    code, out = _run("validate", path)
    assert code == 2 and "items.B1: unknown item 'banana' (expected one of " + ", ".join(fb.ITEMS) + ")" in out
