"""The Dungeon Foury board: pure geometry and vocabulary, no I/O.

Cells are (column, row), 0-based; their names are A1 (top left) .. E5.
Sides are N, E, S, W.  A wall is stored once, under a canonical key
(the cell and side with N or W; the cell beyond for S and E), so B3:E and
C3:W are the same wall.  Events are parsed into structured Event tuples.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from string import ascii_uppercase

from .tables import DIE_TABLE, DieFace

SIDES = ("N", "E", "S", "W")
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
# facing a direction, which compass side is on your right / left
RIGHT_OF = {"N": "E", "E": "S", "S": "W", "W": "N"}
LEFT_OF = {v: k for k, v in RIGHT_OF.items()}
RELATIVE = ("front", "behind", "left", "right")

ENEMIES = ("goblin", "orc", "imp", "bandit", "troll", "minotaur", "yeti", "grinch", "kraken")
ITEMS = (
    "chest", "potion", "yellow potion", "purple potion", "shovel", "weapon", "shield", "clover",
    "cornucopia", "die", "magic circle", "stairs", "lever", "statue",
    *ENEMIES,
    "monster", "star", "hourglass", "green package", "blue package", "reindeer", "rudolph", "sleigh",
    "candy cane", "flooded",
)
REQUIREMENT_KINDS = ("statues", "kills", "levers", "cornucopias")
CENTRE = "O"
ROCK = "#"

Coord = tuple[int, int]


def cell_name(c: Coord) -> str:
    return f"{ascii_uppercase[c[0]]}{c[1] + 1}"


def parse_cell(text: str) -> Coord:
    """'C4' -> (2, 3); raises ValueError."""
    t = str(text).strip().upper()
    if len(t) < 2 or t[0] not in ascii_uppercase or not t[1:].isdigit() or int(t[1:]) < 1:
        raise ValueError(f"'{text}' is not a cell name like C4 (column letter, row number from 1)")
    return (ascii_uppercase.index(t[0]), int(t[1:]) - 1)


def parse_cell_side(text: str) -> tuple[Coord, str]:
    """'B3:E' -> ((1, 2), 'E'); raises ValueError."""
    t = str(text).strip()
    if ":" not in t:
        raise ValueError(f"'{text}' is not CELL:SIDE like B3:E")
    cell, side = t.split(":", 1)
    side = side.strip().upper()
    if side not in SIDES:
        raise ValueError(f"'{side}' in '{text}' is not a side (N, E, S or W)")
    return parse_cell(cell), side


def neighbour(c: Coord, side: str) -> Coord:
    dx, dy = DELTA[side]
    return (c[0] + dx, c[1] + dy)


def wall_key(c: Coord, side: str) -> tuple[Coord, str]:
    """Canonical key of the wall on side of c (the same for both cells it separates)."""
    if side in ("S", "E"):
        return neighbour(c, side), OPPOSITE[side]
    return c, side


def direction(a: Coord, b: Coord) -> str | None:
    """The side of a that b lies on, if b is orthogonally adjacent."""
    for side, (dx, dy) in DELTA.items():
        if (a[0] + dx, a[1] + dy) == b:
            return side
    return None


def relative_side(facing: str, rel: str) -> str:
    """Compass side for front/behind/left/right when moving towards facing."""
    return {"front": facing, "behind": OPPOSITE[facing],
            "left": LEFT_OF[facing], "right": RIGHT_OF[facing]}[rel]


@dataclass(frozen=True)
class Event:
    """One part of a d6 event: kind is monster, collapse, collapse origin,
    flood origin, chest, extra step or find."""
    kind: str
    sides: tuple[str, ...] = ()         # for collapse: front/behind/left/right
    enemy: str | None = None            # for monster: the enemy type, if named
    item: str | None = None             # for find: the item found

    def text(self) -> str:
        if self.kind == "collapse":
            return "collapse " + " ".join(self.sides)
        if self.kind == "monster" and self.enemy:
            return f"monster {self.enemy}"
        if self.kind == "find":
            return f"find {self.item}"
        return self.kind


def parse_event(text: str) -> tuple[Event, ...]:
    """'collapse behind + monster' -> (Event('collapse', ('behind',)), Event('monster'))."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("an event such as 'monster', 'collapse left front' or 'chest'")
    parts = [p.strip().lower() for p in text.split("+")]
    out = []
    for part in parts:
        words = part.split()
        if not words:
            raise ValueError(f"empty part in event '{text}'")
        head = words[0]
        if part in ("collapse origin", "flood origin", "chest", "extra step"):
            out.append(Event(part))
        elif head == "collapse":
            sides = tuple(words[1:])
            bad = [s for s in sides if s not in RELATIVE]
            if not sides or bad:
                raise ValueError(f"'{part}': collapse takes sides among front, behind, left, right"
                                 + (f" (not {', '.join(bad)})" if bad else ""))
            if len(set(sides)) != len(sides):
                raise ValueError(f"'{part}': a side is named twice")
            out.append(Event("collapse", sides))
        elif head == "monster":
            enemy = " ".join(words[1:]) or None
            if enemy is not None and enemy not in ENEMIES:
                raise ValueError(f"'{part}': unknown enemy '{enemy}' (one of {', '.join(ENEMIES)})")
            out.append(Event("monster", enemy=enemy))
        elif head == "find":
            item = " ".join(words[1:])
            if item not in ITEMS:
                raise ValueError(f"'{part}': unknown item '{item}' (one of {', '.join(ITEMS)})")
            out.append(Event("find", item=item))
        else:
            raise ValueError(f"unknown event '{part}' (monster [ENEMY], collapse SIDES, collapse origin, "
                             "flood origin, chest, extra step, find ITEM; join with +)")
    return tuple(out)


@dataclass(frozen=True)
class Zone:
    letter: str
    name: str
    requirement_kind: str | None        # statues | kills | levers | cornucopias
    requirement_count: int
    events: dict[int, tuple[Event, ...]]  # 1..6


@dataclass(frozen=True)
class Board:
    """A Foury map as the rules see it."""
    title: str
    columns: int
    rows: int
    cells: dict[Coord, str]             # zone letter, 'O' (centre) or '#' (rock)
    zones: dict[str, Zone]
    entries: tuple[tuple[Coord, str], ...]
    walls: frozenset[tuple[Coord, str]]  # canonical keys (see wall_key)
    items: dict[Coord, tuple[str, ...]] = field(default_factory=dict)
    campaign: str = "ancient"           # ancient | slaughter | santa | strength | kraken
    start: Coord | None = None          # start cell for campaigns without entries
    flooded: frozenset[Coord] = frozenset()   # water already on the map (Kraken)
    turns: int | None = None            # hourglass boxes (Santa, Kraken); None = untimed
    max_enemies: int | None = None      # Slaughter: the most enemies that can be met (48)
    safe_zone: str | None = None        # Santa: the zone letter of the XMas Safe Zone
    hero_extras: bool = True            # whether the sheet shades the beige hero extra boxes
    # the die item's table: the map's `die_table:`, else ours (printed, applied, rolled: one object)
    die_table: dict[int, DieFace] = field(default_factory=lambda: DIE_TABLE)

    def on_board(self, c: Coord) -> bool:
        return 0 <= c[0] < self.columns and 0 <= c[1] < self.rows

    def zone_of(self, c: Coord) -> str | None:
        sym = self.cells.get(c)
        return sym if sym in self.zones else None

    def is_centre(self, c: Coord) -> bool:
        return self.cells.get(c) == CENTRE

    def is_rock(self, c: Coord) -> bool:
        return self.cells.get(c, ROCK) == ROCK

    def has_printed_wall(self, c: Coord, side: str) -> bool:
        """A wall printed on the map, or the map edge (edges are walls except at entries)."""
        if wall_key(c, side) in self.walls:
            return True
        n = neighbour(c, side)
        if not self.on_board(n):
            return (c, side) not in self.entries
        return False

    def centre_cells(self) -> list[Coord]:
        return [c for c, s in self.cells.items() if s == CENTRE]

    # -- helpers (added for the map lint and the rules engine; pure) --------
    def all_cells(self) -> list[Coord]:
        """Every cell in reading order (row by row, left to right)."""
        return [(x, y) for y in range(self.rows) for x in range(self.columns)]

    def zone_cells(self, letter: str) -> list[Coord]:
        return [c for c in self.all_cells() if self.cells.get(c) == letter]

    def items_at(self, c: Coord) -> tuple[str, ...]:
        return self.items.get(c, ())

    def entry_zone(self, entry: tuple[Coord, str]) -> str | None:
        return self.zone_of(entry[0])

    def open_on_blank_map(self, c: Coord, side: str) -> bool:
        """Can one step from c through side on the printed map (no wall, no edge, no rock)?"""
        n = neighbour(c, side)
        return (self.on_board(n) and wall_key(c, side) not in self.walls
                and not self.is_rock(n) and not self.is_rock(c))

    def open_neighbours(self, c: Coord) -> list[Coord]:
        return [neighbour(c, s) for s in SIDES if self.open_on_blank_map(c, s)]

    def reachable_from(self, starts) -> set[Coord]:
        """Cells reachable from starts through passages open on the blank map."""
        seen = {c for c in starts if self.on_board(c) and not self.is_rock(c)}
        todo = list(seen)
        while todo:
            c = todo.pop()
            for n in self.open_neighbours(c):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def is_flooded(self, c: Coord) -> bool:
        """Water printed on the map: the flooded list or a 'flooded' item."""
        return c in self.flooded or "flooded" in self.items.get(c, ())
