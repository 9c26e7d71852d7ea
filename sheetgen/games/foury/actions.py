"""The actions a Dungeon Foury player can take: small frozen value objects.

Each mirrors one play-log step (see sheetgen/playlog/foury.py).  Cells are
(column, row) coordinates as in board.py; resources are named as on the
character sheet (hearts, shields, weapon, clovers, shovels, chests,
cornucopias, ...).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .board import Coord


@dataclass(frozen=True, slots=True)
class Enter:
    """Start a round: through an entry arrow (cell, side), or at a start cell
    (campaigns without entries: the Slaughter's triangle, Santa's start)."""
    entry: tuple[Coord, str] | None = None
    start: Coord | None = None


@dataclass(frozen=True, slots=True)
class Move:
    to: Coord
    roll: int | None = None


@dataclass(frozen=True, slots=True)
class Fight:
    hero: int
    enemy: int
    weapon: bool = False
    clover_die: Literal["hero", "enemy"] | None = None
    clover_roll: int | None = None
    shield: bool = False
    enemy_type: str | None = None       # names a generic 'monster' (or corrects the map)
    stolen: str | None = None           # the resource a Bandit steals on a hit
    fury: int = 0                       # Slaughter: Fury boxes blacked out instead of losses


@dataclass(frozen=True, slots=True)
class Flee:
    pass


@dataclass(frozen=True, slots=True)
class Collect:
    item: str
    take: str | None = None             # a cornucopia redeemed at once for this resource
    roll: int | None = None             # the die item's roll
    gain: tuple[tuple[str, int], ...] = ()  # what the die table gave (the table is the map's)


@dataclass(frozen=True, slots=True)
class Redeem:
    """Use one carried cornucopia for one resource of your choice."""
    resource: str


@dataclass(frozen=True, slots=True)
class Shovel:
    cell: Coord
    side: str


@dataclass(frozen=True, slots=True)
class Circle:
    to: Coord


@dataclass(frozen=True, slots=True)
class Climb:
    pass


@dataclass(frozen=True, slots=True)
class Lever:
    cell: Coord | None = None


@dataclass(frozen=True, slots=True)
class Oracle:
    words: str = ""


@dataclass(frozen=True, slots=True)
class Exit:
    """Leave through the arrow (cell, side); from a cell next to it, the move into it
    comes first (with its roll, if the exit cell is unexplored)."""
    cell: Coord
    side: str
    roll: int | None = None


@dataclass(frozen=True, slots=True)
class Market:
    spend_chests: int = 0
    gain: tuple[tuple[str, int], ...] = ()
    give: tuple[tuple[str, int], ...] = ()
    get: tuple[tuple[str, int], ...] = ()
    next_rate: bool = False             # Elydion: the next round's value, once per round


@dataclass(frozen=True, slots=True)
class Coin:
    """INSERT COIN: once, after death; new traits may be given (else the starting ones)."""
    traits: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Flood:
    """Discovering the Kraken: the cells the water reaches when a flood is due."""
    cells: tuple[Coord, ...]


@dataclass(frozen=True, slots=True)
class Candy:
    """Santa: give a candy cane to the Yeti or Grinch in the cell (removed, not a kill)."""
    pass


@dataclass(frozen=True, slots=True)
class Sheet:
    """What the player has penciled: each value must equal the replayed state."""
    values: tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class Score:
    """The optional final score the player counted."""
    points: int


ACTION_TYPES = (Enter, Move, Fight, Flee, Collect, Redeem, Shovel, Circle, Climb, Lever, Oracle, Exit,
                Market, Coin, Flood, Candy, Sheet, Score)


def well_typed(action: object) -> bool:
    """True when every field of ACTION holds a value of its declared type (a die roll an int,
    not the text "3"): what the play-log format guarantees of the actions it makes, checked
    without it (sheetgen.games.foury.tracker.journal_action)."""
    import dataclasses
    import typing
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        return False
    hints = typing.get_type_hints(type(action))
    return all(_fits(getattr(action, f.name), hints[f.name]) for f in dataclasses.fields(action))


def _fits(value: object, hint: object) -> bool:
    import types
    import typing
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is object or hint is typing.Any:
        return True
    if origin is typing.Literal:
        return any(type(value) is type(arg) and value == arg for arg in args)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in args)
    if hint is type(None):
        return value is None
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(_fits(v, a) for v, a in zip(value, args))
    if hint is int:
        return type(value) is int                   # not a bool, not text
    if isinstance(hint, type):
        return type(value) is hint
    return False                                    # a hint not met here: the format decides
