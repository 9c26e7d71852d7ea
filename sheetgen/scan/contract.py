"""What the scanner core and a game's scan side tell each other (the standard library only).

The core finds the page in a photo, rebuilds the very document that was printed
(`ScannedSheet`), and reads every `Region` a game names on it; the game's scan module
(`Game.scanner`, exposing `SCANNER`, a `GameScanner`) says which sheets are playable,
which regions its pages have (taken from the drawing model by their stable ids), what
the readings mean (a `SheetView`) and how they square with the rules and with a play
record.

Region kinds, each a way a pencil marks paper, with the fields of its shape (a Region's `shape`: BoxShape,
LineShape, DotShape, AreaShape, FillShape below; a game makes them by name, the optional ones in brackets):
    BOX   (x, y, w, h[, strokes]): a box crossed, filled (blacked out) or left empty; strokes: mm inside its
          outline, the window a cross's two strokes are read in (along its diagonals, against the box's
          own paper and print), None: its mean darkness decides
    LINE  (x1, y1, x2, y2, band[, black[, gap[, share[, twin[, as_printed[, centre[, ridge[, valley]]]]]]]]): a stroke along the segment (a wall, a path, a
          strike-through); black: the mm of black across the band that make a point of it penciled
          (None: an ordinary pencil line's);
          gap: the share of its middle not read (where another mark crosses it); share: the
          share of its length penciled from which it reads marked (None: half); twin: mm across
          (left of the direction x1,y1 -> x2,y2), a parallel line read with it: a point is penciled
          where both lines are (the two sides of a box, not one stroke beside them); as_printed: true, its points
          are seen where the print itself leaves paper a pencil shows on (not the print as the photo's blur
          softens it: pencil over an icon's small dark parts stays unseen, however blurred); centre: a
          point is penciled where the line's centre band is this much darker (of the paper's white)
          than the paper either side of it (sheetgen.scan.read: CENTRE_*), not by its darkness across
          the band (a thin faint stroke against the paper's unevenness, a shadow's edge, blur); ridge: true,
          a point is penciled only where its darkness across peaks inside the band, off its edges, and stands
          above them (ink reaching in from beside the band, a wide wash over it, is another mark's:
          sheetgen.scan.read: RIDGE_*); valley: true, a point counts where paper shows between two
          strokes across the band: a sample inside it lighter than the darkest on either side of it
          (the inside of a box drawn with wide strokes, not filled in; sheetgen.scan.read: valley_inside),
          its darkness aside
    DOT   (cx, cy, r): a dot or small circle (a visited room)
    AREA  (x, y, w, h[, mean[, around[, gap]]]): anything written there (a letter, a scribble); mean: the mean
          darkness from which it reads marked (None: the default); around: mm, the width of the strips of
          paper beside it (gap mm off, None: 0.2) it is measured against: its signed mean darkness less
          the median of theirs (a local baseline: a shadow's edge darkens both)
    FILL  (x, y, w, h[, mean[, dx, dy]]): a shape blacked out (a used arrow, a Fury box): marked when filled (its
          mean darkness from `mean`, None: the default); dx, dy: mm, its twin (the same shape moved so):
          the lesser of the two means is read (both halves of a box filled)
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Mapping, cast

if TYPE_CHECKING:               # for annotations only (this module stays the standard library's)
    import random

    from ..definitions.registry import Loaded

BOX, LINE, DOT, AREA, FILL = "box", "line", "dot", "area", "fill"
EMPTY, MARKED, CROSSED, FILLED = "empty", "marked", "crossed", "filled"


# -- a region's shape: its kind's geometry by name (the fields the docstring above lists) -------------

@dataclass(frozen=True, slots=True)
class BoxShape:
    """A BOX: its outline; strokes: mm inside it, the window a cross's strokes are read in (None: its
    mean darkness decides)."""
    x: float
    y: float
    w: float
    h: float
    strokes: float | None = None

    def bounds(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.x + self.w, self.y + self.h)


@dataclass(frozen=True, slots=True)
class LineShape:
    """A LINE: from (x1, y1) to (x2, y2), read across `band` mm (the rest: this module's docstring)."""
    x1: float
    y1: float
    x2: float
    y2: float
    band: float
    black: float | None = None          # mm of black across the band that make a point penciled
    gap: float | None = None            # the share of its middle not read
    share: float | None = None          # the share of its length penciled from which it reads marked
    twin: float | None = None           # mm across: the parallel line read with it
    as_printed: bool = False            # seen where the print itself leaves paper
    centre: float | None = None         # read by its centre band against its sides, from this contrast
    ridge: bool = False                 # a point counts only where its darkness peaks inside the band
    valley: bool = False                # a point counts where paper shows between two strokes across the band

    @property
    def ends(self) -> tuple[float, float, float, float]:
        """(x1, y1, x2, y2): the segment."""
        return (self.x1, self.y1, self.x2, self.y2)

    def bounds(self) -> tuple[float, float, float, float]:
        half = self.band / 2
        return (min(self.x1, self.x2) - half, min(self.y1, self.y2) - half,
                max(self.x1, self.x2) + half, max(self.y1, self.y2) + half)


@dataclass(frozen=True, slots=True)
class DotShape:
    """A DOT: its centre and radius."""
    cx: float
    cy: float
    r: float

    def bounds(self) -> tuple[float, float, float, float]:
        return (self.cx - self.r, self.cy - self.r, self.cx + self.r, self.cy + self.r)


@dataclass(frozen=True, slots=True)
class AreaShape:
    """An AREA: its rectangle; mean: its threshold (None: the default); around, gap: the strips of paper
    beside it it is measured against (around None or 0: none; gap None: 0.2 mm)."""
    x: float
    y: float
    w: float
    h: float
    mean: float | None = None
    around: float | None = None
    gap: float | None = None

    def bounds(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.x + self.w, self.y + self.h)


@dataclass(frozen=True, slots=True)
class FillShape:
    """A FILL: its rectangle; mean: its threshold (None: the default); dx, dy: its twin's offset (0, 0: none)."""
    x: float
    y: float
    w: float
    h: float
    mean: float | None = None
    dx: float = 0.0
    dy: float = 0.0

    def bounds(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.x + self.w, self.y + self.h)


Shape = BoxShape | LineShape | DotShape | AreaShape | FillShape
SHAPES: dict[str, type] = {BOX: BoxShape, LINE: LineShape, DOT: DotShape, AREA: AreaShape, FILL: FillShape}


def shape_of(kind: str, geometry: Shape | tuple[Any, ...]) -> Shape:
    """A region's shape: GEOMETRY itself where it is already its kind's Shape, else a tuple in the
    kind's field order made one (a None where a default is meant takes it)."""
    cls = SHAPES.get(kind)
    if cls is None:
        raise ValueError(f"unknown region kind {kind}")
    if isinstance(geometry, Shape):
        if not isinstance(geometry, cls):
            raise ValueError(f"a {kind} region with the shape of another kind: {geometry}")
        return geometry
    shape = cast(Shape, cls(*geometry))
    if isinstance(shape, LineShape):            # as_printed, ridge, valley: 1, True, None in the tuple
        return replace(shape, as_printed=bool(shape.as_printed), ridge=bool(shape.ridge), valley=bool(shape.valley))
    if isinstance(shape, FillShape):            # a twin's offset given as None: none
        return replace(shape, dx=shape.dx or 0.0, dy=shape.dy or 0.0)
    return shape


# -- a region's id parsed: what it is of, by its game's grammar ---------------------------------------

@dataclass(frozen=True, slots=True)
class RegionKey:
    """A region's id parsed once, by its game's grammar (the game's scan module makes it; a malformed
    id is a ValueError there): what every part of the game reads instead of splitting the id again.
    prefix: what the region is ('path', 'wall', 'track-hearts' ...); cells: the cells or squares it
    is of or between, in the id's order, as the game names them; side: the side of its first cell
    it lies on ('N', 'E', 'S', 'W', '' none); number: a box's number in its row; page: the sheet's
    prefix on a page of several sheets ('p2-', '' none); clear_of: for a part of a region clear of
    another region's mark, that region's key."""
    prefix: str
    cells: tuple[Any, ...] = ()
    side: str = ""
    number: int | None = None
    page: str = ""
    clear_of: RegionKey | None = None


@dataclass(frozen=True, slots=True)
class Region:
    """One place a player may mark: id (the drawing model's id where it has one), kind (BOX,
    LINE, DOT, AREA, FILL), shape (its kind's Shape, in page mm: a tuple in the kind's field order is
    taken too), role (what it is for the game: 'wall', 'track box', ...: misreads are counted by
    role) and key (its id parsed by the game that made it; None where no game did)."""
    id: str
    kind: str
    shape: Shape
    role: str
    key: RegionKey | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.shape, SHAPES.get(self.kind, ())):
            object.__setattr__(self, "shape", shape_of(self.kind, self.shape))

    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in mm."""
        return self.shape.bounds()


@dataclass(frozen=True, slots=True)
class RegionReading:
    """What the scanner read in a region: value (EMPTY, MARKED, or for a BOX CROSSED / FILLED),
    confidence 0..1 (how far the measure was from the nearest decision threshold) and the
    measure itself (score: the pencil's darkness, in the region's own unit)."""
    region: Region
    value: str
    confidence: float
    score: float
    visible: float = 1.0        # the share of the region where pencil would show (0: all under dark print)

    @property
    def marked(self) -> bool:
        return self.value != EMPTY

    @property
    def uncertain(self) -> bool:
        return self.confidence < UNCERTAIN

    @property
    def hidden(self) -> bool:
        """Nothing could be read: the region is (almost) all under dark print."""
        return self.visible < HIDDEN

    @property
    def unreadable(self) -> bool:
        """The print, not the photo, keeps it from being read: hidden, or an AREA too little seen
        between print to tell a letter (it reads empty at confidence 0 on every photo of the sheet)."""
        return self.hidden or (self.region.kind == AREA and self.visible < AREA_FEW_SEEN)

    @property
    def unsure(self) -> bool:
        """Uncertain where the photo could have shown it: what a verdict of "consistent" hangs on."""
        return self.uncertain and not self.unreadable


HIDDEN = 0.25
AREA_FEW_SEEN = 0.5      # an area less seen than this (under print) cannot be read: empty, unsure


UNCERTAIN = 0.5          # readings below this confidence are listed as uncertain


@dataclass
class ScannedSheet:
    """The sheet a photo shows, composed again: the loaded definition (a registry Loaded), the
    build options it was printed with, the page, and its identity (sheetgen.draw.scanmarks)."""
    loaded: Any
    options: Any
    page: Any
    identity: Any
    document: Any = None


class SheetView(ABC):
    """What a scanned sheet shows, in the game's own terms (resources, walls, rooms ...)."""

    @abstractmethod
    def as_dict(self) -> dict:
        """The view as plain data (the `shows:` of a sheetscan file)."""


@dataclass
class Difference:
    """One way the paper and the play record disagree, named for a person."""
    what: str                   # a stable key ('hearts', 'wall D4:N', ...)
    message: str                # "paper: hearts 3, log: 4"
    regions: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict:
        return {"what": self.what, "message": self.message}


@dataclass(frozen=True)
class IllegalMark:
    """Marks that break one of a game's rules on a sheet showing a given state, for the photo simulator
    (GameScanner.illegal_marks): the paper's check must flag them, naming the rule and the place."""
    marks: tuple            # GameScanner.tamper's marks, e.g. (('wall', 'D4:S'),)
    rules: tuple            # the ids of the rules they break (a violation's `rule`: any one named will do)
    place: str              # what the violation's message names the place by ('D4', '3,7:S')
    regions: tuple = ()     # the ids of the regions they are read in (under print on every photo: nothing to read)


class GameScanner(ABC):
    """A game's scan side: `SCANNER` in the module `Game.scanner` names."""

    game: str = ""
    # the light evened out by the closing of the paper's brightness (a soft shadow's edge kept where
    # it is: sheetgen.scan.read.Page._even_light), not by its local maximum alone
    light_closing: bool = False
    # roles of regions only refine reads, and only where the first readings call for them (a part of
    # a region clear of another mark's ink): read after the others, just those `wanted` names
    deferred: tuple[str, ...] = ()

    @abstractmethod
    def playable(self, loaded: Loaded) -> bool:
        """Is this definition's sheet played on with a pencil (does it get scan marks)?
        Called at build time: must stay cheap and import nothing heavy."""

    @abstractmethod
    def regions(self, sheet: ScannedSheet) -> list[Region]:
        """Every region a player may mark on the page, from the drawing model."""

    def printed_options(self) -> Mapping[str, tuple[str, ...]]:
        """The game options a printed sheet of this game may carry in its QR code, with every value
        each takes (`build --hero kael`): an unreadable code is matched against them too
        (sheetgen.scan.identify).  Only options with a few values belong here.  By default none."""
        return {}

    def wanted(self, sheet: ScannedSheet, readings: Mapping[str, RegionReading]) -> set[str]:
        """The ids of the deferred regions refine will consult, given the readings of all the
        others: at least every one it would (a superset reads the same: each region is measured on
        its own).  By default none."""
        return set()

    def refine(self, sheet: ScannedSheet, readings: dict[str, RegionReading]) -> dict[str, RegionReading]:
        """Readings decided again where a measure alone is weak and the marks around it tell
        (a faint path between two visited rooms): the game's knowledge of how its sheet is
        penciled.  A changed reading keeps its low confidence (it stays listed as uncertain).
        By default nothing changes."""
        return readings

    def place(self, region: Region) -> str:
        """Where a player finds the region on the paper, in a few words ('the path between rooms C4 and
        D4'): what a person is asked to check is named so, beside its id.  By default its role and id."""
        return f"{region.role} {region.id}"

    @abstractmethod
    def interpret(self, sheet: ScannedSheet, readings: Mapping[str, RegionReading]) -> SheetView:
        """What the readings (by region id) mean."""

    @abstractmethod
    def check(self, sheet: ScannedSheet, view: SheetView) -> list:
        """The rules a finished sheet can be held to: sheetgen.games.base.Violation list."""

    def load_record(self, path: str) -> Loaded:
        """A play log of this game (InputError for an unusable one, or a log of another game)."""
        from ..definitions.registry import find_game, load
        from ..errors import InputError, Problem
        loaded = load(path)
        if loaded.kind != "playlog" or loaded.ruleset != self.game:
            raise InputError(Problem(f"--log: a {loaded.kind} of {loaded.ruleset or 'the core'}, not a "
                                     f"{find_game(self.game).title} play log", str(path)))
        return loaded

    def mismatch(self, sheet: ScannedSheet, record: Loaded) -> str | None:
        """Why the record was not played on this sheet (None: it was)."""
        return None

    def expected(self, sheet: ScannedSheet, record: Loaded) -> SheetView:
        """What the sheet should show after the record."""
        raise NotImplementedError

    def compare(self, sheet: ScannedSheet, view: SheetView, expected: SheetView) -> list[Difference]:
        """Every way the paper and the record's final state differ."""
        raise NotImplementedError

    def expected_values(self, sheet: ScannedSheet, expected: SheetView) -> dict[str, str]:
        """Region id -> the reading the view implies (EMPTY, MARKED, CROSSED, FILLED): the
        ground truth of synthetic photos."""
        raise NotImplementedError

    def penciled(self, sheet: ScannedSheet, record: Loaded, rng: random.Random) -> tuple[Any, list]:
        """For the photo simulator: (the played sheet's Document with its pencil marks in a
        group id='pencil', erased marks as items of the faint residue)."""
        raise NotImplementedError

    def tamper(self, sheet: ScannedSheet, page: Any, marks: tuple) -> Any:
        """For the photo simulator: the page (penciled's Document) with marks the log does not explain
        added to its pencil group, in the game's own vocabulary (('wall', 'D4:S'), ...)."""
        raise NotImplementedError

    def illegal_marks(self, sheet: ScannedSheet, expected: SheetView, rng: random.Random) -> list[IllegalMark]:
        """For the photo simulator: one IllegalMark of each kind the game has, each breaking a rule on a
        sheet showing `expected`, placed clear of its other marks (rng picks where); none: no rule of the
        game is measured so (bench/bench_scan.py --families --illegal)."""
        return []
