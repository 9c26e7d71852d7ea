"""One photo from file to a ScanResult: find the sheet, read its code, compose it again,
read every region its game names, and check what it shows."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..draw.scanmarks import SheetIdentity
from ..errors import InputError, Problem
from . import image as I
from .contract import BOX, CROSSED, EMPTY, FILL, FILLED, MARKED, RegionReading, ScannedSheet
from .identify import identify, remember
from . import prepared
from .read import GREY, Page, Plan, read_regions
from .sheet import Kept, definition_key, forget_template, rebuild, template


@dataclass
class ScanResult:
    photo: str
    sheet: ScannedSheet
    identity_from: str                          # 'QR code', MATCHED or '--sheet'
    location: Any                               # image.Location
    quality: Any                                # image.Quality
    readings: dict[str, RegionReading]
    view: Any
    violations: list                            # what the paper breaks (sheetgen.games.base.Violation)
    record: str | None = None                   # the --log / --journal the paper was compared with
    differences: list = field(default_factory=list)
    record_violations: list = field(default_factory=list)   # the record's own verdict (as `sheetgen check`)
    record_readings: list = field(default_factory=list)
    seconds: float = 0.0
    finding: float = 0.0                        # seconds from the photo to the page rectified (markers,
                                                # quality, QR code, rectify; the sheet's rebuild left out)
    corrections: list = field(default_factory=list)     # a person's (review.Correction), from --review
    confirmed: list = field(default_factory=list)       # region ids a person said read right (--review)
    page: Any = None                            # read.Page (the rectified photo and its darkness)
    gray: Any = None
    colour: Any = None
    scanner: Any = None                         # the game's (contract.GameScanner): what the view rests on
    _moot: frozenset | None = field(default=None, repr=False, compare=False)

    @property
    def rules_hold(self) -> bool:
        """The paper as read breaks no rule and differs from no record (its readings taken as read)."""
        return not self.violations and not self.differences and not [
            v for v in self.record_violations if not getattr(v, "consequence", False)]

    @property
    def consistent(self) -> bool:
        """Consistent, and every reading it rests on sure: a misread region read with doubt must not
        let the checker say "consistent" (a false "consistent" is the worst a checker can say)."""
        return self.rules_hold and not self._any_unsure()

    @property
    def unconfirmed(self) -> bool:
        """Consistent as read, if the unsure regions read right: a person is to check them."""
        return self.rules_hold and self._any_unsure()

    def _any_unsure(self) -> bool:
        """unsure() is not empty (asked for each verdict: not sorted for it)."""
        moot = self.moot()
        return any(_unsure(r) and r.region.id not in moot for r in self.readings.values())

    def moot(self) -> frozenset:
        """The uncertain regions the view does not rest on (moot_regions): whatever they read, the paper
        shows the same, so no verdict waits on them.  Worked out once; review's recheck starts it again."""
        if self._moot is None:
            self._moot = moot_regions(self.scanner, self.sheet, self.readings, self.view) \
                if self.scanner is not None else frozenset()
        return self._moot

    def reread(self, readings: dict[str, RegionReading]) -> None:
        """The readings changed (a person's correction): the view, the rules' verdict and the moot
        regions worked out again for them (a record, if any, is the caller's to compare again)."""
        self.readings = readings
        self.view = self.scanner.interpret(self.sheet, readings)
        self.violations = self.scanner.check(self.sheet, self.view)
        self._moot = None

    @property
    def verdict(self) -> str:
        return "consistent" if self.consistent else UNCONFIRMED if self.unconfirmed else "not consistent"

    @property
    def exit_code(self) -> int:
        return 0 if self.consistent else EXIT_UNCONFIRMED if self.unconfirmed else 1

    def otherwise(self, reading: RegionReading) -> list[tuple[str, list]]:
        """For READING (an unsure region), each other value it could have had and what the rules find on the
        paper read so, every other region as read, that they do not find on it as read: ([]: the rules hold
        either way).  What a person checking the region decides; the play record is not asked."""
        from dataclasses import replace
        if self.scanner is None:
            return []
        before = {v.message for v in self.violations}
        trial = dict(self.readings)
        out = []
        for value in _other_values(reading.region.kind, reading.value):
            trial[reading.region.id] = replace(reading, value=value)
            found = self.scanner.check(self.sheet, self.scanner.interpret(self.sheet, trial))
            out.append((value, [v for v in found if v.message not in before]))
        return out

    def uncertain(self) -> list[RegionReading]:
        return sorted((r for r in self.readings.values() if r.uncertain), key=lambda r: (r.confidence, r.region.id))

    def unsure(self) -> list[RegionReading]:
        """The uncertain regions the photo could have shown (not those the print hides on every photo)
        and the view rests on (not moot): what "consistent" waits on."""
        moot = self.moot()
        return [r for r in self.uncertain() if _unsure(r) and r.region.id not in moot]


def _unsure(reading: RegionReading) -> bool:
    """Uncertain where the photo could have shown a mark: what ScanResult.unsure lists (unless moot)."""
    return reading.uncertain and not reading.unreadable


def _other_values(kind: str, value: str) -> list[str]:
    """The readings a region of KIND could have had instead of VALUE."""
    values = (EMPTY, CROSSED, FILLED) if kind == BOX else (EMPTY, FILLED) if kind == FILL else (EMPTY, MARKED)
    return [v for v in values if v != value]


# a reading with more uncertain regions than this is checked by a person whatever: none is asked whether it
# is moot (each asks the game's interpret again, once for each other reading it could have had)
MOOT_MOST = 12


def moot_regions(scanner, sheet: ScannedSheet, readings: dict, view) -> frozenset:
    """The uncertain regions (the photo could have shown them) whose every other reading gives the very
    same view (the game's interpret), alone and all of them at once: whatever they read, the paper shows
    the same, so the rules and a record hold or fail alike, and a verdict of "consistent" does not rest
    on them (a visited dot in a room a path runs into: the path shows the room visited).  A false
    "consistent" cannot come of one: its view is the view either way.  Past MOOT_MOST uncertain regions,
    none is asked (none moot: the verdict waits on them all, as before)."""
    from dataclasses import replace
    unsure = [r for r in readings.values() if _unsure(r)]
    if not unsure or len(unsure) > MOOT_MOST:
        return frozenset()
    state = vars(view)
    moot = []
    trial = dict(readings)
    for r in unsure:
        for value in _other_values(r.region.kind, r.value):
            trial[r.region.id] = replace(r, value=value)
            if vars(scanner.interpret(sheet, trial)) != state:
                break
        else:
            moot.append(r)
        trial[r.region.id] = r
    if len(moot) > 1:
        # two that each stand for the other (each alone moot) are not moot together
        for pick in (0, -1):
            trial = dict(readings)
            for r in moot:
                trial[r.region.id] = replace(r, value=_other_values(r.region.kind, r.value)[pick])
            if vars(scanner.interpret(sheet, trial)) != state:
                return frozenset()
    return frozenset(r.region.id for r in moot)


# the sheet known by its QR code's modules matched against the codes of the sheets it could be
# (sheetgen.scan.identify), the code itself not decoding
MATCHED = "QR code (matched)"
UNCONFIRMED = "unconfirmed"     # the verdict: consistent as read, if the unsure regions read right
# its exit code: 1, the check did not pass (nothing is confirmed), in sheetgen's one scheme of exit
# codes (0 ok, 1 the rules or the record not shown to hold, 2 unusable input, 3 a bug); the verdict
# word and `to_check` tell it from a violation
EXIT_UNCONFIRMED = 1
_SEVERITY = {0: 0, 1: 2, 2: 3, 3: 4}


def worse(a: int, b: int) -> int:
    """The exit code of a run over photos ending a and b: a bug, an unusable photo, a violation or
    an unconfirmed reading, all consistent (the most serious one)."""
    return max(a, b, key=lambda code: _SEVERITY.get(code, 5))


# a sheet made ready weighs about 40 MB (its template, what read.Printed works out from it, its
# regions' sample points): a run keeps the sheets of its last photos up to this much, so a folder of
# photos of many sheets (the family corpus: nearly a sheet a photo) takes no more memory than about
# ten (a folder of 8 sheets read in turn keeps them all: a run that let them go made them again)
SHEETS_BUDGET = 384 * 2 ** 20


def _let_go(key, value) -> None:
    """A sheet no longer kept: its template and what was worked out from it go with it."""
    tmpl = value[2].template
    forget_template(tmpl)
    _greys.pop(id(tmpl), None)


_sheets = Kept(budget=SHEETS_BUDGET, on_drop=_let_go)   # the sheet's identity -> (sheet, scanner, SheetPlan)
_asked = Kept(1024)       # what a photo asked for (its QR code, --sheet, layout, options) -> the sheet's identity


def forget_sheets() -> None:
    """The run lets go of every sheet it made ready (as a new process has none)."""
    for key, value in list(_sheets.items.items()):
        _let_go(key, value)
    _sheets.clear()
    _asked.clear()


def _asked_key(identity, sheet_ref, layout, options) -> tuple:
    """What a photo asks for (its code's identity, --sheet and its file's time, layout, options)."""
    asked: tuple = (identity.encode() if identity else None, sheet_ref, layout, tuple(options))
    if sheet_ref is not None:
        try:
            asked += (Path(sheet_ref).stat().st_mtime_ns,)
        except OSError:
            pass
    return asked


def has_sheet(asked: tuple) -> bool:
    """Whether this process has the sheet ASKED (Found.wanted) ready."""
    return _sheets.get(_asked.get(asked)) is not None


def _rebuilt(identity, sheet_ref, layout, options):
    """rebuild() once per sheet for the run, with its scanner and regions (many photos of one
    sheet; a photo whose QR code reads and one named by --sheet share them)."""
    asked = _asked_key(identity, sheet_ref, layout, options)
    hit = _sheets.get(_asked.get(asked))
    if hit is None:
        sheet = rebuild(identity, sheet_ref, layout, options)
        key = (sheet.identity.encode(), definition_key(sheet), layout)
        hit = _sheets.get(key)
        if hit is None:
            scanner = scanner_for(sheet)
            plan = SheetPlan(scanner, sheet)
            hit = _sheets.put(key, (sheet, scanner, plan), plan.weight())
        _asked.put(asked, key)
    return hit


class SheetPlan:
    """How a sheet's regions are read: the Plan of all but the scanner's deferred ones (made once),
    and those read only where the scanner wants them for a photo (a small Plan each time)."""

    def __init__(self, scanner, sheet: ScannedSheet):
        made = prepared.ready(scanner, sheet)       # from the user cache where an earlier run kept it
        self.template, regions, self.plan = made.template, made.regions, made.plan
        shape, page_mm = self.template.shape[:2], (sheet.page.width, sheet.page.height)
        self.deferred = {r.id: r for r in regions if r.role in scanner.deferred}
        self.shape, self.page_mm = shape, page_mm
        self.scanner, self.sheet = scanner, sheet

    def weight(self) -> int:
        """About the bytes the run keeps for the sheet: its template, twice (read.Printed works out
        arrays as big from it), and its regions' sample points."""
        total = 2 * self.template.nbytes
        for value in vars(self.plan).values():
            for part in (value, *(vars(value).values() if hasattr(value, "__dict__") else ())):
                if isinstance(part, np.ndarray):
                    total += part.nbytes
        return total

    def read(self, page: Page) -> dict[str, RegionReading]:
        """Every region read on the page but the deferred ones the scanner does not want for it."""
        readings = read_regions(page, self.plan)
        if self.deferred:
            wanted = [self.deferred[i] for i in sorted(self.scanner.wanted(self.sheet, readings))
                      if i in self.deferred]
            if wanted:
                readings.update(read_regions(page, Plan(wanted, self.shape, self.page_mm)))
        return readings


def scanner_for(sheet: ScannedSheet):
    from ..definitions.registry import games
    ruleset = sheet.loaded.ruleset
    game = games().get(ruleset) if ruleset else None
    if game is None or not game.scanner:
        raise InputError(Problem(f"{sheet.identity.describe()} is not a sheet played with a pencil: "
                                 "nothing on it to read", path="--sheet"))
    scanner = game.module("scanner").SCANNER
    if not scanner.playable(sheet.loaded):
        raise InputError(Problem(f"{sheet.identity.describe()} is not a sheet played with a pencil: "
                                 "nothing on it to read", path="--sheet"))
    return scanner


def _no_markers(gray: np.ndarray, photo: str, markers: I.Markers) -> InputError:
    paper, contrast, spread = I.whole_photo_quality(gray)
    if paper < I.MIN_PAPER or contrast < I.MIN_CONTRAST:
        return InputError(Problem(f"too dark to find the sheet: the brightest part reads {paper:.0f}/255 and the "
                                  f"contrast is {contrast:.0f}/255", photo,
                                  expected=f"paper at least {I.MIN_PAPER}/255 and contrast at least "
                                  f"{I.MIN_CONTRAST}/255 (more light)"))
    if spread > 3.0:
        return InputError(Problem(f"too blurred to find the sheet's markers: edges are spread over {spread:.1f} px "
                                  "(sigma)", photo, expected="at most 2 px (hold the phone still and let it focus)"))
    most, least = I.whole_photo_smear(gray)
    # a shake: spread one way as a focus blur past the limit above is, and much more than the other
    # (check_quality's test of the markers' edges per direction)
    if most > 3.0 and most > 1.6 * least:
        return InputError(Problem(f"too blurred to find the sheet's markers: the phone moved: edges are spread over "
                                  f"{most:.1f} px one way and {least:.1f} px the other (sigma)", photo,
                                  expected="at most 2 px (hold the phone still: lean on the table, or use more light)"))
    what = "no sheetgen corner markers and no QR code found"
    if markers.foreign:
        what += f" ({markers.foreign} marker{'s' if markers.foreign > 1 else ''} of another kind)"
    return InputError(Problem(f"{what}: not a sheetgen sheet, or printed with --no-scan-marks", photo,
                              expected="a photo of a sheet sheetgen printed; if it is one, name it: "
                              "--sheet NAME or --sheet FILE"))


def _by_outline(gray, photo: str, sheet_ref: str, options=()) -> tuple[I.Location, ScannedSheet]:
    """No markers but --sheet: the page's outline, the right way up by the template."""
    sheet = rebuild(None, sheet_ref, None, options)
    page = sheet.page
    candidates = I.locate_page(gray, photo, (page.width, page.height))
    if not candidates:
        raise InputError(Problem("no corner markers, and the page's outline cannot be found either", photo,
                                 expected="the whole sheet in view on a darker table"))
    tmpl = template(sheet).mean(axis=2)
    best, score = None, -2.0
    for loc in candidates:
        rect = I.rectify(gray, loc, tmpl.shape[:2]).astype(np.float32)
        c = float(np.corrcoef(rect.ravel()[::7], tmpl.ravel()[::7])[0, 1])
        if c > score:
            best, score = loc, c
    return best, sheet


# the QR code's decoder is given this many tries (a spread of the blur and a ridge each) before the code's
# modules are matched to the sheets it could be: a code that decodes mostly does at its first or second
# try, one that does not takes 20 to 40 (about 50 ms), where the match takes about 10
QR_FIRST_TRIES = 3


def scan_photo(photo: str | Path, sheet_ref: str | None = None, record: str | None = None,
               keep_images: bool = False, img: np.ndarray | None = None, options: tuple = ()) -> ScanResult:
    """Read one photo (or an image already decoded: img) and check it; sheet_ref and options
    (game options such as ('hero', 'kael')): the sheet when its QR code cannot be read;
    record: a play log path to compare the paper with.  InputError (exit 2) for a photo that
    cannot be read."""
    found, img, gray = find_in_photo(photo, sheet_ref, options, img)
    return read_found(found, img, gray, sheet_ref, options, record=record, keep_images=keep_images)


def find_in_photo(photo: str | Path, sheet_ref: str | None = None, options: tuple = (),
                  img: np.ndarray | None = None) -> tuple["Found", np.ndarray, np.ndarray]:
    """(what find_sheet finds in the photo, the photo decoded, its grey), its decoding's time in the
    Found; IMG: the photo already decoded."""
    start = time.perf_counter()
    img, gray = photo_images(photo, img)
    decoding = time.perf_counter() - start
    found = find_sheet(photo, gray, sheet_ref, options, img=img)
    found.decoding = decoding
    return found, img, gray


def photo_images(photo: str | Path, img: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(the photo decoded, its grey); IMG: the photo already decoded."""
    if img is None:
        img = I.load_photo(str(photo))
    return img, cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img


@dataclass
class Found:
    """A photo's page and sheet as the photo alone tells them, before the sheet is made ready
    (find_sheet): a `scan --jobs` run hands it to the worker that has that sheet ready already."""
    photo: str
    location: Any                               # image.Location
    quality: Any                                # image.Quality, or None: no markers to measure it on
    identity: SheetIdentity | None              # None: the sheet named by --sheet
    identity_from: str
    seconds: float                              # spent finding it (the sheet's rebuild left out)
    outline_sheet: ScannedSheet | None = None   # no markers: the --sheet the page was found by
    decoding: float = 0.0                       # seconds decoding the photo took (scan_photo's)

    def read_by_code(self) -> SheetIdentity | None:
        """The identity the photo's QR code gave (what identify.remember keeps for the run's other
        photos), or None: matched, or named by --sheet."""
        return self.identity if self.identity_from == "QR code" else None

    def wanted(self, sheet_ref: str | None, options: tuple) -> tuple | None:
        """What read_found asks _rebuilt for: photos wanting the same read by one sheet made ready
        (None: a page found by its outline, whose sheet is made for it alone)."""
        if self.outline_sheet is not None:
            return None
        return _asked_key(self.identity, sheet_ref, self.location.layout, options)


def find_sheet(photo: str | Path, gray: np.ndarray, sheet_ref: str | None = None, options: tuple = (),
               img: np.ndarray | None = None) -> Found:
    """The page in the photo (its corner markers, else its outline with --sheet), how sharp and
    light it is, and which sheet it is (its QR code, else its modules matched, else --sheet).
    InputError (exit 2) where the photo cannot tell them.  IMG: the photo in colour (the markers
    are placed on it to the sub-pixel; the grey does where it is not given)."""
    start = time.perf_counter()
    photo = str(photo)
    markers = I.find_markers(gray)
    if markers.layout is None or (len(markers.corners) < 2 and sheet_ref is not None):
        if sheet_ref is None:
            raise _no_markers(gray, photo, markers)
        loc, sheet = _by_outline(gray, photo, sheet_ref, options)
        # no markers to measure the quality on: the page against its template (read_found)
        return Found(photo, loc, None, None, "--sheet", time.perf_counter() - start, outline_sheet=sheet)
    if len(markers.corners) < 2:
        I.check_one_marker(gray, markers, photo)        # the others lost to blur: say so, measured on it
        raise InputError(Problem(f"only the {', '.join(markers.corners)} corner marker found: the rest of the "
                                 "sheet is out of view or covered", photo,
                                 expected="a photo with all four corner markers in view"))
    loc = I.locate(img if img is not None else gray, gray, photo, markers)
    quality = I.measure_quality(gray, loc)
    I.check_quality(quality, photo)
    failed: set = set()
    text = I.read_qr(gray, loc, quality.softness, failed, most=QR_FIRST_TRIES)
    identity = None
    identity_from = "QR code"
    if not text:
        # the code did not decode at once: its modules matched against the codes of the sheets it could
        # be (a few ms), and only when none is known the decoder given the rest of its tries
        identity, how = identify(gray, loc, quality.softness, sheet_ref, options)
        identity_from = MATCHED
        if identity is None:
            text = I.read_qr(gray, loc, quality.softness, failed)
            identity_from = "QR code"
    if text:
        try:
            identity = SheetIdentity.decode(text)
        except ValueError as exc:
            raise InputError(Problem(f"the QR code says {text!r}: {exc}", photo)) from None
        remember(identity)
    elif identity is None and sheet_ref is None:
        raise InputError(Problem("the corner markers are there but the sheet's QR code cannot be read "
                                 f"(too small in the photo, blurred or covered?; matched against the "
                                 f"sheets it could be: {how})", photo,
                                 expected="--sheet NAME or --sheet FILE: the sheet the photo shows"))
    if identity is None:
        identity_from = "--sheet"
    return Found(photo, loc, quality, identity, identity_from, time.perf_counter() - start)


def read_found(found: Found, img: np.ndarray, gray: np.ndarray, sheet_ref: str | None = None,
               options: tuple = (), record: str | None = None, keep_images: bool = False) -> ScanResult:
    """The photo whose page and sheet FOUND are read and checked (scan_photo's second half)."""
    start = time.perf_counter()
    photo, loc, quality, identity_from = found.photo, found.location, found.quality, found.identity_from
    if found.outline_sheet is not None:
        sheet = found.outline_sheet
        scanner = scanner_for(sheet)
        plan = SheetPlan(scanner, sheet)
        rebuilt = 0.0
    else:
        rebuilt = time.perf_counter()
        sheet, scanner, plan = _rebuilt(found.identity, sheet_ref, loc.layout, options)
        rebuilt = time.perf_counter() - rebuilt
    tmpl = template(sheet)
    rect = I.rectify(gray, loc, tmpl.shape[:2])
    # without markers (lost to a shake, or none printed): the whole print against the template, where
    # a shake smears it one way more than the other (with markers, their edges per direction tell)
    blur = None
    if quality is None:
        blur = I.page_blur(rect, template_grey(tmpl), tmpl.shape[1] / sheet.page.width)
        # the page's blur measured against the template reads a little high on a sharp photo (the
        # camera's own resolution, a page found by its outline a pixel off): its lesser direction
        quality = I.Quality(min(blur[:2]) if blur else 0.0, float(np.percentile(rect, 95)), float(np.percentile(rect, 5)),
                            direction_mm=tuple(round(b, 3) for b in blur[:2]) if blur else (),
                            soft_mm=0.0)    # the reader models the print unsoftened here, as it always has
    if blur:
        quality.shake_mm = round(float(np.sqrt(max(0.0, max(blur) ** 2 - min(blur) ** 2))), 3)
    I.check_quality(quality, photo)
    finding = found.seconds + time.perf_counter() - start - rebuilt
    page = Page(rect, tmpl, (sheet.page.width, sheet.page.height), blur_mm=quality.softness,
                light_closing=scanner.light_closing)
    readings = scanner.refine(sheet, plan.read(page))
    view = scanner.interpret(sheet, readings)
    violations = scanner.check(sheet, view)
    result = ScanResult(photo, sheet, identity_from, loc, quality, readings, view, violations, finding=finding,
                        scanner=scanner)
    if record is not None:
        compare_with_record(result, scanner, record)
    result.seconds = found.decoding + found.seconds + time.perf_counter() - start
    if keep_images:
        result.page, result.gray, result.colour = page, gray, img
    return result


_greys: dict = {}


def template_grey(tmpl: np.ndarray) -> np.ndarray:
    """A template's grey, kept with it (many photos of one sheet)."""
    hit = _greys.get(id(tmpl))
    if hit is not None and hit[0] is tmpl:
        return hit[1]
    if len(_greys) >= 16:
        _greys.clear()
    grey = tmpl @ GREY
    _greys[id(tmpl)] = (tmpl, grey)
    return grey


def as_seen(scanner, result: ScanResult, expected):
    """What the paper would show of the record's final state to a scanner reading every region
    right: the game's view of the record's region readings, where a region could not be read
    (under dark print) the photo's own reading, and nothing of what no region can show (a wall
    where the sheet gives no place to pencil one).  The paper is held to this, not to more."""
    from .contract import RegionReading
    truth = scanner.expected_values(result.sheet, expected)
    seen = {}
    for rid, reading in result.readings.items():
        if reading.hidden or rid not in truth:
            seen[rid] = reading
        else:
            seen[rid] = RegionReading(reading.region, truth[rid], 1.0, 0.0, reading.visible)
    return scanner.interpret(result.sheet, seen)


def compare_with_record(result: ScanResult, scanner, record_path: str, label: str | None = None) -> None:
    """The paper against a play log: InputError when the log was played on another sheet."""
    record = scanner.load_record(record_path)
    why = scanner.mismatch(result.sheet, record)
    if why:
        raise InputError(Problem(f"the wrong sheet for this log: {why}", label or record_path,
                                 expected="the photo of the sheet the log was played on"))
    expected = scanner.expected(result.sheet, record)
    result.differences = scanner.compare(result.sheet, result.view, as_seen(scanner, result, expected))
    check = record.handler.check
    if check is not None:
        judgement = check(record.definition)
        result.record_violations = list(judgement.violations)
        result.record_readings = judgement.reading_names()
    result.record = label or record_path
