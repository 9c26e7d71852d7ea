"""The built-in definitions shipped in layouts/ (found by file name)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import InputError, Problem, did_you_mean
from ..paths import layouts_dir


@dataclass(frozen=True)
class BuiltinInfo:
    name: str
    kind: str
    ruleset: str | None
    title: str
    path: Path


@lru_cache(maxsize=1)
def _index() -> dict[str, Path]:
    found: dict[str, Path] = {}
    root = layouts_dir()
    for path in sorted(root.rglob("*.yaml")):
        found.setdefault(path.stem, path)
    return found


def builtin_names() -> list[str]:
    return sorted(_index())


def find_builtin(name: str) -> Path:
    index = _index()
    if name in index:
        return index[name]
    raise InputError(Problem(f"no built-in definition named '{name}' and no such file",
                             expected="a path to a .yaml file or one of the names `sheetgen list` shows",
                             suggestion=did_you_mean(name, index)))


def builtin_info() -> list[BuiltinInfo]:
    """Name, kind, ruleset and title of every built-in (its top-level keys)."""
    import yaml

    # libyaml's parser where PyYAML has it: a scan's first unread QR code lists every built-in,
    # and the pure-Python parser takes eight times as long over the 29 files
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out = []
    for name, path in _index().items():
        head: dict = {}
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader
            if isinstance(data, dict):
                head = data
        except yaml.YAMLError:
            pass
        out.append(BuiltinInfo(name, str(head.get("kind", "?")), head.get("ruleset"),
                               str(head.get("title", name)), path))
    return out
