"""Shuffle Dungeons (seed 002): every rule replayed through `sheetgen check`
from data files, legal and illegal cases side by side; the deck; the sheets."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from card_helpers import assert_case, expectation
from sheetgen.cli import main

DATA = Path(__file__).parent / "data" / "shuffle"
CASES = sorted((DATA / "cases").glob("*.yaml"))


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_rules_are_covered_from_both_sides():
    illegal = {expectation(p)[0] for p in CASES if p.stem.endswith("-illegal")}
    legal = [p for p in CASES if p.stem.endswith("-legal")]
    assert len(legal) >= 25
    assert {"shuffle.move-speed", "shuffle.move-path", "shuffle.trap", "shuffle.trap-roll", "shuffle.dice",
            "shuffle.fight-result", "shuffle.fight-damage", "shuffle.red-wounds", "shuffle.pile",
            "shuffle.fight-ends-turn", "shuffle.must-fight", "shuffle.draw-count", "shuffle.draw-once",
            "shuffle.hand-size", "shuffle.place-monster", "shuffle.build-path", "shuffle.equip", "shuffle.armor",
            "shuffle.off-turn", "shuffle.trade-room", "shuffle.trade-agree", "shuffle.shift", "shuffle.slide",
            "shuffle.twist", "shuffle.monster-not-room", "shuffle.power-once", "shuffle.shrine-once",
            "shuffle.level-up", "shuffle.ward"} <= illegal


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    assert_case(path)


def test_text_report():
    path = DATA / "cases" / "fight-tie-illegal.yaml"
    result = _run("check", path)
    assert result.exit_code == 1
    assert f"{path}:19: step 1: turn 1 (Ada): hero attack 4 against monster attack 4: the hero wins" in result.output


@pytest.mark.parametrize("name, expected", [
    ("bad-path.yaml", r"bad-path.yaml:7:16: rooms\[1\].paths\[1\]: input should be 'n', 'e', 's' or 'w', got 'up'"),
    ("bad-path.yaml", r"bad-path.yaml:9:5: monsters\[0\]: missing required key 'hp'"),
    ("dup-id.yaml", r"dup-id.yaml:7:10: items\[0\].id: card id 'hall' is used twice"),
    ("bad-log.yaml", r"bad-log.yaml:6:10: setup.start: 'hal' is not a room card of the deck; did you mean 'hall'"),
    ("bad-log.yaml", r"bad-log.yaml:12:9: .*unknown action 'jump'"),
])
def test_bad_definitions_give_line_numbered_errors(name, expected):
    result = _run("validate", DATA / "bad" / name)
    assert result.exit_code == 2
    assert re.search(expected, result.output), result.output


def test_example_deck_is_valid():
    result = _run("validate", "shuffle-core", "shuffle-reference")
    assert result.exit_code == 0, result.output


def test_heroes_move_with_their_rooms():
    from sheetgen.definitions.registry import load_file
    from sheetgen.games.base import Illegal
    from sheetgen.games.shuffle.actions import BeginTurn, Shift, Swap
    from sheetgen.games.shuffle.formats.playlog import initial_state
    from sheetgen.games.shuffle.rules import RULES
    loaded = load_file(DATA / "cases" / "trade-legal.yaml").definition
    st = RULES.apply(initial_state(loaded), BeginTurn("Ada"))
    after = RULES.apply(st, Shift("pit", "S"))
    assert after.tiles[(-1, 1)].card == "pit"
    swapped = RULES.apply(st, Swap(("hall", "corr")))
    assert swapped.heroes["Ada"].at == (1, 0) and swapped.heroes["Bo"].at == (1, 0)
    assert swapped.tiles[(1, 0)].card == "hall"
    with pytest.raises(Illegal) as info:
        RULES.apply(st, Shift("hall", "E"))
    assert info.value.rule == "shuffle.shift"
    assert st.heroes["Ada"].at == (0, 0)          # the state given is never changed


def test_deck_and_reference_render(tmp_path):
    pytest.importorskip("sheetgen.render")
    from pypdf import PdfReader
    result = _run("build", "shuffle-core", "shuffle-reference", "-o", tmp_path, "--format", "pdf",
                  "--paper", "letter")
    assert result.exit_code == 0, result.output
    cards = PdfReader(tmp_path / "shuffle-cards.pdf")
    assert len(cards.pages) >= 4
    for page in cards.pages:
        assert abs(float(page.mediabox.width) - 612) < 1 and abs(float(page.mediabox.height) - 792) < 1
        trim = page.trimbox
        assert float(trim.width) < 612
    ref = PdfReader(tmp_path / "shuffle-reference.pdf")
    assert len(ref.pages) == 1
    text = ref.pages[0].extract_text()
    for term in ("BUILD", "BURN", "EMPTY ROOM", "HALT", "LOOT", "SHIFT", "SLIDE", "SWAP", "TWIST"):
        assert term in text
    assert "Hero attack = dice + base attack + weapon attack + powers" in text


def test_every_card_is_drawn_with_its_id():
    from sheetgen.definitions.registry import load
    from sheetgen.draw.options import BuildOptions
    loaded = load("shuffle-core")
    doc = loaded.handler.compose(loaded.definition, BuildOptions(grayscale=True))
    ids = set()

    def collect(items):
        for item in items:
            if getattr(item, "id", None):
                ids.add(item.id)
            if hasattr(item, "items"):
                collect(item.items)
    for page in doc.pages:
        collect(page.items)
    deck = loaded.definition.deck
    for card in [*deck.rooms, *deck.monsters, *deck.items]:
        assert f"card-{card.id}" in ids
    for hero in deck.heroes:
        assert f"card-{hero.id}" in ids and f"card-{hero.id}-leveled" in ids
    assert f"card-{deck.boss.id}" in ids and "card-goblin-room" in ids


def test_example_game_is_legal_and_a_broken_copy_is_not(tmp_path):
    from sheetgen.paths import layouts_dir
    game = layouts_dir() / "shuffle" / "shuffle-game.yaml"
    assert _run("check", game).exit_code == 0
    broken = tmp_path / "broken.yaml"
    broken.write_text(game.read_text().replace("hero-dice: [4, 3]", "hero-dice: [4]").replace(
        "deck: shuffle-core", "deck: shuffle-core"))
    result = _run("check", broken, "--format", "json")
    assert result.exit_code == 1
    assert "shuffle.dice" in [v["rule"] for v in json.loads(result.output)["violations"]]


def test_track_adapter_rolls_records_refuses_and_exports(tmp_path, monkeypatch):
    j = ["track", "--journal", tmp_path / "j.sqlite"]
    setup = DATA / "cases" / "fight-win-legal.yaml"
    assert _run(*j, "new", "--ruleset", "shuffle", "--map", setup).exit_code == 0
    refused = _run(*j, "step", "{move: east}")
    assert refused.exit_code == 1 and "not a room until slain" in refused.output
    rolled = _run(*j, "step", "{fight: {monster: rat}}", "--seed", "1")
    assert rolled.exit_code == 0 and "hero-dice" in rolled.output
    refused = _run(*j, "step", "move west")
    assert refused.exit_code == 1 and "fighting ended" in refused.output
    out = tmp_path / "game.yaml"
    assert _run(*j, "export", "-o", out).exit_code == 0
    assert _run("check", out).exit_code == 0


def test_deck_written_inline_in_the_log():
    result = _run("check", DATA / "inline-deck-illegal.yaml", "--format", "json")
    assert result.exit_code == 1
    assert [(v["rule"], v["line"]) for v in json.loads(result.output)["violations"]] == [("shuffle.move-speed", 16)]


def test_duplex_prints_the_other_side_of_two_sided_cards_behind_them():
    from sheetgen.definitions.registry import load
    from sheetgen.draw.options import BuildOptions
    loaded = load("shuffle-core")
    doc = loaded.handler.compose(loaded.definition, BuildOptions(duplex=True))
    fronts = [p for p in doc.pages if not p.name.endswith("-back")]
    backs = [p for p in doc.pages if p.name.endswith("-back")]
    assert len(fronts) == len(backs) and doc.pages[1].name.endswith("-back")

    def ids(page):
        out = []

        def walk(items):
            for item in items:
                if getattr(item, "id", None):
                    out.append(item.id)
                if hasattr(item, "items"):
                    walk(item.items)
        walk(page.items)
        return out
    back_ids = [i for p in backs for i in ids(p)]
    front_ids = [i for p in fronts for i in ids(p)]
    assert "card-knight-leveled" in back_ids and "card-knight-leveled" not in front_ids
    assert "card-goblin-room" in back_ids and "card-goblin-room" not in front_ids
