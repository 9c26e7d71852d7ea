"""Dungeon Foury's d6 events drawn as pictograms (the event tables of the maps)."""
from __future__ import annotations

from sheetgen.draw.icons import BLUE, INK, LIGHT_BLUE, RED, WHITE, Pen, icon
from sheetgen.draw.model import Group
from sheetgen.errors import InputError, Problem
from ..board import parse_event

# -- event pictograms ----------------------------------------------------------------
# A d6 event drawn as the room you enter (a square) with the arrow of your move
# coming in from below: the top side is "front", the bottom "behind".  Collapsed
# walls are thick bars; the origin room shows hatching (collapsed) or waves (flooded).

COLLAPSE_SIDES = {"front": ((0.22, 0.12), (0.78, 0.12)), "behind": ((0.22, 0.68), (0.78, 0.68)),
                  "left": ((0.22, 0.12), (0.22, 0.68)), "right": ((0.78, 0.12), (0.78, 0.68))}
GREY_LINE = "#9a9a9a"


def _parse_events(event):
    if isinstance(event, str):
        try:
            return parse_event(event)
        except ValueError as exc:
            raise InputError(Problem(f"cannot draw event '{event}': {exc}")) from None
    return tuple(event)


def event_pictogram(event, x: float, y: float, size: float, *, colour: bool = True,
                    id: str | None = None) -> Group:
    """The pictogram of a d6 event ('collapse left front', 'collapse behind + monster',
    or parsed board.Event tuples) in the size x size mm square at (x, y)."""
    events = _parse_events(event)
    p = Pen(x, y, size, colour)
    kinds = {e.kind for e in events}
    # the origin room (partly shown below) and the room entered
    if "collapse origin" in kinds:
        p.rect(0.22, 0.68, 0.56, 0.3, fill="#8c8c8c", stroke=None)
        for i in range(5):
            u = 0.22 + i * 0.14
            p.line(u, 0.98, min(u + 0.3, 0.78), 0.98 - (min(u + 0.3, 0.78) - u), stroke=INK, sw=0.025)
    elif "flood origin" in kinds:
        p.rect(0.22, 0.68, 0.56, 0.3, fill=LIGHT_BLUE, stroke=None)
        for v in (0.79, 0.9):
            p.path((("M", 0.26, v), ("C", 0.34, v - 0.06, 0.42, v - 0.06, 0.5, v),
                    ("C", 0.58, v + 0.06, 0.66, v + 0.06, 0.74, v)), stroke=BLUE, sw=0.04)
    p.line(0.22, 0.68, 0.22, 0.98, stroke=GREY_LINE, sw=0.025)
    p.line(0.78, 0.68, 0.78, 0.98, stroke=GREY_LINE, sw=0.025)
    p.rect(0.22, 0.12, 0.56, 0.56, fill=WHITE, stroke=GREY_LINE, sw=0.025)
    collapsed = [s for e in events if e.kind == "collapse" for s in e.sides]
    inner = None
    for e in events:
        if e.kind == "monster":
            inner = e.enemy or "monster"
        elif e.kind == "chest":
            inner = "chest"
        elif e.kind == "find":
            inner = e.item
    arrow_top = 0.56 if inner else 0.36
    # the move: a line from the origin room with the entry dot in the new room
    p.line(0.5, 0.97, 0.5, arrow_top + 0.06, stroke=INK, sw=0.045)
    p.poly([(0.5, arrow_top), (0.43, arrow_top + 0.1), (0.57, arrow_top + 0.1)], fill=INK, stroke=None)
    if "extra step" in kinds:
        # one more space without rolling: the arrow goes on through the front
        p.line(0.5, arrow_top, 0.5, 0.04, stroke=INK, sw=0.035, dash=(0.06 * size, 0.04 * size))
        p.poly([(0.5, 0.0), (0.44, 0.09), (0.56, 0.09)], fill=INK, stroke=None)
        p.text(0.67, 0.46, "+1", max(0.2, 2.13 / size), font="condensed-bold")   # never below 6 pt
    if "collapse origin" in kinds or "flood origin" in kinds:
        collapsed.append("behind")
    for side in dict.fromkeys(collapsed):
        (u1, v1), (u2, v2) = COLLAPSE_SIDES[side]
        p.line(u1, v1, u2, v2, stroke=RED if colour else INK, sw=0.1, cap="square")
    items = list(p.items)
    if inner:
        items.append(icon(inner, x + 0.31 * size, y + 0.16 * size, 0.38 * size, colour=colour))
    return Group(tuple(items), id=id, cls="event")
