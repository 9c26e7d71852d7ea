"""The typed actions of Shuffle Dungeons (seed 002): what a hero does on a turn.

Values only (frozen dataclasses); notation.py reads and writes them as play-log
entries, rules.py carries them out.  Directions are 'N', 'E', 'S', 'W'; cells are
(x, y) with x east and y south; a room on the table is named by its card id or its
cell (a Ref); card lists are tuples of card ids; turns are quarter turns clockwise.
Claims (hero_attack, winner, to, result, ...) are what the log says came out:
the engine computes them and reports a mismatch; None means not claimed.

Every action has `by`: the hero acting, when not the one whose turn it is (only
snacks may be used off-turn), and names its `verb`, the word the rules and the
messages use for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union

Cell = tuple        # (x, y)
Ref = Union[str, tuple]     # a card id on the table, or its cell


@dataclass(frozen=True, slots=True)
class Move:
    """Steps, one per direction; roll/result/armor: the trap roll of a trap entered on the way."""
    dirs: tuple
    roll: int | None = None
    result: str | None = None
    armor: int = 0
    by: str | None = None
    verb: ClassVar[str] = "move"


@dataclass(frozen=True, slots=True)
class Trap:
    """The roll for the trap the hero is in: d6 + speed against its challenge."""
    roll: int
    result: str | None = None           # claimed: reward | penalty
    armor: int = 0                      # damage of a penalty put on the armour
    loot: tuple | None = None           # the reward's cards (None: the top of the pile)
    by: str | None = None
    verb: ClassVar[str] = "trap"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw 1 card per open path: count of them, or the cards named (None, None: the default count)."""
    count: int | None = None
    cards: tuple | None = None
    by: str | None = None
    verb: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class PlaceMonster:
    """Play a drawn monster face up from the open path `path` of the current room."""
    monster: str
    path: str
    by: str | None = None
    verb: ClassVar[str] = "place-monster"


@dataclass(frozen=True, slots=True)
class Build:
    """Build a room card from the hand on an open path (path) or at a cell (at), turned `turns`."""
    room: str
    path: str | None = None
    at: Cell | None = None
    turns: int = 0
    by: str | None = None
    verb: ClassVar[str] = "build"


@dataclass(frozen=True, slots=True)
class Equip:
    item: str
    by: str | None = None
    verb: ClassVar[str] = "equip"


@dataclass(frozen=True, slots=True)
class Eat:
    """Eat a snack (then burn it), on the hero acting or on target."""
    snack: str
    target: str | None = None
    by: str | None = None
    verb: ClassVar[str] = "eat"


@dataclass(frozen=True, slots=True)
class Burn:
    """BURN cards from the hand (or equipment); or, top > 0, the top cards of the dungeon pile
    (a monster's power: monster names it, if the log says whose)."""
    cards: tuple = ()
    top: int = 0
    monster: str | None = None
    by: str | None = None
    verb: ClassVar[str] = "burn"


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade cards with the hero partner in the same room (agreed: both players agree)."""
    partner: str
    give: tuple = ()
    take: tuple = ()
    agreed: bool = True
    by: str | None = None
    verb: ClassVar[str] = "trade"


@dataclass(frozen=True, slots=True)
class Power:
    """Use the power of a card (the hero's, an equipped one, one in hand): once per turn."""
    card: str
    by: str | None = None
    verb: ClassVar[str] = "power"


@dataclass(frozen=True, slots=True)
class Shrine:
    by: str | None = None
    verb: ClassVar[str] = "shrine"


@dataclass(frozen=True, slots=True)
class Ward:
    by: str | None = None
    verb: ClassVar[str] = "ward"


@dataclass(frozen=True, slots=True)
class Shift:
    """SHIFT a room one space into an empty cell (to: the claimed cell; via: the power used;
    empty: the power needs an EMPTY ROOM)."""
    room: Ref
    dir: str
    to: Cell | None = None
    via: str | None = None
    empty: bool = False
    by: str | None = None
    verb: ClassVar[str] = "shift"


@dataclass(frozen=True, slots=True)
class Slide:
    """SLIDE a room (room) through empty cells, or a hero (hero) along open paths, until blocked."""
    dir: str
    room: Ref | None = None
    hero: str | None = None
    to: Cell | None = None
    via: str | None = None
    empty: bool = False
    by: str | None = None
    verb: ClassVar[str] = "slide"


@dataclass(frozen=True, slots=True)
class Swap:
    """SWAP the places of two rooms and their heroes."""
    rooms: tuple
    via: str | None = None
    empty: bool = False
    by: str | None = None
    verb: ClassVar[str] = "swap"


@dataclass(frozen=True, slots=True)
class Twist:
    """TWIST a room to a new rotation (turns: quarter turns clockwise, 0-3)."""
    room: Ref
    turns: int
    via: str | None = None
    empty: bool = False
    by: str | None = None
    verb: ClassVar[str] = "twist"


@dataclass(frozen=True, slots=True)
class Fight:
    """Fight the monster named (monster) or at a cell (at), with the dice rolled.

    hero_bonus / monster_bonus / extra_damage: card effects; red, armor: ((hero, amount), ...)
    sorted by hero; assist: the assisting heroes claimed (sorted); loot: the slain monster's
    cards (None: the top of the pile); level_up: who levels up if it is slain."""
    monster: str | None = None
    at: Cell | None = None
    hero_dice: tuple = ()
    monster_dice: tuple = ()
    hero_bonus: int = 0
    monster_bonus: int = 0
    extra_damage: int = 0
    damage: int | None = None
    hero_attack: int | None = None
    monster_attack: int | None = None
    winner: str | None = None           # claimed: hero | monster
    level_up: str | None = None
    assist: tuple | None = None
    loot: tuple | None = None
    red: tuple = ()
    armor: tuple = ()
    by: str | None = None
    verb: ClassVar[str] = "fight"


@dataclass(frozen=True, slots=True)
class LevelUp:
    """A hero who took part in this turn's slaying fight flips to the levelled side (None: the fighter)."""
    hero: str | None = None
    by: str | None = None
    verb: ClassVar[str] = "level-up"


@dataclass(frozen=True, slots=True)
class Loot:
    """LOOT cards from the pile: count of them, or those named; into a monster's loot pile if monster."""
    count: int = 1
    cards: tuple | None = None
    monster: str | None = None
    by: str | None = None
    verb: ClassVar[str] = "loot"


@dataclass(frozen=True, slots=True)
class Effect:
    """A card effect the log writes down: damage (armor of it on the armour), heal; on the
    hero acting or on targets."""
    damage: int = 0
    heal: int = 0
    armor: int = 0
    targets: tuple | None = None
    by: str | None = None
    verb: ClassVar[str] = "gain"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """HALT: end the turn (the rules check what must be done by then)."""
    by: str | None = None
    verb: ClassVar[str] = "end-turn"


@dataclass(frozen=True, slots=True)
class BeginTurn:
    """The turn of hero begins (a log's turn entry; the tracker's {turn: NAME})."""
    hero: str
    verb: ClassVar[str] = "begin-turn"


Action = Union[Move, Trap, Draw, PlaceMonster, Build, Equip, Eat, Burn, Trade, Power, Shrine, Ward, Shift, Slide,
               Swap, Twist, Fight, LevelUp, Loot, Effect, EndTurn, BeginTurn]
KINDS = (Move, Trap, Draw, PlaceMonster, Build, Equip, Eat, Burn, Trade, Power, Shrine, Ward, Shift, Slide, Swap,
         Twist, Fight, LevelUp, Loot, Effect, EndTurn, BeginTurn)
