"""Scan-back benchmark: `sheetgen scan` on the synthetic photo corpus.

The corpus is tests/data/scan/recipes.yaml (320 recipes over the scan corpus's play logs):
each log is penciled on its sheet by a seeded hand (sheetgen.testing.graphite), rasterised by
pdftoppm and photographed by the seeded camera (sheetgen.testing.photo: tilt up to 30 degrees,
any rotation, 60-95 % of the frame, lens, light, shadow, blur up to 1.5 px, noise, JPEG
50-90, 2 and 12 MP).  Figures:

- region accuracy: every region whose truth is known (the log's pencil), read right or not,
  every misread listed by kind (role, what it read, what it was); regions under print too
  dark for a pencil to show are counted apart (nothing can be read there);
- whole-sheet accuracy: photos whose reading equals the log's final state (the scanner's
  comparison finds no difference), and photos that could not be used at all;
- flat 300 dpi renders (a flatbed scan): the same, on the raster itself;
- speed: sheets a minute on one core (OpenCV limited to one thread), from the decoded 2 MP
  and 12 MP photos to the checked result, the sheet made ready once (in process: each photo
  is scanned once untimed, then timed), and of it the part that finds the page (markers,
  quality, QR code, rectify); apart, a sheet's first photo (its template rendered, its
  print and regions worked out: what a run pays once a sheet);
  against a plain baseline in the same run (OpenCV reading the JPEG and warping it flat
  with a known homography: the least any scanner does), as a ratio;
- whole process: `sheetgen scan` as a user runs it, a new process over a folder of photos
  (sheets a minute, start-up and the sheet's template included);
- whole process over several sheets: `sheetgen scan` over a folder of 20 2 MP photos of 8
  different sheets, no --sheet, beside a plain baseline process (OpenCV loading and greying
  each photo), and the same folder through the command in process, its sheets ready (--speed:
  only this);
- memory (--memory N [--jobs J], measured alone): the peak resident memory of the largest
  process of one `sheetgen scan` run (the command or one of its workers) over N and over 2N
  2 MP photos of 8 sheets (JSON out, the outputs written): flat when nothing a photo leaves
  behind grows with their number;
- identity (--identity, measured alone): the sheet known without --sheet, by its QR code
  decoded or by its modules matched to the codes of the sheets it could be.

OMRChecker, the anchor (its README): about 100 % on good scans, about 90 % on phone
photos, about 200 sheets a minute.

Families (`--families`): the family corpus, tests/data/scan/families.yaml (sheetgen.testing.families:
pencil families, each one way of marking: light or heavy graphite, blue and black ballpoint,
felt tip, crayon floods, visited rooms as circles, ticks, slashes, crosses or scribbles, boxes
ticked or slashed, walls past their ends, short of them, a millimetre off the edge or stroked
twice, erasures clean or smudged; camera families: tilt to 35 degrees, quarter turns, motion
and focus blur, low light, glare, a deep shadow, 1 and 12 MP, JPEG 40-50, Letter paper).
Per family: regions right, whole sheets exact (photos, and 300 dpi flat renders of the pencil
families), photos refused (with the blur measured), legal sheets told "consistent", and
photos told "consistent" over a misread; then the WORST family.  `--hold-out FAMILY` (or
`--hold-out all`: each in turn): a per-role threshold on the region measures, tuned on every
other family, against the shipped reader on the held-out one (the shipped reader's thresholds
were set on none of these families: every family is held out from it); and the verdict's rule
(a reading is "consistent" only when no region it could have seen is uncertain, else "unconfirmed",
exit 1 with that word) against that rule tuned on the other families, family by family, with the worst.
Then the calibrated confidence (sheetgen.scan.confidence: P(misread) per region by its group or role,
what it read and its distance from the threshold, a logistic regression), fitted leaving each family
out on the other families' photos and flat renders, its verdict on the held-out family (uncertain
when P(misread) > confidence.BOUND) beside the margin rule the reader ships, the misreads it expected
there against those made, the trade at other cuts and the worst held-out family.
`--illegal` (instead): each family photo again with marks that break one of the game's rules added
to its pencil (GameScanner.illegal_marks: Dungeon Foury a wall between rooms never entered, a dot in a
room no path reaches, a path between rooms never entered, a track's box crossed past a bare one, in
turn; Dungeon Exploration a door on no room's wall, a numbered room of one square with no door), drawn by the family's hand under its camera and read without a record: per family the
sheets flagged "not consistent" with that rule and its place named, flagged for something else only,
told "unconfirmed" or "consistent" (a false "consistent"), refused, or drawn where print too dark for
any pencil hides it on every photo (nothing to read: counted apart); then the worst family.

Usage: python bench/bench_scan.py [--photos N] [--flats N] [--process N] [--match TEXT] [--ids A,B] [--sheets]
                                  [--families [--per N] [--family NAME] [--hold-out FAMILY|all] [--no-flats]
                                   [--families-half tune|held] [--faint | --no-faint] [--no-fill-ink] [--illegal]]
       python bench/bench_scan.py --memory N
       python bench/bench_scan.py --identity [--families]
       python bench/bench_scan.py --speed [--jobs N]
  --identity: is the sheet known without --sheet (its QR code decoded, or its modules matched), over
              the corpus's photos (--families: the family corpus's), by megapixels
  --speed: only the whole process over 20 photos of 8 sheets, beside the plain baseline, with the user cache
           cold (an empty folder: each sheet made ready) and warm (the same run again: the median of
           WARM_RUNS runs, each beside a run of the baseline, alternated), and in process (--jobs N: the
           command's --jobs; none: its default)
       python bench/bench_scan.py --taps N [--families]
  --taps N: what --review asks of a person over N photos spread over the corpus (--families: the
            family corpus): the taps that make each inexact sheet exact, and how many of them fall
            on the regions listed as uncertain (shown first)
  --families-half tune|held: only the families of that half (family_half: the tuning half, the held-out
            half; constants are chosen on the tuning half and recipes.yaml only)
  --faint: the reader with faint lines and dots read against the photo's own noise, and walls by their ink
            over the print (sheetgen.scan.read.FAINT_LINES, FAINT_DOTS and WALL_INK; shipped on: the flag
            only sets them; --no-faint: all three off, the reader as before 2026-12-07)
  --no-fill-ink: FILLs read by their mean darkness alone, not also by their ink over the print
            (sheetgen.scan.read.FILL_INK, shipped on; the reader as before 2026-12-07 05:25)
  --match TEXT: only the recipes whose log path holds TEXT (!TEXT: does not hold it)
  --ids A,B: only these recipes (photo-0058,photo-0155; their flat renders with them)
  --sheets: list every sheet not read exactly, with the differences the scanner names
"""
from __future__ import annotations

import collections
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECIPES = ROOT / "tests" / "data" / "scan" / "recipes.yaml"
SHEETS = False      # --sheets: list the sheets not read exactly
TARGETS = {"regions": 99.5, "sheets": 98.0, "flat": 100.0, "speed": 300.0}


def _arg(argv, name, default):
    return int(argv[argv.index(name) + 1]) if name in argv else default


def score(result, played) -> tuple[int, int, list, collections.Counter]:
    """(regions read right, regions counted, misreads, hidden by role) of one scan."""
    right = counted = 0
    misreads = []
    hidden = collections.Counter()
    for rid, truth in played.truth.items():
        reading = result.readings.get(rid)
        if reading is None:
            continue
        if reading.hidden:
            hidden[reading.region.role] += 1
            continue
        counted += 1
        if (reading.value != "empty") == (truth != "empty"):
            right += 1
        else:
            misreads.append((reading.region.role, "read marked, was empty" if reading.marked else
                             "read empty, was marked", rid))
    return right, counted, misreads, hidden


def run(recipes, label: str, flat: bool = False) -> dict:
    from sheetgen.errors import SheetgenError
    from sheetgen.testing.corpus import photo_of
    from sheetgen.scan.pipeline import as_seen, scan_photo
    totals = {"right": 0, "counted": 0, "sheets": 0, "whole": 0, "failed": [], "qr": 0, "misreads": [],
              "hidden": collections.Counter(), "times": collections.defaultdict(list), "making": 0.0,
              "finding": collections.defaultdict(list), "inexact": [], "first": {}}
    for recipe in recipes:
        t = time.perf_counter()
        img, played = photo_of(recipe)
        totals["making"] += time.perf_counter() - t
        totals["sheets"] += 1
        mp = "flat" if flat else f"{recipe.camera.megapixels} MP"
        try:
            # the sheet made ready first (its template, print and regions: once per sheet in a run,
            # timed apart the first time the bench meets the sheet), then the photo timed alone
            sheet = played.sheet.identity.encode()
            t = time.perf_counter()
            scan_photo("warm", sheet_ref=played.ref, options=played.options, img=img)
            if sheet not in totals["first"]:
                totals["first"][sheet] = time.perf_counter() - t
            t = time.perf_counter()
            result = scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img)
            totals["times"][mp].append(time.perf_counter() - t)
            totals["finding"][mp].append(result.finding)
        except SheetgenError as exc:
            totals["failed"].append((recipe.id, exc.problems[0].message))
            continue
        right, counted, misreads, hidden = score(result, played)
        totals["right"] += right
        totals["counted"] += counted
        totals["misreads"] += [(recipe.id, *m) for m in misreads]
        totals["hidden"] += hidden
        totals["qr"] += result.identity_from == "QR code"
        differences = played.scanner.compare(played.sheet, result.view,
                                             as_seen(played.scanner, result, played.expected))
        if not differences:
            totals["whole"] += 1
        else:
            totals["inexact"].append((recipe.id, mp, [d.message for d in differences]))
    return totals


def report(t: dict, label: str, target_regions: float, target_sheets: float) -> None:
    pct = 100.0 * t["right"] / max(1, t["counted"])
    whole = 100.0 * t["whole"] / max(1, t["sheets"])
    print(f"{label}: region accuracy {pct:.2f}% ({t['right']} of {t['counted']} regions over {t['sheets']} "
          f"images; target >= {target_regions}%)", flush=True)
    print(f"{label}: whole-sheet accuracy {whole:.1f}% ({t['whole']} of {t['sheets']} read exactly as the log's "
          f"final state; target >= {target_sheets}%); {len(t['failed'])} could not be used; "
          f"QR code read on {t['qr']} of {t['sheets'] - len(t['failed'])}", flush=True)
    kinds = collections.Counter((role, what) for _, role, what, _ in t["misreads"])
    for (role, what), n in kinds.most_common():
        examples = [f"{rid}:{region}" for rid, r, w, region in t["misreads"] if (r, w) == (role, what)][:3]
        print(f"    misread {n:5d} x {role}: {what} (e.g. {', '.join(examples)})")
    for rid, why in t["failed"][:12]:
        print(f"    not usable: {rid}: {why}")
    if SHEETS:
        for rid, mp, messages in t["inexact"]:
            print(f"    not exact: {rid} ({mp}): " + "; ".join(messages[:4]) +
                  (f" (+{len(messages) - 4})" if len(messages) > 4 else ""))
    if t["hidden"]:
        print("    not readable (under dark print, left out): "
              + ", ".join(f"{role} {n}" for role, n in t["hidden"].most_common()))


def plain_baseline(recipes, n: int = 12) -> float:
    """Median seconds of the plain baseline on n 2 MP photos: cv2.imdecode of the JPEG and one
    warpPerspective of the page to 5 px a mm (what any photo scanner does at the least)."""
    import cv2
    import numpy as np

    from sheetgen.testing.corpus import photo_of
    from sheetgen.testing.photo import page_quad_in_photo
    times = []
    for recipe in [r for r in recipes if r.camera is not None and r.camera.megapixels == 2][:n]:
        img, played = photo_of(recipe)
        page = played.sheet.page
        ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
        quad = page_quad_in_photo((page.width, page.height), recipe.camera).astype(np.float32)
        size = (int(page.width * 5), int(page.height * 5))
        dst = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
        t = time.perf_counter()
        photo = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
        gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
        cv2.warpPerspective(gray, cv2.getPerspectiveTransform(quad, dst), size)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def ours_from_jpeg(recipes, n: int = 12) -> float:
    """Median seconds of scan_photo on the same photos, from the JPEG bytes decoded."""
    import cv2

    from sheetgen.errors import SheetgenError
    from sheetgen.testing.corpus import photo_of
    from sheetgen.scan.pipeline import scan_photo
    times = []
    for recipe in [r for r in recipes if r.camera is not None and r.camera.megapixels == 2][:n]:
        img, played = photo_of(recipe)
        ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
        try:
            scan_photo("warm", sheet_ref=played.ref, options=played.options, img=img)
        except SheetgenError:
            continue
        t = time.perf_counter()
        scan_photo(recipe.id, sheet_ref=played.ref, options=played.options,
                   img=cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def whole_process(recipes, n: int) -> tuple[float, int]:
    """(seconds, photos) of one `sheetgen scan` process over n 2 MP photos of one sheet."""
    import subprocess
    import tempfile

    import cv2

    from sheetgen.testing.corpus import photo_of
    chosen = [r for r in recipes if r.camera is not None and r.camera.megapixels == 2
              and "exploration/" in r.log][:n]
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for recipe in chosen:
            img, played = photo_of(recipe)
            path = Path(tmp) / f"{recipe.id}.jpg"
            cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 85])
            paths.append(str(path))
        env = user_env()
        cmd = [sys.executable, "-m", "sheetgen", "scan", *paths, "--sheet", played.ref, "-o",
               str(Path(tmp) / "out"), "--format", "json"]
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        return time.perf_counter() - t, len(paths)


def identity_rate(recipes, label: str) -> None:
    """--identity: is the sheet known without --sheet?  Per photo, as the scanner goes: its QR code
    decoded in the decoder's first tries (pipeline.QR_FIRST_TRIES), else its modules matched to the
    codes of the sheets it could be (sheetgen.scan.identify), cold (nothing of the run remembered:
    each photo as if alone) and with no game option given, else decoded in the decoder's other
    tries; then matched with the options the sheet was printed with (--hero) for the photos still
    unknown.  Custom sheets need --sheet FILE whatever the code says (the
    scanner cannot compose them without it): counted apart, matched with their file."""
    import cv2

    from sheetgen.draw.scanmarks import SheetIdentity
    from sheetgen.errors import SheetgenError
    from sheetgen.scan import identify as ID
    from sheetgen.scan import image as I
    from sheetgen.scan.pipeline import QR_FIRST_TRIES
    from sheetgen.testing.corpus import photo_of
    rows: dict = collections.defaultdict(collections.Counter)
    unknown = []
    for recipe in recipes:
        if recipe.camera is None:
            continue
        try:
            img, played = photo_of(recipe)
        except SheetgenError:
            continue
        truth = played.sheet.identity
        group = (f"{recipe.camera.megapixels} MP", "custom" if truth.custom else "built-in")
        row = rows[group]
        row["photos"] += 1
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        markers = I.find_markers(gray)
        if markers.layout is None or len(markers.corners) < 2:
            row["no markers"] += 1
            continue
        try:
            loc = I.locate(img, gray, recipe.id, markers)
        except SheetgenError:
            row["no markers"] += 1
            continue
        soft = I.measure_quality(gray, loc).softness
        ref = played.ref if truth.custom else None
        # as the scanner does (pipeline.scan_photo): the decoder's first tries, then the match, then the
        # decoder's other tries when nothing matched
        failed: set = set()
        text = I.read_qr(gray, loc, soft, failed, most=QR_FIRST_TRIES)
        ident = None
        if not text:
            ID.forget_seen()                                    # cold: the photo as if alone
            ident, how = ID.identify(gray, loc, soft, ref)
            if ident is None:
                text = I.read_qr(gray, loc, soft, failed)
        if text:
            try:
                right = SheetIdentity.decode(text) == truth
            except ValueError:
                right = False
            row["decoded" if right else "decoded wrong"] += 1
            continue
        if ident is None:
            ident, how = ID.identify(gray, loc, soft, ref, played.options)
            key = "matched with the options" if ident == truth else "wrong" if ident else "unknown"
        else:
            key = "matched" if ident == truth else "wrong"
        row[key] += 1
        if key in ("unknown", "wrong"):
            unknown.append((recipe.id, truth.encode(), ident.encode() if ident else None, how))
    for (mp, kind), row in sorted(rows.items()):
        n = row["photos"]
        before = row["decoded"]
        after = before + row["matched"]
        opts = after + row["matched with the options"]
        print(f"identity, {label}, {mp}, {kind} sheets ({n} photos): QR code decoded {_pct(before, n).strip()} "
              f"({before}); decoded or matched, no option given {_pct(after, n).strip()} ({after}); with the "
              f"game options given {_pct(opts, n).strip()} ({opts}); wrong sheet {row['wrong'] + row['decoded wrong']}; "
              f"unknown {row['unknown']}; no markers {row['no markers']}", flush=True)
    for rid, truth, got, how in unknown:
        print(f"    {rid}: {truth}: {'WRONG ' + got if got else 'unknown'} ({how})", flush=True)


def user_env() -> dict:
    """The environment of a `sheetgen` process as a user runs it: OpenCV on one thread, and modules
    read from their compiled bytecode (an installed package has it; PYTHONDONTWRITEBYTECODE, set on
    some development machines, would have every run compile the whole package again: about 0.4 s)."""
    import os
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def folder_of_sheets(recipes, n: int = 20, sheets: int = 8) -> list:
    """N 2 MP recipes of SHEETS different built-in sheets (the first that have two photos or more,
    in the corpus's order), taken in turn: a folder of photos of several sheets."""
    from sheetgen.testing.corpus import played_cached
    by_sheet: dict = {}
    for r in recipes:
        if r.camera is None or r.camera.megapixels != 2:
            continue
        identity = played_cached(r.log, r.paper).sheet.identity
        if not identity.custom:
            by_sheet.setdefault(identity.encode(), []).append(r)
    chosen = [rs for rs in by_sheet.values() if len(rs) >= 2][:sheets]
    out: list = []
    i = 0
    while len(out) < n and any(i < len(rs) for rs in chosen):
        out += [rs[i] for rs in chosen if i < len(rs)][:n - len(out)]
        i += 1
    return sorted(out, key=lambda r: r.id)


WARM_RUNS = 5       # --speed: warm runs of the command, each beside a run of the plain baseline


def whole_process_sheets(recipes, n: int = 20, sheets: int = 8, jobs: tuple[str, ...] = ()) -> None:
    """`sheetgen scan` as a user runs it over a folder of N 2 MP photos of SHEETS different sheets
    (no --sheet: each known by its QR code, YAML and overlay written, JSON out), beside a plain
    baseline process in the same run (python, OpenCV loading each photo and making it grey: the
    least any scanner does); and in process (the command's own loop, run once to make the sheets
    ready, then timed).  JOBS: `--jobs N` given to the command (none: its default)."""
    import os
    import subprocess
    import tempfile

    import cv2

    from sheetgen.testing.corpus import photo_of
    chosen = folder_of_sheets(recipes, n, sheets)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for recipe in chosen:
            img, _ = photo_of(recipe)
            path = Path(tmp) / f"{recipe.id}.jpg"
            cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 85])
            paths.append(str(path))
        env = user_env()
        plain = ("import sys, cv2\ncv2.setNumThreads(1)\nfor p in sys.argv[1:]:\n"
                 "    cv2.cvtColor(cv2.imread(p), cv2.COLOR_BGR2GRAY)\n")

        def timed(cmd, **kw) -> tuple[float, float, int]:
            """(wall seconds, CPU seconds of the child, exit code): the CPU time says what the run costs
            on a machine shared with other jobs, where the wall time says how busy the machine was"""
            t = time.perf_counter()
            proc = subprocess.Popen(cmd, env=env, cwd=ROOT, **kw)
            out = proc.stdout.read() if proc.stdout else b""
            _, status, usage = os.wait4(proc.pid, 0)
            timed.out = out
            return time.perf_counter() - t, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)
        # the sheets made ready are kept in the user cache (sheetgen.scan.prepared): a first run over an
        # empty cache folder (cold: each sheet made ready, by whichever worker reads its first photo),
        # then the same run again WARM_RUNS times (warm: every sheet loaded from the cache), each beside a
        # run of the plain baseline, alternated: the medians (one run says little on a shared machine)
        env["SHEETGEN_CACHE_DIR"] = str(Path(tmp) / "cache")
        import json
        import statistics
        for cache, runs in (("cold", 1), ("warm", WARM_RUNS)):
            cmd = [sys.executable, "-m", "sheetgen", "scan", *paths, "-o", str(Path(tmp) / f"out-{cache}"),
                   "--format", "json", *jobs]
            measured = []
            for _ in range(runs):
                base_wall, base_cpu, _ = timed([sys.executable, "-c", plain, *paths])
                seconds, cpu, code = timed(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                measured.append((seconds, cpu, base_wall, base_cpu))
            seconds, cpu, base_wall, base_cpu = (statistics.median(m[k] for m in measured) for k in range(4))
            items = json.loads(timed.out or b"[]")
            known = sum("error" not in item for item in items)
            matched = sum(item.get("sheet", {}).get("known_by") == "QR code (matched)" for item in items)
            how = f"median of {runs} runs, each beside the baseline's" if runs > 1 else "one run"
            print(f"whole process, {cache} cache: `sheetgen scan{' ' + ' '.join(jobs) if jobs else ''}` over "
                  f"{len(paths)} photos of {len({r.log for r in chosen})} logs on "
                  f"{sheets} sheets (2 MP, no --sheet; {how}): {seconds:.2f} s, {60.0 * len(paths) / seconds:.0f} "
                  f"sheets a minute; CPU {cpu:.1f} s, {60.0 * len(paths) / cpu:.0f} a CPU minute (exit {code}; {known} "
                  f"read, {matched} of them by the code's modules matched); plain baseline process (OpenCV load and "
                  f"grey): {base_wall:.2f} s, {60.0 * len(paths) / base_wall:.0f} a minute, CPU {base_cpu:.2f} s; scan / "
                  f"baseline {seconds / base_wall:.1f}x (CPU {cpu / base_cpu:.1f}x); target >= 600 a minute", flush=True)
            if runs > 1:
                print(f"    the {runs} warm runs: {', '.join(f'{m[0]:.2f}' for m in measured)} s (baseline "
                      f"{', '.join(f'{m[2]:.2f}' for m in measured)} s)", flush=True)
        print(f"    load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min; the machine's other "
              f"work), {os.cpu_count()} cores", flush=True)
        # in process: the command's loop, the sheets made ready by a first pass (as a long run has them)
        from click.testing import CliRunner

        from sheetgen.cli import main as cli
        os.environ["SHEETGEN_CACHE_DIR"] = env["SHEETGEN_CACHE_DIR"]       # the warm cache, not the user's
        args = ["scan", *paths, "-o", str(Path(tmp) / "out2"), "--format", "json", *jobs]
        import resource

        def cpu() -> float:         # this process's and its workers' (--jobs: worker processes, reaped)
            kids = resource.getrusage(resource.RUSAGE_CHILDREN)
            return time.process_time() + kids.ru_utime + kids.ru_stime
        CliRunner().invoke(cli, args)
        t, c = time.perf_counter(), cpu()
        CliRunner().invoke(cli, args)
        inside, inside_cpu = time.perf_counter() - t, cpu() - c
        print(f"in process: the same folder through the command ({' '.join(jobs) or 'its default --jobs'}), its "
              f"sheets ready (with --jobs > 1 in the parent; each run's workers load them from the warm cache): {inside:.1f} s, "
              f"{60.0 * len(paths) / inside:.0f} sheets a minute; CPU {inside_cpu:.1f} s, "
              f"{60.0 * len(paths) / inside_cpu:.0f} a CPU minute (YAML, overlay and JSON included)", flush=True)


def peak_memory(recipes, counts: list[int], distinct: int = 16,
                jobs: tuple[str, ...] = ()) -> list[tuple[int, float, float]]:
    """(photos, peak resident MB, seconds) of one `sheetgen scan` run over each count of 2 MP photos:
    DISTINCT photos of 8 different sheets (folder_of_sheets; no --sheet: each known by its code),
    each given again under other names (the scanner keeps nothing by a photo's content, so each is
    read afresh; a run keeps its sheets up to pipeline.SHEETS_BUDGET).  The peak is the largest
    process's: the command's or one of its workers' (JOBS: `--jobs N` given; none: its default)."""
    import os
    import subprocess
    import tempfile

    import cv2

    from sheetgen.testing.corpus import photo_of
    chosen = folder_of_sheets(recipes, distinct, 8)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        sources = []
        for recipe in chosen:
            img, played = photo_of(recipe)
            path = Path(tmp) / f"{recipe.id}.jpg"
            cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 85])
            sources.append(path)
        env = user_env()
        for count in counts:
            folder = Path(tmp) / f"photos-{count}"
            folder.mkdir()
            paths = []
            for i in range(count):
                path = folder / f"{i:04d}-{sources[i % len(sources)].name}"
                os.link(sources[i % len(sources)], path)
                paths.append(str(path))
            cmd = [sys.executable, "-m", "sheetgen", "scan", *paths, "-o", str(Path(tmp) / f"out-{count}"),
                   "--format", "json", *jobs]
            # run by a fresh python that waits for it: its children's peak is the largest of the command
            # and its --jobs workers (each waited for by the command), this run's alone
            wrapper = ("import resource, subprocess, sys\n"
                       "code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
                       "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
            t = time.perf_counter()
            said = subprocess.run([sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True, cwd=ROOT,
                                  env=env, check=True).stdout.split()
            seconds = time.perf_counter() - t
            code, peak_kb = int(said[0]), int(said[1])      # ru_maxrss: KB on Linux
            if code not in (0, 1, 2):
                raise SystemExit(f"bench_scan: `sheetgen scan` over {count} photos ended with exit {code}")
            out.append((count, peak_kb / 1024, seconds))
    return out


OPTIONS = {"--identity": None, "--speed": None, "--memory": int, "--photos": int, "--flats": int, "--process": int, "--match": str, "--ids": str, "--sheets": None,
           "--families": None, "--per": int, "--family": str, "--hold-out": str, "--no-flats": None,
           "--taps": int, "--families-half": str,
           "--faint": None, "--no-faint": None, "--no-fill-ink": None, "--illegal": None,
           "--jobs": int}
FAMILY_RECIPES = ROOT / "tests" / "data" / "scan" / "families.yaml"


def _family_of(recipe) -> str:
    return recipe.family or "baseline"


# The family corpus in two halves (`--families-half tune|held`), by a rule fixed before any constant
# was chosen: held out, every camera family, every ink other than a graphite pencil's or a black
# ballpoint's (light graphite, blue ballpoint, felt tip, crayon floods: the inks the reader did worst
# on) and both erasures (where a reader that lowers its thresholds would fail first); tuned, the rest
# (our own pencil drawing other marks, heavy graphite, black ballpoint).  Constants are chosen on the
# tuning half and tests/data/scan/recipes.yaml only.
HELD_PENCIL = ("graphite-light", "ballpoint-blue", "felt-tip", "crayon-floods", "erased-clean", "erased-smudged")


def family_half(family: str) -> str:
    """'tune' or 'held': the half of the family corpus a family is in."""
    from sheetgen.testing.families import kind_of
    return "held" if kind_of(family) == "camera" or family in HELD_PENCIL else "tune"


def run_families(recipes, flat: bool = False) -> dict:
    """Per family: the figures, and every region's (role, score, truth, read) for --hold-out."""
    from sheetgen.errors import SheetgenError
    from sheetgen.testing.corpus import photo_of
    from sheetgen.scan import read
    from sheetgen.scan.pipeline import as_seen, scan_photo
    from sheetgen.scan.read import _threshold
    out: dict = {}
    for recipe in recipes:
        fam = out.setdefault(_family_of(recipe), {"right": 0, "counted": 0, "sheets": 0, "whole": 0, "refused": [],
                                                  "consistent": 0, "legal": 0, "over_misread": 0, "regions": [],
                                                  "unconfirmed": 0, "held": 0, "caught": 0, "photos": [],
                                                  "misreads": collections.Counter(), "inexact": [],
                                                  "features": []})
        try:
            img, played = photo_of(recipe)
        except SheetgenError as exc:
            # a recipe whose log is gone (renamed since the corpus was written): said, not counted
            print(f"    not made: {recipe.id}: {exc.problems[0].message} ({recipe.log})", flush=True)
            continue
        fam["sheets"] += 1
        read.recording = []
        try:
            result = scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img)
        except SheetgenError as exc:
            fam["refused"].append((recipe.id, exc.problems[0].message))
            continue
        finally:
            recorded, read.recording = read.recording, None
        right, counted, misreads, _ = score(result, played)
        fam["right"] += right
        fam["counted"] += counted
        for role, what, rid in misreads:
            fam["misreads"][(role, what)] += 1
        for rid, truth in played.truth.items():
            reading = result.readings.get(rid)
            if reading is not None and not reading.hidden:
                # the measure in its own threshold's units (1: where the shipped reader decides)
                ratio = reading.score / max(_threshold(reading.region), 1e-6)
                fam["regions"].append((reading.region.role, ratio, truth != "empty", reading.marked))
        differences = played.scanner.compare(played.sheet, result.view,
                                             as_seen(played.scanner, result, played.expected))
        exact = not differences
        fam["whole"] += exact
        if not exact:
            fam["inexact"].append((recipe.id, [d.message for d in differences]))
        # every corpus log is legal: the paper's own verdict should be "consistent"
        legal = not played.scanner.check(played.sheet, played.expected)
        if legal:
            fam["legal"] += 1
            fam["consistent"] += result.consistent
            fam["unconfirmed"] += result.unconfirmed
        fam["over_misread"] += result.consistent and not exact
        # what the verdict said before it waited on the unsure regions: the rules held as read
        fam["held"] += result.rules_hold and not exact
        fam["caught"] += result.unconfirmed and not exact
        # for --hold-out: the confidences of the regions the photo could have shown
        fam["photos"].append((result.rules_hold, exact, legal,
                              sorted(r.confidence for r in result.readings.values() if not r.unreadable)))
        fam["features"].append(photo_features(recorded, result, played, exact, legal))
    return out


def photo_features(recorded: list, result, played, exact: bool, legal: bool) -> dict:
    """A photo's readings as the calibrated confidence sees them (sheetgen.scan.read.recording: what each
    region's raw reading was decided on), for the confidence's fit and its held-out verdict: per region
    read (not unreadable) its group, what it read, its distance from the threshold, how much of it was
    seen, whether it read wrong (-1: no truth), and whether the game's refine changed it (it stays
    uncertain whatever the model says); and the photo's rules held, exact, legal."""
    import numpy as np
    ids = [i for rec in recorded for i in rec[0]]
    cols = [np.concatenate([rec[k] for rec in recorded]) if recorded else np.zeros(0) for k in range(1, 6)]
    group, marked, distance, seen, unread = cols
    unread = unread.astype(bool)
    truth = played.truth
    wrong = np.array([-1 if i not in truth else int((truth[i] != "empty") != bool(m)) for i, m in zip(ids, marked)],
                     dtype=np.int8)
    refined = np.array([result.readings[i].marked != bool(m) if i in result.readings else False
                        for i, m in zip(ids, marked)], dtype=bool)
    keep = ~unread
    role = np.array([result.readings[i].region.role if i in result.readings else "" for i in ids], dtype=object)
    return {"role": role[keep], "group": group[keep].astype(np.int8), "marked": marked[keep].astype(bool),
            "distance": distance[keep].astype(np.float32), "seen": seen[keep].astype(np.float32),
            "wrong": wrong[keep], "refined": refined[keep], "holds": result.rules_hold, "exact": exact,
            "legal": legal}


def review_taps(recipes) -> None:
    """--taps: what `sheetgen scan --review` asks of a person.  Per photo read inexactly: the taps
    that make it exact (each wrong region stepped to its truth: a box empty -> crossed -> filled),
    how many of them fall on regions listed as uncertain (shown first), and whether the sheet is
    exact once they are made (the readings corrected, the comparison made again)."""
    from sheetgen.errors import SheetgenError
    from sheetgen.scan.contract import RegionReading
    from sheetgen.testing.corpus import photo_of
    from sheetgen.scan.pipeline import as_seen, scan_photo
    from sheetgen.scan.review import taps_needed
    rows, refused, exact_first = [], 0, 0
    for recipe in recipes:
        img, played = photo_of(recipe)
        try:
            result = scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img)
        except SheetgenError:
            refused += 1
            continue
        scanner = played.scanner

        def differences():
            return scanner.compare(played.sheet, result.view, as_seen(scanner, result, played.expected))
        if not differences():
            exact_first += 1
            continue
        taps, listed, wrong = taps_needed(result, played.truth)
        for rid, truth in played.truth.items():
            r = result.readings.get(rid)
            if r is not None and not r.hidden and r.value != truth:
                result.readings[rid] = RegionReading(r.region, truth, 1.0, r.score, r.visible)
        result.view = scanner.interpret(played.sheet, result.readings)
        rows.append((recipe.id, taps, listed, wrong, not differences()))
        print(f"    {recipe.id}: {taps} taps ({listed} on regions listed as uncertain), {wrong} regions wrong, "
              f"{'exact' if rows[-1][4] else 'STILL NOT exact'} after them", flush=True)
    read = len(recipes) - refused
    print(f"review taps over {len(recipes)} photos: {exact_first} of {read} read exactly (no tap), {len(rows)} inexact, "
          f"{refused} refused", flush=True)
    if rows:
        taps = [r[1] for r in rows]
        listed = sum(r[2] for r in rows)
        print(f"  per inexact photo: {statistics.mean(taps):.1f} taps on average (median {statistics.median(taps):.0f}, "
              f"most {max(taps)}); {100.0 * listed / max(1, sum(taps)):.0f}% of the taps on regions listed as "
              f"uncertain (shown first); exact after the taps: {sum(r[4] for r in rows)} of {len(rows)}", flush=True)
        print(f"  per photo read: {sum(taps) / max(1, read):.2f} taps on average (target: at most 3 per sheet)",
              flush=True)


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}%" if b else "    -"


def report_families(photos: dict, flats: dict) -> None:
    print(f"{'family':20s} {'regions right':>22s} {'exact photos':>13s} {'exact flats':>12s} {'refused':>8s} "
          f"{'consistent (legal)':>19s} {'consistent over misread':>24s}")
    worst = None
    for name, f in photos.items():
        fl = flats.get(name)
        usable = f["sheets"] - len(f["refused"])
        flat_cell = f"{_pct(fl['whole'], fl['sheets'])} {fl['whole']}/{fl['sheets']}" if fl else "-"
        print(f"{name:20s} {_pct(f['right'], f['counted']):>8s} ({f['counted'] - f['right']:5d} wrong) "
              f"{_pct(f['whole'], f['sheets']):>7s} {f['whole']:2d}/{f['sheets']:<2d} "
              f"{flat_cell:>12s} "
              f"{len(f['refused']):>8d} {_pct(f['consistent'], f['legal']):>12s} {f['consistent']:2d}/{f['legal']:<2d} "
              f"{f['over_misread']:>12d} of {usable}", flush=True)
        key = (f["whole"] / max(1, f["sheets"]), f["right"] / max(1, f["counted"]))
        if worst is None or key < worst[0]:
            worst = (key, name)
    tot = {k: sum(f[k] for f in photos.values()) for k in ("right", "counted", "whole", "sheets", "consistent",
                                                             "legal", "over_misread", "unconfirmed", "held",
                                                             "caught")}
    refused = sum(len(f["refused"]) for f in photos.values())
    print(f"{'ALL photos':20s} {_pct(tot['right'], tot['counted']):>8s} ({tot['counted'] - tot['right']:5d} wrong) "
          f"{_pct(tot['whole'], tot['sheets']):>7s} {tot['whole']}/{tot['sheets']}; refused {refused}; consistent on "
          f"legal {_pct(tot['consistent'], tot['legal'])} ({tot['consistent']}/{tot['legal']}); consistent over a "
          f"misread {tot['over_misread']}")
    print(f"{'':20s} legal sheets told \"consistent if the uncertain regions read right\": "
          f"{tot['unconfirmed']}; misread sheets whose rules held as read: {tot['held']}, of them told "
          f"\"consistent\" {tot['over_misread']}, \"unconfirmed\" {tot['caught']}")
    if flats:
        fw, fs = sum(f["whole"] for f in flats.values()), sum(f["sheets"] for f in flats.values())
        fr, fc = sum(f["right"] for f in flats.values()), sum(f["counted"] for f in flats.values())
        print(f"{'ALL flats':20s} {_pct(fr, fc):>8s} ({fc - fr:5d} wrong) {_pct(fw, fs):>7s} {fw}/{fs}")
    if worst:
        f = photos[worst[1]]
        print(f"WORST family: {worst[1]}: {_pct(f['whole'], f['sheets']).strip()} of its photos exact, "
              f"{_pct(f['right'], f['counted']).strip()} of its regions right", flush=True)
    for name, f in photos.items():
        fl = flats.get(name, {})
        kinds = (f["misreads"] + fl.get("misreads", collections.Counter())).most_common(3)
        notes = [f"{n} x {role}: {what}" for (role, what), n in kinds]
        notes += [f"refused {rid}: {why}" for rid, why in f["refused"][:2]]
        if SHEETS:
            notes += [f"not exact {rid}: " + "; ".join(m[:3]) for rid, m in f["inexact"] + fl.get("inexact", [])]
        if notes:
            print(f"    {name}: " + " | ".join(notes))


def run_illegal(recipes) -> dict:
    """--illegal: each photo of the families again with marks that break a rule added to its pencil (the
    game's GameScanner.illegal_marks, drawn by the family's hand, under its camera; the kinds taken in
    turn), read without a record.  Per family: flagged with the rule and the place named (the verdict "not
    consistent" and a violation of that rule naming it), flagged for something else only, told
    "unconfirmed", told "consistent" (the worst), refused."""
    import random
    from dataclasses import replace
    from sheetgen.errors import SheetgenError
    from sheetgen.testing.corpus import photo_of, played_cached
    from sheetgen.scan.pipeline import scan_photo
    out: dict = {}
    turn: collections.Counter = collections.Counter()
    for recipe in recipes:
        fam = out.setdefault(_family_of(recipe), {"sheets": 0, "named": 0, "other": 0, "unconfirmed": 0,
                                                  "consistent": 0, "refused": 0, "under print": 0, "missed": [],
                                                  "rules": collections.Counter(), "rules_named": collections.Counter()})
        try:
            p = played_cached(recipe.log, recipe.paper)
        except SheetgenError:
            continue
        marks = p.scanner.illegal_marks(p.sheet, p.expected, random.Random(recipe.pencil))
        if not marks:
            continue
        mark = marks[turn[_family_of(recipe)] % len(marks)]
        turn[_family_of(recipe)] += 1
        fam["sheets"] += 1
        fam["rules"][mark.rules[0]] += 1
        try:
            img, played = photo_of(replace(recipe, id=recipe.id + "-illegal", tamper=mark.marks))
            result = scan_photo(recipe.id + "-illegal", sheet_ref=played.ref, options=played.options, img=img)
        except SheetgenError:
            fam["refused"] += 1
            continue
        if mark.regions and all(rid in result.readings and result.readings[rid].unreadable for rid in mark.regions):
            fam["under print"] += 1         # on a printed icon too dark for any pencil to show: nothing to read
            continue
        named = any(getattr(v, "rule", None) in mark.rules and mark.place in v.message for v in result.violations)
        if result.verdict == "not consistent" and named:
            fam["named"] += 1
            fam["rules_named"][mark.rules[0]] += 1
            continue
        what = "other" if result.verdict == "not consistent" else result.verdict
        fam[what] += 1
        fam["missed"].append(f"{recipe.id} {mark.marks[0][0]} {mark.marks[0][1]}: {result.verdict}"
                             + (f" ({result.violations[0].message})" if result.violations else ""))
    return out


def report_illegal(illegal: dict) -> None:
    print("\nIllegal sheets (--illegal): each photo again with one mark that breaks a rule, read without a record")
    print(f"{'family':20s} {'flagged, fault named':>22s} {'flagged, other':>15s} {'unconfirmed':>12s} "
          f"{'consistent':>11s} {'refused':>8s} {'under print':>12s}")
    worst = None
    tot: collections.Counter = collections.Counter()
    rules: collections.Counter = collections.Counter()
    named_rules: collections.Counter = collections.Counter()
    for name, f in illegal.items():
        if not f["sheets"]:
            continue
        print(f"{name:20s} {_pct(f['named'], f['sheets']):>12s} {f['named']:3d}/{f['sheets']:<3d} {f['other']:>15d} "
              f"{f['unconfirmed']:>12d} {f['consistent']:>11d} {f['refused']:>8d} {f['under print']:>12d}", flush=True)
        for k in ("sheets", "named", "other", "unconfirmed", "consistent", "refused", "under print"):
            tot[k] += f[k]
        rules += f["rules"]
        named_rules += f["rules_named"]
        key = f["named"] / max(1, f["sheets"] - f["under print"] - f["refused"])
        if worst is None or key < worst[0]:
            worst = (key, name)
    print(f"{'ALL':20s} {_pct(tot['named'], tot['sheets']):>12s} {tot['named']:3d}/{tot['sheets']:<3d} "
          f"{tot['other']:>15d} {tot['unconfirmed']:>12d} {tot['consistent']:>11d} {tot['refused']:>8d} "
          f"{tot['under print']:>12d}")
    print("    by rule: " + ", ".join(f"{r} {named_rules[r]}/{n}" for r, n in sorted(rules.items())))
    if worst:
        f = illegal[worst[1]]
        print(f"WORST family (illegal): {worst[1]}: {f['named']} of {f['sheets']} flagged with the fault named")
    for name, f in illegal.items():
        if f["missed"]:
            print(f"    {name}: " + " | ".join(f["missed"][:4]))


def _stumps(rows) -> dict:
    """Per role the score from which a region reads marked that reads most of rows right."""
    by_role: dict = collections.defaultdict(list)
    for role, value, truth, _ in rows:
        by_role[role].append((value, truth))
    out = {}
    for role, pairs in by_role.items():
        pairs.sort()
        marked_above = sum(t for _, t in pairs)     # threshold below all: every region marked
        best, right = (pairs[0][0] - 1e-9), marked_above
        empties_below = 0
        marked_seen = 0
        for i, (value, truth) in enumerate(pairs):
            empties_below += not truth
            marked_seen += truth
            if i + 1 < len(pairs) and pairs[i + 1][0] == value:
                continue
            got = empties_below + (marked_above - marked_seen)
            if got > right:
                right, best = got, value + 1e-9
        out[role] = best
    return out


def hold_out(photos: dict, which: str) -> None:
    """Leave one family out: per-role thresholds tuned on the other families, read on the held-out one,
    against the shipped reader's readings there."""
    names = list(photos) if which == "all" else [which]
    print("leave one family out (a per-role threshold on the region measure, tuned on the others):")
    worst = None
    for name in names:
        train = [row for other, f in photos.items() if other != name for row in f["regions"]]
        test = photos[name]["regions"]
        if not test:
            continue
        cut = _stumps(train)
        tuned = sum((row[1] >= cut.get(row[0], 0.0)) == row[2] for row in test)
        shipped = sum(row[3] == row[2] for row in test)
        print(f"    held out {name:20s}: shipped reader {_pct(shipped, len(test))}, tuned on the others "
              f"{_pct(tuned, len(test))} of {len(test)} regions")
        if worst is None or tuned / len(test) < worst[0]:
            worst = (tuned / len(test), name)
    if worst:
        print(f"    WORST held-out family (tuned): {worst[1]} {100 * worst[0]:.2f}% of regions")


VERDICT_GRID = [(c, k) for c in (0.1, 0.2, 0.3, 0.4, 0.5) for k in (1, 2, 3, 5)]


def _verdict(photos_rows, cut: float, least: int) -> tuple[int, int, int]:
    """(misread sheets told "consistent", legal sheets told "consistent", legal sheets read) when a reading
    is "consistent" only with fewer than LEAST regions below confidence CUT (the shipped rule: 0.5, 1)."""
    over = told = legal = 0
    for holds, exact, is_legal, confidences in photos_rows:
        sure = sum(c < cut for c in confidences) < least
        over += holds and sure and not exact
        legal += is_legal
        told += is_legal and holds and sure
    return over, told, legal


def verdict_hold_out(photos: dict, which: str = "all") -> None:
    """The verdict's rule on each family held out: the shipped rule (a reading is "consistent" only when
    no region it could have seen is uncertain: confidence below 0.5, the reader's own cut, set on the first
    corpus: no family tuned it) against the rule tuned on the other families (the confidence cut and the
    number of such regions let through that tell the most legal sheets "consistent" with no misread one
    told so there)."""
    from sheetgen.scan.contract import UNCERTAIN
    print("the verdict, leave one family out (shipped: no region below confidence "
          f"{UNCERTAIN}; tuned: the cut and count best on the others):")
    totals = {"shipped": [0, 0, 0], "tuned": [0, 0, 0]}
    worst = None
    for name, f in photos.items():
        if which not in ("all", name):
            continue
        train = [row for other, g in photos.items() if other != name for row in g["photos"]]
        scored = [(_verdict(train, c, k), c, k) for c, k in VERDICT_GRID]
        (_, _, _), c, k = min(scored, key=lambda s: (s[0][0], -s[0][1]))
        shipped, tuned = _verdict(f["photos"], UNCERTAIN, 1), _verdict(f["photos"], c, k)
        for key, got in (("shipped", shipped), ("tuned", tuned)):
            totals[key] = [a + b for a, b in zip(totals[key], got)]
        print(f"    held out {name:20s}: shipped: {shipped[0]} misread told consistent, legal told consistent "
              f"{shipped[1]}/{shipped[2]}; tuned on the others (cut {c}, fewer than {k}): {tuned[0]}, "
              f"{tuned[1]}/{tuned[2]}")
        key = (-shipped[0], shipped[1] / max(1, shipped[2]))
        if worst is None or key < worst[0]:
            worst = (key, name)
    for key, (over, told, legal) in totals.items():
        print(f"    {key}: {over} misread sheets told \"consistent\"; legal sheets told \"consistent\" "
              f"{_pct(told, legal).strip()} ({told}/{legal})")
    if worst:
        print(f"    WORST held-out family for the verdict (shipped): {worst[1]}")


def _told(photos_rows: list, unsure_of) -> tuple[int, int, int, int, int, int]:
    """(photos, exact, legal, legal told "consistent", misread told "consistent", unconfirmed) of photos'
    feature rows (photo_features) when unsure_of(row) gives each region's unsure flag (a region refine
    changed is unsure whatever: it keeps its doubt)."""
    n = exact = legal = told = over = unconfirmed = 0
    for p in photos_rows:
        unsure = bool((unsure_of(p) | p["refined"]).any())
        consistent = p["holds"] and not unsure
        n += 1
        exact += p["exact"]
        legal += p["legal"]
        told += p["legal"] and consistent
        over += consistent and not p["exact"]
        unconfirmed += p["holds"] and unsure
    return n, exact, legal, told, over, unconfirmed


def confidence_hold_out(photos: dict, flats: dict | None = None, which: str = "all") -> list:
    """The calibrated confidence, leave one family out: per family, sheetgen.scan.confidence fitted on
    every other family's photos and flat renders (their region readings, by group and role), its verdict on
    the held-out family's photos (a region uncertain when its probability of a misread is above
    confidence.BOUND; one refine changed stays uncertain) beside the reader's margin rule (uncertain within
    half a margin of the threshold), and the misreads the model expected there against those made; then
    both rules over the families together at other cuts."""
    import numpy as np

    from sheetgen.scan import confidence as C
    keys = ("group", "marked", "distance", "seen", "wrong", "role")
    features = {name: list(f["features"]) + list((flats or {}).get(name, {}).get("features", []))
                for name, f in photos.items()}
    cuts = (0.05, 0.1, 0.2, 0.3, 0.5)
    trade = {c: [0, 0] for c in cuts}
    rows_out = []
    print(f"the calibrated confidence, leave one family out (calibrated: uncertain when P(misread) > {C.BOUND:g}; "
          "margin: within half a margin of the threshold, the shipped rule):")
    print(f"    {'held out':20s} {'photos':>6s} {'exact':>6s} {'regions right':>14s} | legal told consistent: "
          "margin, calibrated | misread told consistent: margin, calibrated | misreads expected / made")
    for name in features:
        if which not in ("all", name) or not photos[name]["features"]:
            continue
        parts = [p for other, ps in features.items() if other != name for p in ps]
        cat = {k: np.concatenate([p[k] for p in parts]) for k in keys}
        known = cat["wrong"] >= 0
        model = C.Model(C.fit(*(cat[k][known] for k in keys[:4]), cat["wrong"][known].astype(float),
                              cat["role"][known]))

        def p_wrong(p, m=model):
            return m.p_wrong(p["group"], p["marked"], p["distance"], p["seen"], list(p["role"]))
        test = photos[name]["features"]
        margin = _told(test, lambda p: p["distance"] < 0.5)
        held = _told(test, lambda p: p_wrong(p) > C.BOUND)
        for c in cuts:
            got = _told(test, lambda p, c=c: p_wrong(p) > c)
            trade[c] = [trade[c][0] + got[3], trade[c][1] + got[4]]
        truth = [p["wrong"] >= 0 for p in test]
        made = sum(int((p["wrong"][t] == 1).sum()) for p, t in zip(test, truth))
        counted = sum(int(t.sum()) for t in truth)
        expected = sum(float(p_wrong(p)[t].sum()) for p, t in zip(test, truth))
        n, exact, legal = margin[:3]
        rows_out.append((name, n, exact, counted - made, counted, legal, margin[3], held[3], margin[4], held[4],
                         expected, made))
        print(f"    {name:20s} {n:6d} {exact:6d} {_pct(counted - made, counted):>14s} | {'':23s}{margin[3]:2d} "
              f"{held[3]:10d} of {legal:<2d} | {'':25s}{margin[4]:2d} {held[4]:10d} | {expected:8.1f} / {made}",
              flush=True)
    if rows_out:
        tot = [sum(r[i] for r in rows_out) for i in range(1, 12)]
        print(f"    {'ALL':20s} {tot[0]:6d} {tot[1]:6d} {_pct(tot[2], tot[3]):>14s} | legal told consistent: margin "
              f"{_pct(tot[5], tot[4]).strip()} ({tot[5]}/{tot[4]}), calibrated {_pct(tot[6], tot[4]).strip()} "
              f"({tot[6]}/{tot[4]}) | misread told consistent: margin {tot[7]}, calibrated {tot[8]} | "
              f"misreads expected {tot[9]:.0f}, made {tot[10]}")
        print("    calibrated at other cuts (legal told consistent, misread told consistent): "
              + "; ".join(f"{c:g}: {t[0]}/{tot[4]}, {t[1]}" for c, t in trade.items()))
        for label, told_at, over_at in (("margin", 6, 8), ("calibrated", 7, 9)):
            worst = min(rows_out, key=lambda r: (r[told_at] / max(1, r[5]), -r[over_at]))
            most = max(rows_out, key=lambda r: r[over_at])
            print(f"    WORST held-out family, {label}: {worst[0]} ({worst[told_at]}/{worst[5]} legal told "
                  f"consistent); most misread told consistent: {most[0]} ({most[over_at]})")
        worst_exact = min(rows_out, key=lambda r: (r[2] / max(1, r[1]), r[3] / max(1, r[4])))
        print(f"    WORST family (whole sheets exact): {worst_exact[0]}: {_pct(worst_exact[2], worst_exact[1]).strip()}"
              f", {_pct(worst_exact[3], worst_exact[4]).strip()} of its regions right")
    return rows_out


def families_main(argv: list[str]) -> int:
    from sheetgen.testing.corpus import load_recipes
    from sheetgen.testing.families import kind_of
    recipes = load_recipes(FAMILY_RECIPES)
    if "--families-half" in argv:
        half = argv[argv.index("--families-half") + 1]
        recipes = [r for r in recipes if family_half(_family_of(r)) == half]
    if "--family" in argv:
        wanted = set(argv[argv.index("--family") + 1].split(","))
        recipes = [r for r in recipes if _family_of(r) in wanted]
    if "--per" in argv:
        per = _arg(argv, "--per", 6)
        seen: collections.Counter = collections.Counter()
        kept = []
        for r in recipes:
            seen[_family_of(r)] += 1
            if seen[_family_of(r)] <= per:
                kept.append(r)
        recipes = kept
    start = time.perf_counter()
    if "--illegal" in argv:
        report_illegal(run_illegal(recipes))
        print(f"(families bench {time.perf_counter() - start:.0f} s)")
        return 0
    photos = run_families(recipes)
    flats: dict = {}
    if "--no-flats" not in argv:
        from dataclasses import replace
        flat_recipes = [replace(r, id=r.id + "-flat", dpi=300, camera=None) for r in recipes
                        if kind_of(_family_of(r)) == "pencil"]
        flats = run_families(flat_recipes, flat=True)
    report_families(photos, flats)
    if "--hold-out" in argv:
        hold_out(photos, argv[argv.index("--hold-out") + 1])
        verdict_hold_out(photos, argv[argv.index("--hold-out") + 1])
        confidence_hold_out(photos, flats, argv[argv.index("--hold-out") + 1])
    print(f"(families bench {time.perf_counter() - start:.0f} s)")
    return 0


def _usage_error(argv: list[str]) -> str | None:
    """What is wrong with ARGV (an unknown option, a missing value), or None."""
    i = 0
    while i < len(argv):
        kind = OPTIONS.get(argv[i], "unknown")
        if kind == "unknown":
            return f"unknown option {argv[i]}"
        if kind is not None:
            if i + 1 >= len(argv):
                return f"{argv[i]} needs a value"
            if kind is int and not argv[i + 1].isdigit():
                return f"{argv[i]} needs a number, not {argv[i + 1]}"
            i += 1
        i += 1
    return None


def main(argv: list[str]) -> int:
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        return 0
    problem = _usage_error(argv)
    if problem:
        print(f"bench_scan: {problem}\n{__doc__.split('Usage: ')[1]}", file=sys.stderr)
        return 2
    import cv2

    from sheetgen.testing.corpus import Recipe, load_recipes, pdftoppm_available
    if not pdftoppm_available():
        print("bench_scan: pdftoppm (poppler-utils) is needed to rasterise the corpus", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    if "--faint" in argv:
        from sheetgen.scan import read
        read.FAINT_LINES = read.FAINT_DOTS = read.WALL_INK = True
    if "--no-faint" in argv:
        from sheetgen.scan import read
        read.FAINT_LINES = read.FAINT_DOTS = read.WALL_INK = False
    if "--no-fill-ink" in argv:
        from sheetgen.scan import read
        read.FILL_INK = False
    if "--memory" in argv:
        n = _arg(argv, "--memory", 250)
        jobs = ("--jobs", str(_arg(argv, "--jobs", 1))) if "--jobs" in argv else ()
        figures = peak_memory(load_recipes(RECIPES), [n, 2 * n], jobs=jobs)
        for count, mb, seconds in figures:
            print(f"memory: `sheetgen scan{' ' + ' '.join(jobs) if jobs else ''}` over {count} photos (2 MP): peak "
                  f"{mb:.0f} MB, the largest of the command and its workers ({seconds:.0f} s)", flush=True)
        (n1, mb1, _), (n2, mb2, _) = figures
        print(f"memory: {(mb2 - mb1) / (n2 - n1) * 1024:.0f} KB more a photo from {n1} to {n2} photos "
              f"(flat: about 0)", flush=True)
        return 0
    global SHEETS
    SHEETS = "--sheets" in argv
    if "--identity" in argv:
        families = "--families" in argv
        pool = load_recipes(FAMILY_RECIPES if families else RECIPES)
        if not families:
            pool = [r for r in pool if r.camera is not None and r.camera.megapixels == 2]
        identity_rate(pool, "family corpus" if families else "corpus")
        return 0
    if "--speed" in argv:
        whole_process_sheets(load_recipes(RECIPES), jobs=("--jobs", str(_arg(argv, "--jobs", 1))) if "--jobs" in argv else ())
        return 0
    if "--taps" in argv:
        # a sample spread over the corpus (every k-th recipe), so every kind of photo has its say
        pool = load_recipes(FAMILY_RECIPES if "--families" in argv else RECIPES)
        n = max(1, _arg(argv, "--taps", 20))
        review_taps(pool[::max(1, len(pool) // n)][:n])
        return 0
    if "--families" in argv:
        return families_main(argv)
    recipes = load_recipes(RECIPES)
    if "--match" in argv:
        text = argv[argv.index("--match") + 1]
        keep = not text.startswith("!")
        recipes = [r for r in recipes if (text.lstrip("!") in r.log) == keep]
    if "--ids" in argv:
        wanted = set(argv[argv.index("--ids") + 1].split(","))
        unknown = wanted - {r.id for r in recipes}
        if unknown:
            print(f"bench_scan: no recipe {', '.join(sorted(unknown))} in {RECIPES.name}", file=sys.stderr)
            return 2
        recipes = [r for r in recipes if r.id in wanted]
    n = _arg(argv, "--photos", len(recipes))
    recipes = recipes[:n]
    start = time.perf_counter()
    photos = run(recipes, "photos")
    report(photos, "synthetic photos", TARGETS["regions"], TARGETS["sheets"])
    # flat 300 dpi renders: one per log of the corpus
    seen, flats = set(), []
    for r in recipes:
        if r.log not in seen:
            seen.add(r.log)
            flats.append(Recipe(r.id + "-flat", r.log, r.paper, r.pencil, 300, None))
    flats = flats[:_arg(argv, "--flats", len(flats))]
    flat = run(flats, "flat", flat=True)
    report(flat, "flat 300 dpi renders", TARGETS["flat"], TARGETS["flat"])
    for mp in ("2 MP", "12 MP", "flat"):
        times = (photos if mp != "flat" else flat)["times"].get(mp, [])
        if times:
            med = statistics.median(times)
            print(f"speed, {mp}: {60.0 / med:.0f} sheets a minute on one core (median {med * 1000:.0f} ms of "
                  f"{len(times)} scans, photo decoded, sheet made ready once{'; target >= 300' if mp == '2 MP' else ''})",
                  flush=True)
    for mp in ("2 MP", "12 MP", "flat"):
        times = (photos if mp != "flat" else flat)["finding"].get(mp, [])
        if times:
            print(f"    of which the page found, {mp}: median {statistics.median(times) * 1000:.0f} ms (markers, "
                  f"quality, QR code, rectify; 90th percentile {sorted(times)[int(0.9 * (len(times) - 1))] * 1000:.0f} ms)",
                  flush=True)
    if photos["first"]:
        first = sorted(photos["first"].values())
        print(f"    a sheet's first photo (the sheet made ready: template, print, regions): median "
              f"{statistics.median(first):.2f} s over {len(first)} sheets (slowest {first[-1]:.2f} s); "
              "once a sheet in a run", flush=True)
    plain = plain_baseline(recipes)
    ours = ours_from_jpeg(recipes)
    print(f"speed against the plain baseline (cv2 decode + one warp of the page), 2 MP JPEG: "
          f"{ours / plain:.1f}x ({ours * 1000:.0f} ms vs {plain * 1000:.0f} ms a photo; "
          f"{60.0 / ours:.0f} vs {60.0 / plain:.0f} sheets a minute)", flush=True)
    n = _arg(argv, "--process", 20)
    if n:
        seconds, count = whole_process(load_recipes(RECIPES), n)
        print(f"whole process: `sheetgen scan` over {count} photos in one run: {seconds:.1f} s, "
              f"{60.0 * count / seconds:.0f} sheets a minute (start-up and the sheet's template included; "
              f"OMRChecker: about 200)", flush=True)
        whole_process_sheets(load_recipes(RECIPES), n)
    print("OMRChecker (its README): about 100 % on good scans, about 90 % on phone photos, about 200 sheets "
          "a minute", flush=True)
    print(f"(corpus made in {photos['making'] + flat['making']:.0f} s; whole bench {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
