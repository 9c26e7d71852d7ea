"""The one contract every game follows, and the values every game shares.

A game is a package `sheetgen/games/<name>/` whose `__init__` defines `GAME`,
a `Game` naming (as module strings, imported only when used) what the game
has: its definition kinds, its tracker adapter, its simulator, its extra
commands, the build options its sheets take and the readings its checker
knows.  The registry (`sheetgen.definitions.registry`) finds games by name.

The rules engine of a game is a `Rules` object (python-chess style):

    outcome = rules.step(state, action)     # never raises for a broken rule
    outcome.state                           # the state after the step
    outcome.violations                      # every rule it breaks (empty: legal)
    state = rules.apply(state, action)      # the strict form: raises Illegal
    rules.legal_actions(state)              # where the game can list them

A checker replays a play log through `step` and reports each `Violation` with
the log's line.  Where the rules text allows two readings of a rule, a game
lists them as members of a `Reading` enum; a replay runs under a set of them
(`ReadingsInUse` records which ones the replay consulted) and `judge` picks
the reading set a log follows.

Pure: the standard library only (and sheetgen.errors, itself pure), so the
rules of every game may import this module.
"""
from __future__ import annotations

import enum
import importlib
import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import (TYPE_CHECKING, Any, Callable, Generic, Hashable, Iterable, Iterator, Mapping, Sequence,
                     TypedDict, TypeVar)

from ..errors import InputError, SheetgenError, did_you_mean

if TYPE_CHECKING:               # for annotations only (no start-up cost)
    import random
    from pathlib import Path
    from types import ModuleType

S = TypeVar("S")
A = TypeVar("A")


# -- violations ---------------------------------------------------------------------------
@dataclass
class Violation:
    """A rule broken, with a stable rule id (e.g. 'move.adjacent'); line and step locate it
    in a play log (step is 1-based where logs have steps).  A consequence is a report that
    only follows from an earlier refused step (the step was not applied, so what depends on
    it breaks again): shown, but not counted as a mistake of its own."""
    line: int | None
    message: str
    step: int | None = None
    rule: str | None = None
    column: int | None = None
    consequence: bool = False

    def format(self, filename: str) -> str:
        where = f"{filename}:{self.line}" if self.line is not None else filename
        step = f"step {self.step}: " if self.step is not None else ""
        return f"{where}: {step}{self.message}"

    def as_dict(self, filename: str) -> dict[str, Any]:
        out: dict[str, Any] = {"file": filename, "line": self.line, "column": self.column, "step": self.step,
                               "rule": self.rule, "message": self.message}
        if self.consequence:
            out["consequence"] = True
        return out


def broken(rule: str, message: str) -> Violation:
    """A violation found by an engine (no location yet: the checker adds line and step)."""
    return Violation(None, message, rule=rule)


class Illegal(SheetgenError):
    """An action the rules forbid (exit 1): raised by `Rules.apply` and by trackers.

    violations lists every rule it breaks; lenient is the state as the claimed step
    leaves it where the step can still be followed, else None."""
    exit_code = 1

    def __init__(self, violations: Sequence[Violation] | str, lenient: Any = None):
        if isinstance(violations, str):
            violations = [broken("refused", violations)]
        self.violations = list(violations)
        self.lenient = lenient
        first = self.violations[0] if self.violations else broken("refused", "illegal")
        self.rule = first.rule
        self.message = first.message
        super().__init__(first.message)


# -- the engine -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Outcome(Generic[S]):
    """What one step did: the new state and the rules it broke.

    followed is False when the step could not be carried out at all (the state is
    then the one before it); with violations and followed True, the state is as
    the player's claimed step leaves it, so a checker can go on and list every
    problem of a log in one run."""
    state: S
    violations: tuple[Violation, ...] = ()
    followed: bool = True

    @property
    def legal(self) -> bool:
        return not self.violations


class StepReport(list):
    """The violations of one step, as its handler finds them (`broken(...)`), and whether the
    action was refused: not carried out, so what builds on it only echoes it (the step's
    Outcome is then not followed).  A violation of one of `refusals` refuses by itself;
    `refuse()` refuses with any rule."""

    def __init__(self, refusals: frozenset[str] = frozenset()):
        super().__init__()
        self.refusals = refusals
        self.refused = False

    def append(self, violation: Violation) -> None:
        super().append(violation)
        if violation.rule in self.refusals:
            self.refused = True

    def refuse(self, rule: str, message: str) -> None:
        """A violation that stops the action: it is not carried out."""
        self.append(broken(rule, message))
        self.refused = True

    def outcome(self, state: S) -> Outcome[S]:
        return Outcome(state, tuple(self), not self.refused)


H = TypeVar("H")


def handler_of(handlers: Mapping[type, H], action: Any, game: str) -> H:
    """The one way a rules engine dispatches: its table from action type to the handler of that
    step.  An action of a type the table lacks is a bug in the caller (notation builds only the
    game's own actions): TypeError, exit 3, never a verdict."""
    handler = handlers.get(type(action))
    if handler is None:
        raise TypeError(f"not a {game} action: {action!r}")
    return handler


class Rules(ABC, Generic[S, A]):
    """A game's rules: pure functions of (state, action); no I/O, no drawing, no formats."""

    game: str = ""

    @abstractmethod
    def step(self, state: S, action: A) -> Outcome[S]:
        """The state after action and every rule it breaks (never raises for a broken rule)."""

    def apply(self, state: S, action: A) -> S:
        """The state after a legal action; Illegal (with .lenient) for an illegal one."""
        out = self.step(state, action)
        if out.violations:
            raise Illegal(out.violations, out.state if out.followed else None)
        return out.state

    def legal_actions(self, state: S) -> Iterable[A]:
        """The actions allowed from state, where the game can list them."""
        raise NotImplementedError(f"{type(self).__name__} cannot list its legal actions")

    def is_legal(self, state: S, action: A) -> bool:
        return not self.step(state, action).violations


# -- readings of ambiguous rules ---------------------------------------------------------------
class Reading(str, enum.Enum):
    """An alternative reading of a rule whose text allows two; each game subclasses this
    with its members (value = the name written in logs, e.g. 'weapon-once')."""

    @classmethod
    def parse(cls, names: Iterable[Any]) -> frozenset[Reading]:
        """Reading members from their names (or members); an unknown name is a ValueError
        that names the known ones."""
        out: set[Reading] = set()
        known = [m.value for m in cls]
        for name in names:
            if isinstance(name, cls):
                out.add(name)
                continue
            try:
                out.add(cls(str(name)))
            except ValueError:
                hint = did_you_mean(str(name), known)
                raise ValueError(f"unknown reading '{name}' (known: {', '.join(known) or 'none'})"
                                 + (f"; did you mean '{hint}'?" if hint else "")) from None
        return frozenset(out)


class ReadingsInUse:
    """The readings one replay runs under, and which readings it consulted.

    Engines ask `uses(reading)` where a rule depends on a reading; the replay then
    knows which readings could have changed its verdict (shared by every state
    copied from the first, so it covers the whole replay)."""
    __slots__ = ("chosen", "consulted")

    def __init__(self, chosen: Iterable[Reading] = ()):
        self.chosen = frozenset(chosen)
        self.consulted: set[Reading] = set()

    def uses(self, reading: Reading) -> bool:
        self.consulted.add(reading)
        return reading in self.chosen

    def __contains__(self, reading: Reading) -> bool:
        return self.uses(reading)

    def __iter__(self) -> Iterator[Reading]:
        return iter(self.chosen)

    def __repr__(self) -> str:
        return f"ReadingsInUse({sorted(r.value for r in self.chosen)})"


@dataclass
class Judgement:
    """A log's verdict: its violations under the readings it was judged by."""
    violations: list[Violation]
    readings: frozenset[Reading] = frozenset()  # the Reading members the verdict used
    declared: bool = False                      # the log named its readings in its header
    replays: int = 1                            # how many replays the verdict took

    @property
    def legal(self) -> bool:
        return not [v for v in self.violations if not v.consequence]

    def reading_names(self) -> list[str]:
        return sorted(r.value for r in self.readings)


def judge(replay: Callable[[frozenset[Reading]], tuple[list[Violation], set[Reading]]],
          declared: Iterable[Reading] | None = None,
          max_replays: int = 64) -> Judgement:
    """The verdict on a log: replay(readings) -> (violations, readings consulted).

    A log that declares its readings is judged by exactly those.  Otherwise the log
    is replayed under the default reading (none); if it breaks a rule, only the
    readings that replay consulted are tried, alone and together, and the set with
    the fewest violations wins (ties: the fewer readings, then the default)."""
    if declared is not None:
        chosen = frozenset(declared)
        violations, _ = replay(chosen)
        return Judgement(violations, chosen, declared=True)
    violations, consulted = replay(frozenset())
    best = Judgement(violations)
    if not violations:
        return best
    count = 1
    pool = sorted(consulted, key=lambda r: r.value)
    for size in range(1, len(pool) + 1):
        for combo in itertools.combinations(pool, size):
            if count >= max_replays:
                break
            count += 1
            tried, _ = replay(frozenset(combo))
            if _weight(tried) < _weight(best.violations):
                best = Judgement(tried, frozenset(combo))
    best.replays = count
    return best


def _weight(violations: list[Violation]) -> int:
    return sum(1 for v in violations if not v.consequence)


# -- what a game declares --------------------------------------------------------------------
@dataclass(frozen=True)
class BuildOption:
    """An option of `sheetgen build` that some of a game's sheets take (e.g. --columns), or of another
    core command a game adds an option to (Game.simulate_options)."""
    name: str                               # the option (--NAME) and the key composers read
    type: str                               # 'int' or 'str'
    help: str
    minimum: int | None = None
    maximum: int | None = None

    def convert(self, value: Any) -> Any:
        if value is None:
            return None
        if self.type == "int":
            v = int(value)
            if (self.minimum is not None and v < self.minimum) or (self.maximum is not None and v > self.maximum):
                raise ValueError(f"--{self.name} must be between {self.minimum} and {self.maximum}, not {v}")
            return v
        return str(value)


@dataclass(frozen=True)
class Command:
    """A command a game adds to the command line, or to `sheetgen track` (its steps): the click
    command `attribute` of `module`, imported only when run or listed."""
    name: str
    module: str
    attribute: str
    help: str


@dataclass(frozen=True)
class Game:
    """One game, as the registry knows it.  Module names are strings, imported when used,
    so that finding a game costs no more than importing its small `__init__`."""
    name: str                                               # the `ruleset:` of its files
    title: str
    rules_text: str = ""                                    # the seed file the rules come from
    kinds: Mapping[str, str] = field(default_factory=dict)  # definition kind -> handler module
    tracker: str | None = None                              # module of the journal adapter
    simulator: str | None = None                            # module of `sheetgen simulate`
    readings: str | None = None                             # "module:EnumClass" of its readings
    commands: tuple[Command, ...] = ()
    track_commands: tuple[Command, ...] = ()                # `sheetgen track NAME`: the game's own steps
    track_prompt: tuple[str, ...] = ()                      # its steps, as `track play`'s help shows them
    track_shortcuts: Mapping[str, str] = field(default_factory=dict)    # `track play`: letter -> step
    # the options of `sheetgen track` that give a die a step may leave out: (path of keys in the
    # step, as dice_due names it) -> the option, for the message that asks for the die
    dice_options: Mapping[tuple[str, ...], str] = field(default_factory=dict)
    simulate_options: tuple[BuildOption, ...] = ()          # options the game adds to `sheetgen simulate`
    # what the game adds to the help of a core option, by "command --option" ("track new --map")
    option_help: Mapping[str, str] = field(default_factory=dict)
    build_options: tuple[BuildOption, ...] = ()
    vocabularies: Mapping[str, str] = field(default_factory=dict)   # `sheetgen list WORD` -> "module:function"
    web: str | None = None                                  # module of its companion page (`sheetgen play`)
    designer: str | None = None                             # module of its map workbench (`sheetgen design`)
    scanner: str | None = None                              # module of `sheetgen scan` (its SCANNER): which
                                                            # sheets are playable, what their marks mean

    def module(self, role: str) -> ModuleType:
        """Import the module behind a role: 'tracker', 'simulator', 'web', 'designer', 'scanner' or a
        definition kind."""
        name = self.kinds.get(role) if role in self.kinds else getattr(self, role, None)
        if not isinstance(name, str):
            raise LookupError(f"the {self.title} game has no {role}")
        return importlib.import_module(name)

    def reading_type(self) -> type[Reading] | None:
        if not self.readings:
            return None
        module, _, attr = self.readings.partition(":")
        return getattr(importlib.import_module(module), attr)


# -- the tracker adapter ----------------------------------------------------------------------
@dataclass
class Told:
    """What one recorded step meant: lines (words for the player) and marks for the page to
    highlight on the sheet: walls [(cell name, side)] to pencil, cells [cell name] to look at.
    False when it says nothing."""
    lines: list[str] = field(default_factory=list)
    walls: list[tuple[str, str]] = field(default_factory=list)
    cells: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.lines or self.walls or self.cells)


class TrackerAdapter(ABC):
    """What `sheetgen track` (and the web companion) need from a game.

    The journal stores, per game, a JSON header and a list of steps, each step a
    play-log step dict of that game (its notation)."""

    @abstractmethod
    def start(self, params: dict) -> dict:
        """A header for a new game from the command's options (e.g. {"map": ..., "hero": {...}});
        Illegal or InputError for unusable parameters."""

    @abstractmethod
    def replay(self, header: dict, steps: list) -> Any:
        """The live state after the recorded steps (they were legal when recorded)."""

    def resume(self, header: dict, steps: list) -> Any:
        """replay() for a short process (one `sheetgen track` command): a game may keep the state
        between commands in the user cache (see remember); the default replays."""
        return self.replay(header, steps)

    def remember(self, state: Any) -> None:
        """Keep STATE (just recorded in the journal) for the next command's resume(); the default
        keeps nothing.  A long-lived process (the web companion) keeps states itself and never calls it."""

    def prepare(self, state: Any, step: dict, rng: random.Random) -> dict:
        """Fill in the dice the player left to sheetgen (a roll that is due)."""
        return step

    def dice_due(self, state: Any, step: dict) -> list:
        """The dice STEP leaves to sheetgen, as (path of keys in the step, what the die is for),
        so that a command asks the player for them (or rolls only when told it may)."""
        return []

    def narrate(self, before: Any, after: Any, step: dict) -> list[str]:
        """What a recorded step meant, in words for the player (one line each); the default: the
        lines of tell().  A game overrides narrate or tell (tell's default asks narrate)."""
        if type(self).tell is TrackerAdapter.tell:
            return []
        return self.tell(before, after, step).lines

    def tell(self, before: Any, after: Any, step: dict) -> Told:
        """What a recorded step meant: its words (narrate) and what the page highlights on the sheet."""
        return Told(self.narrate(before, after, step))

    # a game whose games may start without --map (its start() then takes the built-in default)
    needs_map: bool = True

    def choices_due(self, state: Any, step: dict) -> list | None:
        """The choices the player still has to make for STEP once its dice are rolled (map mode:
        where a rolled room goes), or None when there is none to make (the default)."""
        return None

    def ask_step(self, state: Any, step: dict, auto: bool, prompt: Any, echo: Any) -> dict:
        """STEP completed at a terminal where a game's choices come between its dice (a Foury
        fight: your die, then the weapon, then the foe's die): PROMPT(text) asks, ECHO(text) tells.
        By default nothing is asked here (the dice are asked by dice_due)."""
        return step

    def undo_lines(self, before: Any, step: dict) -> list[str]:
        """What to erase from the paper when STEP (recorded after BEFORE) is taken back; by
        default nothing more than "erase it"."""
        return []

    @abstractmethod
    def apply(self, state: Any, step: dict) -> Any:
        """The state after one more step; Illegal(reason) if the step breaks a rule."""

    @abstractmethod
    def status(self, state: Any) -> str:
        """Resources, round, progress and the legal moves from here, as text."""

    def brief_status(self, state: Any) -> list[str]:
        """The status lines a recorded step is followed by: what is legal now (or the last two)."""
        lines = self.status(state).splitlines()
        return [ln for ln in lines if ln.startswith("legal now")] or lines[-2:]

    @abstractmethod
    def export(self, header: dict, steps: list, relative_to: Path | None = None) -> str:
        """The play log as YAML text that `sheetgen check` accepts."""

    def render(self, header: dict, steps: list, outdir: str | Path, formats: Sequence[str], paper: str | None = None,
               grayscale: bool = False) -> list[Path]:
        """The sheet as the player's pencil would have it."""
        raise InputError(f"the {type(self).__name__} cannot draw the penciled sheet")


# -- the simulator ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SimulationRequest:
    """What `sheetgen simulate` asks a game's simulator for (each game reads what it needs)."""
    ref: str | None = None              # the map (or other definition) to play
    games: int = 1000
    policy: str = "cautious"
    hero: str | None = None
    seed: int = 1
    jobs: int = 1
    coin: bool = False
    compare_ref: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)  # the game's own (Game.simulate_options), by name

    @property
    def table(self) -> str | None:
        """--table: the room table a map-mode simulation plays."""
        value = self.options.get("table")
        return None if value is None else str(value)
    cluster: str | None = None          # a Dask scheduler's address: play the batches there (same results)
    progress: Callable[[int, int], None] | None = None   # (batches done, batches) as they come back


class Simulation(ABC):
    """A finished simulation run: a game's simulator module has `simulate(request) -> Simulation`."""

    @abstractmethod
    def text(self) -> str:
        """The report as plain text."""

    @abstractmethod
    def public(self) -> dict:
        """The report as JSON-ready data."""

    @abstractmethod
    def write_report(self, output: str | Path, paper: str = "a4", grayscale: bool = False) -> list[Path]:
        """-o report.pdf: the PDF; -o FOLDER: PDF + SVG + PNG pages in it."""

    def write_logs(self, folder: str | Path, count: int) -> list[Path]:
        """The first games as play logs `sheetgen check` accepts (where the game exports them)."""
        raise Illegal("this simulation does not write play logs")


# -- definition kinds ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Handler:
    """What the core calls for one definition kind (a handler module's HANDLER): every function
    it has, declared; None where the kind has none (the core then says so, e.g. a play log has
    no pages to print).

    load(data, source) -> definition: the YAML (a MarkedDict) as the kind's model, InputError
        with the located problems;
    lint(definition) -> [Finding]: what `validate` reports beyond the format (severity 'error'
        exits 1);
    compose(definition, options) -> Document: the pages to print;
    options_taken(definition) -> {names}: the game options (--hero, --columns) its sheets read;
    check(definition) -> Judgement: the rules' verdict on a play log;
    element_key(definition, element_id) -> key path: where in the file a drawn text comes from;
    models() -> the format's pydantic models (a model, a Union, a dict or tuple of them), for
        `sheetgen schema` (a function: the models load only when asked)."""
    load: Callable[[Any, Any], Any]
    lint: Callable[[Any], list] | None = None
    compose: Callable[[Any, Any], Any] | None = None
    options_taken: Callable[[Any], Iterable[str]] | None = None
    check: Callable[[Any], Judgement] | None = None
    element_key: Callable[[Any, str], tuple | None] | None = None
    models: Callable[[], Any] | None = None


# -- the companion page (`sheetgen play`) -------------------------------------------------------------
class PageExtras(TypedDict, total=False):
    """The keys of a PageView a game may leave out."""
    choose: dict[str, Any] | None           # a choice to make before anything else (title, options, shown)
    hint: str | None                        # one line of what to do now (None: the page's own)
    oracle_question: bool                   # the page offers to write down the Oracle's question
    template: str                           # the page's own template (the card games' cards.html)
    # what cards.html (the card games' page, a phone per player) reads besides
    game: str                               # the game's name (the page's script picks its panels by it)
    sheet_image: bool                       # the printed sheet is drawn under the overlay
    turn: str                               # whose turn it is
    players: list[dict[str, Any]]           # each player as the table shows them
    last: dict[str, Any] | None             # what the last step did: by (who), lines
    book: dict[str, Any] | None             # the bookkeeping form (gain or lose a resource or an item)
    forms: dict[str, Any]                   # the panels' forms (fights, trap rolls, trades, powers)


class PageView(PageExtras):
    """What a game's page shows after some steps: everything the play page (sheetgen/web/play,
    its routes and templates) reads of a game.  Boxes are (x, y, width, height) in mm on the page."""
    overlay: Any                            # a sheetgen.draw.model.Document: the pencil and the highlights
    page: tuple[float, float]               # the sheet's page size, mm
    crop: tuple[float, float, float, float]     # the part of the sheet the page shows
    focus: tuple[float, float, float, float] | None     # where a phone zooms (None: the whole crop)
    targets: list[dict[str, Any]]           # taps on the sheet: id, box, step, label, die
    actions: list[dict[str, Any]]           # buttons: kind, label, and step (or choices [{label, step}]), die
    fight: dict[str, Any] | None            # the fight panel, when a fight is on
    status: list[str]                       # the tracker's status lines
    resources: list[tuple[str, int, int | None]]    # (name, value, cap)
    phase: str
    over: bool
    position: str | None                    # where the player is, in words


class GamePage(ABC):
    """A game's part of `sheetgen play` (its `web` module's PAGE): the printed sheet the page draws
    over, the view after some steps, and the steps its forms make.  The routes, the journal and the
    templates are the core's."""

    # a phone's page depends on the player it joined as (each player sees their own sheet): the
    # server draws the page once per seat, else once for every phone of a table
    pages_by_seat: bool = False
    # the page after a step differs from the table's page of that version only by what it tells the
    # player who posted it (its template's news part, cards_news.html): the server draws the table's
    # page once per version and puts the told lines in, instead of drawing the page again
    told_apart: bool = False

    @abstractmethod
    def sheet_key(self, header: dict) -> Hashable:
        """What the printed sheet of a game depends on (the server keeps one sheet per key)."""

    @abstractmethod
    def sheet(self, header: dict) -> Any:
        """The printed sheet the page draws over: an object with `doc` (a Document) and whatever
        else the game's view needs of it (cell boxes, its layout)."""

    @abstractmethod
    def view(self, header: dict, steps: list, sheet: Any, told: Told | None = None, pending: Any = None,
             state: Any = None, game: Any = None) -> PageView:
        """What the page shows after STEPS.  told: what the last step meant (its highlights);
        pending: a step being completed (dice or a choice to come); state: the tracker's state
        after STEPS when the caller has it; game: the caller's name for the game (its journal id)."""

    @abstractmethod
    def step_from_form(self, kind: str, form: Mapping[str, str]) -> dict | str | None:
        """The step a posted form of KIND makes (a fight, the market), or None for a kind the game
        has no form for."""

    @abstractmethod
    def pencil_document(self, header: dict, steps: list) -> Any:
        """The sheet as the pencil has it after STEPS (a Document: the download)."""

    def print_document(self, header: dict, sheet: Any) -> Any:
        """The Document to print for a game: by default the sheet the page draws over (SHEET)."""
        return sheet.doc

    def seats(self, header: dict) -> list[str]:
        """The players of a game played with a phone each (their names, for the join page); empty
        (the default) for a game of one player."""
        return []

    def seat_view(self, seat: str | None, header: dict, steps: list, sheet: Any, told: Told | None = None,
                  pending: Any = None, state: Any = None, game: Any = None, before: Any = None) -> PageView:
        """What the phone of player SEAT shows (a game where each player sees their own sheet); seat
        None: a page opened without joining.  By default every phone shows the same: view().
        BEFORE: the state before the last step, for a page that says takes_before = True."""
        extra = {"before": before} if before is not None else {}
        return self.view(header, steps, sheet, told, pending=pending, state=state, game=game, **extra)

    def seat_refusal(self, header: dict, state: Any, step: Any, seat: str) -> str | None:
        """Why the phone of player SEAT may not record STEP (another player's step), or None.  The
        rules' own refusals (a step out of turn) are the tracker's; by default any phone may."""
        return None

    def undo_refusal(self, header: dict, step: Any, seat: str) -> str | None:
        """Why the phone of player SEAT may not take back STEP, the last one recorded, or None."""
        return None

    def fight_stage(self, header: dict, steps: list, state: Any, query: dict, secret: str) -> dict | None:
        """Where a fight asked in the rules' order stands (a game whose fights ask your die, a
        choice, then the foe's die), for the page's fight panel; None (the default): no such fight."""
        return None

    def title(self, header: dict) -> str:
        """The page's title: by default the map's name, and the hero's."""
        from pathlib import Path
        ref = str(header.get("map", ""))
        name = Path(ref).stem if ref.endswith((".yaml", ".yml")) else ref
        hero = (header.get("hero") or {}).get("name")
        return f"{name}" + (f", {hero.capitalize()}" if hero else "")
