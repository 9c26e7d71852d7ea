"""What a generated map must also do besides its win rate: every zone's requirement met in a fair
share of the rounds played there, and every face of every event table and of the die table
mattering in some games (`sheetgen generate map` checks these on its verification games).

"Matters" is measured, not guessed: a face matters in a game when it was rolled at least once
in that game and changed the game there and then:

- an event face: the move that rolled it leaves the game in another state than the same move
  with the face's events left out (a collapse on a side that is already a wall, a chest face in
  a campaign without chests ... change nothing);
- a die-table face: the monster appears (a fight), or a resource actually changes (a gain at a
  full track, or a loss at zero, changes nothing).

The games are the simulator's own (runner.Game, the same seeds, the same dice, the same
outcomes): the only difference is that each rolled move is also resolved a second time, on a
copy, without its events, to see whether they changed anything.  So the checked games are
slower than `simulate`'s, and are played only where asked (the verification of a candidate).
Every figure is an integer sum (a Counter), merged in any order like sim/stats.py.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sheetgen.stats import wilson
from .. import actions as A
from ..rules.state import GameState
from .results import WON
from .runner import Game, game_rng

FACES = (1, 2, 3, 4, 5, 6)
# the bounds (docs/designing.md says why): a zone's requirement met in at least this share of the
# rounds played there, and a face mattering in at least this share of the games
REQUIREMENT_MIN = 0.10
FACE_MIN = 0.01


def _differs(a: GameState, b: GameState) -> bool:
    return any(getattr(a, n) != getattr(b, n) for n in GameState.__slots__)


class CheckedGame(Game):
    """runner.Game that also notes, for each roll, whether the face changed anything."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.events: set = set()        # (zone, face) of the event tables that changed something
        self.die: set = set()           # die-table faces rolled
        self.die_mattered: set = set()  # die-table faces that changed something

    def do(self, action):
        s = self.state
        if isinstance(action, A.Move) and action.roll is not None:
            # the same move with the events left out, by a rules object of our own (the shared one
            # is never touched: a cluster worker plays games in several threads)
            try:
                plain = _eventless(self.rules).apply(s, action)
            except Exception:        # noqa: BLE001 - the real move below raises the real error
                plain = None
            super().do(action)
            b = s.board
            zone = b.zone_of(s.pos) or b.zone_of(action.to)      # as runner.Game counts its rolls
            if plain is None or _differs(plain, self.state):
                self.events.add((zone, action.roll))
            return
        if isinstance(action, A.Collect) and action.item == "die" and action.roll is not None:
            super().do(action)
            after = self.state
            self.die.add(action.roll)
            if after.res != s.res or after.spawned != s.spawned:
                self.die_mattered.add(action.roll)
            return
        super().do(action)


def _nothing(*_args, **_kw) -> None:
    return None


_EVENTLESS: dict = {}


def _eventless(rules):
    """A rules object of the same campaign whose rolled events do nothing (one per class, read-only)."""
    got = _EVENTLESS.get(type(rules))
    if got is None:
        got = type(rules)()
        got._resolve_events = _nothing
        _EVENTLESS[type(rules)] = got
    return got


@dataclass
class Checks:
    """Integer counters over the checked games (merge with +)."""
    games: int = 0
    wins: int = 0
    rounds: Counter = field(default_factory=Counter)        # zone -> rounds played there
    met: Counter = field(default_factory=Counter)           # zone -> rounds whose requirement was met
    round_no: Counter = field(default_factory=Counter)      # round number -> rounds played
    round_met: Counter = field(default_factory=Counter)     # round number -> requirement met
    rolled: Counter = field(default_factory=Counter)        # (zone, face) -> games where it was rolled
    mattered: Counter = field(default_factory=Counter)      # (zone, face) -> games where it changed something
    die_rolled: Counter = field(default_factory=Counter)    # die face -> games
    die_mattered: Counter = field(default_factory=Counter)  # die face -> games where it changed something

    def add(self, g: CheckedGame, won: bool) -> None:
        self.games += 1
        self.wins += won
        for r in g.rounds:
            if r.zone is not None:
                self.rounds[r.zone] += 1
                self.met[r.zone] += bool(r.met)
                self.round_no[r.round_no] += 1
                self.round_met[r.round_no] += bool(r.met)
        for key in (g.rolls or {}):
            self.rolled[key] += 1
        self.mattered.update(g.events)
        self.die_rolled.update(g.die)
        self.die_mattered.update(g.die_mattered)

    def __add__(self, other: "Checks") -> "Checks":
        out = Checks(self.games + other.games, self.wins + other.wins)
        for name in ("rounds", "met", "round_no", "round_met", "rolled", "mattered", "die_rolled", "die_mattered"):
            getattr(out, name).update(getattr(self, name))
            getattr(out, name).update(getattr(other, name))
        return out


def play_checked(board, hero, policy: str, seed: int, start: int, stop: int, nav=None) -> Checks:
    """Games start..stop of a run seeded `seed`, exactly as runner.play_game plays them, checked."""
    out = Checks()
    for i in range(start, stop):
        g = CheckedGame(board, hero, policy, game_rng(seed, i), False, False, nav)
        result = g.play()
        out.add(g, result.outcome == WON)
    return out


@dataclass
class Finding:
    """A check the map fails: what, and whether the search can change it."""
    text: str
    zone: str | None = None
    face: int | None = None
    kind: str = "requirement"       # requirement | event | die
    fixable: bool = True


def findings(checks: Checks, board, can_change_events: bool = True, can_change_requirements: bool = True) -> list:
    """The checks the map fails, in reading order (zone, face)."""
    out = []
    n = checks.games
    for letter, zone in sorted(board.zones.items()):
        if zone.requirement_kind is None:
            continue
        played = checks.rounds[letter]
        # failed when the 95% interval lies wholly under the bound: few rounds prove nothing either way
        if played and wilson(checks.met[letter], played)[1] < REQUIREMENT_MIN:
            out.append(Finding(f"zone {letter}'s requirement met in {checks.met[letter]} of {played} rounds played "
                               f"there (under {REQUIREMENT_MIN:.0%})", letter, None, "requirement",
                               can_change_requirements and zone.requirement_count > 1))
        for face in FACES:
            if not zone.events.get(face):
                continue            # an empty face is meant to do nothing
            if checks.mattered[(letter, face)] < FACE_MIN * n:
                out.append(Finding(f"zone {letter} event {face} changed something in {checks.mattered[(letter, face)]} "
                                   f"of {n} games (under {FACE_MIN:.0%})", letter, face, "event", can_change_events))
    if checks.die_rolled:            # the map has a die item the games reached
        for face in FACES:
            if checks.die_mattered[face] < FACE_MIN * n:
                out.append(Finding(f"die-table face {face} changed something in {checks.die_mattered[face]} of {n} "
                                   f"games (under {FACE_MIN:.0%})", None, face, "die", False))
    return out


def summary_lines(checks: Checks, board, policy: str = "cautious") -> list[str]:
    """The figures, for the header comment and the screen (one line each)."""
    n = checks.games
    parts = []
    for letter in sorted(board.zones):
        played = checks.rounds[letter]
        if board.zones[letter].requirement_kind is None:
            continue
        if not played:
            parts.append(f"{letter} no round played")
            continue
        parts.append(f"{letter} {checks.met[letter] / played:.0%} of {played} rounds")
    lines = [f"Requirements met (share of the rounds played in each zone; at least {REQUIREMENT_MIN:.0%} each): "
             + (", ".join(parts) if parts else "no round played") + "."]
    rounds = [f"round {k} {checks.round_met[k] / checks.round_no[k]:.0%} of {checks.round_no[k]}"
              for k in sorted(checks.round_no) if checks.round_no[k]]
    if rounds:
        lines.append("By round number: " + ", ".join(rounds) + ".")
    faces = []
    for letter in sorted(board.zones):
        zone = board.zones[letter]
        shares = [f"{checks.mattered[(letter, f)] / n:.0%}" if zone.events.get(f) else "-" for f in FACES]
        faces.append(f"{letter} " + "/".join(shares))
    lines.append(f"Event faces 1-6 that changed something (share of {n} games; at least {FACE_MIN:.0%} each): "
                 + ", ".join(faces) + ".")
    has_die = any("die" in names for names in board.items.values())
    if has_die and not checks.die_rolled:
        why = " (the cautious policy never takes it: the player's choice, not the map's)" if policy == "cautious" else ""
        lines.append(f"Die table: the {policy} player never took the die item in {n} games, so no face of it came "
                     f"up{why}.")
    elif checks.die_rolled:
        lines.append("Die-table faces 1-6 that changed something: "
                     + "/".join(f"{checks.die_mattered[f] / n:.1%}" for f in FACES)
                     + f" of {n} games (rolled in {sum(checks.die_rolled.values())}).")
    return lines
