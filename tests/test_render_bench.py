"""The render benchmark's workers still run (tiny page counts; not a timing test)."""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import bench_render  # noqa: E402


@pytest.mark.parametrize("name", sorted(bench_render.WORKERS))
def test_bench_worker_runs(name, capsys):
    bench_render.WORKERS[name](2)
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["seconds"] > 0 and result["peak_mb"] > 0


def test_bench_page_matches_the_plain_scripts_page():
    page = next(bench_render.bench_pages(1))
    from sheetgen.draw.model import Line, Text, walk
    items = [item for item, _ in walk(page.items)]
    assert sum(isinstance(i, Line) for i in items) == (bench_render.COLS + 1) + (bench_render.ROWS + 1)
    assert sum(isinstance(i, Text) for i in items) == bench_render.LABELS + 1   # + the page number
