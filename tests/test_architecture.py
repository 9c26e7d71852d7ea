"""Dependencies point one way: a full table of the edges allowed between sheetgen's parts.

Every module of sheetgen belongs to a part (a core package, the shared game layer, or a
role inside one game); every import found anywhere in a module (top level or inside a
function) must be an edge of the table, or the test fails naming it.  A new module whose
part cannot be told from its path fails too: give it a place in PART_OF / GAME_ROLES.

The rules, in words:
- The core (definitions, draw, render, tracker, commands, cli, ...) never imports a game:
  games are found through the registry (definitions/registry.py) by name.
- The shared game layer (games/base.py, dice.py, grid.py, workers.py) is pure: the standard library
  and sheetgen.errors only.
- Inside a game: the pure part (rules, actions, notation, tables, ...) imports only the
  standard library, the shared game layer and itself; formats add pydantic and the
  definitions core and the game's sheets (a format's handler composes its pages); sheets
  add the drawing core but never the formats (one way); tracker, sim and cli may use the
  whole game and the core.
- One game never imports another.
"""
import ast
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "sheetgen"
GAMES = ("foury", "exploration", "navigation", "shuffle")

# core parts: module (dotted, below sheetgen) -> part
PART_OF = {
    "__init__": "meta", "__main__": "cli", "cli": "cli",
    "errors": "errors", "paths": "paths", "atomic": "atomic", "stats": "stats", "fonts": "fonts",
    "calibration": "calibration", "build": "build", "usercache": "usercache", "limits": "limits",
    "definitions": "definitions", "draw": "draw", "render": "render", "tracker": "tracker",
    "commands": "commands", "scan": "scan", "web": "web",
    "testing": "testing",           # the photo simulator of the scan tests and bench: no command imports it
    "games": "games.shared", "games.__init__": "games.shared", "games.base": "games.shared", "games.dice": "games.shared",
    "games.grid": "games.shared", "games.workers": "games.shared",
    "games.cluster": "games.shared",        # the Dask client of --cluster (dask imported only when asked)
}

# the roles inside a game package, by module name (first component below the game)
GAME_ROLES = {
    "__init__": "declaration",
    "rules": "pure", "actions": "pure", "notation": "pure", "tables": "pure", "board": "pure",
    "heroes": "pure", "shapes": "pure", "readings": "pure", "generate": "pure", "mapmode": "pure",
    "randomplay": "pure",
    "vocabulary": "pure",           # a game's words with their meanings (`sheetgen list items`): data, no I/O
    "formats": "formats",
    "sheets": "sheets",
    "tracker": "tracker", "fightflow": "tracker", "tracker_two": "tracker", "sim": "sim", "cli": "cli", "scan": "scan", "web": "web",
    "web_two": "web",               # the 2 Players Mode's part of the companion page
    "design": "design",
    "mapgen": "cli",                # `sheetgen generate map`: a game command beside cli.py
}

# -- one shape for every game (docs/ARCHITECTURE.md, "Adding a game") --------------------------
# Each role has one file name in every game, a module (NAME.py) or a package (NAME/):
#   rules      the engine: state + action -> Outcome        actions    the typed actions
#   notation   play-log entries <-> actions, both ways       readings   the rules' alternative readings
#   tables     the game's fixed data                         formats/   the YAML formats: __init__ or
#              one module per kind (the definitions' handlers), playlog.py (the play log, `check`)
#   sheets     composers into the drawing model              tracker    the journal adapter (ADAPTER)
#   web        the companion page (PAGE)
# and, where the declaration (GAME) names one: sim (simulator), scan (scanner), cli (commands,
# track_commands), design (designer).
SHAPE = ("rules", "actions", "notation", "readings", "tables", "formats", "sheets", "tracker", "web")
BY_DECLARATION = {"simulator": "sim", "scanner": "scan", "designer": "design"}
# the helpers one game has and the others need not (each is in GAME_ROLES, so its imports are held)
GAME_EXTRAS = {
    "foury": {"board", "heroes", "vocabulary", "fightflow", "randomplay", "mapgen", "tracker_two", "web_two"},
    "exploration": {"shapes", "mapmode", "generate"},
    "navigation": set(),
    "shuffle": set(),
}
# roles a game keeps elsewhere for now, with where (so the exception is written, not silent)
SHAPE_EXCEPTIONS = {"foury": {"readings": "rules/state.py (FouryReading)"}}

# part -> parts it may import (itself always allowed)
ALLOWED = {
    "meta": set(),
    "errors": set(),
    "paths": set(),
    "stats": set(),
    "limits": {"errors"},
    "atomic": {"errors", "limits", "paths"},
    "usercache": {"errors", "limits", "paths", "atomic"},
    "fonts": {"errors", "limits", "paths", "usercache"},
    "draw": {"errors", "limits", "fonts", "paths"},
    "render": {"errors", "limits", "fonts", "paths", "atomic", "draw"},
    "calibration": {"errors", "limits", "paths", "atomic", "draw"},
    "definitions": {"errors", "limits", "paths", "fonts", "atomic", "usercache", "draw", "games.shared"},
    "build": {"errors", "limits", "paths", "definitions", "draw", "render"},
    "tracker": {"errors", "limits", "paths", "atomic", "games.shared"},
    # usercache: the QR codes a scan matches an unread code against, drawn once and kept (scan.identify)
    "scan": {"errors", "limits", "paths", "atomic", "usercache", "definitions", "draw", "render", "build",
             "games.shared"},
    "testing": {"errors", "limits", "paths", "definitions", "draw", "render", "scan", "games.shared"},
    "commands": {"meta", "errors", "limits", "paths", "atomic", "stats", "fonts", "calibration", "build", "definitions",
                 "draw", "render", "tracker", "scan", "web", "games.shared"},
    "web": {"errors", "limits", "paths", "atomic", "definitions", "draw", "render", "build", "tracker", "games.shared"},
    "cli": {"meta", "definitions", "commands", "errors", "limits"},
    "games.shared": {"errors", "limits"},
}
# inside a game: role -> roles of the same game it may import, and core parts
GAME_ALLOWED = {
    "declaration": ({"declaration"}, {"games.shared"}),
    "pure": ({"pure"}, {"games.shared"}),
    # usercache: the numbers replay needs from built-in definitions, shipped and kept (foury's hero_numbers)
    "formats": ({"declaration", "pure", "formats", "sheets"},
                {"errors", "limits", "paths", "definitions", "usercache", "games.shared"}),
    "sheets": ({"declaration", "pure", "sheets"}, {"errors", "limits", "paths", "fonts", "draw", "games.shared"}),
    # usercache: a track command keeps the board and the replayed state between processes
    "tracker": ({"declaration", "pure", "formats", "sheets", "tracker"},
                {"errors", "limits", "paths", "atomic", "usercache", "definitions", "draw", "render", "tracker",
                 "games.shared"}),
    "sim": ({"declaration", "pure", "formats", "sheets", "sim"},
            {"errors", "limits", "paths", "atomic", "stats", "fonts", "definitions", "draw", "render", "games.shared"}),
    "scan": ({"declaration", "pure", "formats", "sheets", "scan"},
             {"errors", "limits", "paths", "definitions", "draw", "scan", "games.shared"}),
    "web": ({"declaration", "pure", "formats", "sheets", "tracker", "web"},
            {"errors", "limits", "paths", "definitions", "draw", "web", "games.shared"}),
    "design": ({"declaration", "pure", "formats", "sheets", "sim", "design"},
               {"errors", "limits", "paths", "atomic", "definitions", "draw", "render", "games.shared"}),
    "cli": ({"declaration", "pure", "formats", "sheets", "tracker", "sim", "cli"},
            {"errors", "limits", "paths", "atomic", "definitions", "draw", "render", "commands", "build", "games.shared"}),
}
# third-party libraries each part may use (the standard library is always allowed)
THIRD_PARTY = {
    "cli": {"click"}, "commands": {"click", "yaml"}, "calibration": set(), "build": set(),
    "definitions": {"yaml", "pydantic", "pydantic_core", "PIL", "ruamel"},
    "fonts": {"PIL", "reportlab"}, "draw": {"PIL", "segno"}, "render": {"reportlab", "svgwrite", "PIL"},
    "tracker": set(), "scan": {"numpy", "cv2", "PIL", "segno", "yaml"},      # yaml: the sheetscan file
    "testing": {"numpy", "cv2", "PIL", "yaml"},                               # yaml: the corpus recipes
    "web": {"starlette", "uvicorn", "jinja2", "ruamel", "segno", "click", "anyio"},   # anyio: starlette's own thread layer (a limiter)
    "game:formats": {"pydantic", "pydantic_core", "yaml", "ruamel"}, "game:sheets": {"segno"},
    "game:tracker": {"yaml"}, "game:sim": {"yaml"}, "game:cli": {"click", "yaml"},
    "game:scan": {"numpy", "cv2"}, "game:web": set(), "game:design": {"ruamel", "yaml"},
    # the optional extra `cluster`: only the games' shared cluster client, imported inside its functions
    "games.shared": {"distributed"},
}


def part_of(module: str) -> str:
    """'sheetgen.games.foury.sheets.map' -> 'foury:sheets'; 'sheetgen.draw.model' -> 'draw'."""
    parts = module.split(".")[1:] or ["__init__"]
    if parts[0] == "games" and len(parts) > 1 and parts[1] not in ("base", "dice", "grid", "workers", "cluster", "__init__"):
        game = parts[1]
        role = GAME_ROLES.get(parts[2] if len(parts) > 2 else "__init__")
        assert role, f"{module}: which role is '{parts[2]}'? add it to GAME_ROLES"
        return f"{game}:{role}"
    for length in (2, 1):
        key = ".".join(parts[:length])
        if key in PART_OF:
            return PART_OF[key]
    raise AssertionError(f"{module}: which part of sheetgen is this? add it to PART_OF")


def modules():
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            name, package = ".".join(parts), ".".join(parts[:-1])
        else:
            name, package = ".".join(parts), ".".join(parts[:-1])
        yield path, name, package


def imports(path: Path, package: str):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                if node.module is None or target.count(".") < 2:
                    # `from . import x` / `from .. import rules`: each name may be a module
                    for a in node.names:
                        yield f"{target}.{a.name}", node.lineno
                    continue
                yield target, node.lineno
            elif node.module:
                if node.module in ("sheetgen", "sheetgen.games") or node.module.startswith("sheetgen.games."):
                    for a in node.names:
                        yield f"{node.module}.{a.name}", node.lineno
                else:
                    yield node.module, node.lineno


def _resolve_module(name: str) -> str:
    """The longest prefix of name that is a sheetgen module or package."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        candidate = PKG.parent.joinpath(*parts[:n])
        if candidate.with_suffix(".py").is_file() or (candidate / "__init__.py").is_file():
            return ".".join(parts[:n])
    return name


def allowed(src: str, dst: str) -> bool:
    if src == dst:
        return True
    src_game, _, src_role = src.partition(":") if ":" in src else (None, "", src)
    dst_game, _, dst_role = dst.partition(":") if ":" in dst else (None, "", dst)
    if ":" not in src:
        return ":" not in dst and dst in ALLOWED[src]
    roles, core = GAME_ALLOWED[src_role]
    if ":" in dst:
        return src_game == dst_game and dst_role in roles
    return dst in core


def third_party_part(part: str) -> str:
    return "game:" + part.split(":")[1] if ":" in part else part


def test_every_import_is_an_allowed_edge():
    bad = []
    for path, name, package in modules():
        src = part_of(name)
        for target, line in imports(path, package):
            top = target.split(".")[0]
            where = f"{path.relative_to(PKG.parent)}:{line}"
            if top == "sheetgen":
                dst = part_of(_resolve_module(target))
                if not allowed(src, dst):
                    bad.append(f"{where}: {src} may not import {dst} ({target})")
            elif top not in sys.stdlib_module_names and top != "__future__":
                if top not in THIRD_PARTY.get(third_party_part(src), set()):
                    bad.append(f"{where}: {src} may not use the library {top}")
    assert not bad, "edges not in the table:\n" + "\n".join(bad)


def test_every_module_has_a_part():
    for _, name, _ in modules():
        part_of(name)           # raises for a module nobody placed


def test_svgwrite_only_in_svg_backend():
    users = [p for p, _, pkg in modules() if any(t.split(".")[0] == "svgwrite" for t, _ in imports(p, pkg))]
    assert all(p.parent.name == "render" for p in users), users


def test_the_table_knows_the_four_games():
    found = sorted(p.name for p in (PKG / "games").iterdir() if (p / "__init__.py").is_file())
    assert found == sorted(GAMES)


def test_the_table_itself_is_one_way():
    """No two core parts may import each other (the table would allow a cycle)."""
    cycles = [(a, b) for a, deps in ALLOWED.items() for b in deps if a in ALLOWED.get(b, set()) and a != b]
    assert not cycles, cycles


def test_the_table_forbids_what_the_design_forbids():
    forbidden = [("draw", "definitions"), ("definitions", "foury:formats"), ("commands", "exploration:cli"),
                 ("render", "games.shared"), ("foury:pure", "foury:formats"), ("foury:pure", "draw"),
                 ("foury:sheets", "foury:formats"), ("foury:sheets", "exploration:sheets"),
                 ("navigation:pure", "shuffle:pure"), ("games.shared", "definitions"), ("tracker", "foury:tracker"),
                 ("scan", "testing"), ("commands", "testing"), ("foury:scan", "testing")]
    assert [edge for edge in forbidden if allowed(*edge)] == []
    assert allowed("foury:formats", "foury:sheets") and allowed("foury:tracker", "tracker")
    assert part_of("sheetgen.games.foury.sheets.map") == "foury:sheets"
    assert part_of("sheetgen.games.base") == "games.shared" and part_of("sheetgen.draw.model") == "draw"


def _private_uses(path: Path, package: str):
    """(line, 'module.name') for every private name (one leading underscore) this module takes from
    another sheetgen module: `from X import _name`, or `X._name` where X is a sheetgen module it
    imported."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules_named: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            if base.split(".")[0] != "sheetgen":
                continue
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    yield node.lineno, f"{base}.{a.name}"
                elif _resolve_module(f"{base}.{a.name}") == f"{base}.{a.name}":
                    modules_named[a.asname or a.name] = f"{base}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "sheetgen" and a.asname:
                    modules_named[a.asname] = a.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules_named
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            yield node.lineno, f"{modules_named[node.value.id]}.{node.attr}"


def test_no_private_name_is_taken_from_another_module():
    """A name with a leading underscore is its module's own: what another module needs gets a
    public name (so a change inside a module cannot break another one unseen)."""
    bad = [f"{path.relative_to(PKG.parent)}:{line}: {used}"
           for path, _, package in modules() for line, used in _private_uses(path, package)]
    assert not bad, "private names used across modules:\n" + "\n".join(bad)


def test_the_private_name_check_sees_both_forms(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from .tracker import _hero, ADAPTER\nfrom sheetgen.draw import charts as c\n"
                      "from xml.etree.ElementTree import _escape_cdata\nc._paper(1)\nc.paper_size(1)\n")
    found = [used for _, used in _private_uses(sample, "sheetgen.games.foury")]
    assert found == ["sheetgen.games.foury.tracker._hero", "sheetgen.draw.charts._paper"]


# the core's source text: its code, templates and scripts (the built-in definitions under layouts/
# are each game's data, in a folder of its name; prebuilt/ holds their snapshots)
CORE_TEXT = (".py", ".html", ".js", ".css")
NOT_CORE = ("games", "layouts", "prebuilt")


def _game_words() -> list[str]:
    """Every registered game's name (its modules, its vocabulary modules among them, are named
    under it: sheetgen.games.NAME...)."""
    from sheetgen.definitions.registry import games
    words = set()
    for game in games().values():
        words.add(game.name)
    return sorted(words)


def _named_games(text: str, words: list[str]) -> list[str]:
    import re
    pattern = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, words)) + r")(?![A-Za-z0-9])", re.I)
    return [m.group(0) for m in pattern.finditer(text)]


def test_the_core_names_no_game():
    """Game knowledge lives in the game: no game's name in the core's source text (a `ruleset ==`
    branch, a game's option help, its commands), so that adding a game never means editing the core."""
    words = _game_words()
    assert {"foury", "exploration", "navigation", "shuffle"} <= set(words)
    bad = []
    for path in sorted(PKG.rglob("*")):
        rel = path.relative_to(PKG)
        if not path.is_file() or path.suffix not in CORE_TEXT or rel.parts[0] in NOT_CORE:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _named_games(line, words):
                bad.append(f"sheetgen/{rel}:{number}: {line.strip()}")
    assert not bad, "game names in the core:\n" + "\n".join(bad)


def test_the_name_scan_sees_a_game_name_in_any_case():
    words = ["foury", "shuffle"]
    assert _named_games('if ruleset == "foury":', words) == ["foury"]
    assert _named_games("a Dungeon Foury map; Shuffle Dungeons; foury-blank", words) == ["Foury", "Shuffle", "foury"]
    assert _named_games("fourying reshuffled", words) == []


def expected_shape(game) -> set[str]:
    """The role files a game declared as GAME must have (names without .py)."""
    want = set(SHAPE) - set(SHAPE_EXCEPTIONS.get(game.name, {}))
    want |= {role for attr, role in BY_DECLARATION.items() if getattr(game, attr)}
    if any(c.module.endswith(".cli") for c in game.commands + game.track_commands):
        want.add("cli")
    return want | GAME_EXTRAS.get(game.name, set())


def shape_problems(folder: Path, game) -> list[str]:
    """What is missing from a game's folder, or there without being declared."""
    have = {p.stem for p in folder.iterdir()
            if p.name != "__init__.py" and (p.suffix == ".py" or (p / "__init__.py").is_file())}
    want = expected_shape(game)
    out = [f"{game.name}: no {role} (a module {role}.py or a package {role}/)" for role in sorted(want - have)]
    out += [f"{game.name}: {name} is in no role: name it after one (SHAPE) or declare it in GAME_EXTRAS"
            for name in sorted(have - want)]
    if (folder / "formats").is_dir() and not (folder / "formats" / "playlog.py").is_file():
        out.append(f"{game.name}: no formats/playlog.py (the play log's handler)")
    return out


def _games():
    from sheetgen.definitions.registry import games
    return games()


def test_every_game_has_the_one_shape():
    bad = [problem for name, game in sorted(_games().items()) for problem in shape_problems(PKG / "games" / name, game)]
    assert not bad, "\n".join(bad)


def test_every_role_is_declared_where_the_shape_puts_it():
    """The declaration points each role at its file: the play log's handler is formats.playlog,
    the definitions' handlers are in formats, the readings in readings (unless written above)."""
    bad = []
    for name, game in sorted(_games().items()):
        pkg = f"sheetgen.games.{name}"
        for kind, module in game.kinds.items():
            want = f"{pkg}.formats.playlog" if kind == "playlog" else f"{pkg}.formats"
            if not (module == want or (kind != "playlog" and module.startswith(want + "."))):
                bad.append(f"{name}: kind {kind} is handled by {module}, not in {want}")
        for attr, role in (("tracker", "tracker"), ("web", "web"), ("scanner", "scan"), ("designer", "design")):
            module = getattr(game, attr)
            if module and module != f"{pkg}.{role}":
                bad.append(f"{name}: {attr} is {module}, not {pkg}.{role}")
        if game.simulator and not (game.simulator == f"{pkg}.sim" or game.simulator.startswith(f"{pkg}.sim.")):
            bad.append(f"{name}: the simulator {game.simulator} is not in {pkg}.sim")
        if game.readings and "readings" not in SHAPE_EXCEPTIONS.get(name, {}):
            if game.readings.partition(":")[0] != f"{pkg}.readings":
                bad.append(f"{name}: its readings are in {game.readings}, not {pkg}.readings")
    assert not bad, "\n".join(bad)


def test_the_shape_check_sees_a_missing_role_and_a_stray_file(tmp_path):
    game = _games()["navigation"]
    for role in expected_shape(game):
        (tmp_path / f"{role}.py").write_text("")
    (tmp_path / "formats.py").unlink()
    (tmp_path / "formats").mkdir()
    (tmp_path / "formats" / "__init__.py").write_text("")
    (tmp_path / "formats" / "playlog.py").write_text("")
    assert shape_problems(tmp_path, game) == []
    (tmp_path / "helpers.py").write_text("")
    (tmp_path / "web.py").unlink()
    (tmp_path / "formats" / "playlog.py").unlink()
    problems = shape_problems(tmp_path, game)
    assert any("no web" in p for p in problems)
    assert any("helpers is in no role" in p for p in problems)
    assert any("formats/playlog.py" in p for p in problems)
