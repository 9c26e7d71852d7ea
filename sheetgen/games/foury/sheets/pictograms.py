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


def parse_events(event):
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
    events = parse_events(event)
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
    inner = []                                  # what the room holds: a monster, a chest, a find
    for e in events:
        if e.kind == "monster":
            inner.append(e.enemy or "monster")
        elif e.kind == "chest":
            inner.append("chest")
        elif e.kind == "find":
            inner.append(e.item)
    extra = "extra step" in kinds
    arrow_top = 0.56 if inner else 0.36
    # the move: a line from the origin room with the entry dot in the new room
    p.line(0.5, 0.97, 0.5, arrow_top + 0.06, stroke=INK, sw=0.045)
    p.poly([(0.5, arrow_top), (0.43, arrow_top + 0.1), (0.57, arrow_top + 0.1)], fill=INK, stroke=None)
    if extra:
        # one more space without rolling: the move goes on out through the front (above what the
        # room holds, never through it)
        start = 0.2 if inner else arrow_top
        p.line(0.5, start, 0.5, 0.07, stroke=INK, sw=0.035, dash=(0.06 * size, 0.04 * size))
        p.poly([(0.5, 0.0), (0.44, 0.09), (0.56, 0.09)], fill=INK, stroke=None)
    if "collapse origin" in kinds or "flood origin" in kinds:
        collapsed.append("behind")
    for side in dict.fromkeys(collapsed):
        (u1, v1), (u2, v2) = COLLAPSE_SIDES[side]
        p.line(u1, v1, u2, v2, stroke=RED if colour else INK, sw=0.1, cap="square")
    items = list(p.items)
    if extra:
        items.append(_plus_one(x, y, size))
    # one icon in the middle of the room, two side by side (a monster and its chest); smaller
    # under an extra step's arrow
    count = min(len(inner), 2)
    box = 0.25 if count > 1 else 0.32 if extra else 0.38
    top = 0.23 if extra else 0.22 if count > 1 else 0.16
    width = box * count + 0.04 * (count - 1)
    for k, name in enumerate(inner[:2]):
        u = 0.5 - width / 2 + k * (box + 0.04)
        items.append(icon(name, x + u * size, y + top * size, box * size, colour=colour))
    return Group(tuple(items), id=id, cls="event")


PLUS_ONE_PT = 6.0           # the extra step's "+1": never below 6 pt


def _plus_one(x: float, y: float, size: float):
    """The extra step's "+1" above the room, right of the arrow leaving through the front:
    clear of the room's outline (the label sits in the strip above it, reaching a little
    above the pictogram's square where the square is small)."""
    from sheetgen.draw.model import Text
    from sheetgen.draw.lint import CLEARANCE
    from sheetgen.fonts import ink_box
    ink_bottom = ink_box("+1", "condensed-bold", PLUS_ONE_PT)[3]
    room_top = y + 0.12 * size - 0.0125 * size         # the room's outline, half its stroke above
    baseline = room_top - CLEARANCE - 0.1 - ink_bottom
    return Text(x + 0.6 * size, baseline, "+1", size=PLUS_ONE_PT, font="condensed-bold", fill=INK, cls="extra-step")
