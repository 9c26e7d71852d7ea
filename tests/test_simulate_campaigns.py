"""sheetgen simulate on the campaign maps (slaughter, santa, kraken): their own goals and
figures, seeded and --jobs independent, every game a legal play log, robust to refusals."""
import pytest
from click.testing import CliRunner

from foury_helpers import sim_json, world
from sheetgen.cli import main
from sheetgen.games.foury import actions as A
from sheetgen.games.foury.board import DELTA, neighbour
from sheetgen.games.foury.rules import apply, new_game
from sheetgen.games.foury.sim.campaigns import CampaignGame, KrakenMixin, campaign_policy
from sheetgen.games.foury.tables import FURY_BOXES, OPPOSITE_ZONE
from sheetgen.games.foury.sim.runner import game_rng

CAMPAIGNS = ("slaughter", "santa", "kraken")


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_campaign_report_is_seeded_and_consistent(name):
    a = sim_json(name, "--games", "40", "--seed", "4")
    assert a == sim_json(name, "--games", "40", "--seed", "4")
    n = a["games"]
    assert a["campaign"] == name and sum(a["outcomes"].values()) == n
    lo, hi = a["win_rate_ci95"]
    assert 0 <= lo <= a["win_rate"] <= hi <= 1 and a["win_rate"] == round(a["wins"] / n, 4)
    f = a["campaign_figures"]
    assert f["turns"]["min"] <= f["turns"]["median"] <= f["turns"]["max"]
    assert f["refused_by_engine"] == {}               # the policies only propose what the engine accepts
    if name == "slaughter":
        assert sum(f["kills_distribution"].values()) == n
        assert all(0 <= int(k) <= f["max_enemies"] + 48 for k in f["kills_distribution"])
        goal = sum(v for k, v in f["kills_distribution"].items() if int(k) >= f["max_enemies"])
        assert goal == a["wins"]                           # the goal is every enemy met
        assert f["furious"]["games"] == a["outcomes"]["furious"]
    elif name == "santa":
        assert f["safe_zone"]["games"] == a["outcomes"]["safe zone"]
        assert a["wins"] >= f["safe_zone"]["games"] and a["wins"] >= f["collection"]["games"]
        assert set(f["items_mean"]) >= {"reindeer", "sleigh", "green packages", "blue packages"}
        assert f["hourglass"] == 40 and f["turns"]["max"] <= 40
    else:
        assert sum(f["requirements_completed"].values()) == n
        assert a["wins"] <= f["requirements_completed"]["4"]     # no win without all four
        assert f["turns"]["max"] <= f["hourglass"]
        assert a["outcomes"]["won"] == a["wins"]


def test_campaign_jobs_one_and_two_agree():
    one = sim_json("santa", "--games", "60", "--seed", "7", "--jobs", "1")
    two = sim_json("santa", "--games", "60", "--seed", "7", "--jobs", "2")
    assert one == two


def test_campaign_text_names_the_campaign_figures():
    res = CliRunner().invoke(main, ["simulate", "slaughter", "--games", "20"])
    assert res.exit_code == 0
    for words in ("goal rate", "95% CI", "kills (score)", "kills distribution", "Furious"):
        assert words in res.output
    res = CliRunner().invoke(main, ["simulate", "santa", "--games", "20"])
    assert "XMas Safe Zone reached" in res.output and "items collected" in res.output
    res = CliRunner().invoke(main, ["simulate", "kraken", "--games", "20"])
    assert "requirements completed" in res.output and "turns played" in res.output


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_campaign_games_check_as_legal_play_logs(tmp_path, name):
    runner = CliRunner()
    for policy in ("cautious", "greedy", "random"):
        folder = tmp_path / policy
        res = runner.invoke(main, ["simulate", name, "--games", "4", "--policy", policy, "--logs", str(folder)])
        assert res.exit_code == 0, res.output
        logs = sorted(folder.glob("*.yaml"))
        assert len(logs) == 4
        for log in logs:
            out = runner.invoke(main, ["check", str(log)])
            assert out.exit_code == 0, (policy, log.name, out.output)


def test_campaign_logs_use_the_campaign_steps(tmp_path):
    runner = CliRunner()
    runner.invoke(main, ["simulate", "kraken", "--games", "6", "--logs", str(tmp_path / "k")])
    assert any("flood:" in p.read_text() for p in (tmp_path / "k").glob("*.yaml"))
    runner.invoke(main, ["simulate", "slaughter", "--games", "6", "--logs", str(tmp_path / "s")])
    texts = [p.read_text() for p in (tmp_path / "s").glob("*.yaml")]
    assert all("start: F6" in t for t in texts) and any("fury:" in t for t in texts)


def test_slaughter_fury_takes_only_lethal_hits():
    board, hero, nav = world("slaughter")
    p = campaign_policy("slaughter", "cautious")(nav, game_rng(1, 0))
    s = apply(new_game(board, hero), A.Enter(start=board.start))
    s.res = dict(s.res, hearts=4)
    assert p.fury(s, 2) == 0                     # survivable: hearts pay
    assert p.fury(s, 4) == 4                     # lethal: the Fury boxes take it
    s.fury = FURY_BOXES - 1
    assert p.fury(s, 6) == 1                     # the last box: Furious (the sector's monsters count)


def test_santa_candy_for_yeti_and_grinch_only():
    board, hero, nav = world("santa")
    p = campaign_policy("santa", "cautious")(nav, game_rng(1, 0))
    s = apply(new_game(board, hero), A.Enter(start=board.start))
    assert not p.candy(s, "yeti")                # no candy cane yet
    s.res = dict(s.res, **{"candy canes": 1})
    assert p.candy(s, "yeti") and p.candy(s, "grinch") and not p.candy(s, "orc")


def test_kraken_flood_cells_touch_joined_water_and_the_engine_accepts_them():
    board, hero, nav = world("kraken")
    p = campaign_policy("kraken", "cautious")(nav, game_rng(1, 0))
    s = apply(new_game(board, hero), A.Enter(entry=board.entries[0]))
    s.turns = 5
    cells = p.flood_cells(s)
    water = s.rules.water_of(s)            # the engine's water joined to the Kraken
    assert cells and len(cells) <= len(water) and len(set(cells)) == len(cells)
    assert all(any(neighbour(c, d) in water for d in DELTA) and c not in s.flooded for c in cells)
    after = apply(s, A.Flood(cells))
    assert after.floods_done == 1 and set(cells) <= after.flooded


def test_kraken_exits_opposite_the_last_requirement_zone():
    board, hero, nav = world("kraken")
    p = campaign_policy("kraken", "cautious")(nav, game_rng(1, 0))
    s = apply(new_game(board, hero), A.Enter(entry=board.entries[0]))
    for last in ("A", "B", "C", "D"):
        s.last_req_zone = last
        arrows = KrakenMixin.exit_arrows(p, s)
        assert arrows and all(board.zone_of(c) == OPPOSITE_ZONE[last] for c, _ in arrows)


def test_a_refused_choice_is_recorded_and_the_game_goes_on(monkeypatch):
    board, hero, nav = world("slaughter")
    cls = campaign_policy("slaughter", "cautious")
    calls = {"n": 0}
    real = cls.act

    def act(self, state):
        calls["n"] += 1
        if calls["n"] == 3:
            return A.Collect("sleigh")                # nothing of the kind here: the engine refuses
        return real(self, state)
    monkeypatch.setattr(cls, "act", act)
    g = CampaignGame(board, hero, "cautious", game_rng(1, 0), nav=nav).play()
    assert g.figures["refused"] == ("collect.absent",)
    assert g.outcome in ("won", "furious", "died", "trapped", "nothing left") and g.actions > 10


def test_campaign_report_pdf_draws_the_campaign_figures(tmp_path):
    from pypdf import PdfReader
    for name, words in (("slaughter", ("Kills (the score) per game", "Furious end")),
                        ("santa", ("Goals reached", "Items collected", "Safe Zone")),
                        ("kraken", ("Requirements completed", "Each requirement done"))):
        out = tmp_path / f"{name}.pdf"
        res = CliRunner().invoke(main, ["simulate", name, "--games", "30", "-o", str(out)])
        assert res.exit_code == 0, res.output
        pdf = PdfReader(str(out))
        assert len(pdf.pages) == 4                  # summary, what to look at, two heatmaps
        text = "".join(p.extract_text() for p in pdf.pages)
        for w in words + ("Where heroes go", "Where heroes die", "95% confidence interval"):
            assert w in text, (name, w)
