"""The simulation report for a designer: why requirements failed, the round order and why, what the
outcomes mean, deaths in the Oracle's room, each event face's effect, heroes side by side."""
import json
from pathlib import Path

import pytest

from foury_helpers import sim, sim_json
from sheetgen.games.foury.sim import report as R
from sheetgen.games.foury.sim.policies import Cautious

MAPS = Path(__file__).parent / "data" / "foury_maps"
WALLED_STATUE = str(MAPS / "sim-statue-walled-off.yaml")
FACES = str(MAPS / "sim-event-faces.yaml")
# the keys the report had before the designer's (a report only gains keys)
OLD_KEYS = {"map", "map_ref", "campaign", "policy", "hero", "seed", "insert_coin", "games", "wins", "win_rate",
            "win_rate_ci95", "outcomes", "rounds_completed", "mean_rounds_completed", "insert_coin_used",
            "oracle_reached", "deaths", "turns_per_round", "requirements", "resources_at_end", "cells_never_reached",
            "deadliest_cells", "visits", "death_cells", "lint", "notes"}
NEW_KEYS = {"outcome_meanings", "requirement_failures", "requirement_why", "round_order", "oracle_room",
            "event_faces", "findings"}


@pytest.fixture(scope="module")
def ancient():
    return sim_json("ancient-story", "--games", "300", "--seed", "4")


def test_the_report_only_gains_keys(ancient):
    assert set(ancient) == OLD_KEYS | NEW_KEYS
    camp = sim_json("slaughter", "--games", "30")
    assert NEW_KEYS <= set(camp) and "campaign_figures" in camp


def test_every_failed_round_has_its_why_and_how_far_it_got(ancient):
    for letter, f in ancient["requirement_failures"].items():
        r = ancient["requirements"][letter]
        assert f["rounds"] == r["rounds"] and f["failed"] == r["rounds"] - r["met"]
        assert sum(f["why"].values()) == f["failed"] == sum(f["progress_when_failed"].values())
        # not met: short of the count (a cornucopia carried counts, but it meets the requirement only delivered)
        top = f["count"] if f["kind"] == "cornucopias" else f["count"] - 1
        assert all(int(k) <= top for k in f["progress_when_failed"])
        assert set(f["why"]) <= set(ancient["requirement_why"])
    assert ancient["requirement_failures"]["A"]["why"]["died first"] > 0
    assert ancient["requirement_why"]["died first"] == "the hero died in the round before meeting it"


def test_a_statue_walled_off_fails_its_rounds_cut_off():
    rep = sim_json(WALLED_STATUE, "--games", "120", "--seed", "2")
    a = rep["requirement_failures"]["A"]
    assert a["failed"] == a["rounds"] > 0
    assert max(a["why"], key=a["why"].get) == "cut off"
    assert "2" in a["progress_when_failed"] and "3" not in a["progress_when_failed"]   # two statues, never three
    assert any(f.startswith("zone A (The Temple): the requirement failed in 100.0% of its rounds, most often cut off")
               for f in rep["findings"])
    assert "lay behind walls or collapses" in rep["requirement_why"]["cut off"]


def test_the_round_order_and_why(ancient):
    order = ancient["round_order"]
    assert order["policy"] == "cautious" and order["why"] == Cautious.order_reason
    assert "the kill round first, while monsters are weakest" in order["why"]
    assert order["by_round"]["1"] == {"B": 300}            # The Palace Rooms (kills) first, every game
    played = sum(sum(z.values()) for z in order["by_round"].values())
    assert played == sum(r["rounds"] for r in ancient["requirements"].values())
    assert order["most_common"][0]["games"] >= order["most_common"][-1]["games"]
    random_order = sim_json("ancient-story", "--games", "20", "--policy", "random")["round_order"]
    assert random_order["why"] == "any arrow left, at random"


def test_the_outcomes_are_explained_in_the_report_own_words(ancient):
    meanings = ancient["outcome_meanings"]
    assert set(meanings) == set(ancient["outcomes"])
    assert "every arrow into the zones still to play was used or closed by a collapse" in meanings["no entry"]
    assert "no shovel was left" in meanings["trapped"]
    text = sim("ancient-story", "--games", "300", "--seed", "4").output
    assert "what the outcomes mean:" in text
    assert f"  trapped: {meanings['trapped']}" in text and f"  no entry: {meanings['no entry']}" in text


def test_deaths_in_the_oracle_room_say_why(ancient):
    room = ancient["oracle_room"]
    assert room["room"] == "the Oracle's room"
    assert room["deaths"] == ancient["deaths"]["by_zone"].get("O", 0) > 0
    assert sum(room["by_cause"].values()) == room["deaths"]
    assert room["why"] and "trapped there after reaching it" in room["why"][0]
    assert "collapses closed every way to an exit arrow" in room["why"][0]
    assert any(f.startswith(f"{room['deaths']} deaths and traps in the Oracle's room") for f in ancient["findings"])


def test_each_event_face_win_rate_often_and_rarely(ancient):
    n = ancient["games"]
    for letter, faces in ancient["event_faces"].items():
        assert set(faces) == {"1", "2", "3", "4", "5", "6"}
        for e in faces.values():
            assert e["often"]["games"] + e["rarely"]["games"] <= n and e["rolls_per_game"] > 0
    # a face that heals and gives a free step helps; the report finds it
    rep = sim_json(FACES, "--games", "400", "--seed", "3")
    heal = rep["event_faces"]["A"]["1"]
    assert heal["event"] == "find purple potion"
    assert heal["difference"] > 0.15 and heal["p_value"] < 0.001
    assert heal["often"]["win_rate"] > heal["rarely"]["win_rate"]
    assert any(f.startswith("zone A face 1 (find purple potion): games where it came up often won") for f in
               rep["findings"])


def test_heroes_side_by_side_on_the_same_seeds():
    rep = sim_json("ancient-story", "--games", "150", "--seed", "6", "--hero", "all")
    rows = rep["heroes"]
    assert [r["hero"] for r in rows] == ["free traits", "kael", "melyra", "thalindra", "elydion"]
    assert [r["difficulty"] for r in rows] == [None, "easy", "intermediate", "intermediate", "difficult"]
    # each row is what a run with that hero gives, and the report itself is the free-traits run
    kael = sim_json("ancient-story", "--games", "150", "--seed", "6", "--hero", "kael")
    assert (rows[1]["wins"], rows[1]["win_rate_ci95"]) == (kael["wins"], kael["win_rate_ci95"])
    free = sim_json("ancient-story", "--games", "150", "--seed", "6")
    assert rep["wins"] == free["wins"] == rows[0]["wins"]
    assert set(rep) == OLD_KEYS | NEW_KEYS | {"heroes", "hero_findings"}
    text = sim("ancient-story", "--games", "150", "--seed", "6", "--hero", "all").output
    assert "heroes side by side (the same seeds):" in text and "  kael (easy): " in text


def _run(hero, difficulty, wins, games=1000):
    rep = {"games": games, "wins": wins, "win_rate": wins / games, "win_rate_ci95": [0.0, 1.0],
           "mean_rounds_completed": 1.0, "deaths": {"total": games - wins}}
    return hero, difficulty, rep


def test_an_easy_hero_that_wins_less_than_free_traits_is_a_finding():
    rep = {"requirement_failures": {}, "event_faces": {}, "oracle_room": {"deaths": 0}}
    R.add_heroes(rep, [_run(None, None, 200), _run("kael", "easy", 150), _run("melyra", "intermediate", 140),
                       _run("elydion", "difficult", 190)])
    assert rep["hero_findings"][0] == ("Kael is labelled EASY but wins 15.0% against free traits' 20.0% "
                                       "(-5.0 points, p = 0.0033)")
    assert "Elydion (DIFFICULT) wins more than Kael (EASY)" in rep["hero_findings"][1]
    assert rep["findings"] == rep["hero_findings"]
    R.add_heroes(rep, [_run(None, None, 200), _run("kael", "easy", 260), _run("melyra", "intermediate", 200),
                       _run("elydion", "difficult", 150)])
    assert rep["hero_findings"] == []


def test_the_pdf_page_for_a_designer(tmp_path):
    assert sim(FACES, "--games", "60", "--hero", "all", "-o", str(tmp_path)).exit_code == 0
    page = next(tmp_path.glob("*designer*.svg")).read_text()
    for ident in ("chart-requirement-why", "chart-heroes", "chart-round-order", "chart-event-faces", "face-A1"):
        assert f'id="{ident}"' in page, ident
    assert "Finding:" in page and "Trapped:" in page


def test_hero_all_with_logs_writes_the_free_traits_games(tmp_path):
    res = sim("ancient-story", "--games", "3", "--hero", "all", "--logs", str(tmp_path / "logs"), "--format", "json")
    assert res.exit_code == 0, res.output
    assert len(list((tmp_path / "logs").glob("*.yaml"))) == 3
    assert json.loads(res.output[res.output.index("{"):])["heroes"]
