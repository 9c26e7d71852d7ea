"""What makes `sheetgen build` start fast, and that it changes nothing it draws: the user
cache (parsed fonts, snapshots of valid definitions), fonts registered only when used,
pydantic imported only when a definition must be validated."""
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgen import usercache
from sheetgen.definitions import snapshot
from sheetgen.paths import user_cache_dir

ROOT = Path(__file__).resolve().parent.parent


# -- the cache folder ------------------------------------------------------------------------------

def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SHEETGEN_CACHE_DIR", str(tmp_path / "own"))
    assert user_cache_dir() == tmp_path / "own"
    monkeypatch.delenv("SHEETGEN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert user_cache_dir() == tmp_path / "xdg" / "sheetgen"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_dir() == tmp_path / "home" / ".cache" / "sheetgen"


def test_a_corrupt_or_foreign_entry_is_ignored_and_rebuilt():
    built = []

    def build():
        built.append(1)
        return {"value": 42}
    assert usercache.cached("t", "k", build) == {"value": 42}
    assert usercache.cached("t", "k", build) == {"value": 42} and len(built) == 1      # read back
    path = usercache.entry_path("t", "k")
    for damage in (b"", b"\x80\x05not a pickle", pickle.dumps("something else")[:-3]):
        path.write_bytes(damage)
        assert usercache.cached("t", "k", build) == {"value": 42}
    assert len(built) == 4
    assert pickle.loads(path.read_bytes()) == {"value": 42}                              # and stored again
    # a value that unpickles but fails the check is rebuilt too
    path.write_bytes(pickle.dumps(["wrong"]))
    assert usercache.cached("t", "k", build, check=lambda v: isinstance(v, dict)) == {"value": 42}


def test_a_cache_folder_that_cannot_be_written_only_costs_the_rebuild(monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SHEETGEN_CACHE_DIR", str(blocker / "cache"))
    assert usercache.cached("t", "k", lambda: 7) == 7
    assert usercache.cached("t", "k", lambda: 8) == 8                                    # nothing kept


# -- fonts: parsed once, kept in the cache, registered when used ------------------------------------

def _face_state(face):
    return {k: v for k, v in face.__dict__.items() if k != "_pdfScale"}


def test_a_cached_face_is_the_parsed_face():
    from reportlab.pdfbase.ttfonts import TTFont

    from sheetgen.fonts import font_path, pdf_face, pdf_font
    fresh = TTFont("fresh", str(font_path("condensed")))
    pdf_face.cache_clear()
    first = pdf_face("condensed")                                   # parsed, and stored
    pdf_face.cache_clear()
    again = pdf_face("condensed")                                   # from the cache folder
    assert again is not first
    for face in (first, again):
        assert _face_state(face) == _face_state(fresh.face)
        assert hasattr(face, "_pdfScale") == hasattr(fresh.face, "_pdfScale")      # reportlab 4.0 has none
        if hasattr(fresh.face, "_pdfScale"):
            assert [face._pdfScale(v) for v in (0, 1, 977, 2048)] == \
                [fresh.face._pdfScale(v) for v in (0, 1, 977, 2048)]
    made = pdf_font("condensed", "fresh")
    assert set(made.__dict__) == set(fresh.__dict__)                # all that TTFont(...) sets
    assert {k: v for k, v in made.__dict__.items() if k not in ("face", "state", "encoding")} == \
        {k: v for k, v in fresh.__dict__.items() if k not in ("face", "state", "encoding")}


def test_a_face_this_reportlab_would_not_get_back_is_parsed_each_time(monkeypatch):
    """Where restoring a stored face would not give the parsed one back (another reportlab's
    internals), the entry says so and the face is parsed as reportlab does."""
    import pickle

    from reportlab.pdfbase.ttfonts import TTFontFace

    from sheetgen import fonts
    monkeypatch.setattr(fonts, "_same_face", lambda face, fresh: False)
    fonts.pdf_face.cache_clear()
    first = fonts.pdf_face("mono")
    (entry,) = user_cache_dir().glob("ttf-face-*.pickle")
    assert pickle.loads(entry.read_bytes())["state"] is None
    fonts.pdf_face.cache_clear()
    again = fonts.pdf_face("mono")
    fonts.pdf_face.cache_clear()
    fresh = TTFontFace(str(fonts.font_path("mono")))
    assert _face_state(again) == _face_state(first) == _face_state(fresh)


def test_a_font_with_attributes_not_known_is_made_by_the_public_constructor(monkeypatch):
    from reportlab.pdfbase.ttfonts import TTFont

    from sheetgen import fonts
    fonts.pdf_face.cache_clear()
    monkeypatch.setattr(fonts, "_FONT_ATTRIBUTES", {"fontName", "face"})
    made = fonts.pdf_font("condensed", "other")
    fresh = TTFont("other", str(fonts.font_path("condensed")))
    assert made.face is not fonts.pdf_face("condensed") and made.face.name == fresh.face.name
    assert _face_state(made.face) == _face_state(fresh.face)
    assert set(vars(made)) == set(vars(fresh))
    fonts.pdf_face.cache_clear()


def test_a_corrupt_font_entry_is_parsed_again_and_the_pdf_is_the_same(tmp_path):
    """Each run as a new process (font registration lasts as long as a process)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SHEETGEN_CACHE_DIR=str(tmp_path / "cache"))
    script = ("import sys; sys.path.insert(0, 'tests'); from sheet_helpers import composed; "
              "from sheetgen.render import render_pdf_bytes; "
              "sys.stdout.buffer.write(render_pdf_bytes(composed('graph-20x28')))")

    def pdf() -> bytes:
        return subprocess.run([sys.executable, "-c", script], capture_output=True, check=True, cwd=ROOT,
                              env=env).stdout
    parsed = pdf()                                                  # the fonts parsed, and stored
    entries = sorted((tmp_path / "cache").glob("ttf-face-*.pickle"))
    assert len(entries) == 4                                        # the fonts graph-20x28 uses, sans among them
    sizes = [e.stat().st_size for e in entries]
    assert pdf() == parsed                                          # from the cache
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:100])
    assert pdf() == parsed                                          # corrupt: parsed afresh
    assert [e.stat().st_size for e in entries] == sizes             # and stored again


def test_only_the_fonts_a_document_uses_are_registered():
    script = ("import sys; from sheetgen.draw.model import Document, Page, Text; "
              "from sheetgen.render import render_pdf_bytes; "
              "render_pdf_bytes(Document([Page(50, 50, [Text(5, 5, 'mono only', font='mono')])])); "
              "from sheetgen.render import pdf; print(sorted(pdf._registered))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
    assert out.strip() == "['mono', 'sans']"             # sans: the canvas's initial font, always there


# -- snapshots of valid definitions ----------------------------------------------------------------

def _load(name):
    from sheetgen.definitions.registry import load
    return load(name)


def _layouts():
    from sheet_helpers import builtin_sheets
    from sheetgen.definitions.builtins import builtin_info
    kinds = {i.name: (i.kind, i.ruleset) for i in builtin_info()}
    return [n for n in builtin_sheets() if kinds[n][0] in ("layout", "deck") and kinds[n][1] is None]


def _drawn(loaded, paper="a4"):
    from sheetgen.build import compose_loaded
    from sheetgen.draw.model import dump
    from sheetgen.draw.options import BuildOptions
    doc = compose_loaded(loaded, BuildOptions(paper=paper))
    return [dump(p.items) for p in doc.pages], doc.title, doc.name


@pytest.mark.parametrize("name", _layouts())
def test_a_layout_from_its_snapshot_draws_what_it_did(name, monkeypatch, tmp_path):
    with monkeypatch.context() as m:
        m.setattr(usercache, "prebuilt", lambda *args: None)
        first = _load(name)                               # validated, and its snapshot stored
        assert type(first.definition.model).__name__ == "LayoutModel"
        again = _load(name)                               # from the snapshot
    monkeypatch.setenv("SHEETGEN_CACHE_DIR", str(tmp_path / "empty"))
    shipped = _load(name)                                 # a first run: the snapshot shipped with sheetgen
    assert not (tmp_path / "empty").exists()
    for kept in (again, shipped):
        assert type(kept.definition.model).__name__ == "Plain"
        assert repr(kept.definition.model) == repr(first.definition.model)     # the footer's sheet id
        for paper in ("a4", "letter"):
            assert _drawn(kept, paper) == _drawn(first, paper)


def test_what_ships_for_the_built_ins_is_what_they_validate_to(tmp_path):
    """sheetgen/prebuilt/ holds an entry for each built-in layout, deck, pack and Foury map,
    named by the built-in's bytes and today's code; stale: tests/tools/make_prebuilt.py."""
    sys.path.insert(0, str(ROOT / "tests" / "tools"))
    from make_prebuilt import build

    from sheetgen.games.foury import tracker
    made = build(tmp_path / "cache")
    shipped = {p.stem for p in usercache.PREBUILT.glob("*.pickle")}
    assert shipped == set(made), "stale: run python tests/tools/make_prebuilt.py"
    boards = [n for n in made if n.startswith("foury-board-")]
    assert len(boards) == 7 and len(made) == 13
    for name in boards:
        assert pickle.loads((usercache.PREBUILT / f"{name}.pickle").read_bytes()) == made[name]
    from sheetgen.games.foury.formats import hero_numbers
    (heroes,) = [n for n in made if n.startswith("foury-heroes-")]
    assert pickle.loads((usercache.PREBUILT / f"{heroes}.pickle").read_bytes()) == hero_numbers.read_heroes()
    tracker._MAPS.clear()
    board = tracker._board("ancient-story", tracker._map_key("ancient-story"))   # from what shipped
    assert board == tracker.cached_map("ancient-story").board
    # the QR codes a scan matches an unread code against: the built-in sheets', each as segno draws it
    # (drawn by the segno of the day, pinned or the declared minimum: its release must draw the same)
    (codes,) = [n for n in made if n.startswith("qr-codes-")]
    shipped_codes = pickle.loads((usercache.PREBUILT / f"{codes}.pickle").read_bytes())
    assert shipped_codes["codes"] == made[codes]["codes"] and len(made[codes]["codes"]) > 300
    assert shipped_codes["segno"].split(".")[:2] == made[codes]["segno"].split(".")[:2]


def test_a_pack_from_its_snapshot_lists_the_same_sheets():
    first, again = _load("default-pack"), _load("default-pack")
    assert type(again.definition.model).__name__ == "Plain"
    assert again.definition.members() == first.definition.members()
    assert (again.definition.model.title, again.definition.model.name) == \
        (first.definition.model.title, first.definition.model.name)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_changed_file_or_parent_is_validated_again(tmp_path):
    from sheetgen.errors import InputError
    parent = _write(tmp_path / "parent.yaml", "sheetgen: 1\nkind: layout\ntitle: Parent\nelements:\n"
                    "  box: {type: box, width: 10mm, height: 10mm}\n")
    child = _write(tmp_path / "child.yaml", "sheetgen: 1\nkind: layout\nextends: parent.yaml\n"
                   "elements:\n  box: {fill: red}\n")
    assert _load(child).definition.model.elements["box"].fill == "#c0392b"
    assert type(_load(child).definition.model).__name__ == "Plain"
    # the parent changes: the snapshot of the child is not used
    _write(parent, parent.read_text().replace("width: 10mm", "width: 20mm"))
    reloaded = _load(child).definition.model
    assert type(reloaded).__name__ == "LayoutModel" and reloaded.elements["box"].width == 20
    # the child changes into something invalid: the error, located, as ever
    _write(child, child.read_text().replace("fill: red", "fill: blurple"))
    with pytest.raises(InputError, match="unknown colour 'blurple'") as info:
        _load(child)
    assert info.value.problems[0].file == str(child) and info.value.problems[0].line == 5


def test_a_removed_image_is_noticed(tmp_path):
    from sheetgen.errors import InputError
    image = tmp_path / "tiny.png"
    image.write_bytes((ROOT / "tests" / "data" / "layout" / "tiny.png").read_bytes())
    layout = _write(tmp_path / "pic.yaml", "sheetgen: 1\nkind: layout\nelements:\n"
                    "  pic: {type: image, path: tiny.png, width: 10mm}\n")
    _load(layout)
    assert type(_load(layout).definition.model).__name__ == "Plain"
    image.unlink()
    with pytest.raises(InputError, match="image file not found"):
        _load(layout)


def test_a_late_error_of_a_snapshot_is_located(tmp_path):
    from sheetgen.build import compose_loaded
    from sheetgen.draw.options import BuildOptions
    from sheetgen.errors import InputError
    rows = "\n".join(f"      - [row {i}, x]" for i in range(60))
    layout = _write(tmp_path / "table.yaml", "sheetgen: 1\nkind: layout\npage: {size: a4}\nelements:\n"
                    "  t:\n    type: table\n    y: 250mm\n    rows:\n" + rows + "\n")
    first = _load(layout)
    again = _load(layout)
    assert type(again.definition.model).__name__ == "Plain"
    messages = []
    for loaded in (first, again):
        with pytest.raises(InputError) as info:
            compose_loaded(loaded, BuildOptions())
        messages.append(info.value.problems[0].format())
    assert messages[0] == messages[1] and "table.yaml:6:5: elements.t: " in messages[0] and "the table needs" in messages[0]


def test_a_corrupt_snapshot_is_a_miss(tmp_path):
    layout = _write(tmp_path / "x.yaml", "sheetgen: 1\nkind: layout\ntitle: X\n")
    _load(layout)
    (entry,) = user_cache_dir().glob("definition-layout-*.pickle")
    entry.write_bytes(b"garbage")
    assert type(_load(layout).definition.model).__name__ == "LayoutModel"
    assert type(_load(layout).definition.model).__name__ == "Plain"


def test_the_code_that_validates_is_part_of_the_name(monkeypatch, tmp_path):
    layout = _write(tmp_path / "x.yaml", "sheetgen: 1\nkind: layout\ntitle: X\n")
    _load(layout)
    monkeypatch.setattr(snapshot, "code_fingerprint", lambda: "another version of sheetgen")
    assert type(_load(layout).definition.model).__name__ == "LayoutModel"


def test_building_again_imports_no_pydantic(tmp_path):
    """The second build of a sheet of one's own, as a user runs it, and the first build of a
    built-in (its snapshot ships with sheetgen): no validation, no pydantic; the same PDF."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SHEETGEN_CACHE_DIR=str(tmp_path / "cache"))
    own = tmp_path / "graph-20x28.yaml"
    own.write_bytes((ROOT / "layouts" / "graph-20x28.yaml").read_bytes())
    script = ("import sys; from sheetgen.cli import main\n"
              "try:\n    main(['build', sys.argv[2], '--format', 'pdf', '-o', sys.argv[1]])\n"
              "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
              "print('pydantic' in sys.modules, 'sheetgen.definitions.layout' in sys.modules, file=sys.stderr)")

    def run(out: str, what: str, cache: str = "cache"):
        return subprocess.run([sys.executable, "-c", script, str(tmp_path / out), what], capture_output=True,
                              text=True, cwd=ROOT, env=dict(env, SHEETGEN_CACHE_DIR=str(tmp_path / cache)))
    runs = [run("out1", str(own)), run("out2", str(own)), run("out3", "graph-20x28", "empty")]
    assert [r.returncode for r in runs] == [0, 0, 0], runs[0].stderr
    assert [r.stderr.strip().splitlines()[-1] for r in runs] == ["True True", "False False", "False False"]
    pdfs = {(tmp_path / out / "graph-20x28.pdf").read_bytes() for out in ("out1", "out2", "out3")}
    assert len(pdfs) == 1


def test_a_first_track_status_replays_without_the_play_log_models(tmp_path):
    """With an empty user cache, `track status` replays the journal's steps; steps in the
    notation's own form (as `track` records them) and a built-in hero need neither the
    play-log format's models nor the sheet definitions' (issue 25: the first run within
    1.5x of the warm one), and the state is the same as the format's replay."""
    env = dict(os.environ, SHEETGEN_CONFIG_DIR=str(tmp_path / "config"), SHEETGEN_CACHE_DIR=str(tmp_path / "c1"),
               SHEETGEN_DATA_DIR=str(tmp_path / "data"))
    journal = tmp_path / "game.sqlite"
    steps = ['{entry: "A3:W"}', "{move: A3, roll: 2}", "{fight: {hero: 5, enemy: 2, weapon: true}}"]
    for args in (["new", "--map", "ancient-story", "--hero", "kael"], *(["step", s] for s in steps)):
        done = subprocess.run([sys.executable, "-m", "sheetgen", "track", "--journal", str(journal), *args],
                              env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    probe = ("import sys\nfrom sheetgen.cli import main\n"
             "try:\n    main(['track', '--journal', sys.argv[1], 'status'])\nexcept SystemExit:\n    pass\n"
             "print('loaded:', sorted(m for m in sys.modules if m.endswith(('formats.playlog', 'formats.sheet'))))")
    cold = subprocess.run([sys.executable, "-c", probe, str(journal)], capture_output=True, text=True,
                          env=dict(env, SHEETGEN_CACHE_DIR=str(tmp_path / "empty")))
    assert "loaded: []" in cold.stdout, cold.stdout + cold.stderr
    warm = subprocess.run([sys.executable, "-m", "sheetgen", "track", "--journal", str(journal), "status"],
                          env=env, capture_output=True, text=True)
    assert "weapon 1/8" in warm.stdout and "kills 1" in warm.stdout            # the fight replayed
    assert cold.stdout.replace("loaded: []", "").strip() == warm.stdout.strip()
