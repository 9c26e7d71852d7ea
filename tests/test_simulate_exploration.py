"""sheetgen simulate --ruleset exploration: map mode run many times, seeded and --jobs independent."""
import json

from click.testing import CliRunner

from sheetgen.cli import main


def run(*args):
    res = CliRunner().invoke(main, ["simulate", "--ruleset", "exploration", *args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res


def test_same_seed_same_report_whatever_jobs():
    a = json.loads(run("--games", "80", "--seed", "4", "--format", "json").output)
    b = json.loads(run("--games", "80", "--seed", "4", "--jobs", "2", "--format", "json").output)
    assert a == b
    c = json.loads(run("--games", "80", "--seed", "5", "--format", "json").output)
    assert c != a


def test_report_is_sane():
    rep = json.loads(run("--games", "60", "--format", "json").output)
    assert rep["runs"] == 60 and sum(rep["endings"].values()) == 60
    assert sum(rep["rooms_histogram"].values()) == 60
    assert 0 < rep["mean_occupied_share"] < 1
    assert 0 <= rep["final_boss_ci95"][0] <= rep["final_boss_rate"] <= rep["final_boss_ci95"][1] <= 1
    assert all(0 < v <= 60 for v in rep["occupied"].values())
    if rep["mean_rooms_before_final_boss"] is not None:
        assert rep["mean_rooms_before_final_boss"] >= 1
    text = run("--games", "20").output
    for words in ("rooms before the Final Boss", "sheet filled up", "dead ends per map", "squares occupied"):
        assert words in text


def test_report_page_has_the_square_heatmap(tmp_path):
    run("--games", "20", "-o", str(tmp_path))
    svg = next(tmp_path.glob("*.svg")).read_text()
    assert 'id="heatmap-squares"' in svg and 'id="chart-endings"' in svg


def test_a_table_that_is_not_d66_is_refused():
    res = CliRunner().invoke(main, ["simulate", "--ruleset", "exploration", "--table", "exploration-contents"])
    assert res.exit_code == 2 and "d66" in res.output
