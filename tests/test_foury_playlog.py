"""Foury play logs replayed from data files: the issue's legal log and its illegal variants."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgen.definitions.registry import load_file
from sheetgen.errors import InputError

LOGS = Path(__file__).parent / "data" / "foury_logs"
HALL = LOGS / "test-hall.yaml"


def check(path):
    loaded = load_file(path)
    return loaded.handler.check(loaded.definition)


def test_issue_example_is_legal():
    assert check(LOGS / "legal-example.yaml") == []


@pytest.mark.parametrize("name, step, rule, words", [
    ("illegal-shovel-as-move.yaml", 7, "move.wall", "wall"),
    ("illegal-roll-missing.yaml", 2, "roll.missing", "roll"),
    ("illegal-roll-explored.yaml", 6, "roll.not_due", "explored"),
    ("illegal-roll-7.yaml", 1, "roll.range", "1-6"),
    ("illegal-move-c2-e2.yaml", 3, "move.adjacent", "not next to"),
    ("illegal-sheet-weapon.yaml", 8, "sheet.weapon", "sheet shows weapon 2 but the rules give 1"),
    ("illegal-exit-used-entry.yaml", 9, "exit.used", "closed for good"),
])
def test_illegal_variant_reported_at_its_step(name, step, rule, words):
    violations = check(LOGS / name)
    assert violations, name
    first = violations[0]
    assert (first.step, first.rule) == (step, rule)
    assert words in first.message
    # the line is the step's own line in the file
    text = (LOGS / name).read_text().splitlines()
    assert text[first.line - 1].strip().startswith("- ")


def test_traits_adding_to_13_reported_at_the_traits_line():
    violations = check(LOGS / "illegal-traits-13.yaml")
    first = violations[0]
    assert first.rule == "hero.traits" and "13" in first.message
    lines = (LOGS / "illegal-traits-13.yaml").read_text().splitlines()
    assert "traits:" in lines[first.line - 1]


def test_exit_through_used_entry_lists_every_broken_rule():
    rules = {v.rule for v in check(LOGS / "illegal-exit-used-entry.yaml")}
    assert rules == {"exit.used", "exit.zone", "exit.oracle"}


def test_checking_goes_on_after_a_violation():
    # roll 7 skips the events of C1, so the wall the shovel needs never collapsed
    steps = [v.step for v in check(LOGS / "illegal-roll-7.yaml")]
    assert steps == [1, 7]


def test_cli_exit_codes_and_json(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "sheetgen", "check", str(LOGS / "legal-example.yaml")],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run([sys.executable, "-m", "sheetgen", "check", str(LOGS / "illegal-sheet-weapon.yaml"),
                          "--format", "json"], capture_output=True, text=True)
    assert bad.returncode == 1
    report = json.loads(bad.stdout)
    assert report["legal"] is False and report["violations"][0]["step"] == 8
    # malformed: a step with two actions -> exit 2 with line and column, no traceback
    broken = tmp_path / "broken.yaml"
    broken.write_text((LOGS / "legal-example.yaml").read_text().replace(
        "{collect: chest}", "{collect: chest, flee: true}").replace("test-hall.yaml", str(HALL)))
    res = subprocess.run([sys.executable, "-m", "sheetgen", "check", str(broken)], capture_output=True, text=True)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "broken.yaml:14:" in res.stderr and "exactly one" in res.stderr


def _write(tmp_path, body, hero="traits: {hearts: 4, shields: 2, weapon: 2, clovers: 2, shovels: 2}"):
    path = tmp_path / "log.yaml"
    path.write_text(f"sheetgen: 1\nkind: playlog\nruleset: foury\nmap: {HALL}\nhero:\n  {hero}\n{body}")
    return path


def test_unknown_step_key_and_sheet_key_are_located(tmp_path):
    path = _write(tmp_path, "rounds:\n  - entry: C1:N\n    steps:\n      - {mvoe: C1, roll: 2}\n")
    with pytest.raises(InputError) as exc:
        load_file(path)
    assert ":10:" in str(exc.value) and "did you mean 'move'" in str(exc.value)
    path = _write(tmp_path, "rounds:\n  - entry: C1:N\n    steps:\n      - {move: C1, roll: 2}\n"
                  "      - sheet: {hearst: 4}\n")
    with pytest.raises(InputError) as exc:
        load_file(path)
    assert ":11:" in str(exc.value) and "did you mean 'hearts'" in str(exc.value)


def test_bare_word_steps_and_unknown_hero(tmp_path):
    path = _write(tmp_path, "rounds:\n  - entry: C1:N\n    steps:\n      - {move: C1, roll: 1}\n"
                  "      - {fight: {hero: 2, enemy: 2}}\n      - flee\n      - {move: C2, roll: 6}\n")
    assert check(path) == []
    bad = _write(tmp_path, "rounds: []\n", hero="name: kale")
    with pytest.raises(InputError) as exc:
        load_file(bad)
    assert "did you mean 'kael'" in str(exc.value)


def test_pre_filled_hero_by_name(tmp_path):
    path = _write(tmp_path, "rounds:\n  - entry: C1:N\n    steps:\n      - {move: C1, roll: 6}\n", hero="name: kael")
    assert check(path) == []


# -- generated games round-trip through the play-log format ---------------------------------
def _generated(seed, map_name="ancient-story", hero=None):
    from sheetgen.definitions.foury import load_map
    from sheetgen.rules.foury.heroes import free_hero, named_hero
    from sheetgen.rules.foury.randomplay import random_game
    fmap = load_map(map_name)
    traits = {"hearts": 4, "shields": 2, "weapon": 2, "clovers": 2, "shovels": 2}
    h = named_hero(hero) if hero else free_hero(traits)
    return fmap, random_game(fmap.board, h, seed, max_actions=400), ({"name": hero} if hero else {"traits": traits})


def _hero_of(spec):
    from sheetgen.rules.foury.heroes import free_hero, named_hero
    return named_hero(spec["name"]) if "name" in spec else free_hero(spec["traits"])


@pytest.mark.parametrize("seed, hero", [(1, None), (2, "kael"), (3, "melyra"), (4, "thalindra"), (5, "elydion")])
def test_generated_games_check_legal_and_a_dropped_roll_is_caught(tmp_path, seed, hero):
    from sheetgen.playlog.foury import log_text
    from sheetgen.rules.foury.actions import Move
    fmap, actions, hero_spec = _generated(seed, hero=hero)
    path = tmp_path / "gen.yaml"
    path.write_text(log_text(str(fmap.source.path), hero_spec, actions))
    assert check(path) == []
    from sheetgen.rules.foury import engine as E
    state, rolled = E.new_game(fmap.board, _hero_of(hero_spec)), []
    for i, a in enumerate(actions):
        if isinstance(a, Move) and a.roll is not None and state.pos is not None and state.roll_due(a.to):
            rolled.append(i)
        state = E.apply(state, a)
    if not rolled:
        return
    i = rolled[len(rolled) // 2]
    broken = list(actions)
    broken[i] = Move(actions[i].to, None)
    path.write_text(log_text(str(fmap.source.path), hero_spec, broken))
    violations = check(path)
    assert violations and violations[0].rule == "roll.missing"
    from sheetgen.rules.foury.actions import Enter
    step_no = sum(1 for a in actions[:i + 1] if not isinstance(a, Enter))
    assert violations[0].step == step_no


def test_full_four_round_game_is_legal():
    assert check(LOGS / "legal-full-game.yaml") == []


@pytest.mark.parametrize("name, step, rule", [
    ("illegal-full-market-price.yaml", 27, "market.price"),
    ("illegal-full-exit-before-oracle.yaml", 26, "exit.oracle"),
    ("illegal-full-reused-entry.yaml", None, "entry.used"),
    ("illegal-full-score.yaml", 116, "score.count"),
])
def test_full_game_variants(name, step, rule):
    first = check(LOGS / name)[0]
    assert (first.step, first.rule) == (step, rule)
    if step is None:
        assert "round 4 entry" in first.message
