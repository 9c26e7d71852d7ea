"""Every region of a rectified page measured and classified.

The printed page is known exactly (its template, sheetgen.scan.sheet.template), so the
pencil is what the photo has darker than the paper should be there:

0. alignment: tiles of the page matched with the template, a smooth field moves the photo
   onto it (a lens, paper not flat, another renderer's rounding);
1. lighting: the paper's white is estimated where the template is white (a max filter
   at 1 px a mm, blurred), and the photo divided by it: uneven light and shadows go;
2. tone: the photo's grey as a mix of the template's red, green and blue (a colour cast),
   then per grey bin the photo's TONE_PERCENTILE (the camera's tone curve; above the median,
   as pencil only darkens), blurred as much as the photo is: the page as this camera sees it;
3. darkness: how much darker the photo is than the darkest the expected page is within
   TOLERANCE mm (so a slightly misplaced printed line is not pencil), less a noise floor;
4. each region integrates the darkness in its own way (sheetgen.scan.contract): a BOX its
   mean inside the printed outline (and, where its geometry asks, the pencil along its diagonals:
   a cross's two strokes, `Page.strokes`), a LINE the share of its length where the darkness
   across its band is a pencil line's (where its geometry asks, with a ridge inside the band:
   `ridge_inside`; or, a LINE's `valley`, where paper shows between two strokes across it:
   `valley_inside`), a DOT the darkest dot-sized spot near its centre,
   an AREA its mean (or its signed mean less the paper's beside it).  Integrals of darkness
   keep their size under blur.  A region's geometry may carry its own decision (a LINE's
   share, an AREA's mean ...).

What the template alone decides is worked out once per template (`Printed`), where every
region is sampled once per sheet (`Plan`); a photo then costs whole-page array work and one
gather per kind of region, no Python per region but making its reading.
"""
from __future__ import annotations

import cv2
import numpy as np

from .contract import (AREA, AREA_FEW_SEEN, BOX, CROSSED, EMPTY, FILL, FILLED, HIDDEN, LINE, MARKED, UNCERTAIN,
                       Region, RegionReading)
from .confidence import GROUP
from .geometry import AreaShape, BoxShape, FillShape, LineShape
from .sheet import Kept

TOLERANCE = 0.4             # mm: how far a printed edge may be from where the template has it
TILE = 24.0                 # mm: the side of a tile the alignment matches
SEARCH = 4.0                # mm: how far a tile may have moved from where the homography puts it
VISIBLE = 0.4               # printed darker than this (of white), a pencil mark does not show
NOISE_FLOOR = 0.05          # of the paper's white: darkness below this is noise
LINE_NOISE_FLOOR = 0.03     # the same for a line's samples (its band averages nine of them)
TONE_SAMPLES = 40000        # pixels of the page the tone is fitted on (plain print of them)
TONE_PERCENTILE = 70       # the paper of a grey level: pencil only darkens, so above the median
# the decision thresholds, in each kind's own measure
BOX_CROSSED = 0.015         # mean darkness inside a box
BOX_FILLED = 0.42
LINE_PER_MM = 0.10          # darkness integrated across a line's band, in mm of black, at one point
LINE_MARKED = 0.5           # the share of a line's length the pencil covers
DOT_MARKED = 0.20           # the darkest dot-sized spot's mean darkness
AREA_MARKED = 0.05          # mean darkness of an area
FILL_MARKED = 0.30          # mean darkness of a shape blacked out
# a box read by a cross's strokes (Page.strokes): the pencil within STROKE_BAND mm of its diagonals
STROKE_BAND = 0.4           # mm either side of a diagonal (a stroke askew, wandering a little)
STROKE_FLOOR = 0.10         # of the paper's white: a rubber's residue, a dull patch of paper stay under it
STROKE_CROSSED = 0.015      # a blank box: its diagonals' darkness above the floor and the box's own paper
STROKE_PRINTED = 0.02       # the box's window this much darker than its lightest printed (a grey cross
                            # to pencil over, a digit; a tint is paper) ...
STROKE_CROSSED_PRINTED = 0.004   # ... is read by the darkness beyond its print along the diagonals (the
                                 # pencil over a printed stroke hardly shows; the print alone leaves none)
BOX_HEAVY = 0.15            # a box read by strokes is marked from this mean darkness, whatever the shape
# a line read by its centre band against its sides (a LINE's `centre`): a pencil line is darker along its
# middle than beside it, where the paper's unevenness, a shadow's edge, a print's blur or a stroke across
# the line darken both alike
CENTRE_HALF = 0.2           # mm either side of the line's middle: its centre band
CENTRE_SIDES = (0.6, 1.0)   # mm off the middle: the paper beside it, either side (the darker side counts)
CENTRE_REACH = 0.6          # mm: how far the stroke may run off the region's axis (a hand, the alignment)
CENTRE_STEP = 0.2           # mm between the samples across
CENTRE_PRINTED = 0.1        # the print's own centre band this much darker than beside it: a printed line
# a line read by the ridge of its darkness across (a LINE's `ridge`): a stroke drawn along the line has its
# darkest inside the band and falls off toward both edges; ink whose darkest is at an edge of the band reaches
# in from beside it (a flood's waves by a path, a neighbour's wide stroke), and a wide wash (a crayon's) stands
# no higher in the middle than at the edges.  A point counts only where one of the band's inner samples (not
# the outermost either side: on a path's 1.8 mm band within 0.68 mm of the axis, about CENTRE_REACH) stands
# more than RIDGE_ABOVE (the samples' noise floor) above the lightest sample between it and each edge
RIDGE_READ = True           # False: a line's points counted by their darkness across alone, as before
RIDGE_ABOVE = LINE_NOISE_FLOOR
# a line read by a valley across it (a LINE's `valley`: the inside of a box drawn with wide strokes): a point counts
# where a sample inside the band is lighter than the darkest on either side of it by RIDGE_ABOVE and by VALLEY_DEPTH
# of that darkness.  The share: a box filled in with a scribble dips a little between its strokes (its grain, a
# JPEG's); on the tune half of the family corpus and on our own corpus no filled box's inside dipped by 0.15
# anywhere along it (by 0.1 along a quarter of one: bench/bench_scan.py's photo-0295, read open with the floor alone)
VALLEY_DEPTH = 0.15
# a faint line (a hard pencil pressed lightly): a thin line's point is penciled, besides by LINE_PER_MM, where
# the signed darkness integrated across its band's middle above the paper at its edges (no per-sample floor:
# the sum averages the noise out, and a faint, blurred stroke keeps all of its ink; the paper beside it, not
# the expected print, is its zero: a tone a little off on a tint would add up over the band) stands FAINT_Z
# of this photo's own noise above its paper.
# The noise is that integral's spread on the lines' points the print leaves plain, measured on its lower side
# (pencil only darkens: that side is paper alone, however many lines are penciled); never below FAINT_LEAST (a rubbed-out stroke's residue,
# a flat render's noiseless paper), and a photo whose paper is that noisy reads as the rule above alone.
# Only lines at the plain threshold (LINE_PER_MM: paths, items struck, doors); a line with its own (a wall's
# WALL_BLACK: a thick line, an erased one not) keeps it.
# Shipped with WALL_INK (2026-12-07, docs/scanning.md): alone it told 3 misread photos "consistent" (their walls
# read empty with confidence); with the walls read by their ink over the print, none.  False: read as before.
FAINT_LINES = True
FAINT_Z = 3.0               # of the noise's sigma: Gaussian noise passes it at 0.13 % of points
# the floors were chosen on the tune half of the family corpus (its families' first 2 photos and their flat
# renders; docs/scanning.md): the least of a grid that reads no region marked where none was drawn that the
# reader reads empty without them; lines: none at any of 0.03 to 0.08, so the grid's least; dots: 11, 5, 1, 0
# regions at 0.08, 0.10, 0.12, 0.14.  Light graphite and blue ballpoint are held out of it.
FAINT_LEAST = 0.03          # mm of black: the least a faint line's point is read from
FAINT_PLAIN = 0.02          # the print within TOLERANCE this much darker than at a point's sample: not plain
FAINT_SAMPLES = 200         # plain points fewer than this: the noise unknown, the rule off for the photo
FAINT_EDGE = 2              # of a band's nine samples across, this many at either edge are its paper (0.2 to
                            # 0.4 mm beyond a thin stroke's half width): the middle five are integrated above it
# a faint dot: the same for a visited room's dot, where a dot-sized spot's mean signed darkness above the paper
# around it (the ring to three times its size) stands FAINT_DOT_Z of this photo's noise of that contrast above
# its paper, at least FAINT_DOT_LEAST; its measure is then that contrast in units of its level, at DOT_MARKED
# (so a contrast at the level reads just marked, half as much again fully sure), where that is more than
# its darkness.  The noise is measured on the page's plain paper (no print within the ring); a spot whose ring
# print hides is not read so.  FAINT_DOT_Z is more than FAINT_Z: a dot's measure is the best of the spots
# near its centre, and the best of some dozens of noisy spots is a sigma or two above their mean.
FAINT_DOTS = True           # with FAINT_LINES
FAINT_DOT_Z = 5.0
FAINT_DOT_LEAST = 0.14      # of the paper's white
FAINT_DOT_RING = 3          # the ring's outer side, in spots
# a dot read empty is no surer than a mark as dark as this photo's own would have been read there: a light
# pencil (a hard lead's grey) over a printed icon about as dark as itself adds nothing, so its dot reads empty
# whatever was drawn (Page.dot_reach, _doubt_dots; issue 27: light graphite's dots over icons read empty with
# confidence 1).  The pencil's tone: the darkest core of the dots this photo reads marked (not unsure) on plain
# paper (DOT_REACH_LEAST of them at least, else unknown: no doubt), the darkest because blur lightens a mark's
# core; the mark is taken to cover what it is drawn over (the least it can add there: a dye darkens print more).
DOT_REACH = True
DOT_REACH_LEAST = 3
# a wall's ink over the print (a line with its own threshold: a wall's, a grid edge's): a wall
# is drawn on a printed edge, and the darkness above the darkest print within TOLERANCE (the other lines' measure)
# loses what a thin stroke adds over that printed line and the paper either side of it (a ballpoint's 0.3 mm
# line, 0.25 mm of black, reads 0.10), and the per-sample floor takes 0.05 mm of a light, blurred one.  So a
# wall's point is also penciled where what the photo takes away from the expected print itself (no erosion, no
# floor), integrated across its band's middle above the paper at the band's edges (FAINT_EDGE: as a faint line),
# stands at the line's own threshold: the same mm of black, measured as an integral, which a misplaced printed
# line keeps at 0 (its darkness moves within the band) and blur keeps.  A rubbed-out wall's residue is as wide
# but a third as dark; it stays under.  Read only on a photo whose paper's noise (Page.line_noise) puts that
# threshold FAINT_Z sigmas above it.  A wall read empty whose ink nearly reaches it is unsure (_doubt_walls).
WALL_INK = True             # with the faint rule
# a FILL's ink over the print (a shape blacked out: a used arrow, a fury box, an explored door's box): its mean
# darkness is measured below the darkest print within TOLERANCE less NOISE_FLOOR, so a light pencil's fill over
# a printed outline keeps less than FILL_MARKED of what it adds.  A FILL is also read by what the photo takes
# away from the expected print itself (no erosion, no floor), its mean over the shape (the lesser of it and its
# twin), in units of this photo's level: the mean of that ink over a window of the shape's size on plain paper,
# FAINT_Z sigmas above the paper (measured from the lower side: pencil only darkens), never below
# FILL_INK_LEAST (a rubbed-out fill's residue, a flat render's noiseless paper).  Its measure is then the
# shape's threshold times its ink over that level (at the level: just marked, so unsure), where that is more
# than its mean; a photo whose level reaches the threshold reads by the mean alone.  Only FILLs at the plain
# FILL_MARKED: a shape with its own threshold (an explored door's thin strips beside a wall, which a heavy wall's
# stroke reaches into) keeps it, as a line with its own keeps it against the faint rule.
FILL_INK = True
FILL_INK_LEAST = 0.14       # of the paper's white: chosen on the tune half as the faint floors were (the least of
                            # 0.06-0.16 reading no empty FILL marked; docs/scanning.md, 2026-12-07)


def field_basis(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The cubic in x and y Page._align's field is made of, at points u, v (the page from -1 to 1)."""
    return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v, u ** 3, u * u * v, u * v * v, v ** 3], axis=-1)


GREY = np.float32([0.299, 0.587, 0.114])     # a template's grey: its RGB's luma


def _half(grey: np.ndarray) -> np.ndarray:
    """A grey at half resolution (what the alignment matches)."""
    return cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)


class Printed:
    """What a template alone decides, worked out once per template (many photos of one sheet):
    its grey, the plain print the tone is fitted on, its colours (the expected page is a colour
    table looked up per pixel), the tiles the alignment matches and the paper the light is
    measured on."""

    def __init__(self, rgb: np.ndarray, k: float):
        grey = rgb @ GREY
        self.rgb, self.grey = rgb, grey
        # plain print (a millimetre of one colour): at edges the photo's blur, not its tone, speaks
        size = max(3, int(round(k)) | 1)
        mean = cv2.blur(grey, (size, size))
        var = cv2.blur(grey * grey, (size, size)) - mean * mean
        step = max(1, grey.size // TONE_SAMPLES)
        sel = np.arange(0, grey.size, step)
        self.sel = sel[var.ravel()[sel] < 0.0008]
        q = np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint32)
        packed = (q[..., 0] << 16) | (q[..., 1] << 8) | q[..., 2]
        colours, labels = np.unique(packed.ravel(), return_inverse=True)
        self.colours = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], axis=1) / 255.0
        # per pixel its colour's label, one byte: a sheet's icons and edges have hundreds of colours,
        # most of them on a few pixels each, so the 255 most common get a byte of their own (looked up
        # in one cv2.LUT) and the rest, byte 255, are looked up apart (_tone: the per-photo lookup)
        counts = np.bincount(labels, minlength=len(colours))
        common = np.argsort(-counts, kind="stable")[:255 if len(colours) > 256 else 256]
        byte = np.full(len(colours), 255, np.uint8)
        byte[common] = np.arange(len(common), dtype=np.uint8)
        self.labels = byte[labels].reshape(grey.shape)
        self.common = common
        self.rare_pixels = np.flatnonzero(byte[labels] == 255) if len(colours) > 256 else np.zeros(0, np.int64)
        self.rare_labels = labels[self.rare_pixels]
        # the plain samples' red, green, blue and 1, one row each (sums of products, not BLAS:
        # a threaded BLAS on a busy machine costs more than the arithmetic)
        self.XT = np.ascontiguousarray(np.column_stack([self.colours[labels[self.sel]], np.ones(len(self.sel))]).T)
        # alignment: the template at half resolution and its tiles worth matching
        self.half = _half(grey)
        rows, cols = self.half.shape
        tile, reach = int(TILE * k / 2), int(SEARCH * k / 2)
        self.tiles = []
        for r0 in range(reach, rows - tile - reach, tile):
            for c0 in range(reach, cols - tile - reach, tile):
                t = self.half[r0:r0 + tile, c0:c0 + tile]
                if float(t.std()) >= 0.08:          # a blank tile tells nothing
                    self.tiles.append((r0, c0, np.ascontiguousarray(t)))
        self.tile, self.reach = tile, reach
        # lighting: the template at 1 px a mm, and where it is plain and light
        w, h = int(round(grey.shape[1] / k)), int(round(grey.shape[0] / k))
        self.light_size = (w, h)
        t = cv2.resize(grey, (w, h), interpolation=cv2.INTER_AREA)
        t2 = cv2.resize(grey * grey, (w, h), interpolation=cv2.INTER_AREA)
        self.light_plain = (t > 0.5) & (t2 - t * t < 0.002)
        self.light_t = np.maximum(t, 0.05)
        self._seen_as_printed = None
        self._plain_spots: dict = {}                # a square's side: where it holds plain paper (plain_spots)
        self._plain_samples: dict = {}              # a square's side: its plain pixels sampled (plain_samples)
        self._align_grid: tuple | None = None       # (align_grid)

    def align_grid(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The coarse grid Page._align works its field out on (a point every 8 pixels, where cv2.resize puts
        a small image's pixels in the page's) and the field's basis there: the same for every photo of the
        template, worked out once."""
        if self._align_grid is None:
            rows, cols = self.grey.shape
            step = 8
            nr, nc = -(-rows // step), -(-cols // step)
            cy = (np.arange(nr) + 0.5) * rows / nr - 0.5
            cx = (np.arange(nc) + 0.5) * cols / nc - 0.5
            gx, gy = np.meshgrid(cx, cy)
            self._align_grid = (gx, gy, field_basis(gx / cols * 2 - 1, gy / rows * 2 - 1))
        return self._align_grid

    def plain_spots(self, big: int, k: float) -> np.ndarray:
        """Where a square of big x big pixels centred there holds plain paper: no print within it darker than
        the template there by FAINT_PLAIN, and light enough for a pencil to show.  Worked out once per size."""
        hit = self._plain_spots.get(big)
        if hit is None:
            darkest = cv2.erode(self.grey, np.ones((big, big), np.uint8))
            lightest = cv2.dilate(self.grey, np.ones((big, big), np.uint8))
            hit = self._plain_spots[big] = (lightest - darkest < FAINT_PLAIN) & (darkest >= VISIBLE)
        return hit

    def plain_samples(self, big: int, k: float) -> np.ndarray:
        """Every 7th of the pixels plain_spots(big) holds (flat indices, in order): where a photo's paper
        noise is measured (a gather, not a mask over the whole page, for each photo).  Once per size."""
        hit = self._plain_samples.get(big)
        if hit is None:
            hit = self._plain_samples[big] = np.flatnonzero(self.plain_spots(big, k))[::7]
        return hit

    # what is kept of a Printed with a sheet made ready (sheetgen.scan.prepared): what is slow to work
    # out; the grey, the half-size grey and its tiles are made again from the template in a few ms
    _REMADE = ("rgb", "grey", "half", "_align_grid")

    def kept(self) -> dict:
        """This Printed's state to keep (from_kept makes it again from it and the template, to the last
        element): the tiles by their place only, the plain spots a bit a pixel."""
        state = {k: v for k, v in vars(self).items() if k not in self._REMADE}
        state["tiles"] = [(r0, c0) for r0, c0, _ in self.tiles]
        state["_plain_spots"] = {big: np.packbits(spots) for big, spots in self._plain_spots.items()}
        if self._seen_as_printed is not None:       # 0 or 1 a pixel
            state["_seen_as_printed"] = np.packbits(self._seen_as_printed > 0.5)
        return state

    @staticmethod
    def template_of(state: dict) -> np.ndarray:
        """The template (float32 RGB, as sheet.template makes it from the rendered bytes) whose Printed's
        kept() STATE is: its colour table looked up at each pixel's label, to the last element (each
        colour is the template's own bytes), so the template need not be kept beside its labels."""
        labels, common = state["labels"], state["common"]
        colours = np.rint(state["colours"] * 255.0).astype(np.uint8)        # the template's bytes, exactly
        table = np.zeros((256, 3), np.uint8)
        table[:len(common)] = colours[common]
        as_float = np.arange(256, dtype=np.float32) / 255.0                 # a byte as the template has it
        rgb = cv2.merge([cv2.LUT(labels, as_float[table[:, c]]) for c in range(3)])
        rare = state["rare_pixels"]
        if len(rare):
            rgb.reshape(-1, 3)[rare] = as_float[colours[state["rare_labels"]]]
        return rgb

    @classmethod
    def from_kept(cls, rgb: np.ndarray, state: dict) -> "Printed":
        """The Printed of the template RGB whose kept() STATE is."""
        pr = cls.__new__(cls)
        vars(pr).update(state)
        pr.rgb, pr.grey = rgb, rgb @ GREY
        pr.half = _half(pr.grey)
        t = pr.tile
        pr.tiles = [(r0, c0, np.ascontiguousarray(pr.half[r0:r0 + t, c0:c0 + t])) for r0, c0 in state["tiles"]]
        def unpacked(bits: np.ndarray) -> np.ndarray:      # kept() packs a 0/1 a pixel
            return np.unpackbits(bits, count=pr.grey.size).view(bool).reshape(pr.grey.shape)
        pr._plain_spots = {big: unpacked(bits) for big, bits in state["_plain_spots"].items()}
        pr._plain_samples = dict(state["_plain_samples"])
        seen = state.get("_seen_as_printed")
        pr._seen_as_printed = None if seen is None else unpacked(seen).astype(np.float32)
        pr._align_grid = None
        return pr

    def warm(self, plan: "Plan", k: float) -> None:
        """Work out now what reading PLAN's regions asks of this template per window size (the plain
        paper a dot's or a fill's noise is measured on), so a sheet made ready (sheetgen.scan.prepared)
        keeps it and a run that loads the sheet does not work it out again."""
        rings = {FAINT_DOT_RING * size for size, *_ in plan.dot_groups}
        for big in rings:
            self.plain_samples(big, k)
        for cols, rows in plan.fill_windows.tolist():
            big = max(1, cols, rows) | 1
            self.plain_samples(big, k)
            if big not in rings:
                self._plain_spots.pop(big, None)    # a fill's level wants its samples alone: not kept
        self.seen_as_printed(k)

    def seen_as_printed(self, k: float) -> np.ndarray:
        """Where the print itself (not as a camera softens it) leaves paper a pencil shows on: its
        darkest within TOLERANCE mm at least VISIBLE.  Worked out once per template."""
        if self._seen_as_printed is None:
            r = max(1, int(round(TOLERANCE * k)))
            darkest = cv2.erode(self.grey, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
            self._seen_as_printed = (darkest >= VISIBLE).astype(np.float32)
        return self._seen_as_printed


_printed = Kept()


def printed(rgb: np.ndarray, k: float) -> Printed:
    """The Printed of a template array (the same array object: templates are kept for the run)."""
    hit = _printed.get((id(rgb), k))        # the entry holds the array: its id is its own while kept
    if hit is not None:
        return hit[1]
    return _printed.put((id(rgb), k), (rgb, Printed(rgb, k)))[1]


def install_printed(rgb: np.ndarray, k: float, pr: Printed) -> None:
    """PR, the Printed of the template array RGB made earlier (sheetgen.scan.prepared), kept as
    printed() keeps one it makes."""
    _printed.put((id(rgb), k), (rgb, pr))


class Page:
    """A rectified photo against its template: the darkness map and the region measures."""

    def __init__(self, rect: np.ndarray, template_rgb: np.ndarray, page_mm: tuple[float, float], align: bool = True,
                 blur_mm: float = 0.0, light_closing: bool = False):
        """rect: the rectified photo's grey."""
        self.rows, self.cols = template_rgb.shape[:2]
        self.kx = self.cols / page_mm[0]
        self.ky = self.rows / page_mm[1]
        self.k = (self.kx + self.ky) / 2
        pr = printed(template_rgb, self.k)
        self.printed = pr
        self.template = pr.grey                     # the grey the photo is taken to
        rect = rect.astype(np.float32)
        self.shift = (0.0, 0.0)
        if align:
            rect = self._align(rect, pr)
        refl = self._even_light(rect, pr, light_closing)
        expected = self._tone(refl, pr)
        # the print as this camera sees it: as soft as the photo (measured on the markers' edges)
        sigma = blur_mm * self.k
        if sigma > 0.5:
            expected = cv2.GaussianBlur(expected, (0, 0), sigma)
        r = max(1, int(round(TOLERANCE * self.k)))
        darkest = cv2.erode(expected, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        self.reflectance = refl
        self.expected = expected
        # the share of the light the pencil takes away where the paper should be this light;
        # where the print is too dark for a pencil to show, nothing can be seen (visible 0)
        self.visible = (darkest >= VISIBLE).astype(np.float32)
        dark = np.subtract(darkest, refl)
        np.divide(dark, np.maximum(darkest, 0.3, out=darkest), out=dark)
        self._darkest = darkest                     # the darkest expected within TOLERANCE, at least 0.3 (dot_reach)
        dark *= self.visible
        self.relative = dark                        # signed: noise either way
        self._noise: tuple | None = None            # (plan, its lines' noise level: line_noise)
        self._wall_ink: tuple | None = None         # (plan, its walls' ink over the print at each point: wall_ink)
        self._signed: tuple | None = None           # (plan, its lines' _signed_across)
        self._one_side: tuple | None = None         # (plan, its lines' share penciled on their better side alone)
        self._faint_spots: dict = {}                # spot size: (contrast, level) (faint_spots)
        self._ink_over_print: np.ndarray | None = None  # (ink_over_print)
        self._fill_levels: dict = {}                # a window's (cols, rows): the level a FILL's ink is read from
        self.dark = np.clip(dark - NOISE_FLOOR, 0.0, 1.0)

    # -- alignment ------------------------------------------------------------------------------
    def _align(self, rect: np.ndarray, pr: Printed) -> np.ndarray:
        """The rectified photo moved onto its template where a homography cannot: a lens's
        distortion, paper that does not lie flat.  Tiles of the page are matched with the
        template (normalised cross-correlation, +-SEARCH mm), and a smooth field (a cubic in
        x and y, outliers dropped) moves every pixel."""
        small = cv2.resize(rect, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)   # matched at half resolution
        tile, reach = pr.tile, pr.reach
        points, shifts = [], []
        for r0, c0, t in pr.tiles:
            window = small[r0 - reach:r0 + tile + reach, c0 - reach:c0 + tile + reach]
            if window.shape != (tile + 2 * reach, tile + 2 * reach):
                continue
            score = cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED)
            _, best, _, (bx, by) = cv2.minMaxLoc(score)
            if best < 0.45 or not (0 < bx < score.shape[1] - 1 and 0 < by < score.shape[0] - 1):
                continue
            # sub-pixel: a parabola through the peak and its neighbours
            dx = 0.5 * (score[by, bx - 1] - score[by, bx + 1]) / (score[by, bx - 1] - 2 * best + score[by, bx + 1] - 1e-9)
            dy = 0.5 * (score[by - 1, bx] - score[by + 1, bx]) / (score[by - 1, bx] - 2 * best + score[by + 1, bx] - 1e-9)
            points.append((2 * (c0 + tile / 2), 2 * (r0 + tile / 2)))
            shifts.append((2 * (bx + dx - reach), 2 * (by + dy - reach)))
        if len(points) < 12:
            return rect
        P, D = np.array(points, dtype=np.float64), np.array(shifts, dtype=np.float64)
        u = (P[:, 0] / self.cols) * 2 - 1
        v = (P[:, 1] / self.rows) * 2 - 1
        A = field_basis(u, v)
        keep = np.ones(len(P), bool)
        for _ in range(3):
            coef, *_ = np.linalg.lstsq(A[keep], D[keep], rcond=None)
            err = np.hypot(*(A @ coef - D).T)
            limit = max(0.35 * self.k, 2.5 * np.median(err[keep]))
            new = err <= limit
            if new.sum() < 12 or (new == keep).all():
                keep = new if new.sum() >= 12 else keep
                break
            keep = new
        coef, *_ = np.linalg.lstsq(A[keep], D[keep], rcond=None)
        # the map on a coarse grid, then every pixel: sampled where cv2.resize puts a small image's
        # pixels in the large one, a linear map (the identity) comes out exact, the field smooth
        gx, gy, B = pr.align_grid()
        fx = sum(B[..., i] * coef[i, 0] for i in range(B.shape[-1]))
        fy = sum(B[..., i] * coef[i, 1] for i in range(B.shape[-1]))
        self.shift = (float(np.abs(fx).max() / self.k), float(np.abs(fy).max() / self.k))
        mx = cv2.resize((gx + fx).astype(np.float32), (self.cols, self.rows), interpolation=cv2.INTER_LINEAR)
        my = cv2.resize((gy + fy).astype(np.float32), (self.cols, self.rows), interpolation=cv2.INTER_LINEAR)
        return cv2.remap(rect, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    # -- lighting and tone ------------------------------------------------------------------
    def _even_light(self, rect: np.ndarray, pr: Printed, closing: bool = False) -> np.ndarray:
        """The photo divided by the light falling on it: the light is the photo over the template
        where the print is plain and light (a millimetre's square of one pale colour), its local
        maximum (pencil only ever darkens), filled in and smoothed.  closing: the local maximum's
        local minimum (over plain paper only): pencil narrower than the window still goes, and a
        slope of the light (a soft shadow's edge) stays where it is, where the maximum alone lifts
        it by its half width and the paper beside it reads darker than it is."""
        plain, t = pr.light_plain, pr.light_t
        small = cv2.resize(rect, pr.light_size, interpolation=cv2.INTER_AREA)
        ratio = np.where(plain, small / t, 0.0).astype(np.float32)
        env = cv2.dilate(ratio, np.ones((7, 7), np.uint8))
        if closing:
            lifted = np.where(env > 0, env, np.float32(10.0))        # no paper near: no say in the minimum
            env = np.where(env > 0, cv2.erode(lifted, np.ones((7, 7), np.uint8)), np.float32(0.0))
        for size in (15, 31, 61):                     # fill what no plain paper is near
            if np.all(env > 0):
                break
            wider = cv2.dilate(ratio, np.ones((size, size), np.uint8))
            env = np.where(env > 0, env, wider)
        if not np.any(env > 0):
            env = np.full_like(env, max(float(np.percentile(rect, 95)), 1.0))
        env[env <= 0] = float(np.median(env[env > 0]))
        env = cv2.GaussianBlur(env, (0, 0), 3.0)
        env = cv2.resize(env, (self.cols, self.rows), interpolation=cv2.INTER_LINEAR)
        return np.clip(rect / np.maximum(env, 1.0), 0.0, 1.5, out=rect)

    def _tone(self, refl: np.ndarray, pr: Printed) -> np.ndarray:
        """The template as the camera sees it: the photo's grey as a linear mix of the template's
        red, green and blue (a colour cast weighs the channels), fitted robustly (pencil and
        misplaced edges dropped) on plain print, then the camera's tone curve: per grey bin the
        photo's TONE_PERCENTILE (pencil only darkens: the paper is above the median).  Worked
        out per template colour and looked up per pixel."""
        XT = pr.XT
        y = refl.ravel()[pr.sel].astype(np.float64)
        keep = np.ones(len(y), bool)
        w = np.array([0.299, 0.587, 0.114, 0.0])
        for _ in range(3):
            Xk, yk = XT[:, keep], y[keep]
            A = np.empty((4, 4))
            for i in range(4):
                for j in range(i, 4):
                    A[i, j] = A[j, i] = np.einsum("i,i->", Xk[i], Xk[j])
            w = np.linalg.solve(A + 1e-9 * np.eye(4), np.array([np.einsum("i,i->", Xk[i], yk) for i in range(4)]))
            fit = XT[0] * w[0] + XT[1] * w[1] + XT[2] * w[2] + w[3]
            err = np.abs(fit - y)
            keep = err <= np.percentile(err, 85)
        lin_colours = np.clip(pr.colours @ w[:3] + w[3], 0.0, 1.5)
        bins = 24
        flat_lin = np.clip(fit, 0.0, 1.5)
        idx = np.minimum((np.clip(flat_lin, 0, 0.9999) * bins).astype(np.int32), bins - 1)
        order = np.argsort(idx, kind="stable")
        idx, flat_r = idx[order], y[order]
        edges = np.searchsorted(idx, np.arange(bins + 1))
        centres = (np.arange(bins) + 0.5) / bins
        values = centres.copy()
        for b in range(bins):
            part = flat_r[edges[b]:edges[b + 1]]
            if len(part) >= 40:
                values[b] = float(np.percentile(part, TONE_PERCENTILE))
        values = np.maximum.accumulate(values)          # darker print, never lighter photo
        lut = np.interp(np.linspace(0, 1.5, 1536), centres, values).astype(np.float32)
        expected_colours = lut[np.minimum((lin_colours * 1023).astype(np.int32), 1535)]
        table = np.zeros(256, np.float32)
        table[:len(pr.common)] = expected_colours[pr.common]
        expected = cv2.LUT(pr.labels, table)
        expected.ravel()[pr.rare_pixels] = expected_colours[pr.rare_labels]
        return expected

    # -- geometry ---------------------------------------------------------------------------
    def _px(self, x: float, y: float) -> tuple[float, float]:
        return x * self.kx - 0.5, y * self.ky - 0.5

    # -- the measures -----------------------------------------------------------------------
    def _line_samples(self, points: "Points") -> np.ndarray:
        """The darkness at lines' sample points, less the lines' noise floor, within 0..1."""
        vals = cv2.remap(self.relative, points.mx, points.my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=0)
        return np.clip(vals - LINE_NOISE_FLOOR, 0.0, 1.0, out=vals)

    def measure(self, plan: "Plan") -> tuple[np.ndarray, np.ndarray]:
        """(every region's measure, the share of it where a pencil would show), in plan.regions' order."""
        score = np.zeros(len(plan.regions))
        seen = np.zeros(len(plan.regions))
        if len(plan.rect_pixels):
            # boxes and areas: their pixels gathered at once, summed per region
            d = self.dark.ravel()[plan.rect_pixels]
            v = self.visible.ravel()[plan.rect_pixels]
            total = np.add.reduceat(d, plan.rect_starts)
            shown = np.add.reduceat(v, plan.rect_starts)
            empty = plan.rect_sizes == 0
            total[empty] = shown[empty] = 0.0
            score[plan.rect_index] = total / np.maximum(shown, 1.0)
            seen[plan.rect_index] = shown / np.maximum(plan.rect_sizes, 1)
        if len(plan.local_index):
            # areas against the paper around them: the signed darkness (no noise floor: the mean of
            # many pixels averages noise out, and a faint mark keeps all of its ink) less the median
            # of the four strips beside it (a shadow's edge or a darker part of the page darkens
            # them alike; a mark spilling into one or two strips moves the median little)
            sums = np.add.reduceat(self.relative.ravel()[plan.local_pixels], plan.local_starts)
            sums[plan.local_empty] = 0.0
            means = (sums / plan.local_sizes).reshape(-1, 5)
            strips = means[:, 1:]
            median = (strips.sum(axis=1) - strips.max(axis=1) - strips.min(axis=1)) / 2
            score[plan.local_index] = means[:, 0] - median
        if len(plan.twin_index):
            # shapes read with their twin (the other half of a box): the lesser of the two means
            d = self.dark.ravel()[plan.twin_pixels]
            v = self.visible.ravel()[plan.twin_pixels]
            total = np.add.reduceat(d, plan.twin_starts)
            shown = np.add.reduceat(v, plan.twin_starts)
            total[plan.twin_empty] = shown[plan.twin_empty] = 0.0
            score[plan.twin_index] = np.minimum(score[plan.twin_index], total / np.maximum(shown, 1.0))
        if FILL_INK and len(plan.fill_index):
            # FILLs by their ink over the print, against this photo's own paper and noise
            thr = plan.threshold[plan.fill_index]
            ink, level = self.fill_ink(plan)
            # (not where too little of the shape shows to be read: its few pixels' ink is no measure)
            read_so = plan.fill_plain & np.isfinite(level) & (level < thr) & (seen[plan.fill_index] >= HIDDEN)
            score[plan.fill_index] = np.where(read_so, np.maximum(score[plan.fill_index],
                                                                  thr * ink / np.where(read_so, level, 1.0)),
                                              score[plan.fill_index])
        if len(plan.line_index):
            # every line's band sampled in one remap: darkness across (mm of black) at each point along
            # (a line's band averages the noise of its nine samples across: a lower floor than a
            # pixel's keeps a faint, blurred stroke)
            samples = self._line_samples(plan.lines)
            across = plan.lines.along(samples) * plan.band_of_point
            vis = cv2.remap(self.visible, plan.lines.mx, plan.lines.my, cv2.INTER_NEAREST,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=0)
            shown = plan.lines.along(vis) > 0.5
            if len(plan.as_printed_of):
                # lines seen as printed: their points seen only where the print itself leaves paper
                shown[plan.as_printed_of] &= plan.shown_as_printed(self.printed.seen_as_printed(self.k))
            hit = across > plan.thr_of_point
            if WALL_INK and len(plan.own_of):
                hit[plan.own_of] |= self.wall_ink(plan)
            faint = self.faint_level(plan) if FAINT_LINES else None
            if faint is not None:
                # only where the print leaves the band plain: a printed line along it, seen a little darker
                # than the tone expects, stands above the paper beside it as a faint stroke would
                plain = plan.plain_of_point(self.template, self.k)
                hit |= plain & (self._signed_of(plan) >= faint)
            hit &= shown
            if RIDGE_READ and len(plan.ridge_of):
                # lines read by their ridge: ink from beside the band, or a wash across it, is no stroke
                hit[plan.ridge_of] &= ridge_inside(plan.lines.across(samples)[:, plan.ridge_of])
            if len(plan.valley_of):
                # lines read by a valley across them (the inside of a box drawn with wide strokes): paper
                # between two strokes, however dark their flanks make the band
                hit[plan.valley_of] = valley_inside(plan.lines.across(samples)[:, plan.valley_of]) & shown[plan.valley_of]
            if len(plan.twin_of):
                # a line read with its twin: a point is penciled where both are (seen where it is: the
                # twin runs a few mm beside it)
                twin = plan.twins.along(self._line_samples(plan.twins)) * plan.band_of_point[plan.twin_of]
                twin_hit = twin > plan.thr_of_point[plan.twin_of]
                if faint is not None:
                    twin_hit |= plain[plan.twin_of] & (
                        self._signed_across(plan.twins, plan.band_of_point[plan.twin_of]) >= faint)
                # each side alone, for _doubt_twins: a box drawn light on one side reads on the other
                sides = np.zeros((2, len(hit)), dtype=np.int32)
                sides[0, plan.twin_of] = hit[plan.twin_of]
                sides[1, plan.twin_of] = twin_hit & shown[plan.twin_of]
                hit[plan.twin_of] &= twin_hit
            n_shown = np.add.reduceat(shown.astype(np.int32), plan.starts)
            n_hit = np.add.reduceat(hit.astype(np.int32), plan.starts)
            if len(plan.twin_of):
                one_side = np.add.reduceat(sides, plan.starts, axis=1).max(axis=0) / np.maximum(n_shown, 1)
                self._one_side = (plan, one_side)
            score[plan.line_index] = n_hit / np.maximum(n_shown, 1)
            seen[plan.line_index] = n_shown / plan.spans
        if len(plan.centre_index):
            score[plan.centre_index], seen[plan.centre_index] = self._centre_lines(plan)
        if len(plan.dot_index):
            # dots: the darkest dot-sized spot near the centre (box means of that size, per size)
            for size, idx, pix, starts in plan.dot_groups:
                dark = cv2.blur(self.dark, (size, size)).ravel()[pix]
                vis = cv2.blur(self.visible, (size, size)).ravel()[pix]
                local = dark / np.maximum(vis, 0.3)
                score[idx] = np.maximum.reduceat(local, starts)
                seen[idx] = np.add.reduceat(vis, starts) / np.diff(np.append(starts, len(pix)))
                if FAINT_DOTS:
                    contrast, level = self.faint_spot_at(size, pix)
                    if level is not None:
                        best = np.maximum.reduceat(contrast, starts)
                        score[idx] = np.maximum(score[idx], DOT_MARKED * best / level)
        return score, seen

    def _signed_across(self, points: "Points", band: np.ndarray, samples: np.ndarray | None = None) -> np.ndarray:
        """At lines' points, the signed darkness integrated across the middle of their bands (mm of black)
        above the paper at the bands' edges: no floor, and a tint's or a shadow's darkness, the same across
        the band (a tone fitted a little off on a zone's colour), counts as none.  samples: the darkness at
        the points' samples (points.across's shape); None: the relative darkness's."""
        if samples is None:
            samples = points.across(cv2.remap(self.relative, points.mx, points.my, cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_CONSTANT, borderValue=0))
        rows = samples.shape[0]
        edge = FAINT_EDGE
        paper = (samples[:edge].sum(axis=0) + samples[rows - edge:].sum(axis=0)) / (2 * edge)
        middle = samples[edge:rows - edge] - paper
        return middle.sum(axis=0) * (band / rows)

    def _signed_of(self, plan: "Plan") -> np.ndarray:
        """_signed_across of the plan's lines, kept for the last plan (its noise and its reading)."""
        if self._signed is None or self._signed[0] is not plan:
            self._signed = (plan, self._signed_across(plan.lines, plan.band_of_point))
        return self._signed[1]

    def line_noise(self, plan: "Plan") -> float | None:
        """The level FAINT_Z sigmas above the paper of the signed integral across a line's band (the paper's
        mean and sigma measured on the plan's points the print leaves plain, from the distribution's lower
        side), or None: too few plain points to measure it.  Kept for the page."""
        cached = self._noise
        if cached is not None and (cached[1] is not None or cached[0] is plan):
            return cached[1]            # the page's noise, measured on the first plan that could
        level = None
        plain = plan.plain_of_point(self.template, self.k)
        if plain.sum() >= FAINT_SAMPLES:
            signed = self._signed_of(plan)[plain]
            # the paper's level and spread from the lower side alone (a normal's mean less one and two
            # sigmas): pencil only darkens, so however many of the points are penciled it stays paper
            one, two = np.percentile(signed, (15.87, 2.28))
            sigma = float(one - two)
            level = float(one) + sigma + FAINT_Z * sigma
        self._noise = (plan, level)
        return level

    def faint_level(self, plan: "Plan") -> float | None:
        """The signed integral across a line's band from which a point of a plain-threshold line is penciled
        on this photo (line_noise, at least FAINT_LEAST), or None: the noise unknown, or a paper so noisy the
        level reaches LINE_PER_MM."""
        noise = self.line_noise(plan)
        if noise is None or max(FAINT_LEAST, noise) >= LINE_PER_MM:
            return None
        return max(FAINT_LEAST, noise)

    def wall_ink(self, plan: "Plan") -> np.ndarray:
        """Per point of the plan's lines with their own threshold (plan.own_of): penciled by its ink over the
        print (WALL_INK): what the photo takes away from the expected print, integrated across the band's
        middle above the paper at its edges, at least the line's threshold, where the photo's noise is below
        that (line_noise); else none."""
        thr = plan.thr_of_point[plan.own_of]
        noise = self.line_noise(plan)
        if noise is None:
            return np.zeros(len(plan.own_of), bool)
        pts = plan.own_lines
        expected, refl, vis = (pts.across(cv2.remap(m, pts.mx, pts.my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                                    borderValue=0)) for m in (self.expected, self.reflectance,
                                                                              self.visible))
        loss = (expected - refl) / np.maximum(expected, 0.3) * (vis > 0.5)
        signed = self._signed_across(pts, plan.band_of_point[plan.own_of], loss)
        self._wall_ink = (plan, signed)
        return (signed >= thr) & (thr >= noise)

    def wall_ink_level(self, plan: "Plan") -> np.ndarray | None:
        """Per line with its own threshold (plan.own_index's order), the ink over the print (wall_ink's
        integral) that the share of its points it reads marked from reaches (its median at LINE_MARKED), or
        None: not measured on this page (WALL_INK off, the photo's noise unknown or above the threshold)."""
        kept = self._wall_ink
        if kept is None or kept[0] is not plan:
            return None
        signed = kept[1]
        q = []
        for i in plan.own_index.tolist():
            share = plan.regions[i].shape.share
            q.append(1.0 - (share if share is not None else LINE_MARKED))
        return _quantiles_of_spans(signed, plan.own_spans, np.array(q, dtype=np.float64))

    def faint_spots(self, size: int) -> tuple[np.ndarray, float | None]:
        """(every spot's contrast: its mean signed darkness over size x size pixels less the paper's in the
        ring around it to FAINT_DOT_RING times that (read only where the ring holds no print: faint_spot_at);
        the level from which a faint dot is read on this photo, or None: too little plain paper to measure
        its noise, or paper so noisy the level reaches DOT_MARKED).  Kept per size for the page."""
        hit = self._faint_spots.get(size)
        if hit is not None:
            return hit
        big = FAINT_DOT_RING * size
        spot = cv2.blur(self.relative, (size, size))
        ring = (cv2.blur(self.relative, (big, big)) * (big * big) - spot * (size * size)) / (big * big - size * size)
        contrast = spot - ring
        level = None
        paper = contrast.ravel()[self.printed.plain_samples(big, self.k)]
        if len(paper) >= FAINT_SAMPLES:
            one, two = np.percentile(paper, (15.87, 2.28))
            sigma = float(one - two)
            level = max(FAINT_DOT_LEAST, float(one) + sigma + FAINT_DOT_Z * sigma)
            if level >= DOT_MARKED:
                level = None
        self._faint_spots[size] = (contrast, level)
        return contrast, level

    def faint_spot_at(self, size: int, pixels: np.ndarray) -> tuple[np.ndarray, float | None]:
        """faint_spots(size) at these pixels (flat indices), 0 where print is within the ring."""
        contrast, level = self.faint_spots(size)
        plain = self.printed.plain_spots(FAINT_DOT_RING * size, self.k).ravel()[pixels]
        return np.where(plain, contrast.ravel()[pixels], np.float32(0.0)), level

    def dot_reach(self, plan: "Plan", score: np.ndarray, sure: np.ndarray, asked: np.ndarray) -> np.ndarray | None:
        """Per dot (plan.dot_index's order): the measure a mark as dark as this photo's own, covering the dot's
        disc, would read (as Page.measure reads a dot: the best spot near its centre; its darkness over the
        expected print, the mark covering what it is drawn over; on plain paper at least the least SCORE of the
        photo's own marks there: what they read, the faint rule's contrast included), for the dots ASKED (per
        region of the plan; inf for the others), or None: too few of this photo's dots read marked and sure
        (SURE: per region) on plain paper to know its pencil's tone (DOT_REACH_LEAST)."""
        refl = self.reflectance.ravel()
        tones, read_so, dots = [], [], []
        for size, idx, pix, starts in plan.dot_groups:
            plain = self.printed.plain_spots(FAINT_DOT_RING * size, self.k).ravel()
            for i, near in zip(idx.tolist(), np.split(pix, starts[1:])):
                on_paper = bool(plain[near].all())
                if asked[i]:
                    dots.append((i, size, near, on_paper))
                if sure[i] and on_paper:
                    # the pencil's tone: the darkest the photo shows within the dot (a stroke's core)
                    tones.append(float(refl[near].min()))
                    read_so.append(float(score[i]))
        if len(tones) < DOT_REACH_LEAST:
            return None
        tone = np.float32(min(tones))
        least_on_paper = min(read_so)
        # where a pencil shows (visible), the darkest expected print within TOLERANCE is at least VISIBLE: its
        # floor at 0.3 (Page's darkness divides by it) leaves it as it is there
        darkest, expected, visible = self._darkest.ravel(), self.expected.ravel(), self.visible.ravel()
        reach = {}
        for i, size, near, on_paper in dots:
            if on_paper and least_on_paper >= 1.5 * DOT_MARKED:
                continue                # the photo's own marks there read fully sure: no doubt to work out
            rows, cols = np.divmod(near, self.cols)
            half = size // 2
            r0, c0 = max(0, int(rows.min()) - half), max(0, int(cols.min()) - half)
            r1, c1 = min(self.rows, int(rows.max()) + half + 1), min(self.cols, int(cols.max()) + half + 1)
            vis = self.visible[r0:r1, c0:c1]
            # the mark: the dot's own disc, nothing beside it
            drawn = np.zeros_like(vis)
            drawn[rows - r0, cols - c0] = visible[near] * np.clip(
                (darkest[near] - np.minimum(expected[near], tone)) / darkest[near] - NOISE_FLOOR, 0.0, 1.0)
            spot = cv2.blur(drawn, (size, size))[rows - r0, cols - c0]
            shown = cv2.blur(vis, (size, size))[rows - r0, cols - c0]
            reach[i] = float((spot / np.maximum(shown, 0.3)).max())
            if on_paper:                # the faint rule reads a light mark there better than its darkness
                reach[i] = max(reach[i], least_on_paper)
        return np.array([reach.get(i, np.inf) for i in plan.dot_index.tolist()])

    def ink_over_print(self) -> np.ndarray:
        """What the photo takes away from the expected print, as a share of it, signed (no erosion, no floor),
        where a pencil would show on the print (0 elsewhere).  Kept for the page."""
        if self._ink_over_print is None:
            shows = self.expected >= VISIBLE
            self._ink_over_print = (self.expected - self.reflectance) / np.maximum(self.expected, 0.3) * shows
        return self._ink_over_print

    def fill_ink(self, plan: "Plan") -> tuple[np.ndarray, np.ndarray]:
        """Per FILL (plan.fill_index): (its ink over the print: the mean of ink_over_print over the shape, the
        lesser of it and its twin; the level it is read from on this photo: fill_level of its window, inf where
        unknown)."""
        v = self.ink_over_print().ravel()
        shows = (self.expected >= VISIBLE).ravel()
        means = []
        for pixels, starts, empty in plan.fill_groups:
            total = np.add.reduceat(v[pixels], starts)
            shown = np.add.reduceat(shows[pixels].astype(np.int64), starts)
            mean = total / np.maximum(shown, 1)
            mean[empty] = 0.0
            means.append(mean)
        level = np.array([self.fill_level(w, h) for w, h in plan.fill_windows.tolist()], dtype=np.float64)
        return np.minimum.reduce(means), level

    def fill_level(self, cols: int, rows: int) -> float:
        """The ink over the print a FILL of cols x rows pixels is read marked from on this photo: the mean of
        ink_over_print over such windows on plain paper, FAINT_Z sigmas above its paper (from the distribution's
        lower side), at least FILL_INK_LEAST; inf: too little plain paper to measure it."""
        hit = self._fill_levels.get((cols, rows))
        if hit is not None:
            return hit
        cols, rows = max(1, cols), max(1, rows)
        mean = cv2.blur(self.ink_over_print(), (cols, rows))
        paper = mean.ravel()[self.printed.plain_samples(max(cols, rows) | 1, self.k)]
        level = float("inf")
        if len(paper) >= FAINT_SAMPLES:
            one, two = np.percentile(paper, (15.87, 2.28))
            sigma = float(one - two)
            level = max(FILL_INK_LEAST, float(one) + sigma + FAINT_Z * sigma)
        self._fill_levels[(cols, rows)] = level
        return level

    def _centre_lines(self, plan: "Plan") -> tuple[np.ndarray, np.ndarray]:
        """(measure, seen) of the lines read by their centre band (in plan.centre_index's order): the
        share of the points along, seen, where the darkness of a centre band (CENTRE_HALF either side of
        a middle up to CENTRE_REACH off the axis) is more than the line's threshold above the darker of
        the paper's strips beside it (CENTRE_SIDES off that middle).  Darkness below the paper's (the
        print's edges, a lighter patch) counts as none, so no side reads lighter than paper."""
        pts = plan.centre_lines
        vals = pts.across(cv2.remap(self.relative, pts.mx, pts.my, cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=0))
        np.maximum(vals, 0.0, out=vals)
        rows = vals.shape[0]
        mid = rows // 2
        h = round(CENTRE_HALF / CENTRE_STEP)
        s0, s1 = (round(d / CENTRE_STEP) for d in CENTRE_SIDES)
        reach = round(CENTRE_REACH / CENTRE_STEP)
        lo = np.arange(mid - reach, mid + reach + 1)

        def contrast(a):            # at each middle and point: the centre band's mean less the darker side's
            cum = np.vstack([np.zeros((1, a.shape[1]), np.float32), np.cumsum(a, axis=0, dtype=np.float32)])

            def mean(i, j):         # rows i..j (inclusive) off each middle
                return (cum[lo + j + 1] - cum[lo + i]) / (j - i + 1)
            return mean(-h, h) - np.maximum(mean(-s1, -s0), mean(s0, s1))
        best = contrast(vals).max(axis=0)
        # a printed line within reach: what reads by it is the print's, whatever it is (a thin printed
        # line seen a little sharper than the blur measured reads darker than expected along it, as a
        # faint stroke would); the template's alone, worked out once for it
        cached = plan._centre_printed
        if cached is None or cached[0] is not self.template:
            printed = -pts.across(cv2.remap(self.template, pts.mx, pts.my, cv2.INTER_LINEAR,
                                            borderMode=cv2.BORDER_REPLICATE))
            plan._centre_printed = cached = (self.template, (contrast(printed) >= CENTRE_PRINTED).any(axis=0))
        along_print = cached[1]
        vis = pts.across(cv2.remap(self.visible, pts.mx, pts.my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                                   borderValue=0))
        # in view wherever the centre band runs and beside it (print too dark beside it hides the paper
        # it is measured against), off printed lines
        shown = (vis.min(axis=0) > 0.5) & ~along_print
        hit = (best > plan.centre_thr) & shown
        n_shown = np.add.reduceat(shown.astype(np.int32), plan.centre_starts)
        n_hit = np.add.reduceat(hit.astype(np.int32), plan.centre_starts)
        return n_hit / np.maximum(n_shown, 1), n_shown / plan.centre_spans

    def _loss_at(self, pixels: np.ndarray) -> np.ndarray:
        """The share of the light the photo takes away from the expected print (as the camera sees it,
        not the darkest near) at these pixels (flat indices)."""
        expected = self.expected.ravel()[pixels]
        return (expected - self.reflectance.ravel()[pixels]) / np.maximum(expected, 0.3)

    def strokes(self, plan: "Plan") -> tuple[np.ndarray, np.ndarray]:
        """(measure, the same relative to its threshold) of the boxes read by a cross's strokes, in
        plan.stroke_index's order.  A blank box: the mean along its diagonals of the darkness above
        STROKE_FLOOR and above the box's own paper (its corners, off the diagonals): a dull patch, paper
        a shade darker than the light says, a rubber's faint residue stay under the floor, a pencil
        stroke is far above it (measured against the print as the camera sees it, not the darkest
        print near: a box has none inside).  A box with print inside (a grey cross to pencil over, a
        digit): the mean along its diagonals of the darkness beyond the print (where the print is
        alone, none)."""
        s = self._loss_at(plan.band_pixels)
        s *= self.visible.ravel()[plan.band_pixels]
        off = self._loss_at(plan.off_pixels)
        off *= self.visible.ravel()[plan.off_pixels]
        paper = np.add.reduceat(off, plan.off_starts) / np.maximum(plan.off_sizes, 1)
        paper[plan.off_sizes < 4] = 0.0                 # too few corners to tell: the floor alone
        above = np.clip(s - np.repeat(paper, plan.band_sizes) - STROKE_FLOOR, 0.0, None)
        blank = np.add.reduceat(above, plan.band_starts) / plan.band_sizes
        beyond = np.add.reduceat(self.dark.ravel()[plan.band_pixels], plan.band_starts) / plan.band_sizes
        printed = plan.printed_boxes(self.template)
        measure = np.where(printed, beyond, blank)
        return measure, measure / np.where(printed, STROKE_CROSSED_PRINTED, STROKE_CROSSED)


def ridge_inside(across: np.ndarray) -> np.ndarray:
    """Per point (a column of ACROSS: a line's samples across its band, from one edge to the other), whether
    its darkness has a ridge inside the band: an inner sample more than RIDGE_ABOVE darker than the lightest
    sample between it and each edge (a stroke along the line, whatever lies beside it; not ink reaching in
    from beside the band, darkest at an edge, nor a wash as dark at the edges as in the middle)."""
    return (_rise(across) > RIDGE_ABOVE).any(axis=0)


def valley_inside(across: np.ndarray) -> np.ndarray:
    """Per point (a column of ACROSS, as for ridge_inside), whether paper shows between two strokes across
    it: an inner sample lighter than the darkest sample between it and each edge by more than RIDGE_ABOVE
    and by VALLEY_DEPTH of that darkness (the inside of a box drawn with wide strokes; not one stroke, however
    wide, whose darkness falls off from its middle, nor a box filled in, as dark between its sides as on
    them but for its scribble's grain)."""
    dip = _rise(-across)                    # below the darkest on either side: the ridge of the lightness
    beside = across[1:-1] + dip             # that darkness
    return ((dip > RIDGE_ABOVE) & (dip >= VALLEY_DEPTH * beside)).any(axis=0)


def _rise(across: np.ndarray) -> np.ndarray:
    """For each inner sample of ACROSS (rows across, points along), how far it stands above the lightest
    sample between it and each edge: the lesser of its rises toward either edge."""
    toward_first = np.minimum.accumulate(across, axis=0)                # the lightest from the first edge on
    toward_last = np.minimum.accumulate(across[::-1], axis=0)[::-1]     # ... from the last edge back
    return across[1:-1] - np.maximum(toward_first[:-2], toward_last[2:])


REMAP_COLUMNS = 32000       # cv2.remap takes maps narrower than 32767: more points are laid in blocks


class Points:
    """Lines' sample points (nine across each point along) as the pixel maps cv2.remap takes: one
    map, or blocks of points one under another when there are more than REMAP_COLUMNS."""

    def __init__(self, xs: np.ndarray, ys: np.ndarray):
        self.rows = rows = xs.shape[0]          # nine, or a centre-read line's samples across
        self.count = xs.shape[1]
        self.blocks = max(1, -(-self.count // REMAP_COLUMNS))
        if self.blocks > 1:
            width = -(-self.count // self.blocks)
            pad = ((0, 0), (0, self.blocks * width - self.count))         # off the page: read 0
            xs, ys = (np.pad(a, pad, constant_values=-1e4).reshape(rows, self.blocks, width).transpose(1, 0, 2)
                      .reshape(rows * self.blocks, width) for a in (xs, ys))
        self.mx = np.ascontiguousarray(xs, dtype=np.float32)
        self.my = np.ascontiguousarray(ys, dtype=np.float32)

    def along(self, samples: np.ndarray) -> np.ndarray:
        """Samples remapped through mx, my, averaged across: one value a point."""
        if self.blocks == 1:
            return samples.mean(axis=0)
        return samples.reshape(self.blocks, self.rows, -1).mean(axis=1).ravel()[:self.count]

    def across(self, samples: np.ndarray) -> np.ndarray:
        """Samples remapped through mx, my as (rows across, points along)."""
        if self.blocks == 1:
            return samples
        return samples.reshape(self.blocks, self.rows, -1).transpose(1, 0, 2).reshape(self.rows, -1)[:, :self.count]


class Plan:
    """Where every region is sampled on a page of `shape` pixels over `page_mm`, and what decides
    its reading: made once per sheet, used for every photo of it."""

    def __init__(self, regions: list[Region], shape: tuple[int, int], page_mm: tuple[float, float]):
        rows, cols = shape
        kx, ky = cols / page_mm[0], rows / page_mm[1]
        k = (kx + ky) / 2
        self.regions = regions

        def px_rect(x0, y0, x1, y1):
            c0, r0 = int(round(x0 * kx)), int(round(y0 * ky))
            c1, r1 = int(round(x1 * kx)), int(round(y1 * ky))
            c0, c1 = max(0, min(cols, c0)), max(0, min(cols, c1))
            r0, r1 = max(0, min(rows, r0)), max(0, min(rows, r1))
            return (r0, max(r0, r1), c0, max(c0, c1))

        xs, ys, spans, bands, thrs, faints = [], [], [], [], [], []
        own_xs, own_ys, own_of = [], [], []         # lines with their own threshold: their points, their indices
        own_index = []                              # ... and the regions they are
        rect_pix, rect_sizes, rect_index, line_index = [], [], [], []
        local_pix, local_index = [], []             # areas measured against the paper around them
        twin_pix, twin_index = [], []               # shapes read with their twin (the lesser of the two)
        twin_xs, twin_ys, twin_of = [], [], []      # lines read with their twin: its points, the main points'
        as_printed_of = []                          # the points of lines seen as printed (LINE's as_printed)
        ridge_of = []                               # the points of lines read by their ridge (LINE's ridge)
        valley_of = []                              # ... and of those read by a valley across them (LINE's valley)
        fill_index, fill_main, fill_twin = [], [], []   # FILLs, for their ink (FILL_INK): their pixels, their twin's
        fill_windows = []                           # ... and their size in pixels (cols, rows: FILL_INK's level)
        fill_plain = []                             # ... and whether they are at the plain FILL_MARKED (FILL_INK)
        n_points = 0
        stroke_index, band_pix, off_pix, window_pix = [], [], [], []     # boxes read by a cross's strokes
        dots: dict = {}
        across = np.linspace(-0.5, 0.5, 9)[:, None]
        centre_xs, centre_ys, centre_spans, centre_thrs, centre_index = [], [], [], [], []
        reach = CENTRE_REACH + CENTRE_SIDES[1]
        centre_across = (np.arange(-round(reach / CENTRE_STEP), round(reach / CENTRE_STEP) + 1) * CENTRE_STEP)[:, None]
        shapes = [r.shape for r in regions]
        for i, g in enumerate(shapes):
            if isinstance(g, (BoxShape, AreaShape, FillShape)):
                x, y, w, h = g.x, g.y, g.w, g.h
                if isinstance(g, BoxShape) and g.strokes is not None:
                    band, off, window = _stroke_pixels(g, kx, ky, rows, cols)
                    stroke_index.append(i)
                    band_pix.append(band)
                    off_pix.append(off)
                    window_pix.append(window)
                if isinstance(g, BoxShape):
                    inset = max(0.55, 0.13 * min(w, h))
                    x, y, w, h = x + inset, y + inset, w - 2 * inset, h - 2 * inset
                r0, r1, c0, c1 = px_rect(x, y, x + w, y + h)
                pix = (np.arange(r0, r1)[:, None] * cols + np.arange(c0, c1)[None, :]).ravel()
                rect_pix.append(pix)
                rect_sizes.append(len(pix))
                rect_index.append(i)
                if isinstance(g, AreaShape) and g.around:
                    # the area itself, then the strips of paper beside it (above, below, left, right)
                    width, gap = g.around, g.gap if g.gap is not None else 0.2
                    for sx0, sy0, sx1, sy1 in ((x, y, x + w, y + h),
                                               (x, y - gap - width, x + w, y - gap),
                                               (x, y + h + gap, x + w, y + h + gap + width),
                                               (x - gap - width, y, x - gap, y + h),
                                               (x + w + gap, y, x + w + gap + width, y + h)):
                        q0, q1, p0, p1 = px_rect(sx0, sy0, sx1, sy1)
                        local_pix.append((np.arange(q0, q1)[:, None] * cols + np.arange(p0, p1)[None, :]).ravel())
                    local_index.append(i)
                if isinstance(g, FillShape) and (g.dx or g.dy):
                    q0, q1, p0, p1 = px_rect(x + g.dx, y + g.dy, x + w + g.dx, y + h + g.dy)
                    twin_pix.append((np.arange(q0, q1)[:, None] * cols + np.arange(p0, p1)[None, :]).ravel())
                    twin_index.append(i)
                if isinstance(g, FillShape):
                    fill_index.append(i)
                    fill_windows.append((c1 - c0, r1 - r0))
                    fill_plain.append(g.mean is None)
                    fill_main.append(pix)
                    fill_twin.append(twin_pix[-1] if (g.dx or g.dy) else pix)
            elif isinstance(g, LineShape):
                x1, y1, x2, y2, band = g.x1, g.y1, g.x2, g.y2, g.band
                length = float(np.hypot(x2 - x1, y2 - y1))
                n = max(4, int(length * k / 1.5))
                ux, uy = ((x2 - x1) / length, (y2 - y1) / length) if length > 0 else (1.0, 0.0)
                t = np.linspace(0.0, length, n)
                gap = g.gap if g.gap is not None else 0.0
                if gap > 0:                 # the middle left out: what crosses there is another mark's
                    t = t * (1 - gap)
                    t[t > length * (1 - gap) / 2] += length * gap
                t = t[None, :]
                if g.centre:                # read by its centre band against its sides
                    centre_xs.append(x1 + ux * t - uy * centre_across)
                    centre_ys.append(y1 + uy * t + ux * centre_across)
                    centre_spans.append(n)
                    centre_thrs.append(np.full(n, g.centre, np.float32))
                    centre_index.append(i)
                    continue
                xs.append(x1 + ux * t - uy * across * band)
                ys.append(y1 + uy * t + ux * across * band)
                if g.twin:                  # its twin: the same line moved g.twin mm across
                    twin_xs.append(xs[-1] - uy * g.twin)
                    twin_ys.append(ys[-1] + ux * g.twin)
                    twin_of.append(np.arange(n_points, n_points + n))
                if g.as_printed:
                    as_printed_of.append(np.arange(n_points, n_points + n))
                if g.ridge:
                    ridge_of.append(np.arange(n_points, n_points + n))
                if g.valley:
                    valley_of.append(np.arange(n_points, n_points + n))
                n_points += n
                spans.append(n)
                bands.append(np.full(n, band, np.float32))
                thrs.append(np.full(n, g.black if g.black is not None else LINE_PER_MM, np.float32))
                faints.append(np.full(n, g.black is None))
                if g.black is not None:     # its own threshold: read by its ink over the print too (WALL_INK)
                    own_xs.append(xs[-1])
                    own_ys.append(ys[-1])
                    own_of.append(np.arange(n_points - n, n_points))
                    own_index.append(i)
                line_index.append(i)
            else:
                cx, cy, rad = g.cx, g.cy, g.r
                size = max(3, int(round(1.2 * rad * k)) | 1)
                r0, r1, c0, c1 = px_rect(cx - rad, cy - rad, cx + rad, cy + rad)
                yy, xx = np.mgrid[r0:r1, c0:c1]
                near = (((xx + 0.5) / kx - cx) ** 2 + ((yy + 0.5) / ky - cy) ** 2) <= rad ** 2
                if not near.any():
                    continue                # off the page: reads 0, nothing seen
                dots.setdefault(size, []).append((i, (yy[near] * cols + xx[near]).ravel()))
        self.rect_index = np.array(rect_index, dtype=np.int64)
        self.rect_sizes = np.array(rect_sizes, dtype=np.int64)
        self.rect_pixels = np.concatenate(rect_pix) if rect_pix else np.zeros(0, np.int64)
        # reduceat takes each start up to the next; an empty region gets a start it does not own (zeroed after)
        self.rect_starts = np.minimum(np.concatenate([[0], np.cumsum(self.rect_sizes)[:-1]]),
                                      max(0, len(self.rect_pixels) - 1)).astype(np.int64) if rect_pix else None
        self.local_index = np.array(local_index, dtype=np.int64)
        if local_index:
            self.local_pixels, self.local_starts, self.local_empty, sizes = _gathered(local_pix)
            self.local_sizes = np.maximum(sizes, 1).astype(np.float64)
        self.twin_index = np.array(twin_index, dtype=np.int64)
        # FILLs read by their ink: the pixels of each and of its twin (itself where it has none), gathered
        self.fill_index = np.array(fill_index, dtype=np.int64)
        self.fill_groups = []
        self.fill_windows = np.array(fill_windows, dtype=np.int64).reshape(-1, 2)
        self.fill_plain = np.array(fill_plain, dtype=bool)
        for group in (fill_main, fill_twin) if fill_index else ():
            pixels, starts, empty, _ = _gathered(group)
            self.fill_groups.append((pixels, starts, empty))
        if twin_index:
            self.twin_pixels, self.twin_starts, self.twin_empty, _ = _gathered(twin_pix)
        self.stroke_index = np.array(stroke_index, dtype=np.int64)
        self._printed_boxes = None                  # (template, which boxes have print inside)
        if stroke_index:
            self.band_pixels, self.band_starts, _, sizes = _gathered(band_pix)
            self.band_sizes = np.maximum(sizes, 1)
            self.off_pixels, self.off_starts, _, self.off_sizes = _gathered(off_pix)
            if not len(self.off_pixels):
                self.off_pixels = np.zeros(1, np.int64)     # no box has corners to tell: the floor alone
            self.window_pixels, self.window_starts, _, sizes = _gathered(window_pix)
            self.window_sizes = np.maximum(sizes, 1)
        self.line_index = np.array(line_index, dtype=np.int64)
        # the lines read with a twin, as positions in line_index (Page._one_side's order)
        self.twin_lines = np.array([j for j, i in enumerate(line_index) if getattr(regions[i].shape, "twin", None)],
                                   dtype=np.int64)
        self.centre_index = np.array(centre_index, dtype=np.int64)
        self._centre_printed = None                 # (template, which centre-read points run by a printed line)
        if centre_index:
            self.centre_lines = Points(np.hstack(centre_xs) * kx - 0.5, np.hstack(centre_ys) * ky - 0.5)
            self.centre_spans = np.array(centre_spans, dtype=np.int64)
            self.centre_starts = np.concatenate([[0], np.cumsum(self.centre_spans)[:-1]])
            self.centre_thr = np.concatenate(centre_thrs)
        self.spans = np.array(spans, dtype=np.int64)
        # twins: the points of the lines read with one (twin_of: their own points' indices)
        self.twin_of = np.concatenate(twin_of) if twin_of else np.zeros(0, np.int64)
        self.as_printed_of = np.concatenate(as_printed_of) if as_printed_of else np.zeros(0, np.int64)
        self.ridge_of = np.concatenate(ridge_of) if ridge_of else np.zeros(0, np.int64)
        self.valley_of = np.concatenate(valley_of) if valley_of else np.zeros(0, np.int64)
        self.own_of = np.concatenate(own_of) if own_of else np.zeros(0, np.int64)
        self.own_index = np.array(own_index, dtype=np.int64)
        self.own_spans = np.array([len(a) for a in own_of], dtype=np.int64)
        if own_of:
            self.own_lines = Points(np.hstack(own_xs) * kx - 0.5, np.hstack(own_ys) * ky - 0.5)
        self._as_printed = None                     # (the print's visibility, those points seen in it)
        if twin_of:
            self.twins = Points(np.hstack(twin_xs) * kx - 0.5, np.hstack(twin_ys) * ky - 0.5)
        if line_index:
            self.lines = Points(np.hstack(xs) * kx - 0.5, np.hstack(ys) * ky - 0.5)
            self.band_of_point = np.concatenate(bands)
            self.thr_of_point = np.concatenate(thrs)
            self.faint_of_point = np.concatenate(faints)        # read by a faint line's level too (FAINT_LINES)
            self.starts = np.concatenate([[0], np.cumsum(self.spans)[:-1]])
        self._plain_points: tuple | None = None     # (template, the line points its print leaves plain)
        self.dot_groups = []
        for size, items in dots.items():
            idx = np.array([i for i, _ in items], dtype=np.int64)
            lens = [len(p) for _, p in items]
            self.dot_groups.append((size, idx, np.concatenate([p for _, p in items]),
                                    np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)))
        self.dot_index = np.concatenate([g[1] for g in self.dot_groups]) if self.dot_groups else np.zeros(0, np.int64)
        # what decides each reading: its threshold and the margin its confidence is measured in
        kinds = np.array([r.kind for r in regions] or [""])[:len(regions)]
        self.is_box, self.is_area = kinds == BOX, kinds == AREA
        self.marked_code = np.where(kinds == FILL, 3, 1)          # what a marked one reads: FILLED or MARKED
        self.threshold = np.array([_threshold(r) for r in regions], dtype=np.float64)
        self.margin = np.array([_margin(r) for r in regions], dtype=np.float64)
        # how each is measured (sheetgen.scan.confidence.GROUPS): what its calibrated confidence is fitted per
        self.group = np.array([GROUP[_group(r)] for r in regions], dtype=np.int64)

    def shown_as_printed(self, seen: np.ndarray) -> np.ndarray:
        """Which points of the lines seen as printed a pencil shows on in the print itself (seen: the
        template's Printed.seen_as_printed): where most of a point's samples across are.  Kept for the
        last template."""
        cached = self._as_printed
        if cached is not None and cached[0] is seen:
            return cached[1]
        vis = cv2.remap(seen, self.lines.mx, self.lines.my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                        borderValue=0)
        shown = self.lines.along(vis)[self.as_printed_of] > 0.5
        self._as_printed = (seen, shown)
        return shown

    def plain_of_point(self, template: np.ndarray, k: float) -> np.ndarray:
        """Per line point: a line at the plain threshold whose band the print leaves plain there (one colour,
        no printed edge within TOLERANCE of any sample across, light enough for a pencil to show): where a
        faint line is read and the photo's own noise measured (Page.faint_level).  Kept for the last
        template."""
        cached = self._plain_points
        if cached is not None and cached[0] is template:
            return cached[1]
        r = max(1, int(round(TOLERANCE * k)))
        darkest = cv2.erode(template, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        at = cv2.remap(template, self.lines.mx, self.lines.my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=0)
        near = cv2.remap(darkest, self.lines.mx, self.lines.my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=0)
        plain = ((self.lines.across(at) - self.lines.across(near)).max(axis=0) < FAINT_PLAIN) & \
            (self.lines.across(near).min(axis=0) >= VISIBLE) & self.faint_of_point
        self._plain_points = (template, plain)
        return plain

    def printed_boxes(self, template: np.ndarray) -> np.ndarray:
        """Which of the plan's boxes read by strokes have print inside their window: darker than the
        window's lightest (a box's tint, beige, is paper to a pencil).  Kept for the last template."""
        cached = self._printed_boxes
        if cached is not None and cached[0] is template:
            return cached[1]
        window = template.ravel()[self.window_pixels]
        lightest = np.maximum.reduceat(window, self.window_starts)
        printed = np.add.reduceat(1.0 - window / np.repeat(np.maximum(lightest, 0.05), self.window_sizes),
                                  self.window_starts) / self.window_sizes >= STROKE_PRINTED
        self._printed_boxes = (template, printed)
        return printed


def _stroke_pixels(g: BoxShape, kx: float, ky: float, rows: int, cols: int) -> tuple:
    """A box's pixels read by a cross's strokes: within the window `g.strokes` mm inside its outline, those within STROKE_BAND of its diagonals, those well off them (its
    own paper), and the whole window.  Never empty: an off-page box gets a pixel of the edge."""
    x, y, w, h, inset = g.x, g.y, g.w, g.h, g.strokes
    c0, c1 = int(round((x + inset) * kx)), int(round((x + w - inset) * kx))
    r0, r1 = int(round((y + inset) * ky)), int(round((y + h - inset) * ky))
    c0, c1 = max(0, min(cols - 1, c0)), max(0, min(cols, c1))
    r0, r1 = max(0, min(rows - 1, r0)), max(0, min(rows, r1))
    c1, r1 = max(c0 + 1, c1), max(r0 + 1, r1)
    yy, xx = np.mgrid[r0:r1, c0:c1]
    u, v = (xx + 0.5) / kx - x, (yy + 0.5) / ky - y          # mm from the box's top left corner
    norm = np.hypot(w, h)
    to_diagonal = np.minimum(np.abs(u * h - v * w), np.abs(u * h - (h - v) * w)) / norm
    pix = (yy * cols + xx).ravel()
    to_diagonal = to_diagonal.ravel()
    band = pix[to_diagonal <= STROKE_BAND]
    return (band if len(band) else pix[:1]), pix[to_diagonal > STROKE_BAND + 0.3], pix


def _gathered(groups: list) -> tuple:
    """Groups of pixel indices as one array for np.add.reduceat: (pixels, starts, which groups are
    empty, sizes); an empty group gets a start it does not own (its sum is to be zeroed)."""
    sizes = np.array([len(p) for p in groups], dtype=np.int64)
    pixels = np.concatenate(groups)
    starts = np.minimum(np.concatenate([[0], np.cumsum(sizes)[:-1]]), max(0, len(pixels) - 1)).astype(np.int64)
    return pixels, starts, sizes == 0, sizes


def _group(region: Region) -> str:
    """How a region is measured: its kind, and the variant its geometry asks for."""
    g = region.shape
    if isinstance(g, BoxShape):
        return "box-strokes" if g.strokes is not None else "box"
    if isinstance(g, LineShape):
        return "line-centre" if g.centre else "line"
    if isinstance(g, AreaShape):
        return "area-local" if g.around else "area"
    return region.kind


def _threshold(region: Region) -> float:
    """The measure from which a region reads marked (a BOX: crossed), its own where its geometry says."""
    g = region.shape
    if isinstance(g, LineShape):
        return g.share if g.share is not None else LINE_MARKED
    if isinstance(g, AreaShape):
        return g.mean if g.mean is not None else AREA_MARKED
    if isinstance(g, FillShape):
        return g.mean if g.mean is not None else FILL_MARKED
    return BOX_CROSSED if isinstance(g, BoxShape) else DOT_MARKED


def _margin(region: Region) -> float:
    """The distance from the threshold at which a reading is fully confident."""
    if region.kind == LINE:
        return 0.25
    return 0.5 * _threshold(region)


def classify(region: Region, score: float, visible: float = 1.0) -> RegionReading:
    """The reading of one measure (a region measured again on a part of it): read_regions' decision and
    confidence for a plan of that one region (its measure given)."""
    return _decided([region], np.array([score], dtype=np.float64), np.array([visible], dtype=np.float64),
                    plan=None)[region.id]


def _quantiles_of_spans(values: np.ndarray, spans: np.ndarray, q: np.ndarray) -> np.ndarray:
    """np.quantile(part, q[k]) of each consecutive part of VALUES (spans[k] long), the same floats as
    numpy's linear method gives, all parts sorted at once instead of one call a part."""
    values = np.asarray(values, dtype=np.float64)
    spans = np.asarray(spans, dtype=np.int64)
    if len(spans) == 0:
        return np.zeros(0)
    if (spans <= 0).any() or spans.sum() != len(values):
        return np.array([float(np.quantile(part, t)) for part, t in
                         zip(np.split(values, np.cumsum(spans)[:-1]), q.tolist())])
    starts = np.cumsum(spans) - spans
    part = np.repeat(np.arange(len(spans)), spans)
    ordered = values[np.lexsort((values, part))]            # each part ascending, NaN last (as numpy)
    # numpy's _quantile: the virtual index (n - 1) q, its floor and the next rank (both the last past
    # n - 1), gamma the fraction, and _lerp: a + (b - a) t, or b - (b - a)(1 - t) from t = 0.5
    virtual = (spans - 1) * q
    previous = np.floor(virtual)
    following = previous + 1
    last = virtual >= spans - 1
    previous[last] = spans[last] - 1
    following[last] = spans[last] - 1
    gamma = virtual - np.floor(virtual)
    a = ordered[starts + previous.astype(np.int64)]
    b = ordered[starts + following.astype(np.int64)]
    diff = b - a
    out = np.where(gamma >= 0.5, b - diff * (1 - gamma), a + diff * gamma)
    out[np.isnan(ordered[starts + spans - 1])] = np.nan
    return out


def read_regions(page: Page, plan: Plan) -> dict[str, RegionReading]:
    """Every region of the plan read on the page, decided all at once."""
    score, seen = page.measure(plan)
    return _decided(plan.regions, score, seen, plan, page)


def _doubt_walls(conf: np.ndarray, code: np.ndarray, unread: np.ndarray, page: Page, plan: Plan) -> None:
    """A wall read empty whose ink over the print (Page.wall_ink_level) is within half a margin of its threshold
    is not sure: its confidence (conf, in place) is that distance in margins (as a box's, a dot's or a fill's:
    half its threshold), where that is less.  A light stroke on the edge and a rubbed-out one's residue differ
    by their ink; a wall that nearly has a stroke's is said to be unsure, not read empty with confidence."""
    levels = page.wall_ink_level(plan)
    if levels is None:
        return
    i = plan.own_index
    black = np.array([plan.regions[j].shape.black for j in i.tolist()], dtype=np.float64)
    doubt = np.round(np.maximum(0.0, (black - levels) / (0.5 * black)), 3)
    empty = (code[i] == 0) & ~unread[i]
    conf[i] = np.where(empty, np.minimum(conf[i], doubt), conf[i])


def _doubt_dots(conf: np.ndarray, code: np.ndarray, unread: np.ndarray, score: np.ndarray, page: Page,
                plan: Plan) -> None:
    """A dot read empty is no surer than a mark as dark as this photo's own would have been read marked there
    (Page.dot_reach): its confidence (conf, in place) at most that reach's distance above DOT_MARKED in margins
    (half the threshold, as the reading's own).  A light pencil's dot over a printed icon about as dark as the
    pencil is said to be unsure, not read empty with confidence."""
    i = plan.dot_index
    if not len(i):
        return
    empty = (code == 0) & ~unread & (conf > 0)
    reach = page.dot_reach(plan, score, (code != 0) & ~unread & (conf >= UNCERTAIN), empty)
    if reach is None:
        return
    doubt = np.round(np.clip((reach - DOT_MARKED) / (0.5 * DOT_MARKED), 0.0, 1.0), 3)
    conf[i] = np.where(empty[i], np.minimum(conf[i], doubt), conf[i])


# a line read with its twin (a door box's two sides) read empty, though one side alone is penciled along its
# share and both together along at least this part of it, is unsure (_doubt_twins)
TWIN_BOTH_DOUBT = 0.25


def _doubt_twins(conf: np.ndarray, code: np.ndarray, unread: np.ndarray, score: np.ndarray, page: Page,
                 plan: Plan) -> None:
    """A line read with its twin (a door's box, both sides at once) read empty where one side alone is penciled
    along the line's share and both sides together along TWIN_BOTH_DOUBT of it is not sure: a box drawn light on
    one side, not a wall's stroke off its edge (which darkens one side only).  Its confidence (conf, in place) is
    then below UNCERTAIN, the less the nearer both sides come to the share."""
    kept = page._one_side
    if kept is None or kept[0] is not plan or not len(plan.twin_lines):
        return
    one_side = kept[1][plan.twin_lines]
    i = plan.line_index[plan.twin_lines]
    share = plan.threshold[i]
    doubt = (code[i] == 0) & ~unread[i] & (one_side >= share) & (score[i] >= TWIN_BOTH_DOUBT * share)
    unsure = np.round(UNCERTAIN * np.clip((share - score[i]) / share, 0.0, 1.0), 3)
    conf[i] = np.where(doubt, np.minimum(conf[i], np.minimum(unsure, UNCERTAIN - 0.001)), conf[i])


# readings' features as they are decided (ids, group, marked, distance, seen, unread), for the calibrated
# confidence's fit (tests/tools/train_scan_confidence.py, bench/bench_scan.py --hold-out); None: not kept
recording: list | None = None


def _decided(regions: list[Region], score: np.ndarray, seen: np.ndarray, plan: Plan | None,
             page: Page | None = None) -> dict[str, RegionReading]:
    """The readings of measures: each region marked from its threshold (a box crossed, filled from
    BOX_FILLED; a box read by strokes by them), and its confidence: its distance from the threshold in
    margins, capped at 1.  A region mostly under dark print reads empty with confidence 0 (nothing could
    be seen).  `recording` (a list) keeps what each reading was decided on."""
    score, seen = np.round(score, 4), np.round(seen, 3)
    if plan is None:            # one region (classify): what a plan would work out for it
        threshold = np.array([_threshold(r) for r in regions], dtype=np.float64)
        margin = np.array([_margin(r) for r in regions], dtype=np.float64)
        kinds = np.array([r.kind for r in regions])
        box, is_area = kinds == BOX, kinds == AREA
        marked_code = np.where(kinds == FILL, 3, 1)
        group = np.array([GROUP[_group(r)] for r in regions], dtype=np.int64)
    else:
        threshold, margin, box, is_area = plan.threshold, plan.margin, plan.is_box, plan.is_area
        marked_code, group = plan.marked_code, plan.group
    # boxes: crossed from BOX_CROSSED, filled from BOX_FILLED, measured from the nearer one
    nearer_filled = box & ((score >= BOX_FILLED) | ((score >= BOX_CROSSED) & (score - BOX_CROSSED >= BOX_FILLED - score)))
    t = np.where(nearer_filled, BOX_FILLED, threshold)
    margin = np.where(nearer_filled, 0.3 * BOX_FILLED, margin)
    marked = score >= threshold
    distance = np.abs(score - t) / margin
    unread = (seen < HIDDEN) | (is_area & (seen < AREA_FEW_SEEN))
    code = np.where(unread | ~marked, 0, np.where(box, np.where(score >= BOX_FILLED, 3, 2), marked_code))
    if plan is not None and page is not None and len(plan.stroke_index):
        # boxes read by a cross's strokes: filled by their mean darkness, else crossed by the strokes (or
        # by a heavy mark of any shape), the strokes' measure reported and its distance
        i = plan.stroke_index
        mean = score[i]
        measure, relative = page.strokes(plan)
        filled = mean >= BOX_FILLED
        crossed = ~filled & ((relative >= 1.0) | (mean >= BOX_HEAVY))
        code[i] = np.where(unread[i], 0, np.where(filled, 3, np.where(crossed, 2, 0)))
        score[i] = np.where(filled, mean, np.round(measure, 4))
        distance[i] = np.where(filled, np.abs(mean - BOX_FILLED) / (0.3 * BOX_FILLED),
                               np.where(crossed & (relative < 1.0), np.abs(mean - BOX_HEAVY) / (0.5 * BOX_HEAVY),
                                        np.abs(relative - 1.0) / 0.5))
    # the confidence: the distance, capped at a margin (a calibrated probability, sheetgen.scan.confidence,
    # was measured against it leaving each family out and told no more legal sheets "consistent" without
    # telling more misread ones so: docs/scanning.md)
    conf = np.round(np.minimum(1.0, distance), 3)
    if plan is not None and page is not None and WALL_INK and len(plan.own_index):
        _doubt_walls(conf, code, unread, page, plan)
    if plan is not None and page is not None:
        _doubt_twins(conf, code, unread, score, page, plan)
        if DOT_REACH:
            _doubt_dots(conf, code, unread, score, page, plan)
    conf[unread] = 0.0
    if recording is not None:
        recording.append(([r.id for r in regions], group, code != 0, distance, seen, unread))
    values = (EMPTY, MARKED, CROSSED, FILLED)
    return {r.id: RegionReading(r, values[c], f, a, b)
            for r, c, f, a, b in zip(regions, code.tolist(), conf.tolist(), score.tolist(), seen.tolist())}
