"""Rules fidelity (issue "Rules fidelity"), every game at once: each game's fidelity folder
holds legal and illegal play logs side by side (tests/data/*/fidelity/, marks explained in
fidelity_helpers).  A legal log checks clean; an illegal one reports exactly the violations
its comments mark, and shows as consequences exactly the echoes they mark."""
from pathlib import Path

import pytest

from fidelity_helpers import logs, marks, reported

DATA = Path(__file__).parent / "data"
# game -> (folder, at least this many legal, illegal logs)
CORPORA = {"foury": (DATA / "foury_logs" / "fidelity", 5, 6),
           "exploration": (DATA / "exploration" / "fidelity", 7, 15),
           "navigation": (DATA / "navigation" / "fidelity", 1, 2),
           "shuffle": (DATA / "shuffle" / "fidelity", 5, 7)}
LEGAL = [(game, path) for game, (folder, _, _) in CORPORA.items() for path in logs(folder, "legal")]
ILLEGAL = [(game, path) for game, (folder, _, _) in CORPORA.items() for path in logs(folder, "illegal")]


@pytest.mark.parametrize("game", CORPORA)
def test_both_sides_are_covered(game):
    folder, legal, illegal = CORPORA[game]
    assert len(logs(folder, "legal")) >= legal and len(logs(folder, "illegal")) >= illegal


@pytest.mark.parametrize("game, path", LEGAL, ids=lambda v: v if isinstance(v, str) else v.name)
def test_legal_log_checks_clean(game, path):
    counted, echoes, messages = reported(path)
    assert not counted and not echoes, messages


@pytest.mark.parametrize("game, path", ILLEGAL, ids=lambda v: v if isinstance(v, str) else v.name)
def test_illegal_log_reports_exactly_its_marked_violations(game, path):
    counted, echoes, messages = reported(path)
    assert counted == marks(path, "VIOLATION"), messages
    assert echoes == marks(path, "CONSEQUENCE"), messages
