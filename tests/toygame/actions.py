"""The typed actions of the toy game."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    """Move forward by the die's roll (the squares the player says the piece reached)."""
    roll: int
    to: int


@dataclass(frozen=True)
class Claim:
    """The player claims the game is won."""
