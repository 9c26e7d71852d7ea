"""The printed sheet again: from a sheet identity (the QR code) or --sheet to the loaded
definition, its build options and the very page that was printed, and that page as a
template image (what the paper looks like with no pencil on it).

Templates are kept in memory for the run (many photos of one sheet cost one render)."""
from __future__ import annotations

import weakref
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path

from ..draw.options import BuildOptions, GameOptions
from ..draw.scanmarks import SheetIdentity, content_hash, page_size, paper_of
from ..errors import InputError, Problem
from .contract import ScannedSheet

PX_PER_MM = 5.0                 # the rectified page's resolution
SHEETS_KEPT = 16                # sheets a run keeps ready: about 50 MB each (template, its print, regions)


class Kept:
    """What a run keeps by key, size entries (its last SHEETS_KEPT sheets unless told); the least
    recently used goes first (a folder of photos of a few sheets makes each sheet's template once).
    budget: at most this many bytes as well (each entry weighed when put), so a folder of photos of
    many sheets keeps no more memory than a few; on_drop(key, value): told of each entry let go."""

    def __init__(self, size: int = SHEETS_KEPT, budget: int | None = None, on_drop=None):
        self.size, self.items = size, OrderedDict()
        self.budget, self.on_drop = budget, on_drop
        self.weights: dict = {}
        self.weight = 0
        _every_kept.add(self)

    def get(self, key):
        hit = self.items.get(key)
        if hit is not None:
            self.items.move_to_end(key)
        return hit

    def put(self, key, value, weight: int = 0):
        self.weight -= self.weights.pop(key, 0)
        self.items[key] = value
        self.items.move_to_end(key)
        self.weights[key] = weight
        self.weight += weight
        # the newest always stays (a photo needs its sheet), however heavy
        while len(self.items) > self.size or (self.budget is not None and self.weight > self.budget
                                              and len(self.items) > 1):
            old, gone = self.items.popitem(last=False)
            self.weight -= self.weights.pop(old, 0)
            if self.on_drop is not None:
                self.on_drop(old, gone)
        return value

    def drop_value(self, value) -> None:
        """Let go of every entry holding VALUE (itself, or as the first of a tuple)."""
        for key in [k for k, v in self.items.items() if v is value or (isinstance(v, tuple) and v and v[0] is value)]:
            del self.items[key]
            self.weight -= self.weights.pop(key, 0)

    def __len__(self) -> int:
        return len(self.items)

    def clear(self) -> None:
        self.items.clear()
        self.weights.clear()
        self.weight = 0


_every_kept: weakref.WeakSet = weakref.WeakSet()     # every Kept: a template let go leaves them all
_templates = Kept()


def build_options(identity: SheetIdentity) -> BuildOptions:
    """The build options the identity says the sheet was printed with."""
    from ..definitions.registry import build_options as declared_options
    declared = declared_options()
    values = []
    for name, value in identity.options:
        opt = declared.get(name)
        if opt is None:
            raise InputError(Problem(f"the sheet's code names the option '{name}', which no game of this "
                                     "sheetgen knows", path="QR code"))
        try:
            values.append((name, opt.convert(value)))
        except ValueError as exc:
            raise InputError(Problem(f"the sheet's code has {name} {value!r}: {exc}", path="QR code")) from None
    return BuildOptions(paper=identity.paper, seed=identity.seed, grayscale=identity.grayscale,
                        game=GameOptions(tuple(values), frozenset(declared)))


def _load(ref: str):
    from ..definitions.registry import load
    return load(ref)


def rebuild(identity: SheetIdentity | None, sheet_ref: str | None = None,
            layout: tuple[str, str] | None = None, options: tuple = ()) -> ScannedSheet:
    """The sheet the photo shows, composed again.

    identity: what the QR code says (None when it could not be read: then sheet_ref, the
    --sheet NAME|FILE, with the paper and orientation the corner markers say, `layout`, and
    the game options given, `options`: (name, value) pairs such as ('hero', 'kael')).
    A custom sheet (a content hash in the code) needs --sheet FILE hashing to the same."""
    from ..build import compose_loaded
    if identity is None:
        if sheet_ref is None:
            raise InputError(Problem("the sheet's QR code could not be read", path="PHOTO",
                                     expected="--sheet NAME or --sheet FILE: the sheet the photo shows"))
        loaded = _load(sheet_ref)
        paper = layout[0] if layout else None
        identity = SheetIdentity(definition_of(loaded), paper=paper or "a4",
                                 options=tuple(sorted((k, str(v)) for k, v in options if v is not None)))
    else:
        if identity.custom:
            if sheet_ref is None:
                raise InputError(Problem(f"the photo shows {identity.describe()}: a custom sheet, not built in",
                                         path="PHOTO", expected="--sheet FILE: the definition it was built from"))
            loaded = _load(sheet_ref)
            if definition_of(loaded) != identity.definition:
                raise InputError(Problem(f"--sheet {sheet_ref} is not the sheet in the photo: its content hash is "
                                         f"{definition_of(loaded)[1:]}, the photo's code says {identity.definition[1:]}",
                                         path="--sheet", expected="the very file the sheet was built from"))
        else:
            ref = identity.definition
            if sheet_ref is not None and Path(sheet_ref).stem != ref and definition_of(_load(sheet_ref)) != ref:
                raise InputError(Problem(f"--sheet {sheet_ref} is not the sheet in the photo (its code says "
                                         f"{identity.describe()})", path="--sheet"))
            try:
                loaded = _load(ref)
            except InputError:
                raise InputError(Problem(f"the photo shows the built-in sheet '{ref}', which this sheetgen does not "
                                         "have", path="QR code", expected="--sheet FILE")) from None
    options = build_options(identity)
    doc = compose_loaded(loaded, options)
    if not 1 <= identity.page <= len(doc.pages):
        raise InputError(Problem(f"the photo's code names page {identity.page}; {identity.definition} has "
                                 f"{len(doc.pages)}", path="QR code"))
    page = doc.pages[identity.page - 1]
    if layout is not None and paper_of(page.width, page.height) != layout:
        w, h = page_size(*layout)
        raise InputError(Problem(f"the corner markers say {layout[0]} {layout[1]} ({w:g} x {h:g} mm); "
                                 f"{identity.definition} prints {page.width:g} x {page.height:g} mm",
                                 path="--sheet"))
    return ScannedSheet(loaded, options, page, identity, doc)


def definition_of(loaded) -> str:
    """The identity's definition of a loaded definition: its built-in name, or its file's content hash."""
    if loaded.source.builtin:
        return loaded.source.path.stem
    return content_hash(loaded.source.path.read_bytes())


def with_identity(sheet: ScannedSheet, **changes) -> ScannedSheet:
    return replace(sheet, **changes)


def template(sheet: ScannedSheet, px_per_mm: float = PX_PER_MM):
    """The page with no pencil on it as RGB reflectance (float32 rows x cols x 3, 0 black .. 1
    white), at px_per_mm; cached by the sheet's identity."""
    import numpy as np
    key = template_key(sheet, px_per_mm)
    hit = _templates.get(key)
    if hit is not None:
        return hit
    from ..render.png import render_page_image
    dpi = px_per_mm * 25.4
    img = render_page_image(sheet.page, dpi=dpi, grayscale=False).convert("RGB")
    return _templates.put(key, np.asarray(img, dtype=np.float32) / 255.0)


def template_key(sheet: ScannedSheet, px_per_mm: float = PX_PER_MM) -> tuple:
    """What a run keeps a sheet's template by."""
    return (sheet.identity.encode(), definition_key(sheet), px_per_mm)


def keep_template(sheet: ScannedSheet, tmpl, px_per_mm: float = PX_PER_MM) -> None:
    """TMPL, the sheet's template made earlier (sheetgen.scan.prepared), kept as template() keeps one."""
    _templates.put(template_key(sheet, px_per_mm), tmpl)


def forget_template(tmpl) -> None:
    """The run lets go of a template (its sheet is no longer kept): every Kept entry holding it
    goes (the templates here, what read.Printed worked out from it there)."""
    for kept in list(_every_kept):
        kept.drop_value(tmpl)


def definition_key(sheet: ScannedSheet) -> str:
    path = sheet.loaded.source.path
    try:
        return f"{path}:{path.stat().st_mtime_ns}"
    except OSError:
        return str(path)
