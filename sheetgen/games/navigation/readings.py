"""The readings of the card-grid navigation rules: where the rules text allows two readings, the
alternative to the one sheetgen plays by; a log may name the ones it follows
(`readings: [...]`), else the checker finds them (base.judge)."""
from __future__ import annotations

from ..base import Reading


class NavigationReading(Reading):
    """Where the rules text allows two readings (docs/formats-cards.md, 'Readings')."""
    PAY_SIDE_LEFT = "pay-side-left"     # the side of the room left is a barrier too: paying it is accepted
