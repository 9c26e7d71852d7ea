"""The photo corpus's families: domain randomisation with a name on each part of it.

A family changes one thing about how a sheet is penciled (a pencil family: the ink, the
mark a visited room or a box gets, how walls are drawn, how well marks are rubbed out)
or how it is photographed (a camera family: steep tilt, a quarter turn, motion or focus
blur, low light, glare, a deep shadow, 1 or 12 MP, heavy JPEG, Letter paper) and leaves
the rest as random as the first corpus has it.  A reader tuned on some families and
measured on one it never saw (bench/bench_scan.py --families --hold-out) is measured
honestly: nothing about that family was fitted.

`family_recipes(logs, per_family, seed)` makes the recipes (tests/tools/make_scan_families.py
writes tests/data/scan/families.yaml with them).
"""
from __future__ import annotations

import random
from dataclasses import replace

from .graphite import Hand
from .photo import Camera

# pencil families: the hand each draws with
PENCIL = {
    "baseline": Hand(),
    "graphite-light": Hand(ink="graphite-light"),
    "graphite-heavy": Hand(ink="graphite-heavy"),
    "ballpoint-blue": Hand(ink="ballpoint-blue"),
    "ballpoint-black": Hand(ink="ballpoint-black"),
    "felt-tip": Hand(ink="felt-tip"),
    "crayon-floods": Hand(flood="crayon"),
    "visited-circles": Hand(dot="circle"),
    "visited-ticks": Hand(dot="tick"),
    "visited-slashes": Hand(dot="slash"),
    "visited-crosses": Hand(dot="cross"),
    "visited-scribbles": Hand(dot="scribble"),
    "box-ticks": Hand(box="tick"),
    "box-slashes": Hand(box="slash"),
    "walls-overshoot": Hand(wall="overshoot"),
    "walls-short": Hand(wall="short"),
    "walls-off-edge": Hand(wall="off-edge"),
    "walls-twice": Hand(wall="twice"),
    "erased-clean": Hand(erase="little"),
    "erased-smudged": Hand(erase="much"),
}


def _tilt(rng, cam):
    return replace(cam, tilt=round(rng.uniform(28, 35), 2))


def _quarter(rng, cam):
    return replace(cam, rotation=float(rng.choice((90, 180, 270))) + round(rng.uniform(-1.5, 1.5), 2),
                   tilt=round(rng.uniform(0, 10), 2))


def _motion(rng, cam):
    return replace(cam, motion=round(rng.uniform(2.0, 14.0), 1), motion_angle=round(rng.uniform(0, 180), 1),
                   blur=round(rng.uniform(0, 0.5), 3))


def _focus(rng, cam):
    return replace(cam, blur=round(rng.uniform(1.5, 3.0), 3))


def _low_light(rng, cam):
    return replace(cam, exposure=round(rng.uniform(0.3, 0.5), 3), noise=round(rng.uniform(6, 12), 2),
                   jpeg=rng.randint(60, 85))


def _glare(rng, cam):
    return replace(cam, glare=round(rng.uniform(0.35, 0.8), 3),
                   glare_at=(round(rng.uniform(0.25, 0.75), 3), round(rng.uniform(0.25, 0.75), 3)),
                   glare_size=round(rng.uniform(0.08, 0.2), 3))


def _shadow(rng, cam):
    return replace(cam, shadow=round(rng.uniform(0.4, 0.6), 3), light=round(rng.uniform(0.25, 0.45), 3))


def _jpeg(rng, cam):
    return replace(cam, jpeg=rng.randint(40, 50))


# camera families: how each changes a random camera (and its paper, megapixels)
CAMERA = {
    "tilt-35": (_tilt, None, None),
    "quarter-turns": (_quarter, None, None),
    "motion-blur": (_motion, None, None),
    "focus-blur": (_focus, None, None),
    "low-light": (_low_light, None, None),
    "glare": (_glare, None, None),
    "deep-shadow": (_shadow, None, None),
    "one-mp": (None, 1, None),
    "twelve-mp": (None, 12, None),
    "jpeg-40": (_jpeg, None, None),
    "letter": (None, None, "letter"),
}

FAMILIES = list(PENCIL) + list(CAMERA)


def kind_of(family: str) -> str:
    return "pencil" if family in PENCIL else "camera"


def family_recipes(logs: list[str], per_family: int, seed: int, flood_logs: list[str] | None = None) -> list:
    """per_family recipes of every family over logs (each family its own draw of them; the
    crayon family over flood_logs, the logs whose map floods)."""
    from .corpus import Recipe
    out = []
    for name in FAMILIES:
        rng = random.Random(f"{seed}-{name}")
        pool = flood_logs if name == "crayon-floods" and flood_logs else logs
        chosen = rng.sample(pool, min(per_family, len(pool)))
        while len(chosen) < per_family:
            chosen.append(rng.choice(pool))
        for i, log in enumerate(chosen):
            change, mp, paper = CAMERA.get(name, (None, None, None))
            mp = mp or 2
            cam = Camera.random(rng, mp)
            if change is not None:
                cam = change(rng, cam)
            paper = paper or "a4"
            hand = PENCIL.get(name, Hand())
            out.append(Recipe(f"{name}-{i + 1:02d}", log, paper, rng.randint(0, 10 ** 6), 300 if mp >= 8 else 150,
                              cam, hand=hand, family=name))
    return out
