"""What the card-game play logs (navigation, shuffle) share: turns of actions.

Both logs are `turns: [{player|hero: NAME, actions: [...]}]`; each action is
parsed by the rule set's parse_action, remembered with its YAML line, and the
turns are replayed through the engine's begin_turn / step.  A violation's step
is the 1-based index of the action within its turn; a rule broken when the turn
ends is reported at the turn's last action.
"""
from __future__ import annotations

from typing import Callable

from sheetgen.errors import Problem, did_you_mean
from sheetgen.games.base import Violation


def line_of(source, loc) -> int | None:
    return source.problem(loc, "").line


def parse_turns(turns, source, parse_action, who_key: str, names: list[str], roster: str):
    """Parse every turn's actions -> (actions, lines, turn_lines, problems), per turn.

    who_key is the turn's field naming who plays it ('player' or 'hero'); roster
    says where names come from in a message ('players', 'setup')."""
    problems: list[Problem] = []
    actions, lines, turn_lines = [], [], []
    for t, turn in enumerate(turns):
        turn_lines.append(line_of(source, ("turns", t)))
        who = getattr(turn, who_key)
        if who not in names:
            problems.append(source.problem(("turns", t, who_key), f"no {who_key} '{who}' in {roster}",
                                           suggestion=did_you_mean(who, names)))
        these, their_lines = [], []
        for a, raw in enumerate(turn.actions):
            loc = ("turns", t, "actions", a)
            try:
                these.append(parse_action(raw))
            except ValueError as exc:
                problems.append(source.problem(loc, str(exc)))
                continue
            their_lines.append(line_of(source, loc))
        actions.append(these)
        lines.append(their_lines)
    return actions, lines, turn_lines, problems


def replay(loaded, who_key: str, state, begin_turn: Callable, step: Callable, end_action, rule_prefix: str,
           after_end_ok: tuple[str, ...] = ()) -> list[Violation]:
    """Replay loaded.actions turn by turn; step(state, who, action) -> (state, [Forbidden]).

    An action after 'end turn' is a violation unless its verb is in after_end_ok;
    a turn without 'end turn' is ended after its last action."""
    out: list[Violation] = []
    for t, turn in enumerate(loaded.log.turns):
        who = getattr(turn, who_key)
        state = begin_turn(state, who)
        ended = False
        last_line = loaded.turn_lines[t]
        for i, (action, line) in enumerate(zip(loaded.actions[t], loaded.lines[t])):
            if ended and action.verb not in after_end_ok:
                out.append(Violation(line, f"turn {t + 1} ({who}): action after 'end turn'", i + 1,
                                     f"{rule_prefix}.turn-over"))
            state, broken = step(state, who, action)
            for f in broken:
                out.append(Violation(line, f"turn {t + 1} ({who}): {f.message}", i + 1, f.rule))
            ended = ended or action.verb == "end-turn"
            last_line = line
        if not ended:
            state, broken = step(state, who, end_action)
            for f in broken:
                out.append(Violation(last_line, f"turn {t + 1} ({who}): {f.message}",
                                     len(loaded.actions[t]) or None, f.rule))
    return out


def renamed(old: str, new: str):
    """A before-validator that accepts the other log's word for a key ('hero' for 'player' and back)."""
    def rename(cls, v):
        if isinstance(v, dict) and old in v and new not in v:
            v = dict(v)
            v[new] = v.pop(old)
        return v
    return classmethod(rename)


class LoadedTurns:
    """A validated log with its turns parsed: actions and YAML lines per turn."""

    def __init__(self, log, source, actions, lines, turn_lines):
        self.log = log
        self.source = source
        self.actions = actions          # per turn: list of engine Actions
        self.lines = lines              # per turn: the YAML line of each action
        self.turn_lines = turn_lines    # the YAML line of each turn
