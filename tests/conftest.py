import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """Never touch the real user's config, journal or cache from a test."""
    base = tmp_path_factory.mktemp("userdirs")
    monkeypatch.setenv("SHEETGEN_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("SHEETGEN_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("SHEETGEN_CACHE_DIR", str(base / "cache"))
    yield


# Tools from Debian that some tests need: on a developer's machine those tests skip and say what to
# install; in CI (.ci/run installs them) a missing one stops the run, so that no test skips unseen.
DEBIAN_TOOLS = {"pdftoppm": "poppler-utils", "chromium": "chromium", "chromedriver": "chromium-driver"}


def pytest_sessionstart(session):
    if os.environ.get("CI"):
        missing = [pkg for tool, pkg in DEBIAN_TOOLS.items() if shutil.which(tool) is None]
        if missing:
            pytest.exit(f"CI needs Debian's {', '.join(missing)} (apt-get install {' '.join(missing)})", returncode=1)


# A photo test's module keeps its last few scans (a photo is simulated and read once for many tests).
# Tests of one photo therefore run one after another, and under pytest-xdist (README's -n auto, with
# --dist loadgroup from pyproject.toml) on one worker: the photo is the params that name it.
PHOTO_PARAMS = ("rid", "image", "name", "sheet", "log")


def _photo_group(item) -> str | None:
    spec = getattr(item, "callspec", None)
    if item.get_closest_marker("photo") is None or spec is None:
        return None
    named = [f"{key}={spec.params[key]}" for key in PHOTO_PARAMS if isinstance(spec.params.get(key), str)]
    return f"{item.module.__name__}:{','.join(named)}" if named else None


def pytest_collection_modifyitems(config, items):
    groups = {id(item): _photo_group(item) for item in items}
    first: dict[str, int] = {}
    for n, item in enumerate(items):
        group = groups[id(item)]
        if group is not None:
            first.setdefault(group, n)
            item.add_marker(pytest.mark.xdist_group(group))
    # each photo's tests together, where its first test was; every other test keeps its place
    order = {id(item): (first[groups[id(item)]] if groups[id(item)] else n, n) for n, item in enumerate(items)}
    items.sort(key=lambda item: order[id(item)])
