"""A second set of hand-made Dungeon Foury play logs (tests/data/foury_logs/audit2/), written from
the rules text and the issue's log format: the campaigns on their built-in maps (Slaughter's Fury,
Santa's stars and packages, the Kraken's market, swims and exit side, the Strength potions),
multi-round games on the Ancient Story (market x3, the Troll's return, the Minotaur's double bonus,
INSERT COIN mid-game).  Legal logs must check clean; each illegal one marks with `# VIOLATION` the
line(s) that must be reported, and nothing else may be reported."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from foury_helpers import FOURY_LOGS, assert_checks_as_marked, assert_marked_set
from sheetgen.cli import main

AUDIT = FOURY_LOGS / "audit2"
LOGS = sorted(AUDIT.glob("*.yaml"))


def test_the_second_audit_set_has_legal_and_illegal_logs_on_every_campaign():
    names = [p.name for p in LOGS]
    assert len(names) >= 25
    assert sum(n.startswith("legal-") for n in names) >= 12
    assert sum(n.startswith("illegal-") for n in names) >= 12
    assert_marked_set(LOGS)
    maps = {line.split(":", 1)[1].strip() for p in LOGS for line in p.read_text().splitlines()
            if line.startswith("map:")}
    assert {"slaughter", "santa", "strength", "kraken", "ancient-story"} <= maps


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_audit2_log(path):
    assert_checks_as_marked(path)


@pytest.mark.parametrize("step", ["candy", "{candy: yeti}", "{candy: G8}", "{give: candy cane}", "candy cane",
                                  "{candy cane: true}"])
def test_a_candy_cane_may_be_written_in_the_words_players_use(step, tmp_path):
    text = (AUDIT / "legal-santa-candy-cane-no-kill.yaml").read_text()
    log = tmp_path / "candy.yaml"
    log.write_text(text.replace("      - candy  ", f"      - {step}  ", 1))
    assert step in log.read_text()
    result = CliRunner().invoke(main, ["check", str(log)])
    assert result.exit_code == 0, result.output
    bad = tmp_path / "no-candy.yaml"                   # without it the Yeti must be faced
    bad.write_text("\n".join(line for line in text.splitlines() if not line.startswith("      - candy  ")) + "\n")
    assert CliRunner().invoke(main, ["check", str(bad)]).exit_code == 1
