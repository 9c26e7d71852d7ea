"""A cache of values that are costly to rebuild, in the user's cache folder
(sheetgen.paths.user_cache_dir), one pickle file per entry.

An entry is named by what it was built from (a hash of the input's bytes and the
versions that shape it), so a changed input simply misses.  A missing, unreadable,
truncated or otherwise corrupt entry is ignored and rebuilt; a cache folder that
cannot be written only means the next run rebuilds too.  Entries are written
atomically (sheetgen.atomic), so two processes never see half of one.

Entries a first run would make for the built-in definitions (their snapshots, the boards
of the built-in maps) ship with sheetgen in sheetgen/prebuilt/ (made by
tests/tools/make_prebuilt.py), so a newcomer's first command, or any run on a fresh
machine, does not validate them.  A shipped entry is named by the built-in's place in
layouts/, its bytes and the source of the code that made it, so a changed file or code
simply misses it (and tests/test_fast_start.py says the shipped entries are stale).
"""
from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import Any, Callable

FORMAT = 1          # bump when what is stored changes shape


def entry_path(kind: str, key: str) -> Path:
    from .paths import user_cache_dir
    return user_cache_dir() / f"{kind}-{key}-v{FORMAT}.pickle"


def cached(kind: str, key: str, build: Callable[[], Any], check: Callable[[Any], bool] | None = None) -> Any:
    """The value stored under (kind, key), or build() stored there now.
    check(value) may reject a stored value that unpickled but is not what was built."""
    path = entry_path(kind, key)
    try:
        value = pickle.loads(path.read_bytes())
        if check is None or check(value):
            return value
    except Exception:           # noqa: BLE001 - missing or corrupt: any failure means rebuild
        pass
    value = build()
    store(path, value)
    return value


def store(path: Path, value: Any) -> None:
    """Write value to the cache entry at path (quietly nothing where the folder cannot be written)."""
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except pickle.PicklingError:
        return                  # not kept: rebuilt next time
    store_bytes(path, data)


def store_bytes(path: Path, data: bytes) -> None:
    """Write DATA as the cache entry at path (quietly nothing where the folder cannot be written)."""
    from .atomic import write_bytes
    from .errors import SheetgenError
    try:
        write_bytes(path, data)
    except (SheetgenError, OSError):
        pass                    # a read-only or full cache folder: rebuilt next time


PREBUILT = Path(__file__).resolve().with_name("prebuilt")


def prebuilt_key(kind: str, path: str | Path, code: str) -> str | None:
    """The name of the shipped entry of the built-in at path made by code (a fingerprint of
    its source); None for a file outside the built-ins (or one that cannot be read)."""
    from .paths import layouts_dir
    try:
        place = Path(path).resolve().relative_to(layouts_dir().resolve()).as_posix()
        data = Path(path).read_bytes()
    except (ValueError, OSError):
        return None
    return hashlib.sha256(f"{kind}\0{place}\0{code}\0".encode() + data).hexdigest()[:40]


def prebuilt(kind: str, path: str | Path, code: str) -> Any | None:
    """The entry shipped for the built-in at path as code makes it, or None."""
    key = prebuilt_key(kind, path, code)
    if key is None:
        return None
    try:
        return pickle.loads((PREBUILT / f"{kind}-{key}.pickle").read_bytes())
    except Exception:           # noqa: BLE001 - none shipped (or damaged): built as usual
        return None
