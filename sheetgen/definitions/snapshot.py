"""Definitions that loaded before, kept as plain values in the user cache, so loading the
same files again neither validates them again nor imports pydantic (whose import alone
costs more than drawing a page).

A snapshot is named by the definition file's path and bytes, the source of the code
that validates (sheetgen/definitions, the icon names) and pydantic's version (its model
repr is the footer's sheet id).  It lists the other files the definition was made of
(the `extends:` chain by their bytes, images by size and time), checked on every use;
any change, a missing or corrupt entry, means a miss: the definition is validated as
usual (with its located errors) and, being valid, stored again.  Only valid
definitions are stored.

`Plain` stands in for a validated model: the same attributes (nested models, mappings
and lists of them too), `model_fields_set`, and the model's repr.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

# the code whose change can change what a definition validates to: the formats, the
# icon names and font families they accept
_CODE_GLOBS = (("definitions", "*.py"), ("draw", "icons.py"), (".", "fonts.py"), (".", "limits.py"))


class Plain:
    """A validated model's values, read by attribute as the model is."""

    def __init__(self, values: dict, fields_set: frozenset, text: str | None = None):
        self.__dict__.update(values)
        self.__dict__["model_fields_set"] = fields_set
        self.__dict__["_text"] = text

    def __repr__(self) -> str:
        if self._text is not None:
            return self._text
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if k not in ("model_fields_set", "_text"))
        return f"Plain({shown})"

    def __setattr__(self, name, value):
        raise AttributeError("a validated definition is read-only")


def plain(value: Any, top: bool = True) -> Any:
    """value with every pydantic model in it as a Plain (the top one keeps its repr)."""
    from pydantic import BaseModel
    if isinstance(value, BaseModel):
        values = {name: plain(getattr(value, name), False) for name in type(value).model_fields}
        return Plain(values, frozenset(value.model_fields_set), repr(value) if top else None)
    if isinstance(value, dict):
        return {k: plain(v, False) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v, False) for v in value]
    if isinstance(value, tuple):
        return tuple(plain(v, False) for v in value)
    return value


@lru_cache(maxsize=1)
def source_fingerprint() -> str:
    """The validating code's source: what the snapshots shipped for the built-ins depend on
    besides their files (not pydantic's version: tests/test_fast_start.py checks them
    against the pydantic of the day, their reprs included)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for folder, pattern in _CODE_GLOBS:
        for path in sorted((root / folder).glob(pattern)):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:32]


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """What a snapshot depends on besides its files: the validating code and pydantic."""
    import importlib.util
    h = hashlib.sha256(source_fingerprint().encode())
    spec = importlib.util.find_spec("pydantic")
    if spec is not None and spec.origin:
        version = Path(spec.origin).with_name("version.py")
        h.update(version.read_bytes() if version.is_file() else spec.origin.encode())
    return h.hexdigest()[:32]


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _stamp(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)


def _key(kind: str, path: Path) -> str | None:
    digest = _digest(path)
    if digest is None:
        return None
    h = hashlib.sha256(f"{kind}\0{path.resolve()}\0{digest}\0{code_fingerprint()}".encode())
    return h.hexdigest()[:40]


def recall(kind: str, path: str | Path) -> Any | None:
    """The value stored for the definition at path, if its files are as they were."""
    import pickle

    from .. import usercache
    key = _key(kind, Path(path))
    if key is None:
        return None
    try:
        entry = pickle.loads(usercache.entry_path(f"definition-{kind}", key).read_bytes())
        files, images, value = entry["files"], entry["images"], entry["value"]
    except Exception:           # noqa: BLE001 - missing or corrupt: a miss
        entry = shipped(kind, path)
        if entry is None:
            return None
        files, images, value = entry["files"], entry["images"], entry["value"]
    if any(_digest(Path(f)) != d for f, d in files) or any(_stamp(Path(i)) != s for i, s in images):
        return None
    return value


def shipped(kind: str, path: str | Path) -> dict | None:
    """The snapshot shipped for a built-in (its other files named by their place in layouts/)."""
    from .. import usercache
    from ..paths import layouts_dir
    entry = usercache.prebuilt(f"definition-{kind}", path, source_fingerprint())
    if entry is None:
        return None
    return dict(entry, files=[(str(layouts_dir() / place), d) for place, d in entry["files"]])


def remember(kind: str, path: str | Path, value: Any, files=(), images=()) -> None:
    """Store a valid definition's value; files (its extends chain) are checked by their
    bytes, images by size and modification time, when it is recalled."""
    from .. import usercache
    key = _key(kind, Path(path))
    if key is None:
        return
    own = Path(path).resolve()
    entry = {"files": [(str(f), _digest(Path(f))) for f in files if Path(f).resolve() != own],
             "images": [(str(i), _stamp(Path(i))) for i in images], "value": value}
    usercache.store(usercache.entry_path(f"definition-{kind}", key), entry)
