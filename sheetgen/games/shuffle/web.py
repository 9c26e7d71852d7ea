"""The Shuffle Dungeons adapter of the companion page (`sheetgen play --ruleset shuffle`): `PAGE`.

The table as it lies: every tile on its cell, a room drawn with the printed card's room art
(sheets.room_art, its open paths turned as the tile is), a monster with its icon, attack,
dice and damage and its area shaded red (the minimap's cells), the Boss room face down or up;
every hero's token in their room, their hand, equipment and damage beside the table.  The
rooms the active hero can step into are tapped to move (one step a tap: moves split freely);
everything else the engine accepts now is offered as a button or a small form (fights with
both sides' dice or sheetgen's, trades, room moves by a power, a monster's power and the Boss's
flip when due).  Steps are the tracker's (tracker.ADAPTER) and judged by rules.RULES; nothing
the engine refuses is offered.

Where the rules text is silent (it names no end of the game), the page calls the game over
when a hero stands in the Boss room once it is face up.
"""
from __future__ import annotations

from typing import Any, Mapping

from sheetgen.games.base import GamePage, PageView, Told
from sheetgen.draw.model import Circle, Document, Group, Page, Rect, Style, Text
from ..grid import DIR_NAMES, DIRS
from . import notation
from .actions import Build, Burn, Draw, Eat, EndTurn, Equip, LevelUp, Move, PlaceMonster, Power, Shrine, Ward
from .rules import RULES, fight_dice
from .tracker import ADAPTER

CELL = 30.0                     # mm per table cell
HERO_COLOURS = ("#1f6fb2", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17808a")
AREA = Style(stroke=None, fill="#f3b6b0")
MONSTER = Style(stroke="#7a1f1f", stroke_width=0.5, fill="#f6dede")
BOSS_DOWN = Style(stroke="#2d2a33", stroke_width=0.5, fill="#4a3a55")
HERE = Style(stroke="#d0342c", stroke_width=1.2, fill=None)
EMPTY = Style(stroke="#c9c2b0", stroke_width=0.25, fill=None, dash=(1.0, 1.0))
ORDER = ("N", "E", "S", "W")


# the tiles drawn lately, by all they show (ShufflePage._table): each kept as the same object
TILES: dict = {}
TILES_KEPT = 2048


class Sheet:
    """No printed sheet: the table is drawn whole on every page (it moves)."""
    __slots__ = ("doc", "rects", "crop")

    def __init__(self) -> None:
        self.doc = Document([Page(10.0, 10.0, [], name="table")], title="table")
        self.rects: dict = {}
        self.crop = (0.0, 0.0, 10.0, 10.0)


def heroes_of(header: dict) -> list[str]:
    return [h["name"] for h in header["setup"]["heroes"]]


def next_hero(header: dict, current: str) -> str:
    names = heroes_of(header)
    return names[(names.index(current) + 1) % len(names)] if current in names else names[0]


def colour(header: dict, name: str) -> str:
    names = heroes_of(header)
    return HERO_COLOURS[names.index(name) % len(HERO_COLOURS)] if name in names else "#444444"


def over(st: Any) -> bool:
    """A hero stands in the face-up Boss room (the page's end of the game)."""
    boss = [c for c, t in st.tiles.items() if t.kind == "boss" and t.face_up]
    return any(h.at in boss for h in st.heroes.values())


class ShufflePage(GamePage):
    ruleset = "shuffle"
    tracker = ADAPTER
    # the server passes view() the state before the last step (it keeps it): the "last step" box
    # then replays nothing
    takes_before = True
    told_apart = True               # its view does not hang on the step told (cards_news.html)

    def seats(self, header: dict) -> list[str]:
        """The players, each joining from their own phone."""
        return heroes_of(header)

    def sheet_key(self, header: dict) -> tuple:
        return ("shuffle",)

    def sheet(self, header: dict) -> Sheet:
        return Sheet()

    def print_document(self, header: dict, sheet: Any = None) -> Document:
        from sheetgen.draw.options import BuildOptions
        from .sheets import deck_document
        from .tracker import load_deck
        return deck_document(load_deck(header["deck"]), BuildOptions())

    def pencil_document(self, header: dict, steps: list) -> Document:
        """The table as it lies now (to keep, or to lay the cards by)."""
        ts = ADAPTER.replay(header, steps)
        items, box = self._table(header, ts)
        x0, y0, w, h = box
        return Document([Page(w, h, [Group(tuple(items), transform=(1, 0, 0, 1, -x0, -y0))], name="table")],
                        title="Shuffle Dungeons table (as played)")

    # -- drawing ---------------------------------------------------------------------------
    def _box(self, st: Any) -> tuple[float, float, float, float]:
        xs = [c[0] for c in st.tiles] or [0]
        ys = [c[1] for c in st.tiles] or [0]
        m = 0.4                 # a margin (in cells) around the tiles: the tiles large on a phone
        x0, y0 = (min(xs) - m) * CELL, (min(ys) - m) * CELL
        return x0, y0, (max(xs) - min(xs) + 1 + 2 * m) * CELL, (max(ys) - min(ys) + 1 + 2 * m) * CELL

    def _table(self, header: dict, ts: Any) -> tuple[list, tuple[float, float, float, float]]:
        from .sheets import card_icon
        st = ts.state
        deck = ts.deck
        items: list = []
        box = self._box(st)
        x0, y0, w, h = box
        items.append(Rect(x0, y0, w, h, Style(stroke=None, fill="#fbf8f1"), cls="felt"))
        for (cx, cy), t in st.tiles.items():
            if t.kind == "monster":
                for ax, ay in st.monster_area((cx, cy)):
                    if (ax, ay) != (cx, cy):
                        items.append(Rect(ax * CELL + 1, ay * CELL + 1, CELL - 2, CELL - 2, AREA, radius=2,
                                          cls="monster-area"))
        for (cx, cy), t in sorted(st.tiles.items()):
            card = deck.card(t.card)
            name = getattr(card, "title", None) or t.card
            # a tile drawn before just so is that same object again: the SVG writer gives its text
            # back without drawing or hashing it (most tiles do not change from one step to the next)
            if t.kind == "monster":
                spec = st.catalog.monsters[t.card]
                looks: tuple = (spec.attack, spec.dice, spec.hp, card_icon(card, "monster") if card is not None else None)
            elif t.kind == "boss" and not t.face_up:
                looks = ()
            else:
                spec = st.room_spec((cx, cy))
                looks = (tuple(sorted(p.lower() for p in st.paths((cx, cy)))),
                         None if spec is None else (spec.type, spec.challenge))
            key = (cx, cy, t.card, t.kind, t.face_up, t.damage, name, looks)
            group = TILES.get(key)
            if group is None:
                group = self._tile(st, t, cx, cy, card, name)
                if len(TILES) > TILES_KEPT:
                    TILES.clear()
                TILES[key] = group
            items.append(group)
        here = st.heroes[st.active].at if st.active in st.heroes else None
        by_cell: dict = {}
        for name in heroes_of(header):
            hero = st.heroes.get(name)
            if hero is not None:
                by_cell.setdefault(hero.at, []).append(name)
        for (cx, cy), names in by_cell.items():
            for i, name in enumerate(names):
                hx = cx * CELL + 6 + (i % 2) * 18
                hy = cy * CELL + 9 + (i // 2) * 10
                ring = Style(stroke="#000000" if name == st.active else "#ffffff",
                             stroke_width=0.8 if name == st.active else 0.4, fill=colour(header, name))
                items.append(Group((Circle(hx, hy, 3.6, ring),
                                    Text(hx, hy + 1.6, name[:1].upper(), size=10, font="sans-bold", anchor="middle",
                                         fill="#ffffff")), id=f"hero-{_ident(name)}", cls="hero"))
        if here is not None:
            items.append(Rect(here[0] * CELL + 0.4, here[1] * CELL + 0.4, CELL - 0.8, CELL - 0.8, HERE, radius=2,
                              id="here", cls="hl here"))
        return items, box

    def _tile(self, st: Any, t: Any, cx: int, cy: int, card: Any, name: str) -> Group:
        """One tile on the table: a monster, the face-down Boss, a room (its paths, its label)."""
        from sheetgen.draw.icons import icon
        from .sheets import room_art, card_icon
        x, y = cx * CELL, cy * CELL
        cid = f"{cx}_{cy}".replace("-", "m")
        parts: list
        if t.kind == "monster":
            spec = st.catalog.monsters[t.card]
            parts = [Rect(x + 0.8, y + 0.8, CELL - 1.6, CELL - 1.6, MONSTER, radius=2),
                     icon(card_icon(card, "monster") if card is not None else "monster", x + CELL / 2 - 6,
                          y + 3.5, 12.0, colour=True),
                     Text(x + CELL / 2, y + 20.5, name[:18], size=6.5, font="condensed-bold", anchor="middle",
                          fill="#5a1010"),
                     Text(x + CELL / 2, y + 26.5, f"atk {spec.attack} · {spec.dice}d6 · HP {spec.hp - t.damage}/"
                          f"{spec.hp}", size=6.0, font="condensed", anchor="middle", fill="#5a1010")]
        elif t.kind == "boss" and not t.face_up:
            parts = [Rect(x + 0.8, y + 0.8, CELL - 1.6, CELL - 1.6, BOSS_DOWN, radius=2),
                     Text(x + CELL / 2, y + CELL / 2 - 1, "BOSS", size=9, font="serif-bold", anchor="middle",
                          fill="#e0c98f"),
                     Text(x + CELL / 2, y + CELL / 2 + 5, "face down", size=6, font="sans", anchor="middle",
                          fill="#e0c98f")]
        else:
            paths = sorted(p.lower() for p in st.paths((cx, cy)))
            art = room_art(paths, x + 1, y + 1, CELL - 2, False, f"{t.card}-{cid}")
            label = name[:18] + (" (slain)" if t.kind == "slain" else "")
            parts = [art, Rect(x + 2, y + CELL - 8.5, CELL - 4, 6, Style(stroke=None, fill="#ffffff"), radius=1),
                     Text(x + CELL / 2, y + CELL - 4.2, label, size=6.0, font="condensed-bold", anchor="middle",
                          fill="#222222")]
            spec = st.room_spec((cx, cy))
            if t.kind == "boss":
                parts.append(Text(x + CELL / 2, y + 6, "BOSS", size=7, font="serif-bold", anchor="middle",
                                  fill="#5b2a6b"))
            elif spec is not None and spec.type != "room":
                extra = f" {spec.challenge}+" if spec.type == "trap" else ""
                parts.append(Text(x + CELL / 2, y + 6, spec.type.upper() + extra, size=6.5,
                                  font="condensed-bold", anchor="middle", fill="#5a4a20"))
        return Group(tuple(parts), id=f"tile-{cid}", cls=f"tile tile-{t.kind}")

    # -- the game now -----------------------------------------------------------------------
    def view(self, header: dict, steps: list, sheet: Sheet, told: Told | None = None, pending: Any = None,
             state: Any = None, game: Any = None, before: Any = None) -> PageView:
        ts = ADAPTER.replay(header, steps) if state is None else state
        st = ts.state
        items, box = self._table(header, ts)
        x0, y0, w, h = box
        # the page's SVG starts at 0, 0: the table (cells may be negative) moved there
        overlay = Document([Page(w, h, [Group(tuple(items), transform=(1, 0, 0, 1, -x0, -y0), id="table",
                                              cls="table")])])
        h_ = st.heroes[st.active]
        done = over(st)
        targets: list = []
        actions: list = []
        forms: dict = {}
        legal = [] if done else list(RULES.legal_actions(st))

        def ok(action: Any) -> bool:
            return not RULES.step(st, action).violations

        def add(kind: str, label: str, action: Any = None, step: Any = None) -> None:
            actions.append({"kind": kind, "label": label, "step": step if step is not None else
                            notation.serialize(action)})
        builds: list = []
        for a in legal:
            if isinstance(a, Move):
                d = a.dirs[0]
                cell = (h_.at[0] + DIRS[d][0], h_.at[1] + DIRS[d][1])
                label = f"move {DIR_NAMES[d]} ({h_.steps + 1} of {st.hero_stat(h_, 'speed')})"
                targets.append({"id": f"go-{DIR_NAMES[d]}", "box": (cell[0] * CELL - x0, cell[1] * CELL - y0, CELL, CELL),
                                "step": notation.serialize(a), "label": label, "die": False})
                add("move", label, a)
            elif isinstance(a, Draw):
                add("draw", f"draw {len(st.paths(h_.at))} card(s): one per open path", a)
            elif isinstance(a, PlaceMonster):
                add("monster", f"play the {_name(ts, a.monster)} face up to the {DIR_NAMES[a.path]}", a)
            elif isinstance(a, Build):
                assert a.path is not None           # legal_actions builds on an open path, never at a cell
                builds.append({"label": f"{_name(ts, a.room)} to the {DIR_NAMES[a.path]}, turned {a.turns * 90}°",
                               "step": notation.serialize(a)})
            elif isinstance(a, Equip):
                add("equip", f"equip the {_name(ts, a.item)}", a)
            elif isinstance(a, Eat):
                add("eat", f"eat the {_name(ts, a.snack)}", a)
            elif isinstance(a, Power):
                add("power", f"use the power of the {_name(ts, a.card)} (once per turn)", a)
            elif isinstance(a, Shrine):
                add("shrine", "use the Shrine's power (once per turn)", a)
            elif isinstance(a, Ward):
                add("ward", "activate the Ward", a)
        if builds:
            actions.append({"kind": "choices", "label": "build a room", "choices": builds})
        if not done:
            # snacks on any hero, even off-turn ("Can use snacks on other players even if not your turn")
            for giver in st.heroes.values():
                for card in dict.fromkeys(giver.hand):
                    spec = st.catalog.items.get(card)
                    if spec is None or spec.type != "snack":
                        continue
                    for target in st.heroes.values():
                        if target.name == giver.name and giver.name == st.active:
                            continue            # offered above
                        a = Eat(card, target.name if target.name != giver.name else None,
                                giver.name if giver.name != st.active else None)
                        if ok(a):
                            add("eat", f"{giver.name}: the {_name(ts, card)} for {target.name}", a)
            if h_.level_up_due:
                for name in h_.level_up_due:
                    if ok(LevelUp(name)):
                        add("level", f"{name} levels up (flip the hero card)", LevelUp(name))
            due = h_.power_due
            if due is not None and due[2] is not None:
                card, cell, (kind, n), room = due
                if kind == "loot":
                    add("power-due", f"the {_name(ts, card)}'s power: LOOT {n} card(s) into its pile",
                        step={"loot": n, "monster": card})
                elif kind == "burn":
                    add("power-due", f"the {_name(ts, card)}'s power: burn the top {n} pile card(s)",
                        step={"burn": {"top": n, "monster": card}})
                elif kind == "damage":
                    add("power-due", f"the {_name(ts, card)}'s power: {n} damage to {h_.name}",
                        step={"effect": {"damage": n}})
                elif kind == "shift":
                    for d in ORDER:
                        step = {"shift": {"room": list(room), "dir": DIR_NAMES[d], "via": card}}
                        if ok(notation.parse(step)):
                            add("power-due", f"the {_name(ts, card)}'s power: SHIFT {h_.name}'s room "
                                             f"{DIR_NAMES[d]}", step=step)
            if st.flip_due is not None:
                n, left = st.flip_due
                add("flip", f"the Boss's flip power: {n} damage to {', '.join(sorted(left))}",
                    step={"effect": {"damage": n, "target": sorted(left)}})
            if len(h_.hand) > 3:
                for card in dict.fromkeys(h_.hand):
                    add("burn", f"burn the {_name(ts, card)} (hand size 3)", Burn((card,)))
            fights = []
            if not h_.fought:
                for cell in st.monsters_threatening(h_.at):
                    t = st.tiles[cell]
                    nh, nm = fight_dice(st, st.active, cell)
                    spec = st.catalog.monsters[t.card]
                    helpers = [x.name for x in st.heroes.values() if x is not h_ and x.at in st.monster_area(cell)]
                    fights.append({"monster": t.card, "at": list(cell), "name": _name(ts, t.card),
                                   "hero_dice": nh, "monster_dice": nm, "assist": helpers,
                                   "hero_attack": st.hero_stat(h_, "attack"), "monster_attack": spec.attack,
                                   "hp": spec.hp - t.damage, "black": spec.black, "red": spec.red})
            forms["fights"] = fights
            partners = [x for x in st.heroes.values() if x is not h_ and x.at == h_.at]
            if partners and not h_.traded and not h_.fought:
                forms["trade"] = {"partners": [{"name": x.name, "hand": [(c, _name(ts, c)) for c in x.hand]}
                                               for x in partners],
                                  "hand": [(c, _name(ts, c)) for c in h_.hand]}
            if not h_.fought:
                via = [(c, _name(ts, c)) for c in dict.fromkeys((h_.spec.id, *h_.equipped.values(), *h_.hand))
                       if c not in h_.powers]
                spec = st.room_spec(h_.at)
                if spec is not None and spec.type == "shrine" and not h_.shrine:
                    via.append(("shrine", "the Shrine"))
                rooms = [(f"{c[0]},{c[1]}", f"{_name(ts, t.card)} at [{c[0]}, {c[1]}]")
                         for c, t in sorted(st.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0]))
                         if t.kind != "monster"]
                if via:
                    forms["rooms"] = {"via": via, "rooms": rooms,
                                      "heroes": [x.name for x in st.heroes.values()]}
            if h_.trap is not None:
                forms["trap"] = {"speed": st.hero_stat(h_, "speed"),
                                 "challenge": st.room_spec(h_.at).challenge if st.room_spec(h_.at) else 0}
            end = RULES.step(st, EndTurn())
            nxt = next_hero(header, st.active)
            if not end.violations:
                add("end", f"end the turn: {nxt}'s turn", step={"turn": nxt})
            else:
                forms["before_end"] = [v.message for v in end.violations if not v.consequence]
        heroes = []
        for name in heroes_of(header):
            x = st.heroes[name]
            hp = st.hero_stat(x, "hp")
            heroes.append({"name": name, "colour": colour(header, name), "current": name == st.active,
                           "where": f"[{x.at[0]}, {x.at[1]}]",
                           "chips": [("HP", hp - x.damage), ("speed", st.hero_stat(x, "speed")),
                                     ("attack", st.hero_stat(x, "attack")), ("dice", st.hero_stat(x, "dice"))],
                           "gear": [f"{slot}: {_name(ts, c)}" for slot, c in sorted(x.equipped.items())]
                           + [f"hand: {', '.join(_name(ts, c) for c in x.hand) or 'empty'}"],
                           "hero": _name(ts, x.spec.id) + (" (levelled)" if x.leveled else ""),
                           "moves": f"{x.steps}/{st.hero_stat(x, 'speed')}" if name == st.active else None})
        hint = ("A hero stands in the Boss room: the game is over." if done else
                f"{st.active} must roll for the trap first." if h_.trap is not None else
                f"{st.active}'s turn is over after the fight: its aftermath, then end the turn." if h_.fought else
                f"{st.active}'s turn: tap a ringed room to step there (moves split freely).")
        last = None
        if steps:
            # what the last step did, for every phone (the one who acted is told it too)
            if before is None:
                before = ADAPTER.replay(header, steps[:-1])
            last = {"by": before.state.active, "lines": ADAPTER.narrate(before, ts, steps[-1]) or ["(nothing changed on the table)"]}
        return {
            "last": last,
            "template": "cards.html", "game": "shuffle", "sheet_image": False,
            "overlay": overlay, "crop": (0.0, 0.0, w, h), "focus": None, "page": (w, h),
            "targets": targets, "actions": actions, "fight": forms.get("fights") or None, "forms": forms,
            "status": ADAPTER.status(ts).splitlines()[1:],
            "resources": [("HP", st.hero_stat(h_, "hp") - h_.damage, st.hero_stat(h_, "hp")),
                          ("moves", h_.steps, st.hero_stat(h_, "speed")), ("hand", len(h_.hand), 3),
                          ("pile", len(st.pile) if st.pile is not None else 0, None)],
            "phase": "over" if done else ("fought" if h_.fought else "turn"), "over": done,
            "position": f"[{h_.at[0]}, {h_.at[1]}]", "turn": st.active, "players": heroes, "hint": hint,
        }

    def step_from_form(self, kind: str, form: Mapping[str, str]) -> dict | str | None:
        """The step of a panel's form: a fight, a trap roll, a trade, a room moved by a power."""
        if kind == "fight":
            f: dict = {"monster": str(form.get("monster") or "")[:40]}
            if form.get("at"):
                f = {"at": _cell(form.get("at"))}
            for side in ("hero", "monster"):
                dice = [_die(v) for v in str(form.get(f"{side}_dice") or "").replace(",", " ").split()][:12]
                if dice:
                    f[f"{side}-dice"] = dice
            return {"fight": f}
        if kind == "trap":
            v = form.get("roll")
            return {"trap": {"roll": _die(v)}} if v not in (None, "", "roll") else {"trap": {}}
        if kind == "trade":
            give = [k[5:] for k in form if k.startswith("give.")][:6]
            take = [k[5:] for k in form if k.startswith("take.")][:6]
            return {"trade": {"with": str(form.get("with") or "")[:40], "give": give, "take": take, "agreed": True}}
        if kind == "rooms":
            verb = form.get("verb")
            via = str(form.get("via") or "")[:40] or None
            room = _cell(form.get("room"))
            if verb in ("shift", "slide") and form.get("hero") and verb == "slide":
                return {"slide": {"hero": str(form.get("hero"))[:40], "dir": str(form.get("dir") or "")[:8],
                                  "via": via}}
            if verb in ("shift", "slide"):
                return {verb: {"room": room, "dir": str(form.get("dir") or "")[:8], "via": via}}
            if verb == "twist":
                return {"twist": {"room": room, "rotation": _die(form.get("rotation")), "via": via}}
            if verb == "swap":
                return {"swap": {"rooms": [room, _cell(form.get("other"))], "via": via}}
            return {str(verb or "nothing")[:20]: {}}
        return None


def _cell(value: Any) -> list:
    try:
        x, y = str(value).split(",")
        return [int(x), int(y)]
    except ValueError:
        return [0, 0]


def _die(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _name(ts: Any, cid: str) -> str:
    card = ts.deck.card(cid)
    return getattr(card, "title", None) or cid


def _ident(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower())


PAGE = ShufflePage()
