"""`sheetgen track` for Dungeon Foury's 2 Players Mode (rules/two_players.py).

A two-player game's journal header has `players: [{name, hero}, {name, hero}]`; its steps are
play-log steps tagged with their player (`{player: Ada, entry: C1:N}`, `{player: Ben, move: E3,
roll: 6}`, `{player: Ada, duel: {hero: 5, opponent: 2}}`).  FouryTracker hands such a game here;
each player's step is told with the single-player words (their own sheet), and export writes the
two-player play log (formats/playlog_two.py) that `sheetgen check` accepts.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from sheetgen.errors import InputError
from sheetgen.games.base import Illegal, Told
from . import rules as E
from .board import cell_name
from .rules import two_players as T

DUEL_KEYS = ("hero", "opponent", "weapon", "opponent_weapon", "shield", "opponent_shield")


class TwoTrackState:
    __slots__ = ("header", "board", "game", "steps")

    def __init__(self, header, board, game, steps):
        self.header, self.board, self.game, self.steps = header, board, game, steps


def is_two(header: dict) -> bool:
    return bool(header.get("players"))


def parse_players(text: str, hero: str | None, traits: dict) -> list[dict]:
    """--players 'Ada=kael,Ben=melyra' (or 'Ada,Ben' with --hero/--traits for both)."""
    out = []
    for part in text.split(","):
        name, _, who = part.strip().partition("=")
        name = name.strip()
        if not name:
            raise InputError("--players names two players: Ada,Ben or Ada=kael,Ben=melyra")
        if who.strip():
            spec = {"name": who.strip().lower()}
        elif hero:
            spec = {"name": hero.strip().lower()}
        elif traits:
            spec = {"traits": dict(traits)}
        else:
            raise InputError(f"give {name}'s hero (--players {name}=kael,...) or --hero/--traits for both")
        out.append({"name": name, "hero": spec})
    if len(out) != 2:
        raise InputError(f"the 2 Players Mode has two players, not {len(out)}")
    if out[0]["name"].lower() == out[1]["name"].lower():
        raise InputError("the two players need different names")
    return out


def _index(header: dict, step) -> tuple[int, dict]:
    """(player index, the step without its player); Illegal when the player is missing or unknown."""
    names = [p["name"] for p in header["players"]]
    if not isinstance(step, dict) or "player" not in step:
        raise Illegal(f"say whose step it is: player: {names[0]} or {names[1]}")
    step = dict(step)
    who = step.pop("player")
    if isinstance(who, int) and who in (1, 2):
        return who - 1, step
    low = [n.lower() for n in names]
    if str(who).lower() in low:
        return low.index(str(who).lower()), step
    raise Illegal(f"unknown player '{who}' (one of {', '.join(names)})")


def _action(step: dict):
    if "duel" in step:
        d = step["duel"]
        if len(step) != 1 or not isinstance(d, dict) or not {"hero", "opponent"} <= d.keys() \
                or not d.keys() <= set(DUEL_KEYS):
            raise Illegal("a duel is {duel: {hero: D6, opponent: D6, weapon, opponent_weapon, shield, "
                          "opponent_shield}}")
        try:
            return T.Duel(**{k: (int(v) if k in ("hero", "opponent") else bool(v)) for k, v in d.items()})
        except (TypeError, ValueError):
            raise Illegal("a duel's dice are numbers 1 to 6") from None
    from .tracker import journal_action
    try:
        return journal_action(step)
    except ValueError as exc:
        raise Illegal(str(exc)) from None


def _single(state: TwoTrackState, i: int):
    """Player i's sheet as a single-player TrackState (for the single-player words)."""
    from .tracker import TrackState
    st = state.game.states[i]
    hero_spec = state.header["players"][i]["hero"]
    header = {k: v for k, v in state.header.items() if k != "players"}
    return TrackState(dict(header, hero=hero_spec), state.board, st.hero, st, [])


class TwoTracker:
    """The two-player half of FouryTracker (it calls these for a header with `players:`)."""

    def __init__(self, single):
        self.single = single            # the FouryTracker: its single-player words

    def start(self, params: dict, board, ref: str) -> dict:
        from .tracker import track_hero
        if board.campaign != "ancient":
            raise InputError(f"the 2 Players Mode is played on a map of The Ancient Story, not '{board.campaign}'")
        players = parse_players(params["players"], params.get("hero"), params.get("traits") or {})
        for p in players:
            _, problems = track_hero({"hero": p["hero"]}, board)
            if problems:
                raise Illegal(f"{p['name']}: " + "; ".join(problems))
        return {"ruleset": "foury", "map": ref, "players": players}

    def replay(self, header: dict, steps: list) -> TwoTrackState:
        from .tracker import board_of, map_key_of, track_hero
        board = board_of(header["map"], map_key_of(header["map"]))
        heroes = tuple(track_hero({"hero": p["hero"]}, board)[0] for p in header["players"])
        game = T.new_game(board, heroes, tuple(p["name"] for p in header["players"]))
        for step in steps:
            try:
                i, rest = _index(header, step)
                game = T.step(game, i, _action(rest)).state
            except Illegal:
                continue
        return TwoTrackState(header, board, game, list(steps))

    def apply(self, state: TwoTrackState, step) -> TwoTrackState:
        i, rest = _index(state.header, step)
        out = T.step(state.game, i, _action(rest))
        if out.violations:
            raise Illegal("; ".join(v.message for v in out.violations))
        return TwoTrackState(state.header, state.board, out.state, state.steps + [step])

    def prepare(self, state: TwoTrackState, step, rng):
        try:
            i, rest = _index(state.header, step)
        except Illegal:
            return step
        if isinstance(rest.get("duel"), dict):
            d = dict(rest["duel"])
            for key in ("hero", "opponent"):
                if d.get(key) is None:
                    d[key] = rng.randint(1, 6)
            return dict(step, duel=d)
        done = self.single.prepare(_single(state, i), rest, rng)
        return dict({"player": step["player"]}, **done) if isinstance(done, dict) else step

    def dice_due(self, state: TwoTrackState, step) -> list:
        try:
            i, rest = _index(state.header, step)
        except Illegal:
            return []
        if isinstance(rest.get("duel"), dict):
            names = [p["name"] for p in state.header["players"]]
            return [(("duel", k), f"{names[i] if k == 'hero' else names[1 - i]}'s duel die")
                    for k in ("hero", "opponent") if rest["duel"].get(k) is None]
        return self.single.dice_due(_single(state, i), rest)

    def tell(self, before: TwoTrackState, after: TwoTrackState, step) -> Told:
        try:
            i, rest = _index(before.header, step)
        except Illegal:
            return Told()
        name = before.header["players"][i]["name"]
        if "duel" in rest:
            told = Told()
            for j, p in enumerate(before.header["players"]):
                g0, g1 = before.game.states[j], after.game.states[j]
                changes = [f"{k} {g0.res.get(k, 0)} -> {g1.res.get(k, 0)}" for k in ("hearts", "shields", "weapon",
                                                                                      "chests")
                           if g0.res.get(k, 0) != g1.res.get(k, 0)]
                told.lines.append(f"{p['name']}: " + (", ".join(changes) if changes else "nothing changes")
                                  + (" (dead)" if g1.phase == E.DEAD else ""))
            return told
        told = self.single.tell(_single(before, i), _single(after, i), rest)
        told.lines = [f"{name}: {line}" for line in told.lines]
        if after.game.duel_due == i:
            other = before.header["players"][1 - i]["name"]
            told.lines.append(f"{name} reached {other}: they face each other now (a duel step by {name})")
        return told

    def undo_lines(self, before: TwoTrackState, step) -> list[str]:
        try:
            i, rest = _index(before.header, step)
        except Illegal:
            return []
        if "duel" in rest:
            return ["put both sheets back as they were before the duel"]
        return self.single.undo_lines(_single(before, i), rest)

    def status(self, state: TwoTrackState) -> str:
        g = state.game
        names = [p["name"] for p in state.header["players"]]
        lines = [f"map {state.header['map']} ({state.board.title}), 2 Players Mode: {names[0]} and {names[1]}"]
        for i, name in enumerate(names):
            body = self.single.status(_single(state, i)).splitlines()[1:]
            lines.append(f"-- {name}: {T.phase_name(g.states[i])}")
            lines += ["   " + ln for ln in body]
        if g.duel_due is not None:
            lines.append(f"next: {names[g.duel_due]} faces {names[1 - g.duel_due]} (a duel step)")
        else:
            lines.append("next: " + _next(g, names))
        res = T.result(g)
        if res.decided:
            lines.append("result: " + ("a draw" if res.winner is None else f"{names[res.winner]} wins") + f" ({res.why})")
        return "\n".join(lines)

    def export(self, header: dict, steps: list, relative_to: Path | None = None) -> str:
        import yaml
        from sheetgen.paths import relative_ref
        from .formats.playlog import scalar
        entries: dict[int, str] = {}
        body = []
        for step in steps:
            try:
                i, rest = _index(header, step)
            except Illegal:
                continue
            if set(rest) == {"entry"} and i not in entries:
                entries[i] = str(rest["entry"])
                continue
            body.append(step)

        def flow(value) -> str:
            return yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10 ** 6).strip()
        out = ["sheetgen: 1", "kind: playlog", "ruleset: foury", f"map: {scalar(relative_ref(header['map'], relative_to))}",
               "players:"]
        for i, p in enumerate(header["players"]):
            item = {"name": p["name"], "hero": p["hero"]}
            if i in entries:
                item["entry"] = entries[i]
            out.append("  - " + flow(item))
        out.append("steps:" + ("" if body else " []"))
        out += ["  - " + flow(s) for s in body]
        return "\n".join(out) + "\n"


class Trails:
    """Both players' pencil paths, gathered while replaying the steps (as sheets.pencil does for one)."""

    def __init__(self) -> None:
        from .sheets.pencil import Trail
        self.of = (Trail(), Trail())

    def copy(self) -> Trails:
        new = Trails()
        for mine, theirs in zip(new.of, self.of):
            mine.segments, mine.dots = list(theirs.segments), list(theirs.dots)
        return new

    def add(self, i: int, before: Any, after: Any, action: Any) -> None:
        from .actions import Circle as CircleStep, Enter, Move, Shovel
        trail = self.of[i]
        if after is before:
            return
        if isinstance(action, (Move, Shovel, CircleStep)) and after.pos is not None:
            if before.pos is None and before.entry is not None:
                trail.segments.append((("arrow",) + tuple(before.entry), after.pos))
            elif before.pos is not None and before.pos != after.pos:
                trail.segments.append((before.pos, after.pos))
            trail.dots.append(after.pos)
        elif isinstance(action, Enter) and after.pos is not None:
            trail.dots.append(after.pos)


def replay_trails(header: dict, steps: list) -> tuple[T.TwoPlayerGame, Trails]:
    """(the game, both players' pencil paths) after STEPS (a step the rules refuse now is left out)."""
    from .tracker import board_of, map_key_of, track_hero
    board = board_of(header["map"], map_key_of(header["map"]))
    heroes = tuple(track_hero({"hero": p["hero"]}, board)[0] for p in header["players"])
    g, trails = T.new_game(board, heroes, tuple(p["name"] for p in header["players"])), Trails()
    for step in steps:
        try:
            i, rest = _index(header, step)
            action = _action(rest)
        except Illegal:
            continue
        out = T.step(g, i, action)
        if out.violations:          # recorded when it was legal (a map changed since): left out
            continue
        trails.add(i, g.states[i], out.state.states[i], action)
        g = out.state
    return g, trails


def pencil_document(header: dict, steps: list, options=None, replayed=None):
    """The sheets as the pencil has them, one page per player in the order of `players:` (the
    shared map with that player's own path, walls and marks, their hero's sheet, their name
    penciled on it); each page is named after its player, so per-page files (`track render`)
    say whose sheet they are.  options: the BuildOptions (paper, grayscale) of both pages;
    replayed: (game, trails) when the caller has them."""
    import dataclasses

    from sheetgen.draw.icons import slug
    from sheetgen.draw.model import Document, Group, Page
    from sheetgen.draw.options import BuildOptions, game_options
    from .formats.sheet import hero_object
    from .sheets.map import compose_map
    from .sheets.pencil import element_rects, overlay, player_name_marks
    from .tracker import cached_map, track_hero
    g, trails = replayed or replay_trails(header, steps)
    fmap = cached_map(header["map"])
    base = options or BuildOptions()
    names = [p["name"] for p in header["players"]]
    pages = []
    for i, name in enumerate(names):
        hero, _ = track_hero({"hero": header["players"][i]["hero"]}, fmap.board)
        mine = dataclasses.replace(base, game=game_options(hero=hero.name or None))
        page = compose_map(fmap, mine, hero_object(hero.name) if hero.name else None).pages[0]
        marks = overlay(page, g.states[i], trails.of[i], base.grayscale, rects=element_rects(page))
        marks += player_name_marks(page, name)
        pages.append(Page(page.width, page.height, list(page.items) + [Group(tuple(marks), id="pencil", cls="pencil")],
                          name=name, trim=page.trim, bleed=page.bleed, content_scale=page.content_scale))
    return Document(pages, title=f"{fmap.model.title}, 2 players: {' and '.join(names)} (as played)",
                    name=f"{slug(fmap.model.title) or 'map'}-2-players-played")


def _next(g: T.TwoPlayerGame, names: list[str]) -> str:
    s = g.states
    if any(st.phase == E.START for st in s):
        return "each player enters through an arrow of their own side ({player: NAME, entry: CELL:SIDE})"
    live = [i for i in (0, 1) if not g.done(i)]
    if not live:
        return "both players are done"
    if len(live) == 1:
        return f"{names[live[0]]} plays on alone"
    if g.turn is None:
        return f"{names[0]} plays first"
    return f"{names[g.turn]}'s turn goes on, or {names[1 - g.turn]} starts the next ({cell_name(s[g.turn].pos)})" \
        if s[g.turn].pos is not None else f"{names[1 - g.turn]}'s turn"


# what the two-player page (web_two.py) shares, by public names
player_step, action_of = _index, _action
