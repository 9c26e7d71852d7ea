"""The game's data, once: the three tables a dungeon is rolled on (read by the rules, map
mode, the sheets and the simulator alike; formats.py loads them from the YAML files under
layouts/exploration/).

RoomTable: d66 (11-16 .. 61-66) -> room shape (a d6 entrance table: the same, keyed 1-6);
ContentsTable: 2d6 (2-12) -> a result for corridors and one for rooms, with the
boss escalation rule for 11 (the built-in table's house rule: +1 per earlier boss);
TreasureTable: d6 -> what a treasure result ("roll on the treasure table") holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..dice import D66_VALUES
from .shapes import Shape, default_stretch_line, mirror, orientations, rotate, stretch

CATEGORIES = ("monsters", "traps", "treasure", "special", "empty", "events", "boss")
CONTENTS_ROLLS = tuple(range(2, 13))
TREASURE_ROLLS = tuple(range(1, 7))
BOSS_ROLL = 11
FINAL_BOSS = "final-boss"
BOSS = "boss"


@dataclass(frozen=True, slots=True)
class Variant:
    """A shape in one orientation and stretch, ready for placement."""
    rotate: int
    mirror: bool
    stretch: int
    cells: tuple                     # of (x, y)
    exits: tuple                     # of (x, y, side)
    secret: frozenset
    by_side: dict                    # side -> exits on that side
    size: tuple = (0, 0)             # width, height in squares


class RoomEntry:
    """One table entry: a room or corridor shape; variants are cached for placement."""
    __slots__ = ("key", "kind", "name", "shape", "_variants")

    def __init__(self, key: int, kind: str, name: str, shape: Shape):
        self.key = key
        self.kind = kind
        self.name = name
        self.shape = shape
        self._variants: dict[int, list[Variant]] = {}

    def variants(self, stretch_by: int = 0) -> list[Variant]:
        """The 8 orientations (duplicates removed) at a stretch with map mode's default line."""
        found = self._variants.get(stretch_by)
        if found is None:
            base = self.shape
            if stretch_by:
                axis, index = default_stretch_line(base)
                base = stretch(base, stretch_by, axis, index)
            seen = set()
            found = []
            for rot, mir in orientations(base):
                s = rotate(mirror(base) if mir else base, rot)
                key = (s.cells, s.exits)
                if key in seen:
                    continue
                seen.add(key)
                by_side: dict[str, list] = {"N": [], "E": [], "S": [], "W": []}
                for e in s.exits:
                    by_side[e[2]].append(e)
                found.append(Variant(rot, mir, stretch_by, tuple(sorted(s.cells)), s.exits, s.secret,
                                     {k: tuple(v) for k, v in by_side.items()}, (s.width, s.height)))
            self._variants[stretch_by] = found
        return found


@dataclass
class RoomTable:
    """A d66 room table (or a d6 entrance table: the same entries keyed 1-6)."""
    entries: dict[int, RoomEntry]
    title: str = ""
    name: str = "builtin"
    die: str = "d66"

    def __getitem__(self, key: int) -> RoomEntry:
        return self.entries[key]

    def keys(self):
        return D66_VALUES if self.die == "d66" else tuple(range(1, 7))


@dataclass(frozen=True)
class Result:
    id: str
    category: str
    text: str
    title: str = ""

    @property
    def label(self) -> str:
        return self.title or self.id.replace("-", " ").capitalize()


@dataclass
class Escalation:
    """The boss escalation house rule: d6 + per_prior for every earlier boss result; final_at+ = Final Boss."""
    final_at: int = 6
    per_prior: int = 1
    rule: str = ""

    def modifier(self, prior_bosses: int) -> int:
        return self.per_prior * prior_bosses

    def is_final(self, roll: int, prior_bosses: int) -> bool:
        return roll + self.modifier(prior_bosses) >= self.final_at


@dataclass
class ContentsTable:
    rows: dict[int, tuple[str, str]]         # 2d6 -> (corridor result id, room result id)
    results: dict[str, Result]
    escalation: Escalation = field(default_factory=Escalation)
    title: str = ""
    _names: dict = field(default_factory=dict, repr=False, compare=False)   # result id -> the names it goes by

    def result(self, roll: int, kind: str) -> Result:
        corridor, room = self.rows[roll]
        return self.results[corridor if kind == "corridor" else room]

    def final_result(self) -> Result:
        """The Final Boss (the table's final-boss result, else the rules' own)."""
        return self.results.get(FINAL_BOSS) or Result(FINAL_BOSS, BOSS, "The Final Boss")

    def matches(self, roll: int, kind: str, text: str, final: bool | None = None) -> bool:
        """Whether a written result names the table's result for roll and kind."""
        if roll not in self.rows:
            return False
        expected = self.result(roll, kind)
        got = _norm(text)
        names, own = self._names_of(expected)
        if expected.category == "boss":
            final_names = self._final_names()
            if final is True:
                return got in final_names
            if final is False:
                return got in names or got == _norm(BOSS)
            return got in names or got == _norm(BOSS) or got in final_names
        # a note after the result ("Pit trap: Bo fell, 2 wounds") still names it
        return got in names or any(_names_in(n, got) for n in own)

    def _names_of(self, result: Result) -> tuple[set, tuple]:
        """The names a result may be written as (its id, label, text, category), and its own two."""
        found = self._names.get(result.id)
        if found is None:
            own = (_norm(result.id), _norm(result.label))
            found = ({own[0], own[1], _norm(result.text)} | _category_names(result.category), own)
            self._names[result.id] = found
        return found

    def _final_names(self) -> set:
        found = self._names.get(None)
        if found is None:
            found = {_norm(FINAL_BOSS), "finalboss", "final boss", "the final boss"}
            fin = self.results.get(FINAL_BOSS)
            if fin is not None:
                found |= {_norm(fin.label), _norm(fin.text)}
            self._names[None] = found
        return found


_CATEGORY_NAMES = {
    "monsters": ("monster", "monsters"),
    "traps": ("trap", "traps"),
    "treasure": ("treasure", "treasures"),
    "special": ("special", "special feature", "special features", "feature"),
    "empty": ("empty", "empty room", "empty rooms", "nothing"),
    "events": ("event", "events"),
    "boss": ("boss",),
}


def _category_names(category: str) -> set:
    """A result may be written as its category, as the rules name them (monsters, traps ...)."""
    return set(_CATEGORY_NAMES.get(category, (category,)))


def _names_in(name: str, text: str) -> bool:
    """Whether name appears in text as whole words."""
    return bool(name) and f" {name} " in f" {text.replace(':', ' ').replace(',', ' ').replace('(', ' ')} "


def _norm(text) -> str:
    return " ".join(str(text).strip().lower().replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True)
class TreasureEntry:
    roll: int
    title: str
    text: str


@dataclass
class TreasureTable:
    """The treasure table a contents result sends the party to: d6 -> a find."""
    entries: dict[int, TreasureEntry]
    title: str = ""
    notes: str = ""

    def __getitem__(self, roll: int) -> TreasureEntry:
        return self.entries[roll]
