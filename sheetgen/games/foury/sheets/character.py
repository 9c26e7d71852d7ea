"""The Dungeon Foury character sheet: the detachable right part of every map
page, and the block repeated on the hero, 2-player and spare-sheet pages.

`character_sheet(x, y, w, h, spec, grayscale)` draws one sheet in the box
(x, y, w, h) and returns its items.  What varies by campaign (Fury boxes,
hourglass turns, Santa's collection grid, the Kraken's Kr counter, no hero
extras in In and Out with Your Strength) comes from a CharacterSpec.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sheetgen.fonts import text_width, wrap
from sheetgen.draw.icons import icon
from sheetgen.draw.model import Circle, Group, Line, Rect, Style, Text
from ..rules import rules_for
from ..tables import CHEST_VALUE, KILLS_PER_CORNUCOPIA, ROUND_BONUS, SANTA_GOAL, SANTA_GRID, SLAUGHTER_MAX, \
    TRACK_BOXES, Campaign, track_boxes

INK = "#1a1a1a"
GREY = "#6b6b6b"
LIGHT = "#b5b5b5"
BEIGE = "#efdcb4"              # hero extra boxes
CAP_RED = "#8e1b1b"            # caps: boxes a hero can never fill
PENCIL = "#9a9a9a"             # pre-filled starting traits (to pencil over)
BOX = 5.0                      # mm: a pencil cross fits
LABEL_PT = 7.5
TWO_LINE_PT = 6.6              # a label too long for one line: two lines, never a smaller single line
SMALL_PT = 7.0
HEAD_PT = 8.0
NOTE_PT = 6.4
LABEL_W = 24.0                 # the label column in front of the tracks: "Cornucopias" at LABEL_PT fits
# the counters' boxes: the same number on every paper and sheet width (boxes shrink instead)
CHEST_BOXES = 8
KILL_BOXES = 8
CORNUCOPIA_BOXES = 12
TIME_BOXES = 24                # the optional time tracker: two rows

# The resource tracks: key, label, icon, boxes everyone may fill, beige hero extras (tables.TRACK_BOXES).
TRACK_LABELS = {"hearts": ("Life Points", "heart"), "shields": ("Shield", "shield"), "weapon": ("Weapon", "weapon"),
                "clovers": ("Four-leaf Clover", "clover"), "shovels": ("Shovel", "shovel")}
TRACKS = tuple((key, *TRACK_LABELS[key], base, extra) for key, (base, extra) in TRACK_BOXES.items())
TRACK_KEYS = tuple(t[0] for t in TRACKS)

REQUIREMENT_TEXT = {"statues": ("statue", "stand before {n} statue{s}"), "kills": ("monster", "kill {n} monster{s}"),
                    "levers": ("lever", "reach {n} lever{s}"), "cornucopias": ("cornucopia", "keep {n} cornucopia{s}")}

TURN_SEQUENCE = (
    "Move to an adjacent, connected space (explored spaces: move freely).",
    "Roll 1d6 on the table of the zone you came FROM: draw the room.",
    "Face enemies and statues. Won? Collect items, climb stairs.",
    "Shovel: erase a collapsed wall and pass without rolling.",
    "Repeat. Oracle reached: exit through a different zone, then Market.",
)

# the elements summary: icon, short effect (campaign-specific extras are added)
ELEMENTS = (
    ("chest", "1 chest for the market"),
    ("potion", "+1 life point"),
    ("shovel", "+1 shovel"),
    ("weapon", "+1 weapon"),
    ("shield", "+1 shield"),
    ("clover", "+1 four-leaf clover"),
    ("cornucopia", "any 1 resource"),
    ("die", "roll on the die table"),
    ("magic circle", "go to another circle"),
    ("stairs", "climb to the levers"),
    ("lever", "reached by the stairs"),
    ("statue", "dart trap: fight it"),
    ("monster", "fight it: d6 + bonus"),
)
# The Slaughter of Monsters: our own motivational phrases for the foot of the sheet
MOTIVATION = (
    "The doors are gone. So is the way back. Good: now nobody runs, not even them.",
    "Every scar is a tally mark. Every tally mark is a monster that will not see tomorrow.",
    "Fury is not fear. Let it rise, one black box at a time.",
)
POTIONS = (("yellow potion", "+2 life, 1 free step"), ("purple potion", "+3 life, 1 free step"))


@dataclass
class Hero:
    key: str
    name: str
    epithet: str
    difficulty: str
    traits: dict[str, int]
    caps: dict[str, int]
    action: str


@dataclass
class ZoneInfo:
    letter: str
    name: str
    requirement_kind: str | None
    requirement_count: int
    colour: str


@dataclass
class CharacterSpec:
    campaign: str = "ancient"           # the campaign's name (its description: `about`)
    hero_extras: bool = True
    turns: int | None = None            # hourglass boxes (santa, kraken); None: a plain time tracker
    max_enemies: int = SLAUGHTER_MAX    # the kill grid of a campaign that counts enemies (slaughter)
    zones: list[ZoneInfo] = field(default_factory=list)
    hero: Hero | None = None
    title: str = "Character sheet"
    player: str | None = None           # "Player 1" on the 2-player page

    @property
    def about(self) -> Campaign:
        """What the campaign prints (sheetgen.games.foury.tables.Campaign)."""
        return rules_for(self.campaign).campaign

    def track_lengths(self) -> dict[str, tuple[int, int]]:
        """key -> (plain boxes, beige hero boxes)."""
        return track_boxes(self.about, self.hero_extras)


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')}"


class Ink:
    """Colour choices that honour grayscale (ink saver)."""

    def __init__(self, grayscale: bool):
        self.gray = grayscale

    def fill(self, colour: str | None) -> str | None:
        if colour is None or not self.gray:
            return colour
        from sheetgen.draw.icons import grey_of
        return grey_of(colour)


def _text(x, y, s, size=LABEL_PT, font="sans", anchor="start", fill=INK, id=None, cls=None):
    return Text(x, y, s, size=size, font=font, anchor=anchor, fill=fill, id=id, cls=cls)


def _section(items, x, y, w, title, note=""):
    """A section heading with a rule to the right edge (stopping before an optional grey note)."""
    items.append(_text(x, y + 3.0, title.upper(), HEAD_PT, "condensed-bold"))
    end = x + w
    if note:
        items.append(_text(x + w, y + 3.0, note, 6.4, "condensed", "end", GREY))
        end -= text_width(note, "condensed", 6.4) + 1.5
    start = x + text_width(title.upper(), "condensed-bold", HEAD_PT) + 1.5
    if end - start > 3:
        items.append(Line(start, y + 2.0, end, y + 2.0, Style(stroke=LIGHT, stroke_width=0.25)))
    return y + 4.4


def _boxes(items, x, y, n, *, size=BOX, fills=None, id_prefix=None, cls="box", marks=None):
    """A row of n adjacent square boxes; fills[i] shades box i; marks[i] draws a pencil cross."""
    for i in range(n):
        fill = fills[i] if fills else None
        bx = x + i * size
        items.append(Rect(bx, y, size, size, Style(stroke=INK, stroke_width=0.3, fill=fill),
                          id=f"{id_prefix}-{i + 1}" if id_prefix else None, cls=cls))
        if marks and marks[i]:
            d = size * 0.25
            st = Style(stroke=PENCIL, stroke_width=0.45, cap="round")
            items.append(Line(bx + d, y + d, bx + size - d, y + size - d, st))
            items.append(Line(bx + size - d, y + d, bx + d, y + size - d, st))
    return x + n * size


def _label_cell(items, x, y, label, icon_name, colour, width=LABEL_W, size=BOX):
    """Icon and label in front of a row of boxes: one line at LABEL_PT, else two lines at
    TWO_LINE_PT (never a smaller single line: every label of a sheet reads alike)."""
    items.append(icon(icon_name, x, y + 0.1, size - 0.2, colour=colour))
    room = width - size - 1.2
    font = "condensed-bold"
    if text_width(label, font, LABEL_PT) <= room or " " not in label:
        items.append(_text(x + size + 1.0, y + size / 2 + LABEL_PT * 0.127, label, LABEL_PT, font, cls="label"))
        return
    lines = wrap(label, font, TWO_LINE_PT, room)[:2]
    mid = y + size / 2
    for i, ln in enumerate(lines):
        items.append(_text(x + size + 1.0, mid + 0.95 + (i - (len(lines) - 1) / 2) * 2.6, ln, TWO_LINE_PT, font,
                           cls="label"))


def _round_markers(items, x, y, labels, id_prefix, size=BOX):
    """Round indicator boxes with their value written in (x1..x4, +0..+3): tick the current round."""
    for i, lab in enumerate(labels):
        bx = x + i * (size + 0.6)
        items.append(Rect(bx, y, size, size, Style(stroke=INK, stroke_width=0.3, fill="#f4f4f4"), radius=1.2,
                          id=f"{id_prefix}-{i + 1}", cls="round-marker"))
        items.append(_text(bx + size / 2, y + size / 2 + 1.0, lab, 6.8, "condensed-bold", "middle", fill=GREY))
    return x + len(labels) * (size + 0.6)


def character_sheet(x: float, y: float, w: float, h: float, spec: CharacterSpec, grayscale: bool = False,
                    id_prefix: str = "", clear: tuple[float, float] = (0.0, 0.0)) -> list:
    """One character sheet in the box (x, y, w, h); returns the items (ids prefixed for multi-sheet pages).

    clear: how much of the header's left and right ends to leave empty (the corners of a
    page that the scanner's marks use)."""
    ink = Ink(grayscale)
    colour = not grayscale
    items: list = []
    P = id_prefix
    hero = spec.hero
    camp = spec.about
    bottom = y + h

    # -- header -----------------------------------------------------------------
    hx, hw = x + clear[0], w - clear[0] - clear[1]
    items.append(_text(hx, y + 4.6, "DUNGEON FOURY", 12.5, "serif-bold", id=f"{P}sheet-title"))
    sub = spec.title
    room = hw - text_width("DUNGEON FOURY", "serif-bold", 12.5) - 3
    fs = 8.5
    while text_width(sub, "serif-bold", fs) > room and fs > 6.5:
        fs -= 0.25
    items.append(_text(hx + hw, y + 4.4, sub, fs, "serif-bold", "end", id=f"{P}sheet-subtitle"))
    cy = y + 7.0
    if hero:
        items.append(_text(hx, cy + 4.2, hero.name, 11.0, "serif-bold", id=f"{P}hero-name"))
        nx = hx + text_width(hero.name, "serif-bold", 11.0) + 2.0
        diff = hero.difficulty.upper()
        dw = text_width(diff, "condensed-bold", 7.0) + 3.0
        if hero.epithet:
            epithet_pt = 8.5
            while nx + text_width(hero.epithet, "serif-italic", epithet_pt) > hx + hw - dw - 1.5 and epithet_pt > 6.5:
                epithet_pt -= 0.25
            items.append(_text(nx, cy + 4.2, hero.epithet, epithet_pt, "serif-italic"))
        items.append(Rect(hx + hw - dw, cy + 0.9, dw, 4.2,
                          Style(stroke=None, fill=ink.fill({"EASY": "#3f9b3a", "INTERMEDIATE": "#c27a12"}.get(diff, CAP_RED))),
                          radius=1.0, id=f"{P}hero-difficulty"))
        items.append(_text(hx + hw - dw / 2, cy + 4.0, diff, 7.0, "condensed-bold", "middle", fill="#ffffff"))
        cy += 6.0
        lines = wrap("Specific action: " + hero.action, "condensed", SMALL_PT, w)
        for i, ln in enumerate(lines):       # every line: the rest of the sheet moves down (never cut short)
            items.append(_text(x, cy + 2.8 + i * 3.0, ln, SMALL_PT, "condensed", id=f"{P}hero-action" if i == 0 else None))
        cy += 3.0 * max(1, len(lines)) + 1.2
    else:
        who = f"{spec.player}: " if spec.player else "Name: "
        items.append(_text(hx, cy + 3.4, who, LABEL_PT, "condensed-bold"))
        nx = hx + text_width(who, "condensed-bold", LABEL_PT) + 1
        items.append(Line(nx, cy + 3.8, x + w * 0.62, cy + 3.8, Style(stroke=GREY, stroke_width=0.25)))
        items.append(_text(x + w * 0.64, cy + 3.4, "Hero:", LABEL_PT, "condensed-bold"))
        # (to the header's right end: clear of a page corner's marker)
        items.append(Line(x + w * 0.64 + 8.5, cy + 3.8, hx + hw, cy + 3.8, Style(stroke=GREY, stroke_width=0.25)))
        cy += 6.0

    # -- resource tracks -----------------------------------------------------------
    note = "12 traits to share out" if not hero else "pencil over the grey crosses"
    cy = _section(items, x, cy, w, "Resources", note + ("" if not spec.hero_extras or camp.full_scale
                                                        else "; beige: heroes only"))
    lengths = spec.track_lengths()
    longest = max(a + b for a, b in lengths.values()) + camp.fury_boxes
    label_w = LABEL_W
    tbox = min(BOX, (w - label_w) / longest)
    for key, label, icon_name, _, _ in TRACKS:
        base, extra = lengths[key]
        n = base + extra
        fills = [None] * base + [ink.fill(BEIGE)] * extra
        marks = None
        if hero:
            cap = hero.caps.get(key, n)
            for i in range(cap, n):
                fills[i] = CAP_RED if colour else INK
            start = hero.traits.get(key, 0)
            marks = [i < start for i in range(n)]
        _label_cell(items, x, cy, label, icon_name, colour, label_w, tbox)
        bx = _boxes(items, x + label_w, cy, n, size=tbox, fills=fills, id_prefix=f"{P}track-{key}", marks=marks)
        if key == "hearts" and camp.fury_boxes:
            # the Fury: skull boxes at the far right, blacked out from the right
            fx = bx
            for i in range(camp.fury_boxes):
                items.append(Group((icon("skull", fx + i * tbox, cy, tbox, colour=colour),),
                                   id=f"{P}track-fury-{i + 1}", cls="box fury"))
            bx = fx + camp.fury_boxes * tbox
        cy += tbox + 0.7

    # -- counters --------------------------------------------------------------------
    cy += 0.6
    cy = _section(items, x, cy, w, "Counters")
    if camp.max_enemies is not None:
        items.append(_text(x, cy + 3.0, f"ENEMIES DEFEATED (max {spec.max_enemies}): every "
                           f"{_ordinal(KILLS_PER_CORNUCOPIA)} box = 1 cornucopia", SMALL_PT, "condensed-bold"))
        cy += 4.2
        per_row = int((w) // 4.6)
        per_row = min(per_row, 16 if spec.max_enemies % 16 == 0 else per_row)
        size = min(BOX, w / per_row)
        for i in range(spec.max_enemies):
            r, c = divmod(i, per_row)
            bx, by = x + c * size, cy + r * size
            third = (i + 1) % KILLS_PER_CORNUCOPIA == 0
            items.append(Rect(bx, by, size, size, Style(stroke=INK, stroke_width=0.3,
                                                        fill=ink.fill("#f6e7b0") if third else None),
                              id=f"{P}track-enemies-{i + 1}", cls="box"))
            if third:
                items.append(_text(bx + size / 2, by + size - 1.2, str(i + 1), 6.0, "condensed", "middle", GREY))
        cy += ((spec.max_enemies + per_row - 1) // per_row) * size + 1.4
        _label_cell(items, x, cy, "Cornucopias", "cornucopia", colour, label_w)
        hbox = min(BOX, (w - label_w) / CORNUCOPIA_BOXES)
        _boxes(items, x + label_w, cy + (BOX - hbox) / 2, CORNUCOPIA_BOXES, size=hbox,
               id_prefix=f"{P}track-cornucopias")
        cy += BOX + 0.9
        cy = _surprise_resources(items, x, cy, w, label_w, colour, P)
    else:
        # the same boxes on every paper and width (smaller boxes where the sheet is narrow)
        markers = 4 * (BOX + 0.6) + 1.2
        cbox = min(BOX, (w - label_w - markers) / max(CHEST_BOXES, KILL_BOXES))
        _label_cell(items, x, cy, "Chests", "chest", colour, label_w)
        mx = _round_markers(items, x + label_w, cy, tuple(f"x{v}" for v in CHEST_VALUE), f"{P}chest-round")
        _boxes(items, mx + 1.2, cy + (BOX - cbox) / 2, CHEST_BOXES, size=cbox, id_prefix=f"{P}track-chests")
        cy += BOX + 0.9
        _label_cell(items, x, cy, "Monsters defeated", "monster", colour, label_w)
        mx = _round_markers(items, x + label_w, cy, tuple(f"+{v}" for v in ROUND_BONUS), f"{P}monster-round")
        _boxes(items, mx + 1.2, cy + (BOX - cbox) / 2, KILL_BOXES, size=cbox, id_prefix=f"{P}track-kills")
        cy += BOX + 0.9
        _label_cell(items, x, cy, "Cornucopias", "cornucopia", colour, label_w)
        hbox = min(BOX, (w - label_w) / CORNUCOPIA_BOXES)
        _boxes(items, x + label_w, cy + (BOX - hbox) / 2, CORNUCOPIA_BOXES, size=hbox,
               id_prefix=f"{P}track-cornucopias")
        cy += BOX + 0.9
        cy += 0.3
        note = "tick the round: chests x1..x4, monsters +0..+3; kills reset each round"
        fs = NOTE_PT
        while text_width(note, "condensed", fs) > w and fs > 6.0:
            fs -= 0.1
        items.append(_text(x + w, cy + 1.2, note, fs, "condensed", "end", GREY))
        cy += 2.6
        cy = _surprise_resources(items, x, cy, w, label_w, colour, P)

    # -- campaign blocks ---------------------------------------------------------------
    if camp.collection:
        cy = _santa_collection(items, x, cy, w, colour, ink, P)
    if camp.requirements:
        cy = _requirements(items, x, cy, w, spec, colour, ink, P)
    if camp.oracle:
        cy = _oracle(items, x, cy, w, P)

    # -- time ----------------------------------------------------------------------------
    cy = _turns(items, x, cy, w, spec, colour, P)

    # -- summary ---------------------------------------------------------------------------
    cy = _summary(items, x, cy, w, bottom, spec, colour)
    return items


def _surprise_resources(items, x, cy, w, label_w, colour, P):
    """The rules text's "Surprise Resources": a labelled line to write in what has no track of
    its own (a cornucopia's or the die's gift kept for later, a campaign's oddity)."""
    _label_cell(items, x, cy, "Surprise Resources", "die", colour, label_w)
    items.append(Rect(x + label_w, cy, w - label_w, BOX, Style(stroke=INK, stroke_width=0.3), radius=1.0,
                      id=f"{P}surprise-resources", cls="write-in"))
    return cy + BOX + 0.9


def _requirements(items, x, cy, w, spec, colour, ink, P):
    cy += 0.6
    most = max([min(z.requirement_count, 6) for z in spec.zones if z.requirement_kind] or [1])
    box_x = x + 36.0
    oracle_x = max(box_x + most * BOX + 4.0, x + w - 2 * (BOX + 9.0))
    exit_x = oracle_x + BOX + 9.0
    cy = _section(items, x, cy, oracle_x - x - 4.0, "Round requirements")
    # column heads over the tick circles
    items.append(_text(oracle_x + BOX / 2, cy - 1.6, "Oracle", 6.4, "condensed", "middle", GREY))
    items.append(_text(exit_x + BOX / 2, cy - 1.6, "exit", 6.4, "condensed", "middle", GREY))
    for z in spec.zones:
        items.append(Rect(x, cy, BOX, BOX, Style(stroke=INK, stroke_width=0.3, fill=ink.fill(z.colour)),
                          id=f"{P}req-zone-{z.letter}", cls=f"zone-{z.letter}"))
        items.append(_text(x + BOX / 2, cy + 3.7, z.letter, 8.0, "sans-bold", "middle"))
        name = z.name
        fs = LABEL_PT
        while text_width(name, "condensed-bold", fs) > 29 and fs > 6.4:
            fs -= 0.2
        items.append(_text(x + BOX + 1.2, cy + 2.6, name, fs, "condensed-bold", id=f"{P}req-name-{z.letter}"))
        if z.requirement_kind:
            icon_name, phrase = REQUIREMENT_TEXT[z.requirement_kind]
            n = z.requirement_count
            items.append(_text(x + BOX + 1.2, cy + 5.2, phrase.format(n=n, s="s" if n != 1 else ""), 6.4,
                               "condensed", fill=GREY))
            for i in range(min(n, 6)):
                items.append(Rect(box_x + i * BOX, cy, BOX, BOX, Style(stroke=INK, stroke_width=0.3),
                                  id=f"{P}req-{z.letter}-{i + 1}", cls="box requirement"))
                items.append(icon(icon_name, box_x + i * BOX + 0.8, cy + 0.8, BOX - 1.6, colour=False, opacity=0.35))
        for cx_, label in ((oracle_x, "oracle"), (exit_x, "exit")):
            items.append(Circle(cx_ + BOX / 2, cy + BOX / 2, BOX / 2 - 0.2, Style(stroke=INK, stroke_width=0.3),
                                id=f"{P}req-{z.letter}-{label}", cls="box"))
        cy += BOX + 0.6
    return cy + 0.4


def _oracle(items, x, cy, w, P):
    cy += 0.6
    cy = _section(items, x, cy, w, "The Oracle")
    st = Style(stroke=GREY, stroke_width=0.25)
    items.append(_text(x, cy + 3.6, "Question:", LABEL_PT, "condensed-bold", id=f"{P}oracle-question"))
    items.append(Line(x + 13.5, cy + 4.0, x + w, cy + 4.0, st))
    cy += 5.2
    half = (w - 3) / 2
    for i in range(4):
        r, c = divmod(i, 2)
        ax = x + c * (half + 3)
        ay = cy + r * 5.0
        items.append(_text(ax, ay + 3.6, f"{i + 1}.", LABEL_PT, "condensed-bold"))
        items.append(Line(ax + 3.5, ay + 4.0, ax + half, ay + 4.0, st, id=f"{P}oracle-answer-{i + 1}"))
    return cy + 10.2


def _santa_collection(items, x, cy, w, colour, ink, P):
    cy += 0.6
    goal = SANTA_GOAL
    cy = _section(items, x, cy, w, "Santa's collection", f"to win: {goal['reindeer']} reindeer, the sleigh, "
                  f"{goal['green packages']} + {goal['blue packages']} packages")
    rows = (("reindeer", SANTA_GRID["reindeer"], goal["reindeer"]), ("rudolph", SANTA_GRID["rudolph"], 0),
            ("sleigh", 1, goal["sleigh"]), ("green package", SANTA_GRID["green packages"], goal["green packages"]),
            ("blue package", SANTA_GRID["blue packages"], goal["blue packages"]))
    size = 4.6
    col_x = x
    # reindeer + rudolph + sleigh on one row, then the two package rows
    bx = x
    for name, n, need in rows[:3]:
        items.append(icon(name, bx, cy, size, colour=colour))
        bx += size + 0.6
        for i in range(n):
            bold = need and i + 1 == need
            items.append(Rect(bx + i * size, cy, size, size, Style(stroke=INK, stroke_width=0.55 if bold else 0.3),
                              id=f"{P}collect-{name.replace(' ', '-')}-{i + 1}", cls="box"))
        bx += n * size + 2.2
    cy += size + 1.0
    for name, n, need in rows[3:]:
        items.append(icon(name, col_x, cy, size, colour=colour))
        for i in range(n):
            bold = i + 1 == need
            items.append(Rect(col_x + size + 0.6 + i * size, cy, size, size,
                              Style(stroke=INK, stroke_width=0.55 if bold else 0.3),
                              id=f"{P}collect-{name.replace(' ', '-')}-{i + 1}", cls="box"))
        cy += size + 1.0
    items.append(icon("candy cane", x, cy, size, colour=colour))
    items.append(_text(x + size + 0.8, cy + 3.3, "Candy canes", LABEL_PT, "condensed-bold"))
    bx = x + size + 0.8 + text_width("Candy canes", "condensed-bold", LABEL_PT) + 1.2
    _boxes(items, bx, cy, 6, size=size, id_prefix=f"{P}track-candy-canes")
    sx = bx + 6 * size + 2.5
    items.append(icon("star", sx, cy, size, colour=colour))
    label = "XMas Safe Zone reached"
    if sx + size + 0.8 + text_width(label, "condensed-bold", LABEL_PT) > x + w - size - 1.0:
        label = "Safe Zone reached"
    items.append(_text(sx + size + 0.8, cy + 3.3, label, LABEL_PT, "condensed-bold"))
    items.append(Rect(x + w - size, cy, size, size, Style(stroke=INK, stroke_width=0.5), id=f"{P}safe-zone", cls="box"))
    cy += size + 1.0
    for ln in wrap("Yeti/Grinch: fight, or give a candy cane (not a kill). If the Grinch wins he destroys a green "
                   "package; the Yeti, a blue one.", "condensed", 6.4, w):
        items.append(_text(x, cy + 2.6, ln, 6.4, "condensed", fill=GREY))
        cy += 2.8
    return cy + 1.2


COIN_W = 33.0                  # the INSERT COIN box beside the time boxes (1.5 mm gap included)


def _coin_box(items, x, y, w, h, colour, P):
    items.append(Rect(x, y, w, h, Style(stroke=INK, stroke_width=0.5), radius=1.5, id=f"{P}insert-coin",
                      cls="insert-coin"))
    items.append(icon("coin", x + 1.0, y + (h - 6.0) / 2, 6.0, colour=colour))
    items.append(_text(x + 7.8, y + h / 2 - 0.4, "INSERT COIN", 6.8, "condensed-bold"))
    items.append(_text(x + 7.8, y + h / 2 + 2.7, "did a good deed?", 6.0, "condensed", fill=GREY))
    items.append(Rect(x + w - 5.4, y + (h - 4.4) / 2, 4.4, 4.4, Style(stroke=INK, stroke_width=0.35),
                      id=f"{P}insert-coin-box"))


def _turns(items, x, cy, w, spec, colour, P):
    cy += 0.6
    title = "Hourglass: cross one box each turn" if spec.turns else "Time tracker (optional): turns played"
    cy = _section(items, x, cy, w, title)
    size = 4.5
    camp = spec.about
    coin_w = COIN_W if camp.insert_coin else 0.0
    note = camp.hourglass_note if spec.turns else ""
    beside = False
    if spec.turns:
        # rows of whole fives (the Kr counter lines up); the coin box goes beside the boxes
        # when that is shorter than a row of its own
        n = spec.turns
        best = None
        for box in (4.5, 4.0):
            full = 5 * int(w // (5 * box))
            narrow = 5 * int((w - coin_w - 1.5) // (5 * box)) if coin_w else 0
            h_full = -(-n // full) * box + (9.0 + 1.0 if coin_w else 0.0)
            h_narrow = max(-(-n // narrow) * box, 9.0) if narrow and not note else 1e9
            for height, beside_, per in ((h_narrow, True, narrow), (h_full, False, full)):
                if best is None or height < best[0] - 0.5:
                    best = (height, beside_, per, box)
        _, beside, per_row, size = best
    else:
        per_row = TIME_BOXES // 2
        size = min(size, (w - coin_w - 1.5) / per_row)
        n = TIME_BOXES
    rows = (n + per_row - 1) // per_row
    for i in range(n):
        r, c = divmod(i, per_row)
        bx, by = x + c * size, cy + r * size
        kr = camp.flood_every is not None and (i + 1) % camp.flood_every == 0
        items.append(Rect(bx, by, size, size, Style(stroke=INK, stroke_width=0.55 if kr else 0.3,
                                                    fill=("#d6ebf8" if colour else "#e2e2e2") if kr else None),
                          id=f"{P}track-turns-{i + 1}", cls="box turn"))
        if kr:
            items.append(_text(bx + size / 2, by + size - 1.3, "Kr", 6.0, "condensed-bold", "middle", GREY))
    top = cy
    cy += rows * size + 1.0
    if not spec.turns or beside:
        if coin_w:
            bh = min(max(rows * size, 9.0), 12.0)
            _coin_box(items, x + w - coin_w + 1.5, top + (max(rows * size, bh) - bh) / 2, coin_w - 1.5, bh, colour, P)
            cy = max(cy, top + bh + 1.0)
        return cy
    lines = wrap(note, "condensed", 6.4, w - coin_w - 1.5) if note else []
    for i, ln in enumerate(lines):
        items.append(_text(x, cy + 2.6 + i * 2.8, ln, 6.4, "condensed", fill=GREY))
    bh = 9.0
    if coin_w:
        _coin_box(items, x + w - coin_w + 1.5, cy, coin_w - 1.5, bh, colour, P)
    return cy + max(bh if coin_w else 0.0, len(lines) * 2.8) + 1.0


ELEMENT_GAP = 1.5              # mm between the columns of the elements summary
ELEMENT_PT = (6.8, 6.6, 6.4, 6.2, 6.0)


def _elements_layout(effects: list[str], w: float, room: float) -> tuple[int, float, float]:
    """(columns, icon size, text size) of the elements summary: two columns when they fit,
    else three with smaller icons; one text size for every effect (the largest all fit at)."""
    from sheetgen.draw.lint import CLEARANCE
    widest = max(text_width(e, "condensed", 1.0) for e in effects)
    fallback = None
    for ncols, size in ((2, 4.4), (3, 4.0), (3, 3.6), (3, 3.2), (3, 2.8)):
        col_w = (w - ELEMENT_GAP * (ncols - 1)) / ncols
        fits = [pt for pt in ELEMENT_PT if widest * pt <= col_w - size - 0.8 - CLEARANCE]
        if not fits:
            continue
        rows = (len(effects) + ncols - 1) // ncols
        pitch = size + 0.7 if size > 3.0 else size + 0.4
        fallback = (ncols, size, fits[0])              # the most compact that fits across
        if rows * pitch <= room:
            return ncols, size, fits[0]
    return fallback or (3, 2.8, ELEMENT_PT[-1])


def _summary(items, x, cy, w, bottom, spec, colour):
    cy += 0.6
    cy = _section(items, x, cy, w, "Turn sequence")
    camp = spec.about
    seq = list(TURN_SEQUENCE)
    for index, line in camp.turn_sequence:
        seq[index] = line
    for i, step in enumerate(seq):
        lines = wrap(step, "condensed", SMALL_PT, w - 4.0)
        items.append(_text(x, cy + 2.8, f"{i + 1}", SMALL_PT, "condensed-bold"))
        for ln in lines:
            items.append(_text(x + 3.5, cy + 2.8, ln, SMALL_PT, "condensed"))
            cy += 3.0
    cy += 0.8
    cy = _section(items, x, cy, w, "Elements")
    elements = list(ELEMENTS)
    if camp.potions:
        elements[1:2] = [("potion", "+1 life")] + list(POTIONS)
    elements += camp.elements
    ncols, size, fs = _elements_layout([effect for _, effect in elements], w, bottom - cy)
    rows = (len(elements) + ncols - 1) // ncols
    pitch = size + 0.7 if size > 3.0 else size + 0.4
    col_w = (w - ELEMENT_GAP * (ncols - 1)) / ncols
    for i, (name, effect) in enumerate(elements):
        r, c = i % rows, i // rows
        ex, ey = x + c * (col_w + ELEMENT_GAP), cy + r * pitch
        items.append(icon(name, ex, ey, size, colour=colour))
        items.append(_text(ex + size + 0.8, ey + size / 2 + fs * 0.13, effect, fs, "condensed", cls="element"))
    cy += rows * pitch
    if camp.motivation and cy + 14 < bottom:
        cy += 1.5
        cy = _section(items, x, cy, w, "Before you start, read this aloud")
        for line in MOTIVATION:
            for ln in wrap(line, "serif-italic", 8.0, w):
                items.append(_text(x, cy + 3.2, ln, 8.0, "serif-italic"))
                cy += 3.5
            if cy + 4 > bottom:
                break
    return cy
