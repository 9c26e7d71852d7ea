"""A `track` command starts from the state the last one left in the user cache, and reads a
plain move without the format's validation: both must give exactly what a full replay and
the format give, and any change (an undo, an edited map, a damaged entry) must fall back."""
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from sheetgen.cli import main
from sheetgen.games.foury import tracker
from sheetgen.games.foury.formats.playlog import step_action

HALL = Path(__file__).parent / "data" / "foury_maps" / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"
STEPS = ["{entry: C1:N}", "{move: C1, roll: 2}", "{move: C2, roll: 4}", "{move: D2, roll: 1}",
         "{fight: {hero: 3, weapon: true, enemy: 4}}"]


def _track(journal, *args):
    result = CliRunner().invoke(main, ["track", "--journal", str(journal), *args])
    return result.exit_code, result.output


def _full_replay(header, steps):
    """The state as it was before the cache: every step through the format, from the start."""
    from sheetgen.games.foury import rules as E
    board = tracker.cached_map(header["map"]).board
    hero, _ = tracker.track_hero(header, board)
    game = E.rules_for(board).new_game(board, hero)
    for step in steps:
        game = game.rules.step(game, step_action(step)).state
    return game


def _cache_files(kind):
    from sheetgen.paths import user_cache_dir
    return sorted(user_cache_dir().glob(f"{kind}-*.pickle"))


def _game(tmp_path, map_file=HALL):
    journal = tmp_path / "j.sqlite"
    assert _track(journal, "new", "--map", map_file, "--traits", TRAITS)[0] == 0
    for step in STEPS:
        code, out = _track(journal, "step", step)
        assert code == 0, out
    return journal


def test_the_cached_state_is_the_replayed_state(tmp_path):
    journal = _game(tmp_path)
    assert len(_cache_files("foury-track")) == 1 and len(_cache_files("foury-board")) == 1
    code, cached_status = _track(journal, "status")
    assert code == 0
    for entry in _cache_files("foury-track") + _cache_files("foury-board"):
        entry.unlink()                                  # the same command with nothing cached
    assert _track(journal, "status") == (0, cached_status)
    header = {"ruleset": "foury", "map": str(HALL.resolve()),
              "hero": {"traits": dict(t.split("=") for t in TRAITS.split(","))}}
    header["hero"]["traits"] = {k: int(v) for k, v in header["hero"]["traits"].items()}
    steps = [{"entry": "C1:N"}, {"move": "C1", "roll": 2}, {"move": "C2", "roll": 4}, {"move": "D2", "roll": 1},
             {"fight": {"hero": 3, "weapon": True, "enemy": 4}}]
    state = tracker.ADAPTER.resume(header, steps)                      # from the cache the command left
    assert tracker.ADAPTER.status(tracker.ADAPTER.replay(header, steps)) == tracker.ADAPTER.status(state)
    full = _full_replay(header, steps)
    assert tracker.ADAPTER.status(state) == tracker.ADAPTER.status(
        tracker.TrackState(header, full.board, state.hero, full, steps))
    assert (state.game.res, state.game.pos, state.game.kills, state.game.turns) == (full.res, full.pos, full.kills,
                                                                                 full.turns)


def test_undo_and_an_edited_map_fall_back_to_a_full_replay(tmp_path):
    map_file = tmp_path / "hall.yaml"
    map_file.write_text(HALL.read_text())
    journal = _game(tmp_path, map_file)
    assert _track(journal, "undo")[0] == 0
    code, after_undo = _track(journal, "status")
    assert code == 0 and "position D2" in after_undo and "foe here" in after_undo
    # the map changes under the journal: the cached board and state are not used
    map_file.write_text(HALL.read_text().replace("title:", "title: Edited", 1).replace("Edited ", "Edited", 1))
    code, edited = _track(journal, "status")
    assert code == 0 and "Edited" in edited


def test_a_damaged_cache_entry_is_rebuilt(tmp_path):
    journal = _game(tmp_path)
    _, before = _track(journal, "status")
    for entry in _cache_files("foury-track") + _cache_files("foury-board"):
        entry.write_bytes(b"not a pickle")
    assert _track(journal, "status") == (0, before)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["move", "roll", "note", "entry", "fight", "x"]),
                       st.one_of(st.none(), st.booleans(), st.integers(-2, 9), st.sampled_from(
                           ["C3", "A1", "ZZ9", "c3", " C3 ", "A1:N", "C1:W", "4", "", "flee"])), max_size=3))
def test_a_plain_move_reads_as_the_format_reads_it(step):
    fast = tracker._plain_action(step)
    if fast is None:
        return                                          # the format reads it, as before
    assert fast == step_action(step)


def test_the_long_lived_calls_leave_the_cache_alone(tmp_path):
    """replay and apply (what the web companion calls for every tap) write nothing to the cache:
    the server keeps its states in memory; only a track command's resume/remember do."""
    header = tracker.ADAPTER.start({"map": str(HALL), "traits": {"hearts": 4, "shields": 2, "weapon": 2,
                                                                  "clovers": 2, "shovels": 2}})
    state = tracker.ADAPTER.replay(header, [{"entry": "C1:N"}])
    state = tracker.ADAPTER.apply(state, {"move": "C1", "roll": 2})
    assert _cache_files("foury-track") == []
    tracker.ADAPTER.remember(state)
    assert len(_cache_files("foury-track")) == 1
    again = tracker.ADAPTER.resume(header, [{"entry": "C1:N"}, {"move": "C1", "roll": 2}])
    assert tracker.ADAPTER.status(again) == tracker.ADAPTER.status(state)
