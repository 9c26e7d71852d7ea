"""What the tests and the benches make, shipped so that a user can reproduce a figure: never
imported by a command.

    graphite.py   a hand's pencil: the clean marks of a play log drawn as graphite, ballpoint,
                  felt tip or crayon (pressure, wobble, overshoot, erasures)
    photo.py      the seeded camera: tilt, rotation, lens, light, shadow, blur, noise, JPEG
    corpus.py     a recipe (log, sheet, hand, camera) -> the penciled raster and its photo
    families.py   the family corpus: one way of marking or one camera trouble per family, for
                  leave-one-family-out figures (bench/bench_scan.py --families)

It needs the scan extra (numpy, OpenCV) like the scanner it feeds.
"""
from __future__ import annotations
