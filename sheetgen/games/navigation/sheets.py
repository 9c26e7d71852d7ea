"""Card-grid navigation sheets: room cards (N-up), the dungeon grid, the player
sheet and the navigation token sheet.

A room card shows its four sides (open: a gap in the wall; door: a door with a
keyhole and the letter D; wall: a brick band and the letter W), its type symbol,
and its action symbols at the bottom, inside a red outline (and a '!' mark, for
ink-saver prints) when they are a hazard.
"""
from __future__ import annotations

from sheetgen.fonts import fit_size, wrap
from sheetgen.draw.cards import CARD_H, CARD_W, INK, frame, paragraph, title
from sheetgen.draw.furniture import finish_page, sheet_id
from sheetgen.draw.model import Circle, Document, Group, Line, Page, Polygon, Rect, Style, Text, allow_overlap
from sheetgen.draw.options import PAPER_SIZES
from .tables import BASE_MOVES, BOOTS_MOVES, ITEM_NAMES, MAGIC_MIRROR, SPEED_BOOTS, START, UNRESOLVE_XP

RED = "#d0312d"
GREEN = "#2e8b57"
DOOR = "#8b5a2b"
STONE = "#8c867c"
TYPE_FILL = {"monster": "#f3dede", "lair": "#f3dede", "trap": "#efe6d2", "treasure": "#f6efcf", "fountain": "#dcecf6",
             "blacksmith": "#e6e3df", "warp": "#e8def3", "bounty-hunter": "#efe2d6", "start": "#e2f0df",
             "shrine": "#eef0dc", "library": "#e9e4d6", "merchant": "#f4e7d9", "armory": "#e3e6ea",
             "corridor": "#f1efe9"}
TYPE_ICON = {"monster": "monster", "lair": "skull", "trap": "statue", "treasure": "chest", "fountain": "potion",
             "blacksmith": "weapon", "warp": "magic circle", "bounty-hunter": "coin", "start": "start",
             "shrine": "star", "library": "oracle", "merchant": "market", "armory": "shield", "corridor": "entry"}
BAND = 4.0            # mm: thickness of the side band
MIN_PT = 6.2          # pt: the smallest text of a card drawn small on the dungeon map


def _side(d: str, kind: str, grayscale: bool, cid: str, label_size: float = 7.0) -> Group:
    """One side of a room card, drawn along the trim edge d."""
    w, h = CARD_W, CARD_H
    horizontal = d in ("n", "s")
    length = w if horizontal else h
    items: list = []
    # drawn for the north side, then rotated into place
    if kind == "wall":
        fill = None if grayscale else STONE
        items.append(Rect(0, 0, length, BAND, Style(stroke=INK, stroke_width=0.3, fill=fill)))
        for i in range(1, int(length / 6) + 1):          # bricks: told apart from doors without colour
            x = i * 6 - (3 if i % 2 else 0)
            items.append(Line(x, 0, x, BAND, Style(stroke=INK, stroke_width=0.2)))
        items.append(Line(0, BAND / 2, length, BAND / 2, Style(stroke=INK, stroke_width=0.2)))
        label = "W"
    elif kind == "door":
        fill = None if grayscale else STONE
        items.append(Rect(0, 0, length, BAND, Style(stroke=INK, stroke_width=0.3, fill=fill)))
        dw = 14.0
        x0 = (length - dw) / 2
        items.append(Rect(x0, 0, dw, BAND + 3.0, Style(stroke=INK, stroke_width=0.4, fill=None if grayscale else DOOR),
                          radius=1.0))
        items.append(Circle(length / 2, BAND / 2 + 0.4, 0.8, Style(stroke=None, fill=INK)))
        items.append(Polygon(((length / 2 - 0.5, BAND / 2 + 0.6), (length / 2 + 0.5, BAND / 2 + 0.6),
                              (length / 2, BAND + 1.8)), Style(stroke=None, fill=INK)))
        label = "D"
    else:
        fill = None if grayscale else STONE
        gap = 18.0
        a = (length - gap) / 2
        items.append(Rect(0, 0, a, BAND, Style(stroke=INK, stroke_width=0.3, fill=fill)))
        items.append(Rect(length - a, 0, a, BAND, Style(stroke=INK, stroke_width=0.3, fill=fill)))
        label = ""
    if label:
        items.append(Text(6.0, BAND + 1.5 + label_size * 0.38, label, size=label_size, font="sans-bold", fill=INK))
    if d == "n":
        t = None
    elif d == "s":
        t = (-1.0, 0.0, 0.0, -1.0, w, h)               # rotate 180
    elif d == "e":
        t = (0.0, 1.0, -1.0, 0.0, w, 0.0)              # rotate 90 clockwise
    else:
        t = (0.0, -1.0, 1.0, 0.0, 0.0, h)              # rotate 90 anticlockwise
    return Group(tuple(items), transform=t, id=f"side-{cid}-{d}-{kind}", cls=f"side side-{kind}")


def room_card(card, grayscale: bool = False, compact: bool = False, scale: float = 1.0) -> Group:
    """The face of one room card (definitions.navigation.RoomCard).

    compact: for the dungeon map, drawn smaller: no rules text, larger labels.
    scale: how much smaller the card is drawn (compact): its labels grow so that none prints
    under MIN_PT."""
    from sheetgen.draw.icons import icon
    cid = card.id
    least = MIN_PT / scale              # the smallest size, in the card's own points
    items: list = frame(TYPE_FILL.get(card.type, "#f1efe9"), grayscale)
    for d in ("n", "e", "s", "w"):
        items.append(_side(d, getattr(card.sides, d), grayscale, cid, max(9.5, least) if compact else 7.0))
    items.append(title(card.title, 15.5 if compact else 14.5, size=14.0 if compact else 11.0, id=f"title-{cid}"))
    items.append(Text(CARD_W / 2, 22.5 if compact else 19.5, card.type.replace("-", " ").upper(),
                      size=max(9.0, least) if compact else 6.5, font="condensed-bold",
                      anchor="middle", fill=INK, cls="card-type"))
    items.append(icon(TYPE_ICON.get(card.type, "entry"), CARD_W / 2 - 12, 27.0 if compact else 22.0,
                      24.0 if compact else 22.0, colour=not grayscale, id=f"symbol-{cid}"))
    if card.text and not compact:
        items.extend(paragraph(card.text, 9.0, 50.0, CARD_W - 18, size=7.5, max_lines=3))
    if card.xp and not compact:
        items.append(Text(CARD_W - 9.0, 14.5 + 6.5, f"{card.xp} XP", size=6.5, font="sans-bold", anchor="end",
                          fill=INK, cls="xp"))
    items.append(_actions(card, grayscale, max(9.0, least) if compact else 6.5, max(8.0, least) if compact else 8))
    return Group(tuple(items), id=f"room-{cid}", cls=f"room-card room-{card.type}")


def _actions(card, grayscale: bool, label: float = 6.5, number: float = 8) -> Group:
    """The action symbols at the bottom (where navigation tokens go), hazard outlined in red."""
    funcs = card.action_symbols
    y0, hgt = 63.5, 14.5
    items: list = []
    if not funcs:
        items.append(Text(CARD_W / 2, y0 + 9, "no action", size=label + 0.5, font="sans", anchor="middle", fill="#666666"))
        return Group(tuple(items), id=f"actions-{card.id}", cls="actions")
    n = len(funcs)
    slot_w = 20.0
    x0 = CARD_W / 2 - (n * slot_w + (n - 1) * 3) / 2
    hazard = card.hazard_functions
    for i, f in enumerate(funcs):
        x = x0 + i * (slot_w + 3)
        outlined = f in hazard
        style = Style(stroke=RED if (outlined and not grayscale) else INK,
                      stroke_width=1.0 if outlined else 0.35,
                      dash=(1.6, 0.8) if (outlined and grayscale) else None,
                      fill=None if grayscale else "#ffffff")
        items.append(Rect(x, y0, slot_w, hgt, style, radius=3.0, id=f"action-{card.id}-{i + 1}",
                          cls="action hazard" if outlined else "action"))
        items.append(Circle(x + slot_w / 2, y0 + 5.2, 3.6, Style(stroke=INK, stroke_width=0.3)))
        items.append(Text(x + slot_w / 2, y0 + 6.6, str(i + 1), size=number, font="sans-bold", anchor="middle", fill=INK))
        items.append(Text(x + slot_w / 2, y0 + 12.6, f[:12], size=fit_size(f[:12], "condensed", label, slot_w - 2),
                          font="condensed", anchor="middle", fill=INK))
        if outlined:
            items.append(Text(x + 2.2, y0 + 4.6, "!", size=max(9, number), font="sans-bold", fill=RED if not grayscale else INK,
                              cls="hazard-mark"))
    return Group(tuple(items), id=f"actions-{card.id}", cls="actions")


def _back(grayscale: bool) -> Group:
    items = frame("#3b3a4a", grayscale)
    items.append(Rect(8, 8, CARD_W - 16, CARD_H - 16, Style(stroke=INK if grayscale else "#d8c58a", stroke_width=0.8),
                      radius=3))
    items.append(Text(CARD_W / 2, CARD_H / 2, "DUNGEON", size=14, font="serif-bold", anchor="middle",
                      fill=INK if grayscale else "#d8c58a"))
    return Group(tuple(items), cls="card-back")


def _paper(options, own: str) -> tuple[float, float]:
    return PAPER_SIZES[options.paper or own]


def deck_document(title_text: str, cards: list, options, paper: str = "a4", bleed: float = 0.0) -> Document:
    from sheetgen.draw.nup import nup_pages
    pw, ph = _paper(options, paper)
    faces = [room_card(c, options.grayscale) for c in cards]
    backs = [_back(options.grayscale)] if options.duplex else None
    pages = nup_pages(faces, CARD_W, CARD_H, pw, ph, bleed=bleed, backs=backs, duplex=options.duplex, name="rooms")
    sid = sheet_id("nav-deck", [c.id for c in cards], options.grayscale, pw)
    for p in pages:
        finish_page(p, options, sid, footer=title_text)
    return Document(pages, title=title_text, name="navigation-deck")


def dungeon_document(d, options) -> Document:
    """The dungeon as a grid of small cards (a map to lay the real cards by)."""
    pw, ph = _paper(options, d.defn.paper)
    page = Page(pw, ph, name="dungeon")
    margin, top = 12.0, 26.0
    page.add(Text(pw / 2, 16, d.defn.title, size=16, font="serif-bold", anchor="middle", fill=INK, id="title"))
    avail_w, avail_h = pw - 2 * margin - 4, ph - top - 30
    cell = min(avail_w / d.cols, avail_h / d.rows * (CARD_W / CARD_H))
    cw, ch = cell, cell * CARD_H / CARD_W
    x0 = (pw - cw * d.cols) / 2
    scale_k = cw / CARD_W
    for r in range(d.rows):
        for c in range(d.cols):
            x, y = x0 + c * cw, top + r * ch
            page.add(Rect(x, y, cw, ch, Style(stroke="#b0b0b0", stroke_width=0.2, dash=(1, 1)),
                          id=f"cell-{c}-{r}", cls="cell"))
    for cid, (c, r) in d.pos.items():
        x, y = x0 + c * cw, top + r * ch
        inner = room_card(d.cards[cid], options.grayscale, compact=True, scale=scale_k * 0.96)
        page.add(Group((inner,), transform=(scale_k * 0.96, 0, 0, scale_k * 0.96, x + cw * 0.02, y + ch * 0.02),
                       id=f"place-{cid}", cls="placed"))
        if cid == d.start and d.cards[cid].type != "start":
            # (a start card says START itself) over the card's action row, clear of its wall band
            page.add(allow_overlap(Text(x + cw / 2, y + ch * 0.02 + 60.0 * scale_k * 0.96, "START", size=8,
                                        font="sans-bold", anchor="middle",
                                        fill=GREEN if not options.grayscale else INK, id="start")))
    legend = ("Sides: gap = open (free) · D = locked door (key) · W = wall (bomb) · 1 HP may replace either · "
              "red outline / ! = hazard, resolve on entry · a room anyone entered is free from any side")
    ly = top + d.rows * ch + 6
    for k, line in enumerate(wrap(legend, "sans", 8, pw - 2 * margin)):
        page.add(Text(pw / 2, ly + k * 4, line, size=8, font="sans", anchor="middle", fill=INK, cls="legend"))
    for c in range(d.cols):
        page.add(Text(x0 + c * cw + cw / 2, top - 1.5, str(c + 1), size=7, font="sans-bold", anchor="middle",
                      fill="#777777", cls="coord"))
    for r in range(d.rows):
        page.add(Text(x0 - 2, top + r * ch + ch / 2, str(r + 1), size=7, font="sans-bold", anchor="end",
                      fill="#777777", cls="coord"))
    sid = sheet_id("nav-dungeon", sorted(d.pos.items()), options.grayscale, pw)
    finish_page(page, options, sid, footer=d.defn.title)
    return Document([page], title=d.defn.title, name="navigation-dungeon")


def _boxes(x, y, n, size, label, per_row=10, idp="box"):
    items = [Text(x, y - 1.5, label, size=9, font="sans-bold", fill=INK)]
    for i in range(n):
        r, c = divmod(i, per_row)
        items.append(Rect(x + c * (size + 1.5), y + r * (size + 1.5), size, size,
                          Style(stroke=INK, stroke_width=0.3), radius=0.8, id=f"{idp}-{i + 1}"))
    return items


def sheet_document(defn, options) -> Document:
    pw, ph = _paper(options, defn.paper)
    if defn.sheet == "tokens":
        return _tokens(defn, options, pw, ph)
    page = Page(pw, ph, name="player")
    title_text = defn.title or "Player sheet"
    page.add(Text(pw / 2, 16, title_text, size=16, font="serif-bold", anchor="middle", fill=INK, id="title"))
    block_h = (ph - 30 - 14) / defn.players
    for i in range(defn.players):
        y = 24 + i * block_h
        p = f"p{i + 1}"
        page.add(Rect(12, y, pw - 24, block_h - 6, Style(stroke=INK, stroke_width=0.5), radius=3, id=f"{p}-frame"))
        page.add(Text(17, y + 9, "Name", size=9, font="sans-bold", fill=INK))
        page.add(Line(30, y + 9.5, pw / 2, y + 9.5, Style(stroke=INK, stroke_width=0.25)))
        page.add(*_boxes(17, y + 18, defn.hp, 7, "HP (cross one off per damage or sacrifice)", idp=f"{p}-hp"))
        bx = 17
        by = y + 18 + 8.5 * ((defn.hp - 1) // 10 + 1) + 8
        page.add(*_boxes(bx, by, 8, 7, f"Keys ({START['keys']} at setup; trap rooms give more)", per_row=8,
                         idp=f"{p}-key"))
        page.add(*_boxes(pw / 2 + 5, by, 8, 7, f"Bombs ({START['bombs']} at setup)", per_row=8, idp=f"{p}-bomb"))
        page.add(*_boxes(bx, by + 17, 20, 6, f"XP (unresolve a bordering room: {UNRESOLVE_XP} XP)", per_row=20,
                         idp=f"{p}-xp"))
        iy = by + 34
        page.add(Text(bx, iy, "Items", size=9, font="sans-bold", fill=INK))
        for j, (name, note) in enumerate(((ITEM_NAMES[SPEED_BOOTS], f"move up to {BOOTS_MOVES} rooms"),
                                          (ITEM_NAMES[MAGIC_MIRROR], "teleport to any room (counts as a move)"))):
            x = bx + j * (pw / 2 - 12)
            page.add(Rect(x, iy + 3, 5, 5, Style(stroke=INK, stroke_width=0.3), id=f"{p}-item-{j + 1}"))
            page.add(Text(x + 7, iy + 7, name, size=9, font="sans-bold", fill=INK))
            page.add(Text(x + 7, iy + 11.5, note, size=7, font="sans", fill=INK))
        page.add(Text(bx, iy + 19, f"Moves this turn ({BASE_MOVES}; warp to warp is free):", size=8, font="sans",
                      fill=INK))
        for k in range(BOOTS_MOVES):
            page.add(Circle(bx + 62 + k * 7, iy + 17.8, 2.4, Style(stroke=INK, stroke_width=0.3,
                                                                   dash=(0.8, 0.6) if k >= BASE_MOVES else None),
                            id=f"{p}-move-{k + 1}"))
        bottom = y + block_h - 6
        page.add(Text(bx, iy + 28, "Notes (rooms resolved, bounties, bonus XP)", size=8, font="sans-bold", fill=INK))
        ly = iy + 35
        while ly < bottom - 3:
            page.add(Line(bx, ly, pw - 17, ly, Style(stroke="#9a9a9a", stroke_width=0.2)))
            ly += 7
    sid = sheet_id("nav-player", defn.players, defn.hp, options.grayscale, pw)
    finish_page(page, options, sid, footer=title_text)
    return Document([page], title=title_text, name="navigation-player")


def _token(grayscale: bool) -> Group:
    r = 9.0
    items = [Circle(r, r, r, Style(stroke=INK, stroke_width=0.3, fill=None if grayscale else GREEN)),
             Polygon(((r - 4.5, r + 0.2), (r - 1.2, r + 3.8), (r + 5.0, r - 3.6)),
                     Style(stroke="#ffffff" if not grayscale else INK, stroke_width=1.6, cap="round", join="round"),
                     closed=False)]
    return Group(tuple(items), cls="token")


def _tokens(defn, options, pw, ph) -> Document:
    """Green-check navigation tokens, 18 mm, N-up (a full page unless a count is given)."""
    from sheetgen.draw.nup import nup_grid, nup_pages
    # the grid both papers hold, so a sheet prints the same tokens on A4 and on Letter
    grids = [nup_grid(18, 18, *size, gap=3.0) for size in PAPER_SIZES.values()]
    cols, rows = min(g.cols for g in grids), min(g.rows for g in grids)
    count = defn.tokens or cols * rows
    faces = [_token(options.grayscale) for _ in range(count)]
    pages = nup_pages(faces, 18, 18, pw, ph, gap=3.0, name="tokens", cols=cols, rows=rows)
    title_text = defn.title or "Navigation tokens: cover a resolved action symbol"
    sid = sheet_id("nav-tokens", count, options.grayscale, pw)
    for p in pages:
        finish_page(p, options, sid, footer=title_text)
    return Document(pages, title=title_text, name="navigation-tokens")
