"""PDF back end: reportlab's canvas, with the content stream written directly.

Each page starts with one matrix that turns the model's millimetres (origin top
left, y down) into PDF points, so primitives are emitted in mm as PDF path
operators with no per-point arithmetic.  The graphics state (colours, line
width, dash, cap, join, alpha) is tracked and only changes are emitted.
Text goes through reportlab's TrueType subsetting (fonts embedded and subset,
never a built-in Helvetica).  Groups whose items repeat (the same content on
several pages, or cls "form") are drawn once as a form XObject and reused.
`invariant=1` keeps the output byte-identical for the same document.
"""
from __future__ import annotations

from ..draw.model import PT_PER_MM, Circle, Group, Image, Line, Path, Polygon, Rect, Text
from ..errors import InputError, Problem
from ..fonts import pdf_font
from .common import check_image, dash_of, grey_image_png, rgb, text_runs

KAPPA = 0.5522847498307936          # Bezier handle length for a quarter circle
FORM_MIN_ITEMS = 4                  # smaller repeated groups are cheaper inline
SEEN_LIMIT = 20000                  # groups remembered as candidates for a form

_registered: dict[str, str] = {}


def _font_name(key: str) -> str:
    """Register the bundled TTF for a family key once per process; its PDF name."""
    name = _registered.get(key)
    if name is None:
        from reportlab.pdfbase import pdfmetrics
        name = "sheetgen-" + key
        pdfmetrics.registerFont(pdf_font(key, name))       # the parsed face comes from the user cache
        _registered[key] = name
    return name


_UNKNOWN = object()                 # a graphics state value we cannot assume


def _n(v: float) -> str:
    """A number for the content stream: at most 4 decimals (0.0001 mm)."""
    if v == int(v):
        return str(int(v))
    s = ("%.4f" % v).rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


class _PdfWriter:
    __slots__ = ("c", "code", "doc", "gray", "state", "forms_by_id", "forms", "seen",
                 "form_count", "fonts", "texts", "escape", "colour_ops", "in_form")

    def __init__(self, canvas, grayscale: bool):
        self.c = canvas
        self.doc = canvas._doc
        self.gray = grayscale
        self.forms_by_id: dict[int, tuple] = {}    # id(group.items) -> (items, form name or None)
        self.forms: dict[tuple, str] = {}          # items -> form name
        self.seen: set[tuple] = set()              # items seen once (a second sighting makes a form)
        self.form_count = 0
        self.fonts: dict[str, object] = {}
        self.texts: dict[tuple[str, str], tuple] = {}
        self.escape = canvas._escape
        self.colour_ops: dict[tuple[str, bool], str] = {}
        self.in_form = False
        self.reset_state()

    def start_page(self):
        # the id() fast path is per page, so no page's objects are kept alive by it
        self.forms_by_id.clear()
        if len(self.seen) > SEEN_LIMIT:
            self.seen.clear()
        self.reset_state()

    def reset_state(self, known: bool = True):
        """A page starts in PDF's default graphics state; a form inherits whatever
        state it is drawn in (known=False), so it sets everything it uses."""
        # stroke colour, fill colour, line width, dash, cap, join, stroke alpha, fill alpha
        self.state = ([(0, 0, 0), (0, 0, 0), 1.0, None, 0, 0, 1.0, 1.0] if known
                      else [_UNKNOWN] * 6 + [1.0, 1.0])    # a form is drawn at full opacity
        self.code = self.c._code

    # --- graphics state -------------------------------------------------
    def _colour(self, colour: str, stroke: bool) -> None:
        key = rgb(colour, self.gray)
        i = 0 if stroke else 1
        if self.state[i] != key:
            self.state[i] = key
            op = self.colour_ops.get((key, stroke))
            if op is None:
                r, g, b = key
                op = f"{_n(round(r / 255, 4))} {_n(round(g / 255, 4))} {_n(round(b / 255, 4))} {'RG' if stroke else 'rg'}"
                self.colour_ops[(key, stroke)] = op
            self.code.append(op)

    def _alpha(self, opacity: float, stroke: bool, fill: bool) -> None:
        st = self.state
        if stroke and st[6] != opacity:
            st[6] = opacity
            self._gs("CA", opacity)
        if fill and st[7] != opacity:
            st[7] = opacity
            self._gs("ca", opacity)

    def _gs(self, key: str, value: float) -> None:
        # reportlab's setFillAlpha caches the value and would skip it after our
        # own q/Q; we keep our own state and only borrow its ExtGState registry.
        registry = self.c._extgstate._c
        name = registry.get((key, value))
        if name is None:
            name = registry[(key, value)] = "gRLs" + str(len(registry))
        self.code.append(f"/{name} gs")

    def _style(self, style, closed: bool) -> str | None:
        """Emit the state for style; the path painting operator (None: nothing to paint)."""
        stroke = style.stroke is not None and style.stroke_width > 0
        fill = style.fill is not None
        if not (stroke or fill):
            return None
        st = self.state
        code = self.code
        if stroke:
            self._colour(style.stroke, True)
            if st[2] != style.stroke_width:
                st[2] = style.stroke_width
                code.append(f"{_n(style.stroke_width)} w")
            dash = dash_of(style)
            if st[3] != dash:
                st[3] = dash
                code.append(f"[{' '.join(_n(d) for d in dash)}] 0 d" if dash else "[] 0 d")
            cap = _CAPS.get(style.cap, 0)
            if st[4] != cap:
                st[4] = cap
                code.append(f"{cap} J")
            join = _JOINS.get(style.join, 0)
            if st[5] != join:
                st[5] = join
                code.append(f"{join} j")
        if fill:
            self._colour(style.fill, False)
        if style.opacity != 1.0 or st[6] != 1.0 or st[7] != 1.0:
            self._alpha(style.opacity, stroke, fill)
        if stroke and fill:
            return "b" if closed else "B"
        if fill:
            return "f"
        return "s" if closed else "S"

    # --- primitives -----------------------------------------------------
    def items(self, items) -> None:
        for item in items:
            t = type(item)
            if t is Line:
                op = self._style(item.style, False)
                if op:
                    self.code.append(f"{_n(item.x1)} {_n(item.y1)} m {_n(item.x2)} {_n(item.y2)} l {op}")
            elif t is Text:
                self.text(item)
            elif t is Rect:
                self.rect(item)
            elif t is Group:
                self.group(item)
            elif t is Polygon:
                op = self._style(item.style, item.closed)
                if op and item.points:
                    pts = item.points
                    parts = [f"{_n(pts[0][0])} {_n(pts[0][1])} m"]
                    parts += [f"{_n(x)} {_n(y)} l" for x, y in pts[1:]]
                    parts.append(op)
                    self.code.append(" ".join(parts))
            elif t is Circle:
                op = self._style(item.style, True)
                if op:
                    self.code.append(_circle_path(item.cx, item.cy, item.r) + " " + op)
            elif t is Path:
                self.path(item)
            elif t is Image:
                self.image(item)
            else:
                raise TypeError(f"cannot draw {item!r}")

    def rect(self, r: Rect) -> None:
        op = self._style(r.style, True)
        if not op:
            return
        if r.radius > 0:
            self.code.append(_rounded_rect_path(r.x, r.y, r.w, r.h, r.radius) + " " + op)
        else:
            self.code.append(f"{_n(r.x)} {_n(r.y)} {_n(r.w)} {_n(r.h)} re {op}")

    def path(self, p: Path) -> None:
        op = self._style(p.style, False)       # 'h' closes each subpath itself
        if not op:
            return
        parts = []
        for cmd in p.commands:
            k = cmd[0]
            if k == "M":
                parts.append(f"{_n(cmd[1])} {_n(cmd[2])} m")
            elif k == "L":
                parts.append(f"{_n(cmd[1])} {_n(cmd[2])} l")
            elif k == "C":
                parts.append(" ".join(_n(v) for v in cmd[1:7]) + " c")
            elif k == "Z":
                parts.append("h")
            else:
                raise InputError(Problem(f"unknown path command {k!r}", expected="M, L, C or Z"))
        parts.append(op)
        self.code.append(" ".join(parts))

    def text(self, t: Text) -> None:
        if not t.text or t.fill is None:
            return
        key = (t.font, t.text)
        shown = self.texts.get(key)
        if shown is None:
            # encode once per document: subset assignments are stable within it
            doc, escape = self.doc, self.escape
            runs, unit_width = [], 0.0
            for font_key, chunk_text in text_runs(t.font, t.text):
                font = self.fonts.get(font_key)
                if font is None:
                    from reportlab.pdfbase import pdfmetrics
                    font = self.fonts[font_key] = pdfmetrics.getFont(_font_name(font_key))
                runs += [(font.getSubsetInternalName(subset, doc), escape(chunk))
                         for subset, chunk in font.splitString(chunk_text, doc)]
                unit_width += font.stringWidth(chunk_text, 1.0)
            shown = self.texts[key] = (runs, unit_width)
        runs, unit_width = shown
        size = t.size / PT_PER_MM                        # the page matrix is in mm
        x = t.x
        if t.anchor != "start":
            w = unit_width * size
            x -= w if t.anchor == "end" else w / 2
        self._colour(t.fill, False)
        if self.state[7] != 1.0:
            self._alpha(1.0, False, True)
        sz = _n(size)
        self.code.append(f"BT 1 0 0 -1 {_n(x)} {_n(t.y)} Tm "
                         + " ".join(f"{name} {sz} Tf ({chunk}) Tj" for name, chunk in runs) + " ET")

    def image(self, im: Image) -> None:
        path = check_image(im.path)
        source = str(path)
        if self.gray:
            import io
            from reportlab.lib.utils import ImageReader
            source = ImageReader(io.BytesIO(grey_image_png(source)))
        self.code.append(f"q 1 0 0 -1 {_n(im.x)} {_n(im.y + im.h)} cm")
        try:
            self.c.drawImage(source, 0, 0, im.w, im.h, mask="auto")
        except Exception as exc:  # noqa: BLE001 - reportlab/PIL raise many kinds for a bad file: an input error
            raise InputError(Problem(f"cannot read image: {exc}", str(path))) from None
        self.code.append("Q")

    def group(self, g: Group) -> None:
        items = g.items
        form = None
        if not self.in_form:
            hit = self.forms_by_id.get(id(items))
            if hit is not None and hit[0] is items:
                form = hit[1]
            else:
                form = self._form_for(g)
                if form is not None or not self._may_become_form(g):
                    self.forms_by_id[id(items)] = (items, form)
        st = self.state
        saved = list(st)
        tr = g.transform
        if tr is not None:
            self.code.append("q " + " ".join(_n(v) for v in tr) + " cm")
        else:
            self.code.append("q")
        if form is not None:
            # forms assume full opacity (they cannot set it themselves)
            self._alpha(1.0, True, True)
            self.c.doForm(form)
        else:
            self.items(items)
        self.code.append("Q")
        self.state = saved

    @staticmethod
    def _is_form_cls(g: Group) -> bool:
        return bool(g.cls) and "form" in g.cls.split()

    def _may_become_form(self, g: Group) -> bool:
        return self._is_form_cls(g) or len(g.items) >= FORM_MIN_ITEMS

    def _form_for(self, g: Group) -> str | None:
        items = g.items
        is_form = self._is_form_cls(g)
        if not is_form and len(items) < FORM_MIN_ITEMS:
            return None
        try:
            name = self.forms.get(items)
        except TypeError:               # a list somewhere inside: cannot be keyed, draw inline
            return None
        if name is not None:
            return name
        if not is_form and items not in self.seen:
            self.seen.add(items)
            return None
        if _uses_opacity(items):
            # reportlab writes no ExtGState resources for form XObjects, so a form
            # cannot change opacity: such groups are drawn inline
            return None
        self.form_count += 1
        name = f"sgform{self.form_count}"
        c = self.c
        saved_state, saved_code = self.state, self.code
        c.beginForm(name, -100000, -100000, 100000, 100000)
        self.in_form = True
        self.reset_state(known=False)
        try:
            self.items(items)
        finally:
            self.in_form = False
        c.endForm()
        self.state, self.code = saved_state, c._code
        del saved_code
        self.forms[items] = name
        return name


def _uses_opacity(items) -> bool:
    for item in items:
        if isinstance(item, Group):
            if _uses_opacity(item.items):
                return True
        else:
            style = getattr(item, "style", None)
            if style is not None and style.opacity != 1.0:
                return True
    return False


_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}


def _circle_path(cx: float, cy: float, r: float) -> str:
    k = r * KAPPA
    return (f"{_n(cx + r)} {_n(cy)} m "
            f"{_n(cx + r)} {_n(cy + k)} {_n(cx + k)} {_n(cy + r)} {_n(cx)} {_n(cy + r)} c "
            f"{_n(cx - k)} {_n(cy + r)} {_n(cx - r)} {_n(cy + k)} {_n(cx - r)} {_n(cy)} c "
            f"{_n(cx - r)} {_n(cy - k)} {_n(cx - k)} {_n(cy - r)} {_n(cx)} {_n(cy - r)} c "
            f"{_n(cx + k)} {_n(cy - r)} {_n(cx + r)} {_n(cy - k)} {_n(cx + r)} {_n(cy)} c h")


def _rounded_rect_path(x: float, y: float, w: float, h: float, r: float) -> str:
    r = min(r, abs(w) / 2, abs(h) / 2)
    k = r * (1 - KAPPA)
    x2, y2 = x + w, y + h
    return (f"{_n(x + r)} {_n(y)} m {_n(x2 - r)} {_n(y)} l "
            f"{_n(x2 - k)} {_n(y)} {_n(x2)} {_n(y + k)} {_n(x2)} {_n(y + r)} c "
            f"{_n(x2)} {_n(y2 - r)} l "
            f"{_n(x2)} {_n(y2 - k)} {_n(x2 - k)} {_n(y2)} {_n(x2 - r)} {_n(y2)} c "
            f"{_n(x + r)} {_n(y2)} l "
            f"{_n(x + k)} {_n(y2)} {_n(x)} {_n(y2 - k)} {_n(x)} {_n(y2 - r)} c "
            f"{_n(x)} {_n(y + r)} l "
            f"{_n(x)} {_n(y + k)} {_n(x + k)} {_n(y)} {_n(x + r)} {_n(y)} c h")


def _box(box, page_h_mm: float) -> tuple[float, float, float, float]:
    """A model Box (mm, top-left origin) as a PDF box [x0 y0 x1 y1] in points."""
    return (round(box.x * PT_PER_MM, 4), round((page_h_mm - box.y - box.h) * PT_PER_MM, 4),
            round((box.x + box.w) * PT_PER_MM, 4), round((page_h_mm - box.y) * PT_PER_MM, 4))


class PdfRenderer:
    """A PDF built page by page (so pages can be streamed): add(page) for each, then finish()."""

    def __init__(self, doc, target, grayscale: bool = False):
        """target: a path to write, or None to collect the bytes (finish() returns them)."""
        import io

        from reportlab import rl_config
        from reportlab.pdfgen.canvas import Canvas

        # Binary (Flate only) streams: ASCII85 on top costs time (pure Python here)
        # and a third more bytes, for 7-bit transport nobody needs.
        rl_config.useA85 = 0
        self.doc_name = doc.name
        self.buffer = io.BytesIO() if target is None else None
        c = self.canvas = Canvas(self.buffer if target is None else str(target),
                                 pagesize=(210 * PT_PER_MM, 297 * PT_PER_MM),
                                 invariant=1, pageCompression=1, initialFontName=_font_name("sans"))
        c.setTitle(doc.title)
        c.setAuthor(doc.author)
        c.setSubject(doc.subject)
        c.setCreator("sheetgen")
        c.setProducer("sheetgen")
        self.writer = _PdfWriter(c, grayscale)
        self.count = 0

    def add(self, page) -> None:
        c, w = self.canvas, self.writer
        self.count += 1
        c.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        c.setTrimBox(_box(page.trim, page.height) if page.trim else None)
        c.setBleedBox(_box(page.bleed, page.height) if page.bleed else None)
        w.start_page()
        # one matrix turns the model's mm (y down) into PDF points (y up)
        w.code.append(f"{PT_PER_MM:.8f} 0 0 {-PT_PER_MM:.8f} 0 {page.height * PT_PER_MM:.6f} cm")
        w.items(page.items)
        c.showPage()

    def finish(self) -> bytes | None:
        if self.count == 0:
            raise InputError(Problem(f"document '{self.doc_name}' has no pages"))
        self.canvas.save()
        return self.buffer.getvalue() if self.buffer is not None else None


def render_pdf(doc, target, grayscale: bool = False):
    """Draw doc as one PDF; write it to target (a path) or return the bytes if target is None.
    doc.pages may be any iterable: a generator streams pages and memory stays flat."""
    pdf = PdfRenderer(doc, target, grayscale)
    for page in doc.pages:
        pdf.add(page)
    return pdf.finish()
