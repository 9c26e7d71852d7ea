"""The readings of the Shuffle Dungeons rules: where the rules text allows two readings, the
alternative to the one sheetgen plays by; a log may name the ones it follows
(`readings: [...]`), else the checker finds them (base.judge)."""
from __future__ import annotations

from ..base import Reading


class ShuffleReading(Reading):
    """Where the rules text allows two readings (docs/formats-cards.md, 'Readings')."""
    ASSIST_OWN_DICE = "assist-own-dice"         # an assisting monster adds its own dice, not 1
    DRAW_NO_CARD_PATHS = "draw-no-card-paths"   # "open path": only the paths with no card on them yet
    DRAW_NO_ROOM_PATHS = "draw-no-room-paths"   # "open path": only the paths with no room on them
    SLIDE_ENTERS_TRAP = "slide-enters-trap"     # a hero slid into a trap entered it: a roll there is accepted
