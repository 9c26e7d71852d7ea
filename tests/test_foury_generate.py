"""`sheetgen generate map`: lint-clean maps within the target, the same map for the same seed,
clean errors for targets and options that cannot work, exit 1 when the budget runs out."""
import json
import math
import re

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.foury.sim import generate as G
from sheetgen.stats import wilson

# small grids and wide tolerances: every test here plays a few thousand games at most
FAST = ["--size", "7x7", "--tolerance", "0.1", "--budget", "20000"]


def _generate(tmp_path, name, *args):
    out = tmp_path / name
    result = CliRunner().invoke(main, ["generate", "map", *FAST, *args, "-o", str(out)])
    return result, out


def test_a_generated_map_is_clean_and_plays_within_the_target(tmp_path):
    result, out = _generate(tmp_path, "g.yaml", "--win-rate", "0.15", "--seed", "3")
    assert result.exit_code == 0, result.output
    check = CliRunner().invoke(main, ["validate", str(out)])
    assert check.exit_code == 0 and "warning" not in check.output, check.output
    text = out.read_text()
    # the header says the result; a fresh simulation (other seeds, the simulate command) agrees
    assert re.search(r"^# Result: wins [\d.]+% \(95% interval", text, re.M)
    # ... and the checks of its verification games: each zone's requirement, each event face
    assert re.search(r"^# Requirements met \(share of the rounds played in each zone; at least 10% each\): "
                     r"A \d+% of \d+ rounds, B \d+% of \d+ rounds, C \d+% of \d+ rounds, D \d+% of \d+ rounds\.$",
                     text, re.M), text[:2000]
    faces = re.search(r"^# Event faces 1-6 that changed something \(share of (\d+) games; at least 1% each\): (.*)\.$",
                      text, re.M)
    assert faces and len(faces.group(2).split(", ")) == 4
    assert "Requirements met" in result.output and "Event faces 1-6" in result.output      # on screen too
    sim = CliRunner().invoke(main, ["simulate", str(out), "--games", "1000", "--seed", "77", "--format", "json"])
    assert sim.exit_code == 0, sim.output
    report = json.loads(sim.output)
    lo, hi = wilson(report["wins"], 1000)
    assert 0.15 - 0.1 <= lo and hi <= 0.15 + 0.1, report["win_rate_ci95"]


def test_same_seed_same_map_and_another_seed_another(tmp_path):
    for folder in ("1", "2", "3"):
        (tmp_path / folder).mkdir()
    r1, a = _generate(tmp_path, "1/m.yaml", "--win-rate", "0.1", "--seed", "5")
    r2, b = _generate(tmp_path, "2/m.yaml", "--win-rate", "0.1", "--seed", "5")
    r3, c = _generate(tmp_path, "3/m.yaml", "--win-rate", "0.1", "--seed", "6")
    assert r1.exit_code == r2.exit_code == r3.exit_code == 0, r1.output + r3.output
    assert a.read_text() == b.read_text()
    assert a.read_text() != c.read_text()


def test_a_kept_part_is_not_changed(tmp_path):
    src = tmp_path / "half.yaml"
    assert CliRunner().invoke(main, ["new", "map", str(src.with_suffix("")), "--size", "7x7"]).exit_code == 0
    result, out = _generate(tmp_path, "kept.yaml", "--from", str(src), "--keep", "zones,walls", "--win-rate", "0.1",
                            "--seed", "2")
    assert result.exit_code == 0, result.output
    from sheetgen.games.foury.formats.map import load_map
    before, after = load_map(str(src)).model, load_map(str(out)).model
    assert before.cells == after.cells and before.walls == after.walls
    assert {k: (z.requirement, z.events) for k, z in before.zones.items()} == \
           {k: (z.requirement, z.events) for k, z in after.zones.items()}


@pytest.mark.parametrize("args, words", [
    (["--win-rate", "1"], "--win-rate"),
    (["--win-rate", "0.3", "--tolerance", "0"], "--tolerance"),
    (["--win-rate", "0.5", "--tolerance", "0.001"], "--budget"),
    (["--keep", "zones"], "--from"),
    (["--size", "3x40"], "--size"),
])
def test_impossible_targets_and_bad_options_exit_2(tmp_path, args, words):
    result = CliRunner().invoke(main, ["generate", "map", *args, "-o", str(tmp_path / "x.yaml")])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x.yaml").exists()


def test_a_budget_too_small_exits_1_and_writes_the_closest_map_saying_so(tmp_path):
    # the starting 9x9 map plays far from 90% for the cautious player: 1,100 games cannot get there
    out = tmp_path / "x.yaml"
    result = CliRunner().invoke(main, ["generate", "map", "--win-rate", "0.9", "--tolerance", "0.2",
                                       "--budget", "1100", "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "ran out" in result.output and "closest played" in result.output
    text = out.read_text()
    assert "# NOT within the target (90% ± 20%)" in text and "--budget 1100" in text.splitlines()[0]
    check = CliRunner().invoke(main, ["validate", str(out)])
    assert check.exit_code == 0 and "warning" not in check.output, check.output


def test_every_candidate_the_search_keeps_is_lint_clean():
    values = G.start_values(7, 7, "ancient")
    import random
    rng = random.Random(1)
    kept = 0
    for i in range(60):
        step = G.mutate(values, rng, harder=bool(i % 2), keep=set())
        if step is None:
            continue
        fmap, findings = G.load_text(G.render("T", step[0]))
        if fmap is not None and not findings:
            values = step[0]
            kept += 1
    assert kept > 10
    fmap, findings = G.load_text(G.render("T", values))
    assert fmap is not None and findings == []


def test_a_campaign_map_is_generated_for_that_campaign(tmp_path):
    result, out = _generate(tmp_path, "s.yaml", "--campaign", "strength", "--win-rate", "0.2", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "campaign: strength" in out.read_text()
    check = CliRunner().invoke(main, ["validate", str(out)])
    assert check.exit_code == 0 and "warning" not in check.output, check.output


def test_a_campaign_with_its_own_end_is_refused(tmp_path):
    result = CliRunner().invoke(main, ["generate", "map", "--campaign", "slaughter"])
    assert result.exit_code == 2 and "strength" in result.output


def _binomial_mass(n, r, ks):
    return sum(math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                        + k * math.log(r) + (n - k) * math.log(1 - r)) for k in ks)


@pytest.mark.parametrize("win_rate", [0.2, 0.45])
def test_a_map_accepted_in_the_band_misses_a_fresh_check_only_by_a_negligible_chance(win_rate):
    # exact binomial numbers, not the normal approximation the band is built with: for any true win
    # rate r, P(a verification of V games lands in the band) x P(a fresh check's 95% interval reaches
    # outside the tolerance) stays under the promised chance per look
    target = G.Target(win_rate, 0.05)
    fresh = target.fresh_games()
    assert 7000 < fresh < 10000                        # the fifth of the tolerance: 7,203 at 20%, 9,604 at 45%
    inside = [k for k in range(int(fresh * (win_rate - 0.06)), int(fresh * (win_rate + 0.06)))
              if target.within(*wilson(k, fresh))]
    chunk = math.ceil(fresh / G.LOOKS)
    assert target.band(10) < 0 < target.band(chunk) < target.band(2 * chunk) < target.band(fresh) < 0.02
    worst = 0.0
    for looks in range(1, G.LOOKS + 1):
        games, band = chunk * looks, target.band(chunk * looks)
        accept = [k for k in range(int(games * (win_rate - band)) - 1, int(games * (win_rate + band)) + 2)
                  if abs(k / games - win_rate) <= band]
        for i in range(-60, 61):
            r = win_rate + i * 0.001
            worst = max(worst, _binomial_mass(games, r, accept) * (1 - _binomial_mass(fresh, r, inside)))
    assert 0 < worst <= G.SAFETY_TAIL
