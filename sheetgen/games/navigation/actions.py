"""The typed actions of card-grid navigation (seed 000): what a player does on a turn.

Values only (frozen dataclasses); notation.py reads and writes them as play-log
entries, rules.py carries them out.  Directions are 'N', 'E', 'S', 'W'; rooms are
card ids; a payment is 'key', 'bomb' or 'hp' (1 HP sacrificed in lieu of either).
Resource changes are (name, value) pairs in the order written: name one of hp,
keys, bombs, xp (a whole number) or item (an item key such as 'speed-boots').

Every action names its `verb`, the word the rules and the messages use for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union

Changes = tuple     # ((name, value), ...): see the module docstring


@dataclass(frozen=True, slots=True)
class Move:
    """Step to the neighbouring room in direction dir (a counted move); use pays its passage inline."""
    dir: str
    use: str | None = None
    verb: ClassVar[str] = "move"


@dataclass(frozen=True, slots=True)
class MoveTo:
    """A move naming the room: a bordering room, or the far room of a wrap travel."""
    room: str
    use: str | None = None
    verb: ClassVar[str] = "move-to"


@dataclass(frozen=True, slots=True)
class Wrap:
    """Wrap travel out of the outermost room through its dir side, to the far end of the row/column."""
    dir: str
    use: str | None = None
    verb: ClassVar[str] = "wrap"


@dataclass(frozen=True, slots=True)
class Mirror:
    """The Magic Mirror's teleport to any room (a counted move)."""
    room: str
    verb: ClassVar[str] = "mirror"


@dataclass(frozen=True, slots=True)
class Warp:
    """From a warp room to another warp room (free: not counted)."""
    room: str
    verb: ClassVar[str] = "warp"


@dataclass(frozen=True, slots=True)
class Pay:
    """Pay the next passage now: tool 'key', 'bomb', or 'hp' (sacrifice 1 HP in lieu of either)."""
    tool: str

    @property
    def verb(self) -> str:
        return "sacrifice" if self.tool == "hp" else self.tool


@dataclass(frozen=True, slots=True)
class Resolve:
    """Resolve one function of the room the player is in (a navigation token over it).

    function: its name or its 1-based number (None: the next unresolved one, a pending
    hazard first); a room id here names the room (another room than the player's is
    refused).  named says how the log named it: 'function' ({resolve: {function: X}}:
    always the function), 'room' ({resolve: {room: X}}: always the card), None (bare
    `resolve X`: a name that is both a card id and a function is refused, asking which).
    xp is the XP the room gave (None: the card's bonus XP when completed); gain and lose
    are the resources that came with it."""
    function: str | None = None
    xp: int | None = None
    gain: Changes = ()
    lose: Changes = ()
    named: str | None = None
    verb: ClassVar[str] = "resolve"


@dataclass(frozen=True, slots=True)
class PlaceToken:
    """A navigation token: over a function (= Resolve), or 'elsewhere' / 'entered' / None
    ("entered, not resolved")."""
    function: str | None = None
    xp: int | None = None
    gain: Changes = ()
    lose: Changes = ()
    named: str | None = None                # as Resolve's
    verb: ClassVar[str] = "place-token"


@dataclass(frozen=True, slots=True)
class Unresolve:
    """Unresolve a resolved room bordering the player's room, for 4 XP."""
    room: str
    verb: ClassVar[str] = "unresolve"


@dataclass(frozen=True, slots=True)
class Gain:
    """Bookkeeping: resources gained (a treasure's item, bought boots)."""
    changes: Changes = ()
    verb: ClassVar[str] = "gain"


@dataclass(frozen=True, slots=True)
class Lose:
    """Bookkeeping: resources lost (a monster's damage, an item given away)."""
    changes: Changes = ()
    verb: ClassVar[str] = "lose"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn (the rules check what must be done by then)."""
    verb: ClassVar[str] = "end-turn"


@dataclass(frozen=True, slots=True)
class BeginTurn:
    """The turn of player begins (a log's turn entry; the tracker's {turn: NAME})."""
    player: str
    verb: ClassVar[str] = "begin-turn"


Action = Union[Move, MoveTo, Wrap, Mirror, Warp, Pay, Resolve, PlaceToken, Unresolve, Gain, Lose, EndTurn,
               BeginTurn]
KINDS = (Move, MoveTo, Wrap, Mirror, Warp, Pay, Resolve, PlaceToken, Unresolve, Gain, Lose, EndTurn, BeginTurn)
