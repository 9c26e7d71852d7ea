"""Dependencies point one way: rules are pure; draw knows nothing of render or the CLI."""
import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "sheetgen"

FORBIDDEN = {
    "rules": ("sheetgen.render", "sheetgen.commands", "sheetgen.cli", "sheetgen.draw", "sheetgen.definitions",
              "sheetgen.tracker", "sheetgen.playlog", "click", "reportlab", "svgwrite", "PIL", "sqlite3"),
    "draw": ("sheetgen.render", "sheetgen.commands", "sheetgen.cli", "click", "svgwrite", "reportlab"),
    "render": ("sheetgen.commands", "sheetgen.cli", "sheetgen.rules", "sheetgen.definitions", "click"),
    "definitions": ("sheetgen.render", "sheetgen.commands", "sheetgen.cli", "click"),
}


def _imports(path: Path, package: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                names.add(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                names.add(node.module)
    return names


def test_dependencies_point_one_way():
    bad = []
    for area, forbidden in FORBIDDEN.items():
        for path in (PKG / area).rglob("*.py"):
            rel = path.relative_to(PKG.parent).with_suffix("")
            package = ".".join(rel.parts[:-1]) if path.name != "__init__.py" else ".".join(rel.parts[:-1])
            for name in _imports(path, package):
                if any(name == f or name.startswith(f + ".") for f in forbidden):
                    bad.append(f"{path.relative_to(PKG.parent)} imports {name}")
    assert not bad, "\n".join(bad)


def test_svgwrite_only_in_svg_backend():
    users = [p for p in PKG.rglob("*.py") if "svgwrite" in _imports(p, "x")]
    assert all(p.parent.name == "render" for p in users), users
