import time

import click

from ._common import clean_errors, require_extra
from .build import game_build_options


@click.command()
@click.argument("photos", nargs=-1, required=True, metavar="PHOTO...")
@click.option("--sheet", "sheet_ref", default=None, metavar="NAME|FILE",
              help="The sheet the photos show, when its QR code cannot be read (or it has no marks); "
                   "a custom sheet's QR code asks for its file.")
@click.option("--log", "log", default=None, type=click.Path(dir_okay=False),
              help="Also compare the paper with this play log (and check the log, as `sheetgen check`).")
@click.option("--journal", "journal_path", default=None, type=click.Path(dir_okay=False),
              help="Also compare the paper with the current game of this `sheetgen track` journal.")
@click.option("-o", "--output", "outdir", default="output", show_default=True, type=click.Path(file_okay=False),
              help="Folder for PHOTO.sheetscan.yaml and PHOTO.overlay.png (photos of the same name from "
                   "several folders: FOLDER-PHOTO.*).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for programs.")
@click.option("--review", is_flag=True,
              help="Then open the overlay in the local web page (one photo): the uncertain regions first; "
                   "tap a region to flip its reading, the check runs again and the corrections are saved "
                   "in PHOTO.sheetscan.yaml (marked as a person's). Ctrl-C ends the review.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="With --review: the port (0: a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="With --review: the address to listen on (0.0.0.0: review from a phone on this network; "
                   "a token guards it, as `sheetgen play`).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Photos read at once, each in a worker process (default: 1 for one photo, else the "
                   "usable cores). What is printed and written, and the exit code, are the same as with "
                   "--jobs 1, in the photos' order.")
@game_build_options
@clean_errors
def scan(photos, sheet_ref, log, journal_path, outdir, fmt, review, port, host, jobs, **game_values):
    """Read a photo (or a flat scan) of a penciled sheet and check what it shows.

    Finds the sheet by its four corner markers, reads its QR code (or takes
    --sheet), composes the same sheet again and reads every region a player
    marks: walls, the path and visited rooms, crossed and blacked-out boxes,
    struck items, requirement and hourglass boxes.  Checks the result against
    the rules, and with --log or --journal against the play record, naming
    every difference.  Writes PHOTO.sheetscan.yaml (every region's reading and
    confidence, the uncertain ones first) and PHOTO.overlay.png (the flattened
    photo with every region outlined by what was read) into the output folder,
    both or neither; photos of the same name from several folders (IMG_0001.jpg)
    get their folder's name in front (holiday-IMG_0001.*), said on stderr.
    Photos are read --jobs at a time, each in a worker process (the usable cores
    by default; a photo goes to a worker that has its sheet ready), and reported
    in their order: a folder of hundreds takes no more memory than a few photos
    per worker.
    With --review (one photo) a local page shows the overlay, the uncertain
    regions first: tap a region to flip its reading; the check runs again on
    the corrected reading, which is saved in the sheetscan file with the
    corrections marked as a person's, and counted in what is printed at the end.
    Exit 0 consistent, 1 violations or differences, or consistent as read but
    resting on uncertain regions ("unconfirmed": check them, or --review),
    2 a photo that cannot be used.

    \b
    Examples:
      sheetgen scan photo.jpg
      sheetgen scan photo.jpg --log my-game.yaml -o scans
      sheetgen scan scan.png --sheet ancient-story --hero kael --format json
      sheetgen scan photo.jpg --review
      sheetgen scan photos/*.jpg --jobs 2
    """
    import sys
    from pathlib import Path

    from ..errors import InputError, Problem, SheetgenError
    require_extra("scan", "scan")
    if log and journal_path:
        raise InputError(Problem("give --log or --journal, not both", path="--journal"))
    if review:
        if len(photos) > 1:
            raise InputError(Problem(f"--review takes one photo, not {len(photos)}", path="--review"))
        require_extra("web", "scan --review")
    from ..definitions.registry import build_options as declared_options
    declared = declared_options()
    options = tuple((name, declared[name].convert(v)) for name, v in game_values.items() if v is not None)
    record_label = None
    tmp = None
    if journal_path:
        log, record_label, tmp = _journal_log(journal_path)
    from ..scan.pipeline import worse
    names = output_names(photos)
    for note in _renamed(photos, names):
        click.echo(f"note: {note}", err=True)
    out = Path(outdir)
    many = len(photos) > 1
    if jobs is None:
        import os
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    jobs = 1 if review or not many else min(jobs, len(photos))
    if many:
        from ..scan.image import keep_freed_memory
        keep_freed_memory()
    shown_json = 0
    worst, errors = 0, []

    def said(result, written, data) -> None:
        nonlocal shown_json
        if fmt == "json":
            _echo_json(data, shown_json, many)
            shown_json += 1
        else:
            from ..scan.report import text
            click.echo(text(result))
            click.echo(f"  wrote {written[0]} and {written[1]}")
    # a photo's outputs are encoded and written on a thread while the next photo is read (OpenCV and
    # zlib let go of the interpreter): one photo at most waits to be written, so memory stays flat
    from concurrent.futures import ThreadPoolExecutor
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scan-writer")
    pending = None

    def finish_pending() -> None:
        nonlocal pending
        if pending is not None:
            done, pending = pending, None
            said(done[0], done[2].result(), done[1])   # a failed write raises here, as it would have in line
    try:
        if jobs > 1:
            for photo, name, done in _in_workers(jobs, photos, names, sheet_ref, options, log, record_label, out,
                                                 fmt):
                if "problems" in done:
                    errors.append((photo, done))
                    worst = worse(worst, done["exit_code"])
                    continue
                if fmt == "json":
                    _echo_json(done["data"], shown_json, many)
                    shown_json += 1
                else:
                    click.echo(done["text"])
                    click.echo(f"  wrote {done['written'][0]} and {done['written'][1]}")
                worst = worse(worst, done["exit_code"])
        for photo, name in zip(photos, names) if jobs == 1 else ():
            try:
                result = _read_checked(photo, sheet_ref, options, log, record_label)
            except SheetgenError as exc:
                if not many:
                    raise
                errors.append((photo, _problems(exc)))
                worst = worse(worst, exc.exit_code)
                continue
            if review:
                written = _write_outputs(result, out, name, keep_images=True)
                _review(result, written, log, record_label, host, port, fmt)
                worst = result.exit_code
                continue
            finish_pending()
            # said once written and let go: nothing of a photo stays for the next (memory stays flat)
            data = _as_data(result)     # once, for the YAML and the JSON
            pending = (result, data, writer.submit(_write_outputs, result, out, name, data=data))
            worst = worse(worst, result.exit_code)
            del result
        finish_pending()
    finally:
        writer.shutdown(wait=True)
        if tmp is not None:
            tmp.cleanup()
    if fmt == "json":
        for photo, error in errors:
            _echo_json({"photo": photo, "error": error["problems"]}, shown_json, many)
            shown_json += 1
        click.echo(("\n]" if shown_json else "[]") if many else "")
    else:
        for photo, error in errors:
            for problem in error["problems"]:
                click.echo(f"error: {problem}", err=True)
    sys.exit(worst)


def _read_checked(photo, sheet_ref, options, log, record_label):
    """One photo read and checked (against the record too, with --log or --journal)."""
    from ..scan.pipeline import compare_with_record, scan_photo, scanner_for
    result = scan_photo(photo, sheet_ref=sheet_ref, keep_images=True, options=options)
    if log:
        compare_with_record(result, scanner_for(result.sheet), log, record_label)
    return result


def _problems(exc) -> dict:
    """A photo's error as the run reports it at its end: its problems said, and its exit code."""
    return {"problems": [p.format() for p in exc.problems], "exit_code": exc.exit_code}


def _find_one(sheet_ref, options, task):
    """In a worker: the sheet a photo shows (batch.Job.find), or its problems."""
    from ..errors import SheetgenError
    from ..scan.pipeline import find_in_photo
    photo, _ = task
    try:
        found, img, gray = find_in_photo(photo, sheet_ref, options)
    except SheetgenError as exc:
        return _problems(exc)
    return found.wanted(sheet_ref, options), found, (img, gray)


def _finish_one(sheet_ref, options, log, record_label, out, fmt, task, found, kept) -> dict:
    """In a worker: one photo whose sheet is found read, checked and its outputs written: what the
    parent prints for it (its text for FMT text, its JSON data, the files written, the exit code)
    or its problems.  KEPT: the photo decoded, None where another worker found it."""
    from ..errors import SheetgenError
    from ..scan.pipeline import compare_with_record, photo_images, read_found, scanner_for
    from ..scan.report import text
    photo, name = task
    try:
        if kept is None:        # found by another worker: decoded again here
            start = time.perf_counter()
            kept = photo_images(photo)
            found.decoding += time.perf_counter() - start
        img, gray = kept
        result = read_found(found, img, gray, sheet_ref, options, keep_images=True)
        if log:
            compare_with_record(result, scanner_for(result.sheet), log, record_label)
    except SheetgenError as exc:
        return _problems(exc)
    data = _as_data(result)             # once, for the YAML and the JSON
    written = _write_outputs(result, out, name, data=data)
    # the text only where it is printed: a region to check says what the rules find read otherwise
    return {"text": text(result) if fmt == "text" else None, "data": data, "written": written,
            "exit_code": result.exit_code}


def _in_workers(jobs, photos, names, sheet_ref, options, log, record_label, out, fmt):
    """(photo, name, what _finish_one said) for each photo, read by JOBS worker processes, each photo
    by a worker that has its sheet ready where one has (scan.batch), yielded in the photos' order."""
    from functools import partial

    from ..scan.batch import Job, read_in_workers
    from ..scan.identify import remember
    from ..scan.pipeline import Found, has_sheet
    job = Job(find=partial(_find_one, sheet_ref, options),
              finish=partial(_finish_one, sheet_ref, options, log, record_label, out, fmt),
              has=has_sheet, shares=Found.read_by_code, learn=remember)
    for (photo, name), done in read_in_workers(jobs, list(zip(photos, names)), job):
        yield photo, name, done


def _as_data(result):
    from ..scan.report import as_data
    return as_data(result)


def _echo_json(data, shown: int, many: bool) -> None:
    """One photo's JSON, as an item of the list json.dumps(..., indent=2) writes for many photos
    (the same text, written one photo at a time), or the whole document for one."""
    from ..scan.report import as_json
    text = as_json(data)
    if many:
        text = ("[\n" if shown == 0 else ",\n") + "  " + text.replace("\n", "\n  ")    # each line indented
    click.echo(text, nl=False)


def _review(result, written, log, record_label, host, port, fmt) -> None:
    """The review page over RESULT until Ctrl-C; then the scan again, corrected, with its count."""
    from ..scan.pipeline import scanner_for
    from ..scan.review import ReviewSession
    from ..web.review import make_review_app
    from ..web.server import address, bind, serve, token_for
    session = ReviewSession(result, scanner_for(result.sheet), written[0], written[1], record=log,
                            label=record_label)
    token = token_for(host)
    sock = bind(host, port)
    app = make_review_app(session, host=host, token=token)
    url = address(sock, token, "/")
    click.echo(f"reviewing {result.photo} at {url}", err=fmt == "json")
    if token:
        click.echo("the token in this address guards the review: share it only with your own phone", err=True)
        try:
            from ..web.play.terminal import qr_text
            click.echo(qr_text(url), err=True)
        except Exception as exc:  # noqa: BLE001 - the QR code is a convenience: the address is printed
            click.echo(f"(no QR code: {exc})", err=True)
    click.echo(f"each tap is saved in {written[0]}; Ctrl-C ends the review", err=fmt == "json")
    session.photo_png()         # the flattened photo made before the first page asks for it
    try:
        serve(app, sock)
    except KeyboardInterrupt:
        pass                    # Ctrl-C: the end of the review (uvicorn raises it again once stopped)
    finally:
        sock.close()
    session.save()
    if result.corrections:
        from ..scan.overlay import write_overlay
        write_overlay(result, written[1])       # outlined by the corrected readings
    if fmt == "json":
        _echo_json(_as_data(result), 0, False)
    else:
        from ..scan.report import text
        click.echo(text(result))
        n, m = len(result.corrections), len(result.confirmed)
        confirmations = f" and {m} confirmation{'s' if m != 1 else ''}" if m else ""
        click.echo(f"  {n} correction{'s' if n != 1 else ''}{confirmations} by a person, saved in {written[0]}")


def _write_outputs(result, out, name: str, keep_images: bool = False, data: dict | None = None):
    """NAME.sheetscan.yaml and NAME.overlay.png in OUT, one set: both or neither (see atomic);
    then the result lets go of its images (the big part of it), unless KEEP_IMAGES (--review).
    DATA: the result's as_data() when the caller has it already."""
    from ..atomic import Staging
    from ..scan.overlay import overlay_png
    from ..scan.report import sheetscan_yaml
    targets = (out / f"{name}.sheetscan.yaml", out / f"{name}.overlay.png")
    overlay = overlay_png(result)
    if not keep_images:
        result.page = result.gray = result.colour = None
    with Staging() as staging:
        staging.add(targets[0]).write_text(sheetscan_yaml(result, data), encoding="utf-8")
        staging.add(targets[1]).write_bytes(overlay)
    return targets


def output_names(photos) -> list[str]:
    """The name each photo's outputs take: its file name without the suffix; photos of the
    same name (IMG_0001.jpg from two folders; letter case aside, for file systems that ignore
    it) get their folder's name in front (holiday-IMG_0001), and when that is the same too (the
    same photo twice) a number after (holiday-IMG_0001-2)."""
    import os
    from collections import Counter
    from pathlib import Path
    stems = [Path(p).stem for p in photos]
    same = Counter(s.casefold() for s in stems)
    names = [stem if same[stem.casefold()] == 1 else f"{Path(os.path.abspath(p)).parent.name or 'root'}-{stem}"
             for p, stem in zip(photos, stems)]
    count = Counter(n.casefold() for n in names)
    taken = {n.casefold() for n in names if count[n.casefold()] == 1}
    final = []
    for name in names:
        if count[name.casefold()] > 1:
            i = 1
            while f"{name}-{i}".casefold() in taken:
                i += 1
            name = f"{name}-{i}"
            taken.add(name.casefold())
        final.append(name)
    return final


def _renamed(photos, names) -> list[str]:
    """A note for each name several photos share, saying what their outputs are named."""
    from pathlib import Path
    groups: dict = {}
    for photo, name in zip(photos, names):
        if name != Path(photo).stem:
            groups.setdefault(Path(photo).stem.casefold(), []).append((photo, name))
    return [f"{len(group)} photos are named {Path(group[0][0]).name}: their outputs are named "
            + ", ".join(f"{name}.* ({photo})" for photo, name in group) for group in groups.values()]


def _journal_log(journal_path):
    """The journal's current game as a play log in a temporary folder: (path, label, tmp)."""
    import tempfile
    from pathlib import Path

    from ..definitions.registry import tracker_for
    from ..errors import InputError, Problem
    from ..tracker.journal import Journal, JournalError
    if not Path(journal_path).is_file():
        raise InputError(Problem("no such journal", journal_path, expected="a journal `sheetgen track` wrote"))
    try:
        journal = Journal(journal_path, write=False)
    except JournalError as exc:
        raise InputError(Problem(str(exc), journal_path)) from None
    try:
        try:
            game = journal.current()
        except JournalError as exc:
            raise InputError(Problem(str(exc), journal_path)) from None
        tmp = tempfile.TemporaryDirectory()
        text = tracker_for(game.ruleset).export(game.header, journal.steps(game.id), Path(tmp.name))
    finally:
        journal.close()
    path = Path(tmp.name) / "journal-game.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path), f"{journal_path} (game {game.id})", tmp
