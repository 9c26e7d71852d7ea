"""`sheetgen schema` checked with a real JSON Schema validator (the `jsonschema` library):
every definition the loaders accept passes, and mistakes are blamed on their key."""
import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from jsonschema.exceptions import best_match

from sheetgen.cli import main
from sheetgen.definitions.registry import load
from sheetgen.errors import SheetgenError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
ALL_YAML = sorted(p for folder in (ROOT / "layouts", DATA) for p in folder.rglob("*.y*ml"))


@pytest.fixture(scope="module")
def validator(tmp_path_factory):
    out = tmp_path_factory.mktemp("schema") / "sheetgen.schema.json"
    result = CliRunner().invoke(main, ["schema", "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    schema = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _loads(path: Path) -> bool:
    """What the loader says about a file (the same as `sheetgen validate` exit 0 or 1, not 2)."""
    try:
        load(path)
    except SheetgenError:
        return False
    return True


VALID = [p for p in ALL_YAML if _loads(p)]
INVALID = [p for p in ALL_YAML if p not in VALID]


def test_the_data_has_both_kinds_of_files():
    assert len(VALID) > 500 and len(INVALID) >= 20
    assert {p.name for p in VALID} >= {"graph-20x28.yaml", "hex-sheet.yaml", "room-cards.yaml", "sheet-icons.yaml"}


@pytest.mark.parametrize("path", VALID, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_the_loaders_accept_passes_the_schema(validator, path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(data)]
    assert errors == []


# invalid files whose mistake a schema can see (the others break rules of the game or of
# the map, which only the loader knows): (file, the path blamed, a piece of the message)
INVALID_SAMPLE = [
    ("exploration/unreadable-missing-cells.yaml", ["rooms", 3], "'cells' is a required property"),
    ("foury_maps/bad-requirement.yaml", ["zones", "B", "requirement"], "'kils' was unexpected"),
    ("foury_maps/bad-item.yaml", ["items", "B1"], "'statu' is not one of ['chest', 'potion'"),
    ("foury_maps/bad-item.yaml", ["items", "B4", 1], "'potoin' is not one of"),
    ("foury_maps/bad-event.yaml", ["zones", "A", "events", 5], "'colapse front' is not one of ['monster'"),
    ("foury_maps/bad-symbol.yaml", ["cells"], "does not match"),
    ("navigation/bad/bad-side.yaml", ["cards", 1, "sides", "e"], "'gate' is not one of"),
    ("shuffle/bad/bad-path.yaml", ["rooms", 1, "paths", 1], "'up' is not one of"),
]


@pytest.mark.parametrize("name, path, message", INVALID_SAMPLE, ids=[f"{s[0]}:{s[1]}" for s in INVALID_SAMPLE])
def test_invalid_files_fail_the_schema_at_the_mistake(validator, name, path, message):
    file = DATA / name
    assert file in INVALID                       # the loader refuses it too
    errors = [best_match([e]) for e in validator.iter_errors(yaml.safe_load(file.read_text(encoding="utf-8")))]
    assert any(list(e.absolute_path) == path and message in e.message for e in errors), \
        [(list(e.absolute_path), e.message[:120]) for e in errors]


HEAD = "sheetgen: 1\nkind: layout\n"
PLAYLOG = "sheetgen: 1\nkind: playlog\nruleset: foury\nmap: ancient-story\nhero: kael\nrounds:\n - entry: J11:S\n   steps:\n"

# (definition text, the path blamed, a piece of the message): the kind chooses the model,
# so a wrong key is blamed on the key, never on "not valid under any of the given schemas"
MISTAKES = [
    (HEAD + "titel: x\n", [], "'titel' was unexpected"),
    (HEAD + "elements:\n  t: {type: text, text: hi, sise: 3}\n", ["elements", "t"], "'sise' was unexpected"),
    (HEAD + "elements:\n  t: {type: txt, text: hi}\n", ["elements", "t", "type"], "'txt' is not one of"),
    (HEAD + "elements:\n  t: {type: text}\n", ["elements", "t"], "'text' is a required property"),
    (HEAD + "page: {margins: 10 furlongs}\n", ["page", "margins"], "does not match"),
    (HEAD + "elements:\n  b: {type: box, fill: blurple}\n", ["elements", "b", "fill"], "does not match"),
    (HEAD + "groups: {g: {elements: {}}}\nelements:\n  u: {use: g, att: {x: 1}}\n", ["elements", "u"],
     "'att' was unexpected"),
    (HEAD + "extends: graph-20x28\nelements:\n  main: {type: grid, shap: hex}\n", ["elements", "main"],
     "'shap' was unexpected"),
    (HEAD + "extends: graph-20x28\nelements:\n  main: {shap: hex}\n", ["elements", "main"], "'shap' is not one of"),
    ("sheetgen: 1\nkind: layuot\n", ["kind"], "'layuot' is not one of"),
    ("sheetgen: 1\nkind: map\n", [], "'ruleset' is a required property"),
    ("sheetgen: 1\nkind: pack\nsheets: [a]\nnmae: x\n", [], "'nmae' was unexpected"),
    (PLAYLOG + "    - {mvoe: J11, roll: 3}\n", ["rounds", 0, "steps", 0], "'mvoe' was unexpected"),
    (PLAYLOG + "    - {fight: {hero: 3, enemy: 2, wepon: true}}\n", ["rounds", 0, "steps", 0, "fight"],
     "'wepon' was unexpected"),
    # a one-player log without its hero is blamed as a one-player log, not as a two-player one
    (PLAYLOG.replace("hero: kael\n", ""), [], "'hero' is a required property"),
    # a two-player log (players:) is judged by its own model
    (PLAYLOG.replace("hero: kael\nrounds:\n - entry: J11:S\n   steps:\n",
                     "players:\n - {name: Ada, hero: kael, entry: J11:S}\nsteps: []\nwiner: Ada\n"), [],
     "'winer' was unexpected"),
]


MAP = ("sheetgen: 1\nkind: map\nruleset: foury\ntitle: t\ngrid: 3x3\ncells: |\n  A A A\n  A O A\n  A A A\n"
       "zones:\n  A: {name: a, events: {1: chest, 2: chest, 3: chest, 4: chest, 5: chest, 6: EVENT}}\n")
# a map's names: an item, an event, an enemy, a side, a die-table effect, a zone letter (the
# editor offers the allowed ones; a wrong one is blamed on its place, naming them)
MISTAKES += [
    (MAP.replace("EVENT", "chest") + "items: {B1: banana}\n", ["items", "B1"], "'banana' is not one of ['chest'"),
    (MAP.replace("EVENT", "chest") + "items: {B1: [statue, bananas]}\n", ["items", "B1", 1], "'bananas' is not one of"),
    (MAP.replace("EVENT", "find banana"), ["zones", "A", "events", 6], "'find banana' is not one of"),
    (MAP.replace("EVENT", "monster dragon"), ["zones", "A", "events", 6], "'monster dragon' is not one of"),
    (MAP.replace("EVENT", "chest") + "entries: [A1:Q]\n", ["entries", 0], "'A1:Q' does not match"),
    (MAP.replace("EVENT", "chest") + "walls: [A1-E]\n", ["walls", 0], "'A1-E' does not match"),
    (MAP.replace("EVENT", "chest") + "die_table: {1: win a prize}\n", ["die_table", 1],
     "'win a prize' is not one of ['monster', 'nothing', 'gain 1 heart'"),
    (MAP.replace("EVENT", "chest") + "campaign: ancien\n", ["campaign"], "'ancien' is not one of"),
    (MAP.replace("EVENT", "chest").replace("  A: {name", "  O: {name"), ["zones"], "'O' does not match"),
]


@pytest.mark.parametrize("text, path, message", MISTAKES, ids=[m[2] for m in MISTAKES])
def test_a_mistake_is_blamed_on_its_key(validator, text, path, message):
    errors = list(validator.iter_errors(yaml.safe_load(text)))
    best = best_match(errors)
    assert best is not None
    assert (list(best.absolute_path), message in best.message) == (path, True), best.message
    assert "not valid under any of the given schemas" not in best.message


def test_partial_overrides_are_fine_only_when_extending(validator):
    # an extending layout may leave out a grid's columns (inherited) and delete an element
    child = HEAD + "extends: graph-20x28\nelements:\n  main: {type: grid, shape: hex}\n  entrance: null\n"
    assert list(validator.iter_errors(yaml.safe_load(child))) == []
    alone = HEAD + "elements:\n  main: {type: grid, shape: hex}\n"
    messages = [e.message for e in validator.iter_errors(yaml.safe_load(alone))]
    assert any("'columns' is a required property" in m for m in messages)


def test_lengths_numbers_and_truth_values_as_the_loader_reads_them(validator):
    ok = HEAD + ("elements:\n  g: {type: grid, columns: '4', rows: 2, cell: 1.5cm, labels: 'yes'}\n"
                 "  b: {type: box, width: 0.5in, height: 10pt, stroke_width: 0.3, fill: '#ABC', stroke: Black}\n")
    assert _loads_text(ok)
    assert list(validator.iter_errors(yaml.safe_load(ok))) == []
    # the bound of a length is checked on a number (the loader checks it on '12mm' too)
    negative = HEAD + "elements:\n  b: {type: box, stroke_width: -1}\n"
    assert not _loads_text(negative)
    blamed = [best_match([e]).message for e in validator.iter_errors(yaml.safe_load(negative))]
    # (pydantic 2.5 writes the bound as 0.0, later ones as 0)
    assert blamed in (["-1 is less than the minimum of 0"], ["-1 is less than the minimum of 0.0"])
    assert list(validator.iter_errors(yaml.safe_load(negative.replace("-1", "'-1mm'"))))


def _loads_text(text: str) -> bool:
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "x.yaml"
        file.write_text(text, encoding="utf-8")
        return _loads(file)


# the spellings the map loader reads (any case and spacing, phrases joined with +) pass the
# schema, and the wrong ones fail both (the schema says no more and no less than the loader)
MAP_SPELLINGS = [
    ("items: {b1: Magic  Circle, C1: [STATUE, potion]}\n", "chest", True),
    ("", "Collapse  Left FRONT + monster Orc", True),
    ("", " find yellow potion ", True),
    ("", "collapse left left", False),            # the loader refuses a side named twice; the schema cannot see it
    ("die_table: {1: monster, 2: Lose 2 Hearts, 3: gain shovel + lose 1 life point, 4: nothing, 5: gain 1 chest, "
     "6: gain 3 four-leaf clovers}\n", "chest", True),
    ("die_table: {1: monster + gain 1 chest, 2: nothing, 3: nothing, 4: nothing, 5: nothing, 6: nothing}\n",
     "chest", False),
    ("die_table: {1: gain 0 chests, 2: nothing, 3: nothing, 4: nothing, 5: nothing, 6: nothing}\n", "chest", False),
]


@pytest.mark.parametrize("extra, event, loads", MAP_SPELLINGS, ids=[f"{m[1]}|{m[0][:40]}" for m in MAP_SPELLINGS])
def test_map_names_in_the_schema_as_the_loader_reads_them(validator, extra, event, loads):
    text = MAP.replace("EVENT", event) + extra
    assert _loads_text(text) is loads
    schema_ok = list(validator.iter_errors(yaml.safe_load(text))) == []
    assert schema_ok is (loads or "left left" in event)


def test_every_key_of_a_map_is_described(validator):
    defs = validator.schema["$defs"]
    for model in ("MapModel", "ZoneModel", "Requirement"):
        props = defs[model].get("properties") or defs[model]["else"]["properties"]
        undescribed = [k for k, v in props.items() if not v.get("description")]
        assert undescribed == [], model
