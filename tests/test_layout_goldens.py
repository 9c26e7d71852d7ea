"""The drawing calls of sheets as text (Squib's idea), compared with golden files: a
change to any of these sheets shows as a readable diff of what is drawn.

A missing golden is a failure, never written by the test. When a drawing changes on
purpose, regenerate them explicitly and review the diff:

    python tests/tools/regen_goldens.py && git diff tests/data/layout
"""
import difflib

import pytest

from sheet_helpers import DUMP_GOLDENS, GOLDEN_DIR, REGENERATE, dump_text


@pytest.mark.parametrize("golden", sorted(DUMP_GOLDENS))
def test_drawing_calls_match_the_golden(golden):
    path = GOLDEN_DIR / golden
    if not path.exists():
        pytest.fail(f"the golden {path} is missing: write it with `{REGENERATE}` and review it")
    expected = path.read_text(encoding="utf-8")
    got = dump_text(golden)
    if got != expected:
        diff = list(difflib.unified_diff(expected.splitlines(), got.splitlines(), str(path), "drawn now",
                                         lineterm="", n=1))
        shown = "\n".join(line[:300] for line in diff[:60])
        pytest.fail(f"{golden}: the drawing changed ({len(diff)} diff lines; if on purpose, `{REGENERATE}`):\n"
                    + shown)


def test_every_game_has_a_golden():
    from sheetgen.definitions.registry import games, load
    from sheet_helpers import composed
    covered = set()
    for golden in DUMP_GOLDENS:
        name = golden.split("/")[-1].removesuffix(".dump.txt").removesuffix("-page-1")
        if name != "small":
            covered.add(name)
    rulesets = {load(name).ruleset for name in covered}
    assert rulesets >= set(games()) | {None}
    assert all(composed(name).pages for name in covered)


def test_a_changed_drawing_fails_with_a_readable_diff(tmp_path, monkeypatch):
    golden = "goldens/graph-20x28.dump.txt"
    changed = (GOLDEN_DIR / golden).read_text(encoding="utf-8").replace("Dungeon exploration", "Dungeon explortion", 1)
    (tmp_path / "goldens").mkdir()
    (tmp_path / golden).write_text(changed, encoding="utf-8")
    monkeypatch.setitem(globals(), "GOLDEN_DIR", tmp_path)      # where the test above looks
    with pytest.raises(pytest.fail.Exception) as info:
        test_drawing_calls_match_the_golden(golden)
    assert "-Text(x=" in str(info.value) and "+Text(x=" in str(info.value)
    assert "Dungeon explortion" in str(info.value)
    (tmp_path / golden).unlink()
    with pytest.raises(pytest.fail.Exception, match="is missing: write it with"):
        test_drawing_calls_match_the_golden(golden)
    assert not (tmp_path / golden).exists()          # the test never writes a golden
