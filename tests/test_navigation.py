"""Card-grid navigation (seed 000): every rule replayed through `sheetgen check`
from data files, legal and illegal cases side by side; definitions; sheets."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from card_helpers import assert_case, expectation
from sheetgen.cli import main

DATA = Path(__file__).parent / "data" / "navigation"
CASES = sorted((DATA / "cases").glob("*.yaml"))


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_every_rule_has_a_legal_and_an_illegal_case():
    stems = {p.stem for p in CASES}
    legal = {s.rsplit("-", 1)[0] for s in stems if s.endswith("-legal")}
    illegal = {expectation(p)[0] for p in CASES if p.stem.endswith("-illegal")}
    assert len(legal) >= 15
    assert {"nav.move-limit", "nav.door-key", "nav.wall-bomb", "nav.hazard", "nav.wrap-match", "nav.unresolve-xp",
            "nav.unresolve-adjacent", "nav.bonus-xp", "nav.already-resolved", "nav.mirror", "nav.warp",
            "nav.sacrifice"} <= illegal


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    assert_case(path)


def test_text_report_names_file_line_and_step():
    path = DATA / "cases" / "moves-4-illegal.yaml"
    result = _run("check", path)
    assert result.exit_code == 1
    assert f"{path}:13: step 4: turn 1 (Ada):" in result.output
    assert "at most 3" in result.output


def test_play_continues_after_a_violation():
    # the door is passed without a key (reported), and the game goes on from inside that room
    path = DATA / "cases" / "unresolve-locks-illegal.yaml"
    result = _run("check", path, "--format", "json")
    assert [v["rule"] for v in json.loads(result.output)["violations"]] == ["nav.door-key"]


# -- definitions --------------------------------------------------------------
def test_example_deck_and_dungeon_are_valid():
    result = _run("validate", "nav-rooms", "nav-crypt", "nav-player-sheet", "nav-tokens")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name, expected", [
    ("bad-side.yaml", r"bad-side.yaml:8:25: cards\[1\].sides.e: input should be 'open', 'door' or 'wall', got 'gate'"),
    ("placed-twice.yaml", r"placed-twice.yaml:10:9: grid\[1\]\[1\]: card 'hub' is placed twice .*line 9"),
    ("unknown-card.yaml", r"unknown-card.yaml:7:5: .*no card 'rat-dne' in the deck; did you mean 'rat-den'"),
    ("bad-type.yaml", r"bad-type.yaml:5:21: .*unknown room type 'fountian'.*did you mean 'fountain'"),
    ("bad-action.yaml", r"bad-action.yaml:10:9: .*unknown action 'moov'; did you mean 'move'"),
])
def test_bad_definitions_give_line_numbered_errors(name, expected):
    result = _run("validate", DATA / "bad" / name)
    assert result.exit_code == 2
    assert re.search(expected, result.output), result.output
    assert "Traceback" not in result.output


def test_bad_log_lists_every_problem():
    result = _run("check", DATA / "bad" / "bad-action.yaml")
    assert result.exit_code == 2
    assert "sideways" in result.output and "no player 'Zed'" in result.output


# -- the engine directly ----------------------------------------------------------
def test_engine_apply_raises_the_rule_and_keeps_state_unchanged():
    from sheetgen.definitions.registry import load_file
    from sheetgen.games.base import Illegal
    from sheetgen.games.navigation.actions import BeginTurn, Move
    from sheetgen.games.navigation.formats.playlog import initial_state
    from sheetgen.games.navigation.rules import RULES
    loaded = load_file(DATA / "cases" / "door-key-illegal.yaml").definition
    state = RULES.apply(initial_state(loaded), BeginTurn("Ada"))
    with pytest.raises(Illegal) as info:
        RULES.apply(state, Move("E"))
    assert info.value.rule == "nav.door-key"
    assert state.players["Ada"].room == "hub"
    after = RULES.apply(state, Move("N"))
    assert after.players["Ada"].room == "north" and after.players["Ada"].moves == 1


# -- printable sheets ------------------------------------------------------------
def test_deck_sheet_cards_are_63_by_88_with_sides_and_hazard(tmp_path):
    from sheetgen.definitions.registry import load
    from sheetgen.draw.model import Rect, walk
    from sheetgen.draw.options import BuildOptions
    loaded = load("nav-rooms")
    doc = loaded.handler.compose(loaded.definition, BuildOptions(paper="letter"))
    assert all((p.width, p.height) == (215.9, 279.4) for p in doc.pages)
    page = doc.pages[0]
    assert page.trim is not None
    ids = set()

    def collect(items):
        for item in items:
            if getattr(item, "id", None):
                ids.add(item.id)
            if hasattr(item, "items"):
                collect(item.items)
    collect(page.items)
    assert "side-rat-den-e-door" in ids and "side-spike-pit-n-wall" in ids and "side-entrance-n-open" in ids
    hazard = [i for i, _ in walk(page.items) if isinstance(i, Rect) and i.cls == "action hazard"]
    assert hazard and all(r.style.stroke == "#d0312d" for r in hazard)
    # grayscale: the hazard outline is dashed instead of red
    gray = loaded.handler.compose(loaded.definition, BuildOptions(grayscale=True))
    hz = [i for i, _ in walk(gray.pages[0].items) if isinstance(i, Rect) and i.cls == "action hazard"]
    assert hz and all(r.style.dash for r in hz)


def test_sheets_render_to_pdf_of_the_right_size(tmp_path):
    pytest.importorskip("sheetgen.render")
    from pypdf import PdfReader
    result = _run("build", "nav-rooms", "nav-crypt", "nav-player-sheet", "nav-tokens", "-o", tmp_path,
                  "--format", "pdf")
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.glob("*.pdf"))
    assert len(pdfs) == 4
    for pdf in pdfs:
        for page in PdfReader(pdf).pages:
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            assert abs(w - 595.28) < 1 and abs(h - 841.89) < 1
    text = PdfReader(tmp_path / "navigation-player.pdf").pages[0].extract_text()
    assert "Speed Boots" in text and "Magic Mirror" in text and "Bombs" in text


def test_example_game_is_legal_and_a_broken_copy_is_not(tmp_path):
    from sheetgen.paths import layouts_dir
    game = layouts_dir() / "navigation" / "nav-crypt-game.yaml"
    assert _run("check", game).exit_code == 0
    broken = tmp_path / "broken.yaml"
    # Ada throws her only key away instead of using it on bounty-board's door
    broken.write_text(game.read_text().replace("      - key                 # the door", "      - lose: {keys: 1}  # the door"))
    result = _run("check", broken, "--format", "json")
    assert result.exit_code == 1
    assert [v["rule"] for v in json.loads(result.output)["violations"]] == ["nav.door-key"]


def test_track_adapter_records_refuses_and_exports(tmp_path, monkeypatch):
    j = ["track", "--journal", tmp_path / "j.sqlite"]
    assert _run(*j, "new", "--ruleset", "navigation", "--map", DATA / "t-dungeon.yaml",
                "--hero", "Ada,Bo").exit_code == 0
    assert _run(*j, "step", "move south").exit_code == 0
    refused = _run(*j, "step", "move north")
    assert refused.exit_code == 1 and "hazard" in refused.output
    assert _run(*j, "step", "resolve").exit_code == 0
    assert _run(*j, "step", "{turn: Bo}").exit_code == 0
    for step in ("move west", "move east", "move west"):          # a bomb, then back and forth
        assert _run(*j, "step", step).exit_code == 0
    refused = _run(*j, "step", "move east")
    assert refused.exit_code == 1 and "at most 3" in refused.output
    status = _run(*j, "status")
    assert "turn of Bo" in status.output and "Bo: in walled, HP 10, keys 1, bombs 0" in status.output
    out = tmp_path / "game.yaml"
    assert _run(*j, "export", "-o", out).exit_code == 0
    assert _run("check", out).exit_code == 0


def test_dungeon_written_inline_in_the_log(tmp_path):
    path = DATA / "inline-dungeon.yaml"
    result = _run("check", path, "--format", "json")
    assert result.exit_code == 1
    assert [(v["rule"], v["line"]) for v in json.loads(result.output)["violations"]] == \
        [("nav.door-key", 14), ("nav.hazard", 14)]
    bad = tmp_path / "bad.yaml"
    bad.write_text(path.read_text().replace("w: door}", "w: dor}"))
    result = _run("check", bad)
    assert result.exit_code == 2
    assert "bad.yaml:8:79: cards[1].sides.w: input should be 'open', 'door' or 'wall', got 'dor'" in result.output
