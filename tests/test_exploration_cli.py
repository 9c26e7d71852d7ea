"""`sheetgen explore` and `sheetgen table` are the Dungeon Exploration game's own commands
(declared in its GAME, found through the registry), listed by `sheetgen --help` with their
help texts, and they run; the game's modules import only what the layout allows."""
import ast
import importlib.util
from pathlib import Path

from click.testing import CliRunner

from sheetgen.cli import COMMANDS, main
from sheetgen.definitions.registry import find_game

PKG = Path(__file__).resolve().parent.parent / "sheetgen"
GAME_DIR = PKG / "games" / "exploration"


def test_the_game_declares_explore_and_table():
    game = find_game("exploration")
    names = {c.name: c for c in game.commands}
    assert set(names) == {"explore", "table"}
    for c in names.values():
        assert c.module == "sheetgen.games.exploration.cli"
    assert "explore" not in COMMANDS and "table" not in COMMANDS and "roll" in COMMANDS
    assert importlib.util.find_spec("sheetgen.commands.explore") is None
    assert importlib.util.find_spec("sheetgen.commands.table") is None


def test_help_lists_them_and_they_run(tmp_path):
    runner = CliRunner()
    listing = runner.invoke(main, ["--help"])
    assert listing.exit_code == 0
    assert "Map mode: generate a dungeon on a graph sheet." in listing.output
    assert "Generate fresh d66 room tables." in listing.output
    assert "Roll dice: d6, 2d6, d66, NdM." in listing.output
    helped = runner.invoke(main, ["explore", "--help"])
    assert helped.exit_code == 0 and "--policy [first|random|deepest]" in helped.output and "Examples:" in helped.output
    table = runner.invoke(main, ["table", "d66", "--seed", "3"])
    assert table.exit_code == 0 and table.output.startswith("sheetgen: 1\nkind: table\nruleset: exploration\n")
    assert "entries:" in table.output
    out = tmp_path / "maps"
    made = runner.invoke(main, ["explore", "--seed", "4", "--rooms", "6", "-o", str(out), "--format", "none"])
    assert made.exit_code == 0, made.output
    assert "6 rooms, 60 minutes, ended: rooms" in made.output
    assert runner.invoke(main, ["check", str(out / "explore-4.yaml")]).exit_code == 0
    bad = runner.invoke(main, ["explore", "--contents", "exploration-d66"])
    assert bad.exit_code == 2 and "is a d66 table, not a contents table" in bad.output


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:       # from . import shapes, sheets
                out.update(f"sheetgen.games.exploration.{a.name}" for a in node.names)
            elif node.level == 1:
                out.add(f"sheetgen.games.exploration.{node.module}")
            elif node.level == 2:
                out.add(f"sheetgen.games.{node.module}" if node.module else "sheetgen.games")
            elif node.module:
                out.add(node.module)
    return out


PURE = {"rules", "actions", "notation", "tables", "shapes", "readings", "generate", "mapmode"}


def _allowed(module: str, name: str) -> bool:
    import sys
    top = name.split(".")[0]
    if top in sys.stdlib_module_names or name == "__future__":
        own = True
    else:
        own = False
    game = name.startswith("sheetgen.games.exploration")
    if module in PURE:
        return own or name in ("sheetgen.games.base", "sheetgen.games.dice") or (
            game and name.split(".")[-1] in PURE)
    if module == "formats":
        return own or _allowed("rules", name) or name.startswith(("pydantic", "sheetgen.definitions",
                                                                    "sheetgen.errors"))
    if module == "sheets":
        return own or (game and name.split(".")[-1] in PURE) or name.startswith(("sheetgen.draw", "sheetgen.fonts"))
    # playlog, sim, report, cli, __init__: the game and the core, never another game (the
    # shared game layer is not a game)
    return not name.startswith("sheetgen.games.") or game or name in ("sheetgen.games.base", "sheetgen.games.dice",
                                                                      "sheetgen.games.workers")


def test_the_modules_import_only_what_their_layer_may():
    bad = []
    for path in sorted(GAME_DIR.glob("*.py")):
        module = path.stem
        for name in _imports(path):
            if not _allowed(module, name):
                bad.append(f"{module} imports {name}")
    assert not bad, bad
    assert "sheetgen.games.exploration.formats" not in _imports(GAME_DIR / "sheets.py")
