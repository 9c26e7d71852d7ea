"""The sheet's identity when its QR code will not decode: the code's modules as the photo shows
them, matched against the codes of the sheets the photo could be.

In a 2 MP photo a module of the 11 mm code is 1.3 to 2 pixels and blurred over most of one:
image.read_qr reads most such codes, but about a third of them keep too many modules wrong for
the code's own error correction (level L: 7 %).  What is known besides the photo makes up for it:
once the corner markers have put the page flat, the drawing model (draw.scanmarks.qr_box) says
where the code is, and every sheetgen code is a SheetIdentity's text, drawn by segno as the
printer drew it.  So the candidates (the sheets this run has identified, the sheet --sheet names,
every built-in sheet a pencil plays, on the paper the markers say; and the text the modules spell
read without error correction, each part put right to the nearest name it could be) are drawn as
codes and each is scored by how well the photo's modules agree with it (_agreement: -1 .. 1,
each module counted by how clearly it reads).  The best is the sheet when it agrees well
(MIN_AGREEMENT), leads the next candidate (MIN_MARGIN), and its error-correction codewords agree
nearly as well as the whole code (MIN_EC_AGREEMENT, EC_SHORT).  That last test is what keeps a
wrong sheet out: a text a character away from the code's (seed 2 for seed 1) agrees on nearly
every data module, but its error-correction codewords are wholly other, so they agree by chance
only (at most 0.29 over the corpus's 2 MP photos with the true sheet left out of the candidates,
where the true sheet's read 0.28 to 0.81 on the photos whose code did not decode).
A sheet none of the candidates is (a seed past 3, a hero not given and not seen in the run, a
custom sheet without --sheet FILE) stays unknown: the photo then asks for --sheet, as before.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from ..draw import scanmarks as SM
from ..draw.scanmarks import SheetIdentity
from .image import finders_found, function_modules, grid_darkness, module_footprints, qr_crop, qr_reach

MIN_AGREEMENT = 0.35        # the photo's modules agree with the candidate's code (_agreement, -1 .. 1)
MIN_MARGIN = 0.10           # the best candidate ahead of the next by this much
MIN_EC_AGREEMENT = 0.25     # ... its error-correction codewords' modules alone this much ...
EC_SHORT = 0.20             # ... and no more than this below the whole code's agreement
SEEDS = (1, 2, 3)
_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"

_codes: OrderedDict = OrderedDict()        # text -> the module matrix segno draws (bool, n x n)
_seen: OrderedDict = OrderedDict()         # identities this run has read, newest last


def remember(identity: SheetIdentity) -> None:
    """An identity this run has read (a folder of photos of a few sheets: the others match it)."""
    text = identity.encode()
    _seen[text] = identity
    _seen.move_to_end(text)
    while len(_seen) > 64:
        _seen.popitem(last=False)


def forget_seen() -> None:
    """Forget the identities this run has read (each photo then matched as if alone)."""
    _seen.clear()


def code_of(text: str) -> tuple[np.ndarray, np.ndarray]:
    """The modules of the QR code sheetgen prints for text (draw.scanmarks.qr_items), and where
    its error-correction codewords are (a bool mask)."""
    hit = _codes.get(text)
    if hit is None:
        packed, n, level = _drawn(text)
        matrix = np.unpackbits(np.frombuffer(packed, np.uint8), count=n * n).reshape(n, n).astype(bool)
        hit = _codes[text] = (matrix, _ec_modules(n, level))
        while len(_codes) > 512:
            _codes.popitem(last=False)
    return hit


# Drawing a code is segno's pure-Python mask choice, about 10 ms (25 on a busy machine), and the
# candidates of a run's first unread code are a few hundred: kept in the user cache (named by
# segno's version: the printer's codes are segno's) a later run draws none of them again.
_CODES_KEPT = 4096
_kept_codes: dict[str, tuple[bytes, int, str]] | None = None    # text -> (packed modules, n, level)
_unkept: set[str] = set()                                          # drawn since last stored


def _drawn(text: str) -> tuple[bytes, int, str]:
    """Text's code as kept (packed modules, n, error level): drawn by segno where none is."""
    kept = _drawn_codes()
    drawn = kept.get(text)
    if drawn is None:
        import segno
        code = segno.make_qr(text, error="l")
        # segno's rows are bytearrays of 0 and 1: one buffer (a list of lists is slower than segno)
        drawn = kept[text] = (np.packbits(np.frombuffer(b"".join(code.matrix), np.uint8)).tobytes(),
                              len(code.matrix), code.error.upper())
        _unkept.add(text)
    return drawn


@lru_cache(maxsize=1)
def _segno_version() -> str:
    """segno's release as installed: importing segno (its writers pull in urllib, http and xml) costs
    about 0.1 s, and a run whose codes are all kept draws none."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("segno")
    except PackageNotFoundError:        # not installed as a distribution (a source tree on the path)
        import segno
        return str(segno.__version__)


def _codes_key() -> str:
    return f"segno-{_segno_version()}"


def _drawn_codes() -> dict[str, tuple[bytes, int, str]]:
    """The codes drawn by this run or an earlier one (sheetgen.usercache), text -> (packed, n, level),
    and the built-in sheets' candidates' that ship with sheetgen (tests/tools/make_prebuilt.py) where
    they were drawn by the installed segno's release (its major.minor version: tests/test_fast_start.py
    checks them against the segno of the day, and the declared minimum's)."""
    global _kept_codes
    if _kept_codes is None:
        import pickle

        from .. import usercache
        _kept_codes = {}
        release = _segno_version().split(".")[:2]
        for path in sorted(usercache.PREBUILT.glob("qr-codes-*.pickle")):
            try:
                shipped = pickle.loads(path.read_bytes())
            except Exception:  # noqa: BLE001 - damaged: the codes are drawn instead
                continue
            if isinstance(shipped, dict) and str(shipped.get("segno", "")).split(".")[:2] == release:
                _kept_codes.update(_valid_codes(shipped.get("codes")))
        try:
            _kept_codes.update(_valid_codes(pickle.loads(usercache.entry_path("qr-codes", _codes_key()).read_bytes())))
        except Exception:  # noqa: BLE001 - none kept, or damaged: drawn again
            pass
    return _kept_codes


def _valid_codes(stored) -> dict[str, tuple[bytes, int, str]]:
    """STORED where it is what keep_drawn_codes writes (text -> (packed, n, level)), else none."""
    ok = isinstance(stored, dict) and all(
        isinstance(text, str) and isinstance(v, tuple) and len(v) == 3 and isinstance(v[0], bytes)
        and v[1] in _TOTAL_CODEWORDS and len(v[0]) == (v[1] * v[1] + 7) // 8 and (v[1], v[2]) in _DATA_CODEWORDS
        for text, v in stored.items())
    return stored if ok else {}


def drawn_codes(texts: list[str]) -> dict[str, tuple[bytes, int, str]]:
    """TEXTS' codes as they are kept (tests/tools/make_prebuilt.py ships the built-in sheets')."""
    return {text: _drawn(text) for text in texts}


def keep_drawn_codes() -> None:
    """Store the codes drawn since the last call in the user cache (the newest _CODES_KEPT)."""
    if not _unkept or _kept_codes is None:
        return
    from .. import usercache
    kept = _kept_codes
    if len(kept) > _CODES_KEPT:
        for text in list(kept)[:len(kept) - _CODES_KEPT]:
            del kept[text]
    usercache.store(usercache.entry_path("qr-codes", _codes_key()), kept)
    _unkept.clear()


_ec_masks: dict[tuple[int, str], np.ndarray] = {}


def _ec_modules(n: int, level: str) -> np.ndarray:
    """Where an n x n code of error level LEVEL keeps its error-correction codewords."""
    hit = _ec_masks.get((n, level))
    if hit is None:
        hit = np.zeros((n, n), dtype=bool)
        for r, c in _placement(n)[_DATA_CODEWORDS[(n, level)] * 8:_TOTAL_CODEWORDS[n] * 8]:
            hit[r, c] = True
        hit.flags.writeable = False
        _ec_masks[(n, level)] = hit
    return hit


EDGE_MM = 0.1              # a finder this near the edge of its search was stopped by it


def _looked_farther(found: list, reach: float, module: float) -> bool:
    """Whether a code's finders found within REACH mm are to be looked for farther (qr_reach): one
    lies at the search's edge (it may lie beyond), or they are shifted apart by more than a MODULE (one
    code's finders move together: some of them are look-alikes)."""
    at_edge = max(max(abs(f[0]), abs(f[1])) for f in found) >= reach - EDGE_MM
    xs, ys = [f[0] for f in found], [f[1] for f in found]
    return at_edge or max(max(xs) - min(xs), max(ys) - min(ys)) > module


def soft_modules(gray: np.ndarray, loc, blur_mm: float) -> list[tuple[int, np.ndarray]]:
    """(n, darkness of each module less the dark/light threshold: > 0 reads dark) for each code
    size whose finder patterns are where the sheet put them, sampled as image.read_qr_grid does
    (the finders' shifts put the grid right; the blur measured on the markers undone)."""
    w, h = loc.size
    qx, qy, qs, _ = SM.qr_box(w, h)
    k = 10.0
    reaches = qr_reach(loc)
    crop, origin = qr_crop(gray, loc, k, reaches[-1] + 1.0)
    src = crop.astype(np.float32)
    out = []
    for n in (21, 25):
        for reach in reaches:
            found = finders_found(src, (qx, qy, qs), origin, k, n, blur_mm, reach)
            if not found or not _looked_farther(found, reach, qs / n):
                break
        if not found or min(f[2] for f in found) < 0.3:
            continue
        m = qs / n
        t, darkness = grid_darkness(src, found, (qx, qy, qs), origin, k, n)
        known, dark = function_modules(n)
        for spread in (1.0, 1.3):
            F = module_footprints(t, n, spread * blur_mm / m)
            P = np.linalg.solve(F.T @ F + 0.01 * np.eye(n), F.T)
            modules = P @ darkness @ P.T
            level = (np.median(modules[known & dark]) + np.median(modules[known & ~dark])) / 2
            scale = max(float(np.median(modules[known & dark]) - level), 1e-6)
            out.append((n, (modules - level) / scale))
    return out


def _agreement(soft: np.ndarray, code: np.ndarray, known: np.ndarray) -> float:
    """How well the photo's modules agree with a code, -1 .. 1: each module the codes do not all
    have fixed counts by how clearly it reads (its darkness from the threshold, capped), for the code
    where it reads the code's bit, against it where not."""
    free = ~known
    s = np.clip(soft[free], -1.5, 1.5)
    return float((s * np.where(code[free], 1.0, -1.0)).sum() / max(float(np.abs(s).sum()), 1e-9))


def candidates(layout, sheet_ref: str | None = None, options: tuple = (), seen: bool = True) -> list[str]:
    """The texts the code could hold: this run's sheets, --sheet's, every built-in pencil sheet on
    the paper the markers say (seeds 1 to 3, with the options given, and with none: how `sheetgen
    build NAME` prints it), then with each value of the options its game's scanner lists
    (GameScanner.printed_options: the hero a sheet was printed for).  seen False: not this run's
    sheets (the built-in candidates alone, whose codes ship: tests/tools/make_prebuilt.py)."""
    paper = layout[0] if layout else None
    sheets = _pencil_sheets(sheet_ref)
    if sheet_ref is not None:
        sheets = sheets[:1]         # --sheet says which sheet: only its seed and options are asked
    names = [name for name, _ in sheets]
    texts = [text for text, ident in reversed(_seen.items()) if seen and (paper is None or ident.paper == paper)
             and (sheet_ref is None or ident.definition in names)]
    opts = tuple(sorted((k, str(v)) for k, v in options if v is not None))
    papers = [paper] if paper else ["a4", "letter"]
    # seeds 2 and 3 too: sheets printed so, and a check on the rest (a sheet whose seed is none of
    # these matches seeds 1, 2 and 3 alike, and no one of them is clearly ahead)
    for name, _ in sheets:
        for p in papers:
            for seed in SEEDS:
                texts.append(SheetIdentity(name, paper=p, seed=seed, options=opts).encode())
                if opts:
                    texts.append(SheetIdentity(name, paper=p, seed=seed).encode())
    given = {k for k, _ in opts}
    for name, listed in sheets:
        for key, values in listed.items():
            if key in given:
                continue            # the value given is the one asked for above
            for value in values:
                for p in papers:
                    for seed in SEEDS:
                        more = tuple(sorted(opts + ((key, value.lower()),)))
                        texts.append(SheetIdentity(name, paper=p, seed=seed, options=more).encode())
    return list(dict.fromkeys(texts))


_pencil: list | None = None


def _pencil_sheets(sheet_ref: str | None) -> list[tuple[str, Mapping[str, tuple[str, ...]]]]:
    """(definition, the options its game's scanner lists) for --sheet's definition first (its
    name, or its content hash), then the built-in sheets a game's scanner reads."""
    global _pencil
    out: list[tuple[str, Mapping[str, tuple[str, ...]]]] = []
    if sheet_ref is not None:
        try:
            from ..definitions.registry import load
            from .sheet import definition_of
            out.append((definition_of(load(sheet_ref)), {}))
        except Exception:  # noqa: BLE001 - a --sheet that does not load is said by rebuild, not here
            return []
    if _pencil is None:
        from ..definitions.builtins import builtin_info
        from ..definitions.registry import games
        listed = {name: game.module("scanner").SCANNER.printed_options()
                  for name, game in games().items() if game.scanner}
        _pencil = [(info.name, listed[info.ruleset]) for info in builtin_info()
                   if getattr(info, "ruleset", None) in listed] or [(info.name, {}) for info in builtin_info()]
    return out + _pencil


def spelled(soft: np.ndarray) -> str | None:
    """The text the modules spell read without error correction (alphanumeric mode, versions 1
    and 2), or None when no format information is near: a guess to put right, never the answer."""
    n = soft.shape[0]
    bits = soft > 0
    fmt = _format_of(bits)
    if fmt is None:
        return None
    level, mask = fmt
    data_cw = _DATA_CODEWORDS.get((n, level))
    if data_cw is None:
        return None
    stream = _codewords(bits, n, mask)[:data_cw * 8]
    if len(stream) < 13 or stream[:4] != [0, 0, 1, 0]:
        return None
    count = int("".join(map(str, stream[4:13])), 2)
    pos, out = 13, []
    while len(out) < count and pos + 6 <= len(stream):
        if count - len(out) >= 2 and pos + 11 <= len(stream):
            v = int("".join(map(str, stream[pos:pos + 11])), 2)
            pos += 11
            out += [_ALNUM[min(v // 45, 44)], _ALNUM[v % 45]]
        else:
            v = int("".join(map(str, stream[pos:pos + 6])), 2)
            pos += 6
            out.append(_ALNUM[min(v, 44)])
    return "".join(out[:count])


_DATA_CODEWORDS = {(21, "L"): 19, (21, "M"): 16, (21, "Q"): 13, (21, "H"): 9,
                   (25, "L"): 34, (25, "M"): 28, (25, "Q"): 22, (25, "H"): 16}
_TOTAL_CODEWORDS = {21: 26, 25: 44}
_FORMAT_MASK = 0b101010000010010


def _format_words() -> dict:
    out = {}
    for li, level in enumerate(("M", "L", "H", "Q")):
        for mask in range(8):
            data = (li << 3) | mask
            rem = data << 10
            for i in range(14, 9, -1):
                if rem & (1 << i):
                    rem ^= 0b10100110111 << (i - 10)
            out[((data << 10) | rem) ^ _FORMAT_MASK] = (level, mask)
    return out


_FORMATS = _format_words()


def _format_of(bits: np.ndarray) -> tuple[str, int] | None:
    """(error level, mask) from the format information by the top-left finder (the nearest valid
    word; None beyond 3 bits off)."""
    coords = [(8, c) for c in (0, 1, 2, 3, 4, 5, 7, 8)] + [(r, 8) for r in (7, 5, 4, 3, 2, 1, 0)]
    word = 0
    for r, c in coords:
        word = (word << 1) | int(bits[r, c])
    best = min(_FORMATS, key=lambda w: bin(w ^ word).count("1"))
    return _FORMATS[best] if bin(best ^ word).count("1") <= 3 else None


_MASKS = [lambda r, c: (r + c) % 2 == 0, lambda r, c: r % 2 == 0, lambda r, c: c % 3 == 0,
          lambda r, c: (r + c) % 3 == 0, lambda r, c: (r // 2 + c // 3) % 2 == 0,
          lambda r, c: (r * c) % 2 + (r * c) % 3 == 0, lambda r, c: ((r * c) % 2 + (r * c) % 3) % 2 == 0,
          lambda r, c: ((r + c) % 2 + (r * c) % 3) % 2 == 0]


_placements: dict = {}


def _placement(n: int) -> list[tuple[int, int]]:
    """The modules that carry codewords, in the code's placement order (two columns at a time,
    upwards and downwards, from the bottom right)."""
    if n not in _placements:
        known, _ = function_modules(n)
        known = known.copy()
        known[:9, :9] = known[:9, n - 8:] = known[n - 8:, :9] = True       # finders and format information
        known[6, :] = known[:, 6] = True
        out = []
        col, upward = n - 1, True
        while col > 0:
            if col == 6:
                col -= 1
            for r in (range(n - 1, -1, -1) if upward else range(n)):
                for c in (col, col - 1):
                    if not known[r, c]:
                        out.append((r, c))
            upward = not upward
            col -= 2
        _placements[n] = out
    return _placements[n]


def _codewords(bits: np.ndarray, n: int, mask: int) -> list[int]:
    """The data bits in the code's placement order, unmasked."""
    return [int(bits[r, c]) ^ int(_MASKS[mask](r, c)) for r, c in _placement(n)]


def _put_right(text: str, layout, names: list[str]) -> list[str]:
    """Texts a misread spelling could be: each part put right to the nearest name it could be (the
    definition to a built-in sheet's, the paper to the markers', the seed to digits)."""
    import difflib
    parts = text.split("/")
    if len(parts) < 4:
        return []
    upper = {name.upper(): name for name in names}
    defs = [parts[1]] + difflib.get_close_matches(parts[1], list(upper), n=2, cutoff=0.5)
    paper = "A4" if not layout or layout[0] == "a4" else "LT"
    seed = "S" + ("".join(ch for ch in parts[3][1:] if ch.isdigit()) or "1")
    out = []
    for d in dict.fromkeys(defs):
        for s in dict.fromkeys([seed, "S1"]):
            out.append("/".join(["SG1", d, paper, s, *parts[4:]]))
    return out


def identify(gray: np.ndarray, loc, blur_mm: float, sheet_ref: str | None = None,
             options: tuple = ()) -> tuple[SheetIdentity | None, str]:
    """(the identity, how sure: 'agreement 0.93, next 0.55') or (None, why not) when no candidate
    is clearly the code in the photo."""
    readings = soft_modules(gray, loc, blur_mm)
    if not readings:
        return None, "no QR code's finder patterns where the sheet prints them"
    layout = loc.layout
    texts = candidates(layout, sheet_ref, options)
    if sheet_ref is None:
        names = [name for name, _ in _pencil_sheets(None)]
        for _, soft in readings:
            guess = spelled(soft)
            if guess:
                texts += _put_right(guess, layout, names)
    best, how = choose(readings, texts)
    keep_drawn_codes()
    if best is None:
        return None, how
    try:
        return SheetIdentity.decode(best), how
    except ValueError:
        return None, how


def choose(readings: list[tuple[int, np.ndarray]], texts: list[str]) -> tuple[str | None, str]:
    """(the text among TEXTS whose code the modules read (soft_modules) are, or None; how sure)."""
    texts = list(dict.fromkeys(texts))
    scores: dict[str, tuple[float, float]] = {}
    for n, soft in readings:
        known, _ = function_modules(n)
        for text in texts:
            try:
                code, ec = code_of(text)
            except Exception:  # noqa: BLE001 - a guess segno cannot draw is no candidate
                continue
            if code.shape[0] == n:
                got = (_agreement(soft, code, known), _agreement(soft, code, ~ec))
                if got > scores.get(text, (-2.0, -2.0)):
                    scores[text] = got
    if not scores:
        return None, "no candidate sheet's code has the size of the one in the photo"
    ranked = sorted(scores.items(), key=lambda kv: -kv[1][0])
    best, (agree, ec) = ranked[0]
    runner = ranked[1][1][0] if len(ranked) > 1 else 0.0
    how = f"agreement {agree:.2f} (error correction {ec:.2f}), next {runner:.2f}"
    # a text one character from the code's (another seed) agrees on its data as well as the code's
    # own, but its error-correction codewords are wholly other: they must agree too
    if agree < MIN_AGREEMENT or ec < max(MIN_EC_AGREEMENT, agree - EC_SHORT) or agree - runner < MIN_MARGIN:
        return None, how
    return best, how
