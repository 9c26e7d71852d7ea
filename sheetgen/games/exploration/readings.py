"""The readings of the exploration rules, and every drawing a logged transform can stand for.

ExplorationReading: where the rules text allows two readings, the alternative to the one
sheetgen plays by (map mode follows none of them); a log may name the ones it follows
(`readings: [plain-escalation]`), else the checker finds them (base.judge).

candidates(): map mode applies one exact transform (shapes.transform); a hand-written
log's transform may mean any of several.  These are notations of one drawing, always
accepted (the rules allow every orientation, so a log cannot be wrong by them):

  rotate   clockwise or counter-clockwise (so 90 and 270 are the same claim; any
           multiple of 90 is taken mod 360, -90 too);
  mirror   left-right or top-bottom, before or after the turn (with mirror, 0 and
           180 are one claim, and 90 and 270 another);
  stretch  n = 1 or 2 more squares: one line of squares (row or column, anywhere in
           the shape) repeated n times; a door on a repeated line may sit on any copy.
           Two lines once each (stretch 2 one square longer and one wider) is the
           reading stretch-two-lines (two_lines=True).

A candidate is the shape's squares plus its exits as groups: each table exit becomes
a set of the places it may be drawn (one place unless a stretch repeated its line).
Candidates are normalised so the top-left square is (0, 0).
"""
from __future__ import annotations

from functools import lru_cache

from ..base import Reading
from .shapes import MIRROR_SIDE, ROTATE_CW, Shape


class ExplorationReading(Reading):
    """Alternative readings of the Dungeon Exploration rules (shared/seeds/004)."""
    # "a 11 on the Room Contents Table that turns up 6+ on the boss escalation roll": the plain
    # d6 6+, without the contents table's +1 for every earlier boss (its house rule)
    PLAIN_ESCALATION = "plain-escalation"
    # "stretch it by 1-2 squares to fit": a stretch of 2 spread over two lines, one square each
    STRETCH_TWO_LINES = "stretch-two-lines"
    # "When you open an unexplored door: Roll d66 ... the room's shape and exits": the door
    # opened may meet any square of the new room, not one of its exits (all its exits are then
    # further doors)
    DOOR_ANYWHERE = "door-anywhere"
    # "It still counts as a room and still rolls for content" / "Corridor - any space only 1
    # square wide": a truncated room rolls in the column of what its squares now are
    CUT_KIND = "cut-kind"


# readings once offered and dropped (docs/readings.md): a log may still name one, and is then
# judged without it
RETIRED_READINGS = {
    # now the rule itself: the entrance is not opened through a door, so its contents roll is
    # optional (none, or one written, are both accepted)
    "entrance-no-contents": "an entrance with no contents roll is accepted by the default reading",
}

Cand = tuple        # (cells frozenset, groups tuple of frozenset of (x, y, side), secret frozenset of group index)


def _base(shape: Shape) -> Cand:
    groups = tuple(frozenset([e]) for e in shape.exits)
    secret = frozenset(i for i, e in enumerate(shape.exits) if e in shape.secret)
    return shape.cells, groups, secret


def _stretch_line(cand: Cand, axis: str, index: int, n: int) -> Cand:
    cells, groups, secret = cand
    out = set()
    for x, y in cells:
        p = y if axis == "y" else x
        if p < index:
            out.add((x, y))
        elif p > index:
            out.add((x, y + n) if axis == "y" else (x + n, y))
        else:
            for k in range(n + 1):
                out.add((x, y + k) if axis == "y" else (x + k, y))
    far = "S" if axis == "y" else "E"
    near = "N" if axis == "y" else "W"
    new_groups = []
    for g in groups:
        places = set()
        for x, y, s in g:
            p = y if axis == "y" else x
            if p < index:
                shifts = (0,)
            elif p > index or s == far:
                shifts = (n,)
            elif s == near:
                shifts = (0,)
            else:                       # a side door on the repeated line: on any copy
                shifts = range(n + 1)
            for k in shifts:
                places.add((x, y + k, s) if axis == "y" else (x + k, y, s))
        new_groups.append(frozenset(places))
    return frozenset(out), tuple(new_groups), secret


def _lines(cells) -> list[tuple[str, int]]:
    h = max(y for _, y in cells) + 1
    w = max(x for x, _ in cells) + 1
    return [("y", i) for i in range(h)] + [("x", i) for i in range(w)]


def _stretched(shape: Shape, n: int, two_lines: bool) -> list[Cand]:
    base = _base(shape)
    if n == 0:
        return [base]
    lines = _lines(shape.cells)
    out = [_stretch_line(base, a, i, n) for a, i in lines]
    if n == 2 and two_lines:            # two different lines, once each (after every one-line form)
        for k, (a1, i1) in enumerate(lines):
            one = _stretch_line(base, a1, i1, 1)
            for a2, i2 in lines[k + 1:]:
                j = i2 + 1 if a2 == a1 and i2 > i1 else i2
                out.append(_stretch_line(one, a2, j, 1))
    return out


def _orient(cand: Cand, rotate: int, mirrored: bool) -> Cand:
    """Mirror left-right, then turn clockwise (y down), then normalise."""
    cells, groups, secret = cand
    pts = [(x, y, None) for x, y in cells]
    gs = [list(g) for g in groups]

    def f(x, y, s):
        if mirrored:
            x, s = -x, (MIRROR_SIDE[s] if s else s)
        for _ in range(rotate // 90):
            x, y, s = -y, x, (ROTATE_CW[s] if s else s)
        return x, y, s
    pts = [f(*p) for p in pts]
    gs = [[f(*e) for e in g] for g in gs]
    mx = min(p[0] for p in pts)
    my = min(p[1] for p in pts)
    return (frozenset((x - mx, y - my) for x, y, _ in pts),
            tuple(frozenset((x - mx, y - my, s) for x, y, s in g) for g in gs), secret)


def orientation_readings(rotate: int | None, mirrored: bool | None) -> list[tuple[int, bool]]:
    """(clockwise turn, mirror-first) pairs a logged rotate/mirror may mean; all 8 when not stated."""
    if rotate is None:
        return [(r, m) for m in (False, True) for r in (0, 90, 180, 270)]
    r = rotate % 360
    turns = [r, (360 - r) % 360]
    if mirrored:
        turns += [(180 + r) % 360, (180 - r) % 360]
    seen = []
    for t in turns:
        if (t, bool(mirrored)) not in seen:
            seen.append((t, bool(mirrored)))
    return seen


@lru_cache(maxsize=4096)
def candidates(shape: Shape, rotate: int | None, mirrored: bool | None, stretch: int,
               two_lines: bool = True) -> tuple[Cand, ...]:
    """Every candidate for a stated transform (rotate None: any orientation), duplicates removed;
    two_lines False leaves out the stretch-two-lines forms (they come last, so the rest is a prefix)."""
    seen = set()
    out = []
    for cand in _stretched(shape, stretch, two_lines):
        for r, m in orientation_readings(rotate, mirrored):
            c = _orient(cand, r, m)
            key = (c[0], c[1])
            if key not in seen:
                seen.add(key)
                out.append(c)
    return tuple(out)
