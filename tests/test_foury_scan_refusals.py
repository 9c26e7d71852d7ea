"""The Foury scanner's two look-ups that may fail (a sheet's caps, a log's map) catch only the
refusals they mean: any other failure is a bug and must surface, never quietly drop the cap
check (a sheet with too many boxes marked would then pass) or call a sheet a mismatch."""
from types import SimpleNamespace

import pytest

from sheetgen.games.foury import scan as foury_scan
from sheetgen.games.foury.formats import sheet as foury_sheet


def _character(hero, campaign="ancient"):
    model = SimpleNamespace(sheet="character", campaign=campaign, hero=hero)
    return SimpleNamespace(loaded=SimpleNamespace(kind="sheet", definition=SimpleNamespace(model=model)))


def test_a_built_in_hero_has_caps():
    caps = foury_scan.FouryScanner()._caps(_character(None))
    assert caps and all(isinstance(v, int) for v in caps.values())


def test_an_unknown_hero_or_campaign_has_no_caps_to_hold_to():
    scanner = foury_scan.FouryScanner()
    assert scanner._caps(_character("nobody-at-all")) == {}
    assert scanner._caps(_character(None, campaign="no-such-campaign")) == {}


def test_a_failure_that_is_not_a_refusal_is_not_taken_for_no_caps(monkeypatch):
    def broken(*_a, **_k):
        raise TypeError("a bug in the caps")
    monkeypatch.setattr(foury_sheet, "track_limits", broken)
    with pytest.raises(TypeError):
        foury_scan.FouryScanner()._caps(_character(None))


def _map_sheet(definition="ancient-story"):
    identity = SimpleNamespace(definition=definition, options=(), describe=lambda: f"the map {definition}")
    return SimpleNamespace(loaded=SimpleNamespace(kind="map"), identity=identity)


def _record(map_name, tmp_path):
    log = SimpleNamespace(map_name=map_name, hero=SimpleNamespace(name=None))
    return SimpleNamespace(definition=log, source=SimpleNamespace(folder=tmp_path))


def test_a_log_whose_map_cannot_be_found_is_not_this_sheets(tmp_path):
    said = foury_scan.FouryScanner().mismatch(_map_sheet(), _record("gone.yaml", tmp_path))
    assert said == "the log plays the map gone.yaml; the photo shows the map ancient-story"


def test_a_failure_finding_the_logs_map_that_is_not_a_refusal_surfaces(tmp_path, monkeypatch):
    from sheetgen.definitions import registry

    def broken(_ref):
        raise RuntimeError("a bug in resolve")
    monkeypatch.setattr(registry, "resolve", broken)
    with pytest.raises(RuntimeError):
        foury_scan.FouryScanner().mismatch(_map_sheet(), _record("ancient-story", tmp_path))
