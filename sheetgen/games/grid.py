"""What the two card-grid rule sets (navigation, seed 000; Shuffle Dungeons, seed 002) share.

Compass directions on a grid of cards (x east, y south), their names and the
written aliases a play log may use for them; the tracker journal's turn marker.
"""
from __future__ import annotations

DIRS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
DIR_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}

_DIR_ALIASES = {"n": "N", "north": "N", "up": "N", "e": "E", "east": "E", "right": "E",
                "s": "S", "south": "S", "down": "S", "w": "W", "west": "W", "left": "W"}


def parse_dir(text) -> str | None:
    """'north', 'N', 'up' -> 'N'; None when text is no direction."""
    return _DIR_ALIASES.get(str(text).strip().lower())


def turn_marker(step, keys: tuple[str, ...]) -> str | None:
    """The name a tracker journal's turn marker ({turn: NAME}, or {KEY: NAME} for a key in
    keys) gives; None for any other step."""
    if isinstance(step, dict) and len(step) == 1:
        key = next(iter(step))
        if key in keys:
            return str(step[key])
    return None
