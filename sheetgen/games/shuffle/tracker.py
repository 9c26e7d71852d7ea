"""The Shuffle Dungeons adapter for the tracker (see adapters.py for the interface).

A game starts from a shuffle play log used as the set-up (`--map my-setup.yaml`:
its deck and `setup:`; its turns are ignored).  Steps are shuffle play-log
actions plus turn markers {turn: HERO}; sheetgen rolls the fight dice and the
trap roll when a step leaves them out.
"""
from __future__ import annotations

from pathlib import Path

from sheetgen.games.base import Illegal as StepRefused
from sheetgen.paths import relative_ref


class TrackState:
    __slots__ = ("header", "deck", "state", "steps")

    def __init__(self, header, deck, state, steps):
        self.header, self.deck, self.state, self.steps = header, deck, state, steps


def start(params: dict) -> dict:
    from sheetgen.definitions.registry import load
    from sheetgen.errors import InputError
    try:
        loaded = load(params["map"])
    except InputError as exc:
        raise StepRefused(str(exc)) from None
    if (loaded.kind, loaded.ruleset) != ("playlog", "shuffle"):
        raise StepRefused(f"'{params['map']}' is a {loaded.kind}; give a shuffle play log whose setup: starts the game")
    log = loaded.definition.log
    if isinstance(log.deck, dict):                  # the deck is written inside the set-up log
        ref = {"inline-in": str(Path(loaded.source.path).resolve())}
    else:
        deck = Path(loaded.source.folder) / log.deck
        ref = str(deck.resolve()) if deck.exists() else log.deck
    return {"ruleset": "shuffle", "map": str(Path(loaded.source.path).resolve()), "deck": ref,
            "setup": log.setup.model_dump(mode="json", exclude_defaults=True)}


def _deck(ref):
    from sheetgen.definitions.registry import load
    from sheetgen.errors import InputError
    try:
        if isinstance(ref, dict):
            return load(ref["inline-in"]).definition.deck
        loaded = load(ref)
    except InputError as exc:
        raise StepRefused(str(exc)) from None
    return loaded.definition


def _turn_of(step) -> str | None:
    if isinstance(step, dict) and len(step) == 1:
        key = next(iter(step))
        if key in ("turn", "hero"):
            return str(step[key])
    return None


def replay(header: dict, steps: list) -> TrackState:
    from .playlog import Setup, initial_state_from
    from .actions import parse_action
    from .rules import begin_turn, end_turn, step as lenient
    deck = _deck(header["deck"])
    setup = Setup.model_validate(header["setup"])
    state = begin_turn(initial_state_from(deck, setup), setup.heroes[0].name)
    for s in steps:
        who = _turn_of(s)
        if who is not None:
            state, _ = end_turn(state)
            state = begin_turn(state, who if who in state.heroes else state.active)
            continue
        try:
            state, _ = lenient(state, parse_action(s))
        except ValueError:
            continue
    return TrackState(header, deck, state, list(steps))


def prepare(ts: TrackState, step, rng):
    """Roll what the player left to sheetgen: fight dice, a trap roll."""
    from .rules import fight_dice, monster_cell
    if not isinstance(step, dict) or len(step) != 1:
        return step
    verb, arg = next(iter(step.items()))
    if verb == "fight" and isinstance(arg, dict):
        ref = arg.get("monster") if arg.get("at") is None else tuple(arg["at"])
        cell = monster_cell(ts.state, ref)
        if cell is not None and ts.state.active in ts.state.heroes:
            nh, nm = fight_dice(ts.state, ts.state.active, cell)
            arg = dict(arg)
            if arg.get("hero-dice") is None:
                arg["hero-dice"] = [rng.randint(1, 6) for _ in range(nh)]
            if arg.get("monster-dice") is None:
                arg["monster-dice"] = [rng.randint(1, 6) for _ in range(nm)]
            return {"fight": arg}
    if verb == "trap" and (arg is None or (isinstance(arg, dict) and arg.get("roll") is None)):
        return {"trap": dict(arg or {}, roll=rng.randint(1, 6))}
    return step


def apply(ts: TrackState, step) -> TrackState:
    from .actions import parse_action
    from .rules import Forbidden, apply as strict, begin_turn, end_turn
    who = _turn_of(step)
    if who is not None:
        if who not in ts.state.heroes:
            raise StepRefused(f"no hero '{who}' (heroes: {', '.join(ts.state.heroes)})")
        state, broken = end_turn(ts.state)
        if broken:
            raise StepRefused(broken[0].message)
        return TrackState(ts.header, ts.deck, begin_turn(state, who), ts.steps + [step])
    try:
        action = parse_action(step)
    except ValueError as exc:
        raise StepRefused(str(exc)) from None
    try:
        state = strict(ts.state, action)
    except Forbidden as f:
        raise StepRefused(f.message) from None
    return TrackState(ts.header, ts.deck, state, ts.steps + [step])


def status(ts: TrackState) -> str:
    from .rules import legal_steps
    st = ts.state
    deck = ts.header["deck"]
    lines = [f"deck {deck if isinstance(deck, str) else 'inline in ' + deck['inline-in']}; turn of {st.active}"]
    tiles = []
    for (x, y), t in sorted(st.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        extra = f" {t.damage} dmg" if t.kind == "monster" and t.damage else ""
        state = "" if t.face_up else " face down"
        tiles.append(f"[{x}, {y}] {t.card}{'' if t.kind in ('room', 'slain') else ' (' + t.kind + ')'}{state}{extra}")
    lines.append("table: " + "; ".join(tiles))
    if st.pile is not None:
        lines.append(f"pile: {len(st.pile)} card(s); burned {len(st.burned)}")
    order = [h for h in st.heroes.values() if h.name != st.active] + [st.heroes[st.active]]
    for h in order:
        eq = ", ".join(f"{k} {v}" for k, v in sorted(h.equipped.items())) or "nothing equipped"
        line = (f"{h.name} ({h.spec.id}{', levelled' if h.leveled else ''}): at [{h.at[0]}, {h.at[1]}], "
                f"damage {h.damage}/{st.hero_stat(h, 'hp')}, hand [{', '.join(h.hand)}], {eq}")
        if h.name == st.active:
            line += f"; moved {h.steps}/{st.hero_stat(h, 'speed')}" + (", drew" if h.drew else "") \
                + (", fought (turn over)" if h.fought else "")
            if h.monsters:
                line += f"; play {', '.join(h.monsters)} from an open path"
            if h.trap is not None:
                line += "; roll for the trap"
        lines.append(line)
    h = st.heroes[st.active]
    threats = [st.tiles[c].card for c in st.monsters_threatening(h.at)]
    legal = [f"move {d}" for d in legal_steps(st, st.active)] if not h.fought else []
    legal += [f"fight {m}" for m in threats] if not h.fought else []
    lines.append("legal now: " + (", ".join(legal) or "no move or fight") + ", play cards, end turn"
                 + (" (must fight first)" if threats and not h.fought else ""))
    return "\n".join(lines)


def export(header: dict, steps: list, relative_to: Path | None = None) -> str:
    import yaml
    ref = header["deck"]
    if isinstance(ref, dict):
        ref = _deck(ref).deck.model_dump(mode="json", exclude_defaults=True)
    ref = relative_ref(ref, relative_to)
    first = header["setup"]["heroes"][0]["name"]
    turns: list[dict] = [{"hero": first, "actions": []}]
    for s in steps:
        who = _turn_of(s)
        if who is not None:
            turns.append({"hero": who, "actions": []})
        else:
            turns[-1]["actions"].append(s)
    doc = {"sheetgen": 1, "kind": "playlog", "ruleset": "shuffle", "deck": ref, "setup": header["setup"],
           "turns": turns}
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100)
