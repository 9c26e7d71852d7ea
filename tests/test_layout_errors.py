"""Every kind of bad layout input gives a located InputError (FILE:LINE:COL, key path,
what was expected, a suggestion) and `sheetgen validate` exits 2."""
import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import load_file
from sheetgen.errors import InputError

HEAD = "sheetgen: 1\nkind: layout\ntitle: t\n"


def errors(tmp_path, text, name="t.yaml", compose=False):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        loaded = load_file(path)
        if compose:
            from sheetgen.draw.options import BuildOptions
            loaded.handler.compose(loaded.definition, BuildOptions())
    return [p.format().replace(str(tmp_path) + "/", "") for p in info.value.problems]


def test_malformed_yaml(tmp_path):
    assert errors(tmp_path, HEAD + "elements: {a: [1, 2}\n")[0].startswith("t.yaml:4:")
    assert "malformed YAML" in errors(tmp_path, HEAD + "elements: {a: [1, 2}\n")[0]


def test_unknown_key_with_suggestion(tmp_path):
    errs = errors(tmp_path, HEAD + "elements:\n  a: {type: box, widht: 3mm}\n")
    assert errs == ["t.yaml:5:18: elements.a: unknown key 'widht' (expected one of x, y, z, grid, overlap, stroke, "
                    "stroke_width, dash, fill, pattern, width, height, radius); did you mean 'width'?"]
    errs = errors(tmp_path, HEAD + "page: {size: a4, margin: 3mm}\n")
    assert errs[0].startswith("t.yaml:4:18: page: unknown key 'margin'") and "did you mean 'margins'" in errs[0]


def test_unknown_element_type_with_suggestion(tmp_path):
    errs = errors(tmp_path, HEAD + "elements:\n  g: {type: gird, columns: 3}\n")
    assert errs[0].startswith("t.yaml:5:13: elements.g.type: unknown element type 'gird'")
    assert errs[0].endswith("did you mean 'grid'?")
    assert "needs a 'type'" in errors(tmp_path, HEAD + "elements:\n  g: {x: 3}\n")[0]


def test_wrong_type_and_bad_units(tmp_path):
    errs = errors(tmp_path, HEAD + "elements:\n  d: {type: grid, columns: many, rows: 3, cell: 3qq}\n"
                  "  e: {type: box, x: 3cels}\n")
    assert "t.yaml:5:28: elements.d.columns: input should be a valid integer, unable to parse string as an integer, got 'many'" in errs
    assert any(e.startswith("t.yaml:5:49: elements.d.cell: unknown unit 'qq'") for e in errs)
    assert any(e.startswith("t.yaml:6:21: elements.e.x: unknown unit 'cels'") and "did you mean 'cells'" in e for e in errs)


def test_text_element_errors_are_not_confused_by_its_text_key(tmp_path):
    errs = errors(tmp_path, HEAD + "elements:\n  c: {type: text, text: hi, font: sans-bolt}\n")
    assert errs == ["t.yaml:5:35: elements.c.font: unknown font 'sans-bolt' (one of sans, sans-bold, condensed, "
                    "condensed-bold, mono, serif, serif-bold, serif-italic); did you mean 'sans-bold'?"]


def test_missing_image_names_the_file_and_the_line(tmp_path):
    errs = errors(tmp_path, HEAD + "elements:\n  pic: {type: image, path: art/nope.png}\n")
    assert errs == ["t.yaml:5:28: elements.pic.path: image file not found: art/nope.png"]
    (tmp_path / "fake.png").write_text("not an image")
    assert "cannot read image" in errors(tmp_path, HEAD + "elements:\n  pic: {type: image, path: fake.png}\n")[0]


def test_semantic_references_are_checked_together(tmp_path):
    errs = errors(tmp_path, HEAD + "elements:\n"
                  "  g: {type: text, text: x, grid: mian}\n"
                  "  h: {use: dor}\n"
                  "  i: {type: checkbox_track, boxes: 3, caps: [5]}\n"
                  "  j: {type: icon, name: skul}\n"
                  "  main: {type: grid, columns: 2, rows: 2}\n")
    assert errs[0] == ("t.yaml:5:34: elements.g.grid: no grid element named 'mian' at the top level "
                       "(expected one of main); did you mean 'main'?")
    assert errs[1].startswith("t.yaml:6:12: elements.h.use: no group named 'dor'")
    assert errs[2] == "t.yaml:7:46: elements.i.caps[0]: box 5 does not exist (the track has 3 boxes)"
    assert errs[3].startswith("t.yaml:8:25: elements.j.name: unknown icon 'skul'") and errs[3].endswith("did you mean 'skull'?")
    assert errs[4].startswith("t.yaml:9:9: elements.main: a grid needs a cell size or 'fit: true'")


def test_cells_without_a_grid(tmp_path):
    errs = errors(tmp_path, HEAD + "elements:\n  b: {type: box, x: 2cells}\n")
    assert errs[0].startswith("t.yaml:5:6: elements.b: this element uses 'cells' but names no grid")


def test_bad_extends(tmp_path):
    errs = errors(tmp_path, HEAD + "extends: graph-20x82\n")
    assert errs == ["t.yaml:4:10: extends: extends 'graph-20x82': no built-in layout of that name (expected a "
                    "built-in layout name or a path to a .yaml file); did you mean 'graph-20x28'?"]
    assert errors(tmp_path, HEAD + "extends: missing.yaml\n")[0].startswith("t.yaml:4:10: extends: extends 'missing.yaml': no such file")
    (tmp_path / "game.yaml").write_text("sheetgen: 1\nkind: map\nruleset: foury\n")
    assert "is not a layout or deck definition" in errors(tmp_path, HEAD + "extends: game.yaml\n")[0]


def test_extends_cycle_names_the_chain(tmp_path):
    (tmp_path / "b.yaml").write_text("sheetgen: 1\nkind: layout\nextends: a.yaml\n")
    errs = errors(tmp_path, "sheetgen: 1\nkind: layout\nextends: b.yaml\n", name="a.yaml")
    assert errs == ["b.yaml:3:10: extends: extends cycle: a.yaml -> b.yaml -> a.yaml"]


def test_errors_inherited_from_a_parent_point_into_the_parent(tmp_path):
    (tmp_path / "parent.yaml").write_text(HEAD + "elements:\n  a: {type: box, x: 3}\n  b: {type: box}\n")
    errs = errors(tmp_path, HEAD + "extends: parent.yaml\nelements:\n  a: {x: 3zz}\n  b: {wdth: 2}\n", name="child.yaml")
    assert any(e.startswith("child.yaml:6:10: elements.a.x: unknown unit 'zz'") for e in errs)
    assert any(e.startswith("child.yaml:7:7: elements.b: unknown key 'wdth'") for e in errs)
    (tmp_path / "parent2.yaml").write_text(HEAD + "elements:\n  a: {type: box, x: 3zz}\n")
    errs = errors(tmp_path, HEAD + "extends: parent2.yaml\nelements:\n  a: {y: 2}\n", name="child2.yaml")
    assert errs[0].startswith("parent2.yaml:5:21: elements.a.x: unknown unit 'zz'")


def test_deck_only_keys_and_compose_time_errors(tmp_path):
    assert errors(tmp_path, HEAD + "card: {width: 3, height: 3}\n")[0] == "t.yaml:4:7: card: 'card' is only for kind: deck"
    deck = "sheetgen: 1\nkind: deck\n"
    assert "a deck needs 'card" in errors(tmp_path, deck + "count: 3\n")[0]
    errs = errors(tmp_path, HEAD + "elements:\n  tb:\n    type: table\n    height: 10mm\n"
                  "    rows: [[a], [b], [c], [d], [e]]\n", compose=True)
    assert errs[0].startswith("t.yaml:6:5: elements.tb: the table needs")


def test_validate_command_exit_codes(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD + "elements:\n  a: {type: box, widht: 3mm}\n")
    result = CliRunner().invoke(main, ["validate", str(bad)])
    assert result.exit_code == 2
    assert "did you mean 'width'" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["validate", "layouts/graph-20x28.yaml", "hex-sheet", "room-cards"])
    assert result.exit_code == 0, result.output
