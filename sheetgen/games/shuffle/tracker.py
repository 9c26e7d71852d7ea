"""The Shuffle Dungeons adapter of `sheetgen track --ruleset shuffle` (ADAPTER).

A game starts from a shuffle play log used as the set-up (`--map my-setup.yaml`:
its deck and `setup:`; its turns are ignored).  Steps are shuffle play-log
actions plus turn markers {turn: HERO}, read and written by notation.py;
sheetgen rolls the fight dice and the trap roll when a step leaves them out.
"""
from __future__ import annotations

from pathlib import Path

from sheetgen.errors import InputError
from sheetgen.limits import check_name
from sheetgen.games.base import Illegal as StepRefused, TrackerAdapter
from sheetgen.games.dice import d6
from sheetgen.paths import relative_ref
from . import notation
from .actions import BeginTurn, EndTurn
from .formats import Setup, initial_state
from .rules import RULES, fight_dice, legal_steps, monster_cell


class TrackState:
    __slots__ = ("header", "deck", "state", "steps")

    def __init__(self, header, deck, state, steps):
        self.header, self.deck, self.state, self.steps = header, deck, state, steps


def load_deck(ref):
    from sheetgen.definitions.registry import load
    try:
        if isinstance(ref, dict):
            return load(ref["inline-in"]).definition.deck
        loaded = load(ref)
    except InputError:
        raise                               # unusable input (exit 2), not a refused step
    return loaded.definition


class ShuffleAdapter(TrackerAdapter):
    """The journal of a Shuffle Dungeons game: its header holds the deck and the set-up."""

    def start(self, params: dict) -> dict:
        from sheetgen.definitions.registry import load
        try:
            loaded = load(params["map"])
        except InputError:
            raise                           # unusable input (exit 2), not a refused step
        if (loaded.kind, loaded.ruleset) != ("playlog", "shuffle"):
            raise InputError(f"'{params['map']}' is a {loaded.kind}; give a shuffle play log whose setup: "
                              f"starts the game")
        log = loaded.definition.log
        if isinstance(log.deck, dict):                  # the deck is written inside the set-up log
            ref = {"inline-in": str(Path(loaded.source.path).resolve())}
        else:
            deck = check_name(Path(loaded.source.folder) / log.deck, "deck")
            ref = str(deck.resolve()) if deck.exists() else log.deck
        return {"ruleset": "shuffle", "map": str(Path(loaded.source.path).resolve()), "deck": ref,
                "setup": log.setup.model_dump(mode="json", exclude_defaults=True)}

    def replay(self, header: dict, steps: list) -> TrackState:
        deck = load_deck(header["deck"])
        setup = Setup.model_validate(header["setup"])
        state = RULES.step(initial_state(deck, setup), BeginTurn(setup.heroes[0].name)).state
        for s in steps:
            try:
                action = notation.parse_step(s)
            except ValueError:
                continue
            if isinstance(action, BeginTurn):
                state = RULES.step(state, EndTurn()).state
                state = RULES.step(state, BeginTurn(action.hero if action.hero in state.heroes
                                                    else state.active)).state
                continue
            state = RULES.step(state, action).state
        return TrackState(header, deck, state, list(steps))

    def prepare(self, ts: TrackState, step, rng):
        """Roll what the player left to sheetgen: fight dice, a trap roll."""
        due = notation.rolls_left(step)
        if due is None:
            return step
        what, ref = due
        if what == "fight":
            cell = monster_cell(ts.state, ref)
            if cell is None or ts.state.active not in ts.state.heroes:
                return step
            nh, nm = fight_dice(ts.state, ts.state.active, cell)
            return notation.with_rolls(step, hero_dice=lambda: [d6(rng) for _ in range(nh)],
                                       monster_dice=lambda: [d6(rng) for _ in range(nm)])
        return notation.with_rolls(step, roll=d6(rng))

    def apply(self, ts: TrackState, step) -> TrackState:
        try:
            action = notation.parse_step(step)
        except ValueError as exc:
            raise StepRefused(str(exc)) from None
        if isinstance(action, BeginTurn):
            if action.hero not in ts.state.heroes:
                raise StepRefused(f"no hero '{action.hero}' (heroes: {', '.join(ts.state.heroes)})")
            state = RULES.apply(RULES.apply(ts.state, EndTurn()), action)
            return TrackState(ts.header, ts.deck, state, ts.steps + [step])
        return TrackState(ts.header, ts.deck, RULES.apply(ts.state, action), ts.steps + [step])

    def narrate(self, before: TrackState, after: TrackState, step) -> list[str]:
        """What a recorded step did at the table: the fight's totals, the tiles placed, moved,
        turned, slain or flipped, the heroes' moves, damage, hands and equipment, whose turn begins."""
        b, a = before.state, after.state
        lines = []
        if a.active != b.active:
            lines.append(f"{b.active}'s turn ends; {a.active}'s turn begins")
        fight = step.get("fight") if isinstance(step, dict) else None
        if isinstance(fight, dict) and b.active in b.heroes:
            h = b.heroes[b.active]
            cell = tuple(fight["at"]) if fight.get("at") is not None else monster_cell(b, fight.get("monster"))
            t = b.tiles.get(cell) if cell is not None else None
            if t is not None and t.kind == "monster":
                spec = b.catalog.monsters[t.card]
                hd, md = list(fight.get("hero-dice") or ()), list(fight.get("monster-dice") or ())
                ha = sum(hd) + b.hero_stat(h, "attack") + int(fight.get("hero-bonus") or 0)
                ma = sum(md) + spec.attack + int(fight.get("monster-bonus") or 0)
                lines.append(f"{h.name} fights the {t.card}: dice {hd} + attack {b.hero_stat(h, 'attack')} = {ha} "
                             f"against dice {md} + attack {spec.attack} = {ma}: "
                             + ("the hero wins" if ha >= ma else "the monster wins"))
        names = {c: t for c, t in a.tiles.items()}
        for cell, t in sorted(names.items()):
            old = b.tiles.get(cell)
            where = f"[{cell[0]}, {cell[1]}]"
            if old is None or old.card != t.card:
                moved = [c for c, o in b.tiles.items() if o.card == t.card and c != cell and a.tiles.get(c) is not o]
                if t.kind == "monster" and old is None and not moved:
                    lines.append(f"the {t.card} is played face up at {where}")
                elif moved and old is None:
                    lines.append(f"the {t.card} room moves to {where}")
                elif old is None:
                    lines.append(f"the {t.card} room is built at {where}" + (f", turned {t.turns * 90}" if t.turns
                                                                              else ""))
                else:
                    lines.append(f"the {t.card} room is now at {where}")
                continue
            if t.kind == "slain" and old.kind == "monster":
                lines.append(f"the {t.card} is slain: flip it to its room side")
            elif t.kind == "monster" and t.damage != old.damage:
                lines.append(f"the {t.card} takes {t.damage - old.damage} damage "
                             f"({b.catalog.monsters[t.card].hp - t.damage} HP left)")
            if t.turns % 4 != old.turns % 4:
                lines.append(f"the {t.card} room at {where} turns to {t.turns % 4 * 90}")
            if t.face_up and not old.face_up:
                lines.append(f"the Boss room at {where} flips face up: its flip power acts")
            if len(t.loot) > len(old.loot):
                lines.append(f"the {t.card} loots {len(t.loot) - len(old.loot)} card(s) into its pile")
        for name, x in a.heroes.items():
            y = b.heroes.get(name)
            if y is None:
                continue
            if x.at != y.at:
                lines.append(f"{name} is now at [{x.at[0]}, {x.at[1]}]")
            if x.damage != y.damage:
                hp = a.hero_stat(x, "hp")
                lines.append(f"{name}: damage {y.damage} -> {x.damage} ({hp - x.damage} of {hp} HP left)")
            gained = [c for c in x.hand if c not in y.hand or x.hand.count(c) > y.hand.count(c)]
            lost = [c for c in y.hand if c not in x.hand or y.hand.count(c) > x.hand.count(c)]
            if gained or lost:
                lines.append(f"{name}'s hand: " + ", ".join([f"+ {c}" for c in dict.fromkeys(gained)]
                                                           + [f"- {c}" for c in dict.fromkeys(lost)]))
            for slot, card in sorted(x.equipped.items()):
                if y.equipped.get(slot) != card:
                    lines.append(f"{name} equips the {card} ({slot})")
            if x.leveled and not y.leveled:
                lines.append(f"{name} levels up: flip the hero card")
        if a.pile is not None and b.pile is not None and len(a.pile) < len(b.pile):
            lines.append(f"the dungeon pile: {len(b.pile)} -> {len(a.pile)} card(s)")
        return lines

    def status(self, ts: TrackState) -> str:
        st = ts.state
        deck = ts.header["deck"]
        lines = [f"deck {deck if isinstance(deck, str) else 'inline in ' + deck['inline-in']}; turn of {st.active}"]
        tiles = []
        for (x, y), t in sorted(st.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            extra = f" {t.damage} dmg" if t.kind == "monster" and t.damage else ""
            state = "" if t.face_up else " face down"
            tiles.append(f"[{x}, {y}] {t.card}{'' if t.kind in ('room', 'slain') else ' (' + t.kind + ')'}"
                         f"{state}{extra}")
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

    def export(self, header: dict, steps: list, relative_to: Path | None = None) -> str:
        """The play log: the set-up, and the steps in notation grouped into the heroes' turns."""
        import yaml
        ref = header["deck"]
        if isinstance(ref, dict):
            ref = load_deck(ref).deck.model_dump(mode="json", exclude_defaults=True)
        ref = relative_ref(ref, relative_to)
        first = header["setup"]["heroes"][0]["name"]
        turns: list[dict] = [{"hero": first, "actions": []}]
        for s in steps:
            try:
                action = notation.parse_step(s)
            except ValueError:              # never recorded (apply refuses it); kept as written
                turns[-1]["actions"].append(s)
                continue
            if isinstance(action, BeginTurn):
                turns.append({"hero": action.hero, "actions": []})
            else:
                turns[-1]["actions"].append(notation.serialize(action, notation.note_of(s)))
        doc = {"sheetgen": 1, "kind": "playlog", "ruleset": "shuffle", "deck": ref, "setup": header["setup"],
               "turns": turns}
        return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100)

    def render(self, header: dict, steps: list, outdir, formats, paper=None, grayscale=False) -> list:
        raise InputError("the shuffle tracker cannot draw yet")


ADAPTER = ShuffleAdapter()
