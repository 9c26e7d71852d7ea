import click

from ._common import GameOption, clean_errors, default_ruleset, game_help

def journal_option(fn):
    """--journal on a track command (a game's steps use it too)."""
    return click.option("--journal", "journal_path", type=click.Path(dir_okay=False), default=None,
                        help=JOURNAL_HELP)(fn)


JOURNAL_HELP = ("The journal database (default: the one of the game last started, else "
                "USER_DATA_DIR/journal.sqlite, or $SHEETGEN_JOURNAL).")
AUTO_ROLL_HELP = "Let sheetgen roll the dice you leave out (else it asks, or refuses off a terminal)."
_PROMPTING = {"on": None}       # `track play` asks for dice whatever stdin is


class TrackGroup(click.Group):
    """`sheetgen track`: the core's commands here, and each game's own steps (its
    Game.track_commands, imported when listed or run); a core command keeps its name."""

    def game_commands(self) -> dict:
        from ..definitions.registry import games
        out: dict = {}
        for game in games().values():
            for command in game.track_commands:
                if command.name not in self.commands:
                    out.setdefault(command.name, command)
        return out

    def list_commands(self, ctx):
        return sorted(set(self.commands) | set(self.game_commands()))

    def get_command(self, ctx, name):
        found = self.commands.get(name)
        if found is None:
            declared = self.game_commands().get(name)
            if declared is not None:
                import importlib
                found = getattr(importlib.import_module(declared.module), declared.attribute)
        return found


@click.group(cls=TrackGroup)
@click.option("--journal", "journal_path", type=click.Path(dir_okay=False), default=None, help=JOURNAL_HELP)
@click.option("--auto-roll", is_flag=True, help=AUTO_ROLL_HELP)
@click.pass_context
def track(ctx, journal_path, auto_roll):
    """Record a game live in a journal, step by step.

    Each action is checked against the rules before it is recorded; an
    illegal one is refused with the reason (exit 1) and nothing is written;
    a recorded one is told in words: the roll's events, the walls to pencil
    by side, the fight's totals and damage.  A die you leave out (--roll,
    the fight dice) is asked for on a terminal; elsewhere sheetgen rolls it
    only with --auto-roll (or --seed, or a game started with --auto-roll).
    The journal of the game last started is remembered: --journal only
    picks another.

    \b
    Example:
      sheetgen track new --map ancient-story --hero kael
      sheetgen track enter C1:N
      sheetgen track move C1 --roll 2
      sheetgen track fight --hero 3 --weapon --enemy 4
      sheetgen track status
      sheetgen track export -o my-game.yaml
    """
    ctx.ensure_object(dict)
    ctx.obj["journal"] = journal_path or ctx.obj.get("journal")
    ctx.obj["auto_roll"] = auto_roll or ctx.obj.get("auto_roll", False)


def _open(journal_path, write: bool = True):
    """The journal; write=False for a command that only reads it (it then opens on a full disk too)."""
    from ..errors import InputError
    from ..tracker.journal import Journal, JournalError, resolve
    ctx = click.get_current_context()
    try:
        return Journal(resolve(journal_path or (ctx.obj or {}).get("journal")), write=write)
    except JournalError as exc:
        raise InputError(str(exc)) from None


def _current(journal):
    from ..errors import InputError
    from ..tracker.journal import JournalError
    try:
        return journal.current()
    except JournalError as exc:
        raise InputError(str(exc)) from None


def _refuse(message: str):
    import sys
    click.echo(f"refused: {message}", err=True)
    sys.exit(1)


def _interactive() -> bool:
    import sys
    if _PROMPTING["on"] is not None:
        return _PROMPTING["on"]
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _auto_roll(header: dict, given: bool = False) -> bool:
    ctx = click.get_current_context()
    return given or bool((ctx.obj or {}).get("auto_roll")) or header.get("dice") == "auto"


def ask_dice(ad, state, step, auto: bool, options=None):
    """STEP with the dice it leaves out asked for (on a terminal), or left to sheetgen's roll
    when AUTO; off a terminal and not AUTO: refused (a player with a real die would get
    another game), saying which option gives the die (OPTIONS: the game's dice_options)."""
    from ..errors import InputError
    if _interactive():                  # a game whose choices come between its dice asks them here
        step = ad.ask_step(state, step, auto, lambda text: click.prompt(text, default="", show_default=False),
                           click.echo)
    due = ad.dice_due(state, step)
    if not due or auto:
        return step
    if not _interactive():
        what = ", ".join(f"{text} ({(options or {}).get(path, 'write it in the step')})" for path, text in due)
        raise InputError(f"a die is due: {what}; give the die you rolled, or --auto-roll to let sheetgen roll "
                         "(it never rolls unasked)")
    import copy
    step = copy.deepcopy(step)
    for path, text in due:
        while True:
            answer = click.prompt(f"{text} (1-6, or r to let sheetgen roll)", default="", show_default=False)
            answer = answer.strip().lower()
            if answer in ("r", "roll"):
                break
            if answer in ("1", "2", "3", "4", "5", "6"):
                target = step
                for key in path[:-1]:
                    target = target.setdefault(key, {})
                target[path[-1]] = int(answer)
                break
            click.echo("a die shows 1 to 6 (or r: sheetgen rolls)")
    return step


def record_step(journal_path, step, seed=None, auto_roll=False):
    """Check step against the rules, then record it in one transaction; say what it meant (what
    every step command calls, the games' own too)."""
    import random

    from ..definitions.registry import find_game
    from ..definitions.registry import tracker_for as adapter
    from ..games.base import Illegal as StepRefused
    journal = _open(journal_path)
    try:
        game = _current(journal)
        ad = adapter(game.ruleset)             # an unknown name: InputError (exit 2)
        # the dice are asked before the write transaction: a prompt never holds the journal
        auto = seed is not None or _auto_roll(game.header, auto_roll)
        step = ask_dice(ad, ad.resume(game.header, journal.steps(game.id)), step, auto,
                        find_game(game.ruleset).dice_options)
        rng = random.Random(seed) if seed is not None else random.Random()
        result = {}

        def check(steps, step):
            # inside the write transaction: validated against exactly the steps it follows
            state = ad.resume(game.header, steps)
            step = ad.prepare(state, step, rng)
            result["before"], result["state"] = state, ad.apply(state, step)
            return step

        try:
            seq = journal.append(game.id, step, check)
        except StepRefused as exc:
            _refuse(str(exc))
        ad.remember(result["state"])               # the next command starts from here
        click.echo(f"recorded step {seq}: {_flow(journal.last_step)}")
        for line in ad.narrate(result["before"], result["state"], journal.last_step):
            click.echo(f"  {line}")
        click.echo("\n".join(ad.brief_status(result["state"])))   # resources, then what is legal now
    finally:
        journal.close()


def _flow(step) -> str:
    import yaml
    return yaml.safe_dump(step, default_flow_style=True, sort_keys=False, width=10 ** 6).strip()


def parse_pairs(text: str | None, what: str) -> dict:
    """'hearts=4,shields=2' -> {'hearts': 4, 'shields': 2}."""
    from ..errors import InputError
    out: dict = {}
    if not text:
        return out
    for part in text.split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise InputError(f"{what}: '{part}' is not NAME=NUMBER (like hearts=4)")
        k, v = part.split("=", 1)
        try:
            out[k.strip().replace("_", " ")] = int(v)
        except ValueError:
            raise InputError(f"{what}: '{v}' is not a whole number") from None
    return out


# -- games -----------------------------------------------------------------------------
@track.command("new")
@click.option("--map", "map_name", default=None, cls=GameOption,
              help_of=lambda: game_help("track new --map", "A built-in map name or a map YAML file"))
@click.option("--hero", default=None, help="A pre-filled hero: kael, melyra, thalindra, elydion.")
@click.option("--traits", default=None, help="12 traits freely marked: hearts=4,shields=2,weapon=2,clovers=2,shovels=2")
@click.option("--ruleset", cls=GameOption, default_of=default_ruleset, show_default=True,
              help="The ruleset of the game.")
@click.option("--question", default=None, help="The question you ask the Oracle (drawn on the sheet).")
@click.option("--players", default=None,
              help="Two players on one sheet's map, for a ruleset with that mode: Ada=HERO,Ben=HERO "
                   "(or Ada,Ben with --hero/--traits for both).")
@click.option("--auto-roll", is_flag=True, help="This game: sheetgen may roll every die you leave out.")
@journal_option
@clean_errors
def new(map_name, hero, traits, ruleset, question, auto_roll, journal_path, players=None):
    """Start a new game; it becomes the current game of the journal.

    \b
    Example:
      sheetgen track new --map my-map.yaml \\
          --traits hearts=4,shields=2,weapon=2,clovers=2,shovels=2
    """
    from ..errors import InputError
    from ..definitions.registry import tracker_for as adapter
    from ..games.base import Illegal as StepRefused
    if hero and traits:
        raise InputError("give either --hero or --traits, not both")
    ad = adapter(ruleset)
    if players and not getattr(ad, "players_option", False):
        raise InputError(f"--players: the {ruleset} tracker has no players mode")                   # an unknown name: InputError (exit 2)
    if not map_name and ad.needs_map:
        raise InputError("give --map MAP (a built-in map name or a map YAML file)")
    try:
        params = {"map": map_name, "hero": hero, "traits": parse_pairs(traits, "--traits")}
        if players:
            params["players"] = players
        header = ad.start(params)
    except StepRefused as exc:
        _refuse(str(exc))
    if question:
        header["question"] = _bounded_text(question, "--question")
    if auto_roll:
        header["dice"] = "auto"
    journal = _open(journal_path)
    try:
        from ..tracker.journal import remember
        gid = journal.new_game(ruleset, header)
        remember(journal.path)
        click.echo(f"game {gid} started in {journal.path}")
        click.echo(ad.status(ad.replay(header, [])))
    finally:
        journal.close()


@track.command("status")
@journal_option
@clean_errors
def status(journal_path):
    """Resources, round, requirement progress and the legal moves from here.

    \b
    Example:
      sheetgen track status
    """
    from ..definitions.registry import tracker_for as adapter
    journal = _open(journal_path, write=False)
    try:
        game = _current(journal)
        steps = journal.steps(game.id)
        ad = adapter(game.ruleset)
        click.echo(f"game {game.id}, {len(steps)} step(s)")
        click.echo(ad.status(ad.resume(game.header, steps)))
    finally:
        journal.close()


@track.command("undo")
@journal_option
@clean_errors
def undo(journal_path):
    """Take back the last recorded step.

    \b
    Example:
      sheetgen track undo
    """
    journal = _open(journal_path)
    try:
        game = _current(journal)
        step = journal.undo(game.id)
        click.echo(f"undid {_flow(step)}" if step is not None else "nothing to undo")
        _tell_erase(game, journal, step)
    finally:
        journal.close()


def _tell_erase(game, journal, step) -> None:
    """What the undone step had penciled, to erase (the game's undo_lines)."""
    from ..definitions.registry import tracker_for
    ad = tracker_for(game.ruleset)
    if step is None:
        return
    for line in ad.undo_lines(ad.resume(game.header, journal.steps(game.id)), step):
        click.echo(f"  {line}")


@track.command("games")
@journal_option
@clean_errors
def games(journal_path):
    """List the games in the journal (the current one is starred).

    \b
    Example:
      sheetgen track games
    """
    journal = _open(journal_path, write=False)
    try:
        from ..tracker.journal import JournalError
        try:
            cur = journal.current().id
        except JournalError:    # an empty journal (or a damaged pointer to the current game): none starred
            cur = None
        for g in journal.games():
            n = len(journal.steps(g.id))
            click.echo(f"{'*' if g.id == cur else ' '} {g.id}  {g.ruleset}  {g.header.get('map')}  "
                       f"{n} step(s)  {g.created}")
    finally:
        journal.close()


@track.command("use")
@click.argument("game_id", type=int)
@journal_option
@clean_errors
def use(game_id, journal_path):
    """Make another game of the journal the current one.

    \b
    Example:
      sheetgen track use 3
    """
    from ..errors import InputError
    from ..tracker.journal import JournalError
    journal = _open(journal_path)
    try:
        try:
            journal.set_current(game_id)
        except JournalError as exc:
            raise InputError(str(exc)) from None
        from ..tracker.journal import remember
        remember(journal.path)
        click.echo(f"current game: {game_id}")
    finally:
        journal.close()


@track.command("export")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write to FILE (default: stdout).")
@journal_option
@clean_errors
def export(output, journal_path):
    """Write the current game as a play log that `sheetgen check` accepts.

    \b
    Example:
      sheetgen track export -o my-game.yaml && sheetgen check my-game.yaml
    """
    from pathlib import Path

    from ..atomic import write_text
    from ..definitions.registry import tracker_for as adapter
    journal = _open(journal_path, write=False)
    try:
        game = _current(journal)
        ad = adapter(game.ruleset)
        text = ad.export(game.header, journal.steps(game.id), Path(output).resolve().parent if output else None)
    finally:
        journal.close()
    if output:
        write_text(output, text)
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)


@track.command("render")
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False), required=True, help="Output folder.")
@click.option("--format", "formats", default="pdf,svg,png", show_default=True, help="Comma-separated: pdf,svg,png.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default=None, help="Paper size (default: the map's).")
@click.option("--grayscale", is_flag=True, help="Ink saver: no colour fills.")
@journal_option
@clean_errors
def render(outdir, formats, paper, grayscale, journal_path):
    """Draw the map as the player's pencil would have it (PDF, SVG, PNG).

    \b
    Example:
      sheetgen track render -o out/
    """
    from ..errors import InputError
    from ..definitions.registry import tracker_for as adapter
    journal = _open(journal_path, write=False)
    try:
        game = _current(journal)
        ad = adapter(game.ruleset)
        steps = journal.steps(game.id)
    finally:
        journal.close()
    fmts = tuple(f.strip() for f in formats.split(",") if f.strip())
    bad = [f for f in fmts if f not in ("pdf", "svg", "png")]
    if bad:
        raise InputError(f"unknown format {', '.join(bad)} (pdf, svg, png)")
    for path in ad.render(game.header, steps, outdir, fmts, paper=paper, grayscale=grayscale):
        click.echo(f"wrote {path}")


# -- steps -----------------------------------------------------------------------------
@track.command("step")
@click.argument("step")
@click.option("--seed", type=int, default=None, help="Seed for dice sheetgen rolls (lets it roll).")
@click.option("--auto-roll", is_flag=True, help=AUTO_ROLL_HELP)
@journal_option
@clean_errors
def step_(step, seed, auto_roll, journal_path):
    """Record any step, written in play-log step syntax (a YAML flow mapping).

    \b
    Example:
      sheetgen track step '{market: {spend: {chests: 1}, gain: {hearts: 2}}}'
      sheetgen track step '{sheet: {hearts: 4, weapon: 1}}'
    """
    from ..definitions.yamlsource import parse_argument
    from ..errors import InputError
    try:                # bounded like a file: a byte limit, anchors and aliases expanded at most so far
        data = parse_argument(step, "step argument")
    except InputError as exc:
        for problem in exc.problems:
            problem.message = f"not a step: {problem.message}"
        raise
    if not isinstance(data, (dict, str)):
        raise InputError("a step is a mapping like '{move: C2, roll: 5}' or a word like flee")
    record_step(journal_path, data, seed, auto_roll)


# -- per-game settings -------------------------------------------------------------------
QUESTION_MAX = 300          # characters: one answer line of the sheet holds far less


def _bounded_text(text: str, what: str) -> str:
    from ..errors import InputError
    text = " ".join(str(text).split())
    if len(text) > QUESTION_MAX:
        raise InputError(f"{what}: {len(text)} characters is too long (at most {QUESTION_MAX})")
    return text


def _set_header(journal_path, changes: dict) -> None:
    journal = _open(journal_path)
    try:
        game = _current(journal)
        journal.update_header(game.id, changes)
    finally:
        journal.close()


@track.command("question")
@click.argument("text")
@journal_option
@clean_errors
def question(text, journal_path):
    """Write down the question you ask the Oracle (exported, and drawn by `track render`).

    \b
    Example:
      sheetgen track question "Will the river rise?"
    """
    _set_header(journal_path, {"question": _bounded_text(text, "question")})
    click.echo(f"question: {_bounded_text(text, 'question')}")


@track.command("dice")
@click.argument("mode", type=click.Choice(["ask", "auto"]))
@journal_option
@clean_errors
def dice(mode, journal_path):
    """This game's dice: ask for every die (you roll a real one), or auto (sheetgen rolls
    the dice you leave out).

    \b
    Example:
      sheetgen track dice auto
    """
    _set_header(journal_path, {"dice": mode})
    click.echo("dice: " + ("sheetgen rolls the dice you leave out" if mode == "auto" else
                           "you roll: every die is asked for"))


# -- the interactive prompt --------------------------------------------------------------------
# the prompt's help around the game's own lines (Game.track_prompt), and the core's one-letter words
PLAY_HELP = """one action per line, as the track commands take it (without 'sheetgen track'):
{game}  undo   status   question "..."   help   quit
a die you leave out is asked for (r: sheetgen rolls it)"""
SHORT = {"s": "status", "u": "undo", "q": "quit", "?": "help", "h": "help"}


@track.command("play")
@journal_option
@click.pass_context
@clean_errors
def play(ctx, journal_path):
    """Play the current game at an interactive prompt: one action per line, the same
    checks and words as the commands, undo and status; quit (or Ctrl-D) to stop.

    \b
    Example:
      sheetgen track play
      > move C1
      the d6 for entering C1 (1-6, or r to let sheetgen roll): 4
    """
    import shlex
    obj = dict(ctx.obj or {}, journal=journal_path or (ctx.obj or {}).get("journal"))
    from ..definitions.registry import find_game
    journal = _open(journal_path, write=False)
    try:
        current = _current(journal)
        click.echo(f"game {current.id} in {journal.path}; 'help' lists the actions")
    finally:
        journal.close()
    game = find_game(current.ruleset)
    helped = PLAY_HELP.format(game="".join(f"  {line}\n" for line in game.track_prompt))
    short = {**game.track_shortcuts, **SHORT}
    _PROMPTING["on"] = True
    try:
        while True:
            try:
                line = click.prompt(">", prompt_suffix=" ", default="", show_default=False)
            except (click.Abort, EOFError):
                click.echo("")
                return
            try:
                words = shlex.split(line)
            except ValueError as exc:
                click.echo(f"not understood: {exc}")
                continue
            if not words:
                continue
            name = short.get(words[0].lower(), words[0].lower())
            if name in ("quit", "exit") and len(words) == 1:
                return
            if name == "help" or name == "play":
                click.echo(helped)
                continue
            command = track.get_command(ctx, name)
            if command is None:
                click.echo(f"unknown action '{words[0]}': 'help' lists them")
                continue
            try:
                command.main(args=words[1:], prog_name=name, standalone_mode=False, obj=obj)
            except SystemExit:
                pass                       # refused or an error: said already; the prompt goes on
            except click.exceptions.Exit:
                pass
            except click.ClickException as exc:
                click.echo(f"error: {exc.format_message()}")
            except click.Abort:
                return
    finally:
        _PROMPTING["on"] = None
