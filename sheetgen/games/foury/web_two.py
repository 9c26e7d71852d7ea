"""The companion page of Dungeon Foury's 2 Players Mode: two players, each on their own phone, one game.

FouryPage (web.py) hands a header with `players:` here.  Each phone joins as one player (the core's
join page, `?as=NAME`) and shows that player's sheet: the shared map with the pencil of both (the
map is one), their own path in pencil and the opponent's in the opponent's colour, both positions,
their hearts, items and treasures, whose turn it is, the duel when one reached the other.  It offers
only what the player may do now: the single-player engine's legal actions that the two-player rules
(rules/two_players.py) accept for this player at this point (a step that would break the turn order
is not offered, and a posted one is refused with the rules' words, never recorded).  Steps are the
tracker's (tracker_two.py: `{player: NAME, ...}`), so `sheetgen track`, the page and `sheetgen check`
read the same journal.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Mapping

from sheetgen.draw.model import Circle, Document, Group, Line, Page, Rect, Style, Text
from sheetgen.games.base import Illegal, PageView, Told
from . import tracker_two as TT
from .actions import Exit, Fight, Flee, Move
from .board import cell_name
from .rules import state as E
from .rules import two_players as T
from .tables import RESOURCES

COLOURS = ("#c0392b", "#1f6fb2")          # each player's marker and path on the map
CHIPS = ("hearts", "shields", "weapon", "clovers", "shovels", "chests")


def names_of(header: dict) -> list[str]:
    return [p["name"] for p in header["players"]]


def seat_index(header: dict, seat: Any) -> int | None:
    """The index of the player SEAT names (case does not matter), or None."""
    low = [n.lower() for n in names_of(header)]
    return low.index(str(seat).lower()) if seat is not None and str(seat).lower() in low else None


def tagged(step: Any, name: str) -> dict:
    """A single-player step as player NAME's ("flee" -> {player: NAME, flee: true})."""
    if isinstance(step, dict):
        return {"player": name, **{k: v for k, v in step.items() if k != "player"}}
    return {"player": name, str(step): True}


def step_of(step: Any, kind: str, form: Mapping[str, str], who: str) -> dict | str | None:
    """The step of a two-player page's form: the duel's, or a single-player panel's as WHO's."""
    if kind == "duel":
        duel: dict[str, Any] = {}
        for key in ("hero", "opponent"):
            v = form.get(key)
            duel[key] = int(v) if str(v or "").isdigit() else None     # none: asked for, or rolled
        for key in ("weapon", "opponent_weapon", "shield", "opponent_shield"):
            if form.get(key):
                duel[key] = True
        return {"player": who, "duel": duel}
    return None if step is None else tagged(step, who)


def _one_header(header: dict, i: int) -> dict:
    """Player I's part of the header, as a one-player game's (their hero)."""
    return dict({k: v for k, v in header.items() if k != "players"}, hero=header["players"][i]["hero"])


class _Single:
    """The one-player view of the state the fight panel reads (its `game`)."""
    __slots__ = ("game",)

    def __init__(self, game: Any) -> None:
        self.game = game


def offered(g: T.TwoPlayerGame, i: int) -> list:
    """What player I may do now: the single-player legal actions the two-player rules accept from
    I at this point (a move that would start a turn out of order, an entry on the opponent's side
    or a step in the opponent's turn is not offered)."""
    st = g.states[i]
    if g.duel_due is not None or g.done(i) or st.phase not in (E.START, E.INSIDE):
        return []
    out = []
    for a in st.rules.legal_actions(st):
        probe = a
        if isinstance(a, (Move, Exit)) and a.roll is None:
            probe = dataclasses.replace(a, roll=1)      # the die does not change whose turn it is
        if not any((v.rule or "").startswith("two.") for v in T.step(g, i, probe).violations):
            out.append(a)
    return out


def busy(g: T.TwoPlayerGame, i: int, offers: list) -> bool:
    """Player I's turn is not over: a foe in their room is to be faced (fought, or fled from) first."""
    return g.turn == i and any(isinstance(a, (Fight, Flee)) for a in offers)


def going_on(st: Any) -> bool:
    """The turn of the player of sheet ST may go on: an extra step to take, or a walk along explored
    rooms begun (the move that ends it is still to come).  The opponent's move ends it all the same."""
    return st.phase == E.INSIDE and (st.extra > 0 or bool(st.turn_open))


def turn_of(g: T.TwoPlayerGame, offers: list[list]) -> int | None:
    """Whose turn the page says it is (None: nobody's, or both enter from their sides)."""
    if g.duel_due is not None:
        return g.duel_due
    if g.turn is not None and offers[g.turn] and (busy(g, g.turn, offers[g.turn]) or going_on(g.states[g.turn])):
        return g.turn
    may = [i for i in (0, 1) if offers[i]]
    if len(may) == 2:
        if all(g.states[i].phase == E.START for i in may):
            return None
        if g.turn is not None:
            return 1 - g.turn if any(isinstance(a, (Move, Exit)) for a in offers[1 - g.turn]) else g.turn
        return 0
    return may[0] if may else None


Trails = TT.Trails          # both players' pencil paths (tracker_two.py)


class TwoPage:
    """The page of a two-player game; PAGE (web.py) is its owner (the one-player controls, the sheet)."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner
        self._games: dict = {}          # (game, header JSON) -> (steps, game state, trails) of the last page

    # -- the replay ----------------------------------------------------------------------------
    def replayed(self, header: dict, steps: list, game: Any = None) -> tuple[T.TwoPlayerGame, Trails]:
        """(the game, both trails) after STEPS; the last page's replay goes on when steps were added."""
        from .tracker import board_of, map_key_of, track_hero
        key = (game, json.dumps(header, sort_keys=True))
        known = self._games.get(key)
        if known is not None and known[0] == steps[:len(known[0])]:
            done, g, trails = known
            trails = trails.copy()
        else:
            board = board_of(header["map"], map_key_of(header["map"]))
            heroes = tuple(track_hero({"hero": p["hero"]}, board)[0] for p in header["players"])
            g, trails, done = T.new_game(board, heroes, tuple(names_of(header))), Trails(), []
        for step in steps[len(done):]:
            try:
                i, rest = TT.player_step(header, step)
                action = TT.action_of(rest)
            except Illegal:
                continue
            out = T.step(g, i, action)
            if out.violations:          # recorded when it was legal (a map changed since): left out
                continue
            trails.add(i, g.states[i], out.state.states[i], action)
            g = out.state
        if len(self._games) > 64:
            self._games.clear()
        self._games[key] = (list(steps), g, trails)
        return g, trails

    # -- refusals --------------------------------------------------------------------------------
    def refusal(self, header: dict, state: Any, step: Any, seat: str) -> str | None:
        """Why SEAT's phone may not record STEP: it is the other player's, or that player's turn is not
        over (their fight or choice comes first).  Out of turn otherwise: the rules' own words."""
        names = names_of(header)
        me = seat_index(header, seat)
        if me is None:
            return f"'{seat}' is not a player of this game ({names[0]} or {names[1]}): join from the join page"
        try:
            i, _ = TT.player_step(header, step)
        except Illegal as exc:
            return str(exc)
        if i != me:
            return f"You play {names[me]}: this step is {names[i]}'s, recorded from {names[i]}'s phone"
        g = state.game
        other = 1 - me
        if busy(g, other, offered(g, other)) and g.duel_due is None:
            return f"It is {names[other]}'s turn: {names[other]} finishes it first (a fight or a choice is due)"
        if g.duel_due is not None and g.duel_due != me:
            return f"{names[other]} reached you: {names[other]} records the duel first"
        return None

    def undo_refusal(self, header: dict, step: Any, seat: str) -> str | None:
        names = names_of(header)
        me = seat_index(header, seat)
        try:
            i, _ = TT.player_step(header, step)
        except Illegal:
            return None
        if me is not None and i != me:
            return (f"The last step is {names[i]}'s: only {names[i]}'s phone takes it back (you play {names[me]})")
        return None

    # -- the view ---------------------------------------------------------------------------------
    def view(self, seat: str | None, header: dict, steps: list, sheet: Any, told: Told | None = None,
             state: Any = None, game: Any = None) -> PageView:
        from .sheets.pencil import overlay
        from .web import HERO, HL_CELL, HL_WALL, focus_of, side_line
        names = names_of(header)
        g, trails = self.replayed(header, steps, game)
        offers = [offered(g, 0), offered(g, 1)]
        turn = turn_of(g, offers)
        for i in (0, 1):
            if busy(g, 1 - i, offers[1 - i]):
                offers[i] = []          # the opponent's fight comes first (a move now is refused)
        me = seat_index(header, seat)
        if me is None:          # a page opened without joining: the player to play (a phone passed round)
            me = turn if turn is not None else 0
        other = 1 - me
        st = g.states[me]
        page = sheet.doc.pages[0]
        rects = sheet.rects
        marks = overlay(page, st, trails.of[me], rects=rects)
        theirs = Style(stroke=COLOURS[other], stroke_width=0.45, cap="round", join="round", dash=(1.2, 0.9))
        for frm, to in trails.of[other].segments:
            a, b = _centre(rects, frm), _centre(rects, to)
            if a is not None and b is not None:
                marks.append(Line(*a, *b, theirs, cls="path opponent"))
        hl: list = []
        if told is not None:
            for cell, side in told.walls:
                r = rects.get(f"cell-{cell}")
                if r:
                    hl.append(Line(*side_line(r, side), HL_WALL, id=f"hl-wall-{cell}-{side}", cls="hl wall"))
            for cell in told.cells:
                r = rects.get(f"cell-{cell}")
                if r:
                    hl.append(Rect(r[0] + 0.4, r[1] + 0.4, r[2] - 0.8, r[3] - 0.8, HL_CELL,
                                   id=f"hl-cell-{cell}", cls="hl cell"))
        for i in (me, other):
            s = g.states[i]
            r = rects.get(f"cell-{cell_name(s.pos)}") if s.phase == E.INSIDE and s.pos is not None else None
            at_arrow = _centre(rects, ("arrow",) + tuple(s.entry)) \
                if r is None and s.phase == E.INSIDE and s.entry is not None else None
            if r is None and at_arrow is None:
                continue
            if r is not None:
                x, y, w, h = r
                cx, cy = (x + w * 0.82, y + h * 0.18) if i == me else (x + w * 0.18, y + h * 0.82)
            else:                       # entered, not yet moved: beside their arrow
                w = next(iter(v for k, v in rects.items() if k.startswith("cell-")))[2]
                cx, cy = at_arrow
            rad = max(1.2, w * 0.16)
            ring = Style(stroke="#ffffff", stroke_width=0.35, fill=COLOURS[i])
            hl.append(Group((Circle(cx, cy, rad, ring if i != me else Style(stroke=HERO.stroke, stroke_width=0.5,
                                                                             fill=COLOURS[i])),
                             Text(cx, cy + rad * 0.42, names[i][:1].upper(), size=rad * 3.4, font="sans-bold",
                                  anchor="middle", fill="#ffffff")),
                            id="hero-here" if i == me else "opponent-here", cls="hl hero"))
        overlay_doc = Document([Page(page.width, page.height, [Group(tuple(marks), id="pencil", cls="pencil"),
                                                               Group(tuple(hl), id="highlight", cls="hl")])])
        one = _one_header(header, me)
        targets, actions, fight = self.owner.controls(st, one, rects, offers[me])
        for t in targets:
            t["step"] = tagged(t["step"], names[me])
        for a in actions:
            if "step" in a:
                a["step"] = tagged(a["step"], names[me])
            for c in a.get("choices", ()):
                c["step"] = tagged(c["step"], names[me])
            if a.get("kind") == "enter" and st.phase == E.START:
                a["label"] += " (your side)"
        panels = [self._duel_panel(g, me, names)] if g.duel_due == me else []
        res = T.result(g)
        over = res.decided or all(g.done(i) for i in (0, 1))
        players = []
        for i, name in enumerate(names):
            s = g.states[i]
            where = (f"in {cell_name(s.pos)}" if s.phase == E.INSIDE and s.pos is not None else T.phase_name(s))
            hero = (header["players"][i]["hero"] or {}).get("name") or "free character"
            players.append({"name": name, "colour": COLOURS[i], "you": i == me and seat is not None,
                            "current": i == turn and not over, "hero": str(hero).capitalize(), "where": where,
                            "chips": [(k, s.res.get(k, 0)) for k in CHIPS] + [("turns", s.turns)]})
        last = None
        if steps and told is None:
            last = self._last(header, steps, state)
        return {
            "overlay": overlay_doc, "crop": sheet.crop, "page": (page.width, page.height),
            "focus": focus_of(sheet.crop, rects.get(f"cell-{cell_name(st.pos)}") if st.pos is not None else None),
            "targets": targets, "actions": actions, "fight": fight, "panels": panels,
            "status": self._status(header, g),
            "resources": [(k, st.res.get(k, 0), st.caps.get(k)) for k in RESOURCES] + [("turns", st.turns, None)],
            "phase": st.phase, "over": over,
            "position": cell_name(st.pos) if st.pos is not None and st.phase == E.INSIDE else None,
            "oracle_question": False, "players": players, "last": last,
            "turn": names[turn] if turn is not None else None,
            "seat": names[me] if seat is not None else None,
            "watching": not (targets or actions or fight or panels),
            "hint": self._hint(g, me, turn, names, fight, res, over),
        }

    def _status(self, header: dict, g: T.TwoPlayerGame) -> list[str]:
        from .tracker import ADAPTER
        return TT.TwoTracker(ADAPTER).status(TT.TwoTrackState(header, g.states[0].board, g, [])).splitlines()[1:]

    def _last(self, header: dict, steps: list, state: Any) -> dict | None:
        """What the last step did, for the phone that did not record it."""
        from .tracker import ADAPTER
        try:
            i, _ = TT.player_step(header, steps[-1])
            before = TT.TwoTracker(ADAPTER).replay(header, steps[:-1])
            after = state if isinstance(state, TT.TwoTrackState) else TT.TwoTracker(ADAPTER).replay(header, steps)
            lines = TT.TwoTracker(ADAPTER).tell(before, after, steps[-1]).lines
        except Illegal:
            return None
        return {"by": names_of(header)[i], "lines": lines or ["(nothing to pencil)"]}

    def _hint(self, g: T.TwoPlayerGame, me: int, turn: int | None, names: list[str], fight: dict | None,
              res: T.Result, over: bool) -> str:
        mine = names[me]
        if over:
            told = "a draw" if res.winner is None else f"{names[res.winner]} wins"
            return f"The game is over: {told}" + (f" ({res.why})." if res.why else ".") + \
                " Export the play log and check it."
        if g.duel_due is not None:
            who = names[g.duel_due]
            return ("You reached " + names[1 - me] + ": face each other in the duel panel (both roll)."
                    if g.duel_due == me else f"{who} reached you: {who} records the duel (roll your die at the table).")
        st = g.states[me]
        if st.phase == E.DEAD:
            return f"{mine} is dead: the game is over for {mine} (no INSERT COIN in the 2 Players Mode)."
        if st.phase == E.OVER:
            return f"{mine} is out of the dungeon: {names[1 - me]} plays on."
        if st.phase == E.START:
            return "Tap an arrow of your own side to enter: a different side from your opponent's."
        if fight is not None:
            return f"A fight: face the {fight['foe']} in the fight panel (your die first); no move until it is over."
        if turn == me:
            return "Your turn: tap a ringed cell to move there. The other phone follows."
        if turn is None:
            return "Waiting for your opponent to enter."
        if g.states[me].phase == E.INSIDE and offered(g, me):
            if going_on(g.states[turn]):
                return (f"{names[turn]}'s turn may go on (an extra step, a walk along explored rooms); your move "
                        f"starts your turn and ends {names[turn]}'s.")
            return f"{names[turn]}'s turn: what is left of yours is below, until {names[turn]} moves."
        return f"{names[turn]}'s turn: this page follows the table and shows it when {names[turn]} acts."

    def _duel_panel(self, g: T.TwoPlayerGame, me: int, names: list[str]) -> dict:
        mine, theirs = g.states[me], g.states[1 - me]
        other = names[1 - me]
        treasure = mine.readings.uses(E.DUEL_TREASURE)
        fields: list[dict] = [
            {"type": "dice", "name": "hero", "label": "Your die"},
            {"type": "dice", "name": "opponent", "label": f"{other}'s die"}]
        if mine.res.get("weapon", 0):
            fields.append({"type": "check", "name": "weapon", "label": f"add your weapon (+{mine.res['weapon']})"})
        if theirs.res.get("weapon", 0):
            fields.append({"type": "check", "name": "opponent_weapon",
                           "label": f"{other} adds their weapon (+{theirs.res['weapon']})"})
        if not treasure:
            if mine.res.get("shields", 0):
                fields.append({"type": "check", "name": "shield", "label": "if you lose: block it with a shield"})
            if theirs.res.get("shields", 0):
                fields.append({"type": "check", "name": "opponent_shield",
                               "label": f"if {other} loses: {other} blocks it with a shield"})
        cost = "hands 1 treasure to the winner" if treasure else "loses 1 heart (unless a shield blocks it)"
        return {"id": "duel", "panel": "duel", "title": f"Duel: you face {other}",
                "text": [f"Both roll a die; each may add their weapon (it drops by 1). The higher total wins: "
                         f"the loser {cost}; a tie, no hit.",
                         "Leave the dice empty and the page asks for them (or rolls them, with sheetgen's dice)."],
                "fields": fields, "submit": "Record the duel"}

    # -- the fight panel ---------------------------------------------------------------------------
    def fight_stage(self, header: dict, steps: list, state: Any, query: dict, secret: str) -> dict | None:
        """The one-player fight panel of the phone's player (their sheet); its forms name the player."""
        g = state.game
        me = seat_index(header, query.get("as"))
        if me is None:
            me = turn_of(g, [offered(g, 0), offered(g, 1)])
        if me is None or not any(isinstance(a, Fight) for a in offered(g, me)):
            return None
        out = self.owner.fight_stage(_one_header(header, me), steps, _Single(g.states[me]), query, secret)
        if out is not None:
            for r in out["record"]:
                r["fields"] = dict(r["fields"], player=names_of(header)[me])
        return out

    # -- the download ------------------------------------------------------------------------------
    def pencil_document(self, header: dict, steps: list, options: Any = None) -> Document:
        """The sheets as the pencil has them, one page per player (tracker_two.pencil_document)."""
        return TT.pencil_document(header, steps, options)


def _centre(rects: dict, where: Any) -> tuple[float, float] | None:
    """The middle of a cell on the sheet, or of the outside of an entry arrow's side ("arrow", cell, side)."""
    if where and where[0] == "arrow":
        from .board import DELTA
        r = rects.get(f"cell-{cell_name(where[1])}")
        if not r:
            return None
        dx, dy = DELTA[where[2]]
        return (r[0] + r[2] / 2 + dx * r[2] * 0.6, r[1] + r[3] / 2 + dy * r[3] * 0.6)
    r = rects.get(f"cell-{cell_name(where)}")
    return (r[0] + r[2] / 2, r[1] + r[3] / 2) if r else None
