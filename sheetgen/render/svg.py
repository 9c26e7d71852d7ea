"""SVG back end (svgwrite; the only module of sheetgen that imports it).

One SVG per page: width/height in mm and a viewBox in mm, so user units are
millimetres and the model's coordinates are written as they are.  Primitive
ids and classes are kept (ids unique per page: a repeated id becomes a class).
Numbers are rounded to 0.0001 mm so output is deterministic and compact;
svgwrite's validation is off (it is slow and we write known-good attributes).
"""
from __future__ import annotations

import base64
import mimetypes

from ..draw.model import PT_PER_MM, Circle, Group, Image, Line, Path, Polygon, Rect, Text
from ..errors import InputError, Problem
from .common import SVG_FALLBACK, SVG_FONTS, check_image, hex_colour

_CAPS = {"butt", "round", "square"}
_JOINS = {"miter", "round", "bevel"}


def _n(v: float):
    """Round to 0.0001 mm; whole numbers as int (shorter, and stable)."""
    r = round(v, 4)
    i = int(r)
    return i if i == r else r


class _SvgPage:
    def __init__(self, dwg, grayscale: bool, style_cache: dict, image_cache: dict):
        self.dwg = dwg
        self.gray = grayscale
        self.ids: set[str] = set()
        self.style_cache = style_cache
        self.image_cache = image_cache

    def _attrs(self, item, extra: dict) -> dict:
        """id/class attributes: the first use of an id keeps it, repeats go to class."""
        ident, cls = item.id, item.cls
        if ident is not None:
            if ident in self.ids:
                cls = f"{cls} {ident}" if cls else ident
            else:
                self.ids.add(ident)
                extra["id"] = ident
        if cls:
            extra["class_"] = cls
        return extra

    def _style(self, style, closed_fill: bool = True) -> dict:
        key = (style, closed_fill)
        attrs = self.style_cache.get(key)
        if attrs is None:
            attrs = {}
            gray = self.gray
            if style.stroke is not None and style.stroke_width > 0:
                attrs["stroke"] = hex_colour(style.stroke, gray)
                attrs["stroke_width"] = _n(style.stroke_width)
                if style.dash:
                    attrs["stroke_dasharray"] = " ".join(str(_n(d)) for d in style.dash)
                if style.cap != "butt" and style.cap in _CAPS:
                    attrs["stroke_linecap"] = style.cap
                if style.join != "miter" and style.join in _JOINS:
                    attrs["stroke_linejoin"] = style.join
            else:
                attrs["stroke"] = "none"
            attrs["fill"] = hex_colour(style.fill, gray) if style.fill is not None else "none"
            if style.opacity != 1.0:
                attrs["fill_opacity"] = _n(style.opacity)
                attrs["stroke_opacity"] = _n(style.opacity)
            self.style_cache[key] = attrs
        return attrs

    def items(self, parent, items) -> None:
        dwg = self.dwg
        for item in items:
            t = type(item)
            if t is Line:
                parent.add(dwg.line((_n(item.x1), _n(item.y1)), (_n(item.x2), _n(item.y2)),
                                    **self._attrs(item, dict(self._style(item.style)))))
            elif t is Rect:
                extra = dict(self._style(item.style))
                if item.radius > 0:
                    extra["rx"] = extra["ry"] = _n(item.radius)
                parent.add(dwg.rect((_n(item.x), _n(item.y)), (_n(item.w), _n(item.h)),
                                    **self._attrs(item, extra)))
            elif t is Text:
                self.text(parent, item)
            elif t is Group:
                extra = {}
                if item.transform is not None:
                    extra["transform"] = "matrix(" + " ".join(str(_n(v)) for v in item.transform) + ")"
                g = dwg.g(**self._attrs(item, extra))
                self.items(g, item.items)
                parent.add(g)
            elif t is Circle:
                parent.add(dwg.circle((_n(item.cx), _n(item.cy)), _n(item.r),
                                      **self._attrs(item, dict(self._style(item.style)))))
            elif t is Polygon:
                pts = [(_n(x), _n(y)) for x, y in item.points]
                make = dwg.polygon if item.closed else dwg.polyline
                parent.add(make(pts, **self._attrs(item, dict(self._style(item.style)))))
            elif t is Path:
                parent.add(dwg.path(d=_path_data(item.commands),
                                    **self._attrs(item, dict(self._style(item.style)))))
            elif t is Image:
                parent.add(dwg.image(self._image_href(item.path), insert=(_n(item.x), _n(item.y)),
                                     size=(_n(item.w), _n(item.h)),
                                     **self._attrs(item, {"preserveAspectRatio": "none"})))
            else:
                raise TypeError(f"cannot draw {item!r}")

    def text(self, parent, t: Text) -> None:
        family, weight, style = SVG_FONTS.get(t.font, SVG_FONTS["sans"])
        extra = {"font_family": f"{family}, {SVG_FALLBACK[family]}",
                 "font_size": _n(t.size / PT_PER_MM), "fill": hex_colour(t.fill, self.gray)}
        if weight:
            extra["font_weight"] = weight
        if style:
            extra["font_style"] = style
        if t.anchor != "start":
            extra["text_anchor"] = t.anchor
        parent.add(self.dwg.text(t.text, insert=(_n(t.x), _n(t.y)), **self._attrs(t, extra)))

    def _image_href(self, path: str) -> str:
        # Embedded as a data URI: the SVG stands alone, like the PDF.
        href = self.image_cache.get(path)
        if href is None:
            p = check_image(path)
            mime = mimetypes.guess_type(p.name)[0] or "image/png"
            try:
                data = p.read_bytes()
            except OSError as exc:
                raise InputError(Problem(f"cannot read image: {exc}", str(p))) from None
            href = self.image_cache[path] = f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
        return href


def _path_data(commands) -> str:
    parts = []
    for cmd in commands:
        k = cmd[0]
        if k in ("M", "L", "C"):
            parts.append(k + " ".join(str(_n(v)) for v in cmd[1:]))
        elif k == "Z":
            parts.append("Z")
        else:
            raise InputError(Problem(f"unknown path command {k!r}", expected="M, L, C or Z"))
    return " ".join(parts)


def iter_svg_pages(doc, grayscale: bool = False):
    """Yield the SVG text of each page in turn."""
    import svgwrite

    style_cache: dict = {}
    image_cache: dict = {}
    for page in doc.pages:
        w, h = _n(page.width), _n(page.height)
        dwg = svgwrite.Drawing(size=(f"{w}mm", f"{h}mm"), viewBox=f"0 0 {w} {h}", debug=False,
                               profile="full")
        dwg.add(dwg.rect((0, 0), (w, h), fill="#ffffff", stroke="none", class_="page-background"))
        if doc.title:
            dwg.set_desc(title=doc.title)
        writer = _SvgPage(dwg, grayscale, style_cache, image_cache)
        writer.items(dwg, page.items)
        yield dwg.tostring()
