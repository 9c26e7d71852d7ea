"""Fit the scanner's calibrated confidence (sheetgen.scan.confidence) and write its weights (JSON).

    python tests/tools/train_scan_confidence.py [--per N] [--seed S] [--cache FILE] [--refit] [--out FILE]
    python tests/tools/train_scan_confidence.py --recipes FILE --cache OUT [--no-flats | --flats-only]

The training corpus is a draw of the family corpus of its own (sheetgen.testing.families: every pencil
and camera family, PER photos each, seed SEED: not the recipes of tests/data/scan/families.yaml, on
which bench/bench_scan.py --families --hold-out all measures it), photographed and, for the pencil
families, rendered flat at 300 dpi.  Every region whose truth the log gives is a row: how it was
measured (its group) and its role, what it read, its distance from its threshold in margins, how much
of it was seen, and whether the reading was wrong.  Per cell (group or role, what it read) a logistic
regression of "wrong" on those features (numpy, Newton's method, a small ridge) is the model.

--out FILE: the weights (default /tmp/sheetgen-scan-confidence.json).  The reader does not use them
(docs/scanning.md: leaving each family out, they tell no more legal sheets "consistent" than its margin
rule without telling more misread ones so); they are the yardstick a better feature has to move.
--recipes FILE --cache OUT: only collect the rows of another corpus (e.g. tests/data/scan/families.yaml)
into OUT, fitting nothing (--no-flats: its photos only; --flats-only: its pencil families' flat renders).
--cache FILE keeps the rows (a pickle; default /tmp/sheetgen-scan-confidence-SEED-PER.pickle) and
--refit fits again from it without photographing anything.  Needs the scan extra and pdftoppm; takes
some ten minutes on one quiet core for the default 6 photos a family.
"""
from __future__ import annotations

import pickle
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "tools"))
sys.path.insert(0, str(ROOT / "bench"))
OUT = Path("/tmp/sheetgen-scan-confidence.json")
SEED = 2727                 # not make_scan_families.py's 27: the measured corpus stays unseen


def training_recipes(per: int, seed: int) -> list:
    from make_scan_corpus import logs

    from sheetgen.testing.families import family_recipes
    paths = [str(p.resolve()) for p in logs()]
    floods = [p for p in paths if "kraken" in p]
    return family_recipes(paths, per, seed, floods)


def collect(recipes: list) -> dict:
    """family -> the photos' and flats' feature rows (bench_scan.photo_features)."""
    import bench_scan

    from sheetgen.testing.families import kind_of
    photos = {} if "--flats-only" in sys.argv else bench_scan.run_families(recipes)
    flat_recipes = [replace(r, id=r.id + "-flat", dpi=300, camera=None) for r in recipes
                    if kind_of(bench_scan._family_of(r)) == "pencil"]
    flats = {} if "--no-flats" in sys.argv else bench_scan.run_families(flat_recipes, flat=True)
    out: dict = {}
    for flat, source in ((False, photos), (True, flats)):
        for name, fam in source.items():
            out.setdefault(name, []).extend(dict(f, flat=flat) for f in fam["features"])
    return out


KEYS = ("group", "marked", "distance", "seen", "wrong", "role")


def rows(features: dict, leave_out: str | None = None):
    """The region rows of every family but leave_out, with a truth: (group, marked, distance, seen, wrong,
    role)."""
    import numpy as np
    parts = [p for name, photos in features.items() if name != leave_out for p in photos]
    cat = {k: np.concatenate([p[k] for p in parts]) for k in KEYS}
    known = cat["wrong"] >= 0
    return tuple(cat[k][known] for k in KEYS)


def fitted(features: dict, leave_out: str | None = None) -> dict:
    from sheetgen.scan.confidence import fit
    group, marked, distance, seen, wrong, role = rows(features, leave_out)
    return fit(group, marked, distance, seen, wrong.astype(float), role)


def write(model: dict, note: str, out: Path) -> None:
    import json
    out.write_text(json.dumps({"note": note, **model}, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    per = int(argv[argv.index("--per") + 1]) if "--per" in argv else 6
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else SEED
    cache = Path(argv[argv.index("--cache") + 1]) if "--cache" in argv else \
        Path(f"/tmp/sheetgen-scan-confidence-{seed}-{per}.pickle")
    if "--refit" in argv:
        features = pickle.loads(cache.read_bytes())
    else:
        import cv2
        cv2.setNumThreads(1)
        start = time.perf_counter()
        if "--recipes" in argv:         # another corpus's rows, kept for a look (nothing fitted)
            from sheetgen.testing.corpus import load_recipes
            features = collect(load_recipes(argv[argv.index("--recipes") + 1]))
        else:
            features = collect(training_recipes(per, seed))
        cache.write_bytes(pickle.dumps(features))
        print(f"collected {sum(len(p) for p in features.values())} images in {time.perf_counter() - start:.0f} s "
              f"-> {cache}")
        if "--recipes" in argv:
            return 0
    wrong = rows(features)[4]
    model = fitted(features)
    images = sum(len(p) for p in features.values())
    out = Path(argv[argv.index("--out") + 1]) if "--out" in argv else OUT
    write(model, f"{len(wrong)} regions ({int(wrong.sum())} read wrong) of {images} photos and flat renders, "
          f"{per} a family, seed {seed}", out)
    print(f"wrote {out}: {len(model['cells'])} cells and {len(model['roles'])} roles from {len(wrong)} regions, "
          f"{int(wrong.sum())} misread")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
