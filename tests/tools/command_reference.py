"""The docs site's command reference (docs/reference/commands.md), written from every command's
own `--help`, so the reference is the help and cannot drift from it.

    python tests/tools/command_reference.py           # rewrite docs/reference/commands.md
    python tests/tools/command_reference.py --check   # exit 1 if it differs (tests/test_docs.py)

Needs the optional extras installed (`pip install -e '.[test]'`): commands of an extra not
installed are not listed by `sheetgen --help`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
PAGE = ROOT / "docs" / "reference" / "commands.md"
WIDTH = 100


def _help(command: click.Command, path: list[str], parent: click.Context | None) -> str:
    ctx = click.Context(command, info_name=path[-1], parent=parent, max_content_width=WIDTH, terminal_width=WIDTH)
    return command.get_help(ctx)


def _walk(command: click.Command, path: list[str], parent: click.Context | None):
    ctx = click.Context(command, info_name=path[-1], parent=parent, max_content_width=WIDTH, terminal_width=WIDTH)
    yield path, _help(command, path, parent)
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _walk(sub, path + [name], ctx)


def page() -> str:
    from sheetgen.cli import main
    parts = ["# Command reference\n",
             "Every command's `--help`, as the installed sheetgen prints it (written by "
             "`python tests/tools/command_reference.py`; a test fails when it differs).\n"]
    for path, text in _walk(main, ["sheetgen"], None):
        parts.append(f"## {' '.join(path)}\n\n```text\n{text.rstrip()}\n```\n")
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = page()
    if "--check" in argv:
        if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != text:
            print("docs/reference/commands.md differs from the commands' help: "
                  "run python tests/tools/command_reference.py", file=sys.stderr)
            return 1
        return 0
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
