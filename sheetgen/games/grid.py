"""What the two card-grid rule sets (navigation, seed 000; Shuffle Dungeons, seed 002) share.

Compass directions on a grid of cards (x east, y south), their written aliases,
and the Forbidden exception an engine raises or reports for a broken rule.
"""
from __future__ import annotations

DIRS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}

_DIR_ALIASES = {"n": "N", "north": "N", "up": "N", "e": "E", "east": "E", "right": "E",
                "s": "S", "south": "S", "down": "S", "w": "W", "west": "W", "left": "W"}


def parse_dir(text) -> str | None:
    """'north', 'N', 'up' -> 'N'; None when text is no direction."""
    return _DIR_ALIASES.get(str(text).strip().lower())


class Forbidden(Exception):
    """An action the rules forbid: rule is a short id such as 'nav.door-key' or 'shuffle.must-fight'."""

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule
        self.message = message
