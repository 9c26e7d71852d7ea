"""Building sheets: definitions (or the default pack) -> documents -> files.

All inputs are loaded and composed before anything is written, so bad input
writes nothing; each file is then written atomically by the render back end.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from .definitions.registry import Loaded, load
from .draw.model import Document
from .draw.options import BuildOptions
from .errors import InputError, Problem
from .limits import quoted, shown

DEFAULT_PACK = "default-pack"
FORMATS = ("pdf", "svg", "png")


def parse_formats(text: str) -> tuple[str, ...]:
    from .errors import did_you_mean
    out = []
    for part in (p.strip().lower() for p in text.split(",")):
        if not part:
            continue
        if part not in FORMATS:
            raise InputError(Problem(f"unknown format '{part}'", expected="pdf, svg, png (comma-separated)",
                                     suggestion=did_you_mean(part, FORMATS)))
        if part not in out:
            out.append(part)
    if not out:
        raise InputError(Problem("no output format given", expected="pdf, svg, png (comma-separated)"))
    return tuple(out)


def options_taken(loaded: Loaded) -> set[str]:
    """The game options (--hero, --columns, ...) the definition's sheets read."""
    taken = loaded.handler.options_taken
    return set(taken(loaded.definition)) if taken else set()


def ignored_options(loaded: list[Loaded], options: BuildOptions) -> list[str]:
    """Notes for every game option given that some sheet of the build does not take."""
    given = options.game.given()
    if not given:
        return []
    sheets: list[tuple[str, set[str]]] = []
    for item in loaded:
        if item.kind == "pack":
            for member in item.definition.members():
                one = load(member)
                sheets.append((Path(member).stem, options_taken(one)))
        else:
            sheets.append((item.source.path.stem, options_taken(item)))
    notes = []
    for name, value in given.items():
        takers = [s for s, taken in sheets if name in taken]
        others = [s for s, taken in sheets if name not in taken]
        if not others:
            continue
        flag = f"--{name} {value}"
        if not takers:
            notes.append(f"note: {flag} is ignored: no sheet of this build takes it ({', '.join(others[:6])}"
                         f"{', ...' if len(others) > 6 else ''})")
        elif len(sheets) == 1 or len(others) <= 3:
            notes.append(f"note: {flag} is ignored by {', '.join(others)}")
        else:
            notes.append(f"note: {flag} applies to {', '.join(takers)}; the other {len(others)} sheets ignore it")
    return notes


def compose_loaded(loaded: Loaded, options: BuildOptions) -> Document:
    compose = loaded.handler.compose
    if compose is None:
        hint = hint_for(loaded.kind)
        raise InputError(Problem(f"a {loaded.kind}{' (' + loaded.ruleset + ')' if loaded.ruleset else ''} "
                                 "has no pages to print" + (f"; {hint}" if hint else ""), loaded.source.filename))
    doc = compose(loaded.definition, options)
    if options.scan_marks:
        mark_playable(loaded, doc, options)
    if options.printer_margin is not None:
        # after the scan marks: they scale with what they locate (sheetgen.draw.furniture.keep_clear)
        from .draw.furniture import keep_clear
        keep_clear(doc, options.printer_margin)
    return doc


def scanner_of(loaded: Loaded):
    """The SCANNER of the definition's game (sheetgen.scan.contract.GameScanner), or None."""
    from .definitions.registry import games
    game = games().get(loaded.ruleset) if loaded.ruleset else None
    if game is None or not game.scanner:
        return None
    return game.module("scanner").SCANNER


def sheet_identity(loaded: Loaded, options: BuildOptions, page_no: int = 1, paper: str = "a4"):
    """Which sheet a composed page is (sheetgen.draw.scanmarks.SheetIdentity): what its QR code says."""
    from .draw.scanmarks import SheetIdentity, content_hash
    if loaded.source.builtin:
        definition = loaded.source.path.stem
    else:
        definition = content_hash(loaded.source.path.read_bytes())
    taken = options_taken(loaded)
    given = tuple(sorted((k, str(v)) for k, v in options.game.given().items() if k in taken))
    return SheetIdentity(definition, paper=paper, seed=options.seed, grayscale=options.grayscale,
                         options=given, page=page_no)


def mark_playable(loaded: Loaded, doc: Document, options: BuildOptions) -> None:
    """The scan marks on every page of a sheet its game says is played on (pencil and paper)."""
    scanner = scanner_of(loaded)
    if scanner is None or not scanner.playable(loaded):
        return
    from .draw.furniture import add_scan_marks
    from .draw.scanmarks import paper_of
    for i, page in enumerate(doc.pages):
        layout = paper_of(page.width, page.height)
        if layout:
            add_scan_marks(page, sheet_identity(loaded, options, i + 1, layout[0]))


def hint_for(kind: str) -> str | None:
    return {"playlog": "use `sheetgen check` for play logs",
            "pack": "a pack lists sheets, not other packs"}.get(kind)


def layout_warnings(loaded: Loaded, doc: Document, margin: float | None = None) -> list[str]:
    """The layout lint on a user definition's pages (sheetgen.draw.lint: text that runs into
    another element), one warning per finding naming the element, and the key it comes from
    where the handler can tell (`element_key(definition, element_id)`).  Built-in sheets are
    kept clean by the tests and are not linted again."""
    if loaded.source.builtin:
        return []
    from .draw.lint import overlaps
    key_of = loaded.handler.element_key
    met: dict[tuple, list] = {}                 # one warning per text, naming what it runs into
    for finding in overlaps(doc):
        met.setdefault((finding.page, finding.page_name, finding.text, finding.text_id), []).append(finding)
    out = []
    for (page, page_name, text, text_id), found in met.items():
        others = [f"{f.other} at {f.at[0]:.0f}, {f.at[1]:.0f} mm" for f in found[:3]]
        more = f" and {len(found) - 3} more" if len(found) > 3 else ""
        where = f"page {page}" + (f" ({page_name})" if page_name and len(doc.pages) > 1 else "")
        message = (f"text does not fit its place: {quoted(text)} ({text_id or 'no id'}, {where}) runs into "
                   f"{'; '.join(others)}{more}")
        loc = key_of(loaded.definition, text_id) if key_of is not None and text_id else None
        problem = loaded.source.problem(loc, message) if loc else Problem(message, loaded.source.filename)
        out.append(f"warning: {problem.format()}")
    return out + margin_warnings(loaded, doc, margin)


def margin_warnings(loaded: Loaded, doc: Document, margin: float | None = None) -> list[str]:
    """One warning per element of a user definition that prints within PRINTER_MARGIN of the
    paper's edge (many lasers print nothing within 4.2-5 mm), or within margin when the build
    gives --printer-margin (the user's printer); built-ins are held to it by tests."""
    from .draw.furniture import PRINTER_MARGIN
    from .draw.lint import near_edge
    limit = PRINTER_MARGIN if margin is None else margin
    key_of = getattr(loaded.handler, "element_key", None)
    seen: dict[str, tuple[int, str, float]] = {}
    for number, page in enumerate(doc.pages, 1):
        for description, ident, gap in near_edge(page, limit):
            name = ident or description
            if name not in seen or gap < seen[name][2]:
                seen[name] = (seen.get(name, (number,))[0], description, gap)
    out = []
    for name, (number, description, gap) in seen.items():
        where = f" (page {number})" if len(doc.pages) > 1 else ""
        message = (f"{description}{where} prints {max(gap, 0.0):.1f} mm from the paper's edge: "
                   + (f"many printers print nothing within {PRINTER_MARGIN:g} mm" if margin is None else
                      f"this build's --printer-margin is {margin:g} mm"))
        loc = key_of(loaded.definition, name) if key_of is not None else None
        problem = loaded.source.problem(loc, message) if loc else Problem(message, loaded.source.filename)
        out.append(f"warning: {problem.format()}")
    return out


def page_warnings(loaded: Loaded) -> list[str]:
    """For `validate`: the layout lint on the pages a user definition builds with the default
    options, or why its pages cannot be built (build fails on that; validate only warns)."""
    if loaded.source.builtin or loaded.kind == "pack" or loaded.handler.compose is None:
        return []
    from .errors import SheetgenError
    try:
        doc = compose_loaded(loaded, BuildOptions())
    except SheetgenError as exc:
        return [f"warning: {loaded.source.filename}: its pages cannot be built: {p.format()}" for p in exc.problems]
    return layout_warnings(loaded, doc)


def compose_pack(loaded: Loaded, options: BuildOptions,
                 progress: Callable[[str], None] | None = None,
                 warn: Callable[[str], None] | None = None) -> Document:
    pack = loaded.definition
    pages = []
    members: dict[str, Loaded] = {}         # a sheet the pack names again is read and checked once
    for i, member in enumerate(pack.members()):
        try:
            if member not in members:
                members[member] = load(member)
            doc = compose_loaded(members[member], options)
            if warn is not None:
                for line in layout_warnings(members[member], doc, options.printer_margin):
                    warn(line)
        except InputError as exc:
            # say which line of the pack named the sheet that failed
            raise InputError([pack.source.problem(("sheets", i), f"sheet '{shown(member)}' cannot be built:")]
                             + exc.problems) from None
        stem = Path(member).stem
        for page in doc.pages:
            if not page.name.startswith(stem):
                page.name = f"{stem}-{page.name}"
            pages.append(page)
        if progress:
            progress(member)
    return Document(pages, title=pack.model.title, name=pack.model.name)


def load_targets(targets: list[str]) -> list[Loaded]:
    """Load every target (the default pack when none is given); nothing is composed yet."""
    return [load(t) for t in (targets or [DEFAULT_PACK])]


def count_sheets(loaded: list[Loaded]) -> int:
    """How many sheets documents() will compose (for a progress bar)."""
    return sum(len(item.definition.members()) if item.kind == "pack" else 1 for item in loaded)


def documents(loaded: list[Loaded], options: BuildOptions,
              progress: Callable[[str], None] | None = None,
              warn: Callable[[str], None] | None = None) -> list[Document]:
    """Compose every loaded target into documents (nothing written); warn gets the layout
    lint's warnings on user definitions (see layout_warnings)."""
    docs = []
    for item in loaded:
        if item.kind == "pack":
            docs.append(compose_pack(item, options, progress, warn))
        else:
            docs.append(compose_loaded(item, options))
            if warn is not None:
                for line in layout_warnings(item, docs[-1], options.printer_margin):
                    warn(line)
            if progress:
                progress(item.source.filename)
    return docs


def render(docs: list[Document], outdir: str | Path, formats: tuple[str, ...], options: BuildOptions) -> list[Path]:
    from .render import render_documents
    names = [d.name for d in docs]
    dupes = {n for n in names if names.count(n) > 1}
    for i, doc in enumerate(docs):
        if doc.name in dupes:
            doc.name = f"{doc.name}-{i + 1}"
    # all or nothing: no file is replaced until every page of every document rendered
    return render_documents(docs, Path(outdir), formats=formats, dpi=options.dpi, grayscale=options.grayscale)
