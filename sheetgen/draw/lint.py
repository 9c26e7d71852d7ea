"""Layout lint on composed pages: text that runs into other elements, and elements
that one paper size prints and the other leaves out.

`overlaps(document)` finds every text whose ink box comes within CLEARANCE of
another element: another text's ink, a line's stroke, or the bounds of a shape or
image (a text wholly inside a box, circle or filled shape, clear of its outline, is
a label in its box, not a collision).  Text boxes are the glyphs' ink as the
font's outlines put it (sheetgen.fonts.ink_box), so a descender counts where there
is one.  The parts of one icon overlap by design and are not compared with each
other.  An overlap that is deliberate is said so in the drawing model: the cls
token OVERLAP_OK on an item or on a group around it (`allow_overlap(item)`; a
layout element's `overlap: true`).

`paper_difference(compose)` builds a sheet at A4 and at Letter and returns the
element ids (and the printed words) only one of them has: nothing may silently
vanish on the other paper.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterator

from .model import (OVERLAP_OK, Circle, Document, Group, Image, Line, Path, Polygon, Rect, Text, allow_overlap,
                    compose, has_token)

__all__ = ["CLEARANCE", "OVERLAP_OK", "Overlap", "PaperDifference", "allow_overlap", "element_ids", "overlaps",
           "page_overlaps", "paper_difference", "printed_words", "text_box"]

CLEARANCE = 0.2                 # mm: ink closer than this touches
_BUCKET = 20.0                  # mm: the side of the squares of the spatial index


@dataclass(frozen=True)
class Overlap:
    """A text that runs into another element of a page."""
    page: int                   # 1-based
    page_name: str
    text: str
    text_id: str | None         # the text's id, or the nearest group's around it
    other: str                  # what it runs into: 'rect el-box', 'text "Life" (el-x)', ...
    other_id: str | None
    at: tuple[float, float]     # where the two meet (mm from the top-left corner)

    def __str__(self) -> str:
        where = f"page {self.page}" + (f" ({self.page_name})" if self.page_name else "")
        from ..limits import quoted
        return (f"{where}: text {quoted(self.text)} ({self.text_id or 'no id'}) runs into {self.other} "
                f"at {self.at[0]:.1f}, {self.at[1]:.1f} mm")


# -- what a page puts where ------------------------------------------------------------------------


@dataclass
class _Shape:
    box: tuple[float, float, float, float]              # ink bounds (x0, y0, x1, y1), strokes included
    inside: tuple[float, float, float, float] | None    # where a text is inside it and clear of it
    segments: tuple | None                              # lines and open polylines: their segments
    half_width: float                                   # half the stroke of the segments
    description: str
    ident: str | None
    allowed: bool                                       # marked OVERLAP_OK
    icon: int | None                                    # which icon it is part of
    text: Text | None = None


def _apply(t, x: float, y: float) -> tuple[float, float]:
    if t is None:
        return x, y
    a, b, c, d, e, f = t
    return a * x + c * y + e, b * x + d * y + f


def _bounds(points) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _box_through(t, x0, y0, x1, y1) -> tuple[float, float, float, float]:
    if t is None:
        return x0, y0, x1, y1
    return _bounds([_apply(t, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))])


def _grow(box, d: float) -> tuple[float, float, float, float]:
    return box[0] - d, box[1] - d, box[2] + d, box[3] + d


def _scale_of(t) -> float:
    """How much the transform scales lengths (for stroke widths)."""
    if t is None:
        return 1.0
    a, b, c, d, _, _ = t
    return abs(a * d - b * c) ** 0.5


def _walk(items, t=None, allowed=False, icon=None, owner=None) -> Iterator[tuple]:
    for item in items:
        ok = allowed or has_token(item.cls, OVERLAP_OK)
        if isinstance(item, Group):
            inner = item.transform if t is None else (t if item.transform is None else compose(t, item.transform))
            in_icon = id(item) if icon is None and has_token(item.cls, "icon") else icon
            yield from _walk(item.items, inner, ok, in_icon, item.id or owner)
        else:
            yield item, t, ok, icon, item.id or owner


def text_box(item: Text, t=None) -> tuple[float, float, float, float]:
    """The ink box of a text on the page (mm)."""
    from ..fonts import ink_box, text_width
    left, top, right, bottom = ink_box(item.text, item.font, item.size)
    shift = {"start": 0.0, "middle": -0.5, "end": -1.0}.get(item.anchor, 0.0) * text_width(item.text, item.font,
                                                                                          item.size)
    x, y = item.x + shift, item.y
    return _box_through(t, x + left, y + top, x + right, y + bottom)


def _shape(item, t, allowed, icon, owner) -> _Shape | None:
    describe = f"{type(item).__name__.lower()} {item.id or owner or item.cls or ''}".strip()
    if isinstance(item, Text):
        if not item.text.strip():
            return None
        box = text_box(item, t)
        return _Shape(box, None, None, 0.0, f"text {item.text!r} ({item.id or owner or 'no id'})", item.id or owner,
                      allowed, icon, item)
    style = getattr(item, "style", None)
    if style is not None and style.stroke is None and style.fill is None:
        return None                                 # draws nothing
    half = (style.stroke_width / 2 if style is not None and style.stroke else 0.0) * _scale_of(t)
    if isinstance(item, Line):
        a, b = _apply(t, item.x1, item.y1), _apply(t, item.x2, item.y2)
        return _Shape(_grow(_bounds((a, b)), half), None, ((a, b),), half, describe, item.id or owner, allowed, icon)
    if isinstance(item, Polygon) and not item.closed and style.fill is None:
        pts = [_apply(t, x, y) for x, y in item.points]
        return _Shape(_grow(_bounds(pts), half), None, tuple(zip(pts, pts[1:])), half, describe, item.id or owner,
                      allowed, icon)
    if isinstance(item, Rect):
        box = _box_through(t, item.x, item.y, item.x + item.w, item.y + item.h)
    elif isinstance(item, Circle):
        box = _box_through(t, item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r)
    elif isinstance(item, Polygon):
        box = _bounds([_apply(t, x, y) for x, y in item.points])
    elif isinstance(item, Path):
        pts = [_apply(t, c[i], c[i + 1]) for c in item.commands for i in range(1, len(c) - 1, 2)]
        if not pts:
            return None
        box = _bounds(pts)
    elif isinstance(item, Image):
        box = _box_through(t, item.x, item.y, item.x + item.w, item.y + item.h)
    else:
        return None
    inside = _grow(box, -(half + CLEARANCE)) if half else box
    return _Shape(_grow(box, half), inside, None, 0.0, describe, item.id or owner, allowed, icon)


def _meets(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _within(a, b) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _segment_meets(p, q, box) -> bool:
    """Does the segment p-q pass through the box?"""
    from .patterns import clip_to_box
    return clip_to_box(p[0], p[1], q[0] - p[0], q[1] - p[1], box, 0.0, 1.0) is not None


def _collides(text: _Shape, other: _Shape) -> bool:
    reach = _grow(text.box, CLEARANCE)
    if not _meets(reach, other.box):
        return False
    if other.segments is not None:
        wide = _grow(reach, other.half_width)
        return any(_segment_meets(p, q, wide) for p, q in other.segments)
    if other.inside is not None and _within(text.box, other.inside):
        return False                                # a label inside its box, clear of the outline
    return True


def _meeting_point(a, b) -> tuple[float, float]:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    return (x0 + x1) / 2, (y0 + y1) / 2


def page_overlaps(items, page_number: int = 1, page_name: str = "") -> list[Overlap]:
    """Every text of the items that runs into another element (see the module's docstring)."""
    shapes = [s for s in (_shape(*found) for found in _walk(items)) if s is not None]
    index: dict[tuple[int, int], list[int]] = {}
    for n, s in enumerate(shapes):
        for key in _buckets(s.box):
            index.setdefault(key, []).append(n)
    found: list[Overlap] = []
    seen: set[tuple] = set()            # (text, element met): one finding each, not one per stroke of an icon
    for n, text in enumerate(shapes):
        if text.text is None:
            continue
        near = sorted({m for key in _buckets(_grow(text.box, CLEARANCE)) for m in index.get(key, ())})
        for m in near:
            other = shapes[m]
            if m == n or text.allowed or other.allowed or (text.icon is not None and text.icon == other.icon):
                continue
            key = (frozenset((n, m)),) if other.text is not None else (n, other.ident or m)
            if key in seen or not _collides(text, other):
                continue
            seen.add(key)
            found.append(Overlap(page_number, page_name, text.text.text, text.ident, other.description, other.ident,
                                 _meeting_point(_grow(text.box, CLEARANCE), other.box)))
    return found


def _buckets(box) -> Iterator[tuple[int, int]]:
    for i in range(int(box[0] // _BUCKET), int(box[2] // _BUCKET) + 1):
        for j in range(int(box[1] // _BUCKET), int(box[3] // _BUCKET) + 1):
            yield i, j


def overlaps(document: Document) -> list[Overlap]:
    """Every text of every page that runs into another element."""
    out: list[Overlap] = []
    for n, page in enumerate(document.pages, start=1):
        out.extend(page_overlaps(page.items, n, page.name))
    return out


# -- A4 and Letter print the same elements ------------------------------------------------------------


def element_ids(document: Document) -> set[str]:
    """The id of every item of every page (groups included)."""
    ids: set[str] = set()

    def visit(items) -> None:
        for item in items:
            if item.id:
                ids.add(item.id)
            if isinstance(item, Group):
                visit(item.items)
    for page in document.pages:
        visit(page.items)
    return ids


_PAPER_WORDS = {"a4", "letter"}


def printed_words(document: Document) -> Counter:
    """Every word the pages print, how often (words with digits and paper names left
    out: sizes and notes such as '9.5 mm · a4' change with the paper by design)."""
    words: Counter = Counter()

    def visit(items) -> None:
        for item in items:
            if isinstance(item, Group):
                visit(item.items)
            elif isinstance(item, Text):
                for word in item.text.split():
                    if not any(ch.isdigit() for ch in word) and word.strip("·,.;:()").lower() not in _PAPER_WORDS:
                        words[word] += 1
    for page in document.pages:
        visit(page.items)
    return words


@dataclass(frozen=True)
class PaperDifference:
    """What one paper prints and the other does not: element ids, and words (which
    catch a part that has no id, such as a table of texts)."""
    only_a4: frozenset[str]
    only_letter: frozenset[str]
    words_only_a4: tuple[tuple[str, int], ...] = ()
    words_only_letter: tuple[tuple[str, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.only_a4 or self.only_letter or self.words_only_a4 or self.words_only_letter)

    def __str__(self) -> str:
        parts = []
        for paper, ids, words in (("A4", self.only_a4, self.words_only_a4),
                                  ("Letter", self.only_letter, self.words_only_letter)):
            if ids:
                shown = ", ".join(sorted(ids)[:12]) + (f", ... ({len(ids)} in all)" if len(ids) > 12 else "")
                parts.append(f"elements only on {paper}: {shown}")
            if words:
                shown = " ".join(w if n == 1 else f"{w} (x{n})" for w, n in words[:20]) \
                    + (" ..." if len(words) > 20 else "")
                parts.append(f"words only on {paper}: {shown}")
        return "; ".join(parts) or "the same elements and words on A4 and Letter"


def paper_difference(compose_at: Callable[[str], Document]) -> PaperDifference:
    """The element ids and printed words a sheet has on only one of A4 and Letter;
    compose_at(paper) composes the sheet on that paper ('a4' or 'letter')."""
    a4_doc, letter_doc = compose_at("a4"), compose_at("letter")
    a4, letter = element_ids(a4_doc), element_ids(letter_doc)
    a4_words, letter_words = printed_words(a4_doc), printed_words(letter_doc)
    return PaperDifference(frozenset(a4 - letter), frozenset(letter - a4),
                           tuple(sorted((a4_words - letter_words).items())),
                           tuple(sorted((letter_words - a4_words).items())))


def _printed(page) -> Iterator[_Shape]:
    """The shapes of everything on the page a printer prints: crop marks (they run to the edge
    on purpose) and white fills (they print nothing) left out."""
    for found in _walk(page.items):
        item = found[0]
        if has_token(item.cls, "crop"):
            continue
        style = getattr(item, "style", None)
        if style is not None and style.stroke is None and (style.fill or "").lower() in ("#ffffff", "white"):
            continue
        shape = _shape(*found)
        if shape is not None:
            yield shape


def printed_extent(page) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1 in mm) of everything a printer prints on the page (as near_edge
    measures it), or None for a page that prints nothing."""
    boxes = [shape.box for shape in _printed(page)]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def near_edge(page, margin: float) -> list[tuple[str, str | None, float]]:
    """What prints within margin mm of the page's edge, as (description, element id, gap in mm):
    many printers print nothing there.  Crop marks run to the edge on purpose; white fills
    print nothing."""
    out = []
    for shape in _printed(page):
        x0, y0, x1, y1 = shape.box
        gap = min(x0, y0, page.width - x1, page.height - y1)
        if gap < margin - 1e-6:
            description = shape.description
            if shape.text is not None:          # (a long text by its beginning and end)
                from ..limits import quoted
                description = f"text {quoted(shape.text.text)} ({shape.ident or 'no id'})"
            out.append((description, shape.ident, gap))
    return out
