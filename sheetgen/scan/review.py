"""A person's review of a scan (`sheetgen scan PHOTO --review`): the regions the reader was
least sure of first, a tap flipping one region's reading, the check run again on the corrected
readings, the corrections kept in the sheetscan file (`corrections:`, each marked `by: person`).

ReviewSession knows nothing of the web: sheetgen.web.review serves it (the command joins the
two), so the scan part stays free of the web extra and the web part free of numpy and OpenCV.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .contract import BOX, CROSSED, EMPTY, FILL, FILLED, MARKED, DotShape, LineShape, RegionReading

PERSON = "person"               # who made a correction (the only kind today: extendable)
CROP_MM = 9.0                   # the paper shown around a region in its close-up


def cycle(kind: str) -> tuple[str, ...]:
    """The readings a tap steps through for a region of KIND (a box: empty, crossed, filled)."""
    if kind == BOX:
        return (EMPTY, CROSSED, FILLED)
    if kind == FILL:
        return (EMPTY, FILLED)
    return (EMPTY, MARKED)


def next_value(kind: str, value: str) -> str:
    values = cycle(kind)
    return values[(values.index(value) + 1) % len(values)] if value in values else values[0]


def taps_between(kind: str, read: str, truth: str) -> int:
    """The taps that take a region of KIND from READ to TRUTH (0: it was read right)."""
    values = cycle(kind)
    if read not in values or truth not in values:
        return 0 if read == truth else 1
    return (values.index(truth) - values.index(read)) % len(values)


@dataclass(frozen=True)
class Correction:
    id: str
    read: str                   # what the reader read
    now: str                    # what the person says it is

    def as_dict(self) -> dict:
        return {"id": self.id, "read": self.read, "now": self.now, "by": PERSON}


def corrections_of(result) -> list[Correction]:
    return list(result.corrections)


def review_order(result) -> list[RegionReading]:
    """Every readable region, the uncertain first (least sure first), then the marked, then the rest."""
    readings = [r for r in result.readings.values() if not r.hidden]
    return sorted(readings, key=lambda r: (not r.uncertain, r.confidence if r.uncertain else 0.0,
                                           not r.marked, r.region.id))


class ReviewSession:
    """One scan under review: flip(id) corrects a region and runs the check again; save() writes
    the sheetscan YAML with the corrections.  `scanner` is the sheet's game scanner; `record`
    (a play log path) and `label`: the record compared with, when there is one."""

    def __init__(self, result, scanner, yaml_path: Path, overlay_path: Path | None = None,
                 record: str | None = None, label: str | None = None):
        self.result, self.scanner = result, scanner
        self.yaml_path, self.overlay_path = Path(yaml_path), overlay_path
        self.record, self.label = record, label
        self.original = {rid: r for rid, r in result.readings.items()}
        # the order is the reader's, fixed for the session: a region keeps its number on the page
        # whatever a person says of it
        self.order = [r.region.id for r in review_order(result)]
        result.corrections = []
        result.confirmed = []
        self._photo_png: bytes | None = None
        self._flat: np.ndarray | None = None
        self.rows, self.cols = result.page.rows, result.page.cols
        self.kx, self.ky = result.page.kx, result.page.ky

    # -- the corrections -------------------------------------------------------------------
    def flip(self, rid: str) -> str:
        """Step region RID to its next reading; the check runs again. KeyError: no such region."""
        reading = self.result.readings[rid]
        if reading.hidden:
            raise KeyError(rid)
        return self.set(rid, next_value(reading.region.kind, reading.value))

    def confirm(self, rid: str) -> str:
        """A person says region RID reads right as it is: sure from now on, so the verdict no longer
        waits on it; the check runs again. KeyError: no such region. A corrected region is already
        a person's word (no-op)."""
        reading, first = self.result.readings[rid], self.original[rid]
        if reading.hidden:
            raise KeyError(rid)
        if reading.value == first.value and rid not in self.result.confirmed:
            self.result.readings[rid] = RegionReading(first.region, first.value, 1.0, first.score, first.visible)
            self.result.confirmed = sorted(self.result.confirmed + [rid])
            self.recheck()
        return reading.value

    def set(self, rid: str, value: str) -> str:
        first = self.original[rid]
        if value not in cycle(first.region.kind):
            raise ValueError(f"{value!r} is not a reading of a {first.region.kind}")
        # a flip after a confirmation: the person changes their mind, the region is theirs no more
        # (back to the reading's doubt) or corrected
        self.result.confirmed = [i for i in self.result.confirmed if i != rid]
        if value == first.value:
            self.result.readings[rid] = first
        else:
            # a person's word is certain: the region leaves the uncertain list
            self.result.readings[rid] = RegionReading(first.region, value, 1.0, first.score, first.visible)
        self.result.corrections = [Correction(i, self.original[i].value, r.value)
                                   for i, r in sorted(self.result.readings.items())
                                   if r.value != self.original[i].value]
        self.recheck()
        return value

    def recheck(self) -> None:
        result = self.result
        result.reread(result.readings)
        if self.record is not None:
            from .pipeline import compare_with_record
            compare_with_record(result, self.scanner, self.record, self.label)

    def save(self) -> None:
        """The sheetscan YAML again, with the corrections (written whole or not at all)."""
        from ..atomic import write_text
        from .report import sheetscan_yaml
        write_text(self.yaml_path, sheetscan_yaml(self.result))

    # -- what the page shows ---------------------------------------------------------------
    def otherwise(self, rids, most: int | None = None) -> dict[str, str]:
        """Of RIDS, the regions the verdict waits on (unsure, not moot; the first MOST of them), each with what
        the rules find were it read otherwise ("if marked: the rules still hold"; report.if_otherwise)."""
        from .report import if_otherwise
        waits = {r.region.id for r in self.result.unsure()}
        holds = not self.result.violations
        asked = [rid for rid in rids if rid in waits][:most]
        return {rid: "; ".join(if_otherwise(self.result.otherwise(self.result.readings[rid]), holds=holds))
                for rid in asked}

    def regions(self) -> list[dict]:
        """Every readable region for the page, in review order: id, role, kind, reading, what a
        tap makes it, confidence, uncertain, corrected, and its outline in mm (shape)."""
        out = []
        for rid in self.order:
            r, first = self.result.readings[rid], self.original[rid]
            out.append({"id": r.region.id, "role": r.region.role, "place": self.scanner.place(r.region),
                        "kind": r.region.kind, "reading": r.value,
                        "next": next_value(r.region.kind, r.value), "confidence": round(first.confidence, 2),
                        "uncertain": first.uncertain, "corrected": r.value != first.value,
                        "confirmed": r.region.id in self.result.confirmed,
                        "shape": shape_of(r.region)})
        return out

    def summary(self) -> dict:
        result = self.result
        return {"photo": result.photo, "sheet": result.sheet.identity.describe(),
                "verdict": result.verdict, "to_check": len(result.unsure()),
                "violations": [v.message for v in result.violations],
                "differences": [d.message for d in result.differences],
                "corrections": len(result.corrections), "confirmed": len(result.confirmed),
                "uncertain": len(result.uncertain()),
                "page_mm": (result.sheet.page.width, result.sheet.page.height),
                "yaml": str(self.yaml_path)}

    def flat(self) -> np.ndarray:
        """The photo made flat, without outlines (the page draws its own, to be tapped)."""
        if self._flat is None:
            from .overlay import flat_image
            self._flat = flat_image(self.result)
        return self._flat

    def photo_png(self) -> bytes:
        if self._photo_png is None:
            img = self.flat()
            # a phone needs no more than ~1600 px across: a smaller file, a quicker page
            scale = min(1.0, 1600.0 / img.shape[1])
            if scale < 1.0:
                img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            self._photo_png = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
        return self._photo_png

    def crop_png(self, rid: str) -> bytes:
        """A close-up of region RID (KeyError: none) with its outline, enlarged to about 240 px."""
        region = self.result.readings[rid].region
        x0, y0, x1, y1 = region.bounds()
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half = max(CROP_MM, (x1 - x0) / 2 + 3, (y1 - y0) / 2 + 3)
        c0, c1 = max(0, int((cx - half) * self.kx)), min(self.cols, int((cx + half) * self.kx))
        r0, r1 = max(0, int((cy - half) * self.ky)), min(self.rows, int((cy + half) * self.ky))
        img = self.flat()[r0:r1, c0:c1].copy()
        zoom = 240.0 / max(1, max(img.shape[:2]))
        img = cv2.resize(img, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        (bx0, by0), (bx1, by1) = [(int((x * self.kx - c0) * zoom), int((y * self.ky - r0) * zoom))
                                  for x, y in ((x0, y0), (x1, y1))]
        pad = 4
        cv2.rectangle(img, (bx0 - pad, by0 - pad), (bx1 + pad, by1 + pad), (0, 110, 230), 2)
        return cv2.imencode(".png", img)[1].tobytes()


def shape_of(region) -> dict:
    """A region's outline in page mm, for the page's SVG: a rect, a line or a circle."""
    g = region.shape
    if isinstance(g, LineShape):
        return {"line": [round(v, 2) for v in g.ends], "band": round(g.band, 2)}
    if isinstance(g, DotShape):
        return {"circle": [round(g.cx, 2), round(g.cy, 2), round(g.r, 2)]}
    return {"rect": [round(v, 2) for v in (g.x, g.y, g.w, g.h)]}


def taps_needed(result, truth: dict[str, str]) -> tuple[int, int, int]:
    """(taps to make the reading TRUTH, of them on regions listed as uncertain, regions wrong) over
    the readable regions whose truth is known: what --review asks of a person for this sheet."""
    taps = listed = wrong = 0
    for rid, value in truth.items():
        reading = result.readings.get(rid)
        if reading is None or reading.hidden:
            continue
        n = taps_between(reading.region.kind, reading.value, value)
        if n:
            wrong += 1
            taps += n
            listed += n if reading.uncertain else 0
    return taps, listed, wrong
