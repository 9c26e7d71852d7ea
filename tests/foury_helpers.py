"""What the Foury rules and play-log tests share: the Test Hall, a free hero, applying actions, the
rules an action breaks, and the audit logs whose `# VIOLATION` marks `sheetgen check` must report."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.foury.formats.map import load_map
from sheetgen.games.foury import rules as E
from sheetgen.games.foury.actions import Enter, Move, Sheet
from sheetgen.games.base import Illegal
from sheetgen.games.foury.board import parse_cell as P, parse_cell_side
from sheetgen.games.foury.heroes import free_hero

FOURY_LOGS = Path(__file__).parent / "data" / "foury_logs"
HALL_PATH = FOURY_LOGS / "test-hall.yaml"
HALL = load_map(HALL_PATH).board
TRAITS = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}


# -- the rules engine ------------------------------------------------------------------
def game(hero=None, board=HALL, readings=()):
    return E.new_game(board, hero or free_hero(TRAITS), readings)


def enter(text):
    return Enter(entry=parse_cell_side(text))


def mv(cell, roll=None):
    return Move(P(cell), roll)


def sheet(**values):
    return Sheet(tuple(values.items()))


def play(state, *actions):
    for a in actions:
        state = E.apply(state, a)
    return state


def refused(state, action):
    """The rules the engine names when it refuses action (the test fails if it accepts it)."""
    with pytest.raises(Illegal) as exc:
        E.apply(state, action)
    return {v.rule for v in exc.value.violations}


# -- hand-made audit logs --------------------------------------------------------------
def marked_lines(path: Path) -> set[int]:
    return {i for i, line in enumerate(path.read_text().splitlines(), 1) if "# VIOLATION" in line}


def check_json(path: Path):
    """`sheetgen check PATH --format json`: (exit code, the report, or the output when it is not JSON)."""
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    return result.exit_code, json.loads(result.output) if result.output.strip().startswith("{") else result.output


def assert_marked_set(logs: list[Path]) -> None:
    """Every log is named legal-/illegal-, and exactly the illegal ones mark their violations."""
    for p in logs:
        assert p.name.startswith(("legal-", "illegal-")), p.name
        assert bool(marked_lines(p)) == p.name.startswith("illegal-"), p.name


def assert_checks_as_marked(path: Path, first_is_first_mark: bool = False) -> None:
    """A legal- log checks clean; an illegal- one reports exactly its marked lines (with
    first_is_first_mark, its first violation is also the first marked line)."""
    code, report = check_json(path)
    assert isinstance(report, dict), report
    lines = {v["line"] for v in report["violations"]}
    if path.name.startswith("legal-"):
        assert code == 0, report["violations"]
        assert report["legal"]
    else:
        assert code == 1
        assert lines == marked_lines(path), report["violations"]
        if first_is_first_mark:
            first = min(report["violations"], key=lambda v: v["line"])
            assert first["line"] == min(marked_lines(path))


# -- sheetgen simulate ---------------------------------------------------------------------
def sim(*args):
    return CliRunner().invoke(main, ["simulate", *args], catch_exceptions=False)


def sim_json(*args):
    res = sim(*args, "--format", "json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def world(name="ancient-story"):
    """A built-in map's board, the default free hero and a Navigator over the board."""
    from sheetgen.games.foury.sim.batch import load_board, make_hero
    from sheetgen.games.foury.sim.navigate import Navigator
    board = load_board(name).board
    return board, make_hero(board, None), Navigator(board)
