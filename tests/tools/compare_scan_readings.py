"""Every region's reading over recipes of the scan corpus, dumped to JSON: run it before and after a
change that must not change what the scanner reads (a faster sheet preparation, a cache) and diff.

    python tests/tools/compare_scan_readings.py OUT.json [--photos N] [--families N] [--flats N]
                                                [--ids A,B] [--images DIR]
    python tests/tools/compare_scan_readings.py --diff BEFORE.json AFTER.json

The recipes: N photos spread evenly over tests/data/scan/recipes.yaml (every k-th), N spread over
tests/data/scan/families.yaml (so every family has its say), and the 300 dpi flat renders of the
logs of the first N chosen photos (as bench/bench_scan.py makes them).  Each image is scanned as the
bench scans it (scan_photo on the decoded image, --sheet and the game options given), in the
recipes' order, so sheets met again are read with what the run kept of them.  Per recipe: every
region's (id, value, confidence, score), confidence and score rounded to 1e-9, or the error.
--images DIR keeps the made images (lossless PNG) to be read again by the next run: making them
(pencil, pdftoppm, camera) costs far more than reading them.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
RECIPES = ROOT / "tests" / "data" / "scan" / "recipes.yaml"
FAMILIES = ROOT / "tests" / "data" / "scan" / "families.yaml"


def _arg(argv: list[str], name: str, default):
    return type(default)(argv[argv.index(name) + 1]) if name in argv else default


def _spread(items: list, n: int) -> list:
    """N items spread evenly over ITEMS (every k-th), in their order."""
    if n <= 0 or not items:
        return []
    if n >= len(items):
        return list(items)
    return [items[int(i * len(items) / n)] for i in range(n)]


def chosen_recipes(photos: int, families: int, flats: int, ids: set[str] | None = None) -> list:
    from sheetgen.testing.corpus import load_recipes
    corpus = load_recipes(RECIPES)
    family = load_recipes(FAMILIES)
    if ids:
        pool = [r for r in corpus + family if r.id in ids]
        picked = [r for r in pool if r.camera is not None]
    else:
        picked = _spread(corpus, photos) + _spread(family, families)
    seen: set = set()
    flat = []
    for r in picked:
        if r.log not in seen and len(flat) < flats:
            seen.add(r.log)
            flat.append(replace(r, id=r.id + "-flat", dpi=300, camera=None))
    return picked + flat


def image_of(recipe, images: Path | None):
    """(BGR image, Played) of a recipe, from IMAGES when an earlier run kept it there."""
    import cv2

    from sheetgen.testing.corpus import photo_of, played_cached
    path = images / f"{recipe.id}.png" if images else None
    if path is not None and path.exists():
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        return img, played_cached(recipe.log, recipe.paper)
    img, played = photo_of(recipe)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), img)
    return img, played


def readings(recipes: list, images: Path | None) -> dict:
    from sheetgen.errors import SheetgenError
    from sheetgen.scan.pipeline import scan_photo
    out: dict = {}
    for recipe in recipes:
        img, played = image_of(recipe, images)
        try:
            result = scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img)
        except SheetgenError as exc:
            out[recipe.id] = {"error": [p.format() for p in exc.problems]}
            continue
        out[recipe.id] = {"regions": [[r.region.id, r.value, round(float(r.confidence), 9), round(float(r.score), 9)]
                                      for r in sorted(result.readings.values(), key=lambda r: r.region.id)]}
    return out


def diff(before_path: str, after_path: str) -> int:
    before = json.loads(Path(before_path).read_text(encoding="utf-8"))
    after = json.loads(Path(after_path).read_text(encoding="utf-8"))
    changed = 0
    for rid in sorted(set(before) | set(after)):
        a, b = before.get(rid), after.get(rid)
        if a == b:
            continue
        changed += 1
        if a is None or b is None:
            print(f"{rid}: only in {'after' if a is None else 'before'}")
            continue
        if "error" in a or "error" in b:
            print(f"{rid}: {a.get('error', 'read')} -> {b.get('error', 'read')}")
            continue
        ra, rb = {r[0]: r for r in a["regions"]}, {r[0]: r for r in b["regions"]}
        lines = [f"    {i}: {ra.get(i)} -> {rb.get(i)}" for i in sorted(set(ra) | set(rb)) if ra.get(i) != rb.get(i)]
        print(f"{rid}: {len(lines)} regions differ")
        print("\n".join(lines[:10]) + (f"\n    (+{len(lines) - 10})" if len(lines) > 10 else ""))
    regions = sum(len(v.get("regions", ())) for v in before.values())
    print(f"{len(before)} recipes ({regions} regions) before, {len(after)} after: {changed} differ")
    return 1 if changed else 0


def main(argv: list[str]) -> int:
    if not argv or "-h" in argv or "--help" in argv:
        print(__doc__)
        return 0 if argv else 2
    if argv[0] == "--diff":
        return diff(argv[1], argv[2])
    import cv2

    from sheetgen.testing.corpus import pdftoppm_available
    if not pdftoppm_available():
        print("compare_scan_readings: pdftoppm (poppler-utils) is needed to rasterise the corpus", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    ids = set(_arg(argv, "--ids", "").split(",")) - {""} or None
    recipes = chosen_recipes(_arg(argv, "--photos", 24), _arg(argv, "--families", 16), _arg(argv, "--flats", 8), ids)
    images = Path(_arg(argv, "--images", "")) if "--images" in argv else None
    t = time.perf_counter()
    out = readings(recipes, images)
    Path(argv[0]).write_text(json.dumps(out, indent=0, sort_keys=True), encoding="utf-8")
    errors = sum("error" in v for v in out.values())
    print(f"{len(out)} recipes ({errors} not read) in {time.perf_counter() - t:.0f} s: {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
