"""Where sheetgen's shipped data lives, and where the user's files go."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def _data_dir(name: str) -> Path:
    # A source checkout or editable install has layouts/ and fonts/ beside the
    # package; an installed wheel carries them as sheetgen/layouts and sheetgen/fonts.
    here = _REPO_ROOT / name
    if here.is_dir() and (_REPO_ROOT / "pyproject.toml").is_file():
        return here
    return Path(__file__).resolve().parent / name


def layouts_dir() -> Path:
    return _data_dir("layouts")


def fonts_dir() -> Path:
    return _data_dir("fonts")


def user_config_dir() -> Path:
    base = os.environ.get("SHEETGEN_CONFIG_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "sheetgen"


def user_data_dir() -> Path:
    base = os.environ.get("SHEETGEN_DATA_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "sheetgen"


def user_cache_dir() -> Path:
    """Where sheetgen keeps what is costly to rebuild (parsed fonts): SHEETGEN_CACHE_DIR,
    or XDG_CACHE_HOME/sheetgen, or ~/.cache/sheetgen. Anything in it may be deleted."""
    base = os.environ.get("SHEETGEN_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "sheetgen"


def relative_ref(ref, relative_to):
    """A map/dungeon/deck reference as an exported log should name it: an absolute
    path becomes relative to the folder the log is written into (where it can be);
    built-in names and inline definitions pass through unchanged."""
    if not isinstance(ref, str) or relative_to is None:
        return ref
    p = Path(ref)
    if not p.is_absolute():
        return ref
    try:
        return os.path.relpath(p, Path(relative_to).resolve())
    except ValueError:          # another drive on Windows
        return str(p)
