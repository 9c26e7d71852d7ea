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
from ..fonts import check_font
from .common import SVG_FONTS, check_image, dash_of, grey_image_png, hex_colour
from .svgfonts import family_list, font_face_css

_CAPS = {"butt", "round", "square"}
_JOINS = {"miter", "round", "bevel"}
# Inherited by every element from the page's root group, so the common case
# (thin black lines, sans text) carries no presentation attributes at all.
# The miter limit is PDF's default (SVG's own is 4), so sharp corners agree.
ROOT_STYLE = {"stroke": "#000000", "stroke_width": 0.25, "stroke_miterlimit": 10, "fill": "none",
              "font_family": "DejaVu Sans, sans-serif", "font_size": round(10 / PT_PER_MM, 4)}


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

    def _attrs(self, item, base: dict) -> dict:
        """base plus id/class: the first use of an id keeps it, repeats go to class.
        base is shared (cached) and never modified."""
        ident, cls = item.id, item.cls
        if ident is None and not cls:
            return base
        extra = dict(base)
        if ident is not None:
            if ident in self.ids:
                cls = f"{cls} {ident}" if cls else ident
            else:
                self.ids.add(ident)
                extra["id"] = ident
        if cls:
            extra["class_"] = cls
        return extra

    def _style(self, style) -> dict:
        """Presentation attributes that differ from the page defaults (ROOT_STYLE)."""
        attrs = self.style_cache.get(style)
        if attrs is None:
            attrs = {}
            gray = self.gray
            if style.stroke is not None and style.stroke_width > 0:
                stroke = hex_colour(style.stroke, gray)
                if stroke != ROOT_STYLE["stroke"]:
                    attrs["stroke"] = stroke
                if _n(style.stroke_width) != ROOT_STYLE["stroke_width"]:
                    attrs["stroke_width"] = _n(style.stroke_width)
                if dash_of(style):
                    attrs["stroke_dasharray"] = " ".join(str(_n(d)) for d in style.dash)
                if style.cap != "butt" and style.cap in _CAPS:
                    attrs["stroke_linecap"] = style.cap
                if style.join != "miter" and style.join in _JOINS:
                    attrs["stroke_linejoin"] = style.join
            else:
                attrs["stroke"] = "none"
            if style.fill is not None:
                attrs["fill"] = hex_colour(style.fill, gray)
            if style.opacity != 1.0:
                attrs["fill_opacity"] = _n(style.opacity)
                attrs["stroke_opacity"] = _n(style.opacity)
            self.style_cache[style] = attrs
        return attrs

    def items(self, parent, items) -> None:
        dwg = self.dwg
        for item in items:
            t = type(item)
            if t is Line:
                parent.add(dwg.line((_n(item.x1), _n(item.y1)), (_n(item.x2), _n(item.y2)),
                                    **self._attrs(item, self._style(item.style))))
            elif t is Rect:
                extra = dict(self._style(item.style))
                if item.radius > 0:
                    extra["rx"] = extra["ry"] = _n(item.radius)
                x, w = (item.x + item.w, -item.w) if item.w < 0 else (item.x, item.w)   # SVG wants w, h >= 0
                y, h = (item.y + item.h, -item.h) if item.h < 0 else (item.y, item.h)
                parent.add(dwg.rect((_n(x), _n(y)), (_n(w), _n(h)), **self._attrs(item, extra)))
            elif t is Text:
                self.text(parent, item)
            elif t is Group:
                g = dwg.g(**self._attrs(item, _transform(item)))
                self.items(g, item.items)
                parent.add(g)
            elif t is Circle:
                parent.add(dwg.circle((_n(item.cx), _n(item.cy)), _n(item.r),
                                      **self._attrs(item, self._style(item.style))))
            elif t is Polygon:
                pts = [(_n(x), _n(y)) for x, y in item.points]
                make = dwg.polygon if item.closed else dwg.polyline
                parent.add(make(pts, **self._attrs(item, self._style(item.style))))
            elif t is Path:
                parent.add(dwg.path(d=_path_data(item.commands),
                                    **self._attrs(item, self._style(item.style))))
            elif t is Image:
                parent.add(dwg.image(self._image_href(item.path), insert=(_n(item.x), _n(item.y)),
                                     size=(_n(item.w), _n(item.h)),
                                     **self._attrs(item, {"preserveAspectRatio": "none"})))
            else:
                raise TypeError(f"cannot draw {item!r}")

    def text(self, parent, t: Text) -> None:
        key = (t.font, t.size, t.fill, t.anchor)
        base = self.style_cache.get(key)
        if base is None:
            check_font(t.font)
            _, weight, style = SVG_FONTS[t.font]
            base = {"stroke": "none", "fill": "none" if t.fill is None else hex_colour(t.fill, self.gray)}
            font_family = family_list(t.font)
            if font_family != ROOT_STYLE["font_family"]:
                base["font_family"] = font_family
            if _n(t.size / PT_PER_MM) != ROOT_STYLE["font_size"]:
                base["font_size"] = _n(t.size / PT_PER_MM)
            if weight:
                base["font_weight"] = weight
            if style:
                base["font_style"] = style
            if t.anchor != "start":
                base["text_anchor"] = t.anchor
            self.style_cache[key] = base
        parent.add(self.dwg.text(t.text, insert=(_n(t.x), _n(t.y)), **self._attrs(t, base)))

    def _image_href(self, path: str) -> str:
        # Embedded as a data URI: the SVG stands alone, like the PDF.
        href = self.image_cache.get((path, self.gray))
        if href is None:
            p = check_image(path)
            mime = mimetypes.guess_type(p.name)[0] or "image/png"
            try:
                data = grey_image_png(path) if self.gray else p.read_bytes()
            except OSError as exc:
                raise InputError(Problem(f"cannot read image: {exc}", str(p))) from None
            if self.gray:
                mime = "image/png"
            href = self.image_cache[(path, self.gray)] = f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
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


class SvgRenderer:
    """SVG text per page; caches (styles, embedded images) live as long as the renderer."""

    def __init__(self, doc, grayscale: bool = False, embed_fonts: bool = True):
        import svgwrite
        self.svgwrite = svgwrite
        self.title = doc.title
        self.gray = grayscale
        # False: no @font-face (for an SVG inlined in a page that carries the fonts itself)
        self.embed_fonts = embed_fonts
        self.style_cache: dict = {}
        self.image_cache: dict = {}

    def drawing(self, page, fonts: str | None = None):
        """The svgwrite Drawing of one page; fonts is its @font-face CSS (made from its items
        when not given), in a <style> so the page shows in its own fonts on any computer."""
        w, h = _n(page.width), _n(page.height)
        dwg = self.svgwrite.Drawing(size=(f"{w}mm", f"{h}mm"), viewBox=f"0 0 {w} {h}", debug=False,
                                    profile="full")
        if self.title:
            dwg.set_desc(title=self.title)
        css = (font_face_css(page.items) if self.embed_fonts else "") if fonts is None else fonts
        if css:
            dwg.defs.add(dwg.style(css))
        dwg.add(dwg.rect((0, 0), (w, h), fill="#ffffff", stroke="none", class_="page-background"))
        root = dwg.g(**ROOT_STYLE)
        _SvgPage(dwg, self.gray, self.style_cache, self.image_cache).items(root, page.items)
        dwg.add(root)
        return dwg

    def page(self, page) -> str:
        """The page's SVG text: as drawing(page).tostring() gives it, with each drawn primitive's
        text taken from ITEM_TEXT when the same primitive was written before (the companion page
        redraws its pencil overlay, mostly unchanged, on every tap)."""
        items = page.items
        bare = drawing_text(self.drawing(_Bare(page.width, page.height),
                                         font_face_css(items) if self.embed_fonts else ""))
        if not items:
            return bare
        if not bare.endswith(' stroke-width="0.25" /></svg>'):
            raise RuntimeError("the SVG frame does not end with the empty root group")
        head, tail = bare[:-len(" /></svg>")], "</g></svg>"
        sp = _SvgPage(self.svgwrite.Drawing(debug=False, profile="full"), self.gray, self.style_cache,
                      self.image_cache)
        out = [head, ">"]
        self._items_text(sp, items, out)
        out.append(tail)
        return "".join(out)

    def _items_text(self, sp: "_SvgPage", items, out: list) -> None:
        dwg, gray = sp.dwg, self.gray
        for item in items:
            t = type(item)
            if t is Group and not _small(item):
                # a big group (a sheet's, the whole pencil): its opening tag kept, its items each
                key = ("g", item.id, item.cls, item.transform, item.id is not None and item.id in sp.ids)
                opened = ITEM_TEXT.get(key)
                if opened is None:
                    opened = ITEM_TEXT[key] = element_text(dwg.g(**sp._attrs(item, _transform(item))))
                elif item.id is not None:
                    sp.ids.add(item.id)
                if not item.items:
                    out.append(opened)
                    continue
                out.append(opened[:-len(" />")] + ">")
                self._items_text(sp, item.items, out)
                out.append("</g>")
                continue
            # a primitive, or a small group of primitives (a cross, an icon), kept whole; its ids
            # must be new on the page for the kept text to hold (a repeat becomes a class)
            ids = _ids(item) if t is Group else ((item.id,) if item.id is not None else ())
            used = tuple(i in sp.ids for i in ids)
            # the same object written before (a mark the pencil overlay gives again): its text
            # without hashing it (a deep hash of every coordinate, the most of this loop)
            seen = ITEM_TEXT_OF.get(id(item))
            if seen is not None and seen[0] is item and seen[1] == gray and seen[2] == used:
                sp.ids.update(ids)
                out.append(seen[3])
                continue
            key = None if t is Image else (item, gray, used)
            text = ITEM_TEXT.get(key) if key is not None else None
            if text is None:
                holder = dwg.g()
                sp.items(holder, (item,))
                text = element_text(holder.elements[0])
                if key is not None:
                    if len(ITEM_TEXT) >= ITEM_TEXT_LIMIT:
                        ITEM_TEXT.clear()
                    ITEM_TEXT[key] = text
            else:
                sp.ids.update(ids)                  # as _attrs would: a later repeat becomes a class
            if key is not None:
                if len(ITEM_TEXT_OF) >= ITEM_TEXT_LIMIT:
                    ITEM_TEXT_OF.clear()
                ITEM_TEXT_OF[id(item)] = (item, gray, used, text)    # the object held: its id not reused
            out.append(text)


def _transform(group: Group) -> dict:
    """A group's transform attribute (none for the identity)."""
    if group.transform is None:
        return {}
    return {"transform": "matrix(" + " ".join(str(_n(v)) for v in group.transform) + ")"}


def _small(group: Group) -> bool:
    """A group kept whole: a few primitives, no group or image inside, no id twice."""
    items = group.items
    if len(items) > 12:
        return False
    ids = []
    for item in items:
        if type(item) is Group or type(item) is Image:
            return False
        if item.id is not None:
            ids.append(item.id)
    return len(set(ids)) == len(ids) and group.id not in ids


def _ids(group: Group) -> tuple:
    return ((group.id,) if group.id is not None else ()) + tuple(i.id for i in group.items if i.id is not None)


# (primitive or small group, grayscale, which of its ids are already used on the page) -> its text;
# the opening tags of big groups too; images are not kept
# (their file may change).  Bounded: cleared when full.
ITEM_TEXT: dict = {}
ITEM_TEXT_LIMIT = 50_000
# id(primitive) -> (the primitive, grayscale, ids used, its text): the same objects drawn again
ITEM_TEXT_OF: dict = {}


class _Bare:
    """A page's size without its items (the frame page() writes the items into)."""
    __slots__ = ("width", "height", "items")

    def __init__(self, width, height):
        self.width, self.height, self.items = width, height, ()


def drawing_text(dwg) -> str:
    """The text svgwrite's Drawing.tostring() gives, character for character, written straight
    from its elements: tostring builds an ElementTree copy of the whole tree first, which cost
    more than drawing the page.  tests/test_svg_text.py holds it (and page()) equal to
    tostring() on every page sheetgen makes."""
    # the root's attributes, as Drawing.get_xml adds them
    dwg.attribs.update({"xmlns": "http://www.w3.org/2000/svg", "xmlns:xlink": "http://www.w3.org/1999/xlink",
                        "xmlns:ev": "http://www.w3.org/2001/xml-events", "baseProfile": dwg.profile,
                        "version": dwg.version})
    return element_text(dwg)


def element_text(el) -> str:
    """One svgwrite element and its children as ElementTree would write them."""
    out: list[str] = []
    _write_element(el, out.append)
    return "".join(out)


def _write_element(el, write) -> None:
    from xml.etree.ElementTree import _escape_attrib, _escape_cdata

    from svgwrite.container import Script
    from svgwrite.path import Path as PathElement
    from svgwrite.shapes import Polyline
    from svgwrite.text import TSpan
    from svgwrite.utils import strlist
    xml = getattr(el, "xml", None)
    if xml is not None and not hasattr(el, "attribs"):      # title, desc: a ready ElementTree element
        write(f"<{xml.tag}>{_escape_cdata(xml.text)}</{xml.tag}>" if xml.text else f"<{xml.tag} />")
        return
    if isinstance(el, Polyline):                              # (polygon too) as its get_xml does
        el.attribs["points"] = el.points_to_string(el.points)
    elif isinstance(el, PathElement):
        el.attribs["d"] = str(strlist(el.commands, " "))
    write("<" + el.elementname)
    for name, value in sorted(el.attribs.items()):
        if value is not None:
            value = str(value)
            if value:
                write(f' {name}="{_escape_attrib(value)}"')
    text = str(el.text) if isinstance(el, TSpan) else ""      # (text, tspan: their characters)
    content = getattr(el, "_content", "") if isinstance(el, Script) else ""    # (style: CSS, as CDATA)
    if text or content or el.elements:
        write(">")
        if text:
            write(_escape_cdata(text))
        if content:
            write(f"<![CDATA[{content}]]>")
        for child in el.elements:
            _write_element(child, write)
        write(f"</{el.elementname}>")
    else:
        write(" />")



def iter_svg_pages(doc, grayscale: bool = False, embed_fonts: bool = True):
    """Yield the SVG text of each page in turn."""
    svg = SvgRenderer(doc, grayscale, embed_fonts)
    for page in doc.pages:
        yield svg.page(page)
