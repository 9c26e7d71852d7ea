"""The simulation report: plain data (for --format json and the PDF pages) and its text form.

report(stats, fmap, spec) -> dict; text(report) -> str; compare(r1, r2) -> dict.
Every figure comes from integer totals, rounded the same way every time, so a
given seed gives byte-identical reports whatever --jobs is.
"""
from __future__ import annotations

from ..board import cell_name
from .campaigns import campaign_play
from sheetgen.stats import two_proportions, wilson
from .stats import RESOURCE_KEYS, Stats, hist, rounded as _r, spread


def _cells(board) -> list:
    return [c for c in board.all_cells() if not board.is_rock(c)]


def report(stats: Stats, fmap, spec, lint_findings=()) -> dict:
    board = fmap.board
    n = stats.games
    lo, hi = wilson(stats.wins, n)
    deaths_total = sum(stats.deaths.values())
    by_cause: dict[str, int] = {}
    by_zone: dict[str, int] = {}
    by_round: dict[str, int] = {}
    for (cause, zone, rnd), k in stats.deaths.items():
        by_cause[cause] = by_cause.get(cause, 0) + k
        by_zone[zone] = by_zone.get(zone, 0) + k
        by_round[str(rnd)] = by_round.get(str(rnd), 0) + k
    top = sorted(stats.deaths.items(), key=lambda kv: (-kv[1], kv[0]))[:8]
    cells = _cells(board)
    never = [cell_name(c) for c in cells if stats.visits[c] == 0]
    deadliest = sorted(((c, k) for c, k in stats.death_cells.items() if k), key=lambda ck: (-ck[1], ck[0][1], ck[0][0]))
    requirements = {}
    for letter, zone in board.zones.items():
        played = stats.req_rounds[letter]
        requirements[letter] = {
            "name": zone.name, "kind": zone.requirement_kind, "count": zone.requirement_count,
            "rounds": played, "met": stats.req_met[letter],
            "rate": _r(stats.req_met[letter] / played) if played else None}
    rep = {
        "map": fmap.title,
        "map_ref": spec.map_ref,
        "campaign": board.campaign,
        "policy": spec.policy,
        "hero": spec.hero or "free traits hearts=4,shields=2,weapon=2,clovers=2,shovels=2",
        "seed": spec.seed,
        "insert_coin": spec.coin,
        "games": n,
        "wins": stats.wins,
        "win_rate": _r(stats.wins / n) if n else 0.0,
        "win_rate_ci95": [_r(lo), _r(hi)],
        "outcomes": stats.outcome_counts(),
        "rounds_completed": {str(k): stats.rounds_completed[k] for k in range(5)},
        "mean_rounds_completed": _r(sum(k * v for k, v in stats.rounds_completed.items()) / n) if n else 0.0,
        "insert_coin_used": stats.coins,
        "oracle_reached": stats.oracle_games,
        "deaths": {
            "total": deaths_total,
            "by_cause": dict(sorted(by_cause.items(), key=lambda kv: (-kv[1], kv[0]))),
            "by_zone": dict(sorted(by_zone.items())),
            "by_round": dict(sorted(by_round.items())),
            "top": [{"cause": c, "zone": z, "round": r, "deaths": k} for (c, z, r), k in top],
        },
        "turns_per_round": {str(r): _r(stats.turns[r] / stats.turn_rounds[r], 2)
                            for r in sorted(stats.turn_rounds) if stats.turn_rounds[r]},
        "requirements": requirements,
        "resources_at_end": {k: _r(stats.resources[k] / n, 3) if n else 0.0 for k in RESOURCE_KEYS},
        "cells_never_reached": never,
        "deadliest_cells": [{"cell": cell_name(c), "deaths": k} for c, k in deadliest[:8]],
        "visits": {cell_name(c): stats.visits[c] for c in cells},
        "death_cells": {cell_name(c): stats.death_cells[c] for c in cells if stats.death_cells[c]},
        "lint": [str(f) for f in lint_findings],
        "notes": [],
    }
    play = campaign_play(board)
    if play is not None:
        campaign_report(rep, stats, board, play)
    else:
        rep["notes"] = notes(rep, fmap)
    return rep


def campaign_report(rep: dict, stats: Stats, board, play) -> None:
    """The campaign's own goal and figures (play: its sim.campaigns.CampaignPlay); the goal rate
    takes the place of the win rate."""
    n = stats.games
    goals = stats.camp[("goal",)]
    lo, hi = wilson(goals, n)
    rep["goal"] = play.goal_text
    rep["wins"] = goals
    rep["win_rate"] = _r(goals / n) if n else 0.0
    rep["win_rate_ci95"] = [_r(lo), _r(hi)]
    rep["outcomes"] = {k: stats.outcomes[k] for k in play.outcomes}
    turns = hist(stats, "turns")
    fig: dict = {"turns": spread(turns, n)}
    play.report(fig, stats, board, n, goals)
    refused = {k[1]: v for k, v in stats.camp.items() if k[0] == "refused" and v}
    fig["refused_by_engine"] = dict(sorted(refused.items()))
    rep["campaign_figures"] = fig
    out = []
    if rep["insert_coin"]:
        out.append("--coin is not played on campaign maps: a campaign ends with the hero's death")
    if n and goals == 0:
        out.append(f"the goal was never reached in {n} games: see how games ended")
    if rep["cells_never_reached"]:
        out.append(f"{len(rep['cells_never_reached'])} cell(s) never reached in {n} games")
    if refused:
        out.append("the engine refused a policy's choice (the game went on with an action it accepts): "
                   + ", ".join(f"{k} x{v}" for k, v in sorted(refused.items())))
    rep["notes"] = out


def notes(rep: dict, fmap) -> list[str]:
    """Plain-language warnings: why nobody wins, what the map never uses."""
    out = []
    board = fmap.board
    n = rep["games"]
    if n and rep["oracle_reached"] == 0:
        centre = board.centre_cells()
        starts = [c for c, _ in board.entries]
        reach = board.reachable_from(starts)
        if not centre:
            out.append("no game can be won: the map has no Oracle room (O)")
        elif not any(c in reach for c in centre):
            out.append(f"no game ever reached the Oracle: {', '.join(cell_name(c) for c in centre)} cannot be "
                       "reached from any entry on the printed map (walls or rock close it in), so no round can "
                       "be completed; `sheetgen validate` on the map says which walls close it")
        else:
            out.append("no game ever reached the Oracle: collapses and foes closed every way to it")
    elif n and rep["wins"] == 0:
        out.append("no game was won: see the deaths and the rounds completed")
    if rep["cells_never_reached"]:
        out.append(f"{len(rep['cells_never_reached'])} cell(s) never reached in {n} games")
    for letter, r in rep["requirements"].items():
        if r["rounds"] and r["met"] == 0:
            out.append(f"zone {letter} ({r['name']}): the requirement was never met in {r['rounds']} rounds")
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def text(rep: dict) -> str:
    L = []
    L.append(f"{rep['map']}: {rep['games']} games, {rep['policy']} policy, hero {rep['hero']}, seed {rep['seed']}"
             + (", INSERT COIN on" if rep["insert_coin"] else ""))
    lo, hi = rep["win_rate_ci95"]
    if "campaign_figures" in rep:
        return campaign_text(rep, L)
    L.append(f"win rate {_pct(rep['win_rate'])} ({rep['wins']}/{rep['games']}; 95% CI {_pct(lo)} to {_pct(hi)})")
    L.append("outcomes: " + ", ".join(f"{k} {v}" for k, v in rep["outcomes"].items() if v))
    L.append("rounds completed: " + ", ".join(f"{k}: {v}" for k, v in rep["rounds_completed"].items())
             + f" (mean {rep['mean_rounds_completed']:.2f})")
    L.append(f"Oracle reached in {rep['oracle_reached']} games" + (
        f"; INSERT COIN used in {rep['insert_coin_used']}" if rep["insert_coin"] else ""))
    d = rep["deaths"]
    L.append(f"deaths and traps: {d['total']}")
    if d["total"]:
        L.append("  by cause: " + ", ".join(f"{k} {v}" for k, v in d["by_cause"].items()))
        L.append("  by zone:  " + ", ".join(f"{k} {v}" for k, v in d["by_zone"].items()))
        L.append("  by round: " + ", ".join(f"{k} {v}" for k, v in d["by_round"].items()))
        L.append("  most often: " + "; ".join(f"{t['cause']} in zone {t['zone']}, round {t['round']}: {t['deaths']}"
                                               for t in d["top"][:5]))
    if rep["turns_per_round"]:
        L.append("turns per completed round: " + ", ".join(f"round {k} {v:.1f}" for k, v in rep["turns_per_round"].items()))
    L.append("requirements met:")
    for letter, r in rep["requirements"].items():
        rate = "-" if r["rate"] is None else _pct(r["rate"])
        L.append(f"  {letter} {r['name']} ({r['kind']} {r['count']}): {r['met']}/{r['rounds']} rounds ({rate})")
    return _closing_text(rep, L, lint=True)


def _closing_text(rep: dict, L: list, lint: bool) -> str:
    """The lines both text reports end with (resources, cells, lint findings, notes), joined."""
    L.append("resources at the end (mean): " + ", ".join(f"{k} {v:.2f}" for k, v in rep["resources_at_end"].items()))
    never = rep["cells_never_reached"]
    L.append(f"cells never reached: {', '.join(never) if never else 'none'}")
    if rep["deadliest_cells"]:
        L.append("deadliest cells: " + ", ".join(f"{c['cell']} {c['deaths']}" for c in rep["deadliest_cells"]))
    if lint:
        for f in rep["lint"]:
            L.append(f"map lint: {f}")
    for note in rep["notes"]:
        L.append(f"note: {note}")
    return "\n".join(L)


def _rate_text(r: dict) -> str:
    return f"{_pct(r['rate'])} ({r['games']} games; 95% CI {_pct(r['ci95'][0])} to {_pct(r['ci95'][1])})"


def _spread_text(s: dict) -> str:
    if s is None or s["median"] is None:
        return "-"
    return f"mean {s['mean']:.1f}, median {s['median']}, 10%-90% {s['p10']}-{s['p90']}, range {s['min']}-{s['max']}"


def campaign_text(rep: dict, L: list) -> str:
    f = rep["campaign_figures"]
    lo, hi = rep["win_rate_ci95"]
    L.append(f"campaign {rep['campaign']}: {rep['goal']}")
    L.append(f"goal rate {_pct(rep['win_rate'])} ({rep['wins']}/{rep['games']}; 95% CI {_pct(lo)} to {_pct(hi)})")
    L.append("outcomes: " + ", ".join(f"{k} {v}" for k, v in rep["outcomes"].items() if v))
    if "kills" in f:
        L.append(f"kills (score): {_spread_text(f['kills'])}")
        L.append("kills distribution: " + ", ".join(f"{k}: {v}" for k, v in f["kills_distribution"].items()))
        L.append(f"ended Furious (Fury track full): {_rate_text(f['furious'])}")
    if "safe_zone" in f:
        L.append(f"XMas Safe Zone reached: {_rate_text(f['safe_zone'])}")
        L.append(f"collection (6 reindeer, 1 sleigh, 10+10 packages): {_rate_text(f['collection'])}")
        L.append(f"full grid (8 reindeer, Rudolph, 16+16 packages): {_rate_text(f['full_grid'])}")
        L.append("items collected (mean): " + ", ".join(f"{k} {v:.2f}" for k, v in f["items_mean"].items()))
        L.append(f"items collected per game: {_spread_text(f['items_collected'])}")
    if "requirements_completed" in f:
        L.append("requirements completed: " + ", ".join(f"{k}: {v}" for k, v in f["requirements_completed"].items())
                 + f" (mean {f['requirements_mean']:.2f})")
        L.append("each requirement done: "
                 + ", ".join(f"{k} {_pct(r['rate'])}" for k, r in f["requirement_rate"].items()))
        L.append(f"turns to win: {_spread_text(f['turns_to_win'])}")
        L.append(f"floods per game {f['floods_mean']:.2f}; flooded cells at the end {f['water_cells_mean']:.1f}")
    L.append(f"turns played: {_spread_text(f['turns'])}")
    d = rep["deaths"]
    L.append(f"deaths and traps: {d['total']}")
    if d["total"]:
        L.append("  by cause: " + ", ".join(f"{k} {v}" for k, v in d["by_cause"].items()))
        L.append("  by zone:  " + ", ".join(f"{k} {v}" for k, v in d["by_zone"].items()))
    return _closing_text(rep, L, lint=False)


def compare(r1: dict, r2: dict) -> dict:
    """Which of two maps (played on the same seeds) is harder, with the difference and its confidence."""
    t = two_proportions(r1["wins"], r1["games"], r2["wins"], r2["games"])
    name1, name2 = (r1["map"], r2["map"]) if r1["map"] != r2["map"] else (r1["map_ref"], r2["map_ref"])
    diff = t["difference"]                      # map 1 minus map 2
    lo, hi = t["ci95"]
    if t["p_value"] >= 0.05 or diff == 0:
        verdict = (f"no clear difference: {name1} and {name2} win rates differ by "
                   f"{100 * diff:+.1f} points (p = {t['p_value']:.3f})")
        harder = None
    else:
        harder = r2["map_ref"] if diff > 0 else r1["map_ref"]
        verdict = (f"{name2 if diff > 0 else name1} is harder: win rate {100 * abs(diff):.1f} points lower "
                   f"(95% CI {100 * min(abs(lo), abs(hi)):.1f} to {100 * max(abs(lo), abs(hi)):.1f} points; "
                   f"z = {abs(t['z']):.2f}, confidence {100 * (1 - t['p_one_sided']):.2f}%)")
    return {"map_1": r1["map_ref"], "map_2": r2["map_ref"], "harder": harder,
            "difference": _r(diff), "difference_ci95": [_r(lo), _r(hi)], "z": _r(t["z"], 3),
            "p_value": _r(t["p_value"], 6), "confidence": _r(1 - t["p_one_sided"], 6), "verdict": verdict}
