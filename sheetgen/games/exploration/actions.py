"""The actions of Dungeon Exploration: what a play log (or map mode) says happened, as typed values.

A log's room entry is, in the order of play, the walk back to the door with its d6 per
room (Retrace), the room drawn beyond it (Place: the roll, the transform, the squares, the
doors), its 2d6 contents (Contents), its search if it was searched (Search) and the time
written after it (Time); a log ends with End (its reason, room count and total time),
also when it writes no end key.

Values are kept as the log wrote them where a rule judges them (a roll of 7 on a d6, a
rotate of 45, a square "10;27" that is none: Unreadable), so the engine can say what is
wrong.  `where` holds the log's line of each key (compare=False: notation and equality
ignore it; map mode's actions have none).  Actions are plain slotted values, never changed
once made (not frozen: map mode writes thousands of logs, and frozen ones cost 5x to make).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

Cell = tuple[int, int]                    # x 1..W left to right, y 1..H top to bottom
Edge = tuple[int, int, str]               # a door: the square x, y and the side (N, E, S, W) it is on

UNEXPLORED, EXPLORED, SECRET = "unexplored", "explored", "secret"
DOOR_STATES = (UNEXPLORED, EXPLORED, SECRET)
DEAD_END_STATES = ("dead-end", "dead end", "deadend", "dead_end")
ENTRANCE, D66 = "entrance", "d66"


class Lines(dict):
    """Where an action's keys are in its log: key -> line (hashable, so that the empty one can
    be every action's default; never changed once made)."""
    __slots__ = ()
    __hash__ = object.__hash__


NOWHERE = Lines()


def _where():
    return field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A square or door as written that is not one (e.g. "10;27"): the engine says so."""
    text: str


@dataclass(slots=True)
class Transform:
    """rotate (degrees; counter-clockwise written as negative), mirror, stretch (0-2 squares)."""
    rotate: Any = 0
    mirror: bool = False
    stretch: Any = 0


@dataclass(slots=True)
class DoorMark:
    """A door drawn on a room's outline, in the state it has when the log ends."""
    at: Union[Edge, Unreadable]
    state: str                            # unexplored | explored | secret (| dead-end, or a slip)
    to: int | None = None
    secret: bool = False                  # a secret door that was found (now explored or unexplored)
    where: dict = _where()                # line, state, to


@dataclass(slots=True)
class Escalation:
    """The boss escalation d6 on an 11, with what the log says it made."""
    roll: Any
    modifier: int | None = None
    total: int | None = None
    final: bool | None = None


@dataclass(slots=True)
class RetraceRoll:
    """The d6 for one room moved back through (1: wandering monsters)."""
    room: int | None
    roll: Any
    wandering: bool | None = None
    where: dict = _where()                # line


@dataclass(slots=True)
class Retrace:
    """Walking back through explored rooms, a d6 for each (RetraceRoll).  toward is the room whose
    door the party walks back to open (None: retrace rolls listed beside the rooms)."""
    rolls: tuple = ()
    toward: int | None = None


@dataclass(slots=True)
class Place:
    """A room generated and drawn: the entrance (die 'entrance', d6) or a room beyond a door (d66).

    die None: the log gives no roll, or both.  parent is the room it was opened from (from:),
    when the log says.  doors_listed False: the log keeps no doors list for it."""
    id: int
    die: str | None
    roll: Any
    cells: tuple = ()                     # of Cell | Unreadable
    parent: int | None = None
    transform: Transform | None = None    # None: not written (any orientation, any stretch)
    kind: str | None = None
    name: str | None = None
    truncated: bool | None = None         # None: not written
    doors: tuple = ()                     # of DoorMark
    doors_listed: bool = True
    where: dict = _where()                # line, roll, kind, transform, rotate, mirror, stretch, cells,
    #                                       cell_lines, truncated, doors


@dataclass(slots=True)
class Contents:
    """The 2d6 on the Room Contents Table for the room just placed (roll None: none written)."""
    roll: Any = None
    result: str | None = None
    escalation: Escalation | None = None
    where: dict = _where()                # line (the room's), contents, roll, result, escalation


@dataclass(slots=True)
class Search:
    """Searching the room just placed ("4. Search the room (optional, once per room) if it's
    empty after the encounter"): times it was searched (a log writes it once), the doors the
    search revealed (found, as written; optional)."""
    times: Any = 1
    found: tuple = ()
    where: dict = _where()                # line


@dataclass(slots=True)
class Time:
    """The game time written after the room just placed, in minutes (or 10-minute turns)."""
    minutes: int
    where: dict = _where()                # line


@dataclass(slots=True)
class End:
    """The end of the log: why the dungeon ended, how many rooms and minutes it says it took."""
    reason: str | None = None
    rooms: int | None = None
    minutes: int | None = None
    wandering: int | None = None          # the wandering monster attacks map mode counts (not judged)
    where: dict = _where()                # line, minutes


Action = Union[Place, Contents, Search, Retrace, Time, End]
