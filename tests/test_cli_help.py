"""Every command's help: each option says what it does, examples point at things that exist
from any folder (built-in names, never tests/), messages name built-ins by name."""
from types import SimpleNamespace

import click
from click.testing import CliRunner

from sheetgen.cli import main


def _commands(cmd=main, path=("sheetgen",)):
    yield path, cmd
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            yield from _commands(cmd.get_command(ctx, name), path + (name,))


def _help(option: click.Option, cmd: click.Command) -> str:
    option.get_help_record(click.Context(cmd))     # an option the games complete writes its help here
    return (option.help or "").strip()


def test_every_option_of_every_command_has_help():
    missing = [f"{' '.join(path)} {'/'.join(p.opts)}"
               for path, cmd in _commands() for p in cmd.params
               if isinstance(p, click.Option) and not p.hidden and not _help(p, cmd)]
    assert missing == []


def test_the_walk_reaches_the_game_commands():
    names = {" ".join(path) for path, _ in _commands()}
    assert {"sheetgen new map", "sheetgen track new", "sheetgen explore", "sheetgen scan"} <= names


def test_no_help_points_into_the_tests_folder():
    runner = CliRunner()
    for path, _ in _commands():
        out = runner.invoke(main, list(path[1:]) + ["--help"]).output
        assert "tests/" not in out, " ".join(path)


def test_new_map_help_has_an_example():
    out = CliRunner().invoke(main, ["new", "map", "--help"]).output
    assert "Examples:" in out and "sheetgen new map cellar" in out


def test_check_names_a_builtin_example_by_its_name():
    result = CliRunner().invoke(main, ["check", "nav-crypt-game"])
    assert result.exit_code == 0
    assert result.output.startswith("nav-crypt-game: legal")
    assert "/" not in result.output.split(":")[0]


def test_scan_text_says_none_for_an_empty_list():
    from sheetgen.scan.report import text
    result = SimpleNamespace(
        photo="p.jpg", sheet=SimpleNamespace(identity=SimpleNamespace(describe=lambda: "ancient-story")),
        identity_from="QR code", readings=[], uncertain=lambda: [],
        view=SimpleNamespace(as_dict=lambda: {"resources": {}, "walls": ["B3-E"]}),
        violations=[], record=None, consistent=True, corrections=[])
    lines = text(result).splitlines()
    assert "  resources: none" in lines and "  walls: B3-E" in lines
    assert not any(line.rstrip().endswith(":") for line in lines)
