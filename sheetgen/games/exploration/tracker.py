"""The Dungeon Exploration map-mode adapter of the journal (`sheetgen track`, `sheetgen play`): `ADAPTER`.

A game is map mode (mapmode.Explorer) played by a person: the journal keeps its decisions,
one step per room, and export writes the play log map mode writes (playlog.dump_log):

    {entrance: 4}                                               the entrance (d6; it rolls no contents:
                                                                it is not opened through a door)
    {open: "10,20:N", retrace_1: 4, tens: 3, units: 5, place: 2, contents_1: 6, contents_2: 5,
     escalation: 3}                                             a door opened: the d6 of each room walked
                                                                back through, the d66 (tens, units), the
                                                                placement chosen, the contents, the boss
                                                                escalation d6 on an 11

Every die is a d6 so a player can give each one as rolled; `place` numbers the
placements of the rolled shape that fit at the door (rotations, mirrors, stretches:
the least stretch that fits, as the rules say), 1 first; a shape that fits nowhere
is truncated (no choice).  The steps are replayed through the Explorer, so its
placement rules are the engine's (rules.fitting, rules.cuts).
"""
from __future__ import annotations

import random

from sheetgen.games.base import Illegal, TrackerAdapter
from .mapmode import Explorer
from .rules import fitting
from .shapes import OPPOSITE
from .tables import BOSS_ROLL

SIZE = (20, 28)


class _Due(Exception):
    """A die the step does not give yet (key, what it is for)."""

    def __init__(self, key: str, what: str):
        self.key, self.what = key, what


class _Choose(Exception):
    def __init__(self, candidates):
        self.candidates = candidates


class _StepDice:
    """The dice of one step, read by the Explorer in the order it rolls them."""

    def __init__(self, step: dict):
        self.step = step
        self.retraced = 0
        self.contents_total = None
        self.read: set[str] = set()         # the dice the Explorer asked for

    def _d6(self, key: str, what: str) -> int:
        self.read.add(key)
        v = self.step.get(key)
        if v is None:
            raise _Due(key, what)
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            raise Illegal(f"{key}: {v!r} is not a d6 result (1-6)")
        return v

    def d6(self, reason: str = "") -> int:
        if reason == "entrance room":
            return self._d6("entrance", "the d6 of the entrance room")
        if reason.startswith("retracing"):
            self.retraced += 1
            return self._d6(f"retrace_{self.retraced}", f"the d6 for {reason}")
        if reason == "boss escalation":
            return self._d6("escalation", "the boss escalation d6")
        raise Illegal(f"no die is rolled for {reason}")

    def two_d6(self, reason: str = "") -> int:
        total = self._d6("contents_1", "the first d6 of the room's contents (2d6)") + \
            self._d6("contents_2", "the second d6 of the room's contents (2d6)")
        self.contents_total = total
        return total

    def d66(self, reason: str = "") -> int:
        return 10 * self._d6("tens", "the d66 of the room shape: the tens die") + \
            self._d6("units", "the d66 of the room shape: the units die")


def placements(ex: Explorer, entry, fx: int, fy: int, side: str) -> list:
    """The placements of a rolled shape at a door: (variant, tx, ty) at the least stretch that fits."""
    for stretch_by in (0, 1, 2):
        found = list(fitting(ex.sheet, entry.variants(stretch_by), fx, fy, side))
        if found:
            return found
    return []


class PlayedExplorer(Explorer):
    """Map mode with the player's choices: the door of the step, the placement it names; in a
    game that asks (header search: ask), whether the empty room just placed is searched ("4.
    Search the room (optional, once per room) if it's empty after the encounter"), the retreat
    out of the entrance (a retrace d6 per room walked back through) and the party's death."""

    def __init__(self, *args, ask_search: bool = False, **kw):
        super().__init__(*args, **kw)
        self.place_choice = None
        self.ask_search = ask_search
        self.searching = False
        self.search_done: set[int] = set()      # rooms searched on the player's word
        self.retreat: list[tuple[int, int]] = []  # (room, d6) walking back out of the entrance

    def _search(self, room):
        if self.ask_search and not self.searching:
            return                              # the player says whether to search (may_search)
        super()._search(room)

    def may_search(self):
        """The room that may be searched now, or None: the room just placed, empty, searched not yet."""
        if not self.ask_search or not self.rooms or self.ended:
            return None
        room = self.rooms[-1]
        empty = room.die == "entrance" or (room.result is not None and room.result.category == "empty")
        return room if empty and room.id == self.here and room.id not in self.search_done else None

    def search_now(self):
        room = self.may_search()
        if room is None:
            raise Illegal("only the empty room just placed is searched, once (\"Search the room (optional, once "
                          "per room) if it's empty after the encounter\")")
        self.searching = True
        try:
            Explorer._search(self, room)
        finally:
            self.searching = False
        self.search_done.add(room.id)
        return room

    def retreat_out(self):
        """The party walks back to the entrance and out: a d6 per room entered on the way."""
        self.retreat = self.retrace_to(self.rooms[0].id)
        self.here = self.rooms[0].id
        self.ended = "retreat"

    def wandering(self) -> int:
        from .rules import is_wandering
        return super().wandering() + sum(1 for _, roll in self.retreat if is_wandering(roll))

    def _check_end(self) -> bool:
        going = super()._check_end()
        if self.ended == "no-doors" and self.may_search() is not None:
            self.ended = None               # the empty room may still be searched (a secret door)
            return True
        return going

    def _place(self, entry, fx, fy, side):
        found = placements(self, entry, fx, fy, side)
        if not found:
            return None
        if len(found) == 1 and self.place_choice is None:
            return found[0]
        if self.place_choice is None:
            raise _Choose(found)
        if not isinstance(self.place_choice, int) or not 1 <= self.place_choice <= len(found):
            raise Illegal(f"place: {self.place_choice!r} is not one of the {len(found)} placements (1-{len(found)})")
        return found[self.place_choice - 1]


class ExploreState:
    __slots__ = ("header", "ex", "steps")

    def __init__(self, header, ex, steps):
        self.header, self.ex, self.steps = header, ex, steps


def _tables(header: dict):
    from .formats import map_mode_tables
    return map_mode_tables(header.get("table", "builtin"), header.get("contents", "builtin"))


_TABLES: dict = {}


def _cached_tables(header: dict):
    key = (header.get("table", "builtin"), header.get("contents", "builtin"))
    if key not in _TABLES:
        _TABLES[key] = _tables(header)
    return _TABLES[key]


def _door(ex: Explorer, at: str):
    for room, door in ex.unexplored():
        if door.at == at:
            return room, door
    doors = ", ".join(d.at for _, d in ex.unexplored()) or "none"
    raise Illegal(f"no unexplored door at {at} (unexplored doors: {doors})")


def _run(ex: PlayedExplorer, step) -> None:
    """One step on EX (changed in place); _Due / _Choose / Illegal when it cannot be taken."""
    if not isinstance(step, dict):
        raise Illegal("an exploration step is a mapping like {open: '10,20:N', tens: 3, units: 4}")
    if ex.ended:
        raise Illegal(f"the dungeon has ended ({ex.ended})")
    dice = _StepDice(step)
    ex.dice = dice
    ex.place_choice = step.get("place")
    word = next((k for k in ("search", "retreat", "dead") if k in step), None)
    if word is not None:
        if not ex.rooms:
            raise Illegal("the entrance room comes first: {entrance: d6}")
        if not ex.ask_search and word == "search":
            raise Illegal("this game searches every empty room by itself (started before the search was asked)")
        others = sorted(k for k in step if k != word and not (word == "retreat" and k.startswith("retrace_")))
        if others:
            raise Illegal(f"{', '.join(others)}: not part of a {word} step")
        if word == "search":
            ex.search_now()
        elif word == "retreat":
            ex.retreat_out()
        else:
            ex.ended = "dead"
        unread = sorted(k for k in step if _is_die(k) and k not in dice.read)
        if unread:
            raise Illegal(f"{', '.join(unread)}: not rolled in this step")
        if word == "search":
            ex._check_end()
        return
    if not ex.rooms:
        if "open" in step:
            raise Illegal("the entrance room comes first: {entrance: d6}")
        ex.start()
    else:
        if "open" not in step:
            raise Illegal("open a door: {open: 'X,Y:SIDE', ...}")
        room, door = _door(ex, str(step["open"]))
        ex.open(room, door)
    last = ex.rooms[-1]
    if "escalation" in step and not (dice.contents_total == BOSS_ROLL and last.escalation):
        raise Illegal("no boss escalation is rolled here (only on a contents roll of 11 for a boss)")
    unread = sorted(k for k in step if _is_die(k) and k not in dice.read)
    if unread:
        # a die written but never rolled would be recorded and then silently dropped by the export
        why = (" (the entrance is not opened through a door: it rolls no contents)"
               if last.die == "entrance" and any(k.startswith("contents") for k in unread) else "")
        raise Illegal(f"{', '.join(unread)}: not rolled in this step{why}")
    ex._check_end()


def _is_die(key: str) -> bool:
    return key in ("entrance", "tens", "units", "contents_1", "contents_2", "escalation") or (
        key.startswith("retrace_") and key[len("retrace_"):].isdigit())


class ExplorationTracker(TrackerAdapter):
    """A map-mode dungeon in the journal: the tables and sheet in the header, one step per room."""

    needs_map = False               # --map names the d66 table: the built-in one when not given

    def start(self, params: dict) -> dict:
        table = params.get("map") or "builtin"
        # search: ask: the player says whether an empty room is searched (games started before: every one is)
        header = {"ruleset": "exploration", "table": table, "sheet": list(SIZE), "seed": 1, "search": "ask"}
        _tables(header)                      # a table that cannot be used is refused now
        return header

    def _new(self, header) -> PlayedExplorer:
        rooms, entrances, contents = _cached_tables(header)
        w, h = header.get("sheet", SIZE)
        return PlayedExplorer(rooms, entrances, contents, None, w, h, "first", None,
                              random.Random(int(header.get("seed", 1))), ask_search=header.get("search") == "ask")

    def replay(self, header: dict, steps: list) -> ExploreState:
        ex = self._new(header)
        for step in steps:
            try:
                _run(ex, step)
            except (_Due, _Choose, Illegal):
                break                       # recorded steps were legal: only a changed table stops here
        return ExploreState(header, ex, list(steps))

    def _trial(self, state: ExploreState, step):
        ex = self._new(state.header)
        for s in state.steps:
            _run(ex, s)
        _run(ex, step)
        return ex

    def dice_due(self, state: ExploreState, step) -> list:
        try:
            self._trial(state, step)
        except _Due as due:
            return [((due.key,), due.what)]
        except (_Choose, Illegal):
            return []
        return []

    def choices_due(self, state: ExploreState, step):
        """The placements to choose from when the step names none and more than one fits, else None."""
        try:
            self._trial(state, step)
        except _Choose as c:
            return c.candidates
        except (_Due, Illegal):
            return None
        return None

    def prepare(self, state: ExploreState, step, rng) -> dict:
        if not isinstance(step, dict):
            return step
        step = dict(step)
        for _ in range(64):
            due = self.dice_due(state, step)
            if not due:
                return step
            step[due[0][0][0]] = rng.randint(1, 6)
        return step

    def apply(self, state: ExploreState, step) -> ExploreState:
        try:
            ex = self._trial(state, step)
        except _Due as due:
            raise Illegal(f"a die is missing: {due.what} ({due.key})") from None
        except _Choose as c:
            raise Illegal(f"choose the placement: place 1 to {len(c.candidates)}") from None
        return ExploreState(state.header, ex, state.steps + [step])

    def narrate(self, before: ExploreState, after: ExploreState, step) -> list[str]:
        ex = after.ex
        if isinstance(step, dict) and "search" in step:
            room = ex.rooms[-1]
            found = [d.at for d in room.doors if d.secret]
            out = [f"you search room {room.id} (once): " + (
                f"a secret door comes to light at {_and(found)}: draw it as an unexplored door; write "
                f"'searched' beside room {room.id}" if found else
                f"nothing is found; write 'searched' beside room {room.id}")]
            if ex.ended:
                out.append(_END_WORDS.get(ex.ended, f"the dungeon ends ({ex.ended})"))
            return out
        if isinstance(step, dict) and "retreat" in step:
            out = []
            if ex.retreat:
                ambush = [rid for rid, r in ex.retreat if r == 1]
                out.append("walk back to the entrance: " + ", ".join(f"room {rid} d6 {r}" for rid, r in ex.retreat)
                           + (f"; wandering monsters strike the rear in room {ambush[0]}!" if ambush else ""))
            out.append("the party retreats out the entrance: the dungeon ends; survivors carry their treasure home "
                       "and roll XP")
            out.append(f"time: {ex.minutes} minutes, {len(ex.rooms)} rooms")
            return out
        if isinstance(step, dict) and "dead" in step:
            return [f"the party dies in room {ex.here}: the dungeon ends; lost characters are gone for good "
                    "(new ones at level 1 next adventure)", f"time: {ex.minutes} minutes, {len(ex.rooms)} rooms"]
        if len(ex.rooms) == len(before.ex.rooms):
            return []
        room = ex.rooms[-1]
        out = []
        ambush = [rid for rid, r in room.retrace if r == 1]
        if room.retrace:
            out.append("walk back: " + ", ".join(f"room {rid} d6 {r}" for rid, r in room.retrace)
                       + (f"; wandering monsters strike the rear in room {ambush[0]}!" if ambush else ""))
        where = "the entrance" if room.die == "entrance" else f"d66 {room.roll}"
        turn = (f", rotated {room.rotate}" if room.rotate else "") + (", mirrored" if room.mirror else "") + \
            (f", stretched {room.stretch}" if room.stretch else "")
        out.append(f"room {room.id} ({where}): {room.entry.name}, a {room.kind}{turn}"
                   + (" - truncated: a dead end" if room.truncated else ""))
        out.append(f"draw it on squares {_squares(room.cells)}; number it {room.id}")
        doors = [d for d in room.doors]
        if doors:
            out.append("doors: " + ", ".join(f"{d.at} {d.state}" for d in doors))
        result = room.result.label if room.result else "?"
        esc = f" (escalation {room.escalation[0]} + {room.escalation[1]} = {room.escalation[2]})" \
            if room.escalation else ""
        if room.contents_roll is None:
            out.append("no contents roll: the entrance is not opened through a door (empty; it may be searched)")
        else:
            out.append(f"contents 2d6 {room.contents_roll}: {result}{esc}"
                       + (f" - {room.result.text}" if room.result and room.result.text else ""))
            paper = _PAPER.get(room.result.category if room.result else "")
            if paper:
                out.append(paper.format(id=room.id))
        if ex.may_search() is room:
            out.append(f"room {room.id} is empty: you may search it, once (secret doors come to light)")
        out.append(f"time: {ex.minutes} minutes")
        if ex.ended:
            out.append(_END_WORDS.get(ex.ended, f"the dungeon ends ({ex.ended})"))
        return out

    def legal(self, state: ExploreState) -> list[tuple[dict, str]]:
        """The steps other than opening a door open now, with their words: search, retreat, death."""
        ex = state.ex
        if not ex.rooms or ex.ended:
            return []
        out = []
        room = ex.may_search()
        if room is not None:
            out.append(({"search": True}, f"search room {room.id} (once: it is empty)"))
        back = len(ex.path(ex.here, ex.rooms[0].id)) - 1 if ex.here != ex.rooms[0].id else 0
        out.append(({"retreat": True}, "retreat out the entrance" + (
            f" (walking back through {back} room{'s' if back != 1 else ''}: a d6 each)" if back else "")))
        out.append(({"dead": True}, "the party died: the dungeon ends"))
        return out

    def status(self, state: ExploreState) -> str:
        ex = state.ex
        lines = [f"Dungeon Exploration, table {state.header.get('table', 'builtin')}, sheet {ex.width}x{ex.height}",
                 f"{len(ex.rooms)} rooms, {ex.minutes} minutes, {ex.wandering()} wandering monster attack(s)"
                 + (f", ended: {ex.ended}" if ex.ended else "")]
        if not ex.rooms:
            lines.append("legal now: the entrance room (d6)")
        elif ex.ended:
            lines.append("legal now: nothing")
        else:
            lines.append(f"you are in room {ex.here}")
            lines.append("legal now: " + ", ".join([f"open {d.at} (room {r.id})" for r, d in ex.unexplored()]
                                                   + [words for _, words in self.legal(state)]))
        return "\n".join(lines)

    def export(self, header: dict, steps: list, relative_to=None) -> str:
        from .formats.playlog import dump_log
        ex = self.replay(header, steps).ex
        return dump_log(ex, seed=None, policy=None, table=header.get("table", "builtin"))

    def render(self, header: dict, steps: list, outdir, formats=("pdf", "svg", "png"), paper=None,
               grayscale=False) -> list:
        from sheetgen.draw.options import BuildOptions
        from sheetgen.render import render_document
        from .sheets import map_document
        ex = self.replay(header, steps).ex
        options = BuildOptions(paper=paper, grayscale=grayscale)
        return render_document(map_document(ex, options, title="Dungeon map (as played)", paper=paper or "a4"),
                               outdir, formats=formats)


_END_WORDS = {"final-boss": "the Final Boss: the dungeon ends",
              "no-doors": "no unexplored door left: the dungeon ends (the map has run out of room)"}
# what the paper records for each kind of contents (the rules: "3. Resolve the contents. Combat,
# trap save, treasure rolls - whatever applies"; the party's own sheets hold the rest)
_PAPER = {
    "monsters": "monsters: fight them with your party; write the monsters beside room {id}; if the party dies, "
                "the dungeon ends (the party died)",
    "boss": "a boss: fight it; write it beside room {id}",
    "traps": "a trap: roll the trap save; write the trap beside room {id} (it stays for a walk back)",
    "treasure": "treasure: roll on the treasure table; write what you find on the party's sheet",
    "special": "a special feature: resolve it as the table says; write it beside room {id}",
    "events": "an event: resolve it as the table says",
    "empty": "empty: nothing to fight",
}


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _squares(cells) -> str:
    cells = list(cells)
    if len(cells) <= 6:
        return " ".join(f"{x},{y}" for x, y in cells)
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return f"{len(cells)} squares from {min(xs)},{min(ys)} to {max(xs)},{max(ys)}"


def door_beyond(at: str):
    """'10,20:N' -> the square beyond that door and the side it is entered from."""
    xy, side = at.split(":")
    x, y = (int(v) for v in xy.split(","))
    from .shapes import DELTA
    dx, dy = DELTA[side]
    return (x + dx, y + dy), OPPOSITE[side]


ADAPTER = ExplorationTracker()
