"""An installed sheetgen (not just a checkout) must carry every package, layout and font."""
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _config():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_python_package_is_listed_for_the_wheel():
    listed = set(_config()["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "sheetgen").rglob("__init__.py")}
    assert found <= listed, f"add to pyproject [tool.setuptools] packages: {sorted(found - listed)}"


def test_layouts_and_fonts_ship_inside_the_package():
    cfg = _config()
    assert cfg["package-dir"]["sheetgen.layouts"] == "layouts"
    assert cfg["package-dir"]["sheetgen.fonts"] == "fonts"
    assert "**/*.yaml" in cfg["package-data"]["sheetgen.layouts"]
    assert any(p.endswith(".ttf") for p in cfg["package-data"]["sheetgen.fonts"])
    for ttf in (ROOT / "fonts").glob("*.ttf"):
        assert ttf.read_bytes()[:4] == b"\x00\x01\x00\x00", f"{ttf.name} must have TrueType outlines"
    assert list((ROOT / "fonts").glob("LICENSE*"))
