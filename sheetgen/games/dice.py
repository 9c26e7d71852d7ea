"""Dice every ruleset can use: d6, 2d6, d66 (tens die then units die), NdM[+K].

Pure and reproducible: every roll takes a random.Random, so a seed replays a game.
Dice expressions are parsed with clear errors (DiceError, a ValueError) that the
command layer turns into located messages.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

D66_VALUES = tuple(t * 10 + u for t in range(1, 7) for u in range(1, 7))
_EXPR_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
MAX_DICE = 1000
MAX_SIDES = 1000


class DiceError(ValueError):
    """A dice expression or a recorded roll that cannot be right."""


@dataclass(frozen=True, slots=True)
class Dice:
    """A dice expression: count dice of sides faces plus modifier; d66 reads two d6 as digits."""
    count: int
    sides: int
    modifier: int = 0
    d66: bool = False

    @property
    def text(self) -> str:
        if self.d66:
            return "d66"
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{'' if self.count == 1 else self.count}d{self.sides}{mod}"

    @property
    def minimum(self) -> int:
        return 11 if self.d66 else self.count + self.modifier

    @property
    def maximum(self) -> int:
        return 66 if self.d66 else self.count * self.sides + self.modifier

    def possible(self, value: int) -> bool:
        """Whether value is a result this expression can give."""
        if self.d66:
            return is_d66(value)
        return self.minimum <= value <= self.maximum

    def roll(self, rng: random.Random) -> "Roll":
        if self.d66:
            tens, units = rng.randint(1, 6), rng.randint(1, 6)
            return Roll(self, (tens, units), tens * 10 + units)
        faces = tuple(rng.randint(1, self.sides) for _ in range(self.count))
        return Roll(self, faces, sum(faces) + self.modifier)


@dataclass(frozen=True, slots=True)
class Roll:
    dice: Dice
    faces: tuple[int, ...]
    total: int

    def describe(self) -> str:
        if self.dice.d66:
            return f"{self.total} (tens {self.faces[0]}, units {self.faces[1]})"
        if len(self.faces) == 1 and not self.dice.modifier:
            return str(self.total)
        mod = f" {self.dice.modifier:+d}" if self.dice.modifier else ""
        return f"{self.total} ({' + '.join(map(str, self.faces))}{mod})"


def parse(text: str) -> Dice:
    """'d6', '2d6', 'd66', '3d8+1', 'D20' -> Dice; anything else raises DiceError."""
    if not isinstance(text, str):
        raise DiceError(f"a dice expression such as d6, 2d6, d66 or 3d8, not {text!r}")
    s = text.strip().lower()
    if s == "d66":
        return Dice(2, 6, 0, d66=True)
    m = _EXPR_RE.match(s)
    if not m:
        raise DiceError(f"'{text}' is not a dice expression (expected d6, 2d6, d66 or NdM such as 3d8 or 2d6+1)")
    count = int(m.group(1)) if m.group(1) else 1
    sides = int(m.group(2))
    modifier = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    if count < 1 or count > MAX_DICE:
        raise DiceError(f"'{text}': the number of dice must be 1 to {MAX_DICE}, not {count}")
    if sides < 2 or sides > MAX_SIDES:
        raise DiceError(f"'{text}': a die needs 2 to {MAX_SIDES} sides, not {sides}")
    return Dice(count, sides, modifier)


def d6(rng: random.Random) -> int:
    return rng.randint(1, 6)


def two_d6(rng: random.Random) -> int:
    return rng.randint(1, 6) + rng.randint(1, 6)


def d66(rng: random.Random) -> int:
    """Two d6 read as digits: the first (tens) die then the second (units) die."""
    tens = rng.randint(1, 6)
    return tens * 10 + rng.randint(1, 6)


def is_d66(value) -> bool:
    """11-16, 21-26, ... 61-66: both digits 1 to 6 (never 0, never 7+)."""
    return isinstance(value, int) and not isinstance(value, bool) and 11 <= value <= 66 \
        and 1 <= value // 10 <= 6 and 1 <= value % 10 <= 6


def d66_digits(value: int) -> tuple[int, int]:
    """The (tens, units) dice of a d66 result; DiceError when it is not one."""
    if not is_d66(value):
        raise DiceError(f"{value!r} is not a d66 result (both digits 1-6: 11-16, 21-26, ... 61-66)")
    return value // 10, value % 10


class RandomDice:
    """The dice a game engine asks for, rolled from a seeded Random.

    Engines call d6/two_d6/d66 with a short reason; a PromptDice in the CLI can
    answer the same calls with a player's physical rolls instead.
    """
    __slots__ = ("rng",)

    def __init__(self, rng: random.Random | int | None = None):
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def d6(self, reason: str = "") -> int:
        return self.rng.randint(1, 6)

    def two_d6(self, reason: str = "") -> int:
        return self.rng.randint(1, 6) + self.rng.randint(1, 6)

    def d66(self, reason: str = "") -> int:
        tens = self.rng.randint(1, 6)
        return tens * 10 + self.rng.randint(1, 6)
