"""Render benchmark: sheetgen's back ends against plain library scripts drawing
the same page (a 20x28 grid of 9 mm squares and 40 text labels on A4).

Each figure is a ratio measured in this run; every measurement runs in a fresh
subprocess (so peak memory is that job's alone) and the best of a few runs is
kept.  Usage: python bench/bench_render.py [--quick]
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLS, ROWS, CELL = 20, 28, 9.0
X0, Y0 = (210 - COLS * CELL) / 2, 24.0
LABELS = 40
PT_PER_MM = 72 / 25.4


def label_positions():
    """40 labels: column letters on top, row numbers at the left."""
    out = []
    for i in range(COLS):
        out.append((X0 + (i + 0.5) * CELL, Y0 - 1.5, chr(65 + i)))
    for j in range(LABELS - COLS):
        out.append((X0 - 1.5, Y0 + (j + 0.7) * CELL, str(j + 1)))
    return out


# ---- workers (run in a subprocess; print one JSON line) ------------------------

def sheetgen_doc(pages: int, stream: bool = False):
    """The bench document; stream=True gives its pages as a generator."""
    from sheetgen.draw.model import Document
    gen = bench_pages(pages)
    return Document(gen if stream else list(gen), title="bench", name="bench")


def bench_pages(pages: int):
    from sheetgen.draw.model import Group, Line, Page, Style, Text
    grid_style = Style(stroke="#000000", stroke_width=0.25)
    for p in range(pages):
        # built afresh per page, as a composer would: equal content, new objects
        lines = [Line(X0 + i * CELL, Y0, X0 + i * CELL, Y0 + ROWS * CELL, grid_style) for i in range(COLS + 1)]
        lines += [Line(X0, Y0 + j * CELL, X0 + COLS * CELL, Y0 + j * CELL, grid_style) for j in range(ROWS + 1)]
        page = Page(210, 297, name="graph")
        page.add(Group(tuple(lines), id="grid", cls="grid"))
        for k, (x, y, s) in enumerate(label_positions()):
            anchor = "middle" if k < COLS else "end"
            page.add(Text(x, y, s, size=8, font="sans", anchor=anchor))
        page.add(Text(5, 292, f"page {p + 1}", size=6))
        yield page


def worker_pdf_sheetgen(pages: int, stream: bool = False) -> None:
    import reportlab.pdfgen.canvas  # noqa: F401  (as in the plain script)
    from sheetgen.render.pdf import render_pdf
    t = time.perf_counter()
    render_pdf(sheetgen_doc(pages, stream), "/dev/null")
    report(time.perf_counter() - t)


def worker_pdf_sheetgen_stream(pages: int) -> None:
    worker_pdf_sheetgen(pages, stream=True)


def worker_pdf_plain(pages: int) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from sheetgen.fonts import font_path
    t = time.perf_counter()
    pdfmetrics.registerFont(TTFont("DejaVuSans", str(font_path("sans"))))
    c = Canvas("/dev/null", pagesize=(210 * PT_PER_MM, 297 * PT_PER_MM), invariant=1, initialFontName="DejaVuSans")
    H = 297 * PT_PER_MM
    k = PT_PER_MM
    labels = label_positions()
    for p in range(pages):
        c.setLineWidth(0.25 * k)
        for i in range(COLS + 1):
            x = (X0 + i * CELL) * k
            c.line(x, H - Y0 * k, x, H - (Y0 + ROWS * CELL) * k)
        for j in range(ROWS + 1):
            y = H - (Y0 + j * CELL) * k
            c.line(X0 * k, y, (X0 + COLS * CELL) * k, y)
        c.setFont("DejaVuSans", 8)
        for n, (x, y, s) in enumerate(labels):
            if n < COLS:
                c.drawCentredString(x * k, H - y * k, s)
            else:
                c.drawRightString(x * k, H - y * k, s)
        c.setFont("DejaVuSans", 6)
        c.drawString(5 * k, H - 292 * k, f"page {p + 1}")
        c.showPage()
    c.save()
    report(time.perf_counter() - t)


def worker_svg_sheetgen(pages: int) -> None:
    import svgwrite  # noqa: F401  (imported before the clock, as in the plain script)
    from sheetgen.render.svg import iter_svg_pages
    t = time.perf_counter()
    doc = sheetgen_doc(pages)
    for _ in iter_svg_pages(doc):
        pass
    report(time.perf_counter() - t)


def worker_svg_plain(pages: int) -> None:
    import svgwrite
    labels = label_positions()
    t = time.perf_counter()
    for p in range(pages):
        dwg = svgwrite.Drawing(size=("210mm", "297mm"), viewBox="0 0 210 297", debug=False)
        for i in range(COLS + 1):
            x = X0 + i * CELL
            dwg.add(dwg.line((x, Y0), (x, Y0 + ROWS * CELL), stroke="#000000", stroke_width=0.25))
        for j in range(ROWS + 1):
            y = Y0 + j * CELL
            dwg.add(dwg.line((X0, y), (X0 + COLS * CELL, y), stroke="#000000", stroke_width=0.25))
        size = 8 / PT_PER_MM
        for n, (x, y, s) in enumerate(labels):
            dwg.add(dwg.text(s, insert=(x, y), font_family="DejaVu Sans", font_size=size,
                             text_anchor="middle" if n < COLS else "end"))
        dwg.add(dwg.text(f"page {p + 1}", insert=(5, 292), font_family="DejaVu Sans", font_size=6 / PT_PER_MM))
        dwg.tostring()
    report(time.perf_counter() - t)


def worker_png_sheetgen(pages: int) -> None:
    import PIL.ImageDraw, PIL.ImageFont  # noqa: F401,E401  (as in the plain script)
    from sheetgen.render.png import iter_png_pages
    t = time.perf_counter()
    doc = sheetgen_doc(pages)
    for _ in iter_png_pages(doc, dpi=150):
        pass
    report(time.perf_counter() - t)


def worker_png_sheetgen_stairs(pages: int) -> None:
    """The PNG renderer before antialiasing (drawn once at the resolution, zlib's default level)."""
    import io
    import PIL.ImageDraw, PIL.ImageFont  # noqa: F401,E401  (as in the plain script)
    from sheetgen.render.png import render_page_image
    t = time.perf_counter()
    doc = sheetgen_doc(pages)
    for page in doc.pages:
        buf = io.BytesIO()
        render_page_image(page, 150, supersample=1).save(buf, "PNG", dpi=(150, 150))
    report(time.perf_counter() - t)


def _pack_pages():
    from sheetgen.build import DEFAULT_PACK, compose_pack, load
    from sheetgen.draw.options import BuildOptions
    return list(compose_pack(load(DEFAULT_PACK), BuildOptions()).pages)


def worker_png_pack(pages: int) -> None:
    """The default pack's pages (the first `pages` of its 30) as build writes them."""
    from sheetgen.render.png import png_bytes
    chosen = _pack_pages()[:pages]
    t = time.perf_counter()
    for page in chosen:
        png_bytes(page, 150)
    report(time.perf_counter() - t)


def worker_png_pack_stairs(pages: int) -> None:
    """The same pages with the renderer before antialiasing."""
    import io
    from sheetgen.render.png import render_page_image
    chosen = _pack_pages()[:pages]
    t = time.perf_counter()
    for page in chosen:
        buf = io.BytesIO()
        render_page_image(page, 150, supersample=1).save(buf, "PNG", dpi=(150, 150))
    report(time.perf_counter() - t)


def worker_png_plain(pages: int) -> None:
    import io
    from PIL import Image, ImageDraw, ImageFont
    from sheetgen.fonts import font_path
    k = 150 / 25.4
    labels = label_positions()
    t = time.perf_counter()
    font = ImageFont.truetype(str(font_path("sans")), 8 * 150 / 72)
    small = ImageFont.truetype(str(font_path("sans")), 6 * 150 / 72)
    for p in range(pages):
        img = Image.new("RGB", (round(210 * k), round(297 * k)), "white")
        d = ImageDraw.Draw(img)
        w = max(1, round(0.25 * k))
        for i in range(COLS + 1):
            x = (X0 + i * CELL) * k
            d.line([(x, Y0 * k), (x, (Y0 + ROWS * CELL) * k)], fill=(0, 0, 0), width=w)
        for j in range(ROWS + 1):
            y = (Y0 + j * CELL) * k
            d.line([(X0 * k, y), ((X0 + COLS * CELL) * k, y)], fill=(0, 0, 0), width=w)
        for n, (x, y, s) in enumerate(labels):
            d.text((x * k, y * k), s, fill=(0, 0, 0), font=font, anchor="ms" if n < COLS else "rs")
        d.text((5 * k, 292 * k), f"page {p + 1}", fill=(0, 0, 0), font=small, anchor="ls")
        buf = io.BytesIO()
        img.save(buf, "PNG", dpi=(150, 150))
    report(time.perf_counter() - t)


def report(seconds: float) -> None:
    import resource
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024}))


WORKERS = {name[len("worker_"):]: fn for name, fn in globals().items() if name.startswith("worker_")}


# ---- driver ------------------------------------------------------------------

def measure(name: str, pages: int, runs: int) -> dict:
    best = None
    for _ in range(runs):
        out = subprocess.run([sys.executable, __file__, "--worker", name, str(pages)],
                             capture_output=True, text=True, cwd=ROOT, check=True)
        result = json.loads(out.stdout.strip().splitlines()[-1])
        if best is None or result["seconds"] < best["seconds"]:
            best = result
    return best


def main(argv: list[str]) -> None:
    if argv[:1] == ["--worker"]:
        WORKERS[argv[1]](int(argv[2]))
        return
    quick = "--quick" in argv
    runs = 2 if quick else 3
    n = 1000
    ours, plain = measure("pdf_sheetgen", n, runs), measure("pdf_plain", n, runs)
    print(f"pdf {n} pages: {ours['seconds'] / plain['seconds']:.2f}x plain reportlab "
          f"({ours['seconds']:.2f} s vs {plain['seconds']:.2f} s; target <= 1.5x)")
    small = measure("pdf_sheetgen", 250, 1)
    streamed = [measure("pdf_sheetgen_stream", k, 1) for k in (250, n)]
    print(f"pdf peak memory (process RSS): {small['peak_mb']:.0f} MB at 250 pages, {ours['peak_mb']:.0f} MB at {n} "
          f"with the whole document in memory; {streamed[0]['peak_mb']:.0f} / {streamed[1]['peak_mb']:.0f} MB "
          f"with pages streamed (plain reportlab {plain['peak_mb']:.0f} MB at {n}; target < 100 MB and flat)")
    n = 40
    ours, plain = measure("svg_sheetgen", n, runs), measure("svg_plain", n, runs)
    print(f"svg per page: {ours['seconds'] / plain['seconds']:.2f}x plain svgwrite "
          f"({ours['seconds'] / n * 1000:.1f} ms vs {plain['seconds'] / n * 1000:.1f} ms; target <= 1.5x)")
    n = 12
    ours, plain = measure("png_sheetgen", n, runs), measure("png_plain", n, runs)
    stairs = measure("png_sheetgen_stairs", n, runs)
    print(f"png per page at 150 dpi: {ours['seconds'] / plain['seconds']:.2f}x plain Pillow "
          f"({ours['seconds'] / n * 1000:.1f} ms vs {plain['seconds'] / n * 1000:.1f} ms; target <= 1.5x); "
          f"antialiased vs the renderer before: {ours['seconds'] / stairs['seconds']:.2f}x "
          f"({stairs['seconds'] / n * 1000:.1f} ms)")
    n = 30
    ours, stairs = measure("png_pack", n, runs), measure("png_pack_stairs", n, runs)
    print(f"png, the default pack's {n} pages: antialiased {ours['seconds']:.2f} s vs the renderer before "
          f"{stairs['seconds']:.2f} s ({ours['seconds'] / stairs['seconds']:.2f}x)")


if __name__ == "__main__":
    main(sys.argv[1:])
