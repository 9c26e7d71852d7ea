"""Room shapes on a small square grid, their exits, and the transforms map mode may use.

Coordinates are (x, y), x to the right and y down (as on the sheet), 0-based and
normalised so the shape's top-left square is (0, 0).  An exit is a door on the
outline: (x, y, side) names the floor square and the side of it the door is on.

Transforms, applied in this order (the log's `transform` names them):
  stretch n (0-2): one line of squares is repeated n more times; map mode repeats the
      middle line across the longer side (rows when tall or square, columns when wide);
      a checker accepts any line, as a player may stretch any part;
  mirror: flip left-right (x -> width-1-x; E and W swap);
  rotate 0/90/180/270: clockwise on the sheet.

ASCII pictures: '#' floor, '.' or ' ' nothing, '+' a door, 'S' a secret door.  A door
sits in the square beside the floor square it opens from, so it touches exactly one
floor square; the picture needs a margin row/column only where a door is.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SIDES = ("N", "E", "S", "W")
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
ROTATE_CW = {"N": "E", "E": "S", "S": "W", "W": "N"}
MIRROR_SIDE = {"N": "N", "S": "S", "E": "W", "W": "E"}
ROTATIONS = (0, 90, 180, 270)
MAX_SIZE = 8
FLOOR, EMPTY, DOOR, SECRET = "#", ".", "+", "S"
KINDS = ("corridor", "room")

Cell = tuple[int, int]
Exit = tuple[int, int, str]          # floor square x, y and the side the door is on


@dataclass(frozen=True, slots=True)
class Shape:
    cells: frozenset                 # of Cell
    exits: tuple                     # of Exit, sorted
    secret: frozenset = frozenset()  # the exits that are secret doors

    @property
    def width(self) -> int:
        return max(x for x, _ in self.cells) + 1 if self.cells else 0

    @property
    def height(self) -> int:
        return max(y for _, y in self.cells) + 1 if self.cells else 0


def make_shape(cells, exits, secret=()) -> Shape:
    """A shape normalised so its top-left floor square is (0, 0)."""
    cells = list(cells)
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    norm = frozenset((x - mx, y - my) for x, y in cells)
    ex = tuple(sorted((x - mx, y - my, s) for x, y, s in exits))
    sec = frozenset((x - mx, y - my, s) for x, y, s in secret)
    return Shape(norm, ex, sec)


# -- pictures ------------------------------------------------------------------
@dataclass
class PictureProblem:
    row: int                         # 0-based line of the picture
    col: int                         # 0-based character
    message: str


@dataclass
class Picture:
    shape: Shape | None
    problems: list[PictureProblem] = field(default_factory=list)
    origin: Cell = (0, 0)            # picture (col, row) of the shape's (0, 0)


def picture_lines(picture: str | list) -> list[str]:
    if isinstance(picture, str):
        lines = picture.split("\n")
    else:
        lines = [str(line) for line in picture]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def parse_picture(picture: str | list) -> Picture:
    """An ASCII picture -> its shape, or located problems (row, column in the picture)."""
    lines = picture_lines(picture)
    floor: dict[Cell, Cell] = {}
    doors: list[tuple[int, int, str]] = []
    problems: list[PictureProblem] = []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch == FLOOR:
                floor[(c, r)] = (c, r)
            elif ch in (DOOR, SECRET):
                doors.append((c, r, ch))
            elif ch not in (EMPTY, " "):
                problems.append(PictureProblem(r, c, f"unknown character {ch!r} in the shape picture "
                                                     f"(use '#' floor, '.' nothing, '+' door, 'S' secret door)"))
    if not floor:
        problems.append(PictureProblem(0, 0, "the shape has no floor squares ('#')"))
        return Picture(None, problems)
    exits: list[Exit] = []
    secret: list[Exit] = []
    for c, r, ch in doors:
        touching = [(side, (c - dx, r - dy)) for side, (dx, dy) in DELTA.items() if (c - dx, r - dy) in floor]
        if not touching:
            problems.append(PictureProblem(r, c, "exit is not on the outline of the shape "
                                                 "(a door must sit right beside a floor square)"))
            continue
        if len(touching) > 1:
            problems.append(PictureProblem(r, c, "exit touches more than one floor square; "
                                                 "a door must sit beside exactly one"))
            continue
        side, (fx, fy) = touching[0]
        exits.append((fx, fy, side))
        if ch == SECRET:
            secret.append((fx, fy, side))
    mx = min(x for x, _ in floor)
    my = min(y for _, y in floor)
    shape = make_shape(floor, exits, secret)
    return Picture(shape, problems, (mx, my))


def draw_picture(shape: Shape) -> str:
    """The shape as an ASCII picture with a margin only where doors need it."""
    exits = {(x + DELTA[s][0], y + DELTA[s][1]): (SECRET if (x, y, s) in shape.secret else DOOR)
             for x, y, s in shape.exits}
    pts = list(shape.cells) + list(exits)
    x0 = min(x for x, _ in pts)
    y0 = min(y for _, y in pts)
    x1 = max(x for x, _ in pts)
    y1 = max(y for _, y in pts)
    rows = []
    for y in range(y0, y1 + 1):
        row = []
        for x in range(x0, x1 + 1):
            if (x, y) in shape.cells:
                row.append(FLOOR)
            else:
                row.append(exits.get((x, y), EMPTY))
        rows.append("".join(row))
    return "\n".join(rows) + "\n"


# -- checks --------------------------------------------------------------------
def components(cells) -> list[set]:
    """4-connected groups of squares."""
    left = set(cells)
    out = []
    while left:
        start = left.pop()
        group = {start}
        stack = [start]
        while stack:
            x, y = stack.pop()
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = (x + dx, y + dy)
                if n in left:
                    left.remove(n)
                    group.add(n)
                    stack.append(n)
        out.append(group)
    return out


def wide_square(cells) -> Cell | None:
    """The top-left of some 2x2 block of floor (so the space is 2+ wide), or None."""
    for x, y in sorted(cells, key=lambda c: (c[1], c[0])):
        if (x + 1, y) in cells and (x, y + 1) in cells and (x + 1, y + 1) in cells:
            return (x, y)
    return None


def kind_of(cells) -> str:
    """'corridor' when everywhere one square wide, else 'room'."""
    return "room" if wide_square(cells) is not None else "corridor"


def shape_problems(shape: Shape, kind: str | None) -> list[tuple[Cell | None, str]]:
    """What is wrong with a table shape: (shape square or None, message)."""
    out: list[tuple[Cell | None, str]] = []
    groups = components(shape.cells)
    if len(groups) > 1:
        main = max(groups, key=len)
        stray = min((c for g in groups if g is not main for c in g), key=lambda c: (c[1], c[0]))
        out.append((stray, f"the shape is not connected: {len(groups)} separate pieces "
                           "(every floor square must touch another by a side)"))
    if shape.width > MAX_SIZE or shape.height > MAX_SIZE:
        far = max(shape.cells, key=lambda c: (max(c[0] - MAX_SIZE + 1, c[1] - MAX_SIZE + 1), c[1], c[0]))
        out.append((far, f"the shape is {shape.width}x{shape.height} squares; shapes must fit within "
                         f"{MAX_SIZE}x{MAX_SIZE}"))
    if not shape.exits:
        out.append((None, "the shape has no exit: give it at least one door ('+') on its outline"))
    if kind is not None:
        wide = wide_square(shape.cells)
        if kind == "corridor" and wide is not None:
            out.append((wide, "declared a corridor but it is 2 squares wide here "
                              "(a corridor is everywhere 1 square wide; call it a room)"))
        elif kind == "room" and wide is None:
            out.append((None, "declared a room but it is only 1 square wide everywhere "
                              "(a room is 2+ squares wide; call it a corridor)"))
    return out


# -- transforms ----------------------------------------------------------------
def stretch(shape: Shape, n: int, axis: str, index: int) -> Shape:
    """Repeat row (axis 'y') or column (axis 'x') `index` n more times."""
    if n <= 0:
        return shape
    if axis == "y":
        cells = set()
        for x, y in shape.cells:
            if y < index:
                cells.add((x, y))
            elif y > index:
                cells.add((x, y + n))
            else:
                for k in range(n + 1):
                    cells.add((x, y + k))
        exits = []
        for x, y, s in shape.exits:
            exits.append((x, y + (n if y > index or (y == index and s == "S") else 0), s))
    else:
        cells = set()
        for x, y in shape.cells:
            if x < index:
                cells.add((x, y))
            elif x > index:
                cells.add((x + n, y))
            else:
                for k in range(n + 1):
                    cells.add((x + k, y))
        exits = []
        for x, y, s in shape.exits:
            exits.append((x + (n if x > index or (x == index and s == "E") else 0), y, s))
    mapping = dict(zip(shape.exits, exits))
    return Shape(frozenset(cells), tuple(sorted(exits)), frozenset(mapping[e] for e in shape.secret))


def default_stretch_line(shape: Shape) -> tuple[str, int]:
    """Map mode's stretch: the middle line across the longer side (rows when tall or square)."""
    if shape.width > shape.height:
        return "x", shape.width // 2
    return "y", shape.height // 2


def mirror(shape: Shape) -> Shape:
    w = shape.width
    f = lambda e: (w - 1 - e[0], e[1], MIRROR_SIDE[e[2]])  # noqa: E731
    return Shape(frozenset((w - 1 - x, y) for x, y in shape.cells), tuple(sorted(map(f, shape.exits))),
                 frozenset(map(f, shape.secret)))


def rotate(shape: Shape, degrees: int) -> Shape:
    """Clockwise on the sheet (y down): (x, y) -> (height-1-y, x) per quarter turn."""
    for _ in range((degrees // 90) % 4):
        h = shape.height
        f = lambda e: (h - 1 - e[1], e[0], ROTATE_CW[e[2]])  # noqa: E731
        shape = Shape(frozenset((h - 1 - y, x) for x, y in shape.cells), tuple(sorted(map(f, shape.exits))),
                      frozenset(map(f, shape.secret)))
    return shape


def transform(shape: Shape, rotate_by: int = 0, mirrored: bool = False, stretch_by: int = 0,
              axis: str | None = None, index: int | None = None) -> Shape:
    if stretch_by:
        if axis is None or index is None:
            axis, index = default_stretch_line(shape)
        shape = stretch(shape, stretch_by, axis, index)
    if mirrored:
        shape = mirror(shape)
    return rotate(shape, rotate_by)


def stretch_lines(shape: Shape):
    """Every line a stretch may repeat: ('y', row) and ('x', column)."""
    return [("y", i) for i in range(shape.height)] + [("x", i) for i in range(shape.width)]


def orientations(shape: Shape):
    """The 8 (rotate, mirror) pairs, mirror-free first."""
    return [(r, m) for m in (False, True) for r in ROTATIONS]
