"""An outside reader's logs: hand-made exploration play logs written from the rules text and
the issue's log format (tests/data/exploration/audit/).  Legal ones (tricky readings
included: rotate/mirror either way, stretched shapes, paper-edge and no-room truncation,
secret doors, optional keys left out, numbers as strings) must pass `sheetgen check`;
each illegal one must be reported at exactly the lines marked `# <- rule`, by that rule."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games.exploration import readings
from sheetgen.games.exploration import shapes as sh

AUDIT = Path(__file__).parent / "data" / "exploration" / "audit"
LEGAL = sorted(AUDIT.glob("legal-*.yaml"))
ILLEGAL = sorted(AUDIT.glob("illegal-*.yaml"))


def marks(path):
    """{(line, rule)} of every '# <- rule' marker."""
    return {(i, line.split("# <- ")[1].strip())
            for i, line in enumerate(path.read_text().split("\n"), 1) if "# <- " in line}


def check(path):
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.output) if result.output.startswith("{") else None


def test_the_audit_covers_enough_cases():
    assert len(LEGAL) >= 8 and len(ILLEGAL) >= 20
    assert all(marks(p) for p in ILLEGAL) and not any(marks(p) for p in LEGAL)


@pytest.mark.parametrize("path", LEGAL, ids=[p.stem for p in LEGAL])
def test_legal_log_passes(path):
    code, report = check(path)
    assert code == 0 and report["legal"], report and report["violations"]


@pytest.mark.parametrize("path", ILLEGAL, ids=[p.stem for p in ILLEGAL])
def test_illegal_log_is_reported_at_the_marked_lines(path):
    code, report = check(path)
    assert code == 1, report
    found = {(v["line"], v["rule"]) for v in report["violations"]}
    # one slip is one violation: at one of the lines that may hold it, naming the others ("see
    # also line N", "or the squares at line N")
    named = {(int(n), v["rule"]) for v in report["violations"]
             for n in re.findall(r"(?:see also line|at line|\(line) (\d+)", v["message"])}
    assert marks(path) <= found | named, found
    # nothing else is reported, except the same slip echoed at another line that may hold it
    # (the squares beside a blamed roll or transform, a block-style result beside its roll)
    echoes = {line for line, _ in found} - {line for line, _ in marks(path)}
    assert len(echoes) <= len(marks(path)), report["violations"]
    text = CliRunner().invoke(main, ["check", str(path)]).output
    first = min(line for line, _ in marks(path))
    assert text.startswith(f"{path}:{first}: ") or f"line {first}" in text.split("\n")[0] or \
        text.startswith(f"{path}:{min(line for line, _ in found)}: ")


def test_rotation_readings_accept_either_direction_and_order():
    gallery = sh.parse_picture(".+.....\n+###...\n.######+\n.###...").shape
    cw90 = readings.candidates(gallery, 90, False, 0)
    cw270 = readings.candidates(gallery, 270, False, 0)
    assert {c[0] for c in cw90} == {c[0] for c in cw270}          # 90 cw is 270 ccw
    assert {c[0] for c in readings.candidates(gallery, 0, False, 0)} == {gallery.cells}
    # turned then mirrored (90) is mirrored then turned the other way (270): both accepted
    turned_then_mirrored = sh.mirror(sh.rotate(gallery, 90)).cells
    assert turned_then_mirrored in {c[0] for c in readings.candidates(gallery, 90, True, 0)}
    assert turned_then_mirrored not in {c[0] for c in readings.candidates(gallery, 0, True, 0)}


def test_stretch_readings_repeat_any_line_and_doors_may_sit_on_any_copy():
    chamber = sh.parse_picture("..+..\n.###.\n+###+\n.###.\n..+..").shape
    one = readings.candidates(chamber, 0, False, 1)
    assert all(len(c[0]) == 12 for c in one)
    taller = [c for c in one if max(y for _, y in c[0]) == 3]
    west = [g for c in taller for g in c[1] if any(s == "W" for *_, s in g)]
    assert frozenset({(0, 1, "W"), (0, 2, "W")}) in west           # the middle row repeated
    two = readings.candidates(chamber, 0, False, 2)
    sizes = {(max(x for x, _ in c[0]) + 1, max(y for _, y in c[0]) + 1) for c in two}
    assert sizes == {(3, 5), (5, 3), (4, 4)}                        # one line twice, or two lines


def test_map_mode_logs_rewritten_the_way_a_player_might_still_pass():
    """No transform/kind/result/truncated/time written; rotate counted counter-clockwise;
    mirror read top-to-bottom: every notation the checker documents, on real maps."""
    from dataclasses import replace
    from sheetgen.games.exploration.actions import Contents, Place, Time
    from sheetgen.games.exploration.formats import builtin_tables
    from sheetgen.games.exploration.rules import check
    from sheetgen.games.exploration.mapmode import actions_of, explore
    rooms, entrances, contents = builtin_tables()
    for seed in range(30):
        ex = explore(rooms, entrances, contents, seed=seed, policy=("first", "random", "deepest")[seed % 3])
        for variant in ("bare", "counter-clockwise", "top-to-bottom"):
            log = []
            for a in actions_of(ex):
                if variant == "bare":
                    if isinstance(a, Time):
                        continue
                    if isinstance(a, Place):
                        a = replace(a, transform=None, kind=None, truncated=None)
                    elif isinstance(a, Contents):
                        a = replace(a, result=None, escalation=None)
                elif isinstance(a, Place) and a.transform:
                    t = a.transform
                    if variant == "counter-clockwise":
                        a = replace(a, transform=replace(t, rotate=(360 - t.rotate) % 360))
                    elif t.mirror:
                        a = replace(a, transform=replace(t, rotate=(t.rotate + 180) % 360))
                log.append(a)
            judged = check(log, rooms, entrances, contents, ex.width, ex.height)
            assert judged.violations == [], (seed, variant)
            # a notation never needs a reading (a bare log leaves the flags out: a cut room may)
            assert variant == "bare" or not judged.readings, (seed, variant)
