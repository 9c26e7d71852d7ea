"""Make the user-cache entries sheetgen ships for its built-ins (sheetgen/prebuilt/): the
snapshots of the built-in layouts, decks and packs validated, and the boards of the built-in
Foury maps and the built-in heroes' numbers, what a first run would otherwise build (see sheetgen/usercache.py).

    python tests/tools/make_prebuilt.py           # rewrite sheetgen/prebuilt/
    python tests/tools/make_prebuilt.py --check   # exit 1 (and say which) if they are stale

Run it after changing a built-in or the code that validates one (tests/test_fast_start.py
fails until then).  Entries are built as a first run builds them: into an empty user cache.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))


def build(into: Path) -> dict[str, object]:
    """name -> value of every entry to ship, built in a fresh user cache (shipped ones unused)."""
    from sheetgen import usercache
    from sheetgen.definitions import snapshot
    from sheetgen.definitions.builtins import builtin_info
    from sheetgen.definitions.registry import load
    from sheetgen.games.foury import tracker
    from sheetgen.paths import layouts_dir

    os.environ["SHEETGEN_CACHE_DIR"] = str(into)
    shipped = usercache.prebuilt
    usercache.prebuilt = lambda *args: None         # what validation makes, not what shipped
    try:
        entries: dict[str, object] = {}
        layouts = layouts_dir().resolve()
        for info in builtin_info():
            path = info.path
            load(info.name)
            for kind in ("layout", "pack"):
                key = snapshot._key(kind, path)
                cache = usercache.entry_path(f"definition-{kind}", key)
                if not cache.is_file():
                    continue
                entry = pickle.loads(cache.read_bytes())
                if entry["images"]:
                    continue                        # an image's place is the install's: validated
                try:
                    files = [(Path(f).resolve().relative_to(layouts).as_posix(), d) for f, d in entry["files"]]
                except ValueError:
                    continue
                name = f"definition-{kind}-{usercache.prebuilt_key(f'definition-{kind}', path, snapshot.source_fingerprint())}"
                entries[name] = dict(entry, files=files)
            if info.kind == "map" and info.ruleset == "foury":
                key = tracker._map_key(info.name)
                tracker._board(info.name, key)
                cache = usercache.entry_path("foury-board", key)
                name = f"foury-board-{usercache.prebuilt_key('foury-board', path, tracker._source_code())}"
                entries[name] = pickle.loads(cache.read_bytes())
        from sheetgen.games.foury.formats import hero_numbers
        heroes = hero_numbers.heroes_path()
        hero_numbers.hero_numbers.cache_clear()
        name = f"foury-heroes-{usercache.prebuilt_key('foury-heroes', heroes, hero_numbers.code())}"
        entries[name] = hero_numbers.hero_numbers()
        hero_numbers.hero_numbers.cache_clear()
        # the QR codes of every built-in sheet a scan may be matched against (sheetgen.scan.identify),
        # named by the texts (a new built-in sheet makes them stale), with the segno that drew them
        try:
            from sheetgen.scan import identify
        except ImportError:
            pass                                    # no scan extra: its entry is not made
        else:
            identify._kept_codes = {}               # drawn by segno here, not read from what shipped
            texts = sorted(identify.candidates(None, seen=False))
            digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
            entries[f"qr-codes-{digest}"] = {"segno": identify._segno_version(),
                                             "codes": identify.drawn_codes(texts)}
        return entries
    finally:
        usercache.prebuilt = shipped


def main(argv: list[str]) -> int:
    from sheetgen.usercache import PREBUILT
    with tempfile.TemporaryDirectory() as folder:
        entries = build(Path(folder))
    have = {p.stem for p in PREBUILT.glob("*.pickle")}
    if "--check" in argv:
        stale = sorted(have ^ set(entries))
        for name in stale:
            print(f"{'missing' if name in entries else 'stale'}: sheetgen/prebuilt/{name}.pickle")
        if stale:
            print("run python tests/tools/make_prebuilt.py", file=sys.stderr)
        return 1 if stale else 0
    PREBUILT.mkdir(exist_ok=True)
    for name in have - set(entries):
        (PREBUILT / f"{name}.pickle").unlink()
    for name, value in entries.items():
        (PREBUILT / f"{name}.pickle").write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    print(f"{len(entries)} entries in {PREBUILT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
