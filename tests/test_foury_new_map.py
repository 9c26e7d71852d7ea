"""`sheetgen new map NAME`: a complete, commented map, valid and playable as written."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.foury import board as fb
from sheetgen.games.foury.formats.map import MapModel, ZoneModel, lint, load_map
from sheetgen.games.foury.vocabulary import campaigns, die_effects

BUILTIN_MAPS = ["ancient-story", "slaughter", "santa", "strength", "kraken", "foury-blank"]


def _run(*args, cwd: Path):
    import os
    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, [*map(str, args)])
    finally:
        os.chdir(here)
    return result.exit_code, result.output


def _findings(path) -> list[tuple[str, str]]:
    return [(f.severity, f.problem.message) for f in lint(load_map(path))]


def test_a_fresh_map_validates_builds_and_plays(tmp_path):
    code, out = _run("new", "map", "my-map", cwd=tmp_path)
    assert code == 0, out
    path = tmp_path / "my-map.yaml"
    assert "wrote my-map.yaml (a fresh 9x9 map)" in out
    assert [p.name for p in tmp_path.iterdir()] == ["my-map.yaml"]       # written atomically: nothing else left
    code, out = _run("validate", path, cwd=tmp_path)
    assert code == 0 and out.endswith("my-map.yaml: ok, map foury\n"), out
    assert "warning" not in out and "error" not in out, out
    fmap = load_map(path)
    assert fmap.title == "My Map" and (fmap.board.columns, fmap.board.rows) == (9, 9)
    code, out = _run("build", path, "-o", tmp_path / "out", "--format", "pdf", cwd=tmp_path)
    assert code == 0, out
    assert list((tmp_path / "out").glob("*.pdf"))
    from sheetgen.games.foury.sim.api import run_one
    rep, _ = run_one(str(path), 150, seed=2)
    assert rep["lint"] == [] and rep["oracle_reached"] > 100 and rep["wins"] > 0
    assert all(r["met"] > 0 for r in rep["requirements"].values())   # every zone's requirement can be met


def test_every_key_once_with_its_values_in_comments(tmp_path):
    _run("new", "map", "keys", cwd=tmp_path)
    text = (tmp_path / "keys.yaml").read_text()
    for key in MapModel.model_fields:
        lines = [line for line in text.splitlines() if re.match(rf"^(# )?{key}:", line)]
        assert len(lines) == 1, (key, lines)
    for key in ZoneModel.model_fields:
        assert re.search(rf"^    {key}:", text, re.M), key
    comments = " ".join(line.split("#", 1)[1] for line in text.splitlines() if "#" in line)
    comments = " ".join(comments.split())
    for word in [*fb.ITEMS, *fb.REQUIREMENT_KINDS, *(name for name, _ in campaigns()), *fb.RELATIVE,
                 "collapse origin", "flood origin", "extra step", "find ITEM", "monster [ENEMY]",
                 *(name for name, _ in die_effects())]:
        assert word in comments, word
    # the campaign keys this campaign does not use are comments, and uncommented they load
    for key in ("start", "turns", "flooded", "max_enemies", "safe_zone"):
        assert re.search(rf"^# {key}: ", text, re.M), key


def test_an_existing_file_is_kept_unless_forced(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("my work\n")
    code, out = _run("new", "map", "mine.yaml", cwd=tmp_path)
    assert code == 2 and "error: NAME: mine.yaml exists already: give --force to overwrite it" in out
    assert path.read_text() == "my work\n"
    code, out = _run("new", "map", "mine.yaml", "--force", cwd=tmp_path)
    assert code == 0 and load_map(path).title == "Mine"


@pytest.mark.parametrize("size", ["5x5", "7x11", "11x9", "26x20"])
def test_fresh_maps_of_any_size_validate_clean(tmp_path, size):
    code, out = _run("new", "map", "sized", "--size", size, cwd=tmp_path)
    assert code == 0, out
    b = load_map(tmp_path / "sized.yaml").board
    assert f"{b.columns}x{b.rows}" == size
    assert _findings(tmp_path / "sized.yaml") == []


@pytest.mark.parametrize("size", ["4x4", "27x9", "9", "nine by nine"])
def test_a_size_out_of_range_is_refused(tmp_path, size):
    code, out = _run("new", "map", "x", "--size", size, cwd=tmp_path)
    assert code == 2 and f"--size '{size}' is not a grid from 5x5 to 26x26" in out
    assert not (tmp_path / "x.yaml").exists()


@pytest.mark.parametrize("source", BUILTIN_MAPS)
def test_from_a_map_gives_the_same_board_in_the_commented_form(tmp_path, source):
    code, out = _run("new", "map", "copy", "--from", source, cwd=tmp_path)
    assert code == 0, out
    mine, theirs = load_map(tmp_path / "copy.yaml"), load_map(source)
    a, b = mine.board, theirs.board
    for attr in ("columns", "rows", "cells", "zones", "entries", "walls", "items", "campaign", "start", "flooded",
                 "turns", "max_enemies", "safe_zone", "hero_extras", "die_table"):
        assert getattr(a, attr) == getattr(b, attr), attr
    assert mine.title == "Copy" and mine.model.description == theirs.model.description
    assert _findings(tmp_path / "copy.yaml") == _findings(source)
    text = (tmp_path / "copy.yaml").read_text()
    used = [key for key in ("start", "turns", "flooded", "max_enemies", "safe_zone")
            if getattr(theirs.model, key) not in (None, [])]
    assert all(re.search(rf"^{key}: ", text, re.M) for key in used)


def test_from_a_blank_map_takes_a_size_a_designed_one_does_not(tmp_path):
    code, out = _run("new", "map", "big", "--from", "foury-blank", "--size", "11x11", cwd=tmp_path)
    assert code == 0, out
    assert (load_map(tmp_path / "big.yaml").board.columns, _findings(tmp_path / "big.yaml")) == (11, [])
    code, out = _run("new", "map", "no", "--from", "ancient-story", "--size", "9x9", cwd=tmp_path)
    assert code == 2 and "only blank maps can change size" in out
    code, out = _run("new", "map", "no", "--from", "ancient-stroy", cwd=tmp_path)
    assert code == 2 and "ancient-story" in out


def test_a_title_that_needs_quotes_reads_back(tmp_path):
    code, out = _run("new", "map", "dragon's_lair: #2", cwd=tmp_path)
    assert code == 0, out
    assert load_map(tmp_path / "dragon's_lair: #2.yaml").title == "Dragon's Lair: #2"
