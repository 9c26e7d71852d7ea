"""The map as the player's pencil would have it, drawn over the printed sheet.

`pencil_over` takes the printed map sheet (sheetgen.games.foury.sheets.map.compose_map), finds
its cells and character-sheet boxes by their stable ids (`cell-C4`,
`track-hearts-3`, `req-A-1`, ...), and adds pencil marks as drawing primitives:
the path lines between cells (entry arrows included), a small black circle in
every entered room, collapsed walls, crossed-out collapsed rooms, flooded
rooms, removed icons struck through, monsters that appeared, used arrows
blacked out, and the crossed boxes of the character sheet.  Every mark has an
id or class starting with `pencil` so tests and tools can find them.
"""
from __future__ import annotations

from sheetgen.draw.model import Circle, Group, Line, Polygon, Rect, Style, Text, walk
from .. import rules as E
from ..actions import Circle as CircleStep, Enter, Move, Shovel
from ..board import DELTA, OPPOSITE, cell_name, neighbour

GRAPHITE = "#3a3a3a"
PATH = Style(stroke=GRAPHITE, stroke_width=0.45, cap="round", join="round")
WALL = Style(stroke=GRAPHITE, stroke_width=1.1, cap="round")
CROSS = Style(stroke=GRAPHITE, stroke_width=0.5, cap="round")
WATER = Style(stroke="#4a7fb0", stroke_width=0.35, cap="round")
DOT = Style(stroke=None, fill="#111111")
ROOM_CROSS = Style(stroke=GRAPHITE, stroke_width=0.8, cap="round")
ARROW = Style(stroke=GRAPHITE, stroke_width=0.3, fill="#111111")


class Trail:
    """What the pencil drew, gathered while replaying the steps."""

    def __init__(self):
        self.segments: list[tuple[tuple, tuple]] = []   # (from, to): cells, or (cell, side) for arrows
        self.dots: list = []


def replay_with_trail(board, hero, actions, start=None):
    """(state, trail) after ACTIONS, from the new game or from START: a (state, trail) an earlier
    call returned (its trail is not changed: a copy goes on)."""
    rules = E.rules_for(board)
    trail = Trail()
    if start is None:
        state = rules.new_game(board, hero)
    else:
        state = start[0]
        trail.segments, trail.dots = list(start[1].segments), list(start[1].dots)
    for action in actions:
        before = state
        state = rules.step(state, action).state
        if state is before:
            continue
        if isinstance(action, (Move, Shovel, CircleStep)) and state.pos is not None:
            if before.pos is None and before.entry is not None:
                trail.segments.append((("arrow",) + before.entry, state.pos))
            elif before.pos is not None and before.pos != state.pos:
                trail.segments.append((before.pos, state.pos))
            trail.dots.append(state.pos)
        elif isinstance(action, Enter) and state.pos is not None:
            trail.dots.append(state.pos)
    return state, trail


def element_rects(page) -> dict[str, tuple[float, float, float, float]]:
    """Every Rect with an id, in page coordinates (translations and scales applied)."""
    out = {}
    for item, t in walk(page.items):
        if isinstance(item, (Rect, Circle)) and item.id:
            if isinstance(item, Rect):
                x, y, w, h = item.x, item.y, item.w, item.h
            else:
                x, y, w, h = item.cx - item.r, item.cy - item.r, 2 * item.r, 2 * item.r
            if t is not None:
                a, b, c, d, e, f = t
                x, y = a * x + c * y + e, b * x + d * y + f
                w, h = a * w, d * h
            out[item.id] = (x, y, w, h)
    return out


def _cross(x, y, w, h, st=CROSS, inset=0.22, id=None):
    dx, dy = w * inset, h * inset
    return Group((Line(x + dx, y + dy, x + w - dx, y + h - dy, st),
                  Line(x + w - dx, y + dy, x + dx, y + h - dy, st)), id=id, cls="pencil cross")


# rects of a sheet (by identity) -> the marks made over it before, by what they mark: the
# companion page draws the pencil again after every tap, and the same mark object drawn again
# is written from the SVG text kept for it (render/svg.py) instead of being built and hashed
_MADE: dict = {}


def _made_over(rects: dict) -> dict:
    hit = _MADE.get(id(rects))
    if hit is None or hit[0] is not rects:
        if len(_MADE) >= 8:
            _MADE.clear()
        hit = _MADE[id(rects)] = (rects, {})
    return hit[1]


def overlay(page, state, trail, grayscale: bool = False, rects: dict | None = None) -> list:
    """The pencil marks over PAGE; rects: its element_rects(page), when the caller has them already
    (then the marks made over it before are given again, the same objects)."""
    made = {} if rects is None else _made_over(rects)
    rects = element_rects(page) if rects is None else rects
    water = Style(stroke=GRAPHITE, stroke_width=0.35, cap="round") if grayscale else WATER
    b = state.board
    items: list = []

    boxes: dict = {}
    centres: dict = {}

    def cell_box(c):
        # asked for again and again (a long path passes the same rooms): each cell looked up once
        try:
            return boxes[c]
        except KeyError:
            r = boxes[c] = rects.get(f"cell-{cell_name(c)}")
            return r

    def centre(c):
        try:
            return centres[c]
        except KeyError:
            r = cell_box(c)
            p = centres[c] = (r[0] + r[2] / 2, r[1] + r[3] / 2) if r else None
            return p

    def side_line(c, side):
        x, y, w, h = cell_box(c)
        return {"N": (x, y, x + w, y), "S": (x, y + h, x + w, y + h),
                "W": (x, y, x, y + h), "E": (x + w, y, x + w, y + h)}[side]

    if not rects.get(f"cell-{cell_name((0, 0))}"):
        return items
    size = rects[f"cell-{cell_name((0, 0))}"][2]
    r_dot = max(0.5, size * 0.07)

    def once(key, build):
        """The mark(s) KEY made over this sheet before, else BUILD() (None: nothing to draw)."""
        try:
            mark = made[key]
        except KeyError:
            mark = made[key] = build()
        if isinstance(mark, list):
            items.extend(mark)
        elif mark is not None:
            items.append(mark)

    def waves(c):
        r = cell_box(c)
        if not r:
            return None
        x, y, w, h = r
        return [Polygon(tuple((x + w * (0.15 + 0.1 * i), y + h * k + (0.6 if i % 2 else -0.6)) for i in range(8)),
                        water, closed=False, cls="pencil flood") for k in (0.35, 0.65)]

    def path_line(frm, to):
        end = centre(to)
        if end is None:
            return None
        if frm[0] == "arrow":
            cell, side = frm[1], frm[2]
            x1, y1, x2, y2 = side_line(cell, side)
            dx, dy = DELTA[side]
            start = ((x1 + x2) / 2 + dx * size * 0.45, (y1 + y2) / 2 + dy * size * 0.45)
        else:
            start = centre(frm)
            if start is None:
                return None
        return Line(*start, *end, PATH, cls="pencil path")

    def dot(c):
        p = centre(c)
        return Circle(p[0], p[1], r_dot, DOT, id=f"pencil-dot-{cell_name(c)}", cls="pencil dot") if p else None

    def wall(c, side):
        if b.on_board(c) and cell_box(c):
            return Line(*side_line(c, side), WALL, id=f"pencil-wall-{cell_name(c)}-{side}", cls="pencil wall")
        n = neighbour(c, side)
        if b.on_board(n) and cell_box(n):
            return Line(*side_line(n, OPPOSITE[side]), WALL, id=f"pencil-wall-{cell_name(n)}-{OPPOSITE[side]}",
                        cls="pencil wall")
        return None

    def room(c):
        r = cell_box(c)
        return _cross(*r, st=ROOM_CROSS, inset=0.06, id=f"pencil-room-{cell_name(c)}") if r else None

    def removed(c, item):
        r = cell_box(c)
        if not r:
            return None
        x, y, w, h = r
        return Line(x + w * 0.12, y + h * 0.88, x + w * 0.88, y + h * 0.12, CROSS,
                    id=f"pencil-removed-{cell_name(c)}-{item.replace(' ', '-')}", cls="pencil removed")

    def troll_three(c):
        r = cell_box(c)
        if not r:
            return None
        x, y, w, h = r
        return Text(x + w * 0.92, y + h * 0.3, "3", max(6.5, size * 0.8), "sans-bold", anchor="end",
                    fill=GRAPHITE, id=f"pencil-troll-{cell_name(c)}", cls="pencil troll")

    def monster(c, letter):
        r = cell_box(c)
        if not r:
            return None
        x, y, w, h = r
        return Text(x + w * 0.08, y + h * 0.32, letter, max(6.5, size * 0.9), "sans-bold",
                    fill=GRAPHITE, id=f"pencil-monster-{cell_name(c)}", cls="pencil monster")

    def arrow(c, side):
        if not cell_box(c):
            return None
        x1, y1, x2, y2 = side_line(c, side)
        dx, dy = DELTA[side]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        k = size * 0.35
        tip = (mx + dx * k * 0.3, my + dy * k * 0.3)
        px, py = -dy, dx
        pts = ((mx + dx * k + px * k * 0.5, my + dy * k + py * k * 0.5),
               (mx + dx * k - px * k * 0.5, my + dy * k - py * k * 0.5), tip)
        return Polygon(pts, ARROW, id=f"pencil-arrow-{cell_name(c)}-{side}", cls="pencil arrow")

    # flooded rooms: wavy pencil lines
    for c in sorted(state.flooded - frozenset(getattr(b, "flooded", ()) or ())):
        once(("flood", c, grayscale), lambda: waves(c))
    # path lines, then the circles on top
    for frm, to in trail.segments:
        once(("path", frm, to), lambda: path_line(frm, to))
    for c in dict.fromkeys(trail.dots):
        once(("dot", c), lambda: dot(c))
    # collapsed walls
    for c, side in sorted(state.walls):
        once(("wall", c, side), lambda: wall(c, side))
    # collapsed rooms crossed out
    for c in sorted(state.rooms):
        once(("room", c), lambda: room(c))
    # icons removed (collected, beaten, destroyed): struck through; a beaten troll is not: it
    # regenerates ("Write the number 3 in a corner of the space ... it will reappear")
    for c, item in sorted(state.removed):
        if item == "troll" and c in state.trolls:
            continue
        once(("removed", c, item), lambda: removed(c, item))
    for c in sorted(state.trolls):
        once(("troll", c), lambda: troll_three(c))
    # monsters the dice put in a room
    for c, foe in sorted(state.spawned.items()):
        once(("monster", c, foe[0].upper()), lambda: monster(c, foe[0].upper()))
    # used arrows blacked out
    for c, side in sorted(state.used_entries):
        once(("arrow", c, side), lambda: arrow(c, side))
    # the character sheet: crossed boxes
    items.extend(_sheet_marks(rects, state, made))
    return items


def _sheet_marks(rects, state, made: dict | None = None) -> list:
    """The character sheet's crossed and blacked-out boxes; MADE: the marks made over these
    boxes before (overlay's), given again."""
    made = {} if made is None else made
    out = []

    def crossed(x, y, w, h, id):
        key = (id, x, y, w, h)          # an id may move (the round markers)
        mark = made.get(key)
        if mark is None:
            mark = made[key] = _cross(x, y, w, h, id=id)
        return mark
    values = dict(state.res)
    values["kills"] = state.kills
    for key, n in values.items():
        prefix = f"track-{key.replace(' ', '-')}"
        for i in range(1, int(n) + 1):
            r = rects.get(f"{prefix}-{i}")
            if r is None:
                break
            out.append(crossed(*r, id=f"pencil-{prefix}-{i}"))
    if state.fury:
        for i in range(1, state.fury + 1):
            r = rects.get(f"track-fury-{i}")
            if r:
                key = (f"pencil-fury-{i}", *r)
                mark = made.get(key)
                if mark is None:
                    mark = made[key] = Rect(*r, Style(stroke=None, fill="#111111"), id=key[0], cls="pencil")
                out.append(mark)
    for i in range(1, state.turns + 1):
        r = rects.get(f"track-turns-{i}")
        if r is None:
            break
        out.append(crossed(*r, id=f"pencil-turns-{i}"))
    done = {zone: progress for zone, progress, _ in state.rounds_log}
    if state.phase == E.INSIDE and state.zone:
        done[state.zone] = state.requirement_progress()
    for zone, progress in done.items():
        for i in range(1, progress + 1):
            r = rects.get(f"req-{zone}-{i}")
            if r:
                out.append(crossed(*r, id=f"pencil-req-{zone}-{i}"))
    # the round markers (x1..x4, +0..+3) and the Oracle / exit ticks of each round
    for prefix in ("chest-round", "monster-round"):
        r = rects.get(f"{prefix}-{min(state.round_no, 4)}")
        if r:
            out.append(crossed(*r, id=f"pencil-{prefix}"))
    ticks = [(zone, "exit") for zone, _, _ in state.rounds_log]
    ticks += [(zone, "oracle") for zone, _, _ in state.rounds_log]
    if state.phase == E.INSIDE and state.zone and state.visited:
        ticks.append((state.zone, "oracle"))
    for zone, what in ticks:
        r = rects.get(f"req-{zone}-{what}")
        if r:
            out.append(crossed(*r, id=f"pencil-req-{zone}-{what}"))
    if state.coin_used and rects.get("insert-coin-box"):
        out.append(crossed(*rects["insert-coin-box"], id="pencil-insert-coin"))
    return out


def oracle_marks(page, question: str | None, words) -> list:
    """The Oracle question after its label and the words gathered on the answer lines, in pencil."""
    from sheetgen.fonts import fit_size
    out = []
    if not question and not any(words):
        return out
    lines, label = {}, None
    for item, t in walk(page.items):
        if not item.id:
            continue
        if isinstance(item, Line) and "oracle-answer-" in item.id:
            x1, y1, x2, y2 = item.x1, item.y1, item.x2, item.y2
            if t is not None:
                a, b, c, d, e, f = t
                x1, y1, x2, y2 = a * x1 + c * y1 + e, b * x1 + d * y1 + f, a * x2 + c * y2 + e, b * x2 + d * y2 + f
            lines[int(item.id.rsplit("-", 1)[1])] = (x1, y1, x2)
        elif isinstance(item, Text) and item.id.endswith("oracle-question"):
            label = item, t
    pencil = "#2a2a2a"
    if question and label is not None and lines.get(1):
        item, t = label
        x, y = item.x, item.y
        if t is not None:
            a, b, c, d, e, f = t
            x, y = a * x + c * y + e, b * x + d * y + f
        start, end = x + 13.8, max(x2 for _, _, x2 in lines.values())
        size = fit_size(question, "serif-italic", 7.5, end - start, minimum=4.0)
        out.append(Text(start, y - 0.1, question, size, "serif-italic", fill=pencil, id="pencil-oracle-question",
                        cls="pencil oracle"))
    for i, text in enumerate(w for w in words if w):
        if i + 1 not in lines:
            break
        x1, y, x2 = lines[i + 1]
        size = fit_size(text, "serif-italic", 7.5, x2 - x1 - 0.6, minimum=4.0)
        out.append(Text(x1 + 0.6, y - 0.5, text, size, "serif-italic", fill=pencil,
                        id=f"pencil-oracle-words-{i + 1}", cls="pencil oracle"))
    return out


def pencil_over(doc, board, hero, actions, options, question: str | None = None):
    """The map sheet doc (sheets.map.compose_map) with the pencil of the played actions over it
    (and the Oracle question and the words recorded, on the sheet's Oracle lines)."""
    state, trail = replay_with_trail(board, hero, actions)
    page = doc.pages[0]
    marks = overlay(page, state, trail, options.grayscale) + oracle_marks(page, question, state.words)
    page.add(Group(tuple(marks), id="pencil", cls="pencil"))
    doc.name = f"{doc.name}-played"
    doc.title = f"{doc.title} (as played)"
    return doc


def player_name_marks(page, name: str) -> list:
    """The player's name penciled on their sheet: after the "Name:" label of a sheet of traits, above
    the sheet's title on a hero's pre-filled sheet (it has no name line)."""
    from sheetgen.fonts import text_width
    label = title = None
    for item, t in walk(page.items):
        if isinstance(item, Text) and item.text == "Name: ":
            label = item, t
        elif isinstance(item, Text) and (item.id or "").endswith("sheet-title"):
            title = item, t
    found = label or title
    if found is None:
        return []
    item, t = found
    x, y = item.x, item.y
    if t is not None:
        x, y = t[0] * item.x + t[2] * item.y + t[4], t[1] * item.x + t[3] * item.y + t[5]
    if label is not None:
        x, text = x + text_width(item.text, item.font, item.size) + 1.5, name
    else:
        y, text = y - item.size * 0.3528 - 1.2, f"Player: {name}"
    return [Text(x, y - 0.2, text, 9.0, "serif-italic", fill="#2a2a2a", id="pencil-player-name", cls="pencil name")]
