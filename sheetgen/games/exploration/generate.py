"""Fresh d66 room tables from a seed: a varied, valid mix of corridors, small and large
rooms and dead ends with 1-4 exits.  Pure: returns shapes; the definitions layer writes YAML."""
from __future__ import annotations

import random

from ..dice import D66_VALUES
from .shapes import DELTA, MAX_SIZE, Shape, kind_of, make_shape, parse_picture, draw_picture, shape_problems

# how many of each sort a table gets (36 in all), shuffled onto the keys
PLAN = (["corridor"] * 12 + ["bend"] * 3 + ["junction"] * 3 + ["small"] * 8 + ["large"] * 6 + ["odd"] * 4)
EXIT_WEIGHTS = {1: 2, 2: 5, 3: 3, 4: 2}


def _door_ok(cells, exits, x, y, side) -> bool:
    dx, dy = DELTA[side]
    mx, my = x + dx, y + dy
    if (mx, my) in cells:
        return False
    touching = sum((mx - ex, my - ey) in cells for ex, ey in DELTA.values())
    if touching != 1:
        return False
    return all((ex + DELTA[es][0], ey + DELTA[es][1]) != (mx, my) for ex, ey, es in exits)


def _outline(cells):
    return [(x, y, s) for x, y in sorted(cells, key=lambda c: (c[1], c[0])) for s in DELTA
            if (x + DELTA[s][0], y + DELTA[s][1]) not in cells]


def _pick_exits(rng: random.Random, cells, count: int, prefer=()) -> list:
    exits: list = []
    for e in prefer:
        if len(exits) < count and _door_ok(cells, exits, *e):
            exits.append(e)
    edges = _outline(cells)
    rng.shuffle(edges)
    for e in edges:
        if len(exits) >= count:
            break
        if _door_ok(cells, exits, *e) and all((e[0], e[1]) != (x, y) for x, y, _ in exits):
            exits.append(e)
    return exits


def _corridor(rng: random.Random, bends: int, branches: int):
    """A 1-wide path with some bends and branches; the ends are where the doors want to be."""
    cells = {(0, 0)}
    x, y = 0, 0
    direction = rng.choice("NESW")
    ends = [((0, 0), {"N": "S", "S": "N", "E": "W", "W": "E"}[direction])]
    for seg in range(bends + 1):
        for _ in range(rng.randint(2, 4)):
            dx, dy = DELTA[direction]
            x, y = x + dx, y + dy
            cells.add((x, y))
        if seg < bends:
            direction = rng.choice({"N": "EW", "S": "EW", "E": "NS", "W": "NS"}[direction])
    ends.append(((x, y), direction))
    path = sorted(cells)
    for _ in range(branches):
        bx, by = rng.choice(path)
        side = rng.choice("NESW")
        dx, dy = DELTA[side]
        length = rng.randint(1, 3)
        for k in range(1, length + 1):
            cells.add((bx + dx * k, by + dy * k))
        ends.append(((bx + dx * length, by + dy * length), side))
    return cells, [(c[0], c[1], s) for c, s in ends]


def _rect(x0, y0, w, h):
    return {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)}


def _room(rng: random.Random, sort: str):
    if sort == "small":
        return _rect(0, 0, rng.randint(2, 3), rng.randint(2, 3))
    if sort == "large":
        cells = _rect(0, 0, rng.randint(4, 6), rng.randint(4, 6))
        if rng.random() < 0.5:   # knock a corner out
            w, h = rng.randint(1, 2), rng.randint(1, 2)
            xs = max(x for x, _ in cells) + 1
            ys = max(y for _, y in cells) + 1
            corner = rng.choice([(0, 0), (xs - w, 0), (0, ys - h), (xs - w, ys - h)])
            cells -= _rect(corner[0], corner[1], w, h)
        return cells
    # odd: an L of two rectangles, a plus, or a room with a corridor stub
    pick = rng.randrange(3)
    if pick == 0:
        return _rect(0, 0, rng.randint(2, 3), rng.randint(4, 6)) | _rect(0, 0, rng.randint(4, 6), 2)
    if pick == 1:
        return _rect(2, 0, 2, 6) | _rect(0, 2, 6, 2)
    cells = _rect(0, 0, 3, 3)
    cells |= {(3 + k, 1) for k in range(rng.randint(1, 3))}
    return cells


def _exit_count(rng: random.Random) -> int:
    counts = list(EXIT_WEIGHTS)
    return rng.choices(counts, weights=[EXIT_WEIGHTS[c] for c in counts])[0]


NAMES = {
    "corridor": ("Passage", "Long hall", "Tunnel", "Gallery", "Crawlway", "Walkway"),
    "bend": ("Bend", "Crooked passage", "Dog-leg"),
    "junction": ("Junction", "Crossing", "Fork"),
    "small": ("Cell", "Closet", "Guard post", "Niche", "Vault", "Shrine"),
    "large": ("Hall", "Great chamber", "Cavern", "Barracks", "Throne room", "Crypt"),
    "odd": ("Strange chamber", "Cross chamber", "Annex", "Gallery room"),
}


def generate_shape(rng: random.Random, sort: str) -> tuple[str, str, Shape]:
    """One valid shape of the given sort: (kind, name, shape)."""
    for _ in range(200):
        if sort in ("corridor", "bend", "junction"):
            bends = 0 if sort == "corridor" else rng.randint(1, 2)
            branches = 1 if sort == "junction" else 0
            cells, ends = _corridor(rng, bends if sort != "junction" else rng.randint(0, 1), branches)
            want = max(_exit_count(rng), 2 if sort == "junction" else 1)
            exits = _pick_exits(rng, cells, want, prefer=ends)
        else:
            cells = _room(rng, sort)
            exits = _pick_exits(rng, cells, _exit_count(rng))
        if not exits:
            continue
        secret = [exits[-1]] if len(exits) >= 3 and rng.random() < 0.15 else []
        shape = make_shape(cells, exits, secret)
        kind = kind_of(shape.cells)
        if sort in ("corridor", "bend", "junction") and kind != "corridor":
            continue
        if shape_problems(shape, kind):
            continue
        again = parse_picture(draw_picture(shape))
        if again.problems or again.shape != shape:
            continue
        if shape.width > MAX_SIZE or shape.height > MAX_SIZE:
            continue
        return kind, rng.choice(NAMES[sort]), shape
    raise RuntimeError(f"could not make a {sort} shape")   # pragma: no cover - 200 tries never all fail


def generate_d66(seed: int) -> dict[int, tuple[str, str, Shape]]:
    """A full d66 table: key -> (kind, name, shape), reproducible from seed."""
    rng = random.Random(f"d66-table-{seed}")
    plan = list(PLAN)
    rng.shuffle(plan)
    table = {key: generate_shape(rng, sort) for key, sort in zip(D66_VALUES, plan)}
    # at least one dead end and one 4-exit shape, so every table has the full range
    counts = [len(s.exits) for _, _, s in table.values()]
    if 1 not in counts:
        key = D66_VALUES[rng.randrange(36)]
        kind, name, shape = table[key]
        table[key] = (kind, "Dead end", make_shape(shape.cells, shape.exits[:1]))
    if 4 not in counts:
        for key in D66_VALUES:
            kind, name, shape = table[key]
            if kind == "room" and len(shape.exits) < 4:
                extra = _pick_exits(rng, set(shape.cells), 4, prefer=shape.exits)
                if len(extra) == 4:
                    table[key] = (kind, name, make_shape(shape.cells, extra, shape.secret))
                    break
    return table
