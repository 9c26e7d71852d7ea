"""Bad input never produces a Python traceback, anywhere.

The project's rule: bad input gets a clear error (FILE:LINE:COLUMN, the key
path, what was expected, a 'did you mean'), never a traceback; exit codes are
0 ok, 1 rule violations found, 2 unusable input or usage.  These tests feed
the CLI a broad set of broken inputs (malformed files, wrong types at every
level of a layout and of a Foury map, absurd numbers, broken extends/packs,
bad options, a damaged calibration file) and check that every run ends in a
clean message with one of those exit codes, and that nothing is written when
a build fails.  They also build every built-in on Letter paper in grayscale.

The fuzz suite at the end mutates every built-in definition and play log (a value
replaced, a line dropped or doubled, a token inserted, the text cut short) and
runs each mutant through validate, build, check and `track step`: no traceback,
an exit code in {0, 1, 2}, nothing half-written.  Hypothesis draws the mutation
seeds, derandomized, with a fixed number of examples, so CI runs the same inputs
every time.  Inputs that once crashed sheetgen are kept in tests/data/robustness/
and replayed.  tests/tools/fuzz_figures.py runs the same mutants by the ten
thousand for the figures in docs/limits.md.
"""
from __future__ import annotations

import copy
import functools
import os
import sys
import random
import re
import tempfile
import traceback
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetgen.cli import main

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data" / "robustness"
HALL = TESTS / "data" / "foury_maps" / "test-hall.yaml"
ALL_ELEMENTS = TESTS / "data" / "layout" / "all-elements.yaml"
HEAD = "sheetgen: 1\nkind: layout\ntitle: t\n"


def invoke(*args) -> "click.testing.Result":  # noqa: F821 - for the reader
    """Run the CLI in-process; fail with the traceback if one escaped."""
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        tb = "".join(traceback.format_exception(*result.exc_info))
        pytest.fail(f"sheetgen {' '.join(map(str, args))} raised a traceback:\n{tb}")
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    assert "Traceback" not in result.output
    return result


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def validate_and_build(path: Path, outdir: Path, fmt: str = "svg") -> tuple:
    """validate, and build if it validated; a failed build must leave outdir empty."""
    checked = invoke("validate", path)
    built = None
    if checked.exit_code == 0:
        built = invoke("build", path, "-o", outdir, "--format", fmt)
        if built.exit_code != 0:
            assert not outdir.exists() or not any(outdir.iterdir()), built.output
    return checked, built


# -- unreadable files ------------------------------------------------------------------------

UNREADABLE = [
    # (file name, content, what the first error line must match)
    ("empty.yaml", "", r"empty\.yaml:1:1: expected a mapping with 'sheetgen: 1'"),
    ("list.yaml", "- a\n- b\n", r"list\.yaml:1:1: expected a mapping"),
    ("scalar.yaml", "42\n", r"scalar\.yaml:1:1: expected a mapping"),
    ("binary.yaml", bytes(range(256)), r"binary\.yaml: not UTF-8 text"),
    ("latin1.yaml", "sheetgen: 1\nkind: layout\ntitle: caf\xe9\n".encode("latin-1"), r"latin1\.yaml: not UTF-8"),
    ("tabs.yaml", "sheetgen: 1\nkind: layout\n\ttitle: x\n", r"tabs\.yaml:3:1: malformed YAML: found character '\\t'"),
    ("two-docs.yaml", "sheetgen: 1\nkind: layout\n---\nsheetgen: 1\n", r"two-docs\.yaml:3:1: malformed YAML"),
    ("python-tag.yaml", "sheetgen: 1\nkind: layout\ntitle: !!python/object:os.system x\n",
     r"python-tag\.yaml:3:8: malformed YAML: could not determine a constructor"),
    ("bell.yaml", "sheetgen: 1\nkind: layout\ntitle: a\x07b\n", r"bell\.yaml:3:9: malformed YAML: the character U\+0007"),
    ("nul-escape.yaml", 'sheetgen: 1\nkind: layout\ntitle: "a\\0b"\n', r"nul-escape\.yaml:3:8: text holds the unprintable character U\+0000"),
    ("surrogate.yaml", HEAD + 'elements: {t: {type: text, text: "\\ud800"}}\n', r"surrogate\.yaml:4:34: text holds .*U\+D800"),
    ("deep-lists.yaml", HEAD + "elements: " + "[" * 1200 + "]" * 1200 + "\n", r"deep-lists\.yaml:4:\d+: nested too deeply"),
    ("deep-maps.yaml", HEAD + "elements: " + "{a: " * 150 + "1" + "}" * 150 + "\n", r"deep-maps\.yaml:4:\d+: nested too deeply"),
    ("recursive-alias.yaml", "sheetgen: 1\nkind: layout\nelements: &a {x: *a}\n", r"recursive-alias\.yaml:3:\d+: malformed YAML"),
    ("list-key.yaml", "? [a]\n: 1\n", r"list-key\.yaml:1:3: a mapping key must be a plain value"),
    ("dup-key.yaml", HEAD + "title: again\n", r"dup-key\.yaml:4:1: duplicate key 'title' \(first given at line 3\)"),
    ("merge-dup.yaml", HEAD + "elements:\n  a: &b {type: box}\n  c: {<<: [*b, *b]}\n", r"merge-dup\.yaml:\d+:\d+: duplicate key 'type'"),
    ("number-keys.yaml", HEAD + "elements: {1: {type: box}, null: {type: box}}\n",
     r"number-keys\.yaml:4:12: elements\[1\]: a key must be text \(a name\), not 1"),
    ("top-number-key.yaml", HEAD + "7: x\n", r"top-number-key\.yaml:4:1: .*a key must be text"),
]


@pytest.mark.parametrize("name, content, expected", UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_unreadable_files_get_a_located_error(tmp_path, name, content, expected):
    path = write(tmp_path, name, content)
    result = invoke("validate", path)
    assert result.exit_code == 2
    first = result.output.splitlines()[0].replace(str(tmp_path) + "/", "")
    assert re.search(expected, first), first
    built = invoke("build", path, "-o", tmp_path / "out")
    assert built.exit_code == 2 and not (tmp_path / "out").exists()


def test_billion_laughs_is_refused_quickly(tmp_path):
    lines = ["sheetgen: 1", "kind: layout", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]")
    result = invoke("validate", write(tmp_path, "laughs.yaml", "\n".join(lines) + "\n"))
    assert result.exit_code == 2
    assert "laughs.yaml:3:" in result.output and "too large" in result.output


@pytest.mark.parametrize("header, expected", [
    ("sheetgen: 1\nkind: [layout]\n", "2:7: kind: must be a name, not a list"),
    ("sheetgen: 1\nkind: {a: 1}\n", "2:7: kind: must be a name, not a mapping"),
    ("sheetgen: 1\nkind: map\nruleset: [foury]\n", "3:10: ruleset: must be a name, not a list"),
    ("sheetgen: true\nkind: layout\n", "1:11: sheetgen: unsupported format version True"),
    ("sheetgen: 1.0\nkind: layout\n", "1:11: sheetgen: unsupported format version 1.0"),
    ("sheetgen: 1\nkind: layuot\n", "did you mean 'layout'?"),
    ("sheetgen: 1\nkind: map\nruleset: foury2\n", "did you mean 'foury'?"),
])
def test_header_of_the_wrong_type(tmp_path, header, expected):
    result = invoke("validate", write(tmp_path, "h.yaml", header))
    assert result.exit_code == 2 and expected in result.output


def test_a_folder_a_missing_file_and_an_unknown_name(tmp_path):
    assert "is a folder, not a definition file" in invoke("validate", tmp_path).output
    assert "no such file" in invoke("validate", tmp_path / "nope.yaml").output
    result = invoke("build", "graph-20x2", "-o", tmp_path / "out")
    assert result.exit_code == 2 and "did you mean 'graph-20x28'?" in result.output
    assert not (tmp_path / "out").exists()


# -- numbers that cannot be drawn ------------------------------------------------------------------

NUMBERS = [
    ("page: {size: custom, width: .nan, height: .inf}\n", "4:29: page.width: a length between"),
    ("page: {size: custom, width: -10mm, height: 100mm}\n", "4:29: page.width: Input should be greater than 0"),
    ("page: {size: custom, width: 0, height: 0}\n", "4:40: page.height: Input should be greater than 0"),
    ("page: {size: custom, width: 5000mm, height: 100mm}\n", "page.width: Input should be less than or equal to 2000"),
    ("page: {size: a4, margins: -20mm}\n", "4:27: page.margins: margins cannot be negative"),
    ("page: {size: a4, margins: {top: -1mm}}\n", "page.margins.top: Input should be greater than or equal to 0"),
    ("elements:\n  b: {type: box, x: .nan, width: -.inf}\n", "5:21: elements.b.x: a length between"),
    ("elements:\n  b: {type: box, x: " + "9" * 400 + "}\n", "elements.b.x: a length between -100000 and 100000 mm, not a 400-digit"),
    ("elements:\n  g: {type: grid, columns: 0, rows: 3, cell: 5mm}\n", "5:28: elements.g.columns: Input should be greater than 0"),
    ("elements:\n  g: {type: grid, columns: 1000000, rows: 3, cell: 5mm}\n", "elements.g.columns: Input should be less than or equal to 1000"),
    ("elements:\n  g: {type: grid, columns: 3, rows: 3, cell: -5mm}\n", "elements.g.cell: Input should be greater than 0"),
    ("elements:\n  t: {type: text, text: hi, size: .inf}\n", "elements.t.size: Input should be a finite number"),
    ("elements:\n  t: {type: text, text: hi, size: 1e9}\n", "elements.t.size: Input should be less than or equal to 1000"),
    ("elements:\n  g: {type: group, rotate: .nan}\n", "elements.g.rotate: Input should be a finite number"),
    ("elements:\n  c: {type: checkbox_track, boxes: 1000000}\n", "elements.c.boxes: Input should be less than or equal to 1000"),
]


@pytest.mark.parametrize("body, expected", NUMBERS)
def test_numbers_that_cannot_be_drawn(tmp_path, body, expected):
    path = write(tmp_path, "n.yaml", HEAD + body)
    checked, built = validate_and_build(path, tmp_path / "out")
    assert checked.exit_code == 2, checked.output
    assert expected in checked.output, checked.output


@pytest.mark.parametrize("body, expected", [
    ("kind: deck\ncard: {width: 300mm, height: 400mm}\ncount: 3\n", "does not fit on a 210 x 297 mm page"),
    ("kind: deck\ncard: {width: 63mm, height: 88mm, bleed: 100mm}\ncount: 2\n", "(bleed 100 mm) does not fit"),
    ("kind: deck\ncard: {width: 63mm, height: 88mm}\ncount: 100000000\n", "count: Input should be less than or equal to 1000"),
    ("kind: deck\ncard: {width: 63mm, height: 88mm}\ncards: [{count: 900}, {count: 900}]\n", "1800 cards in all"),
    ("kind: layout\npage: {size: custom, width: 30mm, height: 20mm, margins: 20mm}\n", "the margins leave no room"),
])
def test_cards_and_pages_that_do_not_fit(tmp_path, body, expected):
    path = write(tmp_path, "d.yaml", "sheetgen: 1\ntitle: t\n" + body)
    result = invoke("build", path, "-o", tmp_path / "out", "--format", "svg")
    assert result.exit_code == 2 and expected in result.output, result.output
    assert "d.yaml:" in result.output
    assert not (tmp_path / "out").exists()


# -- wrong types at every level of a layout ----------------------------------------------------------

BAD_VALUES = [None, -1, 0, 10**6, "x", [], {}, True, "-5mm", "1000cells", ".nan"]


def _paths(data, prefix=()):
    """Every key path of a YAML structure (the first two items of each list)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if prefix or key not in ("sheetgen", "kind"):
                yield prefix + (key,)
                yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data[:2]):
            yield prefix + (i,)
            yield from _paths(value, prefix + (i,))


def _replaced(data, path, value):
    out = copy.deepcopy(data)
    node = out
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return out


def _mutants(source: Path, values, every: int = 1, per_key: int | None = None):
    """source with one key replaced by one bad value; per_key values for each key,
    taken in turn from values so that every value meets many keys."""
    base = yaml.safe_load(source.read_text(encoding="utf-8"))
    for n, path in enumerate(_paths(base)):
        if n % every:
            continue
        chosen = values if per_key is None else [values[(n + k * 3) % len(values)] for k in range(per_key)]
        for value in chosen:
            text = yaml.safe_dump(_replaced(base, path, value), sort_keys=False, allow_unicode=True)
            yield path, value, text.replace("'.nan'", ".nan")


def test_layout_with_a_wrong_value_at_every_key(tmp_path):
    """all-elements.yaml with each key in turn set to each bad value: validate never
    crashes, and whatever validates also builds (or fails cleanly, writing nothing)."""
    (tmp_path / "tiny.png").write_bytes((ALL_ELEMENTS.parent / "tiny.png").read_bytes())
    outcomes = {0: 0, 2: 0}
    for i, (path, value, text) in enumerate(_mutants(ALL_ELEMENTS, BAD_VALUES, per_key=4)):
        file = write(tmp_path, f"m{i}.yaml", text)
        checked = invoke("validate", file)
        outcomes[checked.exit_code] = outcomes.get(checked.exit_code, 0) + 1
        if checked.exit_code == 2:
            # every complaint is located in the file and names the key path
            assert re.search(rf"m{i}\.yaml:\d+:\d+: ", checked.output), (path, value, checked.output)
    assert outcomes[2] > outcomes[0] > 0


def test_layout_mutants_that_validate_also_build(tmp_path):
    (tmp_path / "tiny.png").write_bytes((ALL_ELEMENTS.parent / "tiny.png").read_bytes())
    for i, (path, value, text) in enumerate(_mutants(ALL_ELEMENTS, [0, "x", 10**6, "1000cells"], every=2)):
        validate_and_build(write(tmp_path, f"m{i}.yaml", text), tmp_path / f"out{i}")


def test_deck_with_a_wrong_value_at_every_key(tmp_path):
    deck = TESTS.parent / "layouts" / "room-cards.yaml"
    for i, (path, value, text) in enumerate(_mutants(deck, [None, 0, "x", {}, 10**6], every=2)):
        validate_and_build(write(tmp_path, f"d{i}.yaml", text), tmp_path / f"out{i}")


# -- a Foury map, each key mutated -----------------------------------------------------------------

ZONE = {"name": "Z", "events": {i: "monster" for i in range(1, 7)}}
MAP_CASES = [
    ("title", [None, 5, [], {}]),
    ("grid", ["0x0", "30x30", "1x1", "5x", "5*5", 55, None, "100000x100000"]),
    ("cells", ["", "A A\nA A", "a a a a a\nd a a a b\nd d o b b\nd c c c b\nc c c c c",
               "A A A A A\nD A A A B\nD D O B B\nD C C C B\nC C C C",             # ragged: a short last row
               "A A A A A A\nD A A A B\nD D O B B\nD C C C B\nC C C C C",         # a long first row
               "# # # # #\n# # # # #\n# # O # #\n# # # # #\n# # # # #", None, ["A A"]]),
    ("zones", [{}, [], "A", {"a": ZONE}, {"O": ZONE}, {"AB": ZONE}, {1: ZONE}, {"A": None}]),
    ("entries", ["C1:N", {"C1": "N"}, [["C1", "N"]], ["c1:n"], ["C3:N"], ["Z1:N"], ["C1:X"], ["C1:N", "C1:N"], [None], []]),
    ("walls", [{"B3": "E"}, "B3:E", ["B3"], ["B3:Q"], ["Z9:E"], ["B3:E", "C3:W"], ["A1:N"], [None]]),
    ("items", [{"C3": "statue"}, {"Z9": "statue"}, {"B1": "dragon"}, {"B1": None}, ["B1: statue"], {1: "statue"}, {}]),
]


def _hall() -> dict:
    return yaml.safe_load(HALL.read_text(encoding="utf-8"))


def _map_mutants():
    for key, values in MAP_CASES:
        for value in values:
            yield (key,), value
    for events in ({i: "monster" for i in range(8)}, {"one": "monster", **{i: "monster" for i in range(2, 7)}},
                   ["monster"] * 6, "monster", {i: "collapse sideways" for i in range(1, 7)},
                   {i: "" for i in range(1, 7)}, {1.5: "monster"}):
        yield ("zones", "A", "events"), events
    for requirement in ({"statues": 0}, {"statues": "three"}, {"dragons": 1}, {"statues": 1, "kills": 1}, {},
                        {"statues": 10**30}, "statues 3"):
        yield ("zones", "A", "requirement"), requirement


def test_foury_map_with_each_key_mutated(tmp_path):
    base = _hall()
    outcomes = []
    for i, (path, value) in enumerate(_map_mutants()):
        text = yaml.safe_dump(_replaced(base, path, value), sort_keys=False, allow_unicode=True)
        checked, _ = validate_and_build(write(tmp_path, f"map{i}.yaml", text), tmp_path / f"out{i}")
        outcomes.append(checked.exit_code)
        if checked.exit_code == 2:
            assert re.search(rf"map{i}\.yaml:\d+:\d+: ", checked.output), (path, value, checked.output)
    assert 2 in outcomes and outcomes.count(2) > len(outcomes) // 2


def test_foury_map_errors_point_into_the_cells_block(tmp_path):
    text = HALL.read_text(encoding="utf-8").replace("  D D O B B", "  D D O b ?")
    result = invoke("validate", write(tmp_path, "m.yaml", text))
    assert result.exit_code == 2
    row = text.splitlines().index("  D D O b ?") + 1
    assert f"m.yaml:{row}:9: cells: row 3, column 4 (cell D3): unknown symbol 'b'" in result.output
    assert "did you mean 'B'?" in result.output
    assert f"m.yaml:{row}:11: cells: row 3, column 5 (cell E3): unknown symbol '?'" in result.output


def test_foury_map_item_on_rock(tmp_path):
    text = HALL.read_text(encoding="utf-8").replace("  D A A A B\n", "  D # A A B\n", 1)
    result = invoke("validate", write(tmp_path, "m.yaml", text))
    line = text.splitlines().index("  B2: statue") + 1
    assert result.exit_code == 2 and f"m.yaml:{line}:7: items.B2: items on rock: B2 is solid rock (#)" in result.output


def test_foury_map_missing_keys_and_unknown_keys(tmp_path):
    base = _hall()
    for key in list(base):
        if key in ("sheetgen", "kind", "ruleset"):
            continue
        data = dict(base)
        del data[key]
        validate_and_build(write(tmp_path, f"no-{key}.yaml", yaml.safe_dump(data, sort_keys=False)), tmp_path / key)
    result = invoke("validate", write(tmp_path, "typo.yaml", HALL.read_text().replace("walls:", "wals:")))
    assert result.exit_code == 2 and "unknown key 'wals'" in result.output and "did you mean 'walls'?" in result.output


def test_foury_map_with_more_hourglass_boxes_than_fit(tmp_path):
    text = (TESTS.parent / "layouts" / "foury" / "kraken.yaml").read_text(encoding="utf-8")
    text = re.sub(r"^turns: \d+", "turns: 1000000", text, flags=re.M)
    result = invoke("validate", write(tmp_path, "k.yaml", text))
    assert result.exit_code == 2 and "turns: Input should be less than or equal to 120" in result.output


# -- images, text, groups and cards ----------------------------------------------------------------


def test_keys_named_like_element_types_are_still_keys(tmp_path):
    """A top-level 'use:' key, a group named 'use' and an element named 'use' are not
    mistaken for use elements (they once crashed the error report)."""
    top = invoke("validate", write(tmp_path, "u1.yaml", HEAD + "use: {zones: true}\n"))
    assert top.exit_code == 2 and "u1.yaml:4:1: unknown key 'use' (expected one of sheetgen, kind" in top.output
    result = invoke("validate", write(tmp_path, "u2.yaml", HEAD + "groups:\n  use: {elements: {a: {type: box, widht: 1}}, "
                                      "foo: 1}\nelements:\n  use: {type: box, hieght: 2}\n  b: {use: use, at: {z: 2}}\n"))
    assert result.exit_code == 2
    for expected in ("u2.yaml:5:35: groups.use.elements.a: unknown key 'widht'", "did you mean 'width'?",
                     "u2.yaml:5:47: groups.use: unknown key 'foo' (expected one of width, height, elements)",
                     "u2.yaml:7:20: elements.use: unknown key 'hieght'", "did you mean 'height'?",
                     "u2.yaml:8:22: elements.b.at: unknown key 'z' (expected one of x, y)"):
        assert expected in result.output, result.output


def test_bad_images_are_named_with_their_line(tmp_path):
    from PIL import Image
    Image.new("RGB", (4, 4)).save(tmp_path / "pic.gif")
    (tmp_path / "fake.png").write_bytes(b"hello")
    (tmp_path / "cut.png").write_bytes((ALL_ELEMENTS.parent / "tiny.png").read_bytes()[:40])
    (tmp_path / "folder.png").mkdir()
    body = "".join(f"  i{i}: {{type: image, path: {name}, width: 20mm}}\n"
                   for i, name in enumerate(["pic.gif", "fake.png", "cut.png", "folder.png", "none.png"]))
    result = invoke("build", write(tmp_path, "i.yaml", HEAD + "elements:\n" + body), "-o", tmp_path / "out")
    assert result.exit_code == 2 and not (tmp_path / "out").exists()
    lines = result.output.replace(str(tmp_path) + "/", "").splitlines()
    assert lines == ["error: i.yaml:5:27: elements.i0.path: image pic.gif is GIF (expected a PNG or JPEG file)",
                     "error: i.yaml:6:27: elements.i1.path: cannot read image fake.png: not an image file "
                     "(or a damaged one) (expected a PNG or JPEG file)",
                     "error: i.yaml:7:27: elements.i2.path: cannot read image cut.png: not an image file "
                     "(or a damaged one) (expected a PNG or JPEG file)",
                     "error: i.yaml:8:27: elements.i3.path: image folder.png is a folder, not a file",
                     "error: i.yaml:9:27: elements.i4.path: image file not found: none.png"]


@pytest.mark.parametrize("text", ["{", "}", "{nope}", "{0}", "{title.__class__}", "{title:>99999999}", "%s %d"])
def test_text_that_looks_like_a_format_string(tmp_path, text):
    path = write(tmp_path, "t.yaml", HEAD + f"elements:\n  t: {{type: text, text: {text!r}}}\n")
    assert invoke("build", path, "-o", tmp_path / "out", "--format", "svg").exit_code == 0


def test_group_cycles_and_broken_deck_cards(tmp_path):
    groups = write(tmp_path, "g.yaml", HEAD + "groups:\n  a: {elements: {x: {use: b}}}\n  b: {elements: {y: {use: a}}}\n"
                   "  c: {elements: {w: {use: c}}}\nelements:\n  one: {use: a}\n  two: {use: nope}\n")
    result = invoke("build", groups, "-o", tmp_path / "out")
    assert result.exit_code == 2
    assert "g.yaml:6:6: groups.b: groups use each other in a cycle: a -> b -> a" in result.output
    assert "g.yaml:10:14: elements.two.use: no group named 'nope'" in result.output
    deck = write(tmp_path, "d.yaml", "sheetgen: 1\nkind: deck\ncard: {width: 63mm, height: 88mm}\n"
                 "template:\n  name: {type: text, text: T}\ncards:\n  - {elements: {name: {text: 5}}}\n"
                 "  - {elements: 7}\n  - 5\n  - {elements: {new: {type: text}}}\n")
    result = invoke("build", deck, "-o", tmp_path / "out")
    assert result.exit_code == 2
    for expected in ("d.yaml:7:30: cards[0].elements.name.text: input should be a valid string, got 5",
                     "d.yaml:8:16: cards[1].elements: input should be a valid dictionary, got 7",
                     "d.yaml:9:5: cards[2]: input should be a valid dictionary, got 5",
                     "d.yaml:10:22: cards[3].elements.new: missing required key 'text'"):
        assert expected in result.output, result.output


# -- extends and packs ---------------------------------------------------------------------------


@pytest.mark.parametrize("extends, expected", [
    ("self.yaml", "extends cycle: self.yaml -> self.yaml"),
    ("nope.yaml", "extends 'nope.yaml': no such file"),
    ("ancient-story", "is not a layout or deck definition (it is kind 'map')"),
    (str(HALL), "is not a layout or deck definition (it is kind 'map')"),
    ("[a, b]", "extends names a layout, got ['a', 'b']"),
    ("graph-20x2", "did you mean 'graph-20x28'?"),
    ("empty.yaml", "extends 'empty.yaml': empty.yaml is not a layout or deck definition"),
    ("binary.yaml", "binary.yaml: not UTF-8 text"),
])
def test_broken_extends(tmp_path, extends, expected):
    write(tmp_path, "empty.yaml", "")
    write(tmp_path, "binary.yaml", b"\xff\xfe\x00")
    path = write(tmp_path, "self.yaml", HEAD + f"extends: {extends}\n")
    result = invoke("build", path, "-o", tmp_path / "out")
    assert result.exit_code == 2 and expected in result.output, result.output
    assert not (tmp_path / "out").exists()


def test_extends_then_deleting_or_retyping_inherited_keys(tmp_path):
    for i, body in enumerate(["elements: null\npage: null\n", "elements: {main: null}\n",
                              "elements: {main: {columns: null}, title: 5}\n", "elements: [1, 2]\n",
                              "page: {size: letter, margins: -3mm}\n", "elements: {main: {type: box}}\n"]):
        path = write(tmp_path, f"e{i}.yaml", HEAD + "extends: graph-20x28\n" + body)
        checked, _ = validate_and_build(path, tmp_path / f"out{i}")
        if checked.exit_code == 2:
            assert re.search(r"\.yaml:\d+:\d+: ", checked.output), checked.output


@pytest.mark.parametrize("sheets, build_says", [
    ("[pack.yaml]", "a pack has no pages to print"),
    ("[nope.yaml]", "no such file"),
    ("[nope-builtin]", "no built-in definition named 'nope-builtin'"),
    ("[map.yaml]", None),
    (f"[{TESTS / 'data' / 'foury_logs' / 'legal-example.yaml'}]", "use `sheetgen check` for play logs"),
    ("['']", "String should have at least 1 character"),
    ("[1, {a: 1}, null]", "sheets[1]: input should be a valid string, got a mapping"),
    ("[]", "List should have at least 1 item"),
])
def test_broken_packs(tmp_path, sheets, build_says):
    write(tmp_path, "map.yaml", HALL.read_text(encoding="utf-8"))
    path = write(tmp_path, "pack.yaml", f"sheetgen: 1\nkind: pack\nsheets: {sheets}\n")
    checked = invoke("validate", path)
    built = invoke("build", path, "-o", tmp_path / "out", "--format", "svg")
    if build_says is None:
        assert checked.exit_code == 0 and built.exit_code == 0
        return
    assert checked.exit_code in (1, 2) and built.exit_code == 2
    assert build_says in built.output, built.output
    assert "pack.yaml:3:" in built.output        # the pack line that named the broken sheet
    assert not (tmp_path / "out").exists()


# -- options and output folders ------------------------------------------------------------------------


@pytest.mark.parametrize("options, expected", [
    (["--format", ""], "no output format given"),
    (["--format", ","], "no output format given"),
    (["--format", "pdf,jpg"], "did you mean 'png'?"),
    (["--dpi", "0"], "0 is not in the range 36<=x<=1200"),
    (["--dpi", "abc"], "'abc' is not a valid integer"),
    (["--paper", "a3"], "'a3' is not one of 'a4', 'letter'"),
    (["--seed", "1.5"], "'1.5' is not a valid integer"),
    (["--columns", "2"], "2 is not in the range 3<=x<=26"),
    (["--printer", "nope"], "no stored calibration for printer 'nope'"),
    (["-o", ""], "the output folder name is empty"),
])
def test_bad_build_options(tmp_path, options, expected):
    result = invoke("build", "graph-20x28", *options, **{})
    assert result.exit_code == 2 and expected in result.output, result.output


def test_output_folder_that_is_a_file_or_under_a_file(tmp_path):
    a_file = write(tmp_path, "a-file", "x")
    result = invoke("build", "graph-20x28", "-o", a_file, "--format", "svg")
    assert result.exit_code == 2 and "is a file" in result.output
    result = invoke("build", "graph-20x28", "-o", a_file / "sub", "--format", "svg")
    assert result.exit_code == 2 and "part of the path is a file" in result.output
    assert a_file.read_text() == "x"


def test_a_png_too_large_for_memory_is_refused_before_drawing(tmp_path):
    path = write(tmp_path, "big.yaml", HEAD + "page: {size: custom, width: 2000mm, height: 2000mm}\n")
    result = invoke("build", path, "-o", tmp_path / "out", "--dpi", "1200")
    assert result.exit_code == 2 and "94488 x 94488 pixels, too large" in result.output
    assert "--dpi 155 or less" in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_folder_where_an_output_file_goes_writes_nothing(tmp_path):
    out = tmp_path / "out"
    (out / "graph-20x28-01-graph-20x28.svg").mkdir(parents=True)
    result = invoke("build", "graph-20x28", "-o", out, "--format", "pdf,svg")
    assert result.exit_code == 2 and "a folder is in the way; nothing was written" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["graph-20x28-01-graph-20x28.svg"]


@pytest.mark.parametrize("content", [
    "{", "[]", '{"printers": []}', '{"default": [1], "printers": {}}', '{"default": "x", "printers": {"x": "str"}}',
    '{"default": "x", "printers": {"x": {"measured_x": NaN, "measured_y": 100}}}',
    '{"default": "x", "printers": {"x": {"measured_x": 0, "measured_y": 100}}}',
    '{"default": "x", "printers": {"x": {"measured_x": "abc", "measured_y": 100}}}', b"\xff\xfe",
])
def test_damaged_calibration_file(tmp_path, monkeypatch, content):
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("SHEETGEN_CONFIG_DIR", str(config))
    write(config, "calibration.json", content)
    shown = invoke("calibrate", "--show")
    built = invoke("build", "graph-20x28", "-o", tmp_path / "out", "--format", "svg")
    assert built.exit_code == 2 and "calibration" in built.output
    assert shown.exit_code == 2 or "damaged" in shown.output
    # storing a fresh measurement repairs a damaged entry (a malformed file is named instead)
    stored = invoke("calibrate", "--measured-x", "99.5", "--measured-y", "100.5", "--printer", "x")
    assert stored.exit_code in (0, 2)
    if stored.exit_code == 0:
        assert invoke("build", "graph-20x28", "-o", tmp_path / "out", "--format", "svg").exit_code == 0


def test_calibration_store_that_is_a_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("SHEETGEN_CONFIG_DIR", str(tmp_path))
    (tmp_path / "calibration.json").mkdir()
    result = invoke("calibrate", "--measured-x", "99", "--measured-y", "99")
    assert result.exit_code == 2 and "cannot" in result.output
    result = invoke("calibrate", "--measured-x", "nan", "--measured-y", "100")
    assert result.exit_code == 2 and "between 90 and 110" in result.output


def test_schema_into_a_path_under_a_file(tmp_path):
    a_file = write(tmp_path, "a-file", "x")
    result = invoke("schema", "-o", a_file / "schema.json")
    assert result.exit_code == 2 and "cannot write: part of the path is a file" in result.output


def _as_a_plain_user(*args):
    """sheetgen in a process that file modes apply to: as root, without the two capabilities
    that let root read and write past them (setpriv, util-linux), so the test runs everywhere."""
    import subprocess
    command = [sys.executable, "-m", "sheetgen", *map(str, args)]
    if os.geteuid() == 0:
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
    root = str(Path(__file__).resolve().parent.parent)      # this checkout, installed or not
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))}
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    return done.returncode, done.stdout + done.stderr


def test_files_and_folders_without_permission(tmp_path):
    locked = write(tmp_path, "locked.yaml", HEAD)
    locked.chmod(0)
    code, output = _as_a_plain_user("validate", locked)
    assert code == 2 and "cannot read: Permission denied" in output, output
    assert "Traceback" not in output
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        code, output = _as_a_plain_user("build", "graph-20x28", "-o", folder / "sub", "--format", "svg")
        assert code == 2 and "Permission denied" in output, output
        assert not (folder / "sub").exists()
    finally:
        folder.chmod(0o700)


def test_check_given_things_that_are_not_play_logs(tmp_path):
    for target in (HALL, TESTS.parent / "layouts" / "graph-20x28.yaml", tmp_path, tmp_path / "nope.yaml",
                   write(tmp_path, "empty.yaml", ""), write(tmp_path, "bin.yaml", b"\x80\x81")):
        assert invoke("check", target).exit_code == 2


# -- every built-in composes on Letter in grayscale ------------------------------------------------------


def _builtins():
    from sheetgen.definitions.builtins import builtin_info
    return builtin_info()


def test_every_builtin_validates():
    names = [b.name for b in _builtins()]
    result = invoke("validate", *names)
    assert result.exit_code == 0, result.output


def test_every_printable_builtin_builds_on_letter_in_grayscale(tmp_path):
    printable = [b.name for b in _builtins() if b.kind not in ("playlog", "pack")]
    assert len(printable) >= 20
    out = tmp_path / "out"
    result = invoke("build", *printable, "-o", out, "--format", "svg", "--grayscale", "--paper", "letter")
    assert result.exit_code == 0, result.output
    svgs = sorted(out.glob("*.svg"))
    assert len(svgs) >= len(printable)
    for svg in svgs:
        root = ET.parse(svg).getroot()          # well-formed XML
        # Letter, portrait or landscape, whatever paper the definition names
        assert {root.get("width"), root.get("height")} == {"215.9mm", "279.4mm"}, svg.name


def test_the_default_pack_as_grayscale_letter_pdf(tmp_path):
    from pypdf import PdfReader
    result = invoke("build", "-o", tmp_path, "--format", "pdf", "--grayscale", "--paper", "letter")
    assert result.exit_code == 0, result.output
    [pdf] = tmp_path.glob("*.pdf")
    pages = PdfReader(pdf).pages
    assert len(pages) >= 15
    for page in pages:
        assert sorted(round(float(v)) for v in (page.mediabox.width, page.mediabox.height)) == [612, 792]


# -- random YAML structures ------------------------------------------------------------------------------

_KEYS = ["sheetgen", "kind", "ruleset", "title", "page", "elements", "size", "width", "type", "grid", "cells",
         "zones", "entries", "walls", "items", "events", "x", "y", "columns", "rows", "card", "count", "extends",
         "sheets", "margins", "text", "name", "requirement", "groups", "use", "template"]
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                     st.sampled_from(["a4", "layout", "deck", "map", "foury", "pack", "grid", "box", "text", "5x5",
                                      "10mm", "-3cells", "50%", "A1:N", "statue", "monster", "graph-20x28", ""]),
                     st.text(max_size=8))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(_KEYS), inner, max_size=5)), max_leaves=25)
_DOCS = st.fixed_dictionaries(
    {"sheetgen": st.sampled_from([1, 1, 1, 2, "1"]),
     "kind": st.sampled_from(["layout", "deck", "map", "pack", "sheet", "playlog", "table", "nope"])},
    optional={"ruleset": st.sampled_from(["foury", "exploration", "navigation", "shuffle", "x"])},
).flatmap(lambda head: st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=6).map(lambda rest: {**rest, **head}))


FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(doc=_DOCS)
def test_random_definitions_never_crash_validate(tmp_path, doc):
    path = tmp_path / "random.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    result = invoke("validate", path)
    if result.exit_code == 2:
        assert "random.yaml" in result.output or "no built-in" in result.output, result.output


def test_output_path_through_a_file_is_a_clean_error(tmp_path):
    from click.testing import CliRunner

    from sheetgen.cli import main
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    for args in (["table", "d66", "-o", str(blocker / "x.yaml")],
                 ["explore", "--seed", "1", "--format", "none", "-o", str(blocker / "sub")]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_shuffle_paths_of_the_wrong_type_are_located(tmp_path):
    from click.testing import CliRunner

    from sheetgen.cli import main
    f = tmp_path / "d.yaml"
    for bad in ("3", ".nan", "null", "true"):
        f.write_text(f"sheetgen: 1\nkind: deck\nruleset: shuffle\ntitle: x\nrooms:\n  - {{id: a, paths: {bad}}}\n")
        result = CliRunner().invoke(main, ["validate", str(f)])
        assert result.exit_code == 2, result.output
        assert f"{f}:6:" in result.output and "rooms[0].paths" in result.output


def test_check_accepts_a_builtin_example_name():
    from click.testing import CliRunner

    from sheetgen.cli import main
    result = CliRunner().invoke(main, ["check", "nav-crypt-game"])
    assert result.exit_code == 0, result.output
    assert "legal (navigation; the default readings)" in result.output


# -- the fuzz suite: mutated built-in definitions and play logs ----------------------------------------
#
# mutate(text, rng) is shared with tests/tools/fuzz_figures.py, which runs it by the ten thousand.

LAYOUTS = TESTS.parent / "layouts"
_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)      # only to pick what to mutate
NASTY = [None, 0, -1, 1.5, 10 ** 12, -10 ** 12, 1e308, float("nan"), float("inf"), True, "", " ", "x" * 300,
         "n" * 300 + ".yaml", "/dev/zero", "/dev/urandom", "../" * 8 + "etc/passwd", ".", "/", [], {}, [[[]]],
         {"a": {"b": None}}, [None, None], "C1:N", "Z99:Q", "1000x1000", "0x0", "hall", "builtin", "{title}" * 50,
         "%s %d {0}", "\u202e\u0301", "-5mm", "1000cells", "50%", "A1", "d66", "<<", "*", "&a", "?", "- x"]
TOKENS = ["{", "}", "[", "]", ": ", "- ", "&a ", "*a", "<<: *a", "\t", "%", "'", '"', "!!python/object:os.system ",
          "? ", "|", ">", "#", "\n", "\n  ", ",", "~", "null", "0x", "1e999", ": {", "---\n", "...\n", "\u00e9",
          "\U0001F600", "\u200b"]


@functools.lru_cache(maxsize=None)
def sources(kind: str) -> list[Path]:
    """The texts the fuzz suite mutates: 'definitions' (every built-in and test map/layout that
    is not a play log) or 'logs' (every play log under tests/data and layouts/)."""
    found = []
    for base in (LAYOUTS, TESTS / "data"):
        for path in sorted(base.rglob("*.yaml")):
            if "robustness" in path.parts:
                continue
            head = path.read_text(encoding="utf-8", errors="replace")[:3000]
            if "sheetgen: 1" not in head:
                continue
            if ("kind: playlog" in head) == (kind == "logs"):
                found.append(path)
    return found


def _nodes(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _nodes(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _nodes(value, prefix + (i,))


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of a YAML text: a value replaced by a nasty one, a line
    dropped, doubled, moved or re-indented, a token inserted, a span cut, the text cut short."""
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        how = rng.randrange(8)
        lines = text.split("\n")
        if how <= 2:
            try:
                data = yaml.load(text, Loader=_FAST)
            except yaml.YAMLError:
                data = None
            paths = [p for p in _nodes(data) if p and p[0] not in ("sheetgen",)] if isinstance(data, dict) else []
            if paths:
                path = rng.choice(paths)
                node = data
                for part in path[:-1]:
                    node = node[part]
                node[path[-1]] = copy.deepcopy(rng.choice(NASTY))
                text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10 ** 6)
                continue
        if how == 3 and len(lines) > 1:
            del lines[rng.randrange(len(lines))]
        elif how == 4:
            i = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif how == 5:
            i = rng.randrange(len(lines))
            lines[i] = rng.choice(("", " ", "  ", "    ")) + lines[i].lstrip() if rng.random() < 0.5 \
                else lines[i][rng.randrange(len(lines[i]) + 1):]
        elif how == 6:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(TOKENS) + text[at:]
            continue
        else:
            a = rng.randrange(len(text) + 1)
            text = text[:a] + text[a + rng.randrange(1, 40):] if rng.random() < 0.7 else text[:a]
            continue
        text = "\n".join(lines)
    return text


def fuzz_run(args: list) -> tuple[int, str, str | None]:
    """(exit code, output, the traceback if one escaped) of the CLI run in-process; exit code 3
    (a bug, by sheetgen's own account) counts as a traceback too."""
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=True)
    tb = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        tb = "".join(traceback.format_exception(*result.exc_info))
    elif result.exit_code not in (0, 1, 2) or "Traceback" in result.output:
        tb = result.output
    return result.exit_code, result.output, tb


def fuzz_definition(text: str, folder: Path, name: str = "mutant.yaml") -> list[str]:
    """validate, then (when it validates) build: the problems found (empty: all well)."""
    problems = []
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    code, out, tb = fuzz_run(["validate", path])
    if tb:
        return [f"validate: {tb}"]
    if code == 0:
        outdir = Path(tempfile.mkdtemp(dir=folder)) / "out"
        code, out, tb = fuzz_run(["build", path, "-o", outdir, "--format", "svg"])
        if tb:
            return [f"build: {tb}"]
        written = sorted(p.name for p in outdir.iterdir()) if outdir.exists() else []
        if any(n.endswith(".part") for n in written):
            problems.append(f"build left part files: {written}")
        if code != 0 and written:
            problems.append(f"a failed build wrote {written}")
    return problems


def fuzz_log(text: str, folder: Path, name: str = "mutant.yaml") -> list[str]:
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    problems = []
    for command in ("check", "validate"):
        code, out, tb = fuzz_run([command, path])
        if tb:
            problems.append(f"{command}: {tb}")
    return problems


@functools.lru_cache(maxsize=None)
def step_texts() -> list[str]:
    """Every step of every Foury play log, as `track step` takes it (a YAML flow mapping)."""
    out = []
    for path in sources("logs"):
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_FAST)
        except yaml.YAMLError:                  # the malformed logs of the tests
            continue
        if not isinstance(data, dict) or data.get("ruleset") != "foury":
            continue
        for rnd in data.get("rounds") or []:
            for step in (rnd.get("steps") or []) if isinstance(rnd, dict) else []:
                out.append(yaml.safe_dump(step, default_flow_style=True, width=10 ** 6).strip())
    return sorted(set(out))


def _nth(items: list, n: int):
    return items[n % len(items)]


@settings(FUZZ, max_examples=120)
@given(which=st.integers(0, 10 ** 6), seed=st.integers(0, 2 ** 32))
def test_mutated_definitions_never_crash_validate_or_build(tmp_path, which, seed):
    source = _nth(sources("definitions"), which)
    for extra in source.parent.glob("*.png"):          # images the layouts name
        (tmp_path / extra.name).write_bytes(extra.read_bytes())
    text = mutate(source.read_text(encoding="utf-8"), random.Random(seed))
    assert fuzz_definition(text, tmp_path) == [], (source, text)


@settings(FUZZ, max_examples=120)
@given(which=st.integers(0, 10 ** 6), seed=st.integers(0, 2 ** 32))
def test_mutated_play_logs_never_crash_check(tmp_path, which, seed):
    source = _nth(sources("logs"), which)
    text = mutate(source.read_text(encoding="utf-8"), random.Random(seed))
    assert fuzz_log(text, beside(source, tmp_path)) == [], (source, text)


def beside(source: Path, tmp_path: Path) -> Path:
    """A folder in tmp_path where a mutant of source finds what source refers to: copies of
    the files of its folder, and of the folder above (`../t-deck.yaml`)."""
    here = tmp_path / "here"
    here.mkdir(exist_ok=True)
    for folder, into in ((source.parent, here), (source.parent.parent, tmp_path)):
        for sibling in folder.glob("*.yaml"):
            if sibling != source:
                (into / sibling.name).write_bytes(sibling.read_bytes())
    return here


@pytest.fixture(scope="module")
def fuzz_journal(tmp_path_factory):
    """A journal with a Foury game on the test hall, played to a point with choices ahead."""
    path = tmp_path_factory.mktemp("fuzz-journal") / "journal.sqlite"
    for args in (["new", "--map", HALL, "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"],
                 ["enter", "C1:N"]):
        code, out, tb = fuzz_run(["track", *args, "--journal", path])
        assert code == 0 and tb is None, out
    return path


@settings(FUZZ, max_examples=120)
@given(which=st.integers(0, 10 ** 6), seed=st.integers(0, 2 ** 32))
def test_mutated_steps_never_crash_track_step(fuzz_journal, which, seed):
    step = mutate(_nth(step_texts(), which), random.Random(seed))
    code, out, tb = fuzz_run(["track", "step", step, "--journal", fuzz_journal])
    assert tb is None, (step, tb)
    if code == 0:               # take it back: every mutant is tried from the same position
        assert fuzz_run(["track", "undo", "--journal", fuzz_journal])[0] == 0
    code, out, tb = fuzz_run(["track", "status", "--journal", fuzz_journal])
    assert tb is None and code == 0 and out.startswith("game 1, 1 step(s)"), out   # whole after every step


# -- inputs that once crashed sheetgen ------------------------------------------------------------------

CORPUS = sorted((DATA).glob("*.yaml")) if DATA.exists() else []


def _expectation(path: Path) -> tuple[str, int]:
    """The '# command: NAME, exit: N' line at the top of a corpus file."""
    m = re.search(r"^# command: ([\w-]+), exit: (\d)", path.read_text(encoding="utf-8", errors="replace"), re.M)
    assert m, f"{path.name} needs a '# command: validate|check|build|track-step, exit: N' line"
    return m.group(1), int(m.group(2))


def test_the_crash_corpus_is_there():
    assert len(CORPUS) >= 10


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_inputs_that_once_crashed_get_a_clean_answer(tmp_path, path, fuzz_journal):
    command, expected = _expectation(path)
    for sibling in DATA.glob("*"):
        if sibling.is_file():
            (tmp_path / sibling.name).write_bytes(sibling.read_bytes())
    target = tmp_path / path.name
    if command == "track-step":
        step = "".join(line for line in target.read_text(encoding="utf-8").splitlines(True)
                       if not line.startswith("#")).strip()
        code, out, tb = fuzz_run(["track", "step", step, "--journal", fuzz_journal])
    elif command == "build":
        code, out, tb = fuzz_run(["build", target, "-o", tmp_path / "out", "--format", "svg"])
    else:
        code, out, tb = fuzz_run([command, target])
    assert tb is None, tb
    assert code == expected, out
    if command == "build" and code != 0:
        assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
