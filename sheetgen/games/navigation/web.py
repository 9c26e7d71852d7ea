"""The card-grid navigation adapter of the companion page (`sheetgen play --ruleset navigation`): `PAGE`.

The dungeon as the table shows it: the printed dungeon sheet (sheets.dungeon_document, the room
cards drawn by the same room_card as the printed deck), with every player's token on their room,
the navigation tokens over resolved action symbols, and the rooms the player whose turn it is can
reach tapped to move there.  The actions offered are the engine's legal actions
(rules.legal_actions) only; steps are the tracker's (tracker.ADAPTER), so the page, `sheetgen
track` and `sheetgen check` read the same journal.

Where the rules text is silent (it names no end of the game), the page calls the game over when
every action symbol of the dungeon carries a navigation token: the dungeon is cleared.
"""
from __future__ import annotations

from typing import Any, Mapping

from sheetgen.games.base import GamePage, PageView, Told
from sheetgen.draw.model import Circle, Document, Group, Page, Polygon, Rect, Style, Text, walk
from ..grid import DIR_NAMES
from . import notation
from .actions import Mirror, Move, Pay, PlaceToken, Resolve, Unresolve, Warp, Wrap
from .rules import RULES
from .tables import ITEM_NAMES, MAGIC_MIRROR, SPEED_BOOTS
from .tracker import ADAPTER, load_dungeon

PLAYER_COLOURS = ("#1f6fb2", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17808a")
HERE = Style(stroke="#d0342c", stroke_width=1.4, fill=None)
TOKEN = Style(stroke="#ffffff", stroke_width=0.3, fill="#2e8b57")
TICK = Style(stroke="#ffffff", stroke_width=0.9, cap="round", join="round")
# the order a room reached several ways is offered in: the cheapest first
_PREFER = (Move, Wrap, Warp, Mirror)


class Sheet:
    __slots__ = ("doc", "rects", "crop", "dungeon")

    def __init__(self, doc: Document, rects: dict[tuple[int, int], tuple[float, float, float, float]],
                 crop: tuple[float, float, float, float], dungeon: Any) -> None:
        self.doc, self.rects, self.crop, self.dungeon = doc, rects, crop, dungeon


def players_of(header: dict) -> list[str]:
    return [p["name"] for p in header.get("players", ())]


def next_player(header: dict, current: str) -> str:
    names = players_of(header)
    return names[(names.index(current) + 1) % len(names)] if current in names else names[0]


def colour(header: dict, name: str) -> str:
    names = players_of(header)
    return PLAYER_COLOURS[names.index(name) % len(PLAYER_COLOURS)] if name in names else "#444444"


class NavigationPage(GamePage):
    ruleset = "navigation"
    tracker = ADAPTER
    # the server passes view() the state before the last step (it keeps it): the "last step" box
    # then replays nothing
    takes_before = True
    told_apart = True               # its view does not hang on the step told (cards_news.html)

    def seats(self, header: dict) -> list[str]:
        """The players, each joining from their own phone."""
        return players_of(header)

    def sheet_key(self, header: dict) -> tuple:
        import os
        ref = header["dungeon"]
        try:
            stamp = os.stat(ref).st_mtime_ns
        except OSError:
            stamp = None
        return ("navigation", ref, stamp)

    def _printed(self, header: dict) -> tuple[Document, Any]:
        from sheetgen.draw.options import BuildOptions
        from .sheets import dungeon_document
        dungeon = load_dungeon(header["dungeon"])
        return dungeon_document(dungeon, BuildOptions()), dungeon

    def sheet(self, header: dict) -> Sheet:
        doc, dungeon = self._printed(header)
        page = doc.pages[0]
        rects: dict[tuple[int, int], tuple[float, float, float, float]] = {}
        for item, _ in walk(page.items):
            if isinstance(item, Rect) and item.id and item.id.startswith("cell-"):
                c, r = item.id[5:].split("-")
                rects[(int(c), int(r))] = (item.x, item.y, item.w, item.h)
        xs = [x for x, _, _, _ in rects.values()]
        ys = [y for _, y, _, _ in rects.values()]
        w, h = next(iter(rects.values()))[2:]
        crop = (min(xs) - 6, min(ys) - 8, max(xs) + w - min(xs) + 12, max(ys) + h - min(ys) + 14)
        return Sheet(doc, rects, crop, dungeon)

    def print_document(self, header: dict, sheet: Any = None) -> Document:
        return self._printed(header)[0]

    def pencil_document(self, header: dict, steps: list) -> Document:
        """The dungeon sheet with the tokens and the players where the game has them."""
        sheet = self.sheet(header)
        state = ADAPTER.replay(header, steps)
        page = sheet.doc.pages[0]
        marks = self._marks(header, sheet, state)
        return Document([Page(page.width, page.height, list(page.items) + marks)], title="dungeon (as played)")

    # -- drawing ---------------------------------------------------------------------------
    def _room_rect(self, sheet: Sheet, room: str) -> tuple[float, float, float, float] | None:
        return sheet.rects.get(sheet.dungeon.pos.get(room)) if room in sheet.dungeon.pos else None

    def _marks(self, header: dict, sheet: Sheet, ts: Any) -> list:
        st = ts.state
        marks: list = []
        for room, done in sorted(st.tokens.items()):
            r = self._room_rect(sheet, room)
            card = st.dungeon.rooms[room]
            if r is None or not done:
                continue
            x, y, w, h = r
            k = w / 63.0                    # the card's scale on the sheet (cards are 63 mm wide)
            n = len(card.functions)
            for i, f in enumerate(card.functions):
                if f not in done:
                    continue
                # over the action symbol: the slots of sheets._actions, 20 mm wide, 3 mm apart
                sx = x + w / 2 + k * (-(n * 20 + (n - 1) * 3) / 2 + i * 23 + 10)
                sy = y + k * 70.5
                rad = k * 6.5
                marks.append(Circle(sx, sy, rad, TOKEN, id=f"token-{room}-{i + 1}", cls="nav-token"))
                marks.append(Polygon(((sx - rad * 0.5, sy), (sx - rad * 0.12, sy + rad * 0.4),
                                      (sx + rad * 0.55, sy - rad * 0.4)), TICK, closed=False))
        for room in sorted(st.entered):
            r = self._room_rect(sheet, room)
            if r is not None and not st.tokens.get(room):
                x, y, w, h = r
                k = w / 63.0            # "entered, not resolved": the token elsewhere on the card
                marks.append(Circle(x + w - k * 7, y + k * 30, k * 4.5, TOKEN, id=f"entered-{room}",
                                    cls="nav-token entered"))
        by_room: dict = {}
        for name in players_of(header):
            p = st.players.get(name)
            if p is not None:
                by_room.setdefault(p.room, []).append(name)
        for room, names in by_room.items():
            r = self._room_rect(sheet, room)
            if r is None:
                continue
            x, y, w, h = r
            rad = w * 0.085
            for i, name in enumerate(names):
                cx = x + w * 0.16 + i * rad * 2.3
                cy = y + h * 0.5
                ring = Style(stroke="#000000" if name == st.current else "#ffffff",
                             stroke_width=0.7 if name == st.current else 0.4, fill=colour(header, name))
                marks.append(Group((Circle(cx, cy, rad, ring),
                                    Text(cx, cy + rad * 0.45, name[:1].upper(), size=rad * 3.2, font="sans-bold",
                                         anchor="middle", fill="#ffffff")),
                                   id=f"player-{_ident(name)}", cls="player"))
        here = self._room_rect(sheet, st.players[st.current].room) if st.current in st.players else None
        if here is not None:
            marks.append(Rect(*here, HERE, radius=1.2, id="here", cls="hl here"))
        return marks

    # -- the game now -----------------------------------------------------------------------
    def view(self, header: dict, steps: list, sheet: Sheet, told: Told | None = None, pending: Any = None,
             state: Any = None, game: Any = None, before: Any = None) -> PageView:
        ts = ADAPTER.replay(header, steps) if state is None else state
        st = ts.state
        page = sheet.doc.pages[0]
        overlay = Document([Page(page.width, page.height, [Group(tuple(self._marks(header, sheet, ts)),
                                                                id="table", cls="table")])])
        p = st.players[ts.player]
        over = cleared(st)
        targets: list = []
        actions: list = []
        reached: dict = {}
        legal = [] if over else list(RULES.legal_actions(st))
        for a in legal:
            if isinstance(a, (Move, Wrap, Warp, Mirror)):
                after = RULES.step(st, a).state.players[ts.player]
                if after.room == p.room:
                    continue
                cost = [w for k, w in (("keys", "a key"), ("bombs", "a bomb"), ("hp", "1 HP"))
                        if getattr(after, k) < getattr(p, k)]
                how = {Move: f"move {DIR_NAMES.get(getattr(a, 'dir', ''), '')}",
                       Wrap: f"wrap travel {DIR_NAMES.get(getattr(a, 'dir', ''), '')}",
                       Warp: "warp", Mirror: "Magic Mirror"}[type(a)]
                label = f"{how} to {_title(st, after.room)}" + (f" (pays {', '.join(cost)})" if cost else "") \
                    + ("" if isinstance(a, Warp) else f", move {after.moves} of {after.move_limit}")
                entry = {"kind": "move", "label": label, "step": notation.serialize(a), "room": after.room,
                         "rank": _PREFER.index(type(a))}
                actions.append(entry)
                best = reached.get(after.room)
                if best is None or entry["rank"] < best["rank"]:
                    reached[after.room] = entry
            elif isinstance(a, Pay):
                words = {"key": f"use a key now ({p.keys} left): the next door",
                         "bomb": f"use a bomb now ({p.bombs} left): the next wall",
                         "hp": f"sacrifice 1 HP ({p.hp} left) in lieu of a key or bomb"}
                actions.append({"kind": "pay", "label": words[a.tool], "step": notation.serialize(a)})
            elif isinstance(a, Resolve):
                room = st.dungeon.rooms[p.room]
                hazard = " (the hazard: now)" if a.function in room.hazard else ""
                actions.append({"kind": "resolve", "label": f"resolve {a.function}{hazard}: place a token",
                                "step": {"resolve": {"function": a.function}}})
            elif isinstance(a, PlaceToken):
                room = st.dungeon.rooms[p.room]
                if set(room.functions) - set(st.tokens.get(p.room, ())):
                    actions.append({"kind": "token", "label": "leave it unresolved (a token elsewhere on the card)",
                                    "step": "place-token elsewhere"})
            elif isinstance(a, Unresolve):
                actions.append({"kind": "unresolve", "label": f"unresolve {_title(st, a.room)} (4 XP)",
                                "step": {"unresolve": a.room}})
        for room, entry in reached.items():
            r = self._room_rect(sheet, room)
            if r is not None:
                targets.append({"id": f"go-{room}", "box": r, "step": entry["step"], "label": entry["label"],
                                "die": False})
        if not over and not p.hazard:
            nxt = next_player(header, ts.player)
            actions.append({"kind": "end", "label": f"end the turn: {nxt}'s turn", "step": {"turn": nxt}})
        players = []
        for name in players_of(header):
            q = st.players[name]
            items = [ITEM_NAMES.get(i, i) for i in sorted(q.items)]
            players.append({"name": name, "colour": colour(header, name), "current": name == ts.player,
                            "where": _title(st, q.room),
                            "chips": [("HP", q.hp), ("keys", q.keys), ("bombs", q.bombs), ("XP", q.xp)],
                            "gear": items,
                            "moves": f"{q.moves}/{q.move_limit}" if name == ts.player else None})
        hint = ("The dungeon is cleared: every action symbol has its token." if over else
                f"{ts.player} must resolve the hazard in {_title(st, p.hazard)} first." if p.hazard else
                f"{ts.player}'s turn: tap a ringed room to move there.")
        last = None
        if steps:
            # what the last step did, for every phone (the one who acted is told it too)
            if before is None:
                before = ADAPTER.replay(header, steps[:-1])
            last = {"by": before.player, "lines": ADAPTER.narrate(before, ts, steps[-1]) or ["(nothing changed on the table)"]}
        return {
            "last": last,
            "template": "cards.html", "game": "navigation", "sheet_image": True,
            "overlay": overlay, "crop": sheet.crop, "focus": None, "page": (page.width, page.height),
            "targets": targets, "actions": actions,
            "fight": None, "status": ADAPTER.status(ts, None if over else legal).splitlines()[1:],
            "resources": [("HP", p.hp, None), ("keys", p.keys, None), ("bombs", p.bombs, None), ("XP", p.xp, None),
                          ("moves", p.moves, p.move_limit)],
            "phase": "over" if over else ("hazard" if p.hazard else "turn"), "over": over,
            "position": _title(st, p.room), "turn": ts.player, "players": players, "hint": hint,
            "book": None if over else {"player": ts.player,
                                       "items": [(k, ITEM_NAMES[k]) for k in (SPEED_BOOTS, MAGIC_MIRROR)]},
        }

    def step_from_form(self, kind: str, form: Mapping[str, str]) -> dict | str | None:
        """The bookkeeping form: gain or lose a resource or an item (a treasure's item, a monster's damage)."""
        if kind != "book":
            return None
        way = "lose" if form.get("way") == "lose" else "gain"
        what = str(form.get("what") or "")
        if what in ("speed-boots", "magic-mirror"):
            return {way: {"item": what}}
        if what not in ("hp", "keys", "bombs", "xp"):
            return {way: {what[:20] or "nothing": 1}}     # refused by the notation, with its message
        try:
            n = max(0, min(99, int(form.get("n") or 1)))
        except ValueError:
            n = 1
        return {way: {what: n}}


def cleared(st: Any) -> bool:
    """Every action symbol of the dungeon carries a navigation token (the page's end of the game)."""
    rooms = [r for r in st.dungeon.rooms.values() if r.functions]
    return bool(rooms) and all(set(r.functions) <= set(st.tokens.get(r.id, ())) for r in rooms)


def _title(st: Any, room: str | None) -> str:
    if room is None:
        return ""
    card = st.dungeon.rooms.get(room)
    return card.name if card is not None and card.name else str(room)


def _ident(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower())


PAGE = NavigationPage()
