"""Shuffle Dungeons print-and-play: every card (rooms, monsters, items, heroes on
both sides, the Boss room) N-up with crop marks, and the one-page reference."""
from __future__ import annotations

from sheetgen.draw.cards import CARD_H, CARD_W, INK, badge, frame, paragraph, title
from sheetgen.draw.furniture import CORNER_ZONE, finish_page, sheet_id
from sheetgen.draw.model import Circle, Document, Group, Line, Page, Polygon, Rect, Style, Text
from sheetgen.draw.options import PAPER_SIZES
from .tables import HAND_SIZE, KO_BURN

RED = "#d0312d"
FLOOR = "#e9e1cf"
ROCK = "#5b5548"
FILLS = {"room": "#f4efe3", "monster": "#f6dede", "item": "#e5eef6", "hero": "#e5f1e1", "boss": "#efe0f3"}
ITEM_ICON = {"weapon": "weapon", "armor": "shield", "spell": "magic circle", "snack": "potion"}


def card_icon(card, default: str) -> str:
    """The icon of a monster or hero card: the first word of its id or name that names an
    icon (Cave Rat: rat, Tunnel Ogre: ogre, Knight ...), else default."""
    from sheetgen.draw.icons import icon_key
    from sheetgen.errors import InputError
    words = [w for text in (card.id, card.title) for w in text.lower().replace("-", " ").split()]
    for word in reversed(words):            # the noun comes last: "Goblin Sneak" is found as goblin
        try:
            return icon_key(word)
        except InputError:
            continue
    return default


def room_art(paths, x, y, size, grayscale: bool, cid: str) -> Group:
    """A room tile: rock with corridors from the centre to each open path."""
    items = [Rect(x, y, size, size, Style(stroke=INK, stroke_width=0.35, fill=None if grayscale else ROOK_FILL),
                  cls="rock")]
    if grayscale:       # rock by hatching instead of fill
        for i in range(1, int(size / 3)):
            items.append(Line(x + i * 3, y, x, y + i * 3, Style(stroke="#9a9a9a", stroke_width=0.15)))
            items.append(Line(x + size, y + i * 3, x + i * 3, y + size, Style(stroke="#9a9a9a", stroke_width=0.15)))
    c = size / 2
    half = size * 0.16
    floor = Style(stroke=INK, stroke_width=0.3, fill="#ffffff" if grayscale else FLOOR)
    items.append(Rect(x + c - half * 1.6, y + c - half * 1.6, half * 3.2, half * 3.2, floor))
    for p in paths:
        p = p.lower()
        if p == "n":
            r = (x + c - half, y, 2 * half, c)
        elif p == "s":
            r = (x + c - half, y + c, 2 * half, c)
        elif p == "e":
            r = (x + c, y + c - half, c, 2 * half)
        else:
            r = (x, y + c - half, c, 2 * half)
        items.append(Rect(*r, Style(stroke=None, fill="#ffffff" if grayscale else FLOOR), id=f"path-{cid}-{p}",
                          cls="open-path"))
    return Group(tuple(items), id=f"tile-{cid}", cls="tile")


ROOK_FILL = ROCK


def _kind_band(text: str, grayscale: bool, fill: str) -> list:
    return [Rect(6, 4.5, CARD_W - 12, 6.5, Style(stroke=None, fill=None if grayscale else fill), radius=1.5),
            Text(CARD_W / 2, 9.4, text.upper(), size=7.0, font="condensed-bold", anchor="middle",
                 fill=INK if grayscale else "#ffffff")]


def room_face(r, grayscale: bool, cid: str) -> Group:
    items = frame(FILLS["room"], grayscale)
    items += _kind_band(r.type if r.type != "room" else "room", grayscale, "#8a7a55")
    items.append(title(r.title, 17.5))
    items.append(room_art(r.paths, 11.5, 21, 40, grayscale, cid))
    y = 68.0
    lines = []
    if r.type == "trap":
        lines.append(f"TRAP {r.challenge}+: roll d6 + speed.")
        if r.reward:
            lines.append(f"Reward: {r.reward}")
        if r.penalty:
            lines.append(f"Penalty: {r.penalty}")
    if r.power:
        lines.append(r.power)
    items += paragraph(" ".join(lines), 7.0, y, CARD_W - 14, size=7.5, max_lines=4)
    return Group(tuple(items), id=f"card-{cid}", cls="card room")


def _minimap(area, x, y, cell, grayscale: bool) -> Group:
    """3x3 (or larger) minimap: the monster in the middle, its area in red (and crossed for ink saver)."""
    offs = [tuple(o) for o in (area if area is not None else [[0, -1], [1, 0], [0, 1], [-1, 0]])]
    reach = max([1] + [max(abs(a), abs(b)) for a, b in offs])
    n = 2 * reach + 1
    items = []
    for i in range(n):
        for j in range(n):
            dx, dy = i - reach, j - reach
            hot = (dx, dy) in offs or (dx, dy) == (0, 0)
            fill = (RED if (dx, dy) != (0, 0) else "#7a1010") if hot and not grayscale else None
            cx, cy = x + i * cell, y + j * cell
            items.append(Rect(cx, cy, cell, cell, Style(stroke=INK, stroke_width=0.25, fill=fill)))
            if (dx, dy) == (0, 0):
                items.append(Text(cx + cell / 2, cy + cell * 0.72, "M", size=cell * 1.6, font="sans-bold",
                                  anchor="middle", fill=INK if grayscale else "#ffffff"))
            elif hot and grayscale:
                items.append(Line(cx, cy, cx + cell, cy + cell, Style(stroke=INK, stroke_width=0.3)))
                items.append(Line(cx + cell, cy, cx, cy + cell, Style(stroke=INK, stroke_width=0.3)))
    return Group(tuple(items), cls="minimap")


def _wound(x, y, colour, grayscale: bool) -> Group:
    """A wound drop; black wounds are solid, red ones outlined with an R when there is no colour."""
    pts = ((x, y - 2.2), (x + 1.6, y + 0.4), (x, y + 2.0), (x - 1.6, y + 0.4))
    if colour == "red":
        items = [Polygon(pts, Style(stroke=INK, stroke_width=0.3, fill=None if grayscale else RED))]
        if grayscale:
            items.append(Text(x, y + 1.0, "R", size=5.5, font="sans-bold", anchor="middle", fill=INK))
    else:
        items = [Polygon(pts, Style(stroke=INK, stroke_width=0.3, fill=INK))]
    return Group(tuple(items), cls=f"wound wound-{colour}")


def monster_face(m, grayscale: bool, cid: str) -> Group:
    from sheetgen.draw.icons import icon
    items = frame(FILLS["monster"], grayscale)
    items += _kind_band("monster", grayscale, "#a32b2b")
    items.append(title(m.title, 17.5))
    items.append(icon(card_icon(m, "monster"), 6.5, 21.5, 22, colour=not grayscale, id=f"art-{cid}"))
    items.append(_minimap(m.area, 37.5, 22, 6.2 if not m.area or max(max(abs(a), abs(b)) for a, b in m.area) <= 1
                          else 3.8, grayscale))
    items.append(Text(47, 44.5, "area", size=6.0, font="condensed", anchor="middle", fill=INK))
    items.append(badge(12, 51, 4.2, str(m.attack), "#444444", grayscale, "ATTACK", id=f"atk-{cid}"))
    items.append(badge(25, 51, 4.2, str(m.dice), "#666666", grayscale, "DICE"))
    items.append(badge(38, 51, 4.2, str(m.hp), "#b02a2a", grayscale, "HP", id=f"hp-{cid}"))
    items.append(badge(51, 51, 4.2, str(m.loot), "#b0862a", grayscale, "LOOT"))
    x = 9.0
    items.append(Text(7, 64.5, "Wounds", size=6.5, font="sans-bold", fill=INK))
    x = 25.0
    for _ in range(m.wounds.black):
        items.append(_wound(x, 63, "black", grayscale))
        x += 4.2
    for _ in range(m.wounds.red):
        items.append(_wound(x, 63, "red", grayscale))
        x += 4.2
    items += paragraph(f"Power: {m.power}" if m.power else "", 7.0, 71.0, CARD_W - 14, size=7.0, max_lines=2)
    items.append(Text(CARD_W / 2, 81.5, "slain: flip to its room side", size=6.0, font="condensed", anchor="middle",
                      fill=INK))
    return Group(tuple(items), id=f"card-{cid}", cls="card monster")


def monster_room_face(m, grayscale: bool, cid: str) -> Group:
    items = frame(FILLS["room"], grayscale)
    items += _kind_band("slain monster: room", grayscale, "#8a7a55")
    items.append(title(m.title, 17.5))
    items.append(room_art(m.room_paths, 11.5, 21, 40, grayscale, cid + "-room"))
    return Group(tuple(items), id=f"card-{cid}-room", cls="card room")


def item_face(it, grayscale: bool, cid: str) -> Group:
    from sheetgen.draw.icons import icon
    items = frame(FILLS["item"], grayscale)
    items += _kind_band(it.type, grayscale, "#2f5f8f")
    items.append(title(it.title, 17.5))
    items.append(icon(ITEM_ICON[it.type], CARD_W / 2 - 12, 21, 24, colour=not grayscale))
    stats = []
    if it.attack:
        stats.append((f"{it.attack:+d}", "ATTACK", "#444444"))
    if it.speed:
        stats.append((f"{it.speed:+d}", "SPEED", "#2f6fc0"))
    if it.hp:
        stats.append((str(it.hp), "ARMOR HP", "#6b6b6b"))
    if it.heal:
        stats.append((f"+{it.heal}", "HEAL", "#3f9b3a"))
    for i, (v, label, fill) in enumerate(stats):
        cx = CARD_W / 2 + (i - (len(stats) - 1) / 2) * 15
        items.append(badge(cx, 53, 4.6, v, fill, grayscale, label))
    text = []
    if it.power:
        text.append(it.power)
    if it.type == "snack":
        text.append("Eat, then burn. Usable on any hero, even on another player's turn.")
    if it.type == "armor":
        text.append("Damage may go on the armour; burn it when destroyed.")
    if it.upgrade:
        u = it.upgrade
        text.append("UPGRADE: " + (u.text or f"with {u.requires}: " + ", ".join(
            f"{v:+d} {k}" for k, v in (("attack", u.attack), ("speed", u.speed)) if v)))
    items += paragraph(" ".join(text), 7.0, 66.0, CARD_W - 14, size=7.0, max_lines=4)
    return Group(tuple(items), id=f"card-{cid}", cls="card item")


def hero_face(h, side, grayscale: bool, cid: str, leveled: bool) -> Group:
    from sheetgen.draw.icons import icon
    items = frame(FILLS["hero"], grayscale)
    items += _kind_band("hero - levelled" if leveled else "hero", grayscale, "#2f6b2a")
    items.append(title(h.title, 17.5))
    items.append(icon(card_icon(h, "start"), CARD_W / 2 - 11, 21, 22, colour=not grayscale,
                      id=f"art-{cid}{'-leveled' if leveled else ''}"))
    if leveled:                             # the levelled side: the hero's own icon with a star
        items.append(icon("star", CARD_W / 2 + 6, 19.5, 9, colour=not grayscale))
    for i, (v, label, fill) in enumerate(((side.speed, "SPEED", "#2f6fc0"), (side.attack, "ATTACK", "#444444"),
                                          (side.dice, "DICE", "#666666"), (side.hp, "HP", "#b02a2a"))):
        items.append(badge(12 + i * 13, 52, 4.2, str(v), fill, grayscale, label))
    items += paragraph(side.power, 7.0, 66.0, CARD_W - 14, size=7.5, max_lines=4)
    return Group(tuple(items), id=f"card-{cid}{'-leveled' if leveled else ''}", cls="card hero")


def boss_face(b, grayscale: bool) -> Group:
    items = frame(FILLS["boss"], grayscale)
    items += _kind_band("boss room", grayscale, "#5b2a6b")
    items.append(title(b.title, 17.5))
    items.append(room_art(b.paths, 11.5, 21, 40, grayscale, b.id))
    text = f"Flips face up when a room connects. FLIP: {b.flip_power}"
    items += paragraph(text, 7.0, 68.0, CARD_W - 14, size=7.5, max_lines=4)
    return Group(tuple(items), id=f"card-{b.id}", cls="card boss")


def spare_face(grayscale: bool, n: int) -> Group:
    """A blank room card for the empty slots of the last sheet: a lost card's twin, or a room
    of the players' own (name on the line, corridors pencilled from the centre)."""
    items = frame(FILLS["room"], grayscale)
    items += _kind_band("spare room", grayscale, "#8a7a55")
    items.append(Line(9.0, 18.0, CARD_W - 9.0, 18.0, Style(stroke=INK, stroke_width=0.25)))
    # the ink-saver tile (hatched rock, white floor) in colour too: pencil shows on it
    items.append(room_art((), 11.5, 21, 40, True, f"spare-{n}"))
    items += paragraph("Blank: copy a lost card, or pencil the open paths and a power of your own.",
                       7.0, 68.0, CARD_W - 14, size=7.5, max_lines=4)
    return Group(tuple(items), id=f"card-spare-{n}", cls="card spare")


def _back(grayscale: bool) -> Group:
    items = frame("#2d2a33", grayscale)
    items.append(Text(CARD_W / 2, CARD_H / 2 - 2, "SHUFFLE", size=13, font="serif-bold", anchor="middle",
                      fill=INK if grayscale else "#e0c98f"))
    items.append(Text(CARD_W / 2, CARD_H / 2 + 6, "DUNGEONS", size=13, font="serif-bold", anchor="middle",
                      fill=INK if grayscale else "#e0c98f"))
    return Group(tuple(items), cls="card-back")


def faces_and_backs(loaded, grayscale: bool, duplex: bool) -> tuple[list, list | None]:
    """Every card face; with duplex, each card's back is its other side (a hero's
    levelled side, a monster's room side) or the common back.  Without duplex the
    other sides are printed as faces of their own, to glue back to back."""
    d = loaded.deck
    back = _back(grayscale)
    out, backs, extra = [], [], []
    for r in d.rooms:
        out += [room_face(r, grayscale, r.id)] * r.copies
        backs += [back] * r.copies
    for m in d.monsters:
        out += [monster_face(m, grayscale, m.id)] * m.copies
        other = monster_room_face(m, grayscale, m.id)
        backs += [other] * m.copies
        extra += [other] * m.copies
    for it in d.items:
        out += [item_face(it, grayscale, it.id)] * it.copies
        backs += [back] * it.copies
    for h in d.heroes:
        out.append(hero_face(h, h, grayscale, h.id, False))
        other = hero_face(h, h.leveled, grayscale, h.id, True)
        backs.append(other)
        extra.append(other)
    if d.boss:
        out.append(boss_face(d.boss, grayscale))
        backs.append(back)
    if duplex:
        return out, backs
    return out + extra, None


def deck_document(loaded, options) -> Document:
    """All cards N-up with crop marks (see faces_and_backs for the two-sided cards)."""
    from sheetgen.draw.nup import nup_grid, nup_pages
    d = loaded.deck
    pw, ph = PAPER_SIZES[options.paper or d.paper]
    faces, backs = faces_and_backs(loaded, options.grayscale, options.duplex)
    # the last sheet's empty slots get blank room cards (the core deck left two thirds of a page empty)
    per_page = nup_grid(CARD_W, CARD_H, pw, ph, bleed=d.bleed).per_page
    for n in range(1, -len(faces) % per_page + 1):
        faces.append(spare_face(options.grayscale, n))
        if backs is not None:
            backs.append(_back(options.grayscale))
    pages = nup_pages(faces, CARD_W, CARD_H, pw, ph, bleed=d.bleed, backs=backs, duplex=options.duplex,
                      name="cards")
    sid = sheet_id("shuffle-deck", d.model_dump(), options.grayscale, options.duplex, pw)
    for p in pages:
        finish_page(p, options, sid, footer=d.title)
    return Document(pages, title=d.title, name="shuffle-cards")


SEQUENCE = [
    ("MOVE up to your speed (can be split).", [
        "In a Ward's area: may activate it.",
        "In a Shrine: may use its power once per turn.",
        "Entering a Trap: roll d6 + speed. At least the challenge number: reward; else penalty.",
        "In a Monster's area (red on its minimap): may FIGHT it. Fighting ENDS THE TURN.",
        "Ending the turn in a Monster's area: MUST fight it."]),
    ("FIGHT", [
        "Other heroes in the Monster's area assist: +1 die each. Other monsters assist if the hero is in several areas.",
        "Hero attack = dice + base attack + weapon attack + powers.",
        "Monster attack = dice + base attack + powers. The hero wins if hero attack >= monster attack.",
        "Hero wins: the monster takes damage = difference (min 1) + card effects. Slain: gain its loot pile, one "
        "hero who took part may level up (flip to the levelled side), flip the monster to its room side.",
        "Monster wins: hero and assistants take 1 damage per black wound; share the red wounds as you like; then "
        "the monster's power.",
        f"Knocked out (damage = HP): burn all equipped cards, remove all damage, burn the top {KO_BURN} dungeon cards."]),
    ("DRAW 1 card per open path of your current room.", ["A monster is played face up from an open path."]),
    ("PLAY any number of cards from your hand.", [
        "Eat a snack, then burn it (also on other heroes, even on their turn).",
        "Equip: 1 weapon, 1 armour, 1 spell; burn replaced equipment.",
        "BUILD a room on an open path. Connecting to the Boss room: flip it face up and use its flip power."]),
    ("USE a card's power once per turn.", None),
    ("TRADE with another hero in the same room: any cards, if both players agree.", None),
]
GENERAL = [
    f"Hand size {HAND_SIZE}: burn extras at the end of your turn.",
    "Monsters are not rooms until slain.",
    "When rooms move, the heroes inside move with them.",
    "Armour can take damage instead of the hero; burn it when destroyed (damage = its HP).",
    "Equipment upgrades unlock when their requirements are met, and are lost when they are not.",
]
TERMS = [
    ("BUILD", "add a room to an open path"), ("BURN", "discard"), ("EMPTY ROOM", "a room without any heroes"),
    ("HALT", "end the turn"), ("LOOT", "take a card from the dungeon into your hand (monsters: into their loot pile)"),
    ("SHIFT", "move a room one space"), ("SLIDE", "move freely along a straight path until you cannot go farther"),
    ("SWAP", "trade the places of two rooms and their contents"), ("TWIST", "turn a room to any new direction"),
]


def reference_document(defn, options) -> Document:
    pw, ph = PAPER_SIZES[options.paper or defn.paper]
    # laid out once at the base sizes, then again with the type grown to fill the page
    # (at the base sizes a quarter of a Letter or A4 page stayed empty), up to 1.3 times
    bottom = ph - CORNER_ZONE
    page, end = _reference_page(defn, options, pw, ph, 1.0)
    f = 1.3
    while f > 1.0:                  # the largest that fits (wrapping makes the height jump)
        grown, end = _reference_page(defn, options, pw, ph, f)
        if end <= bottom:
            page = grown
            break
        f = round(f - 0.02, 2)
    sid = sheet_id("shuffle-reference", defn.title, options.grayscale, pw)
    finish_page(page, options, sid, footer=defn.title)
    return Document([page], title=defn.title, name="shuffle-reference")


def _reference_page(defn, options, pw: float, ph: float, f: float) -> tuple[Page, float]:
    """The reference page with its type and spacing f times the base; and the y where it ends."""
    from sheetgen.fonts import wrap
    page = Page(pw, ph, name="reference")
    mx = 14.0
    width = pw - 2 * mx
    page.add(Text(pw / 2, 17, defn.title, size=15, font="serif-bold", anchor="middle", fill=INK, id="title"))
    y = 27.0
    body, small, head_pt = 10.5 * f, 9.5 * f, 10.5 * f
    lead = lambda s: s * 1.3 * 25.4 / 72   # noqa: E731

    def lines(text, x, size, font, w, ident=None):
        nonlocal y
        for k, line in enumerate(wrap(text, font, size, w)):
            page.add(Text(x, y, line, size=size, font=font, fill=INK, id=ident if k == 0 else None))
            y += lead(size)

    def heading(text, ident):
        nonlocal y
        page.add(Rect(mx - 3, y - 5.5 * f, width + 6, 7.5 * f,
                      Style(stroke=None, fill=None if options.grayscale else "#e8e1d0")))
        page.add(Text(mx, y, text, size=head_pt, font="sans-bold", fill=INK, id=ident))
        y += 7 * f

    heading("SEQUENCE OF PLAY", "sequence")
    lines("In any order, once per turn:", mx, body, "sans", width)
    y += 1 * f
    for head, subs in SEQUENCE:
        page.add(Circle(mx + 1.2, y - 1.2 * f, 0.9 * f, Style(stroke=None, fill=INK)))
        lines(head, mx + 4, body, "sans-bold", width - 4)
        for sub in subs or ():
            page.add(Text(mx + 6, y, "-", size=small, font="sans", fill=INK))
            lines(sub, mx + 9, small, "sans", width - 9)
        y += 1.5 * f
    y += 2 * f
    heading("GENERAL", "general")
    for g in GENERAL:
        page.add(Circle(mx + 1.2, y - 1.2 * f, 0.9 * f, Style(stroke=None, fill=INK)))
        lines(g, mx + 4, small, "sans", width - 4)
    y += 3 * f
    heading("TERMINOLOGY", "terminology")
    term_w = 34 * f
    for term, meaning in TERMS:
        page.add(Text(mx, y, term, size=body, font="sans-bold", fill=INK, id=f"term-{term.lower().replace(' ', '-')}"))
        lines(meaning, mx + term_w, small, "sans", width - term_w)
        y += 0.8 * f
    return page, y
