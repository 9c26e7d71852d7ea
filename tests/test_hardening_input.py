"""Every input bounded before it is parsed or drawn (sheetgen.limits, issue 16).

Files must be regular files under MAX_FILE_BYTES (devices, FIFOs and sockets are
refused by name, never read); YAML typed on the command line has its own limit;
values written, values and text once aliases are expanded, and nesting depth are
bounded; hex grids and text are bounded where layouts are validated.  Names no
file can have (255 bytes a name) are clean errors everywhere, and a reference
inside a file that names nothing gets the line that wrote it.  YAML merge keys
work, and the duplicate-key rule still catches real duplicates.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen import limits
from sheetgen.cli import main
from sheetgen.errors import InputError
from sheetgen.definitions.yamlsource import parse_yaml

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
HALL = TESTS / "data" / "foury_maps" / "test-hall.yaml"
HEAD = "sheetgen: 1\nkind: layout\ntitle: t\n"
LONG = "n" * 300 + ".yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"


def run(*args, code=None):
    """The CLI in-process: no traceback, an exit code in {0, 1, 2} (or exactly code)."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert result.exit_code in ((0, 1, 2) if code is None else (code,)), (args, result.exit_code, result.output)
    return result


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# -- files that are too large, or not files --------------------------------------------------------


def test_a_file_over_the_byte_limit_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "w", encoding="utf-8") as f:
        f.write(HEAD + "description: '")
        f.write("x" * (limits.MAX_FILE_BYTES + 10))
        f.write("'\n")
    for command in ("validate", "check", "build"):
        result = run(command, big, code=2)
        assert f"big.yaml: too large: {big.stat().st_size:,} bytes; a definition file holds at most 256 KiB" \
            in result.output
    # just under the limit is read (and is a valid layout; a comment, as one text holds at most 20,000)
    big.write_text(HEAD + "# " + "x" * (limits.MAX_FILE_BYTES - 200) + "\n", encoding="utf-8")
    assert run("validate", big).exit_code == 0


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_by_name(device):
    if not os.path.exists(device):
        pytest.fail(f"{device} is missing on this system")
    for command in ("validate", "check"):
        result = run(command, device, code=2)
        assert f"{device}: is a character device, not a file (devices are never read)" in result.output


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    # a subprocess with a timeout: opening a FIFO for reading would block until a writer comes
    proc = subprocess.run([sys.executable, "-m", "sheetgen", "validate", str(fifo)], capture_output=True,
                          text=True, timeout=30, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 2
    assert "pipe.yaml: is a FIFO (a named pipe), not a file (pipes are never read)" in proc.stderr


def test_a_reference_to_a_device_inside_a_file_is_refused(tmp_path):
    log = write(tmp_path, "log.yaml", "sheetgen: 1\nkind: playlog\nruleset: foury\nmap: /dev/zero\n"
                                      "hero: {name: kael}\nrounds: []\n")
    result = run("check", log, code=2)
    assert "/dev/zero: is a character device, not a file" in result.output
    layout = write(tmp_path, "l.yaml", HEAD + "extends: /dev/urandom\n")
    assert run("validate", layout, code=2).exit_code == 2


def test_a_file_larger_than_it_says_stops_at_the_limit():
    """A file whose size says 0 (as /proc files do, or one still growing) is read only up to the limit."""
    from sheetgen.definitions import yamlsource
    from sheetgen.errors import InputError
    assert os.stat("/proc/self/status").st_size == 0
    with pytest.raises(InputError, match="too large: more than 21 bytes"):
        yamlsource.read_bounded("/proc/self/status", limit=20)


# -- values and nesting ------------------------------------------------------------------------------


def test_too_many_values_written_are_refused_before_they_are_built(tmp_path):
    path = write(tmp_path, "many.yaml", HEAD + "description: [" + ", ".join(["1"] * (limits.MAX_NODES + 5)) + "]\n")
    result = run("validate", path, code=2)
    assert re.search(r"many\.yaml:4:\d+: too large: more than 30,000 values written in the file", result.output)


def test_aliases_expanding_to_too_much_text_are_refused(tmp_path):
    chunk = "x" * 10_000
    lines = [HEAD.rstrip("\n"), f"a0: &a0 '{chunk}'"]
    for i in range(1, 4):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 20)}]")
    result = run("validate", write(tmp_path, "text-bomb.yaml", "\n".join(lines) + "\n"), code=2)
    assert "too large: more than 4,000,000 characters of text once anchors and aliases are expanded" \
        in result.output


def test_deep_nesting_is_refused_before_any_recursion(tmp_path):
    # far deeper than any stack: libyaml's composer would crash the process on it
    text = HEAD + "elements: " + "[" * 100_000 + "]" * 100_000 + "\n"
    proc = subprocess.run([sys.executable, "-m", "sheetgen", "validate", str(write(tmp_path, "deep.yaml", text))],
                          capture_output=True, text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 2, proc.stderr
    assert "deep.yaml:4:" in proc.stderr and "nested too deeply (more than 100 levels" in proc.stderr


@pytest.mark.parametrize("parser", ["libyaml", "pure"])
@pytest.mark.parametrize("text, where", [
    ("a:\n  " + "- " * 1200 + "1\n", "f.yaml:2:201:"),                  # block, past libyaml's own 1000
    ("a: " + "[" * 1200 + "]" * 1200 + "\n", "f.yaml:1:103:"),           # flow, past libyaml's own 1000
    ("a: " + "{b: " * 1100 + "1" + "}" * 1100 + "\n", "f.yaml:1:400:"),
])
def test_nesting_past_the_parsers_own_limit_is_our_error_at_level_101(monkeypatch, parser, text, where):
    # libyaml 0.2.6 on (PyYAML 6.0.2's wheels on) stops at 1000 levels in its own words, often
    # before the events reach level 101: either parser gives sheetgen's error, at level 101
    from sheetgen.definitions import yamlsource
    if parser == "pure":
        monkeypatch.setattr(yamlsource, "_CLoader", None)
    with pytest.raises(InputError) as caught:
        parse_yaml(text, "f.yaml")
    assert str(caught.value).startswith(where + " nested too deeply (more than 100 levels"), str(caught.value)


def test_track_step_yaml_is_bounded_like_a_file(tmp_path):
    journal = tmp_path / "j.sqlite"
    run("track", "new", "--map", HALL, "--traits", TRAITS, "--journal", journal, code=0)
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    bomb = "{" + ", ".join(levels) + "}"            # 9 ** 9 values once expanded, in 400 bytes
    result = run("track", "step", bomb, "--journal", journal, code=2)
    assert "not a step: too large: more than 200,000 values once anchors and aliases are expanded" in result.output
    result = run("track", "step", "{move: " + "C" * (limits.MAX_ARGUMENT_BYTES + 1) + "}", "--journal", journal,
                 code=2)
    assert "not a step: too large" in result.output and "at most 16 KiB" in result.output
    result = run("track", "step", "{move: C1, move: C2}", "--journal", journal, code=2)
    assert "duplicate key 'move'" in result.output
    result = run("track", "step", "{move: [C1", "--journal", journal, code=2)
    assert "step argument:1:" in result.output and "not a step: malformed YAML" in result.output
    run("track", "enter", "C1:N", "--journal", journal, code=0)
    assert run("track", "step", "{move: C1, roll: 2}", "--journal", journal, code=0).output.startswith(
        "recorded step 2: {move: C1, roll: 2}")


# -- drawing limits ----------------------------------------------------------------------------------


def test_a_hex_grid_past_the_limit_is_refused_at_its_line(tmp_path):
    path = write(tmp_path, "hex.yaml", HEAD + "elements:\n  g: {type: grid, shape: hex, columns: 1000, rows: 1000,"
                                             " cell: 1mm}\n")
    result = run("build", path, "-o", tmp_path / "out", code=2)
    assert "hex.yaml:5:6: elements.g: 1000 x 1000 = 1,000,000 hexes; a hex grid holds at most 3,000" \
        in result.output
    assert not (tmp_path / "out").exists()
    # a square grid of the same size is drawn as lines: allowed
    square = write(tmp_path, "sq.yaml", HEAD + "elements:\n  g: {type: grid, columns: 1000, rows: 1000, cell: 0.2mm}\n")
    assert run("validate", square).exit_code == 0
    at_limit = write(tmp_path, "hex50.yaml", HEAD + "elements:\n  g: {type: grid, shape: hex, columns: 50, rows: 60,"
                                                  " cell: 2mm}\n")
    assert run("validate", at_limit).exit_code == 0


def test_text_past_the_limit_is_refused_at_its_line(tmp_path):
    path = write(tmp_path, "t.yaml", HEAD + "elements:\n  t: {type: text, text: '" + "x" * 20_001 + "'}\n")
    result = run("validate", path, code=2)
    assert "t.yaml:5:25: elements.t.text: 20,001 characters; a text holds at most 20,000" in result.output
    table = write(tmp_path, "tb.yaml", HEAD + "elements:\n  t: {type: table, rows: [['" + "y" * 10_001 + "', '"
                  + "y" * 10_001 + "']]}\n")
    assert "characters in the table; a table holds at most 20,000" in run("validate", table, code=2).output


def test_the_whole_document_is_bounded_counting_every_card_and_use(tmp_path):
    deck = write(tmp_path, "deck.yaml", "sheetgen: 1\nkind: deck\ntitle: t\ncard: {width: 63mm, height: 88mm}\n"
                                        "count: 1000\ntemplate:\n  g: {type: grid, shape: hex, columns: 10,"
                                        " rows: 10, cell: 5mm}\n")
    result = run("validate", deck, code=2)
    assert "100,000 hexes in the whole deck (every card); a layout or deck draws at most 20,000" in result.output
    uses = "".join(f"  u{i}: {{use: words}}\n" for i in range(30))
    layout = write(tmp_path, "uses.yaml", HEAD + "groups:\n  words: {elements: {t: {type: text, text: '"
                   + "w" * 10_000 + "'}}}\nelements:\n" + uses)
    result = run("validate", layout, code=2)
    assert "about 300,000 characters of text in the whole layout; a layout or deck draws at most 200,000" \
        in result.output
    placeholders = write(tmp_path, "ph.yaml", "sheetgen: 1\nkind: layout\ntitle: '" + "T" * 19_000
                         + "'\nelements:\n  t: {type: text, text: '" + "{title}" * 100 + "'}\n")
    assert "characters of text in the whole layout" in run("validate", placeholders, code=2).output


# -- names no file can have ---------------------------------------------------------------------------


def test_long_names_on_the_command_line_are_clean_errors(tmp_path):
    long_path = tmp_path / LONG
    expected = "file name too long: one name in a path is at most 255 bytes, this one is 305"
    for args in (["validate", long_path], ["check", long_path], ["build", long_path, "-o", tmp_path / "o"],
                 ["track", "new", "--map", long_path, "--traits", TRAITS, "--journal", tmp_path / "j.sqlite"],
                 ["simulate", long_path, "--games", "1"], ["explore", "--table", long_path, "--format", "none",
                                                            "-o", tmp_path / "e"],
                 ["validate", LONG]):
        result = run(*args, code=2)
        assert expected in result.output, (args, result.output)
    assert "file name too long: one name in a path is at most 255 bytes, this one is 300" in \
        run("check", "n" * 300, code=2).output          # a built-in name that long names nothing either
    result = run("build", "graph-20x28", "--format", "svg", "-o", tmp_path / ("o" * 300), code=2)
    assert "-o: file name too long" in result.output
    result = run("track", "status", "--journal", tmp_path / ("j" * 300), code=2)
    assert "--journal: file name too long" in result.output
    result = run("validate", tmp_path / ("d" * 200) / ("e" * 260), code=2)
    assert "this one is 260" in result.output


REFERENCES = [
    # (file, text with {ref}, the key path the error names)
    ("foury-log.yaml", "sheetgen: 1\nkind: playlog\nruleset: foury\nmap: {ref}\nhero: {{name: kael}}\nrounds: []\n",
     "4:6: map"),
    ("nav-log.yaml", "sheetgen: 1\nkind: playlog\nruleset: navigation\ndungeon: {ref}\nplayers: [{{name: Ada}}]\n"
                     "turns: []\n", "4:10: dungeon"),
    ("nav-dungeon.yaml", "sheetgen: 1\nkind: dungeon\nruleset: navigation\ndeck: {ref}\nstart: entrance\n"
                         "grid:\n  - entrance\n", "4:7: deck"),
    ("shuffle-log.yaml", "sheetgen: 1\nkind: playlog\nruleset: shuffle\ndeck: {ref}\nsetup:\n"
                         "  start: {{room: hall, at: [0, 0]}}\n  heroes: [{{name: Ada, hero: knight, at: [0, 0]}}]\n",
     "4:7: deck"),
    ("expl-log.yaml", "sheetgen: 1\nkind: playlog\nruleset: exploration\nsheet: 20x28\ntable: {ref}\nrooms: []\n",
     "5:8: table"),
    ("expl-sheet.yaml", "sheetgen: 1\nkind: sheet\nruleset: exploration\nsheet: tables\ntitle: t\nrooms: {ref}\n",
     "6:8: rooms"),
    ("layout-extends.yaml", HEAD + "extends: {ref}\n", "4:10: extends"),
    ("layout-image.yaml", HEAD + "elements:\n  i: {{type: image, path: {ref}}}\n", "5:26: elements.i.path"),
    ("pack.yaml", "sheetgen: 1\nkind: pack\nsheets: [{ref}]\n", "3:10: sheets[0]"),
]


@pytest.mark.parametrize("name, text, where", REFERENCES, ids=[r[0] for r in REFERENCES])
def test_a_long_name_in_a_reference_field_is_located(tmp_path, name, text, where):
    path = write(tmp_path, name, text.format(ref=LONG))
    result = run("validate", path)                      # (a pack's broken member is a finding: exit 1)
    assert result.exit_code in (1, 2)
    first = result.output.splitlines()[0]
    assert f"{name}:{where}" in first and "file name too long" in first, result.output


@pytest.mark.parametrize("name, text, where", [r for r in REFERENCES if r[0] not in ("layout-image.yaml",)],
                         ids=[r[0] for r in REFERENCES if r[0] not in ("layout-image.yaml",)])
def test_a_reference_that_names_nothing_is_located(tmp_path, name, text, where):
    """`rooms: hall` in an exploration sheet (the issue's case) and every other reference field."""
    path = write(tmp_path, name, text.format(ref="hall"))
    result = run("validate", path)
    assert result.exit_code in (1, 2)
    assert f"{name}:{where}" in result.output, result.output
    assert "hall" in result.output


# -- merge keys ---------------------------------------------------------------------------------------


def test_merge_keys_with_overrides_work(tmp_path):
    path = write(tmp_path, "merge.yaml", HEAD + "elements:\n"
                 "  a: &box {type: box, width: 20mm, height: 10mm, stroke: red}\n"
                 "  b: {<<: *box, x: 30mm, stroke: blue}\n"
                 "  c: {<<: [*box, {y: 20mm}], height: 5mm}\n")
    assert run("build", path, "-o", tmp_path / "out", "--format", "svg").exit_code == 0
    data = parse_yaml(path.read_text(encoding="utf-8"), "merge.yaml")
    b, c = data["elements"]["b"], data["elements"]["c"]
    assert (b["type"], b["x"], b["stroke"], b["width"]) == ("box", "30mm", "blue", "20mm")
    assert (c["y"], c["height"], c["stroke"]) == ("20mm", "5mm", "red")
    assert data["elements"].value_marks["b"] == (6, 6)
    assert b.key_marks["x"] == (6, 17)                  # an override is located where it is written
    assert b.key_marks["width"] == (5, 23)              # a merged key where the base wrote it


@pytest.mark.parametrize("body, expected", [
    ("  a: &b {type: box}\n  c: {<<: *b, type: box, type: text}\n", r"6:26: duplicate key 'type' \(first given at line 6\)"),
    ("  a: &b {type: box}\n  c: {<<: [*b, *b]}\n", r"6:7: duplicate key 'type' \(two merged mappings give it; first at line 5"),
    ("  a: &b {type: box}\n  c: {<<: *b, <<: *b}\n", r"6:15: duplicate key '<<' \(first given at line 6\)"),
    ("  c: {<<: 5}\n", r"5:11: a merge key '<<' takes a mapping"),
])
def test_merge_keys_keep_the_duplicate_rule(tmp_path, body, expected):
    result = run("validate", write(tmp_path, "m.yaml", HEAD + "elements:\n" + body), code=2)
    assert re.search(expected, result.output), result.output


def test_the_docs_state_the_limits_the_code_enforces():
    section = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    for value, shown in [(limits.MAX_FILE_BYTES, limits.kib(limits.MAX_FILE_BYTES)),
                         (limits.MAX_ARGUMENT_BYTES, limits.kib(limits.MAX_ARGUMENT_BYTES)),
                         (limits.MAX_NODES, f"{limits.MAX_NODES:,}"), (limits.MAX_VALUES, f"{limits.MAX_VALUES:,} values"),
                         (limits.MAX_TEXT_EXPANDED, f"{limits.MAX_TEXT_EXPANDED:,} characters"),
                         (limits.MAX_DEPTH, f"{limits.MAX_DEPTH} levels"),
                         (limits.MAX_HEX_CELLS, f"{limits.MAX_HEX_CELLS:,} (50 x 60); {limits.MAX_HEX_CELLS_DOCUMENT:,}"),
                         (limits.MAX_TEXT_CHARS, f"{limits.MAX_TEXT_CHARS:,} (a full A4 page"),
                         (limits.MAX_TEXT_CHARS_DOCUMENT, f"; {limits.MAX_TEXT_CHARS_DOCUMENT:,} |"),
                         (limits.MAX_NAME_BYTES, f"{limits.MAX_NAME_BYTES} bytes; {limits.MAX_PATH_BYTES:,} bytes")]:
        assert shown in section, (value, shown)
    assert limits.MAX_HEX_CELLS == 50 * 60


def test_libyaml_and_pyyaml_read_every_shipped_file_alike():
    """The fast path (libyaml's parser) gives the data and the marks PyYAML gives, for every
    definition and play log shipped or tested, and errors in PyYAML's words."""
    import yaml

    from sheetgen.definitions import yamlsource
    if yamlsource._CLoader is None:
        pytest.fail("PyYAML here has no libyaml: the fast path cannot be compared")

    def marked(node):
        if isinstance(node, yamlsource.MarkedDict):
            return (node.mark, node.key_marks, node.value_marks, {k: marked(v) for k, v in node.items()})
        if isinstance(node, yamlsource.MarkedList):
            return (node.mark, node.item_marks, [marked(v) for v in node])
        return repr(node)
    files = sorted((ROOT / "layouts").rglob("*.yaml")) + [
        p for p in sorted((TESTS / "data").rglob("*.yaml"))[::3] if "robustness" not in p.parts]
    assert len(files) > 200
    for path in files:
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        try:
            fast = marked(yaml.load(text, Loader=yamlsource._CLoader))
        except yaml.YAMLError:
            continue                            # the malformed ones: worded by PyYAML (below)
        assert fast == marked(yaml.load(text, Loader=yamlsource._Loader)), path
    for text, words in [("a: {b: 1, c\n", "expected ',' or '}', but got '<stream end>'"),
                        ("a: b: c\n", "mapping values are not allowed here"),
                        ("- a\nb: 1\n", "expected <block end>, but found '?'"),
                        ("a: *nope\n", "found undefined alias 'nope'"),
                        ("a: `x\n", "found character '`' that cannot start any token")]:
        with pytest.raises(Exception, match=re.escape(words)):
            parse_yaml(text)


# -- every text field is bounded (issue 29, item 7) -------------------------------------------------


@pytest.mark.parametrize("field, text", [
    ("title", "sheetgen: 1\nkind: layout\ntitle: '{long}'\nelements:\n  t: {{type: text, text: hello}}\n"),
    ("name", "sheetgen: 1\nkind: layout\ntitle: t\nname: '{long}'\nelements:\n  t: {{type: text, text: hi}}\n"),
    ("elements.t.label", HEAD + "elements:\n  t: {{type: checkbox_track, boxes: 3, x: 0, y: 0, label: '{long}'}}\n"),
])
def test_every_text_field_is_bounded_by_the_text_limit(tmp_path, field, text):
    path = write(tmp_path, "long.yaml", text.format(long="T" * 100_000))
    result = run("validate", path, code=2)
    assert f": {field}: 100,000 characters; a text holds at most 20,000" in result.output
    assert len(result.output) < 2_000                  # the message does not quote the text
    assert run("build", path, "-o", tmp_path / "out", code=2).exit_code == 2
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_a_text_at_the_limit_still_validates(tmp_path):
    path = write(tmp_path, "t.yaml", "sheetgen: 1\nkind: layout\ntitle: '" + "T" * 20_000
                 + "'\nelements:\n  t: {type: text, text: hello}\n")
    assert run("validate", path).exit_code == 0


def test_a_long_text_in_a_play_log_is_refused_at_its_line(tmp_path):
    path = write(tmp_path, "log.yaml", "sheetgen: 1\nkind: playlog\nruleset: foury\nnote: '" + "n" * 20_001 + "'\n")
    result = run("check", path, code=2)
    assert "log.yaml:4:7: note: 20,001 characters; a text holds at most 20,000" in result.output


def test_warnings_quote_a_text_cut_short(tmp_path):
    """A text within the limit that does not fit its place is named by its beginning and end."""
    long = "W" * 5_000
    path = write(tmp_path, "w.yaml", HEAD + "elements:\n  box: {type: box, x: 10mm, y: 10mm, width: 20mm, height: 20mm}\n"
                 f"  t: {{type: text, x: 5mm, y: 15mm, text: '{long}'}}\n")
    result = run("validate", path)
    assert "does not fit its place" in result.output, result.output
    assert long not in result.output and len(result.output) < 2_000
