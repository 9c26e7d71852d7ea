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
