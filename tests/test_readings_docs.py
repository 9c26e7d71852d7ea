"""docs/readings.md lists every reading the engines consult: each member of every game's Reading
enum appears in the table as `name`, on its game's row."""
from pathlib import Path

import pytest

from sheetgen.games.exploration.readings import ExplorationReading
from sheetgen.games.foury.rules import FouryReading
from sheetgen.games.navigation.readings import NavigationReading
from sheetgen.games.shuffle.readings import ShuffleReading

DOC = (Path(__file__).parent.parent / "docs" / "readings.md").read_text(encoding="utf-8")
ENUMS = {"foury": FouryReading, "exploration": ExplorationReading, "navigation": NavigationReading,
         "shuffle": ShuffleReading}


@pytest.mark.parametrize("game, reading", [(g, r.value) for g, enum in ENUMS.items() for r in enum])
def test_every_reading_is_in_the_docs_on_its_games_row(game, reading):
    rows = [line for line in DOC.splitlines() if line.startswith(f"| {game} | `{reading}` |")]
    assert len(rows) == 1, f"docs/readings.md has no row for {game} `{reading}`"
    assert "alternative" in rows[0]
