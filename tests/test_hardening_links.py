"""Atomic writes go through a symbolic link to its target (issue 29, item 1).

A file opened through a link (a map linked into a git checkout, an output folder
whose PDF is a link to a shared copy) is written where the link points: the part
file is staged beside the real file and renamed over it, so the link stays a
link and the real file gets the content.  Tested for every writer: the atomic
module itself, `build -o`, `track export -o` and the design workbench's Save.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen import atomic
from sheetgen.atomic import Staging
from sheetgen.cli import main
from sheetgen.errors import InputError

DATA = Path(__file__).parent / "data" / "foury_maps"
HALL = DATA / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def linked(tmp_path: Path, name: str, content: bytes | None = b"old") -> tuple[Path, Path]:
    """(link, real): link in tmp_path/work points (relatively) to real in tmp_path/store."""
    work, store = tmp_path / "work", tmp_path / "store"
    work.mkdir(exist_ok=True)
    store.mkdir(exist_ok=True)
    real = store / name
    if content is not None:
        real.write_bytes(content)
    link = work / name
    link.symlink_to(os.path.relpath(real, work))
    return link, real


def no_parts(*folders: Path) -> bool:
    return not any(p.name.endswith(".part") for f in folders for p in f.iterdir())


def test_write_text_goes_through_the_link(tmp_path):
    link, real = linked(tmp_path, "a.yaml")
    target = os.readlink(link)
    atomic.write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == target
    assert real.read_text() == "new"
    assert no_parts(link.parent, real.parent)


def test_a_link_to_a_file_not_yet_made_makes_the_file(tmp_path):
    link, real = linked(tmp_path, "a.yaml", content=None)
    atomic.write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_chain_of_links_is_followed_to_the_end(tmp_path):
    link, real = linked(tmp_path, "a.yaml")
    second = tmp_path / "second.yaml"
    second.symlink_to(link)
    atomic.write_text(second, "new")
    assert second.is_symlink() and link.is_symlink() and real.read_text() == "new"


def test_a_set_that_fails_leaves_the_linked_file_and_the_link(tmp_path):
    link, real = linked(tmp_path, "a.txt")
    (tmp_path / "work" / "b.txt").mkdir()
    with pytest.raises(InputError, match="a folder is in the way"):
        with Staging() as staging:
            staging.add(link).write_text("new a")
            staging.add(tmp_path / "work" / "b.txt").write_text("b")
    assert link.is_symlink() and real.read_text() == "old"
    assert no_parts(link.parent, real.parent)


def test_staging_names_the_path_it_was_given(tmp_path):
    link, real = linked(tmp_path, "a.txt")
    with Staging() as staging:
        part = staging.add(link)
        assert part.parent == real.parent               # staged beside the real file (one file system)
        part.write_text("new")
    assert real.read_text() == "new"
    with Staging() as staging:
        staging.add(link).write_text("newer")
        assert staging.targets == [link]                # messages and "wrote" lines name the user's path
    assert real.read_text() == "newer"


def test_a_link_loop_is_a_clean_error(tmp_path):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    with pytest.raises(InputError, match="loop"):
        atomic.write_text(loop, "x")
    assert loop.is_symlink()


def test_build_writes_through_linked_outputs(tmp_path):
    out = tmp_path / "out"
    assert run("build", "graph-20x28", "-o", out, "--format", "svg").exit_code == 0
    name = "graph-20x28-01-graph-20x28.svg"
    shared = tmp_path / "shared"
    shared.mkdir()
    shutil.move(out / name, shared / name)
    (out / name).symlink_to(shared / name)
    before = (shared / name).read_bytes()
    result = run("build", "graph-20x28", "-o", out, "--format", "svg", "--grayscale")
    assert result.exit_code == 0, result.output
    assert (out / name).is_symlink()
    assert (shared / name).read_bytes() != before
    assert no_parts(out, shared)


def test_track_export_writes_through_a_link(tmp_path):
    journal = tmp_path / "journal.sqlite"
    for args in (["new", "--map", HALL, "--traits", TRAITS], ["enter", "C1:N"]):
        assert run("track", *args, "--journal", journal).exit_code == 0
    link, real = linked(tmp_path, "game.yaml")
    result = run("track", "export", "-o", link, "--journal", journal)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and "C1" in real.read_text()
    assert run("check", link).exit_code == 0


def test_design_save_writes_through_a_link(tmp_path):
    from sheetgen.games.foury import design
    link, real = linked(tmp_path, "hall.yaml", HALL.read_bytes())
    draft = design.open_draft(link)
    draft.apply({"op": "wall", "cell": "D3", "side": "S"})
    draft.save()
    assert link.is_symlink()
    assert "D3:S" in real.read_text()
    draft.apply({"op": "wall", "cell": "A1", "side": "E"})
    draft.save()                                        # the second save sees its own first one on disk
    assert link.is_symlink() and "A1:E" in real.read_text()
    assert no_parts(link.parent, real.parent)
