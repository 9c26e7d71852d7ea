"""The simulation report: plain data (for --format json and the PDF pages) and its text form.

report(stats, fmap, spec) -> dict; text(report) -> str; compare(r1, r2) -> dict.
Every figure comes from integer totals, rounded the same way every time, so a
given seed gives byte-identical reports whatever --jobs is.
"""
from __future__ import annotations

from ..board import cell_name
from ..formats.map import room_of
from ..rules import rules_for
from .campaigns import campaign_play
from sheetgen.stats import two_proportions, wilson
from .policies import POLICIES
from .results import (CLEARED, CUT_OFF, DIED, DIED_FIRST, FURIOUS, LOST, LOST_FIRST, NO_ARROW, NO_ENTRY,
                      NOT_SOUGHT, NOTHING_LEFT, ORACLE_FIRST, SAFE, TIME_UP, TOO_SLOW, TRAPPED, TRAPPED_FIRST,
                      WALLED_IN, WON)
from .stats import FACES, RESOURCE_KEYS, Stats, hist, rounded as _r, spread

# what the report's words mean, said once (text, JSON and the PDF page use these)
OUTCOME_MEANINGS = {
    WON: "all four rounds played to their end: each time into the dungeon by an arrow, the Oracle visited "
         "and out by an arrow of another zone",
    DIED: "the hero lost the last life point (in a fight, or to the die table) with INSERT COIN off or used",
    TRAPPED: "the hero could go no further: collapsed walls and rooms closed every way to an arrow the round "
             "could leave by, and no shovel was left to dig through (the rules: \"if you get stuck... uh, you're "
             "dead\")",
    LOST: "400 actions in one round without its end (only the random policy wanders that long)",
    NO_ENTRY: "a round could not start: every arrow into the zones still to play was used or closed by a "
              "collapse (each round closes the arrow it came in by and the one it left by), so the game "
              "stopped with rounds unplayed",
    FURIOUS: "the Fury track filled up: the hero turned Furious, swept the sector and the game ended",
    TIME_UP: "every hourglass box was crossed before the goal was reached",
    SAFE: "the hero waited out the hourglass in the XMas Safe Zone (the minimum victory)",
    CLEARED: "no monster was left anywhere to fight",
}
REQUIREMENT_WHY = {
    DIED_FIRST: "the hero died in the round before meeting it",
    TRAPPED_FIRST: "the hero was trapped in the round before meeting it",
    LOST_FIRST: "the round wandered on for 400 actions",
    TOO_SLOW: "sought for 60 actions, then the hero went to the Oracle without it",
    CUT_OFF: "what was left of it lay behind walls or collapses the hero could not pass",
    NOTHING_LEFT: "all of it within reach was used up (statues faced or beaten in earlier rounds, enemies beaten, "
                  "levers pulled) and no event could give more",
    ORACLE_FIRST: "the way to it went through the Oracle's room; once the Oracle is visited the round heads for "
                  "an exit (an unawakened Oracle gives no chest)",
    NOT_SOUGHT: "the random policy does not seek requirements",
}
PROGRESS_WORDS = {"statues": "statues faced", "kills": "kills", "levers": "levers pulled",
                  "cornucopias": "cornucopias carried"}
TRAP_WHY = {NO_ARROW: "no exit arrow was left to leave by (the other zones' arrows used or collapsed)",
            WALLED_IN: "collapses closed every way to an exit arrow and no shovel was left"}


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
    designer_report(rep, stats, board, spec, play)
    return rep


# -- what a designer asks next ----------------------------------------------------------------
def designer_report(rep: dict, stats: Stats, board, spec, play) -> None:
    """Why requirements failed, the round order and why, what the outcomes mean, deaths in the
    Oracle's room, each event face's effect, and the findings these give (new keys only)."""
    meanings = {k: OUTCOME_MEANINGS[k] for k in rep["outcomes"]}
    if play is not None:
        meanings[WON] = f"the campaign's goal: {play.goal_text}"
    rep["outcome_meanings"] = meanings
    failures = {}
    for letter, zone in board.zones.items():
        played = stats.req_rounds[letter]
        if not zone.requirement_kind or not played:
            continue
        failed = played - stats.req_met[letter]
        why = {w: stats.req_why[(letter, w)] for w in REQUIREMENT_WHY if stats.req_why[(letter, w)]}
        progress = {str(k): v for (z, k), v in sorted(stats.req_progress.items()) if z == letter and v}
        failures[letter] = {"name": zone.name, "kind": zone.requirement_kind, "count": zone.requirement_count,
                            "rounds": played, "failed": failed,
                            "why": dict(sorted(why.items(), key=lambda kv: (-kv[1], kv[0]))),
                            "progress_when_failed": progress}
    rep["requirement_failures"] = failures
    rep["requirement_why"] = {w: REQUIREMENT_WHY[w] for w in sorted({w for f in failures.values() for w in f["why"]})}
    by_round: dict[str, dict] = {}
    for (rnd, zone), k in sorted(stats.round_zone.items()):
        by_round.setdefault(str(rnd), {})[zone] = k
    rep["round_order"] = {
        "policy": spec.policy, "why": POLICIES[spec.policy].order_reason,
        "by_round": {r: dict(sorted(z.items(), key=lambda kv: (-kv[1], kv[0]))) for r, z in by_round.items()},
        "most_common": [{"order": " ".join(o), "games": k}
                        for o, k in sorted(stats.orders.items(), key=lambda kv: (-kv[1], kv[0]))[:4]],
    } if by_round else {}
    rep["oracle_room"] = oracle_room(rep, stats, board)
    rep["event_faces"] = event_faces(stats, board)
    rep["findings"] = findings(rep)


def oracle_room(rep: dict, stats: Stats, board) -> dict:
    """Deaths and traps in the centre room (zone 'O'), and why."""
    room = room_of(rules_for(board).campaign)
    by_cause: dict[str, int] = {}
    for (c, z, _), k in stats.deaths.items():
        if z == "O" and k:
            by_cause[c] = by_cause.get(c, 0) + k
    total = sum(by_cause.values())
    out: dict = {"room": room, "deaths": total, "why": [],
                 "by_cause": dict(sorted(by_cause.items(), key=lambda kv: (-kv[1], kv[0])))}
    if not total or not board.centre_cells():
        return out
    for cause, k in out["by_cause"].items():
        if cause == "trapped":
            parts = [f"{stats.trap_why[('O', w)]} because {TRAP_WHY[w]}" for w in TRAP_WHY if stats.trap_why[("O", w)]]
            out["why"].append(f"{k} trapped there after reaching it: " + "; ".join(parts))
        elif cause in ("lost", "unknown"):
            out["why"].append(f"{k} {cause} there")
        elif cause == "die table":
            out["why"].append(f"{k} killed by the die table there")
        else:
            out["why"].append(f"{k} killed there by a {cause} printed in the room")
    return out


def event_faces(stats: Stats, board) -> dict:
    """Each zone's six events: rolls per game, and the win rate of games where the face came up more
    often than one roll in six against games where it came up less."""
    n = stats.games
    out: dict = {}
    for letter, zone in board.zones.items():
        faces = {}
        for face in FACES:
            often = (stats.face_games[(letter, face, 1)], stats.face_wins[(letter, face, 1)])
            rarely = (stats.face_games[(letter, face, -1)], stats.face_wins[(letter, face, -1)])
            if not (often[0] or rarely[0]):
                continue
            entry = {"event": " + ".join(e.text() for e in zone.events.get(face, ())),
                     "rolls_per_game": _r(stats.face_rolls[(letter, face)] / n, 3) if n else 0.0,
                     "often": {"games": often[0], "win_rate": _r(often[1] / often[0]) if often[0] else None},
                     "rarely": {"games": rarely[0], "win_rate": _r(rarely[1] / rarely[0]) if rarely[0] else None},
                     "difference": None, "p_value": None}
            if often[0] and rarely[0]:
                t = two_proportions(often[1], often[0], rarely[1], rarely[0])
                entry["difference"], entry["p_value"] = _r(t["difference"]), _r(t["p_value"], 6)
            faces[str(face)] = entry
        if faces:
            out[letter] = faces
    return out


DIFFICULTY_RANK = {"easy": 0, "intermediate": 1, "difficult": 2}


def add_heroes(rep: dict, runs: list) -> None:
    """--hero all: each hero's rate beside free traits' (runs: (hero or None, difficulty, report)), and
    the findings: an EASY hero that wins less than free traits, a hero that beats an easier-labelled one."""
    rows = []
    for hero, difficulty, r in runs:
        rows.append({"hero": hero or "free traits", "difficulty": difficulty, "games": r["games"], "wins": r["wins"],
                     "win_rate": r["win_rate"], "win_rate_ci95": r["win_rate_ci95"],
                     "mean_rounds_completed": r.get("mean_rounds_completed"), "deaths": r["deaths"]["total"]})
    rep["heroes"] = rows
    free = rows[0]
    out = []

    def test(a, b) -> dict:
        return two_proportions(a["wins"], a["games"], b["wins"], b["games"])

    def who(row) -> str:
        name = row["hero"].capitalize() if row["difficulty"] else row["hero"]
        return f"{name} ({row['difficulty'].upper()})" if row["difficulty"] else name
    for row in rows[1:]:
        if row["difficulty"] == "easy" and row["win_rate"] < free["win_rate"]:
            t = test(row, free)
            out.append(f"{row['hero'].capitalize()} is labelled EASY but wins {_pct(row['win_rate'])} against "
                       f"free traits' {_pct(free['win_rate'])} ({100 * t['difference']:+.1f} points, {_p(t['p_value'])})")
    for a in rows[1:]:
        for b in rows[1:]:
            if DIFFICULTY_RANK[a["difficulty"]] < DIFFICULTY_RANK[b["difficulty"]] and b["win_rate"] > a["win_rate"]:
                t = test(b, a)
                if t["p_value"] < 0.05:
                    out.append(f"{who(b)} wins more than {who(a)}: {_pct(b['win_rate'])} against "
                               f"{_pct(a['win_rate'])} ({100 * t['difference']:+.1f} points, {_p(t['p_value'])})")
    rep["hero_findings"] = out
    rep["findings"] = findings(rep)


def findings(rep: dict) -> list[str]:
    """What stands out for a designer, in plain words."""
    out = []
    for letter, f in rep["requirement_failures"].items():
        if f["rounds"] >= 20 and f["failed"] >= 0.25 * f["rounds"] and f["why"]:
            why, k = next(iter(f["why"].items()))
            out.append(f"zone {letter} ({f['name']}): the requirement failed in {_pct(f['failed'] / f['rounds'])} of "
                       f"its rounds, most often {why} ({k} of {f['failed']})")
    faces = [(abs(e["difference"]), letter, face, e) for letter, fs in rep["event_faces"].items()
             for face, e in fs.items() if e["difference"] is not None and e["p_value"] < 0.01
             and abs(e["difference"]) >= 0.03]
    for _, letter, face, e in sorted(faces, key=lambda t: (-t[0], t[1], t[2]))[:3]:
        out.append(f"zone {letter} face {face} ({e['event']}): games where it came up often won "
                   f"{_pct(e['often']['win_rate'])}, where rarely {_pct(e['rarely']['win_rate'])} "
                   f"({100 * e['difference']:+.1f} points, {_p(e['p_value'])})")
    oracle = rep["oracle_room"]
    if oracle["deaths"]:
        out.append(f"{oracle['deaths']} deaths and traps in {oracle['room']}: " + "; ".join(oracle["why"]))
    out.extend(rep.get("hero_findings", []))
    return out


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


def _p(p: float) -> str:
    return "p < 0.0001" if p < 0.0001 else f"p = {p:.4f}"


def designer_text(rep: dict) -> list[str]:
    """The designer's sections of the text report (the same words as the JSON and the PDF page)."""
    L = []
    meanings = rep.get("outcome_meanings", {})
    seen = [k for k, v in rep["outcomes"].items() if v and k in meanings]
    if seen:
        L.append("what the outcomes mean:")
        L += [f"  {k}: {meanings[k]}" for k in seen]
    failures = rep.get("requirement_failures", {})
    if any(f["failed"] for f in failures.values()):
        L.append("why requirements failed (rounds not met, by why):")
        for letter, f in failures.items():
            if not f["failed"]:
                continue
            why = ", ".join(f"{k} {v}" for k, v in f["why"].items())
            got = ", ".join(f"{k}: {v}" for k, v in f["progress_when_failed"].items())
            L.append(f"  {letter} {f['name']} ({f['kind']} {f['count']}): {f['failed']} of {f['rounds']} rounds: "
                     f"{why}; {PROGRESS_WORDS.get(f['kind'], 'progress')} by then {got}")
        L += [f"  {k}: {v}" for k, v in rep["requirement_why"].items()]
    order = rep.get("round_order")
    if order:
        L.append(f"round order ({order['policy']} policy): {order['why']}")
        L.append("  played: " + "; ".join(f"round {r}: " + ", ".join(f"{z} {v}" for z, v in zs.items())
                                          for r, zs in order["by_round"].items()))
        L.append("  rounds in order, most often: " + "; ".join(f"{o['order']} ({o['games']})"
                                                             for o in order["most_common"]))
    oracle = rep.get("oracle_room", {})
    if oracle.get("deaths"):
        L.append(f"deaths in {oracle['room']}: {oracle['deaths']}: " + "; ".join(oracle["why"]))
    faces = rep.get("event_faces", {})
    if faces:
        L.append("event faces: win rate when the face came up more than one roll in six vs less (difference):")
        for letter, fs in faces.items():
            cells = []
            for face, e in fs.items():
                often, rarely = e["often"]["win_rate"], e["rarely"]["win_rate"]
                if e["difference"] is None:
                    cells.append(f"{face} {e['event']}: -")
                else:
                    cells.append(f"{face} {e['event']}: {_pct(often)} vs {_pct(rarely)} ({100 * e['difference']:+.1f})")
            L.append(f"  {letter}: " + "; ".join(cells))
    heroes = rep.get("heroes")
    if heroes:
        L.append("heroes side by side (the same seeds):")
        for h in heroes:
            lo, hi = h["win_rate_ci95"]
            label = f"{h['hero']} ({h['difficulty']})" if h["difficulty"] else h["hero"]
            rounds = f", mean rounds {h['mean_rounds_completed']:.2f}" if h["mean_rounds_completed"] is not None else ""
            L.append(f"  {label}: {_pct(h['win_rate'])} (95% CI {_pct(lo)} to {_pct(hi)}){rounds}")
    for f in rep.get("findings", []):
        L.append(f"finding: {f}")
    return L


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
    L += designer_text(rep)
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
