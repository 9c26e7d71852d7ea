"""The shape of the Foury package: campaigns as rules classes found by name, the engine contract
(step -> Outcome, apply -> Illegal), typed readings judged by base.judge (declared, or searched
over the readings a replay consulted), the notation's round trip, one die table, and the import
rules within the package."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from foury_helpers import HALL, HALL_PATH, enter, game, mv, play
from sheetgen.cli import main
from sheetgen.definitions.registry import load_file
from sheetgen.games.base import Illegal, Outcome, TrackerAdapter, Violation
from sheetgen.games.foury import actions as A
from sheetgen.games.foury import notation, rules as R, tables
from sheetgen.games.foury.board import ENEMIES, ITEMS, SIDES
from sheetgen.games.foury.formats.map import MapModel, load_map
from sheetgen.games.foury.heroes import TRAITS

ROOT = Path(__file__).resolve().parent.parent
FOURY = ROOT / "sheetgen" / "games" / "foury"


# -- campaigns are rules classes, found by name ----------------------------------------------------
@pytest.mark.parametrize("name, cls", [("ancient", R.FouryRules), ("slaughter", R.Slaughter), ("santa", R.Santa),
                                       ("strength", R.Strength), ("kraken", R.Kraken)])
def test_a_campaign_is_found_by_name_and_by_its_map(name, cls):
    assert R.find_campaign(name) is cls and cls.campaign.name == name
    assert type(R.rules_for(name)) is cls and R.rules_for(name) is R.rules_for(name)    # one shared object
    board = load_map({"ancient": "ancient-story"}.get(name, name)).board
    assert type(R.rules_for(board)) is cls
    assert R.new_game(board, game().hero).rules is R.rules_for(board)


def test_the_one_table_is_the_formats_list_of_campaigns():
    assert tuple(R.CAMPAIGNS) == MapModel.model_fields["campaign"].annotation.__args__
    with pytest.raises(ValueError, match="unknown campaign 'dragon'.*ancient, slaughter, santa, strength, kraken"):
        R.find_campaign("dragon")


def test_campaign_hooks_change_the_rules():
    s = game()
    s.round_no = 3
    assert R.rules_for("ancient").round_bonus(s) == 2 and R.rules_for("slaughter").round_bonus(s) == 0
    assert R.rules_for("kraken").strength(s, "kraken") == 6 and R.rules_for("ancient").strength(s, "minotaur") == 4
    hero = game().hero
    assert R.rules_for("strength").full_scale(HALL) and not R.rules_for("ancient").full_scale(HALL)
    assert R.rules_for("santa").new_game(HALL, hero).res["candy canes"] == 0          # Santa's counters
    assert "candy canes" not in R.rules_for("ancient").new_game(HALL, hero).res


# -- the engine contract ---------------------------------------------------------------------------
def test_step_returns_an_outcome_and_apply_raises_illegal():
    s = play(game(), enter("C1:N"))
    out = R.step(s, mv("C1"))                                  # no roll: broken, but followed
    assert isinstance(out, Outcome) and out.followed and out.state.pos == (2, 0)
    assert [(type(v), v.rule) for v in out.violations] == [(Violation, "roll.missing")]
    assert R.step(s, mv("C1", 3)).legal
    hard = R.step(s, A.Fight(3, 3))                            # nothing to fight: cannot be followed
    assert not hard.followed and hard.state is s and hard.violations[0].rule == "fight.no_enemy"
    with pytest.raises(Illegal) as exc:
        R.rules_for(HALL).apply(s, mv("C1"))
    assert exc.value.rule == "roll.missing" and exc.value.lenient.pos == (2, 0) and exc.value.exit_code == 1
    assert not R.rules_for(HALL).is_legal(s, mv("C1")) and R.rules_for(HALL).is_legal(s, mv("C1", 3))
    assert A.Move((2, 0)) in R.legal_actions(s)


# -- readings ----------------------------------------------------------------------------------------
def test_an_unknown_reading_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown reading 'nonsense'.*weapon-once.*oracle-round-zone"):
        R.new_game(HALL, game().hero, readings=("nonsense",))
    with pytest.raises(ValueError, match="did you mean 'weapon-once'"):
        R.new_game(HALL, game().hero, readings=("weapon-onse",))
    assert R.new_game(HALL, game().hero, readings=("weapon-once",)).readings.chosen == {R.WEAPON_ONCE}
    assert {r.value for r in R.FouryReading} == set(R.READINGS) == {
        "weapon-once", "monster-too", "coin-reset", "oracle-round-zone", "oracle-exit-rolled", "potion-step-kept",
        "market-every-turn", "duel-treasure"}
    assert "extra-after-free" in R.RETIRED_READINGS           # dropped: the text does not support it


def test_the_engine_records_the_readings_it_consults():
    s = play(game(), enter("C1:N"), mv("C1", 2), mv("C2", 4), mv("D2", 1))
    assert s.readings.consulted == set()                       # nothing so far depended on a reading
    play(s, A.Fight(2, 4, weapon=True))
    assert s.readings.consulted == {R.WEAPON_ONCE}             # shared by every state of the game


# legal only if the weapon point is paid once per combat: a tie (2+2 = 4), then a win (3+2 > 4)
WEAPON_ONCE_LOG = """sheetgen: 1
kind: playlog
ruleset: foury
map: MAP
READINGShero:
  traits: {hearts: 4, shields: 2, weapon: 2, clovers: 2, shovels: 2}
rounds:
  - entry: C1:N
    steps:
      - {move: C1, roll: 2}
      - {move: C2, roll: 4}
      - {move: D2, roll: 1}
      - {fight: {hero: 2, enemy: 4, weapon: true}}
      - {sheet: {weapon: 2}}
      - {fight: {hero: 3, enemy: 4, weapon: true}}
      - {sheet: {weapon: 1}}
EXTRA"""


def _write(tmp_path, readings="", extra=""):
    p = tmp_path / "weapon-once.yaml"
    p.write_text(WEAPON_ONCE_LOG.replace("MAP", str(HALL_PATH)).replace("READINGS", readings).replace("EXTRA", extra))
    return p


def _judge(tmp_path, readings="", extra=""):
    p = _write(tmp_path, readings, extra)
    loaded = load_file(p)
    return loaded.handler.check(loaded.definition), p


def test_a_log_legal_only_under_weapon_once_is_judged_by_it(tmp_path):
    searched, _ = _judge(tmp_path)
    assert searched.legal and searched.reading_names() == ["weapon-once"] and not searched.declared
    assert searched.replays == 2                           # the default, then the one reading it consulted
    declared, path = _judge(tmp_path, "readings: [weapon-once]\n")
    assert declared.legal and declared.declared and declared.reading_names() == ["weapon-once"]
    assert declared.replays == 1
    code, report = _check_json(path)
    assert code == 0 and report["readings"] == ["weapon-once"] and report["readings_declared"] is True
    for other in ("readings: []\n", "readings: [coin-reset]\n"):
        verdict, path = _judge(tmp_path, other)
        assert not verdict.legal and verdict.declared
        assert {v.rule for v in verdict.violations} == {"sheet.weapon"}
        assert _check_json(path)[0] == 1


def test_only_the_readings_a_replay_consulted_are_tried(tmp_path):
    # a violation no reading explains: every reading consulted is tried, and only those
    verdict, _ = _judge(tmp_path, extra="      - {move: D3, roll: 9}\n")
    assert not verdict.legal and verdict.reading_names() == ["weapon-once"]
    assert [v.rule for v in verdict.violations] == ["roll.range"] and verdict.replays == 2


def test_an_unknown_reading_in_a_log_is_a_located_error(tmp_path):
    path = _write(tmp_path, "readings: [weapon-once, weapon-onse]\n")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert f"{path}:5" in result.output and "unknown reading 'weapon-onse'" in result.output
    assert "weapon-once" in result.output and "did you mean" in result.output


def _check_json(path):
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    return result.exit_code, json.loads(result.output)


# -- the notation: steps <-> actions ----------------------------------------------------------------
cells = st.tuples(st.integers(0, 25), st.integers(0, 98))
sides = st.sampled_from(SIDES)
rolls = st.none() | st.integers(-3, 9)
ints = st.integers(-5, 20)


def _pairs(keys):
    return st.dictionaries(st.sampled_from(keys), ints, max_size=4).map(lambda d: tuple(d.items()))


RESOURCE_NAMES = tables.RESOURCES + tables.SANTA_COUNTERS
SHEET_KEYS = [k for k in R.SHEET_KEYS if R.canonical(k) == k]     # the sheet's own names
clovers = st.one_of(st.tuples(st.none(), st.none()), st.tuples(st.sampled_from(("hero", "enemy")), st.integers(1, 6)))
STRATEGIES = {
    A.Enter: st.builds(A.Enter, entry=st.tuples(cells, sides)) | st.builds(A.Enter, start=cells) | st.just(A.Enter()),
    A.Move: st.builds(A.Move, cells, rolls),
    A.Fight: st.builds(lambda hero, enemy, weapon, clover, shield, etype, stolen, fury:
                       A.Fight(hero, enemy, weapon, clover[0], clover[1], shield, etype, stolen, fury),
                       ints, ints, st.booleans(), clovers, st.booleans(),
                       st.none() | st.sampled_from(ENEMIES + ("statue",)), st.none() | st.sampled_from(tables.RESOURCES),
                       st.integers(0, 5)),
    A.Flee: st.just(A.Flee()), A.Climb: st.just(A.Climb()), A.Candy: st.just(A.Candy()),
    A.Collect: st.builds(A.Collect, st.sampled_from(ITEMS), st.none() | st.sampled_from(TRAITS), rolls,
                         _pairs(RESOURCE_NAMES)),
    A.Redeem: st.builds(A.Redeem, st.sampled_from(TRAITS)),
    A.Shovel: st.builds(A.Shovel, cells, sides), A.Circle: st.builds(A.Circle, cells),
    A.Lever: st.builds(A.Lever, st.none() | cells),
    A.Oracle: st.builds(A.Oracle, st.text(max_size=12)),
    A.Exit: st.builds(A.Exit, cells, sides, rolls),
    A.Market: st.builds(A.Market, st.integers(-1, 4), _pairs(TRAITS), _pairs(RESOURCE_NAMES), _pairs(RESOURCE_NAMES),
                        st.booleans()),
    A.Coin: st.builds(A.Coin, _pairs(TRAITS)),
    A.Flood: st.builds(A.Flood, st.lists(cells, max_size=4).map(tuple)),
    A.Sheet: st.builds(A.Sheet, st.dictionaries(st.sampled_from(SHEET_KEYS), ints | st.booleans() | st.text(max_size=6),
                                                max_size=5).map(lambda d: tuple(d.items()))),
    A.Score: st.builds(A.Score, ints),
}
ACTIONS = st.one_of(*STRATEGIES.values())


def test_every_action_kind_has_a_strategy():
    assert set(STRATEGIES) == set(A.ACTION_TYPES)


@settings(max_examples=400, deadline=None)
@given(ACTIONS)
def test_every_action_survives_its_step(action):
    step = notation.serialize(action)
    assert notation.parse(step) == action
    # and so does the step through the play-log format's own validation (what check and the tracker read)
    from sheetgen.games.foury.formats.playlog import step_action
    assert step_action(step) == action


# the step forms of the play-log format's docstring, as written there
STEPS = [
    {"move": "C2", "roll": 4}, {"move": "C2"},
    {"fight": {"hero": 3, "enemy": 4, "weapon": True, "clover": {"die": "enemy", "roll": 1}, "shield": True,
               "type": "orc", "stolen": "shovels", "fury": 2}},
    {"collect": {"item": "die", "roll": 3}}, "flee", "climb", "coin", "candy", {"entry": "A3:W"},
    {"collect": "chest"}, {"collect": {"item": "cornucopia", "take": "hearts"}}, {"redeem": "hearts"},
    {"shovel": "D1:W"}, {"circle": "E5"}, {"lever": "D4"}, "lever", {"oracle": {"words": "the answer"}}, "oracle",
    {"exit": "E3:E"}, {"exit": "E3:E", "roll": 4},
    {"market": {"spend": {"chests": 1}, "gain": {"hearts": 2}, "trade": {"give": {"weapon": 2},
                                                                         "get": {"shovels": 2}}, "rate": "next"}},
    {"flood": ["C2", "D3"]}, {"score": 31}, {"sheet": {"hearts": 4, "weapon": 1, "walls": ["C1:E"], "requirement": 1}},
    {"start": "F6"}, {"coin": {"traits": {"hearts": 5, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 1}}},
]
# the other ways players write the same steps -> the step they mean
ALIASES = [
    ({"fight": {"hero": 3, "enemy": "orc 4"}}, {"fight": {"hero": 3, "enemy": 4, "type": "orc"}}),
    ({"fight": {"hero": 3, "enemy": {"roll": 4, "type": "orc"}}}, {"fight": {"hero": 3, "enemy": 4, "type": "orc"}}),
    ({"fight": {"hero": 3, "enemy": 4}, "enemy": "orc"}, {"fight": {"hero": 3, "enemy": 4, "type": "orc"}}),
    ({"fight": {"hero": 3, "enemy": 4, "weapon": 2, "robbed": "shield"}},
     {"fight": {"hero": 3, "enemy": 4, "weapon": True, "stolen": "shields"}}),
    ({"fight": {"hero": 1, "enemy": 5, "clover": {"die": "monster", "choose": 1}}},
     {"fight": {"hero": 1, "enemy": 5, "clover": {"die": "enemy", "roll": 1}}}),
    ({"flee": True}, "flee"), ({"candy cane": "yeti"}, "candy"), ({"give": "candy cane"}, "candy"), ("candy cane", "candy"),
    ({"market": {"trade": {"weapon": "shovels"}}}, {"market": {"trade": {"give": {"weapon": 1}, "get": {"shovels": 1}}}}),
    ({"market": {"trade": {"weapon": -2, "shovels": 2}}},
     {"market": {"trade": {"give": {"weapon": 2}, "get": {"shovels": 2}}}}),
    ({"market": {"trade": {"pay": {"weapon": 1}, "receive": {"shovels": 1}}}},
     {"market": {"trade": {"give": {"weapon": 1}, "get": {"shovels": 1}}}}),
    ({"market": {"spend": {"chest": 1}, "gain": {"heart": 2}}},
     {"market": {"spend": {"chests": 1}, "gain": {"hearts": 2}}}),
    ({"sheet": {"life": 4, "treasure": 1}}, {"sheet": {"hearts": 4, "chests": 1}}),
    ({"oracle": "the answer"}, {"oracle": {"words": "the answer"}}),
]


@pytest.mark.parametrize("step", STEPS, ids=lambda s: str(s)[:40])
def test_documented_steps_survive_their_action(step):
    assert notation.serialize(notation.parse(step)) == step


@pytest.mark.parametrize("written, meant", ALIASES, ids=lambda s: str(s)[:40])
def test_the_players_words_mean_the_documented_steps(written, meant):
    from sheetgen.games.foury.formats.playlog import step_action
    assert step_action(written) == notation.parse(meant)
    assert notation.serialize(step_action(written)) == meant


def test_a_step_with_a_problem_says_where_it_is():
    notes = []
    action = notation.parse({"fight": {"hero": 3, "enemy": 4, "type": "dragon", "stolen": "gold"}}, notes=notes)
    assert action.enemy_type == "dragon" and [n.path for n in notes] == [("fight",), ("fight", "stolen")]
    with pytest.raises(ValueError, match="unknown enemy 'dragon'"):
        notation.parse({"fight": {"hero": 3, "enemy": 4, "type": "dragon"}})
    with pytest.raises(ValueError, match="not a cell name"):
        notation.parse({"move": "Z"})


# -- one die table ---------------------------------------------------------------------------------
def test_the_die_table_is_one_object_printed_applied_and_rolled():
    from sheetgen.games.foury.sheets import map as sheet_map
    from sheetgen.games.foury.sim import policies
    # one object: the board's (a map's `die_table:`, else ours), which the engine, the sheet and the
    # simulator all read (tests/test_foury_die_table.py: a map's own table, the same three ways)
    board = load_map("ancient-story").board
    assert board.die_table is tables.DIE_TABLE
    for roll, face in tables.DIE_TABLE.items():
        assert policies.die_item(board, roll).gain == face.gain
    # the engine applies what the sheet prints: the die item in a room of our own
    s = play(game(), enter("C1:N"), mv("C1", 2))
    s.board = type(s.board)(**{**s.board.__dict__, "items": {**s.board.items, (2, 0): ("die",)}})
    assert play(s, A.Collect("die", roll=6)).res["chests"] == s.res["chests"] + 1
    assert play(s, A.Collect("die", roll=1)).enemy_at((2, 0)) == "monster"
    texts = [i.text for i in _texts(sheet_map.compose_map(load_map("ancient-story"), _options()))]
    assert all(face.text in texts for face in tables.DIE_TABLE.values())


def _options():
    from sheetgen.draw.options import BuildOptions
    return BuildOptions()


def _texts(doc):
    from sheetgen.draw.model import Text, walk
    return [item for item, _ in walk(doc.pages[0].items) if isinstance(item, Text)]


# -- the handlers, the tracker ----------------------------------------------------------------------
def test_the_tracker_is_an_adapter_object_and_the_sheets_take_no_option():
    from sheetgen.games.foury import tracker
    from sheetgen.games.foury.formats import sheet
    assert isinstance(tracker.ADAPTER, TrackerAdapter)
    assert sheet.options_taken(load_file(ROOT / "layouts" / "foury" / "sheet-heroes.yaml").definition) == set()


# -- imports within the package ---------------------------------------------------------------------
RULES_SIDE = ("rules", "actions", "notation", "tables", "board", "heroes")


def _imports(path: Path) -> set[str]:
    """Every module path imported by the file (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                out.add(f"{base}.{node.module}" if node.module else base)
                if not node.module:
                    out.update(f"{base}.{a.name}" for a in node.names)
            else:
                out.add(node.module)
    return out


def test_the_rules_side_imports_only_the_standard_library_base_and_itself():
    allowed = {f"sheetgen.games.foury.{m}" for m in RULES_SIDE} | {"sheetgen.games.base", "sheetgen.games.dice",
                                                                  "sheetgen.games.foury"}
    bad = []
    for name in RULES_SIDE:
        # a module, or a package of them (rules/: state, steps, one module per campaign, sheet)
        files = sorted((FOURY / name).rglob("*.py")) if (FOURY / name).is_dir() else [FOURY / f"{name}.py"]
        assert files, name
        for path in files:
            for imp in _imports(path):
                inside = any(imp.startswith(f"sheetgen.games.foury.{m}.") for m in RULES_SIDE)
                if imp.startswith("sheetgen") and imp not in allowed and not inside or \
                        imp.split(".")[0] in ("pydantic", "yaml", "reportlab", "click"):
                    bad.append(f"{path.relative_to(FOURY)} imports {imp}")
    assert not bad, bad


def test_sheets_never_import_formats_and_the_old_cycles_are_gone():
    bad = [f"{p.name} imports {imp}" for p in (FOURY / "sheets").glob("*.py") for imp in _imports(p)
           if imp.startswith("sheetgen.games.foury.formats")]
    assert not bad, bad
    # the formats reach the sheets only from inside a function (to compose): never when loaded
    for p in (FOURY / "formats").glob("*.py"):
        top = ast.Module([n for n in ast.parse(p.read_text(encoding="utf-8")).body
                          if not isinstance(n, (ast.FunctionDef, ast.ClassDef))], [])
        assert not [n for n in ast.walk(top) if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("sheets")]
    assert "sheetgen.games.foury.sim.runner" not in _imports(FOURY / "sim" / "campaigns.py")
    for other in ("exploration", "navigation", "shuffle"):
        assert not [p for p in FOURY.rglob("*.py") for imp in _imports(p) if imp.startswith(f"sheetgen.games.{other}")]
