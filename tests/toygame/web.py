"""The toy game on the companion page (`sheetgen play --ruleset ladder`): the GamePage contract.
The sheet is a row of squares; the view pencils the squares reached and offers a move per roll."""
from __future__ import annotations

from dataclasses import dataclass

from sheetgen.draw.model import Document, Page, Rect, Style
from sheetgen.games.base import GamePage, PageView

from . import notation
from .rules import RULES
from .tracker import ADAPTER

SQUARE, MARGIN, HEIGHT = 8.0, 10.0, 30.0       # mm


@dataclass
class LadderSheet:
    doc: Document
    boxes: dict[int, tuple[float, float, float, float]]     # square -> (x, y, w, h)


def _size(length: int) -> tuple[float, float]:
    return (2 * MARGIN + (length + 1) * SQUARE, HEIGHT)


class LadderPage(GamePage):
    def sheet_key(self, header: dict):
        return header["length"]

    def sheet(self, header: dict) -> LadderSheet:
        length = header["length"]
        page = Page(*_size(length), name="ladder")
        boxes = {}
        for n in range(length + 1):
            boxes[n] = (MARGIN + n * SQUARE, MARGIN, SQUARE, SQUARE)
            page.add(Rect(*boxes[n], id=f"square-{n}"))
        return LadderSheet(Document([page], title="Ladder", name="ladder"), boxes)

    def _pencil(self, header: dict, state, sheet: LadderSheet) -> Document:
        page = Page(*_size(header["length"]), name="pencil")
        for n in range(state.at + 1):
            page.add(Rect(*sheet.boxes[n], style=Style(stroke=None, fill="#555555", opacity=0.4), id=f"reached-{n}"))
        return Document([page], title="Ladder", name="ladder-pencil")

    def view(self, header: dict, steps: list, sheet, told=None, pending=None, state=None, game=None) -> PageView:
        if state is None:
            state = ADAPTER.replay(header, steps)
        actions = [{"kind": "step", "label": f"roll {a.roll}: to {a.to}" if hasattr(a, "roll") else "claim the win",
                    "step": notation.serialize(a), "die": False} for a in RULES.legal_actions(state)]
        width, height = _size(header["length"])
        return PageView(overlay=self._pencil(header, state, sheet), page=(width, height),
                        crop=(0.0, 0.0, width, height), focus=sheet.boxes[state.at], targets=[], actions=actions,
                        fight=None, status=ADAPTER.status(state).splitlines(), resources=[],
                        phase="won" if state.won else "playing", over=state.won, position=f"square {state.at}")

    def step_from_form(self, kind: str, form):
        if kind != "move":
            return None
        try:
            return {"move": int(form["roll"]), "to": int(form["to"])}
        except (KeyError, ValueError):
            return "a move needs a roll and a square, both numbers"

    def pencil_document(self, header: dict, steps: list) -> Document:
        return self._pencil(header, ADAPTER.replay(header, steps), self.sheet(header))


PAGE = LadderPage()
