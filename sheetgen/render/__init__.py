"""Render a drawing-model Document to PDF (reportlab), SVG (svgwrite) and PNG (Pillow).

The back ends know nothing of games; each one draws exactly the primitives of
sheetgen.draw.model.  Heavy libraries are imported inside the back-end modules,
which are imported only when a format is asked for (start-up time matters).

Files are written all or nothing (sheetgen.atomic.Staging): every output of a
document goes to a part file first and is renamed only when every page of every
format rendered; a rename that fails puts the old files back, so a failure never
leaves half a document, a mix of old and new files, or replaces a good file.
"""
from __future__ import annotations

import contextlib
import re
from pathlib import Path

from ..atomic import Staging, why
from ..errors import InputError, Problem
from ..limits import check_name, shown
from .common import page_file_name, safe_name

FORMATS = ("pdf", "svg", "png")


def render_pdf_bytes(doc, grayscale: bool = False) -> bytes:
    from .pdf import render_pdf
    return render_pdf(doc, None, grayscale=grayscale)


def render_svg_pages(doc, grayscale: bool = False, embed_fonts: bool = True) -> list[str]:
    from .svg import iter_svg_pages
    return list(iter_svg_pages(doc, grayscale=grayscale, embed_fonts=embed_fonts))


def render_png_pages(doc, dpi: int = 150, grayscale: bool = False) -> list[bytes]:
    from .png import iter_png_pages
    return list(iter_png_pages(doc, dpi=dpi, grayscale=grayscale))


def _formats(formats) -> tuple[str, ...]:
    """("pdf", "png") or "pdf,png" -> a checked tuple of format names."""
    if isinstance(formats, str):        # as typed on a command line
        formats = formats.split(",")
    formats = tuple(f.strip().lower() for f in formats if f.strip())
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise InputError(Problem(f"unknown format '{unknown[0]}'", expected="pdf, svg or png"))
    if not formats:
        raise InputError(Problem("no output format asked for", expected="pdf, svg or png"))
    return formats


def output_paths(doc, outdir, formats=FORMATS) -> list[Path]:
    """The files render_document would write, in the order it returns them."""
    formats = _formats(formats)
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
    outdir; returns the written paths (the PDF, then the SVGs, then the PNGs).

    All or nothing: if any page fails, the temporary files are removed and
    existing files are left as they were.  Pages are drawn in one pass, so
    doc.pages may be a generator (memory stays flat for long documents)."""
    return render_documents([doc], outdir, formats, dpi, grayscale)


def render_documents(docs, outdir, formats=FORMATS, dpi: int = 150, grayscale: bool = False) -> list[Path]:
    """render_document for several documents, all or nothing across all of them:
    no file is renamed into place until every page of every document rendered."""
    formats = _formats(formats)
    if "png" in formats:
        from .png import check_dpi
        check_dpi(dpi)
    outdir = Path(outdir)
    _make_outdir(outdir)
    written: list[Path] = []
    try:
        # every file is a part until all rendered; then all are renamed, or none (the
        # staging also removes the parts a killed build left in outdir)
        with Staging() as staging:
            for doc in docs:
                written += _render_into(staging, doc, outdir, formats, dpi, grayscale)
    except OSError as exc:          # disk full, no permission while drawing
        target = exc.filename2 or exc.filename or outdir
        raise InputError(Problem(f"cannot write the output: {why(exc)}; nothing was written",
                                 shown(str(target)))) from None
    _remove_stale_pages(docs, outdir, formats, written)
    return written


def _remove_stale_pages(docs, outdir: Path, formats, written: list[Path]) -> None:
    """Per-page files of these documents left from an earlier, longer build (page
    12 of 12 when the document now has 10) would pass for current output: remove them."""
    keep = {p.name for p in written}
    for doc in docs:
        for ext in ("svg", "png"):
            if ext not in formats:
                continue
            pattern = re.compile(rf"{re.escape(safe_name(doc.name))}-\d{{2,}}-.+\.{ext}")
            for path in outdir.glob(f"{safe_name(doc.name)}-*.{ext}"):
                if path.name not in keep and pattern.fullmatch(path.name):
                    with contextlib.suppress(OSError):
                        path.unlink()


def _make_outdir(outdir: Path) -> None:
    """Create the output folder, or say plainly why it cannot be one."""
    check_name(outdir, "-o")
    if outdir.exists() and not outdir.is_dir():
        raise InputError(Problem("the output folder is a file", str(outdir), expected="a folder (or a new name)"))
    try:
        outdir.mkdir(parents=True, exist_ok=True)
    except NotADirectoryError:
        raise InputError(Problem("cannot create the output folder: part of the path is a file",
                                 str(outdir))) from None
    except OSError as exc:
        raise InputError(Problem(f"cannot create the output folder: {exc.strerror or exc}", str(outdir))) from None


def _render_into(staging: Staging, doc, outdir: Path, formats, dpi, grayscale) -> list[Path]:
    pdf_path: list[Path] = []
    per_page: dict[str, list[Path]] = {"svg": [], "png": []}
    pdf = pdf_tmp = svg = None
    if "pdf" in formats:
        from .pdf import PdfRenderer
        target = outdir / f"{safe_name(doc.name)}.pdf"
        pdf_tmp = staging.add(target)
        pdf = PdfRenderer(doc, pdf_tmp, grayscale=grayscale)
        pdf_path.append(target)
    if "svg" in formats:
        from .svg import SvgRenderer
        svg = SvgRenderer(doc, grayscale=grayscale)
    if "png" in formats:
        from .png import png_bytes
    count = 0
    for i, page in enumerate(doc.pages):
        count += 1
        if pdf is not None:
            pdf.add(page)
        for ext in ("svg", "png"):
            if ext not in formats:
                continue
            data = svg.page(page).encode("utf-8") if ext == "svg" else png_bytes(page, dpi, grayscale)
            target = outdir / page_file_name(doc.name, i, page.name, ext)
            staging.add(target).write_bytes(data)
            per_page[ext].append(target)
    if count == 0:
        raise InputError(Problem(f"document '{doc.name}' has no pages"))
    if pdf is not None:
        pdf.finish()
    return pdf_path + per_page["svg"] + per_page["png"]


def write_report_document(doc, output, grayscale: bool = False) -> list[Path]:
    """A report's pages: -o report.pdf writes the PDF; -o FOLDER writes PDF + SVG + PNG pages in it."""
    out = Path(output)
    if out.suffix.lower() == ".pdf":
        from ..atomic import write_bytes
        write_bytes(out, render_pdf_bytes(doc, grayscale=grayscale))
        return [out]
    if out.suffix.lower() in (".svg", ".png"):
        raise InputError(Problem(f"-o {output}: give report.pdf, or a folder for PDF, SVG and PNG pages", path="-o"))
    return render_document(doc, out, dpi=150, grayscale=grayscale)
