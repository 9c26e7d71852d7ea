"""Dungeon Foury rules: the game state, the readings, and the small helpers every step handler and campaign
shares (no campaign in them). See the package docstring (sheetgen.games.foury.rules) for the readings chosen."""
from __future__ import annotations


from ...base import Reading, Violation, broken
from ..board import ENEMIES, Board, Coord, cell_name, neighbour, wall_key
from ..tables import (REQUIREMENT_COUNT, RESOURCES)



FOES = frozenset(ENEMIES) | {"monster", "statue"}
KAEL_ENEMIES = frozenset(ENEMIES) | {"monster"}     # enemies, not the statues' traps

# phases
START, INSIDE, BETWEEN, DEAD, OVER = "start", "inside", "between", "dead", "over"


class FouryReading(Reading):
    """The alternative readings of the rules text a game (or a play log) may follow; the
    default reading of each is described in this module's docstring."""
    WEAPON_ONCE = "weapon-once"                 # the weapon point is paid once per combat, not per exchange
    MONSTER_TOO = "monster-too"                 # a monster event in a printed foe's room: both are fought
    COIN_RESET = "coin-reset"                   # INSERT COIN also clears the chests and cornucopias
    ORACLE_ROUND_ZONE = "oracle-round-zone"     # leaving the Oracle rolls on the round's zone's events
    ORACLE_EXIT_ROLLED = "oracle-exit-rolled"   # the step out of the Oracle into an unexplored space is rolled
    POTION_STEP_KEPT = "potion-step-kept"       # a potion's free step is not spent by the step into the Oracle
    MARKET_EVERY_TURN = "market-every-turn"     # In and Out with Your Strength: the market after every turn
    DUEL_TREASURE = "duel-treasure"             # 2 Players Mode: a duel's loser hands a chest over, no heart lost


(WEAPON_ONCE, MONSTER_TOO, COIN_RESET, ORACLE_ROUND_ZONE, ORACLE_EXIT_ROLLED, POTION_STEP_KEPT,
 MARKET_EVERY_TURN, DUEL_TREASURE) = FouryReading
READINGS = tuple(r.value for r in FouryReading)     # their names, as a play log's `readings:` writes them
# readings once offered and dropped because the rules text does not support them: a log may
# still name one (it was documented), and is then judged without it (docs/readings.md)
RETIRED_READINGS = {
    "extra-after-free": "the extra step is the very next move (\"then move one additional space\"); "
                        "walking explored rooms does not keep it",
}


class HardBreak(Exception):
    """A step that cannot be followed at all (the state stays as it was)."""

    def __init__(self, rule, message):
        self.rule, self.message = rule, message


class GameState:
    """Everything the pencil has put on the sheet and the map, plus the die's context;
    `rules` is the campaign's rules object, `readings` the ReadingsInUse of the game."""
    __slots__ = (
        "board", "hero", "res", "caps", "phase", "pos", "facing", "entry", "round_no", "completed",
        "zone", "kind", "progress", "awakened", "visited", "oracle_chest", "explored", "walls",
        "erased", "rooms", "flooded", "removed", "spawned", "engaged", "fled", "last", "faced",
        "extra", "kills", "kills_total", "used_entries", "zones_done", "coin_used", "turns",
        "turn_open", "upper", "levers", "trolls", "words", "chest_here", "elydion_used",
        "fury", "swim", "backtrack", "floods_done", "floods_flagged", "kprogress", "last_req_zone", "market_done",
        "origin", "rounds_log", "readings", "theft", "weapon_due", "lever_at", "kills_last", "turns_hi", "extra_may",
        "last_req_alt", "found_here", "kraken_wins", "rules",
    )

    def copy(self) -> "GameState":            # replaced below by an unrolled version (speed)
        new = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    # -- read-only helpers -------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.phase != DEAD

    def has_wall(self, c: Coord, side: str) -> bool:
        """A printed wall, the map edge (but entries), or a collapsed wall not erased."""
        key = wall_key(c, side)
        if key in self.walls:
            return True
        if key in self.board.walls and key not in self.erased:
            return True
        n = neighbour(c, side)
        if not self.board.on_board(n):
            return (c, side) not in self.board.entries
        return False

    def enemy_at(self, c: Coord) -> str | None:
        """The active foe (enemy type or 'statue') in a cell, if any."""
        e = self.spawned.get(c)
        if e is not None:
            return e
        for item in self.board.items.get(c, ()):
            if item in FOES and (c, item) not in self.removed:
                return item
        return None

    def items_at(self, c: Coord) -> list[str]:
        return [i for i in self.board.items.get(c, ()) if (c, i) not in self.removed and i not in FOES]

    def requirement_target(self) -> int:
        if self.kind is None:
            return 0
        zone = self.board.zones.get(self.zone)
        if zone is not None and zone.requirement_kind == self.kind and zone.requirement_count:
            return zone.requirement_count
        return REQUIREMENT_COUNT.get(self.kind, 0)

    def requirement_progress(self) -> int:
        if self.kind == "cornucopias" and not self.awakened:
            return min(self.progress + self.res.get("cornucopias", 0), self.requirement_target())
        return self.progress

    def roll_due(self, to: Coord) -> bool:
        """Does entering `to` from here need a roll (assuming the move is legal)?"""
        return self.rules.roll_rule(self, to) == "due"

    def summary(self) -> dict:
        out = {k: self.res.get(k, 0) for k in RESOURCES}
        out["kills"] = self.kills
        out["round"] = self.round_no
        out["requirement"] = self.requirement_progress()
        return out


def _unrolled_copy():
    """GameState.copy as straight-line attribute copies: about twice as fast as a loop."""
    lines = ["def copy(self):", "    new = _new(GameState)"]
    lines += [f"    new.{n} = self.{n}" for n in GameState.__slots__]
    lines.append("    return new")
    scope = {"_new": object.__new__, "GameState": GameState}
    exec("\n".join(lines), scope)  # noqa: S102 - generated from our own slot names
    return scope["copy"]


GameState.copy = _unrolled_copy()


class StepContext:
    """The rules one step breaks but can follow: (rule id, message) pairs."""
    __slots__ = ("problems",)

    def __init__(self):
        self.problems = None

    def soft(self, rule: str, message: str) -> None:
        if self.problems is None:
            self.problems = []
        self.problems.append((rule, message))


def violations_of(ctx: StepContext, hard: HardBreak | None = None) -> tuple[Violation, ...]:
    problems = list(ctx.problems or ())
    if hard is not None:
        problems.append((hard.rule, hard.message))
    return tuple(broken(rule, message) for rule, message in problems)


# -- small helpers (no campaign in them) ------------------------------------------
def require_alive(s: GameState) -> None:
    if s.phase == DEAD:
        raise HardBreak("dead", "the hero is dead: nothing more can happen until an INSERT COIN")
    if s.phase == OVER:
        raise HardBreak("game.over", "the game is over: four rounds are complete")


def require_inside(s: GameState, what: str) -> None:
    require_alive(s)
    if s.phase != INSIDE:
        raise HardBreak("round.not_started", f"cannot {what} outside the dungeon: start a round through an entry first")


def gain_resource(s: GameState, key: str, n: int) -> int:
    """Add n (may be negative) within 0..cap; returns what was really added."""
    res = s.res
    old = res.get(key, 0)
    new = old + n
    cap = s.caps.get(key)
    if cap is not None and new > cap:
        new = cap
    if new < 0:
        new = 0
    if new != old:
        res = dict(res)
        res[key] = new
        s.res = res
    return new - old


def fmt_cell(c: Coord | None) -> str:
    return cell_name(c) if c is not None else "outside"


def dict_with(d, k, v):
    d = dict(d)
    d[k] = v
    return d


def check_death(s: GameState) -> None:
    if s.res.get("hearts", 0) <= 0:
        s.phase = DEAD
        s.engaged = False


def spend_extra(s: GameState) -> None:
    """A pending extra step taken: by the very next move, whatever it enters."""
    s.extra -= 1
    s.extra_may = max(0, min(s.extra_may - 1, s.extra))


def end_combat(s: GameState) -> None:
    """weapon-once reading: the weapon point used in this combat is paid when it ends."""
    if s.weapon_due:
        s.weapon_due = False
        gain_resource(s, "weapon", -1)


def begin_round_state(s: GameState) -> None:
    s.progress = 0
    s.awakened = False
    s.visited = False
    s.oracle_chest = False
    s.faced = frozenset()
    s.kills = 0
    s.engaged = False
    s.fled = False
    s.last = None
    s.extra = 0
    s.extra_may = 0
    s.upper = False
    s.elydion_used = False
    s.turn_open = False
    s.chest_here = None
    s.found_here = ()
    s.origin = None
    s.swim = 0
    s.backtrack = 0


def visit_oracle(s: GameState) -> None:
    if s.kind == "cornucopias" and not s.awakened and s.res.get("cornucopias", 0) >= 1:
        gain_resource(s, "cornucopias", -1)          # delivered to the Oracle
        s.progress = 1
        s.awakened = True
    if s.awakened and not s.oracle_chest:
        gain_resource(s, "chests", 1)
        s.oracle_chest = True
        s.chest_here = s.pos          # a `collect: chest` in the Oracle's room is this chest
    s.visited = True


def rob(s: GameState, stolen: str | None, ctx: StepContext) -> None:
    others = [k for k in RESOURCES if k != "hearts" and s.res.get(k, 0) > 0]
    if not others:
        if stolen is not None:
            ctx.soft("bandit.steal", "there was nothing else for the Bandit to steal")
        return
    if stolen is None:
        s.theft += 1            # which one the player lost shows on the next sheet
        return
    if stolen not in others:
        ctx.soft("bandit.steal", f"the Bandit cannot steal {stolen}: the hero has none (one of {', '.join(others)})")
        return
    gain_resource(s, stolen, -1)


def may_flee(s: GameState) -> bool:
    """May the hero flee the foe in this room now?  A monster still alive after any exchange ("If
    the Monster is still alive, you can decide to continue the combat or flee"); a statue only
    after a tie or a blocked hit (its section gives the choice there, not after a dart's hit)."""
    if s.last in ("tie", "blocked"):
        return True
    return s.last == "hit" and s.enemy_at(s.pos) != "statue"


def leave_combat(s: GameState, ctx: StepContext, why: str = "first") -> None:
    """Moving on from a foe's room: allowed where fleeing is (the move is the flight)."""
    if s.engaged:
        if may_flee(s):
            s.engaged = False
            s.fled = True
        else:
            ctx.soft("fight.pending", f"the {s.enemy_at(s.pos)} in {fmt_cell(s.pos)} must be faced {why}"
                     + ("" if s.last is None else ": after a statue's unblocked hit the fight goes on"))
    end_combat(s)


def requirement_count(board: Board, kind: str) -> int:
    """The count of a requirement kind on this map (a zone's, else the base game's)."""
    for z in board.zones.values():
        if z.requirement_kind == kind and z.requirement_count:
            return z.requirement_count
    return REQUIREMENT_COUNT[kind]


