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
