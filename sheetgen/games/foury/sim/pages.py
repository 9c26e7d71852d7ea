"""The pages of a `sheetgen simulate` report: a summary with bar charts, and heatmaps of
visits and deaths drawn over the map itself (the map drawn by sheetgen.games.foury.sheets.map).

compose_report(result, options) -> Document; result is sheetgen.games.foury.sim.api.run's dict
(report dicts plus the loaded maps).  Drawing-model primitives only.
"""
from __future__ import annotations

from sheetgen.draw.charts import (BAR, DEATH_RAMP, GREY, INK, LIGHT, MARGIN, VISIT_RAMP, paper_size, percent, place_chart,
                                  text_item, bar_chart, ramp)
from sheetgen.draw.furniture import finish_page, sheet_id
from sheetgen.draw.model import Document, Group, Line, Page, Rect, Style
from sheetgen.draw.options import BuildOptions
from sheetgen.fonts import fit_size, text_width, wrap
from .. import board as fb
from ..sheets.map import MapGeometry, coordinates, draw_map
from .campaigns import campaign_play

# -- parts both summary pages share ---------------------------------------------------
def _title(page: Page, rep: dict, x: float, y: float, cw: float, extra: str = "") -> float:
    """Title and the run's settings under it; returns the subtitle's baseline."""
    page.add(text_item(x, y + 4, f"How {rep['map']} plays", 17, "serif-bold", id="title"))
    y += 11
    sub = (f"{rep['games']} simulated games · {rep['policy']} policy · hero {rep['hero']} · seed {rep['seed']}"
           + extra)
    page.add(text_item(x, y, sub, fit_size(sub, "sans", 9.0, cw, 6.5), fill=GREY, id="subtitle"))
    return y


def _win_rate(page: Page, rep: dict, x: float, y: float, cw: float, head: str, g: bool) -> None:
    """The headline: the goal's rate, what it counts, and its interval on a 0..100% scale."""
    lo, hi = rep["win_rate_ci95"]
    page.add(text_item(x, y + 8, percent(rep["win_rate"]), 26, "sans-bold", id="win-rate"))
    page.add(text_item(x + 42, y + 3.5, head, 10, "sans-bold"))
    page.add(text_item(x + 42, y + 8.5, f"{rep['wins']} of {rep['games']}; 95% confidence interval {percent(lo)} to {percent(hi)}",
                9))
    sx, sy, sw = x + 42, y + 11.5, cw - 42
    page.add(Rect(sx, sy, sw, 3.2, Style(stroke=GREY, stroke_width=0.2)))
    page.add(Rect(sx + sw * lo, sy, max(0.5, sw * (hi - lo)), 3.2,
                  Style(stroke=None, fill="#9fc9a1" if not g else "#bbbbbb"), id="win-ci"))
    page.add(Line(sx + sw * rep["win_rate"], sy - 1.0, sx + sw * rep["win_rate"], sy + 4.2,
                  Style(stroke=INK, stroke_width=0.6)))
    for k in (0, 25, 50, 75, 100):
        page.add(text_item(sx + sw * k / 100, sy + 7.0, f"{k}%", 6.5, anchor="middle", fill=GREY))


def _outcome_rows(rep: dict, n: int) -> list:
    return [(k, v, f"{v}  ({100 * v / n:.1f}%)", BAR.get(k)) for k, v in rep["outcomes"].items()]


def _cause_rows(rep: dict) -> list:
    causes = list(rep["deaths"]["by_cause"].items())[:8]
    return [(k, v, f"{v}", "#c0392b" if k != "trapped" else BAR["trapped"]) for k, v in causes]


def _words(page: Page, lines: list, x: float, y: float, width: float, bottom: float) -> None:
    """(head, body) notes wrapped to `width`, one line after another down to `bottom`."""
    for head, body in lines:
        for line in wrap(head + body, "sans", 8.5, width):
            if y > bottom:
                break
            page.add(text_item(x, y, line, 8.5, "sans", cls="note"))
            y += 4.3
        y += 1.2


# -- page 1: the summary -------------------------------------------------------------
def summary_page(rep: dict, options: BuildOptions, sid: str, suffix: str = "") -> Page:
    if "campaign_figures" in rep:
        return campaign_page(rep, options, sid, suffix)
    W, H = paper_size(options)
    page = Page(W, H, name=f"summary{suffix}")
    g = options.grayscale
    x, y = MARGIN, MARGIN + 4.0
    cw = W - 2 * MARGIN
    y = _title(page, rep, x, y, cw, " · INSERT COIN on" if rep["insert_coin"] else "") + 8
    _win_rate(page, rep, x, y, cw, "games won (all four rounds)", g)
    y += 24
    col_w = (cw - 8) / 2
    left, right = x, x + col_w + 8
    yl = yr = y
    n = max(1, rep["games"])
    rows = _outcome_rows(rep, n)
    yl += place_chart(page, bar_chart(left, yl, col_w, "How games ended", rows, "chart-outcomes", g, label_w=24))
    rows = [(f"{k} round{'s' if k != '1' else ''}", v, f"{v}", None) for k, v in rep["rounds_completed"].items()]
    yr += place_chart(page, bar_chart(right, yr, col_w, "Rounds completed", rows, "chart-rounds", g, label_w=24))
    rows = _cause_rows(rep)
    if rows:
        yl += place_chart(page, bar_chart(left, yl, col_w, "Deaths by cause", rows, "chart-causes", g, label_w=24))
    zones = rep["deaths"]["by_zone"]
    rows = [(f"zone {k}" if k != "O" else "Oracle room", v, f"{v}", None) for k, v in zones.items()]
    rounds = rep["deaths"]["by_round"]
    rows += [(f"round {k}", v, f"{v}", "#8e44ad") for k, v in rounds.items()]
    if rows:
        yr += place_chart(page, bar_chart(right, yr, col_w, "Deaths by zone and round", rows, "chart-death-where", g,
                                      label_w=24))
    y = max(yl, yr) + 2
    yl = yr = y
    rows = [(f"{k} {r['name']}", r["rate"] or 0.0, f"{percent(r['rate'])} of {r['rounds']}", "#3c8d40")
            for k, r in rep["requirements"].items()]
    yl += place_chart(page, bar_chart(left, yl, col_w, "Requirement met (per round played)", rows, "chart-requirements", g,
                                  max_value=1.0, label_w=34))
    rows = [(f"round {k}", v, f"{v:.1f} turns", None) for k, v in rep["turns_per_round"].items()]
    if rows:
        yr += place_chart(page, bar_chart(right, yr, col_w, "Turns per completed round", rows, "chart-turns", g,
                                      label_w=24))
    rows = [(k, v, f"{v:.2f}", "#2f6fa8") for k, v in rep["resources_at_end"].items()]
    yr += place_chart(page, bar_chart(right, yr, col_w, "Resources at the end (mean)", rows, "chart-resources", g,
                                  label_w=24))
    # words: never reached, deadliest, notes
    lines = [("Note: ", note) for note in rep["notes"]]
    lint = rep["lint"]
    for f in lint[:2]:
        lines.append(("Map lint: ", f))
    if len(lint) > 2:
        lines.append(("Map lint: ", f"{len(lint) - 2} more finding(s): see `sheetgen validate`"))
    never = rep["cells_never_reached"]
    lines.append(("Cells never reached: ", ", ".join(never) if never else "none"))
    dc = rep["deadliest_cells"][:6]
    lines.append(("Deadliest cells: ", ", ".join(f"{c['cell']} ({c['deaths']})" for c in dc) or "none"))
    top = rep["deaths"]["top"][:3]
    if top:
        lines.append(("Most deaths: ", "; ".join(f"{t['cause']}, zone {t['zone']}, round {t['round']} ({t['deaths']})"
                                                for t in top)))
    # the words go under the left column (the right one is longer); they wrap to its width
    _words(page, lines, x, yl + 4, col_w, H - 14)
    return finish_page(page, options, sid, footer=f"sheetgen simulate · {rep['map']}")


# -- page 1 of a campaign map (slaughter, santa, kraken): its own goal and figures -------------
BAR.update({"furious": "#6c3483", "nothing left": "#3c8d40", "safe zone": "#3c8d40", "time up": "#7f8c8d"})


def _rate_row(label, r, colour="#3c8d40"):
    lo, hi = r["ci95"]
    return (label, r["rate"], f"{percent(r['rate'])} ({percent(lo)}-{percent(hi)})", colour)


def _buckets(dist: dict, top: int, width: int) -> list:
    """A histogram {value: games} in bands of `width`, the top value (the goal) on its own."""
    rows, band = [], {}
    for k, v in dist.items():
        k = int(k)
        key = top if k >= top else (k // width) * width
        band[key] = band.get(key, 0) + v
    for start in range(0, top, width):
        end = min(start + width - 1, top - 1)
        rows.append((f"{start}-{end}" if end > start else f"{start}", band.get(start, 0)))
    rows.append((f"{top}", band.get(top, 0)))
    return rows


def campaign_page(rep: dict, options: BuildOptions, sid: str, suffix: str = "") -> Page:
    W, H = paper_size(options)
    page = Page(W, H, name=f"summary{suffix}")
    g = options.grayscale
    play = campaign_play(rep["campaign"])
    f = rep["campaign_figures"]
    x, y = MARGIN, MARGIN + 4.0
    cw = W - 2 * MARGIN
    y = _title(page, rep, x, y, cw) + 5
    for line in wrap(f"Campaign goal: {rep['goal']}.", "sans", 9.0, cw):
        page.add(text_item(x, y, line, 9.0, cls="goal"))
        y += 4.3
    y += 2
    lo, hi = rep["win_rate_ci95"]
    _win_rate(page, rep, x, y, cw, play.headline, g)
    y += 24
    col_w = (cw - 8) / 2
    left, right = x, x + col_w + 8
    yl = yr = y
    n = max(1, rep["games"])
    rows = _outcome_rows(rep, n)
    yl += place_chart(page, bar_chart(left, yl, col_w, "How games ended", rows, "chart-outcomes", g, label_w=26))
    rows = _cause_rows(rep)
    if rows:
        yl += place_chart(page, bar_chart(left, yl, col_w, "Deaths by cause", rows, "chart-causes", g, label_w=26))
    words: list[tuple[str, str]] = []
    if "kills" in f:                    # the Slaughter's figures
        rows = [(label, v, f"{v}", "#8e44ad") for label, v in _buckets(f["kills_distribution"], f["max_enemies"], 6)]
        yr += place_chart(page, bar_chart(right, yr, col_w, "Kills (the score) per game", rows, "chart-kills", g,
                                      label_w=22))
        rows = [_rate_row("Furious end", f["furious"], "#6c3483"),
                ("goal: all met", rep["win_rate"], f"{percent(rep['win_rate'])} ({percent(lo)}-{percent(hi)})", "#3c8d40")]
        yr += place_chart(page, bar_chart(right, yr, col_w, "Share of games (95% interval)", rows, "chart-fury", g,
                                      max_value=1.0, label_w=26))
        k = f["kills"]
        words.append(("Kills: ", f"mean {k['mean']:.1f}, median {k['median']}, 10%-90% {k['p10']}-{k['p90']}, "
                                 f"best {k['max']} of {f['max_enemies']} enemies."))
        words.append(("Fury: ", "a lethal hit is taken on the Fury boxes; the fifth makes the hero Furious: the "
                                "sector's monsters are erased and counted, and the game ends."))
    elif "safe_zone" in f:              # Santa's
        rows = [_rate_row("Safe Zone", f["safe_zone"]), _rate_row("collection", f["collection"], "#2f6fa8"),
                _rate_row("full grid", f["full_grid"], "#8e44ad")]
        yr += place_chart(page, bar_chart(right, yr, col_w, "Goals reached (95% interval)", rows, "chart-santa-goals", g,
                                      max_value=1.0, label_w=24))
        im, need = f["items_mean"], f["items_needed"]
        deer = im["reindeer"] + im["rudolph"]
        rows = [("reindeer*", deer, f"{deer:.1f} (need {need['reindeer']})", "#3c8d40"),
                ("sleigh", im["sleigh"], f"{im['sleigh']:.2f} (need {need['sleigh']})", "#c0392b")]
        for key, label, colour in (("green packages", "green pack.", "#3c8d40"),
                                   ("blue packages", "blue pack.", "#2f6fa8")):
            rows.append((label, im[key], f"{im[key]:.1f} (need {need[key]})", colour))
        rows.append(("candy canes", im["candy canes"], f"{im['candy canes']:.1f} left", "#e67e22"))
        yr += place_chart(page, bar_chart(right, yr, col_w, "Items collected (mean per game)", rows, "chart-santa-items", g,
                                      label_w=24))
        ic = f["items_collected"]
        words.append(("Items: ", f"{ic['mean']:.1f} per game (median {ic['median']}, "
                                 f"10%-90% {ic['p10']}-{ic['p90']}); *reindeer count Rudolph."))
        words.append(("Hourglass: ", f"{f['hourglass']} turns; games that reach the Safe Zone wait out the rest there."))
    else:                               # the Kraken's
        rc = f["requirements_completed"]
        rows = [(f"{k} of 4", v, f"{v}  ({100 * v / n:.1f}%)", "#3c8d40" if k == "4" else None) for k, v in rc.items()]
        yr += place_chart(page, bar_chart(right, yr, col_w, "Requirements completed", rows, "chart-kraken-reqs", g,
                                      label_w=22))
        rows = [_rate_row(k, r, "#2f6fa8") for k, r in f["requirement_rate"].items()]
        yr += place_chart(page, bar_chart(right, yr, col_w, "Each requirement done (95% interval)", rows,
                                      "chart-kraken-each", g,
                                      max_value=1.0, label_w=22))
        tw = f["turns_to_win"]
        words.append(("Turns to win: ", "no win" if not tw else
                      f"mean {tw['mean']:.1f}, median {tw['median']}, range {tw['min']}-{tw['max']} "
                      f"(hourglass {f['hourglass']})."))
        words.append(("Water: ", f"{f['floods_mean']:.1f} floods per game; {f['water_cells_mean']:.0f} flooded cells "
                                 "at the end (every 5 turns each joined flooded cell floods one more)."))
    t = f["turns"]
    rows = [(k, v, f"{v:.2f}", "#2f6fa8") for k, v in rep["resources_at_end"].items()]
    yr += place_chart(page, bar_chart(right, yr, col_w, "Resources at the end (mean)", rows, "chart-resources", g,
                                  label_w=22))
    words.append(("Turns played: ", f"mean {t['mean']:.1f}, median {t['median']}, 10%-90% {t['p10']}-{t['p90']}."))
    for note in rep["notes"]:
        words.append(("Note: ", note))
    dc = rep["deadliest_cells"][:6]
    words.append(("Deadliest cells: ", ", ".join(f"{c['cell']} ({c['deaths']})" for c in dc) or "none"))
    _words(page, words, x, yl + 4, col_w, H - 14)
    return finish_page(page, options, sid, footer=f"sheetgen simulate · {rep['map']}")


# -- page 2: what a designer asks next -----------------------------------------------------------
WHY_COLOUR = {"died first": "#c0392b", "trapped first": "#8e5a2b", "lost in the dungeon": "#7f8c8d",
              "not reachable in time": "#e67e22", "cut off": "#34495e", "nothing left to find": "#8e44ad",
              "the Oracle on the way": "#2f6fa8", "not sought": "#95a5a6"}


def _face_table(page: Page, faces: dict, x: float, y: float, w: float, g: bool) -> float:
    """Each zone's six events: the win rate when the face came up often vs rarely, coloured by the
    difference (green: the face helps, red: it hurts); returns the height used."""
    page.add(text_item(x, y + 4.0, "Event faces: win rate when a face came up often vs rarely", 10.5, "sans-bold"))
    page.add(text_item(x, y + 8.5, "often: more than one roll in six on that zone's table; rarely: less; "
                "the difference in points below", 7.5, fill=GREY))
    top = y + 11.0
    label_w, row_h = 6.0, 11.0
    cell_w = (w - label_w) / 6
    items = []
    for i, (letter, fs) in enumerate(faces.items()):
        ry = top + i * row_h
        items.append(text_item(x + 1.0, ry + row_h * 0.62, letter, 9.0, "sans-bold"))
        for face in range(1, 7):
            e = fs.get(str(face))
            cx = x + label_w + (face - 1) * cell_w
            diff = None if e is None else e["difference"]
            if diff is None or g:
                fill = "#ffffff"
            else:
                k = min(1.0, abs(diff) / 0.12)
                base = (60, 141, 64) if diff > 0 else (192, 57, 43)
                fill = "#%02x%02x%02x" % tuple(round(255 - (255 - c) * 0.75 * k) for c in base)
            items.append(Rect(cx + 0.4, ry + 0.4, cell_w - 0.8, row_h - 0.8, Style(stroke=LIGHT, stroke_width=0.2,
                                                                                  fill=fill),
                              id=f"face-{letter}{face}", cls="face"))
            if e is None:
                continue
            head = f"{face} {e['event']}"
            items.append(text_item(cx + 1.2, ry + 3.6, head, fit_size(head, "condensed", 6.5, cell_w - 2.4, 4.5), "condensed"))
            if diff is not None:
                rates = f"{percent(e['often']['win_rate'])} vs {percent(e['rarely']['win_rate'])}"
                items.append(text_item(cx + 1.2, ry + 6.8, rates, fit_size(rates, "condensed", 6.5, cell_w - 2.4, 4.5),
                                "condensed"))
                items.append(text_item(cx + 1.2, ry + 9.8, f"{100 * diff:+.1f}", 7.5, "sans-bold"))
    page.add(Group(tuple(items), id="chart-event-faces", cls="chart"))
    return 11.0 + len(faces) * row_h + 3.0


def designer_page(rep: dict, options: BuildOptions, sid: str, suffix: str = "") -> Page:
    """Why requirements failed, heroes side by side, each event face's effect, the round order and
    why, what the outcomes mean, deaths in the Oracle's room, and the findings."""
    W, H = paper_size(options)
    page = Page(W, H, name=f"designer{suffix}")
    g = options.grayscale
    x, y = MARGIN, MARGIN + 4.0
    cw = W - 2 * MARGIN
    page.add(text_item(x, y + 4, f"What to look at: {rep['map']}", 17, "serif-bold", id="title"))
    y += 11
    sub = f"{rep['games']} simulated games · {rep['policy']} policy · seed {rep['seed']}"
    page.add(text_item(x, y, sub, 9.0, fill=GREY, id="subtitle"))
    y += 6
    col_w = (cw - 8) / 2
    left, right = x, x + col_w + 8
    yl = yr = y
    rows = [(f"{letter} {why}", k, f"{k} of {f['failed']}", WHY_COLOUR.get(why))
            for letter, f in rep.get("requirement_failures", {}).items() for why, k in f["why"].items()]
    if rows:
        yl += place_chart(page, bar_chart(left, yl, col_w, "Requirement not met: why (rounds)", rows[:12],
                                      "chart-requirement-why", g, label_w=40))
    heroes = rep.get("heroes")
    if heroes:
        rows = []
        for h in heroes:
            lo, hi = h["win_rate_ci95"]
            label = f"{h['hero'].capitalize()} ({h['difficulty']})" if h["difficulty"] else h["hero"]
            rows.append((label, h["win_rate"], f"{percent(h['win_rate'])} ({percent(lo)}-{percent(hi)})",
                         "#3c8d40" if h["difficulty"] is None else "#2f6fa8"))
        yr += place_chart(page, bar_chart(right, yr, col_w, "Heroes side by side (win rate)", rows, "chart-heroes", g,
                                      label_w=34))
    order = rep.get("round_order")
    if order:
        rows = []
        for rnd, zones in order["by_round"].items():
            zone, k = next(iter(zones.items()))
            rows.append((f"round {rnd}: zone {zone}", k, f"{k} of {sum(zones.values())}", "#8e44ad"))
        yr += place_chart(page, bar_chart(right, yr, col_w, "Round order: the zone played most", rows,
                                      "chart-round-order", g, label_w=34))
    y = max(yl, yr) + 2
    faces = rep.get("event_faces", {})
    if faces:
        y += _face_table(page, faces, x, y, cw, g)
    words: list[tuple[str, str]] = [("Finding: ", f) for f in rep.get("findings", [])]
    meanings = rep.get("outcome_meanings", {})
    for k, v in rep["outcomes"].items():
        if v and k in meanings:
            words.append((f"{k.capitalize()}: ", meanings[k] + "."))
    if order:
        words.append(("Round order: ", order["why"] + "."))
    for why, text in rep.get("requirement_why", {}).items():
        words.append((f"{why.capitalize()}: ", text + "."))
    _words(page, words, x, y + 4, cw, H - 14)
    return finish_page(page, options, sid, footer=f"sheetgen simulate · {rep['map']}")


# -- pages 3 and 4: heatmaps over the map ------------------------------------------------
def heatmap_page(rep: dict, fmap, options: BuildOptions, sid: str, what: str, suffix: str = "") -> Page:
    """what: 'visits' (share of games that entered each cell) or 'deaths' (deaths per cell)."""
    W, H = paper_size(options)
    page = Page(W, H, name=f"{what}{suffix}")
    g = options.grayscale
    b = fmap.board
    x, y = MARGIN, MARGIN + 4.0
    cw = W - 2 * MARGIN
    n = max(1, rep["games"])
    if what == "visits":
        title = f"Where heroes go: {rep['map']}"
        sub = "Share of games in which the hero entered each cell."
        values = {fb.parse_cell(k): v / n for k, v in rep["visits"].items()}
        stops = VISIT_RAMP
    else:
        title = f"Where heroes die: {rep['map']}"
        total = max(1, rep["deaths"]["total"])
        sub = f"Share of the {rep['deaths']['total']} deaths and traps that happened in each cell."
        values = {fb.parse_cell(k): v / total for k, v in rep["death_cells"].items()}
        stops = DEATH_RAMP
    page.add(text_item(x, y + 4, title, 15, "serif-bold", id="title"))
    page.add(text_item(x, y + 11, sub, 9, fill=GREY))
    top = y + 24
    avail_w = cw - 12
    avail_h = H - top - 48
    cell = min(avail_w / b.columns, avail_h / b.rows)
    mx = x + 8 + (avail_w - cell * b.columns) / 2
    geo = MapGeometry(mx, top, cell, b.columns, b.rows)
    base = draw_map(fmap, geo, grayscale=True)
    page.add(*base)
    page.add(*coordinates(geo, 5.0))
    vmax = max(values.values(), default=0.0) or 1.0
    heat = []
    label_pt = max(6.0, min(8.0, cell * 0.42))
    for c in b.all_cells():
        if b.is_rock(c):
            continue
        v = values.get(c, 0.0)
        cx, cy = geo.cell_xy(c)
        name = fb.cell_name(c)
        colour = ramp(v / vmax, stops, g)
        heat.append(Rect(cx, cy, cell, cell, Style(stroke=None, fill=colour, opacity=0.78),
                         id=f"heat-{what}-{name}", cls=f"heat {what}"))
        if v > 0 or what == "visits":
            label = f"{100 * v:.0f}%" if v >= 0.01 or v == 0 else "<1%"
            tw = text_width(label, "sans-bold", label_pt)
            heat.append(Rect(cx + (cell - tw) / 2 - 0.6, cy + cell - label_pt * 0.42 - 1.4, tw + 1.2,
                             label_pt * 0.42 + 0.9, Style(stroke=None, fill="#ffffff", opacity=0.85)))
            heat.append(text_item(cx + cell / 2, cy + cell - 1.1, label, label_pt, "sans-bold", "middle",
                           id=f"heat-label-{what}-{name}"))
        if what == "visits" and v == 0:
            heat.append(Line(cx + 1.5, cy + 1.5, cx + cell - 1.5, cy + cell - 1.5,
                             Style(stroke="#555555", stroke_width=0.4)))
    page.add(Group(tuple(heat), id=f"heatmap-{what}", cls="heatmap"))
    # the walls and entry arrows again, on top of the heat, so the map's shape stays sharp
    page.add(*[i for i in base if (i.cls or "").split(" ")[0] in ("wall", "edge", "entry")])
    # legend
    ly = top + cell * b.rows + 12
    page.add(text_item(x, ly, "Scale", 9, "sans-bold"))
    steps = 6
    sw = 18.0
    for i in range(steps):
        t = i / (steps - 1)
        page.add(Rect(x + 14 + i * sw, ly - 4, sw, 5, Style(stroke=GREY, stroke_width=0.2,
                                                            fill=ramp(t, stops, g), opacity=0.78)))
        page.add(text_item(x + 14 + i * sw + sw / 2, ly + 5, f"{100 * vmax * t:.0f}%", 7, anchor="middle", fill=GREY))
    notes = []
    if what == "visits":
        never = rep["cells_never_reached"]
        notes.append("Crossed cells were never reached: " + (", ".join(never) if never else "none") + ".")
        notes.append("Walls, items and entries of the printed map show through in grey.")
    else:
        dc = rep["deadliest_cells"][:5]
        notes.append("Deadliest cells: " + (", ".join(f"{c['cell']} ({c['deaths']})" for c in dc) or "none") + ".")
        notes.append("Deaths in a cell include heroes trapped there by collapses.")
    ny = ly + 12
    for note in notes:
        for line in wrap(note, "sans", 9, cw):
            page.add(text_item(x, ny, line, 9))
            ny += 4.5
    return finish_page(page, options, sid, footer=f"sheetgen simulate · {rep['map']}")


# -- comparison -----------------------------------------------------------------------------
def compare_page(rep1: dict, rep2: dict, cmp: dict, options: BuildOptions, sid: str) -> Page:
    W, H = paper_size(options)
    page = Page(W, H, name="compare")
    g = options.grayscale
    x, y = MARGIN, MARGIN + 4.0
    cw = W - 2 * MARGIN
    page.add(text_item(x, y + 4, "Which map is harder?", 17, "serif-bold", id="title"))
    y += 14
    for i, line in enumerate(wrap(cmp["verdict"], "sans-bold", 10, cw)):
        page.add(text_item(x, y, line, 10, "sans-bold", id=f"verdict-{i + 1}"))
        y += 5
    y += 4
    rows = []
    for rep, colour in ((rep1, "#2f6fa8"), (rep2, "#e67e22")):
        lo, hi = rep["win_rate_ci95"]
        rows.append((rep["map"], rep["win_rate"], f"{percent(rep['win_rate'])} ({percent(lo)}-{percent(hi)})", colour))
    items, h = bar_chart(x, y, cw, "Win rate (95% interval)", rows, "chart-compare-wins", g, max_value=1.0,
                         label_w=50)
    page.add(*items)
    y += h + 2
    for key, title in (("mean_rounds_completed", "Mean rounds completed"),):
        rows = [(r["map"], r[key], f"{r[key]:.2f}", c) for r, c in ((rep1, "#2f6fa8"), (rep2, "#e67e22"))]
        items, h = bar_chart(x, y, cw, title, rows, "chart-compare-rounds", g, max_value=4.0, label_w=50)
        page.add(*items)
        y += h + 2
    rows = []
    for r, c in ((rep1, "#2f6fa8"), (rep2, "#e67e22")):
        n = max(1, r["games"])
        rows.append((r["map"], r["deaths"]["total"] / n, f"{r['deaths']['total']} in {r['games']} games", c))
    items, h = bar_chart(x, y, cw, "Deaths and traps per game", rows, "chart-compare-deaths", g, label_w=50)
    page.add(*items)
    y += h + 4
    lo, hi = cmp["difference_ci95"]
    p_text = "p < 0.0001" if cmp["p_value"] < 0.0001 else f"p = {cmp['p_value']:.4f}"
    explain = (f"Difference in win rate (map 1 - map 2): {100 * cmp['difference']:+.1f} points, "
               f"95% CI {100 * lo:+.1f} to {100 * hi:+.1f}; two-proportion z = {cmp['z']:.2f}, {p_text}.")
    for line in (explain, "Both maps were played on the same seeds (the same dice per game)."):
        for l2 in wrap(line, "sans", 9, cw):
            page.add(text_item(x, y, l2, 9))
            y += 4.5
    return finish_page(page, options, sid, footer="sheetgen simulate · comparison")


def compose_report(result: dict, options: BuildOptions) -> Document:
    rep = result["report"]
    sid = sheet_id("simulate", rep["map_ref"], rep["seed"], rep["games"], rep["policy"], rep["hero"])
    pages = [summary_page(rep, options, sid), designer_page(rep, options, sid),
             heatmap_page(rep, result["fmap"], options, sid, "visits"),
             heatmap_page(rep, result["fmap"], options, sid, "deaths")]
    if "compare" in result:
        c = result["compare"]
        rep2 = c["report"]
        pages += [summary_page(rep2, options, sid, "-2"), designer_page(rep2, options, sid, "-2"),
                  heatmap_page(rep2, c["fmap"], options, sid, "visits", "-2"),
                  heatmap_page(rep2, c["fmap"], options, sid, "deaths", "-2"),
                  compare_page(rep, rep2, c["comparison"], options, sid)]
    return Document(pages, title=f"Simulation of {rep['map']}", name="simulation-report",
                    subject="sheetgen simulate report")
