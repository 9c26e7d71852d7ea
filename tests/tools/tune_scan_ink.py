"""Choose the per-photo ink calibration's constants (sheetgen.scan.read: INK_REFERENCE, INK_LEAST) on the
tuning half of the family corpus (bench/bench_scan.py family_half) and our own corpus, never on the
held-out half.

Per photo: its ink (sheetgen.scan.read.ink_of, the darkness of its strongest strokes) and, read at each
forced scale (every photo's darkness divided by it), the regions misread either way.

- INK_REFERENCE, the lightest our own pencils come: the 10th percentile of the tuning photos' ink (a hand
  lighter than nine photos in ten of ours is read in units of its own ink);
- INK_LEAST, how far the decision may move toward the paper: the least forced scale at which the tuning
  photos' empty regions read marked no more than 1.5 times as often as at scale 1 (below it, the paper's
  noise and a rubber's residue start to count as pencil).

Usage: python tests/tools/tune_scan_ink.py [--per N] [--recipes N]   (photos a tuning family, of recipes.yaml)
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SCALES = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4)
EMPTY_RISE = 1.5            # the most the empty regions read marked may rise over scale 1


def main(argv: list[str]) -> int:
    import cv2
    import numpy as np

    from bench_scan import FAMILY_RECIPES, RECIPES, _family_of, family_half, score
    from sheetgen.errors import SheetgenError
    from sheetgen.scan import read
    from sheetgen.scan.pipeline import scan_photo
    from sheetgen.testing.corpus import load_recipes, photo_of
    cv2.setNumThreads(1)
    per = int(argv[argv.index("--per") + 1]) if "--per" in argv else 3
    n_own = int(argv[argv.index("--recipes") + 1]) if "--recipes" in argv else 30
    seen: dict = {}
    recipes = []
    for r in load_recipes(FAMILY_RECIPES):
        fam = _family_of(r)
        if family_half(fam) == "tune" and seen.get(fam, 0) < per:
            seen[fam] = seen.get(fam, 0) + 1
            recipes.append(r)
    own = load_recipes(RECIPES)
    recipes += own[::max(1, len(own) // n_own)][:n_own]
    inks = []
    # per scale: (empty regions read marked, empty regions, marked read empty, marked regions, photos exact-ish)
    errors = {s: [0, 0, 0, 0] for s in SCALES}
    pages: list = []
    init = read.Page.__init__

    def recorded(self, *a, **k):
        init(self, *a, **k)
        pages.append(self)
    read.Page.__init__ = recorded
    try:
        for recipe in recipes:
            try:
                img, played = photo_of(recipe)
            except SheetgenError:
                continue
            for scale in SCALES:
                read.INK_FORCED = scale
                pages.clear()
                try:
                    result = scan_photo(recipe.id, sheet_ref=played.ref, options=played.options, img=img)
                except SheetgenError:
                    break
                if scale == 1.0:
                    inks.append(pages[0].ink)
                _, _, misreads, _ = score(result, played)
                marked = sum(1 for rid, t in played.truth.items() if t != "empty" and rid in result.readings
                             and not result.readings[rid].hidden)
                empty = sum(1 for rid, t in played.truth.items() if t == "empty" and rid in result.readings
                            and not result.readings[rid].hidden)
                e = errors[scale]
                e[0] += sum(1 for m in misreads if m[1].startswith("read marked"))
                e[1] += empty
                e[2] += sum(1 for m in misreads if m[1].startswith("read empty"))
                e[3] += marked
            print(f"{recipe.id}: ink {inks[-1] if inks else None}", flush=True)
    finally:
        read.INK_FORCED = None
        read.Page.__init__ = init
    known = np.array([i for i in inks if i is not None])
    print(f"\n{len(recipes)} tuning photos, {len(known)} with ink to judge by: ink percentiles 5/10/50/90: "
          + " ".join(f"{np.percentile(known, q):.3f}" for q in (5, 10, 50, 90)))
    print(f"INK_REFERENCE (10th percentile): {np.percentile(known, 10):.3f}")
    base = errors[1.0][0] / max(1, errors[1.0][1])
    least, within = 1.0, True
    for s in SCALES:                # from 1 down: the last of the scales within the rise, none skipped
        fp, ne, fn, nm = errors[s]
        rate = fp / max(1, ne)
        print(f"scale {s:.1f}: empty read marked {fp} of {ne} ({100 * rate:.3f} %), marked read empty {fn} of {nm}")
        within = within and rate <= EMPTY_RISE * base
        if within:
            least = s
    print(f"INK_LEAST (least scale with empty regions read marked at most {EMPTY_RISE} times scale 1's): {least}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
