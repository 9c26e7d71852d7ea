"""Render a drawing-model Document to PDF (reportlab), SVG (svgwrite) and PNG (Pillow).

The back ends know nothing of games; each one draws exactly the primitives of
sheetgen.draw.model.  Heavy libraries are imported inside the back-end modules,
which are imported only when a format is asked for (start-up time matters).

Files are written atomically and all together: every output of a document goes
to a temporary name first and is renamed only when every page of every format
rendered, so a failure never leaves half a document or replaces a good file.
"""
from __future__ import annotations

import contextlib
from pathlib import Path

from ..atomic import atomic_path
from ..errors import InputError, Problem
from .common import page_file_name, safe_name

FORMATS = ("pdf", "svg", "png")


def render_pdf_bytes(doc, grayscale: bool = False) -> bytes:
    from .pdf import render_pdf
    return render_pdf(doc, None, grayscale=grayscale)


def render_svg_pages(doc, grayscale: bool = False) -> list[str]:
    from .svg import iter_svg_pages
    return list(iter_svg_pages(doc, grayscale=grayscale))


def render_png_pages(doc, dpi: int = 150, grayscale: bool = False) -> list[bytes]:
    from .png import iter_png_pages
    return list(iter_png_pages(doc, dpi=dpi, grayscale=grayscale))


def output_paths(doc, outdir, formats=FORMATS) -> list[Path]:
    """The files render_document would write, in the order it returns them."""
    outdir = Path(outdir)
    paths = []
    if "pdf" in formats:
        paths.append(outdir / f"{safe_name(doc.name)}.pdf")
    for ext in ("svg", "png"):
        if ext in formats:
            paths += [outdir / page_file_name(doc.name, i, p.name, ext) for i, p in enumerate(doc.pages)]
    return paths


def render_document(doc, outdir, formats=FORMATS, dpi: int = 150, grayscale: bool = False) -> list[Path]:
    """Write <name>.pdf (all pages) and <name>-NN-<page>.svg/.png per page into
    outdir; returns the written paths.  All or nothing: if any page fails, the
    temporary files are removed and existing files are left as they were."""
    formats = tuple(f.lower() for f in formats)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise InputError(Problem(f"unknown format '{unknown[0]}'", expected="pdf, svg or png"))
    if not doc.pages:
        raise InputError(Problem(f"document '{doc.name}' has no pages"))
    outdir = Path(outdir)
    written: list[Path] = []
    with contextlib.ExitStack() as stack:
        # Each atomic_path renames its temporary file on a clean exit and deletes
        # it on an exception; the ExitStack holds every rename until all rendered.
        if "pdf" in formats:
            from .pdf import render_pdf
            target = outdir / f"{safe_name(doc.name)}.pdf"
            tmp = stack.enter_context(atomic_path(target))
            render_pdf(doc, tmp, grayscale=grayscale)
            written.append(target)
        if "svg" in formats:
            from .svg import iter_svg_pages
            for i, text in enumerate(iter_svg_pages(doc, grayscale=grayscale)):
                target = outdir / page_file_name(doc.name, i, doc.pages[i].name, "svg")
                tmp = stack.enter_context(atomic_path(target))
                tmp.write_bytes(text.encode("utf-8"))
                written.append(target)
        if "png" in formats:
            from .png import iter_png_pages
            for i, data in enumerate(iter_png_pages(doc, dpi=dpi, grayscale=grayscale)):
                target = outdir / page_file_name(doc.name, i, doc.pages[i].name, "png")
                tmp = stack.enter_context(atomic_path(target))
                tmp.write_bytes(data)
                written.append(target)
    return written
