"""The page of a `sheetgen simulate --ruleset exploration` report: how map mode plays."""
from __future__ import annotations

from sheetgen.draw.charts import GREY, INK, LIGHT, MARGIN, VISIT_RAMP, paper_size, text_item, bar_chart, ramp
from sheetgen.draw.furniture import finish_page, sheet_id
from sheetgen.draw.model import Document, Group, Line, Page, Rect, Style
from sheetgen.draw.options import BuildOptions
from sheetgen.fonts import fit_size, wrap


def exploration_page(rep: dict, options: BuildOptions) -> Page:
    """Summary bars and a heatmap of how often each square of the sheet was occupied."""
    W, H = paper_size(options)
    sid = sheet_id("simulate-exploration", rep["table"], rep["seed"], rep["runs"])
    page = Page(W, H, name="exploration")
    g = options.grayscale
    x, y = MARGIN, MARGIN + 4.0
    cw = W - 2 * MARGIN
    page.add(text_item(x, y + 4, "How map mode plays", 17, "serif-bold", id="title"))
    sub = f"{rep['runs']} dungeons · room table {rep['table']} · sheet {rep['sheet']} · seed {rep['seed']}"
    page.add(text_item(x, y + 11, sub, fit_size(sub, "sans", 9.0, cw, 6.5), fill=GREY))
    y += 18
    n = max(1, rep["runs"])
    col_w = (cw - 8) / 2
    rows = [(k, v, f"{v} ({100 * v / n:.1f}%)", "#3c8d40" if "Boss" in k else "#7f8c8d")
            for k, v in rep["endings"].items()]
    rows.append(("sheet filled up", rep["sheet_full_rate"] * n, f"{100 * rep['sheet_full_rate']:.1f}%", "#8e5a2b"))
    items, h1 = bar_chart(x, y, col_w, "How dungeons ended", rows, "chart-endings", g, max_value=n, label_w=30)
    page.add(*items)
    rows = [(k, v, str(v), None) for k, v in rep["rooms_histogram"].items()]
    items, h2 = bar_chart(x + col_w + 8, y, col_w, "Rooms per dungeon", rows, "chart-rooms", g, label_w=18,
                          row_h=5.2)
    page.add(*items)
    y += max(h1, h2) + 1
    mb = rep["mean_rooms_before_final_boss"]
    for line in (f"Rooms before the Final Boss: {'-' if mb is None else f'{mb:.1f}'} on average; "
                 f"dead ends per map: {rep['mean_dead_ends']:.2f}; squares occupied: "
                 f"{100 * rep['mean_occupied_share']:.1f}% of the sheet.",):
        for l2 in wrap(line, "sans", 9, cw):
            page.add(text_item(x, y, l2, 9))
            y += 4.5
    y += 3
    page.add(text_item(x, y, "Share of dungeons that occupied each square", 10.5, "sans-bold"))
    y += 4
    sw, sh = (int(v) for v in rep["sheet"].split("x"))
    cell = min(cw / sw, (H - y - 26) / sh)
    gx = x + (cw - cell * sw) / 2
    heat = []
    for key, v in rep["occupied"].items():
        sx, sy = (int(p) for p in key.split(","))
        heat.append(Rect(gx + (sx - 1) * cell, y + (sy - 1) * cell, cell, cell,
                         Style(stroke=None, fill=ramp(v / n, VISIT_RAMP, g)), id=f"heat-square-{sx}-{sy}",
                         cls="heat squares"))
    grid = [Line(gx + i * cell, y, gx + i * cell, y + sh * cell, Style(stroke=LIGHT, stroke_width=0.15))
            for i in range(sw + 1)]
    grid += [Line(gx, y + j * cell, gx + sw * cell, y + j * cell, Style(stroke=LIGHT, stroke_width=0.15))
             for j in range(sh + 1)]
    page.add(Group(tuple(heat), id="heatmap-squares", cls="heatmap"), *grid,
             Rect(gx, y, sw * cell, sh * cell, Style(stroke=INK, stroke_width=0.5)))
    ly = y + sh * cell + 7
    for i in range(6):
        t = i / 5
        page.add(Rect(x + 14 + i * 18, ly - 4, 18, 5, Style(stroke=GREY, stroke_width=0.2, fill=ramp(t, VISIT_RAMP, g))))
        page.add(text_item(x + 23 + i * 18, ly + 5, f"{100 * t:.0f}%", 7, anchor="middle", fill=GREY))
    page.add(text_item(x, ly, "Scale", 9, "sans-bold"))
    return finish_page(page, options, sid, footer="sheetgen simulate · exploration map mode")


def compose_exploration_report(rep: dict, options: BuildOptions) -> Document:
    return Document([exploration_page(rep, options)], title="Simulation of exploration map mode",
                    name="exploration-report", subject="sheetgen simulate report")
