"""A plain reportlab script drawing the page `sheetgen build graph-20x28 --format pdf`
draws (A4: the 20 x 28 grid of 9.5 mm squares, its title and notes in the same four
bundled fonts, the entrance mark, footer and 50 mm ruler), as one would write it by
hand: the baseline of bench/run.py's whole-process figures.

    python bench/plain_graph.py OUT.pdf [PAGES]
"""
import sys
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONTS = Path(__file__).resolve().parent.parent / "fonts"
MM = 72 / 25.4
W, H = 210.0, 297.0
X0, Y0, CELL, COLS, ROWS = 10.0, 19.0, 9.5, 20, 28


def grey(c, hex_colour: str, stroke: bool) -> None:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    (c.setStrokeColorRGB if stroke else c.setFillColorRGB)(r, g, b)


def line(c, x1, y1, x2, y2) -> None:
    c.line(x1 * MM, (H - y1) * MM, x2 * MM, (H - y2) * MM)


def text(c, x, y, s, font, size, colour="#000000", anchor="start") -> None:
    grey(c, colour, stroke=False)
    c.setFont(font, size)
    draw = {"start": c.drawString, "end": c.drawRightString}[anchor]
    draw(x * MM, (H - y) * MM, s)


def page(c, number: int) -> None:
    text(c, 10, 12.52, "Dungeon exploration", "serif-bold", 15)
    text(c, 200, 12.88, "Adventurer ____________________   Date ____________", "sans", 8.5, "#333333", "end")
    c.setLineCap(0)
    for major in (False, True):
        grey(c, "#555555" if major else "#9a9a9a", stroke=True)
        c.setLineWidth((0.28 if major else 0.14) * MM)
        for i in range(1, COLS):
            if (i % 5 == 0) == major:
                line(c, X0 + i * CELL, Y0, X0 + i * CELL, Y0 + ROWS * CELL)
        for j in range(1, ROWS):
            if (j % 5 == 0) == major:
                line(c, X0, Y0 + j * CELL, X0 + COLS * CELL, Y0 + j * CELL)
    grey(c, "#000000", stroke=True)
    c.setLineWidth(0.5 * MM)
    c.rect(X0 * MM, (H - Y0 - ROWS * CELL) * MM, COLS * CELL * MM, ROWS * CELL * MM)
    text(c, 10, 15.94, "20 × 28 squares of 9.5 mm · a4 · the entrance room goes at the bottom centre",
         "condensed", 6.5, "#555555")
    grey(c, "#000000", stroke=False)
    path = c.beginPath()
    path.moveTo(105 * MM, (H - 285.5) * MM)
    path.lineTo(102.6 * MM, (H - 289.3) * MM)
    path.lineTo(107.4 * MM, (H - 289.3) * MM)
    path.close()
    c.drawPath(path, stroke=0, fill=1)
    text(c, 108.14, 288.85, "ENTRANCE", "sans-bold", 6.5)
    text(c, 5, 293, f"Exploration graph sheet 20 × 28 · seed 1 · page {number}", "sans", 6, "#555555")
    c.setLineWidth(0.2 * MM)
    rx, ry = W - 64.0, 293.0
    line(c, rx, ry, rx + 50, ry)
    for mm in range(51):
        line(c, rx + mm, ry, rx + mm, ry - (2.0 if mm % 10 == 0 else 1.4 if mm % 5 == 0 else 0.8))
    text(c, rx + 51, ry, "50 mm", "sans", 6, "#555555")
    c.showPage()


def main(out: str, pages: int) -> None:
    for name, file in (("serif-bold", "EBGaramond12-Bold.ttf"), ("sans", "DejaVuSans.ttf"),
                       ("condensed", "DejaVuSansCondensed.ttf"), ("sans-bold", "DejaVuSans-Bold.ttf")):
        pdfmetrics.registerFont(TTFont(name, str(FONTS / file)))
    c = Canvas(out, pagesize=(W * MM, H * MM), invariant=1)
    for n in range(1, pages + 1):
        page(c, n)
    c.save()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1)
