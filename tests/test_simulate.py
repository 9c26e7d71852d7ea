"""sheetgen simulate: seeded, --jobs independent, honest about impossible maps, sensitive to
easier maps, and every simulated game a legal play log for `sheetgen check`."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from foury_helpers import sim, sim_json
from sheetgen.cli import main

DATA = Path(__file__).parent / "data" / "simulate"
EASY = str(DATA / "easy-story.yaml")
WALLED = str(DATA / "walled-oracle.yaml")


def test_fixed_seed_gives_a_fixed_and_sane_report():
    a = sim_json("ancient-story", "--games", "150", "--seed", "11")
    b = sim_json("ancient-story", "--games", "150", "--seed", "11")
    assert a == b
    other = sim_json("ancient-story", "--games", "150", "--seed", "12")
    assert other != a                                    # the seed matters
    n = a["games"]
    assert n == 150
    assert sum(a["outcomes"].values()) == n
    assert sum(a["rounds_completed"].values()) == n
    assert a["rounds_completed"]["4"] == a["wins"]
    lo, hi = a["win_rate_ci95"]
    assert 0 <= lo <= a["win_rate"] <= hi <= 1
    assert a["deaths"]["total"] == a["outcomes"]["died"] + a["outcomes"]["trapped"]
    assert sum(a["deaths"]["by_cause"].values()) == a["deaths"]["total"]
    assert sum(a["death_cells"].values()) == a["deaths"]["total"]
    assert all(0 <= v <= n for v in a["visits"].values())
    for r in a["requirements"].values():
        assert 0 <= r["met"] <= r["rounds"]
    assert set(a["resources_at_end"]) >= {"hearts", "shields", "weapon", "clovers", "shovels", "chests"}
    assert a["turns_per_round"]["1"] > 0


def test_text_report_lists_every_section():
    res = sim("ancient-story", "--games", "60", "--seed", "3")
    assert res.exit_code == 0
    for words in ("win rate", "95% CI", "rounds completed", "by cause", "turns per completed round",
                  "requirements met", "resources at the end", "cells never reached", "deadliest cells"):
        assert words in res.output


def test_jobs_one_and_two_give_the_same_report():
    one = sim_json("ancient-story", "--games", "120", "--seed", "5", "--jobs", "1")
    two = sim_json("ancient-story", "--games", "120", "--seed", "5", "--jobs", "2")
    assert one == two


def test_unreachable_oracle_gives_no_wins_and_says_why():
    rep = sim_json(WALLED, "--games", "60")
    assert rep["wins"] == 0 and rep["win_rate"] == 0.0
    assert rep["oracle_reached"] == 0
    assert any("no game ever reached the Oracle" in n and "C3" in n for n in rep["notes"])
    assert "C3" in rep["cells_never_reached"]
    assert rep["lint"]                                   # the map lint names the walls too


def test_easier_map_wins_more_at_99_percent_confidence():
    res = sim_json(EASY, "--games", "300", "--seed", "2", "--compare", "ancient-story")
    cmp = res["comparison"]
    assert res["map_1"]["win_rate"] > res["map_2"]["win_rate"]
    assert cmp["harder"] == "ancient-story"
    assert cmp["confidence"] >= 0.99 and cmp["p_value"] < 0.02
    assert cmp["difference_ci95"][0] > 0


def test_every_simulated_game_checks_as_legal(tmp_path):
    runner = CliRunner()
    for policy, hero, coin in (("cautious", "kael", []), ("greedy", None, ["--coin"]), ("random", "melyra", []),
                               ("cautious", "hearts=3,shields=3,weapon=2,clovers=2,shovels=2", ["--coin"])):
        folder = tmp_path / f"{policy}-{hero}"
        args = ["simulate", "ancient-story", "--games", "6", "--policy", policy, "--logs", str(folder), *coin]
        if hero:
            args += ["--hero", hero]
        assert runner.invoke(main, args).exit_code == 0
        logs = sorted(folder.glob("*.yaml"))
        assert len(logs) == 6
        for log in logs:
            res = runner.invoke(main, ["check", str(log)])
            assert res.exit_code == 0, (log.name, res.output)


def test_logs_of_a_custom_map_name_the_map_file(tmp_path):
    res = sim(EASY, "--games", "2", "--logs", str(tmp_path / "logs"))
    assert res.exit_code == 0
    log = (tmp_path / "logs" / "game-0001.yaml").read_text()
    assert "easy-story.yaml" in log
    assert CliRunner().invoke(main, ["check", str(tmp_path / "logs" / "game-0001.yaml")]).exit_code == 0


def test_report_pdf_has_summary_and_heatmaps(tmp_path):
    from pypdf import PdfReader
    out = tmp_path / "report.pdf"
    assert sim("ancient-story", "--games", "40", "-o", str(out)).exit_code == 0
    pdf = PdfReader(str(out))
    assert len(pdf.pages) == 4                          # summary, what to look at, two heatmaps
    w, h = float(pdf.pages[0].mediabox.width), float(pdf.pages[0].mediabox.height)
    assert abs(w - 210 * 72 / 25.4) < 1 and abs(h - 297 * 72 / 25.4) < 1
    text = "".join(p.extract_text() for p in pdf.pages)
    for words in ("How The Ancient Story plays", "What to look at", "Where heroes go", "Where heroes die",
                  "Rounds completed", "Requirement not met: why", "Event faces"):
        assert words in text


def test_report_folder_has_svg_heatmap_cells(tmp_path):
    assert sim("ancient-story", "--games", "30", "-o", str(tmp_path), "--paper", "letter").exit_code == 0
    svgs = sorted(tmp_path.glob("*.svg"))
    assert len(svgs) == 4 and len(list(tmp_path.glob("*.png"))) == 4
    visits = next(p for p in svgs if "visits" in p.name).read_text()
    assert 'id="heat-visits-C1"' in visits and 'id="heatmap-visits"' in visits
    assert 'id="heat-visits-E2"' not in visits         # E2 is solid rock: no heat there
    summary = next(p for p in svgs if "summary" in p.name).read_text()
    assert 'id="chart-outcomes"' in summary and 'id="win-rate"' in summary


def test_bad_input_is_a_clean_usage_error():
    res = sim("ancient-story", "--hero", "hearts=9,shields=9")
    assert res.exit_code == 2 and "Traceback" not in res.output
    res = sim("no-such-map-anywhere")
    assert res.exit_code == 2
    res = sim()
    assert res.exit_code == 2


@pytest.mark.parametrize("policy", ["cautious", "greedy", "random"])
def test_policies_finish_their_games(policy):
    rep = sim_json("ancient-story", "--games", "20", "--policy", policy)
    assert rep["games"] == 20 and sum(rep["outcomes"].values()) == 20


def test_memory_stays_flat_as_games_grow():
    import tracemalloc
    from sheetgen.games.foury.sim.batch import SimSpec, run_chunk
    spec = SimSpec("ancient-story")
    run_chunk(spec, 0, 5)                       # load the map first
    peaks = []
    for n in (60, 240):
        tracemalloc.start()
        stats = run_chunk(spec, 0, n)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert stats.games == n
    assert peaks[1] < peaks[0] * 1.5 + 200_000   # four times the games, not four times the memory
