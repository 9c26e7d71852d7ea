"""The Dungeon Exploration adapter of the companion page (`sheetgen play --ruleset exploration`): `PAGE`.

Map mode on the page: the graph sheet with the rooms drawn so far (sheets.map_document),
the unexplored doors to tap, the dice asked one by one (each a d6: the d66's tens and
units, the 2d6 of the contents, a retrace d6 per room walked back through), the rolled
shape's placements at the door drawn and numbered for the player to pick one.  Steps and
rules are the tracker's (sheetgen.games.exploration.tracker).
"""
from __future__ import annotations

from typing import Any, Mapping

from sheetgen.draw.model import Document, Group, Page, Rect, Style, Text
from sheetgen.games.base import GamePage, PageView, Told
from .sheets import GraphLayout, paper_size, map_document, outline_walls
from .tracker import ADAPTER

HIGHLIGHT = Style(stroke="#d0342c", stroke_width=1.2, cap="square")
FAINT = Style(stroke="#d0342c", stroke_width=0.35, dash=(0.8, 0.8))
FOCUS_SQUARES = 10.5        # squares across a phone's view: about 9 mm each at 360 px


class Sheet:
    __slots__ = ("doc", "rects", "crop", "layout")

    def __init__(self, doc: Document, crop: tuple[float, float, float, float], layout: GraphLayout) -> None:
        self.doc, self.crop, self.layout = doc, crop, layout
        self.rects: dict = {}


class ExplorationPage(GamePage):
    ruleset = "exploration"
    tracker = ADAPTER

    def sheet_key(self, header: dict) -> tuple:
        return ("exploration", tuple(header.get("sheet", (20, 28))))

    def sheet(self, header: dict) -> Sheet:
        w, h = header.get("sheet", (20, 28))
        pw, ph = paper_size("a4")
        lay = GraphLayout(w, h, pw, ph)
        doc = Document([Page(pw, ph, [], name="blank")], title="graph sheet", name="graph")
        m = lay.sq * 0.6
        crop = (lay.x0 - m, lay.y0 - m, w * lay.sq + 2 * m, h * lay.sq + 2 * m)
        return Sheet(doc, crop, lay)

    def _doc(self, ex: Any) -> Document:
        from sheetgen.draw.options import BuildOptions
        return map_document(ex, BuildOptions(), title="Dungeon map (as played)")

    def print_document(self, header: dict, sheet: Sheet) -> Document:
        """The blank graph sheet to print."""
        from sheetgen.draw.options import BuildOptions
        from .sheets import graph_document
        w, h = header.get("sheet", (20, 28))
        return graph_document(w, h, BuildOptions())

    def pencil_document(self, header: dict, steps: list) -> Document:
        return self._doc(ADAPTER.replay(header, steps).ex)

    def view(self, header: dict, steps: list, sheet: Sheet, told: Told | None = None, pending: Any = None,
             state: Any = None, game: Any = None) -> PageView:
        """What the page shows after STEPS (state: the tracker's state after them, when the caller
        has it; game: the caller's name for the game, unused here)."""
        state = ADAPTER.replay(header, steps) if state is None else state
        ex = state.ex
        lay = sheet.layout
        page = self._doc(ex).pages[0]
        marks: list = []
        sq = lay.sq
        if told and ex.rooms:
            marks.extend(outline_walls(set(ex.rooms[-1].cells), lay.x0 - sq, lay.y0 - sq, sq, HIGHLIGHT,
                                       ident_prefix="hl-room"))
        choose = None
        if isinstance(pending, dict) and "open" in pending and pending.get("place") is None:
            asked = {k: v for k, v in pending.items() if k != "preview"}
            found = ADAPTER.choices_due(state, asked)
            if found:
                preview = pending.get("preview")
                shown = preview if isinstance(preview, int) else 1
                shown = min(max(shown, 1), len(found))
                options = []
                for i, (v, tx, ty) in enumerate(found, 1):
                    cells = {(x + tx, y + ty) for x, y in v.cells}
                    if i == shown:
                        for x, y in cells:
                            cx, cy = lay.cell(x, y)
                            marks.append(Rect(cx, cy, sq, sq, Style(stroke=None, fill="#f4c7c3"), cls="hl candidate"))
                        marks.extend(outline_walls(cells, lay.x0 - sq, lay.y0 - sq, sq, HIGHLIGHT,
                                                   ident_prefix=f"candidate-{i}"))
                        lx, ly = lay.cell(*_middle(cells))
                        marks.append(Text(lx + sq * 0.5, ly + sq * 0.75, str(i), sq * 1.4, "sans-bold",
                                          anchor="middle", fill="#d0342c", id=f"candidate-label-{i}"))
                    else:
                        marks.extend(outline_walls(cells, lay.x0 - sq, lay.y0 - sq, sq, FAINT))
                    turn = [f"rotated {v.rotate}" if v.rotate else "as printed"]
                    if v.mirror:
                        turn.append("mirrored")
                    if v.stretch:
                        turn.append(f"stretched {v.stretch}")
                    options.append({"n": i, "label": f"{i}: " + ", ".join(turn), "step": dict(asked, place=i),
                                    "show": dict(asked, preview=i), "shown": i == shown})
                choose = {"title": f"Where does the room go? {len(found)} placements fit",
                          "options": options, "shown": options[shown - 1]}
        overlay = Document([Page(page.width, page.height,
                                 [Group(tuple(page.items), id="pencil", cls="pencil"),
                                  Group(tuple(marks), id="highlight", cls="hl")])])
        targets: list[dict[str, Any]] = []
        actions: list[dict[str, Any]] = []
        if choose is not None:
            pass                                # the placement first: no other door meanwhile
        elif not ex.rooms:
            actions.append({"kind": "entrance", "label": "roll the entrance room (d6)", "step": {}, "die": True})
        elif not ex.ended:
            for room, door in ex.unexplored():
                (bx, by) = door.beyond
                cx, cy = lay.cell(bx, by)
                step = {"open": door.at}
                label = f"open the door {door.at} of room {room.id}"
                targets.append({"id": f"open-{door.x}-{door.y}-{door.side}",
                                "box": (cx - sq * 0.25, cy - sq * 0.25, sq * 1.5, sq * 1.5),
                                "step": step, "label": label, "die": True})
                actions.append({"kind": "open", "label": label, "step": step, "die": True})
            for step, words in ADAPTER.legal(state):        # search, retreat, the party's death
                kind = next(iter(step))
                actions.append({"kind": kind, "label": words, "step": step,
                                "die": kind == "retreat" and bool(ADAPTER.dice_due(state, step))})
        focus = None
        if ex.rooms and not ex.ended:
            here = next((r for r in ex.rooms if r.id == ex.here), ex.rooms[-1])
            mx = sum(x for x, _ in here.cells) / len(here.cells)
            my = sum(y for _, y in here.cells) / len(here.cells)
            cx, cy = lay.cell(mx, my)
            side = sq * FOCUS_SQUARES
            x0, y0, cw, ch = sheet.crop
            focus = (min(max(cx + sq / 2 - side / 2, x0), x0 + cw - side),
                     min(max(cy + sq / 2 - side / 2, y0), y0 + ch - side), side, side)
        if focus is not None:
            # the squares' numbers along the zoomed view's top and left edges: "room at 9,24" read
            # off the phone (the whole sheet prints them outside the grid, out of this view)
            overlay.pages[0].items.append(_coords(lay, ex.width, ex.height, focus))
        return {
            "overlay": overlay, "crop": sheet.crop, "focus": focus, "page": (page.width, page.height),
            "targets": targets, "actions": actions, "fight": None, "choose": choose,
            "status": ADAPTER.status(state).splitlines()[1:],
            "resources": [("rooms", len(ex.rooms), None), ("minutes", ex.minutes, None),
                          ("wandering", ex.wandering(), None)],
            "phase": "start" if not ex.rooms else ("over" if ex.ended else "inside"),
            "over": bool(ex.ended),
            "position": f"room {ex.here}" if ex.rooms else None,
            "hint": ("The rolled room waits for its place: pick one of the placements." if choose else
                     _ENDED.get(ex.ended, f"The dungeon has ended ({ex.ended}).") if ex.ended else
                     "Tap the square beyond an unexplored door to open it; squares are x,y (x across from 1 at "
                     "the left, y down from 1 at the top)." if ex.rooms else
                     "Roll the entrance room to start."),
        }

    def step_from_form(self, kind: str, form: Mapping[str, str]) -> dict | str | None:
        return None

    def title(self, header: dict) -> str:
        return f"Dungeon Exploration, table {header.get('table', 'builtin')}"


_ENDED = {"retreat": "The party retreated out the entrance: the dungeon has ended. Export the play log.",
          "dead": "The party died: the dungeon has ended. Export the play log.",
          "final-boss": "The Final Boss: the dungeon has ended. Export the play log.",
          "no-doors": "No unexplored door is left: the dungeon has ended. Export the play log."}


def _coords(lay: GraphLayout, width: int, height: int, focus: tuple[float, float, float, float]) -> Group:
    """x numbers across the top of the FOCUS view and y numbers down its left edge, on a pale band."""
    import math
    fx, fy, fw, fh = focus
    sq = lay.sq
    band = Style(stroke=None, fill="#ffffff")
    items: list = [Rect(fx, fy, fw, sq * 0.62, band, cls="coords band"), Rect(fx, fy, sq * 0.78, fh, band,
                                                                                cls="coords band")]
    size = sq * 1.15                            # points: about 0.4 of a square
    first_x = max(1, math.ceil((fx - lay.x0) / sq) + 1)
    first_y = max(1, math.ceil((fy - lay.y0) / sq) + 1)
    for x in range(first_x + 1, width + 1):     # the first column is under the y numbers
        cx, _ = lay.cell(x, 1)
        if cx + sq > fx + fw:
            break
        items.append(Text(cx + sq / 2, fy + sq * 0.48, str(x), size, "sans-bold", anchor="middle", fill="#2f5d8a",
                          id=f"coord-x-{x}"))
    for y in range(first_y + 1, height + 1):
        _, cy = lay.cell(1, y)
        if cy + sq > fy + fh:
            break
        items.append(Text(fx + sq * 0.39, cy + sq * 0.62, str(y), size, "sans-bold", anchor="middle",
                          fill="#2f5d8a", id=f"coord-y-{y}"))
    return Group(tuple(items), id="coords-near", cls="coords near")


def _middle(cells: set[tuple[int, int]]) -> tuple[int, int]:
    """The square of a room nearest its middle (for its number)."""
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c))


PAGE = ExplorationPage()
