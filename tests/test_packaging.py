"""An installed sheetgen (not just a checkout) must carry every package, layout, font, template and
static file, and a core install (no extras) must run the quick start and the core commands.

The wheel tests build the wheel from this checkout and install it into a fresh virtual environment
(no system packages, no extras, the pinned versions of constraints.txt): what a newcomer's
`python3 -m pip install . && sheetgen build` gives. They need pip to reach the package index (as the
quick start does) and take about a minute: marked `install`, so the fast lane leaves them out."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the folders of the repository that ship, and where they land in the wheel
SHIPPED = {"sheetgen": "sheetgen", "layouts": "sheetgen/layouts", "fonts": "sheetgen/fonts"}
EXTRAS = ("numpy", "cv2", "starlette", "uvicorn", "jinja2", "ruamel", "httptools", "uvloop", "dask", "distributed")


def _config():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_layouts_and_fonts_ship_inside_the_package():
    cfg = _config()
    assert cfg["package-dir"]["sheetgen.layouts"] == "layouts"
    assert cfg["package-dir"]["sheetgen.fonts"] == "fonts"
    assert "**/*.yaml" in cfg["package-data"]["sheetgen.layouts"]
    assert any(p.endswith(".ttf") for p in cfg["package-data"]["sheetgen.fonts"])
    for ttf in (ROOT / "fonts").glob("*.ttf"):
        assert ttf.read_bytes()[:4] == b"\x00\x01\x00\x00", f"{ttf.name} must have TrueType outlines"
    assert list((ROOT / "fonts").glob("LICENSE*"))


def test_the_package_list_is_found_not_kept_by_hand():
    assert "packages" not in _config(), "setup.py finds the packages; a hand-kept list leaves new ones out"


def _source_files() -> set[str]:
    """Every file of the shipped folders as it lands in the wheel (git's list where this is a
    checkout, so that scratch files of a working tree are not demanded)."""
    try:
        listed = subprocess.run(["git", "ls-files", *SHIPPED], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = [str(p.relative_to(ROOT)) for top in SHIPPED for p in (ROOT / top).rglob("*") if p.is_file()]
    out = set()
    for name in listed:
        if "__pycache__" in name or name.endswith(".pyc"):
            continue
        top, _, rest = name.partition("/")
        out.add(f"{SHIPPED[top]}/{rest}")
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # built from a copy of the checkout: the build's own folders (build/, *.egg-info) never land in the
    # working tree, where tests running beside this one read it
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for top in SHIPPED:
        shutil.copytree(ROOT / top, source / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
                          capture_output=True, text=True, cwd=source, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (found,) = out.glob("sheetgen-*.whl")
    return found


@pytest.mark.install
def test_the_wheel_holds_every_file_of_the_package(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(_source_files() - names)
    assert not missing, f"left out of the wheel (pyproject.toml's package-data or setup.py): {missing[:20]}"
    for must in ("sheetgen/games/foury/__init__.py", "sheetgen/layouts/default-pack.yaml",
                 "sheetgen/fonts/DejaVuSans.ttf", "sheetgen/py.typed"):
        assert must in names, must


def _run(env_bin: Path, args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{env_bin}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def core_env(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel and its core dependencies only."""
    where = tmp_path_factory.mktemp("core-venv")
    venv.EnvBuilder(with_pip=True, clear=True).create(where)
    binary = where / "bin"
    proc = _run(binary, [str(binary / "python"), "-m", "pip", "install", "-q", "-c",
                         str(ROOT / "constraints.txt"), str(wheel)], where, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return binary


@pytest.mark.install
def test_a_core_install_has_none_of_the_extras(core_env):
    proc = _run(core_env, [str(core_env / "python"), "-c",
                           "import importlib.util as u; print([m for m in %r if u.find_spec(m)])" % (EXTRAS,)],
                core_env)
    assert proc.stdout.strip() == "[]", "the core's dependencies pull in an extra: " + proc.stdout + proc.stderr


@pytest.mark.install
def test_the_quick_start_on_a_core_install(core_env, tmp_path):
    proc = _run(core_env, ["sheetgen", "build"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = tmp_path / "output"
    assert (out / "sheetgen-pack.pdf").stat().st_size > 10_000
    assert len(list(out.glob("*.svg"))) == len(list(out.glob("*.png"))) >= 20


CORE_COMMANDS = [
    ["new", "map", "my-map"],
    ["validate", "my-map.yaml", "ancient-story", "kraken", "nav-crypt", "shuffle-core"],
    ["build", "my-map.yaml", "-o", "mine", "--format", "pdf"],
    ["check", "nav-crypt-game"],
    ["check", "shuffle-game"],
    ["track", "new", "--map", "ancient-story", "--hero", "kael", "--journal", "j.sqlite"],
    ["track", "enter", "C1:N", "--journal", "j.sqlite"],
    ["track", "status", "--journal", "j.sqlite"],
    ["track", "export", "-o", "played.yaml", "--journal", "j.sqlite"],
    ["check", "played.yaml"],
    ["simulate", "ancient-story", "--games", "40", "--seed", "3"],
    ["simulate", "my-map.yaml", "--games", "20"],
    ["explore", "--seed", "2", "--rooms", "8", "-o", "explored"],
]


@pytest.mark.install
def test_the_core_commands_on_a_core_install(core_env, tmp_path):
    for args in CORE_COMMANDS:
        proc = _run(core_env, ["sheetgen", *args], tmp_path)
        assert proc.returncode == 0, f"sheetgen {' '.join(args)}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}"
        assert "Traceback" not in proc.stderr
    assert (tmp_path / "mine").is_dir() and (tmp_path / "played.yaml").is_file()


@pytest.mark.install
@pytest.mark.parametrize("args,extra", [(["scan", "photo.jpg"], "scan"), (["design", "my.yaml", "--new", "5x5"], "web"),
                                        (["play", "--map", "ancient-story", "--hero", "kael"], "web")])
def test_an_optional_command_on_a_core_install_names_its_extra(core_env, tmp_path, args, extra):
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8\xff")
    proc = _run(core_env, ["sheetgen", *args], tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"sheetgen[{extra}]" in proc.stderr and "Traceback" not in proc.stderr
