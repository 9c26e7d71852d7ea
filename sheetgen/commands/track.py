import click

from ._common import clean_errors

def _journal_option(fn):
    return click.option("--journal", "journal_path", type=click.Path(dir_okay=False), default=None,
                        help=JOURNAL_HELP)(fn)


JOURNAL_HELP = ("The journal database (default: the one of the game last started, else "
                "USER_DATA_DIR/journal.sqlite, or $SHEETGEN_JOURNAL).")
AUTO_ROLL_HELP = "Let sheetgen roll the dice you leave out (else it asks, or refuses off a terminal)."
# the option that gives each die a step may leave out (`track step`: write it in the step)
DIE_OPTION = {("roll",): "--roll N", ("fight", "hero"): "--hero N", ("fight", "enemy"): "--enemy N",
              ("fight", "clover", "roll"): "--clover-roll N",
              ("collect", "roll"): "track step '{collect: {item: die, roll: N}}'"}
_PROMPTING = {"on": None}       # `track play` asks for dice whatever stdin is


@click.group()
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


def _open(journal_path):
    from ..errors import InputError
    from ..tracker.journal import Journal, JournalError, resolve
    ctx = click.get_current_context()
    try:
        return Journal(resolve(journal_path or (ctx.obj or {}).get("journal")))
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


def ask_dice(ad, state, step, auto: bool):
    """STEP with the dice it leaves out asked for (on a terminal), or left to sheetgen's roll
    when AUTO; off a terminal and not AUTO: refused (a player with a real die would get
    another game), saying which option gives the die."""
    from ..errors import InputError
    due = ad.dice_due(state, step)
    if not due or auto:
        return step
    if not _interactive():
        what = ", ".join(f"{text} ({DIE_OPTION.get(path, 'write it in the step')})" for path, text in due)
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


def _record(journal_path, step, seed=None, auto_roll=False):
    """Check step against the rules, then record it in one transaction; say what it meant."""
    import random

    from ..definitions.registry import tracker_for as adapter
    from ..games.base import Illegal as StepRefused
    journal = _open(journal_path)
    try:
        game = _current(journal)
        try:
            ad = adapter(game.ruleset)
        except StepRefused as exc:
            _refuse(str(exc))
        # the dice are asked before the write transaction: a prompt never holds the journal
        auto = seed is not None or _auto_roll(game.header, auto_roll)
        step = ask_dice(ad, ad.resume(game.header, journal.steps(game.id)), step, auto)
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
        lines = ad.status(result["state"]).splitlines()
        brief = [ln for ln in lines if ln.startswith(("hearts", "legal now"))] or lines[-2:]
        click.echo("\n".join(brief))               # resources, then what is legal now
    finally:
        journal.close()


def _flow(step) -> str:
    import yaml
    return yaml.safe_dump(step, default_flow_style=True, sort_keys=False, width=10 ** 6).strip()


def _pairs(text: str | None, what: str) -> dict:
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
@click.option("--map", "map_name", default=None,
              help="A built-in map name or a map YAML file (shuffle: a set-up play log; exploration: the d66 "
                   "table, default the built-in one).")
@click.option("--hero", default=None, help="A pre-filled hero: kael, melyra, thalindra, elydion.")
@click.option("--traits", default=None, help="12 traits freely marked: hearts=4,shields=2,weapon=2,clovers=2,shovels=2")
@click.option("--ruleset", default="foury", show_default=True, help="The ruleset of the game.")
@click.option("--question", default=None, help="The question you ask the Oracle (drawn on the sheet).")
@click.option("--auto-roll", is_flag=True, help="This game: sheetgen may roll every die you leave out.")
@_journal_option
@clean_errors
def new(map_name, hero, traits, ruleset, question, auto_roll, journal_path):
    """Start a new game; it becomes the current game of the journal.

    \b
    Examples:
      sheetgen track new --map ancient-story --hero kael
      sheetgen track new --map my-map.yaml \\
          --traits hearts=4,shields=2,weapon=2,clovers=2,shovels=2
    """
    from ..errors import InputError
    from ..definitions.registry import tracker_for as adapter
    from ..games.base import Illegal as StepRefused
    if hero and traits:
        raise InputError("give either --hero or --traits, not both")
    if not map_name and ruleset != "exploration":
        raise InputError("give --map MAP (a built-in map name or a map YAML file)")
    if ruleset == "foury" and not hero and not traits:
        raise InputError("give --hero NAME or --traits hearts=4,shields=2,... (12 in all)")
    try:
        ad = adapter(ruleset)
        header = ad.start({"map": map_name, "hero": hero, "traits": _pairs(traits, "--traits")})
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
@_journal_option
@clean_errors
def status(journal_path):
    """Resources, round, requirement progress and the legal moves from here.

    \b
    Example:
      sheetgen track status
    """
    from ..definitions.registry import tracker_for as adapter
    journal = _open(journal_path)
    try:
        game = _current(journal)
        steps = journal.steps(game.id)
        ad = adapter(game.ruleset)
        click.echo(f"game {game.id}, {len(steps)} step(s)")
        click.echo(ad.status(ad.resume(game.header, steps)))
    finally:
        journal.close()


@track.command("undo")
@_journal_option
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
    finally:
        journal.close()


@track.command("games")
@_journal_option
@clean_errors
def games(journal_path):
    """List the games in the journal (the current one is starred).

    \b
    Example:
      sheetgen track games
    """
    journal = _open(journal_path)
    try:
        try:
            cur = journal.current().id
        except Exception:  # noqa: BLE001 - an empty journal has no current game
            cur = None
        for g in journal.games():
            n = len(journal.steps(g.id))
            click.echo(f"{'*' if g.id == cur else ' '} {g.id}  {g.ruleset}  {g.header.get('map')}  "
                       f"{n} step(s)  {g.created}")
    finally:
        journal.close()


@track.command("use")
@click.argument("game_id", type=int)
@_journal_option
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
@_journal_option
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
    journal = _open(journal_path)
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
@_journal_option
@clean_errors
def render(outdir, formats, paper, grayscale, journal_path):
    """Draw the map as the player's pencil would have it (PDF, SVG, PNG).

    \b
    Example:
      sheetgen track render -o out/
    """
    from ..errors import InputError
    from ..definitions.registry import tracker_for as adapter
    journal = _open(journal_path)
    try:
        game = _current(journal)
        ad = adapter(game.ruleset)
        steps = journal.steps(game.id)
    finally:
        journal.close()
    if not hasattr(ad, "render"):
        raise InputError(f"the {game.ruleset} tracker cannot draw yet")
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
@_journal_option
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
    _record(journal_path, data, seed, auto_roll)


@track.command("enter")
@click.argument("entry", required=False)
@click.option("--start", default=None, help="Campaigns without entries: the start cell.")
@_journal_option
@clean_errors
def enter(entry, start, journal_path):
    """Start a round through an entry arrow CELL:SIDE.

    \b
    Example:
      sheetgen track enter C1:N
    """
    from ..errors import InputError
    if not entry and not start:
        raise InputError("give the entry arrow (like C1:N) or --start CELL")
    _record(journal_path, {"entry": entry} if entry else {"start": start})


@track.command("move")
@click.argument("cell")
@click.option("--roll", type=int, default=None, help="The d6 you rolled (left out: asked, or --auto-roll).")
@click.option("--seed", type=int, default=None, help="Seed for the roll sheetgen makes (lets it roll).")
@click.option("--auto-roll", is_flag=True, help=AUTO_ROLL_HELP)
@_journal_option
@clean_errors
def move(cell, roll, seed, auto_roll, journal_path):
    """Move to an adjacent cell.

    \b
    Example:
      sheetgen track move C2 --roll 5
    """
    step = {"move": cell.upper()}
    if roll is not None:
        step["roll"] = roll
    _record(journal_path, step, seed, auto_roll)


@track.command("fight")
@click.option("--hero", "hero_roll", type=int, default=None, help="Your d6 (left out: asked, or --auto-roll).")
@click.option("--enemy", "enemy_roll", type=int, default=None, help="The foe's d6 (left out: asked, or --auto-roll).")
@click.option("--weapon", is_flag=True, help="Add your full weapon value (it drops by 1 after).")
@click.option("--clover", type=click.Choice(["hero", "enemy"]), default=None, help="Reroll this die with a clover.")
@click.option("--clover-roll", type=int, default=None, help="The reroll (Melyra: the chosen value).")
@click.option("--shield", is_flag=True, help="Block the hit with a shield.")
@click.option("--type", "enemy_type", default=None, help="Name the monster's type (goblin, orc, ...).")
@click.option("--stolen", default=None, help="What a Bandit's hit steals.")
@click.option("--fury", type=int, default=0, help="Slaughter: Fury boxes blacked out instead.")
@click.option("--seed", type=int, default=None, help="Seed for dice sheetgen rolls (lets it roll).")
@click.option("--auto-roll", is_flag=True, help=AUTO_ROLL_HELP)
@_journal_option
@clean_errors
def fight(hero_roll, enemy_roll, weapon, clover, clover_roll, shield, enemy_type, stolen, fury, seed, auto_roll,
          journal_path):
    """Face the monster or statue in your cell.

    \b
    Example:
      sheetgen track fight --hero 3 --weapon --enemy 4
    """
    f = {"hero": hero_roll, "enemy": enemy_roll}
    if weapon:
        f["weapon"] = True
    if clover:
        f["clover"] = {"die": clover, "roll": clover_roll}
    if shield:
        f["shield"] = True
    if enemy_type:
        f["type"] = enemy_type
    if stolen:
        f["stolen"] = stolen
    if fury:
        f["fury"] = fury
    _record(journal_path, {"fight": f}, seed, auto_roll)


def _simple(name, word, doc):
    @track.command(name, help=doc)
    @_journal_option
    @clean_errors
    def cmd(journal_path):
        _record(journal_path, word)
    return cmd


_simple("flee", "flee", "Flee a foe still alive after an exchange (a statue: after a tie or a blocked hit).\n\n\b\nExample:\n  sheetgen track flee")
_simple("climb", "climb", "Climb the stairs to the upper level (or back down).\n\n\b\nExample:\n  sheetgen track climb")
_simple("coin", "coin", "INSERT COIN: once, after death.\n\n\b\nExample:\n  sheetgen track coin")
_simple("candy", "candy", "Give a candy cane to the Yeti or Grinch here.\n\n\b\nExample:\n  sheetgen track candy")


def _one_arg(name, key, metavar, doc):
    @track.command(name, help=doc)
    @click.argument(metavar)
    @_journal_option
    @clean_errors
    def cmd(journal_path, **kw):
        _record(journal_path, {key: next(iter(kw.values()))})
    return cmd


_one_arg("collect", "collect", "item", "Collect an item in your cell.\n\n\b\nExample:\n  sheetgen track collect chest")
_one_arg("shovel", "shovel", "wall", "Erase a collapsed wall CELL:SIDE and move through it.\n\n\b\nExample:\n"
         "  sheetgen track shovel D1:W")
_one_arg("exit", "exit", "arrow", "Leave through an unused entry arrow CELL:SIDE.\n\n\b\nExample:\n"
         "  sheetgen track exit E3:E")
_one_arg("circle", "circle", "cell", "Go from this magic circle to another.\n\n\b\nExample:\n  sheetgen track circle E5")
_one_arg("lever", "lever", "cell", "Pull a lever from the upper level.\n\n\b\nExample:\n  sheetgen track lever D4")
_one_arg("redeem", "redeem", "resource", "Spend a cornucopia on a resource.\n\n\b\nExample:\n"
         "  sheetgen track redeem hearts")


@track.command("oracle")
@click.option("--words", default="", help="The two words the Oracle gave.")
@_journal_option
@clean_errors
def oracle(words, journal_path):
    """Consult the Oracle in the centre room.

    \b
    Example:
      sheetgen track oracle --words "silent river"
    """
    _record(journal_path, {"oracle": {"words": words}} if words else "oracle")


@track.command("market")
@click.option("--spend", type=int, default=0, help="Chests spent.")
@click.option("--gain", default=None, help="What the chests buy: hearts=2,shovels=1")
@click.option("--give", default=None, help="Resources traded away: weapon=2")
@click.option("--get", "get_", default=None, help="Resources received for them: shovels=2")
@click.option("--next-rate", is_flag=True, help="Elydion: trade at the next round's value.")
@_journal_option
@clean_errors
def market(spend, gain, give, get_, next_rate, journal_path):
    """Trade at the market between rounds.

    \b
    Example:
      sheetgen track market --spend 1 --gain hearts=2 --give weapon=2 --get shovels=2
    """
    m: dict = {}
    if spend:
        m["spend"] = {"chests": spend}
    if gain:
        m["gain"] = _pairs(gain, "--gain")
    if give or get_:
        m["trade"] = {"give": _pairs(give, "--give"), "get": _pairs(get_, "--get")}
    if next_rate:
        m["rate"] = "next"
    _record(journal_path, {"market": m})


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
@_journal_option
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
@_journal_option
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
PLAY_HELP = """one action per line, as the track commands take it (without 'sheetgen track'):
  move C2 [--roll 4]      fight [--weapon] [--hero 3 --enemy 4]     enter C1:N     collect potion
  flee  climb  lever D4  shovel D1:W  circle E5  exit E3:E  oracle --words "two words"  market ...
  undo   status   question "..."   help   quit
a die you leave out is asked for (r: sheetgen rolls it)"""
SHORT = {"m": "move", "f": "fight", "s": "status", "u": "undo", "e": "enter", "q": "quit", "?": "help", "h": "help"}


@track.command("play")
@_journal_option
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
    journal = _open(journal_path)
    try:
        click.echo(f"game {_current(journal).id} in {journal.path}; 'help' lists the actions")
    finally:
        journal.close()
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
            name = SHORT.get(words[0].lower(), words[0].lower())
            if name in ("quit", "exit") and len(words) == 1:
                return
            if name == "help" or name == "play":
                click.echo(PLAY_HELP)
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
