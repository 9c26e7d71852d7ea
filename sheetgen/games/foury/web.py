"""The Dungeon Foury adapter of the companion page (`sheetgen play`): `PAGE`.

What the page shows of a game, as plain data the core page (sheetgen.web.play) renders:
the printed map sheet (a drawing-model Document, drawn once per map and hero), the pencil
marks of the game so far with the marks of the last step highlighted, the cells to tap
(each with the step it records), the other actions the engine says are legal, the fight
panel and the status lines.  Rules, notation and narration are the tracker's
(sheetgen.games.foury.tracker): the page and `sheetgen track` record the same steps.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from sheetgen.draw.model import PT_PER_MM, Document, Group, Line, Page, Rect, Style, Text, walk
from . import notation
from .rules import state as E
from .actions import Candy, Climb, Coin, Collect, Enter, Fight, Flee, Market, Move, Oracle, Redeem
from .board import DELTA, cell_name
from .heroes import TRAITS
from .tables import RESOURCES
from sheetgen.games.base import GamePage, PageView, Told
from .tracker import ADAPTER, played_actions, track_hero, cached_map

HIGHLIGHT = "#d0342c"
HL_WALL = Style(stroke=HIGHLIGHT, stroke_width=1.6, cap="round")
HL_CELL = Style(stroke=HIGHLIGHT, stroke_width=0.7, fill=None)
HERO = Style(stroke=HIGHLIGHT, stroke_width=0.5, fill="#ffffff")


class Sheet:
    """The printed map sheet of one map and hero, with the boxes the page needs from it."""
    __slots__ = ("doc", "rects", "crop")

    def __init__(self, doc: Document, rects: dict, crop: tuple):
        self.doc, self.rects, self.crop = doc, rects, crop


class FouryPage(GamePage):
    ruleset = "foury"
    tracker = ADAPTER
    pages_by_seat = True            # the 2 Players Mode: each phone shows its own player's sheet

    def __init__(self) -> None:
        self._trails: dict = {}         # (game, header JSON) -> (steps, state, trail) of its last page

    @property
    def two(self) -> Any:
        """The 2 Players Mode's part of the page (web_two.py): a header with `players:`."""
        from .web_two import TwoPage
        found = self.__dict__.get("_two")
        if found is None:
            found = self.__dict__["_two"] = TwoPage(self)
        return found

    def seats(self, header: dict) -> list[str]:
        """The 2 Players Mode: each player on their own phone."""
        return [p["name"] for p in header.get("players") or ()]

    def seat_view(self, seat: str | None, header: dict, steps: list, sheet: Any, told: Told | None = None,
                  pending: Any = None, state: Any = None, game: Any = None, before: Any = None) -> PageView:
        if header.get("players"):
            return self.two.view(seat, header, steps, sheet, told, state=state, game=game)
        return self.view(header, steps, sheet, told, pending=pending, state=state, game=game)

    def seat_refusal(self, header: dict, state: Any, step: Any, seat: str) -> str | None:
        return self.two.refusal(header, state, step, seat) if header.get("players") else None

    def undo_refusal(self, header: dict, step: Any, seat: str) -> str | None:
        return self.two.undo_refusal(header, step, seat) if header.get("players") else None

    def title(self, header: dict) -> str:
        if header.get("players"):
            names = [p["name"] for p in header["players"]]
            return f"{GamePage.title(self, dict(header, hero=None))}, {names[0]} and {names[1]}"
        return GamePage.title(self, header)

    # -- the sheet ---------------------------------------------------------------------
    def sheet_key(self, header: dict) -> tuple:
        """What the printed sheet depends on (a map file's change time included)."""
        import os
        ref = header["map"]
        try:
            stamp = os.stat(ref).st_mtime_ns
        except OSError:
            stamp = None
        hero = header.get("hero") or {}
        if header.get("players"):
            return (ref, stamp, "2 players")       # the map without a hero's picture: both play on it
        return (ref, stamp, hero.get("name"), tuple(sorted((hero.get("traits") or {}).items())))

    def sheet(self, header: dict) -> Sheet:
        from sheetgen.draw.options import BuildOptions, game_options
        from .formats.sheet import hero_object
        from .sheets.map import compose_map
        from .sheets.pencil import element_rects
        fmap = cached_map(header["map"])
        if header.get("players"):
            doc = compose_map(fmap, BuildOptions(), None)
        else:
            hero, _ = track_hero(header, fmap.board)
            options = BuildOptions(game=game_options(hero=hero.name or None))
            doc = compose_map(fmap, options, hero_object(hero.name) if hero.name else None)
        rects = element_rects(doc.pages[0])
        cells = [r for k, r in rects.items() if k.startswith("cell-")]
        if cells:
            size = cells[0][2]
            x0 = min(r[0] for r in cells) - size * 0.9
            y0 = min(r[1] for r in cells) - size * 0.9
            x1 = max(r[0] + r[2] for r in cells) + size * 0.9
            y1 = max(r[1] + r[3] for r in cells) + size * 0.9
            # the map's title line above the grid is shown whole, not cut through the middle; the
            # columns of text beside the grid (the legend) are left out rather than cut
            grid_x1 = max(r[0] + r[2] for r in cells)
            grid_y0, grid_y1 = min(r[1] for r in cells), max(r[1] + r[3] for r in cells)
            for item, t in walk(doc.pages[0].items):
                if not isinstance(item, Text):
                    continue
                if item.id in ("game-title", "map-title"):
                    top = item.y - item.size / PT_PER_MM - 1.0
                    if y0 - 1.5 * size < top < y0 + 0.5 * size or item.y > y0 > top:
                        y0 = min(y0, top)
                    continue
                x, y = (item.x, item.y) if t is None else (t[0] * item.x + t[2] * item.y + t[4],
                                                          t[1] * item.x + t[3] * item.y + t[5])
                if item.anchor == "start" and grid_x1 + 0.3 * size < x < x1 and grid_y0 <= y <= grid_y1:
                    x1 = x - 1.0
            crop = (max(0.0, x0), max(0.0, y0), x1 - max(0.0, x0), y1 - max(0.0, y0))
        else:
            page = doc.pages[0]
            crop = (0.0, 0.0, page.width, page.height)
        return Sheet(doc, rects, crop)

    def pencil_document(self, header: dict, steps: list) -> Document:
        """The sheet as the pencil has it now (the download), the Oracle lines written."""
        from sheetgen.draw.options import BuildOptions, game_options
        from .formats.sheet import hero_object
        from .sheets.map import compose_map
        from .sheets.pencil import pencil_over
        if header.get("players"):
            return self.two.pencil_document(header, steps)
        fmap = cached_map(header["map"])
        hero, _ = track_hero(header, fmap.board)
        options = BuildOptions(game=game_options(hero=hero.name or None))
        doc = compose_map(fmap, options, hero_object(hero.name) if hero.name else None)
        return pencil_over(doc, fmap.board, hero, played_actions(steps), options, question=header.get("question"))

    # -- the game now ---------------------------------------------------------------------
    def view(self, header: dict, steps: list, sheet: Sheet, told: Told | None = None, pending: Any = None,
             state: Any = None, game: Any = None) -> PageView:
        """Everything the page shows of the game after STEPS (told: the last step's Told; pending: a
        step being completed, which changes nothing on a Foury map; state: the tracker's state after
        STEPS, unused here (the pencil trail needs the replay); game: the caller's name for this game
        (its journal id), so its replay goes on from the last page's)."""
        from .sheets.pencil import oracle_marks, overlay
        if header.get("players"):       # the 2 Players Mode: the page of the player to play
            return self.two.view(None, header, steps, sheet, told, state=state, game=game)
        fmap = cached_map(header["map"])
        hero, _ = track_hero(header, fmap.board)
        state, trail = self._replayed(fmap.board, hero, header, steps, game)
        page = sheet.doc.pages[0]
        rects = sheet.rects
        marks = overlay(page, state, trail, rects=rects) + oracle_marks(page, header.get("question"), state.words)
        hl: list = []
        if told is not None:
            for cell, side in told.walls:
                r = rects.get(f"cell-{cell}")
                if r:
                    hl.append(Line(*_side_line(r, side), HL_WALL, id=f"hl-wall-{cell}-{side}", cls="hl wall"))
            for cell in told.cells:
                r = rects.get(f"cell-{cell}")
                if r:
                    hl.append(Rect(r[0] + 0.4, r[1] + 0.4, r[2] - 0.8, r[3] - 0.8, HL_CELL,
                                   id=f"hl-cell-{cell}", cls="hl cell"))
        g = state
        if g.phase == E.INSIDE and g.pos is not None and rects.get(f"cell-{cell_name(g.pos)}"):
            x, y, w, h = rects[f"cell-{cell_name(g.pos)}"]
            from sheetgen.draw.model import Circle as Dot
            hl.append(Dot(x + w * 0.82, y + h * 0.18, max(0.9, w * 0.1), HERO, id="hero-here", cls="hl hero"))
        overlay_doc = Document([Page(page.width, page.height, [Group(tuple(marks), id="pencil", cls="pencil"),
                                                               Group(tuple(hl), id="highlight", cls="hl")])])
        targets, actions, fight = self.controls(g, header, rects, list(g.rules.legal_actions(g)))
        return {
            "overlay": overlay_doc,
            "crop": sheet.crop,
            "focus": _focus(sheet.crop, rects.get(f"cell-{cell_name(g.pos)}") if g.pos is not None else None),
            "page": (page.width, page.height),
            "targets": targets,
            "actions": actions,
            "fight": fight,
            "status": ADAPTER.status(_track_state(header, fmap, hero, g, steps)).splitlines()[1:-1],
            "resources": [(k, g.res.get(k, 0), g.caps.get(k)) for k in RESOURCES],
            "phase": g.phase,
            "over": g.phase == E.OVER or (g.phase == E.DEAD and g.coin_used),
            "position": cell_name(g.pos) if g.pos else None,
            "oracle_question": True,
            "hint": _hint(g, fight),
        }

    def controls(self, g: Any, header: dict, rects: dict, legal: list) -> tuple[list, list, dict | None]:
        """(targets, actions, fight panel) of the actions LEGAL in state G: taps on the map, buttons."""
        targets: list = []
        actions: list = []
        fight = None
        for a in legal:
            step = notation.serialize(a)
            if isinstance(a, Move):
                r = rects.get(f"cell-{cell_name(a.to)}")
                due = g.roll_due(a.to) if g.pos is not None or g.entry is not None else False
                label = f"move to {cell_name(a.to)}" + (f" ({_heading(g.pos, a.to)})" if g.pos else "")
                if r:
                    targets.append({"id": f"go-{cell_name(a.to)}", "box": _grown(r), "step": step, "label": label,
                                    "die": due})
                actions.append({"kind": "move", "label": label + (" - roll" if due else ""), "step": step,
                                "die": due})
            elif isinstance(a, Enter):
                label = f"enter through {notation.describe(a)[6:]}" if a.entry else "start the round"
                if a.entry:
                    label += _zone_words(g, a.entry[0])
                if a.entry:
                    r = rects.get(f"cell-{cell_name(a.entry[0])}")
                    if r:
                        targets.append({"id": f"in-{notation.describe(a)[6:].replace(':', '-')}",
                                        "box": _arrow_box(r, a.entry[1]), "step": step, "label": label,
                                        "die": False})
                actions.append({"kind": "enter", "label": label, "step": step, "die": False})
            elif isinstance(a, Fight):
                fight = self._fight_panel(g)
            elif isinstance(a, Collect):
                if a.item == "die":
                    step = {"collect": {"item": "die"}}
                actions.append({"kind": "collect", "label": f"collect the {a.item}", "step": step,
                                "die": a.item == "die"})
            elif isinstance(a, Redeem):
                if not any(x["kind"] == "redeem" for x in actions):
                    actions.append({"kind": "redeem", "label": "use a cornucopia for",
                                    "choices": [{"label": t, "step": {"redeem": t}} for t in TRAITS]})
            elif isinstance(a, Oracle):
                actions.append({"kind": "oracle", "label": "the Oracle's words", "step": "oracle",
                                "ask_question": not header.get("question")})
            elif isinstance(a, Market):
                actions.append(self._market_panel(g))
            else:
                words = {Flee: "flee", Climb: "climb the stairs" if not g.upper else "climb down",
                         Coin: "INSERT COIN (once)", Candy: "give a candy cane"}
                label = words.get(type(a)) or notation.describe(a).replace("exit ", "exit through ").replace(
                    "shovel ", "shovel the wall ").replace("circle ", "magic circle to ").replace("lever ", "pull lever ")
                actions.append({"kind": type(a).__name__.lower(), "label": label, "step": step, "die": False})
        return targets, actions, fight

    def _replayed(self, board: Any, hero: Any, header: dict, steps: list, game: Any = None) -> tuple[Any, Any]:
        """(state, trail) after STEPS: the page is drawn after every tap, so the game's last replay
        goes on from where it was (steps changed otherwise, an undo: from the start)."""
        from .sheets.pencil import replay_with_trail
        key = (game, json.dumps(header, sort_keys=True))
        known = self._trails.get(key)
        if known is not None and known[0] == steps[:len(known[0])] and known[1].board is board:
            done, state, trail = known
            state, trail = replay_with_trail(board, hero, played_actions(steps[len(done):]), start=(state, trail))
        else:
            state, trail = replay_with_trail(board, hero, played_actions(steps))
        if len(self._trails) > 64:
            self._trails.clear()
        self._trails[key] = (list(steps), state, trail)
        return state, trail

    def _fight_panel(self, g: Any) -> dict:
        foe = g.enemy_at(g.pos) or "foe"
        return {
            "foe": foe,
            "strength": g.rules.strength(g, foe),
            "weapon": g.res.get("weapon", 0),
            "clovers": g.res.get("clovers", 0),
            "shields": g.res.get("shields", 0),
            "flee": E.may_flee(g),
            "types": list(g.rules.monster_types(g, g.pos)),     # what the engine lets this monster be named
            "steal": [k for k in RESOURCES if g.res.get(k, 0) > 0] if foe == "bandit" else [],
        }

    def fight_stage(self, header: dict, steps: list, state: Any, query: dict, secret: str) -> dict | None:
        """The fight panel's exchange in the rules' order (fightflow): what is asked now, the
        links that answer it (GET: nothing is recorded until the exchange is decided) and, once
        the dice are known, the engine's judgement with the choices a loss leaves (clover,
        shield) as the forms that record the step.  QUERY: the answers so far (ft type, fh your
        die, fw weapon, fe the foe's die, fc the clover's die, fr its reroll; 'roll': sheetgen
        rolls it, the same die on a reload: seeded by SECRET, the game and its step count)."""
        import random
        from urllib.parse import urlencode
        from . import fightflow as F
        if header.get("players"):
            return self.two.fight_stage(header, steps, state, query, secret)
        g = state.game
        if not (g.phase == E.INSIDE and g.pos is not None and any(isinstance(a, Fight) for a in
                                                                  g.rules.legal_actions(g))):
            return None
        auto = header.get("dice") == "auto"
        carry: dict = {}

        def die(key: str) -> Any:
            v = query.get(key)
            if v == "roll":
                v = random.Random(f"{secret}:{len(steps)}:{key}").randint(1, 6)
            n = _die(v) if v not in (None, "") else None
            if n is not None and 1 <= n <= 6:
                carry[key] = str(n)
                return n
            return None
        types = g.rules.monster_types(g, g.pos)
        etype = query.get("ft")
        etype = (etype if etype in types or etype == "" else None) if types else ""
        if types and etype is not None:
            carry["ft"] = etype
        ex = F.Exchange(enemy_type=etype, hero=die("fh"))
        if ex.hero is not None and query.get("fw") in ("0", "1"):
            carry["fw"] = query["fw"]
            ex = F.with_answer(ex, "weapon", query["fw"] == "1")
        if ex.hero is not None and (ex.weapon is not None or not g.res.get("weapon", 0)):
            ex = F.with_answer(ex, "enemy", die("fe"))
        if ex.enemy is not None and query.get("fc") in ("hero", "enemy") and F.may_clover(g, ex):
            carry["fc"] = query["fc"]
            ex = F.with_answer(ex, "clover", query["fc"])
            ex = F.with_answer(ex, "clover_roll", die("fr"))
        ask = F.question(g, ex)
        # (foe_in_water marks the Kraken in the state it is given: a copy, never the page's state)
        foe = ex.enemy_type or g.enemy_at(g.pos) or g.rules.foe_in_water(g.copy(), g.pos) or "foe"

        def link(**more: Any) -> str:
            return "?" + urlencode({**carry, **more}) + "#fight"
        out: dict = {"ask": ask, "foe": foe, "hero": ex.hero, "weapon_used": ex.weapon, "enemy": ex.enemy,
                     "clover": ex.clover, "clover_roll": ex.clover_roll, "links": [], "record": [],
                     "restart": "?#fight" if carry else None, "strength": g.rules.strength(g, foe),
                     "weapon": g.res.get("weapon", 0)}
        chosen = ask == F.CLOVER_ROLL and g.hero.ability == "melyra"    # she chooses the reroll's value
        if ask == F.TYPE:
            out["question"] = "Which monster is printed here?"
            out["links"] = [{"label": "a plain monster", "href": link(ft="")}] + [
                {"label": t, "href": link(ft=t)} for t in types]
        elif ask in (F.HERO, F.ENEMY, F.CLOVER_ROLL):
            key = {F.HERO: "fh", F.ENEMY: "fe", F.CLOVER_ROLL: "fr"}[ask]
            out["question"] = {F.HERO: "Roll your die first", F.ENEMY: f"Now the {foe}'s die",
                               F.CLOVER_ROLL: "Melyra chooses the reroll's value" if chosen else
                               "The clover's reroll"}[ask]
            if auto and not chosen:
                out["links"] = [{"label": "Roll it", "href": link(**{key: "roll"}), "roll": True}]
            else:
                out["links"] = [{"label": str(n), "href": link(**{key: n}), "die": True} for n in range(1, 7)]
        elif ask == F.WEAPON:
            w = g.res.get("weapon", 0)
            out["question"] = f"Your die shows {ex.hero}: add your weapon (+{w}, then it drops by 1)?"
            out["links"] = [{"label": f"Use the weapon: {ex.hero + w}", "href": link(fw=1), "id": "fight-weapon"},
                            {"label": f"Keep it: {ex.hero}", "href": link(fw=0), "id": "fight-no-weapon"}]
        else:
            judged = F.judge(g, ex)
            out["line"] = judged.line
            out["outcome"] = judged.outcome
            base = {"panel": "fight", "hero": ex.hero, "enemy": ex.enemy, "weapon": "1" if ex.weapon else "",
                    "clover": ex.clover or "", "clover_roll": ex.clover_roll or "", "type": ex.enemy_type or ""}
            if judged.outcome == "hit":
                steal = [k for k in RESOURCES if k != "hearts" and g.res.get(k, 0) > 0] if foe == "bandit" else []
                out["record"].append({"label": f"Take the hit: lose {judged.hearts} heart(s)", "fields": base,
                                      "steal": steal, "id": "fight-take"})
                if F.may_shield(g):
                    out["record"].append({"label": f"Block it with a shield ({g.res.get('shields', 0)} left)",
                                          "fields": dict(base, shield="1"), "id": "fight-shield"})
                if F.may_clover(g, ex):
                    out["links"] = [{"label": "Clover: reroll my die", "href": link(fc="hero"), "id": "clover-hero"},
                                    {"label": f"Clover: reroll the {foe}'s die", "href": link(fc="enemy"),
                                     "id": "clover-enemy"}]
            else:
                out["record"].append({"label": "Record it", "fields": base, "id": "fight-go"})
        return out

    def _market_panel(self, g: Any) -> dict:
        return {"kind": "market", "label": "market", "chests": g.res.get("chests", 0),
                "value": g.rules.chest_value(g), "resources": list(TRAITS)}

    def step_from_form(self, kind: str, form: Mapping[str, str]) -> dict | str | None:
        """The step of a panel's form (fight, market, oracle; a duel) from its fields; None: not this
        game's.  A two-player game's step is the player's: the form's `player`, else its seat (`as`)."""
        who = form.get("player") or form.get("as")
        if who:
            from .web_two import step_of
            return step_of(self._step_from_form(kind, form), kind, form, str(who))
        return self._step_from_form(kind, form)

    def _step_from_form(self, kind: str, form: Mapping[str, str]) -> dict | str | None:
        if kind == "fight":
            f: dict = {}
            for key in ("hero", "enemy"):
                v = form.get(key)
                if v not in (None, "", "roll"):
                    f[key] = _die(v)
            if form.get("weapon"):
                f["weapon"] = True
            if form.get("clover") in ("hero", "enemy"):
                c: dict[str, Any] = {"die": form.get("clover")}
                v = form.get("clover_roll")
                if v not in (None, "", "roll"):
                    c["roll"] = _die(v)
                f["clover"] = c
            if form.get("shield"):
                f["shield"] = True
            if form.get("type"):
                f["type"] = str(form.get("type"))[:40]
            if form.get("stolen"):
                f["stolen"] = str(form.get("stolen"))[:40]
            return {"fight": f}
        if kind == "market":
            m: dict = {}
            spend = _count(form.get("spend"))
            if spend:
                m["spend"] = {"chests": spend}
                gain = {k: _count(form.get(f"gain_{k}")) for k in TRAITS}
                m["gain"] = {k: v for k, v in gain.items() if v}
            give_k, get_k = form.get("give"), form.get("get")
            if give_k in TRAITS and get_k in TRAITS and _count(form.get("give_n")):
                m["trade"] = {"give": {give_k: _count(form.get("give_n"))}, "get": {get_k: _count(form.get("get_n"))}}
            return {"market": m}
        if kind == "oracle":
            words = " ".join(str(form.get("words") or "").split())[:80]
            return {"oracle": {"words": words}} if words else "oracle"
        return None


def _hint(g: Any, fight: dict | None) -> str | None:
    """The line under the map, for the phase the game is in (None: the page's own for moving)."""
    if fight is not None:
        return f"A fight: face the {fight['foe']} in the fight panel (your die first); no move until it is over."
    if g.phase == E.DEAD:
        return "You are dead: INSERT COIN (once) below, or export the play log."
    if g.phase == E.OVER:
        return "The game is over: export the play log and check it."
    if g.phase == E.BETWEEN:
        return "Between rounds: the market is open below; tap an arrow to start the next round."
    if g.phase == E.START:
        return "Tap an arrow to enter the dungeon: its zone is the round you play."
    return None


def _zone_words(g: Any, cell: Any) -> str:
    """': zone A, The Temple, requirement 3 statues': what an entry arrow starts."""
    b = g.board
    letter = b.zone_of(cell)
    zone = b.zones.get(letter)
    if zone is None:
        return f": zone {letter}" if letter else ""
    kind = zone.requirement_kind
    count = zone.requirement_count or E.requirement_count(b, kind) if kind else 0
    return f": zone {letter}" + (f", {zone.name}" if zone.name else "") + (f", requirement {count} {kind}" if kind else "")


def _die(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0                    # not a die: the rules refuse it with their message


def _count(value: Any) -> int:
    try:
        return max(0, min(99, int(value)))
    except (TypeError, ValueError):
        return 0


def _track_state(header: dict, fmap: Any, hero: Any, game: Any, steps: list) -> Any:
    from .tracker import TrackState
    return TrackState(header, fmap.board, hero, game, list(steps))


FOCUS_CELLS = 7.4          # cells across the phone's view around the hero: each about 12 mm on a 360 px screen


def _focus(crop: tuple[float, float, float, float], here: tuple[float, float, float, float] | None) -> tuple[float, float, float, float] | None:
    """The part of the map around the hero's cell a phone shows (inside crop), or None."""
    if here is None:
        return None
    x, y, w, h = here
    side = w * FOCUS_CELLS
    cx0, cy0, cw, ch = crop
    fx = min(max(x + w / 2 - side / 2, cx0), cx0 + cw - side)
    fy = min(max(y + h / 2 - side / 2, cy0), cy0 + ch - side)
    return (max(fx, cx0), max(fy, cy0), min(side, cw), min(side, ch))


def _grown(r: tuple[float, float, float, float], by: float = 0.18) -> tuple[float, float, float, float]:
    """A tap box a little larger than its cell (the 9 mm a finger needs on a phone)."""
    x, y, w, h = r
    return (x - w * by, y - h * by, w * (1 + 2 * by), h * (1 + 2 * by))


def _side_line(r: tuple[float, float, float, float], side: str) -> tuple[float, float, float, float]:
    x, y, w, h = r
    return {"N": (x, y, x + w, y), "S": (x, y + h, x + w, y + h),
            "W": (x, y, x, y + h), "E": (x + w, y, x + w, y + h)}[side]


def _arrow_box(r: tuple[float, float, float, float], side: str) -> tuple[float, float, float, float]:
    """The tap box of an entry arrow: the cell's width outside its side."""
    x, y, w, h = r
    dx, dy = DELTA[side]
    return (x + dx * w * 0.8, y + dy * h * 0.8, w, h)


def _heading(frm: Any, to: Any) -> str:
    from .board import direction
    from .tracker import SIDE_WORDS
    d = direction(frm, to) if frm else None
    return SIDE_WORDS.get(d, "") if d else ""


PAGE = FouryPage()

# what the two-player page (web_two.py) shares, by public names
focus_of, side_line = _focus, _side_line
