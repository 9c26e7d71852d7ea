"""What the card games' play logs share: turns of actions.

Both logs are `turns: [{player|hero: NAME, actions: [...]}]`; each action is
parsed by the game's notation, remembered with its YAML line, and the turns are
replayed through the game's `Rules.step`: a turn-begin action for each turn
entry, then its actions, then the end of the turn.  A violation's step is the
1-based index of the action within its turn; a rule broken when the turn ends
is reported at the turn's last action.  Both logs may name the readings they
follow (`readings: [NAME, ...]`).
"""
from __future__ import annotations

from typing import Callable

from sheetgen.errors import Problem, did_you_mean
from sheetgen.games.base import Rules, Violation


def line_of(source, loc) -> int | None:
    return source.problem(loc, "").line


def parse_turns(turns, source, parse, who_key: str, names: list[str], roster: str):
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
                these.append(parse(raw))
            except ValueError as exc:
                problems.append(source.problem(loc, str(exc)))
                continue
            their_lines.append(line_of(source, loc))
        actions.append(these)
        lines.append(their_lines)
    return actions, lines, turn_lines, problems


def declared_readings(names: list[str] | None, source, reading_type) -> tuple[frozenset | None, list[Problem]]:
    """The log's `readings:` as members of reading_type (None: not declared), and a
    located problem (with did-you-mean) for each unknown name."""
    if names is None:
        return None, []
    known = [r.value for r in reading_type]
    problems, chosen = [], set()
    for i, name in enumerate(names):
        try:
            chosen |= reading_type.parse([name])
        except ValueError:
            problems.append(source.problem(("readings", i), f"unknown reading '{name}'",
                                           expected="one of " + ", ".join(known) if known else "none",
                                           suggestion=did_you_mean(name, known)))
    return frozenset(chosen), problems


def replay(loaded, who_key: str, state, rules: Rules, begin_turn: Callable, end_action, rule_prefix: str,
           after_end_ok: tuple[str, ...] = ()) -> list[Violation]:
    """Replay loaded.actions turn by turn through rules.step; begin_turn(NAME) is the
    action that starts a turn, end_action the one that ends it.

    An action after 'end turn' is a violation unless its verb is in after_end_ok;
    a turn without 'end turn' is ended after its last action.

    A refused action (Outcome.followed False) is not carried out, so the actions right
    after it that break a rule too only echo it: they are marked consequences until an
    action goes through cleanly (the engine may mark consequences of its own as well)."""
    out: list[Violation] = []
    refused = False

    def report(outcome, line, prefix, step):
        nonlocal refused
        for v in outcome.violations:
            out.append(Violation(line, f"{prefix}{v.message}", step, v.rule,
                                 consequence=v.consequence or refused))
        refused = (refused and bool(outcome.violations)) or not outcome.followed

    for t, turn in enumerate(loaded.log.turns):
        who = getattr(turn, who_key)
        prefix = f"turn {t + 1} ({who}): "
        begun = rules.step(state, begin_turn(who))
        state = begun.state
        last_line = loaded.turn_lines[t]
        report(begun, last_line, prefix, None)
        ended = False
        for i, (action, line) in enumerate(zip(loaded.actions[t], loaded.lines[t])):
            if ended and action.verb not in after_end_ok:
                out.append(Violation(line, f"{prefix}action after 'end turn'", i + 1, f"{rule_prefix}.turn-over"))
            outcome = rules.step(state, action)
            state = outcome.state
            report(outcome, line, prefix, i + 1)
            ended = ended or action.verb == "end-turn"
            last_line = line
        if not ended:
            outcome = rules.step(state, end_action)
            state = outcome.state
            report(outcome, last_line, prefix, len(loaded.actions[t]) or None)
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
    """A validated log with its turns parsed: actions and YAML lines per turn, and the
    readings it declares (None: not declared)."""

    def __init__(self, log, source, actions, lines, turn_lines, readings=None):
        self.log = log
        self.source = source
        self.actions = actions          # per turn: list of typed actions
        self.lines = lines              # per turn: the YAML line of each action
        self.turn_lines = turn_lines    # the YAML line of each turn
        self.readings = readings        # frozenset of Reading members, or None
