"""A sheet made ready to read, kept across runs (and shared by `scan --jobs` workers) in the user
cache (sheetgen.usercache): its template (the page with no pencil on it), its regions, the Plan
that samples them and what read.Printed works out from the template.  Making them costs about
0.4 s a sheet; loading them back about a tenth of that.

An entry is named by everything that decides what it holds: the sheet's identity (definition,
paper, seed, options, page), the page as composed (its drawing, pickled, and the images it draws
by size and time), the definition's data (what the regions are made from), the source of the
whole package, the font files, and the versions of Python, numpy, OpenCV, Pillow and reportlab.
Anything else changed means another name: a miss, and the sheet made ready as before.

What is stored is exactly what was made (the template as the colour labels its bytes have, the
index arrays in the smallest integer type that holds them and widened back on load, the plain
paper a bit a pixel), so a sheet read from the cache reads every region as one made afresh
(tests/test_scan_prepared.py).  A missing,
truncated, corrupt or foreign entry is made again; a folder that cannot be written only means
the next run makes it again.  Entries are written atomically (sheetgen.atomic); a process making
a sheet holds a lock on it, so another process wanting it (a --jobs worker) waits and loads it
rather than make it too.  The entries together are kept under BUDGET bytes, the least recently
used removed first."""
from __future__ import annotations

import hashlib
import io
import os
import pickle
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from .. import usercache
from . import read
from .sheet import keep_template

KIND = "scan-sheet"
FORMAT = 3                      # bump when what an entry holds changes shape
BUDGET = 256 * 2 ** 20          # bytes of entries kept (a sheet's entry: 6-11 MB)
STALE_LOCK_S = 3600             # a lock file with no entry this old is left over: removed


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """The source of the package (the composition, rendering, regions and reader all decide an
    entry), the font files the template is drawn with and the libraries' versions."""
    import importlib.util

    import cv2
    import PIL

    from ..paths import fonts_dir
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    for path in sorted(fonts_dir().glob("*")):
        st = path.stat()
        h.update(f"{path.name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    h.update(f"{sys.version_info[:2]}\0{np.__version__}\0{cv2.__version__}\0{PIL.__version__}\0{FORMAT}".encode())
    # reportlab draws no template (render.png is Pillow's) but the fonts' code uses it: its release
    # (the Version in its __init__), read without importing it (a scan never does)
    spec = importlib.util.find_spec("reportlab")
    if spec is not None and spec.origin:
        h.update(Path(spec.origin).read_bytes())
    return h.hexdigest()[:32]


def _images(items) -> Iterator[str]:
    from ..draw.model import Group, Image
    for item in items:
        if isinstance(item, Image):
            yield item.path
        elif isinstance(item, Group):
            yield from _images(item.items)


def sheet_key(sheet) -> str | None:
    """The entry's name for SHEET (a ScannedSheet), or None where its page cannot be pickled."""
    try:
        buf = io.BytesIO()
        _CompactPickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(sheet.page)     # a fifth faster than pickle's
        page = buf.getvalue()
    except Exception:           # noqa: BLE001 - a page we cannot name: made ready as before, not kept
        return None
    h = hashlib.sha256(f"{sheet.identity.encode()}\0{code_fingerprint()}\0".encode())
    h.update(hashlib.sha256(page).digest())
    h.update(repr(sheet.loaded.source.data).encode())
    for path in sorted(set(_images(sheet.page.items))):
        try:
            st = os.stat(path)
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        except OSError:
            h.update(f"{path}\0missing\0".encode())
    return h.hexdigest()[:40]


def page_k(shape: tuple[int, ...], page_mm: tuple[float, float]) -> float:
    """Pixels a mm of the template as read.Page works it out (what Printed is made for)."""
    return (shape[1] / page_mm[0] + shape[0] / page_mm[1]) / 2


class Ready:
    """A sheet made ready: its template (float32 RGB), its regions, the Plan of those not deferred."""

    def __init__(self, template: np.ndarray, regions: list, plan: read.Plan, worked_out: dict):
        self.template, self.regions, self.plan = template, regions, plan
        self.worked_out = worked_out


def ready(scanner, sheet) -> Ready:
    """SHEET made ready to read by SCANNER: from the user cache where it is there, else made (and
    kept there).  The template and its Printed are handed to sheet.template and read.printed, so
    the run finds them as if it had made them."""
    key = sheet_key(sheet)
    if key is None:
        return _made(scanner, sheet)
    path = usercache.entry_path(KIND, key)
    hit = _loaded(path, key, sheet)
    if hit is not None:
        return hit
    with _lock(path):
        hit = _loaded(path, key, sheet)         # made by another process while this one waited
        if hit is not None:
            return hit
        made = _made(scanner, sheet)
        _store(path, key, made, sheet)
    prune()
    return made


def _page_mm(sheet) -> tuple[float, float]:
    return (sheet.page.width, sheet.page.height)


def _made(scanner, sheet) -> Ready:
    from .sheet import template
    tmpl = template(sheet)
    shape, page_mm = tmpl.shape[:2], _page_mm(sheet)
    k = page_k(shape, page_mm)
    printed = read.printed(tmpl, k)
    regions = scanner.regions(sheet)
    plan = read.Plan([r for r in regions if r.role not in scanner.deferred], shape, page_mm)
    printed.warm(plan, k)       # kept with the entry: a run loading it need not work it out again
    return Ready(tmpl, regions, plan, _worked_out(sheet))


def _worked_out(sheet) -> dict:
    """What the scanner worked out while making the regions and keeps on the sheet for its reading
    (the sheet's attributes beyond its fields, a game's layout of it): kept with them, given to the
    sheet again on load, so a sheet from the cache is as one made ready afresh."""
    import dataclasses
    fields = {f.name for f in dataclasses.fields(sheet)}
    return {k: v for k, v in vars(sheet).items() if k not in fields}


# -- the entry ------------------------------------------------------------------------------

_INT_TYPES = (np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32)


def _widened(small: np.ndarray, dtype: str) -> np.ndarray:
    return small.astype(np.dtype(dtype))


@lru_cache(maxsize=None)
def _slot_names(cls: type) -> tuple[str, ...] | None:
    """The slots of a dataclass made with slots=True (all its state), or None for another class."""
    import dataclasses
    if not dataclasses.is_dataclass(cls) or "__slots__" not in vars(cls) or hasattr(cls, "__dictoffset__") and \
            cls.__dictoffset__:
        return None
    names = tuple(n for c in reversed(cls.__mro__) for n in vars(c).get("__slots__", ()))
    return names if set(names) == {f.name for f in dataclasses.fields(cls)} else None


@lru_cache(maxsize=None)
def _slot_setters(cls: type) -> tuple:
    """Each slot's own setter (a frozen dataclass's __setattr__ refuses; its slots' descriptors do not)."""
    return tuple(getattr(cls, name).__set__ for name in _slot_names(cls) or ())


def _with_slots(cls: type, values: tuple) -> Any:
    obj = object.__new__(cls)
    for setter, value in zip(_slot_setters(cls), values):
        setter(obj, value)
    return obj


class _CompactPickler(pickle.Pickler):
    """Integer arrays (pixel indices, mostly int64) stored in the smallest type that holds their
    values; _widened gives back the very array (values, type, shape) on load.  Dataclasses with
    slots (the regions and their shapes, some 10,000 a sheet) as their class and values: dataclasses'
    own __setstate__ looks their fields up again for each one, most of the time of a load."""

    def reducer_override(self, obj):
        if isinstance(obj, np.ndarray):
            if obj.dtype.kind in "iu" and obj.itemsize > 1 and obj.size > 64:
                lo, hi = int(obj.min()), int(obj.max())
                for small in _INT_TYPES:
                    info = np.iinfo(small)
                    if np.dtype(small).itemsize < obj.itemsize and info.min <= lo and hi <= info.max:
                        return _widened, (obj.astype(small), obj.dtype.str)
            return NotImplemented
        names = _slot_names(type(obj))
        if names is not None:
            try:
                return _with_slots, (type(obj), tuple(getattr(obj, n) for n in names))
            except AttributeError:      # a slot never set: pickled as dataclasses pickle it
                pass
        return NotImplemented


def _store(path: Path, key: str, made: Ready, sheet) -> None:
    k = page_k(made.template.shape, _page_mm(sheet))
    # the template is not kept: its Printed's colour labels give it back (read.Printed.template_of)
    entry = {"format": FORMAT, "key": key, "identity": sheet.identity.encode(), "k": k,
             "shape": made.template.shape, "printed": read.printed(made.template, k).kept(),
             "regions": made.regions, "plan": made.plan}
    for worked_out in (made.worked_out, {}):     # what the scanner keeps is only worth keeping
        buf = io.BytesIO()
        try:
            _CompactPickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(dict(entry, worked_out=worked_out))
        except Exception:       # noqa: BLE001 - something that cannot be pickled: the scanner works it out again
            continue
        # not deflated: inflating it took longer than the rest of its loading (16 ms a sheet of 30); the
        # template left out, it is a few MB
        usercache.store_bytes(path, buf.getvalue())
        return


def _loaded(path: Path, key: str, sheet) -> Ready | None:
    """The entry at PATH made ready for SHEET, or None (missing, unreadable, corrupt or another's)."""
    try:
        entry = pickle.loads(path.read_bytes())
        if (not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != key
                or entry.get("identity") != sheet.identity.encode()
                or not isinstance(entry["plan"], read.Plan) or not isinstance(entry["regions"], list)):
            return None
        tmpl = read.Printed.template_of(entry["printed"])
        if tmpl.shape != tuple(entry["shape"]):
            return None
        k = entry["k"]
        if k != page_k(tmpl.shape, _page_mm(sheet)):
            return None
        pr = read.Printed.from_kept(tmpl, entry["printed"])
        regions, plan, worked_out = entry["regions"], entry["plan"], entry["worked_out"]
        if not isinstance(worked_out, dict):
            return None
    except Exception:           # noqa: BLE001 - missing, truncated, corrupt or foreign: made again
        return None
    try:
        os.utime(path)          # recently used: pruned last
    except OSError:
        pass
    keep_template(sheet, tmpl)
    read.install_printed(tmpl, k, pr)
    for name, value in worked_out.items():
        setattr(sheet, name, value)
    return Ready(tmpl, regions, plan, worked_out)


@contextmanager
def _lock(path: Path):
    """Held while this process makes the entry at PATH: another process wanting it waits, then loads
    it.  No lock where the folder cannot be written (or the system has no flock): made anyway."""
    try:
        import fcntl
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except (ImportError, OSError):
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)            # the lock goes with it


def prune(budget: int = BUDGET) -> None:
    """Keep the entries under BUDGET bytes: the least recently used removed first (and lock files
    left with no entry, once stale)."""
    import time
    folder = usercache.entry_path(KIND, "x").parent
    try:
        entries = []
        for p in folder.glob(f"{KIND}-*"):
            st = p.stat()
            if p.suffix == ".lock":
                if not p.with_suffix(".pickle").exists() and time.time() - st.st_mtime > STALE_LOCK_S:
                    p.unlink(missing_ok=True)
            elif p.suffix == ".pickle":
                entries.append((st.st_mtime, st.st_size, p))
        total = sum(size for _, size, _ in entries)
        for _, size, p in sorted(entries):
            if total <= budget:
                break
            p.unlink(missing_ok=True)
            total -= size
    except OSError:
        pass                    # a folder that cannot be listed or written: nothing kept to prune
