"""Dump every region's reading over a spread of the scan corpus, to show a refactor reads the same.

Usage:
    python tests/tools/compare_scan_readings.py OUT.json [--count N] [--jobs J]
    python tests/tools/compare_scan_readings.py --diff A.json B.json

Takes about N recipes spread over tests/data/scan/recipes.yaml and tests/data/scan/families.yaml
(every k-th recipe of the first, a round-robin over the families of the second: every game, sheet,
paper and family has its turn), and, for the pencil families and the plain corpus, the flat 300 dpi
render of the same log, made as bench/bench_scan.py makes them (sheetgen.testing.corpus).  Each
image is scanned as `sheetgen scan` does (sheetgen.scan.pipeline.scan_photo) and every region's
(id, value, confidence, score) after the game's refinement is written, the two numbers rounded to
1e-9, with the verdict.  Run it on the code before a change and after it: `--diff` prints every
region that reads otherwise (nothing: the change reads the same) and exits 1 if any does.
"""
from __future__ import annotations

import collections
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "tests" / "data" / "scan" / "recipes.yaml"
FAMILIES = ROOT / "tests" / "data" / "scan" / "families.yaml"


def chosen(count: int) -> list:
    """About COUNT recipes: half photos of the plain corpus, half of the families, with flats."""
    from sheetgen.testing.corpus import load_recipes
    from sheetgen.testing.families import kind_of
    plain = load_recipes(RECIPES)
    photos_each = max(1, count // 4)      # a quarter plain photos, a quarter family photos, flats of both
    step = max(1, len(plain) // photos_each)
    picks = plain[::step][:photos_each]
    by_family: dict = collections.defaultdict(list)
    for r in load_recipes(FAMILIES):
        by_family[r.family or "baseline"].append(r)
    families = []
    i = 0
    while len(families) < photos_each and any(i < len(v) for v in by_family.values()):
        families += [v[i] for v in by_family.values() if i < len(v)]
        i += 1
    families = families[:photos_each]
    out = []
    for r in picks:
        out += [r, replace(r, id=r.id + "-flat", dpi=300, camera=None)]
    for r in families:
        out.append(r)
        if kind_of(r.family or "baseline") == "pencil":
            out.append(replace(r, id=r.id + "-flat", dpi=300, camera=None))
    return out


def readings_of(recipe) -> dict:
    """{region id: [value, confidence, score]} of one recipe's image, or its refusal."""
    from sheetgen.errors import SheetgenError
    from sheetgen.scan.pipeline import scan_photo
    from sheetgen.testing.corpus import photo_of
    try:
        img, played = photo_of(recipe)
    except SheetgenError as exc:
        return {"not made": exc.problems[0].message}
    try:
        result = scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img)
    except SheetgenError as exc:
        return {"refused": exc.problems[0].message}
    return {"verdict": result.verdict,
            "regions": {rid: [r.value, round(r.confidence, 9), round(r.score, 9)]
                        for rid, r in sorted(result.readings.items())}}


def _one(recipe) -> tuple[str, dict]:
    import cv2
    cv2.setNumThreads(1)
    return recipe.id + "@" + (recipe.family or "corpus"), readings_of(recipe)


def dump(out: Path, count: int, jobs: int) -> int:
    recipes = chosen(count)
    start, cpu = time.perf_counter(), time.process_time()
    if jobs > 1:
        from multiprocessing import Pool
        with Pool(jobs) as pool:
            rows = pool.map(_one, recipes, chunksize=1)
    else:
        rows = [_one(r) for r in recipes]
    out.write_text(json.dumps(dict(rows), indent=0, sort_keys=True) + "\n")
    regions = sum(len(v.get("regions", {})) for _, v in rows)
    print(f"{len(rows)} images, {regions} regions -> {out} ({time.perf_counter() - start:.0f} s wall, "
          f"{time.process_time() - cpu:.0f} s CPU in this process)")
    return 0


def diff(a: Path, b: Path) -> int:
    left, right = json.loads(a.read_text()), json.loads(b.read_text())
    changed = 0
    for image in sorted(set(left) | set(right)):
        x, y = left.get(image), right.get(image)
        if x is None or y is None:
            print(f"{image}: only in {a if y is None else b}")
            changed += 1
            continue
        if x.get("verdict") != y.get("verdict"):
            print(f"{image}: verdict {x.get('verdict')} -> {y.get('verdict')}")
            changed += 1
        rx, ry = x.get("regions", x), y.get("regions", y)
        for rid in sorted(set(rx) | set(ry)):
            if rx.get(rid) != ry.get(rid):
                print(f"{image}: {rid}: {rx.get(rid)} -> {ry.get(rid)}")
                changed += 1
    print(f"{len(left)} and {len(right)} images: {changed} differences")
    return 1 if changed else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    if argv[0] == "--diff":
        return diff(Path(argv[1]), Path(argv[2]))
    count = int(argv[argv.index("--count") + 1]) if "--count" in argv else 40
    jobs = int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else 1
    return dump(Path(argv[0]), count, jobs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
