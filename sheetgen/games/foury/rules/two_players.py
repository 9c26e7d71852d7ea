"""Dungeon Foury's 2 Players Mode: two heroes on one map, a thin layer over two single-player games.

The rules text (seed 003, "2 Players Mode"): "nothing changes compared to the standard game: The
Ancient Story. Each player starts from a different side of the Map. ... At the end of the Turn,
mark 1 space on the hourglass counter. If your path intersects with your opponent's, you can move
freely along their line and try to reach them to face them. If you encounter events ... you must
face them as usual ... You still have the option to fulfill the requirement of the Round ... and
visit the Oracle to gain an extra treasure. The exit must be through one of the 3 remaining zones."
Objective: "Collect at least 5 treasures and then exit the Dungeon in fewer turns than your
opponent, or survive longer than your opponent."

Each player has a single-player GameState (their own sheet: resources, hourglass, requirement);
every step goes through the ordinary handlers of `TwoPlayerRules` (the base game's, with the
exit's Oracle condition dropped: the Oracle is an option here, and one round only).  After each
step the map's pencil marks (explored rooms, collapsed walls, fallen rooms, beaten foes, taken
items, pulled levers, used arrows) are copied to the other player's state: one map, so the
opponent's line is explored and walked "freely" (no roll), and a foe left on it is faced as usual.

Readings chosen (docs/readings.md):
- One round each: enter through an arrow of your own zone (not the opponent's), exit through
  another zone's arrow; the Oracle is optional.  Exiting with fewer than 5 chests is allowed
  (it does not meet the objective).  A death ends that player's game (no INSERT COIN).
- Turns alternate, the first player of `players:` first ("the youngest player chooses first");
  a player who has exited or died takes no more turns and the other plays on alone.  A turn is
  the single-player engine's (a move after a resolved room; free moves and extra steps go on
  with it), so a fight, a collect ... is written before the opponent's turn starts; a shovel's
  crossing or a magic circle's jump may open a turn (it marks the hourglass then).
- "Face them": ending a move in the opponent's room starts a duel, the mover's next step: both roll
  1D6, each may add their weapon value (1 weapon point spent, as in a fight); the higher total
  hits: the loser loses 1 heart unless they spend a shield; a tie is no hit.  One exchange.
  Reading 'duel-treasure': the loser hands 1 chest to the winner instead (no heart, no shield).
- The winner: a player who exited with at least 5 chests meets the objective; of two, fewer
  turns wins (equal turns: a draw).  Else "survive longer": a dead player loses to one alive (or
  out); of two dead, the later death (more turns) wins; equal, or both out without the objective:
  a draw.  Until that is settled, the game is undecided.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ...base import Outcome, ReadingsInUse, Violation, broken
from ..actions import Circle, Coin, Enter, Exit, Move, Score, Sheet, Shovel
from ..heroes import Hero
from ..tables import ANCIENT
from .state import BETWEEN, DEAD, DUEL_TREASURE, INSIDE, OVER, START, FouryReading, GameState, StepContext, check_death, \
    fmt_cell, gain_resource
from .steps import FouryRules

TREASURES_TO_WIN = 5
# the pencil marks of the one shared map (GameState slots)
MAP_FIELDS = ("explored", "walls", "erased", "rooms", "removed", "spawned", "levers", "used_entries", "trolls")


@dataclass(frozen=True, slots=True)
class Duel:
    """A duel between the two players (the one who reached the other writes it)."""
    hero: int                       # the mover's die
    opponent: int                   # the opponent's die
    weapon: bool = False            # the mover adds their weapon value
    opponent_weapon: bool = False
    shield: bool = False            # the mover spends a shield to block a hit
    opponent_shield: bool = False


class TwoPlayerRules(FouryRules):
    """The base game's handlers for one player of a two-player game: one round, the Oracle optional."""

    def exit_offered(self, s: GameState, cell) -> bool:
        return s.board.zone_of(cell) != s.zone

    def check_exit(self, s: GameState, zone: str | None, ctx: StepContext) -> None:
        if zone == s.zone:
            ctx.soft("two.exit_zone", f"this player entered in zone {s.zone}: the exit must be through one of "
                     "the 3 remaining zones")

    def end_round(self, s: GameState) -> None:
        s.phase = OVER                  # one round in the 2 Players Mode: out is the end of this player's game


TWO_RULES = TwoPlayerRules()


@dataclass
class Result:
    decided: bool
    winner: int | None = None       # the player's index (0, 1); None with decided: a draw
    why: str = ""


@dataclass
class TwoPlayerGame:
    """Both players' sheets on the one map; `turn` is whose turn it is (None before the first move)."""
    states: list[GameState]
    names: tuple[str, str]
    turn: int | None = None
    duel_due: int | None = None     # the player who reached the other: their next step is the duel
    died_at: list[int | None] = field(default_factory=lambda: [None, None])

    def copy(self) -> "TwoPlayerGame":
        return TwoPlayerGame(list(self.states), self.names, self.turn, self.duel_due, list(self.died_at))

    def done(self, i: int) -> bool:
        return self.states[i].phase in (DEAD, OVER)


def new_game(board, heroes: tuple[Hero, Hero], names: tuple[str, str],
             readings: Iterable[Any] | ReadingsInUse = ()) -> TwoPlayerGame:
    if board.campaign != ANCIENT.name:
        raise ValueError(f"the 2 Players Mode is played on a map of The Ancient Story, not '{board.campaign}'")
    if not isinstance(readings, ReadingsInUse):
        readings = ReadingsInUse(FouryReading.parse(readings))
    states = [TWO_RULES.new_game(board, h, readings) for h in heroes]
    return TwoPlayerGame(states, names)


def _sync(game: TwoPlayerGame, frm: int) -> None:
    """The mover's pencil marks on the map are the other player's map too."""
    src = game.states[frm]
    other = game.states[1 - frm].copy()
    for name in MAP_FIELDS:
        setattr(other, name, getattr(src, name))
    game.states[1 - frm] = other


def _starts_turn(before: GameState, after: GameState) -> bool:
    return after.turns > before.turns


def step(game: TwoPlayerGame, player: int, action) -> Outcome:
    """Player `player` (0 or 1) takes `action`: Outcome(new game, violations, followed)."""
    g = game.copy()
    me, opp = g.states[player], g.states[1 - player]
    name, other = g.names[player], g.names[1 - player]
    pre: list[Violation] = []
    if g.duel_due is not None and not isinstance(action, (Duel, Sheet, Score)):     # a sheet is no action
        who = g.names[g.duel_due]
        pre.append(broken("two.face", f"{who} reached {g.names[1 - g.duel_due]} in "
                          f"{fmt_cell(g.states[g.duel_due].pos)}: they face each other (a duel step by {who}) "
                          "before anything else"))
        g.duel_due = None
    if isinstance(action, Duel):
        return _duel(g, player, action, pre)
    if isinstance(action, Enter) and action.entry is not None and opp.phase != START and opp.zone is not None:
        zone = me.board.zone_of(action.entry[0])
        if zone == opp.zone:
            pre.append(broken("two.start_side", f"{name} enters in zone {zone}, {other}'s side: each player "
                              "starts from a different side of the map"))
    if me.phase in (DEAD, OVER) and not isinstance(action, (Sheet, Score, Coin)):
        how = "died" if me.phase == DEAD else "left the dungeon"
        return Outcome(game, tuple(pre) + (broken("two.over", f"{name} has {how}: {name}'s game is over"),), False)
    if isinstance(action, Coin):
        return Outcome(game, tuple(pre) + (broken("two.coin", "in the 2 Players Mode a death ends that player's "
                                                  "game (the objective: survive longer): no INSERT COIN"),), False)
    out = me.rules.step(me, action)
    violations = list(pre) + list(out.violations)
    new = out.state
    if (isinstance(action, (Shovel, Circle)) and new is not me and not _starts_turn(me, new)
            and g.turn not in (None, player) and not g.done(1 - player)):
        # a shovel's crossing or a circle's jump that opens the player's turn is that turn's move: one
        # hourglass box (alone, the engine counts it with the turn before, which the opponent ended)
        new = new.copy()
        new.turns += 1
        new.turns_hi += 1
        new.turn_open = False
    if new is not me and (isinstance(action, (Move, Exit)) or _starts_turn(me, new)):
        if _starts_turn(me, new):
            violations += _turn_order(g, player, me.turns + 1)
            if g.turn != player and g.turn is not None:
                # the opponent's turn is over: their next move starts a new one, however their last ended
                ended = g.states[1 - player].copy()
                ended.turn_open = False
                g.states[1 - player] = ended
            g.turn = player
        elif g.turn is not None and g.turn != player and not g.done(1 - player):
            violations.append(broken("two.turn_order", f"it is {other}'s turn: {name} moves again only after it"))
    elif not isinstance(action, (Enter, Sheet, Score)) and g.turn is not None and g.turn != player and not g.done(1 - player) \
            and new is not me:
        violations.append(broken("two.turn_order", f"it is {other}'s turn: {name}'s step belongs to a turn "
                                 f"{name} has not started"))
    g.states[player] = new
    if new.phase == DEAD and me.phase != DEAD:
        g.died_at[player] = new.turns
    _sync(g, player)
    opp = g.states[1 - player]
    # any way into the opponent's room (a move, a shovel's crossing, a magic circle) reaches them
    if (new.phase == INSIDE and opp.phase == INSIDE and new.pos is not None and new.pos == opp.pos
            and new.pos != me.pos):
        g.duel_due = player
    return Outcome(g, tuple(violations), out.followed)


def _turn_order(g: TwoPlayerGame, player: int, n: int) -> list[Violation]:
    """Player starts their turn n: the opponent has played theirs first (turns alternate, player 0 first)."""
    opp = 1 - player
    if g.done(opp):
        return []
    need = n - 1 if player == 0 else n
    have = g.states[opp].turns          # (more than needed: the opponent moved out of turn, reported then)
    if have < need:
        return [broken("two.turn_order", f"{g.names[player]} starts turn {n} before {g.names[opp]} has played "
                       f"turn {need}: the players take turns, {g.names[0]} first")]
    return []


def _duel(g: TwoPlayerGame, player: int, a: Duel, pre: list[Violation]) -> Outcome:
    me, opp = g.states[player].copy(), g.states[1 - player].copy()
    name, other = g.names[player], g.names[1 - player]
    v = list(pre)
    if g.duel_due != player:
        if me.phase != INSIDE or opp.phase != INSIDE or me.pos != opp.pos:
            v.append(broken("two.duel", f"{name} has not reached {other}: a duel is fought in the room a move "
                            f"ends in where the opponent stands ({name} in {fmt_cell(me.pos)}, {other} in "
                            f"{fmt_cell(opp.pos)})"))
            return Outcome(g, tuple(v), False)
        v.append(broken("two.duel", f"{name} and {other} have already faced each other here: one duel when a "
                        "move reaches the opponent"))
        return Outcome(g, tuple(v), False)
    g.duel_due = None
    for who, roll in ((name, a.hero), (other, a.opponent)):
        if not 1 <= roll <= 6:
            v.append(broken("roll.range", f"{who}'s die shows {roll}, not a d6 result (1-6)"))
    mine = a.hero + (me.res.get("weapon", 0) if a.weapon else 0)
    theirs = a.opponent + (opp.res.get("weapon", 0) if a.opponent_weapon else 0)
    for st, used, who in ((me, a.weapon, name), (opp, a.opponent_weapon, other)):
        if used:
            if st.res.get("weapon", 0) < 1:
                v.append(broken("duel.weapon", f"{who} has no weapon point to add"))
            gain_resource(st, "weapon", -1)
    treasure = me.readings.uses(DUEL_TREASURE)
    loser = None if mine == theirs else (opp if mine > theirs else me)
    for st, used, who in ((me, a.shield, name), (opp, a.opponent_shield, other)):
        if not used:
            continue
        if treasure:
            v.append(broken("duel.shield", f"{who} cannot spend a shield: under the reading duel-treasure a "
                            "duel costs a chest, not a heart"))
        elif st is not loser:
            v.append(broken("duel.shield", f"{who} takes no hit in this duel ({mine} against {theirs}): "
                            "no shield to spend"))
        elif st.res.get("shields", 0) < 1:
            v.append(broken("duel.shield", f"{who} has no shield left"))
        else:
            gain_resource(st, "shields", -1)
    if loser is not None:
        winner = me if loser is opp else opp
        blocked = (a.opponent_shield if loser is opp else a.shield) and not treasure
        if treasure:
            if gain_resource(loser, "chests", -1):
                gain_resource(winner, "chests", 1)
        elif not blocked:
            gain_resource(loser, "hearts", -1)
            check_death(loser)
    g.states[player], g.states[1 - player] = me, opp
    for i, st in enumerate(g.states):
        if st.phase == DEAD and g.died_at[i] is None:
            g.died_at[i] = st.turns
    return Outcome(g, tuple(v), True)


def result(g: TwoPlayerGame) -> Result:
    """Who has won, if the game is decided (see the module's readings)."""
    s = g.states
    met = [st.phase == OVER and st.res.get("chests", 0) >= TREASURES_TO_WIN for st in s]
    dead = [st.phase == DEAD for st in s]
    if all(met):
        a, b = s[0].turns, s[1].turns
        if a == b:
            return Result(True, None, f"both out with {TREASURES_TO_WIN}+ treasures in {a} turns")
        w = 0 if a < b else 1
        return Result(True, w, f"out with {TREASURES_TO_WIN}+ treasures in fewer turns ({min(a, b)} against "
                      f"{max(a, b)})")
    for i in (0, 1):
        o = 1 - i
        if met[i]:
            if s[o].phase in (DEAD, OVER) or s[o].turns >= s[i].turns:
                return Result(True, i, f"out with {TREASURES_TO_WIN}+ treasures in {s[i].turns} turns")
            return Result(False)
    if all(dead):
        a, b = g.died_at[0] or 0, g.died_at[1] or 0
        if a == b:
            return Result(True, None, f"both died in turn {a}")
        return Result(True, 0 if a > b else 1, "survived longer")
    if any(dead):
        return Result(True, 0 if dead[1] else 1, "survived longer: the opponent died")
    if all(st.phase == OVER for st in s):
        return Result(True, None, f"both out, neither with {TREASURES_TO_WIN} treasures")
    return Result(False)


def phase_name(st: GameState) -> str:
    return {INSIDE: "in the dungeon", OVER: "out", DEAD: "dead", BETWEEN: "out"}.get(st.phase, "outside")
