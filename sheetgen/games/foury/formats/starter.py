"""A Foury map to start from (`sheetgen new map NAME`): complete, commented, valid and playable.

    starting_map(title, size=(9, 9))        a fresh map: four wedge zones around the Oracle, the base
                                             game's requirements and events, items that meet them
    starting_map(title, source=fmap)        the same commented form filled from another map
                                             (`--from ancient-story`; a blank map may take a size)

Every key of the format is written once (the campaign keys a campaign does not use as comments),
each with the values it takes in a comment; the words come from the game's vocabulary, so the
comments say what the loader accepts.
"""
from __future__ import annotations

import textwrap

import yaml

from .. import board as fb
from ..tables import DIE_RESOURCES, DIE_TABLE_EFFECTS
from .map import FouryMap, blank_layout, resize_blank

# the base game's zones, as our blank map has them (a fresh map starts as a playable base game)
ZONES = (
    ("A", "The Temple", "statues", 3, ("monster", "collapse left right", "collapse left front", "collapse right front",
                                       "collapse front behind", "extra step")),
    ("B", "The Palace Rooms", "kills", 3, ("collapse origin", "collapse behind + monster", "collapse left",
                                           "collapse right", "collapse front", "chest")),
    ("C", "The Castle Cliff", "levers", 2, ("collapse origin", "monster", "collapse left right",
                                            "collapse front behind", "collapse left front", "extra step")),
    ("D", "The Waterways", "cornucopias", 1, ("flood origin", "monster", "collapse left front", "collapse right front",
                                              "collapse behind", "extra step")),
)
# what a fresh map prints in each zone: what its requirement needs first, then resources to find
ZONE_ITEMS = {"A": ("statue", "statue", "statue", "potion", "chest"),
              "B": ("orc", "goblin", "shield", "chest"),
              "C": ("stairs", "lever", "lever", "weapon", "potion"),
              "D": ("cornucopia", "die", "clover", "shovel")}
NEEDED = {"A": 3, "B": 0, "C": 3, "D": 1}       # the items a zone's requirement cannot do without
COMMENT_AT = 26                                  # the column where the comments start
WIDTH = 110


def starting_map(title: str, size: tuple[int, int] | None = None, source: FouryMap | None = None) -> str:
    """The text of a new map file (see the module docstring)."""
    if source is not None:
        if size is not None and (size[0], size[1]) != (source.board.columns, source.board.rows):
            source = resize_blank(source, *size)
        return map_text(title, values_of(source))
    columns, rows = size or (9, 9)
    return map_text(title, fresh_map(columns, rows))


# -- what goes in --------------------------------------------------------------------------------
def fresh_map(columns: int, rows: int) -> dict:
    cells_text, entries = blank_layout(columns, rows)
    grid = [row.split() for row in cells_text.split("\n") if row.strip()]
    if columns >= 7 and rows >= 7:                 # a little rock, to show it: the two right-hand corners
        grid[0][columns - 1] = grid[rows - 1][columns - 1] = fb.ROCK
    board_cells = {(x, y): grid[y][x] for y in range(rows) for x in range(columns)}
    centre = (columns // 2, rows // 2)
    arrows = {fb.parse_cell_side(e)[0] for e in entries}
    items: dict[str, str] = {}
    for letter, names in ZONE_ITEMS.items():
        # far from the centre first (a requirement is a journey), entry cells last, reading order to break ties
        cells = sorted((c for c, sym in board_cells.items() if sym == letter),
                       key=lambda c: (c in arrows, -abs(c[0] - centre[0]) - abs(c[1] - centre[1]), c[1], c[0]))
        spread = cells[::2] + cells[1::2]           # every other cell first: items apart from each other
        for name, cell in zip(names, spread):
            items[fb.cell_name(cell)] = name
        assert len(spread) >= NEEDED[letter], f"zone {letter}: too few cells for its requirement"   # 5x5 has 4+
    wall = f"{fb.cell_name((1, 0))}:S"              # inside zone A, closing nothing off
    return {"description": "A new dungeon beneath the Foury Kingdom: tell its story in one line.",
            "campaign": "ancient", "grid": f"{columns}x{rows}", "rows": [" ".join(r) for r in grid],
            "zones": [{"letter": l, "name": n, "requirement": (k, c), "events": dict(enumerate(e, 1)), "colour": None}
                      for l, n, k, c, e in ZONES],
            "entries": entries, "walls": [wall], "items": dict(sorted(items.items(), key=reading_order)),
            "die_table": dict(DIE_TABLE_EFFECTS), "hero_extras": True, "blank": False, "coloured": True, "start": None,
            "turns": None, "flooded": [], "max_enemies": None, "safe_zone": None}


def reading_order(kv) -> tuple[int, int]:
    c = fb.parse_cell(kv[0])
    return c[1], c[0]


def values_of(fmap: FouryMap) -> dict:
    m, b = fmap.model, fmap.board
    zones = []
    for letter, z in m.zones.items():
        kinds = z.requirement.kinds() if z.requirement is not None else []
        zones.append({"letter": letter, "name": z.name, "requirement": kinds[0] if kinds else None,
                      "events": dict(sorted(z.events.items())), "colour": z.colour})
    return {"description": m.description, "campaign": m.campaign, "grid": f"{b.columns}x{b.rows}",
            "rows": [" ".join(b.cells.get((x, y), fb.ROCK) for x in range(b.columns)) for y in range(b.rows)],
            "zones": zones, "entries": list(m.entries), "walls": list(m.walls), "items": dict(m.items),
            "die_table": dict(m.die_table) if m.die_table is not None else dict(DIE_TABLE_EFFECTS),
            # ours, written out where the map rolls it; a comment to uncomment where nothing does
            "die_table_shown": m.die_table is not None or any("die" in names for names in b.items.values()),
            "hero_extras": m.hero_extras if m.hero_extras is not None else b.hero_extras, "blank": m.blank,
            "coloured": m.coloured,
            "start": m.start, "turns": m.turns, "flooded": list(m.flooded), "max_enemies": m.max_enemies,
            "safe_zone": m.safe_zone}


# -- how it is written ----------------------------------------------------------------------------
def _scalar(value) -> str:
    """A YAML scalar that reads back as value (plain where it can be, else double-quoted)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    try:
        plain_ok = text != "" and yaml.safe_load(f"k: {text}") == {"k": text}
    except yaml.YAMLError:
        plain_ok = False
    return text if plain_ok else '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _flow(values) -> str:
    return "[" + ", ".join(_scalar(v) for v in values) + "]"


def _line(code: str, comment: str = "", above: bool = False) -> list[str]:
    """code with its comment: beside it at COMMENT_AT when it fits on that line, else on '#' lines
    above it (always above a literal block, whose following lines are its content)."""
    if not comment:
        return [code]
    indent = code[:len(code) - len(code.lstrip())]
    if not above and len(code) + 2 <= COMMENT_AT and len(comment) <= WIDTH - COMMENT_AT - 2:
        return [f"{code.ljust(COMMENT_AT)}# {comment}"]
    return _note(comment, indent) + [code]


def _note(comment: str, indent: str = "") -> list[str]:
    return [f"{indent}# {p}" for p in textwrap.wrap(comment, WIDTH - len(indent) - 2)]


def map_text(title: str, v: dict) -> str:
    from ..vocabulary import campaigns
    L: list[str] = []
    L += _note(f"{title}: a Dungeon Foury map (written by `sheetgen new map`). Every key of the format is here "
               "once, with the values it takes. `sheetgen validate` checks the map (its playability too), "
               "`sheetgen build` prints it, `sheetgen simulate` plays it a thousand times; `sheetgen list items` "
               "(events, enemies, campaigns, requirements, die-effects, sides) says what each word means.")
    L += ["sheetgen: 1", "kind: map", "ruleset: foury"]
    L += _line(f"title: {_scalar(title)}", "printed at the top of the sheet")
    L += _line(f"description: {_scalar(v['description'])}", "a line of flavour text for the sheet")
    L += _line(f"campaign: {v['campaign']}", ", ".join(f"{name} ({meaning.split(':')[0]})"
                                                        for name, meaning in campaigns())
               + ": `sheetgen list campaigns` says how each is played")
    columns, rows = (int(n) for n in v["grid"].split("x"))
    L += _line(f"grid: {v['grid']}", f"COLUMNSxROWS (3 to 26 columns, 3 to 99 rows): cells are A1 (top left) to "
               f"{fb.cell_name((columns - 1, rows - 1))} (bottom right)")
    L += _line("cells: |", "one symbol a cell, a row a line: a zone letter (any capital but O), O for the "
               "centre room (the Oracle), '#' for rock", above=True)
    L += [f"  {row}" for row in v["rows"]]
    L += _line("zones:", "every letter the cells use: its name, requirement and six events")
    for i, z in enumerate(v["zones"]):
        first = i == 0
        L.append(f"  {z['letter']}:")
        L += _line(f"    name: {_scalar(z['name'])}", "printed over the zone's events" if first else "")
        if z["requirement"] is not None:
            kind, count = z["requirement"]
            L += _line(f"    requirement: {{{kind}: {count}}}",
                       "one of " + " | ".join(fb.REQUIREMENT_KINDS) + " with a count; leave it out for a "
                       "zone without a round" if first else "")
        if first or z["colour"] is not None:
            L += _line(f"    colour: {_scalar(z['colour'])}", "a colour name or #rrggbb; null: the letter's own"
                       if first else "")
        L += _line("    events:", "rolled (d6) when the hero enters an unexplored room from this zone: monster "
                   "[ENEMY], collapse SIDES (front, behind, left, right: along the move), collapse origin, flood "
                   "origin, chest, extra step, find ITEM; join several with +" if first else "")
        for face, text in z["events"].items():
            L.append(f"      {face}: {_scalar(text)}")
    L += _line(f"entries: {_flow(v['entries'])}", "entry/exit arrows: a border cell and the side facing off the "
               "map (N, E, S, W); an arrow is its cell's zone; each round uses two (four rounds: eight)")
    L += _line(f"walls: {_flow(v['walls'])}", "walls printed on the map: CELL:SIDE (N, E, S, W); B1:S and B2:N "
               "are the same wall; the map edge is a wall already")
    L += _line("items:" if v["items"] else "items: {}", "what a cell prints: an item or a list [a, b]: "
               + ", ".join(fb.ITEMS))
    for cell, names in v["items"].items():
        L.append(f"  {cell}: {_flow(names) if isinstance(names, list) else _scalar(names)}")
    mark = "" if v.get("die_table_shown", True) else "# "
    L += _line(f"{mark}die_table:", "the die item's table, faces 1-6: monster (a face of its own), gain N RESOURCE, "
               "lose N RESOURCE or nothing; gains and losses join with +; RESOURCE: " + ", ".join(DIE_RESOURCES)
               + ("" if not mark else " (uncomment it with a die item on the map)"))
    for face, text in sorted(v["die_table"].items()):
        L.append(f"{mark}  {face}: {_scalar(text)}")
    L += _line(f"hero_extras: {_scalar(v['hero_extras'])}", "true | false: shade the beige hero extra boxes on "
               "the character sheet (default true; campaign strength has none)")
    L += _line(f"blank: {_scalar(v['blank'])}", "true | false: true for a map the player draws the icons on "
               "(the lint then asks no printed item to meet the requirements)")
    L += _line(f"coloured: {_scalar(v['coloured'])}", "true | false: false prints the zones without colour fills "
               "(white, letters and zone borders), a map to colour in by hand")
    L += _note("the campaign keys: uncomment the ones your campaign uses")
    campaign_keys = (
        ("start", _scalar(v["start"]) if v["start"] else fb.cell_name((columns // 2, rows // 2)),
         "slaughter, santa: the start cell (slaughter: the centre; santa: next to Santa's room)"),
        ("turns", str(v["turns"] or 40), "santa, kraken: hourglass boxes, the time limit (1 to 120)"),
        ("flooded", _flow(v["flooded"] or [fb.cell_name((columns // 2, rows // 2 + 1))]),
         "kraken: cells already under water"),
        ("max_enemies", str(v["max_enemies"] or 48), "slaughter: the most enemies that can be met (default 48)"),
        ("safe_zone", _scalar(v["safe_zone"]) if v["safe_zone"] else "S",
         "santa: the zone letter of the XMas Safe Zone"),
    )
    for key, value, comment in campaign_keys:
        used = v[key] not in (None, [])
        L += _line(f"{'' if used else '# '}{key}: {value}", comment)
    return "\n".join(L) + "\n"
