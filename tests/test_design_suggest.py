"""The workbench's Suggest (issue 31): `generate map --from DRAFT --keep ...` run in the background
by the page's server, one at a time, within the game's budgets; its result is offered and becomes
the draft only when applied (one undoable change; the file is written by Save alone)."""
import re
import shutil
import threading
import time
import types
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sheetgen.errors import InputError
from sheetgen.games.foury import design as D
from sheetgen.web.design import make_design_app, open_workbench

STORY = Path(__file__).parent.parent / "layouts" / "foury" / "ancient-story.yaml"
BASE = "http://127.0.0.1:8642"


@pytest.fixture
def story(tmp_path, monkeypatch):
    monkeypatch.setattr(D, "SUGGEST_BUDGETS", (1000, 2000))      # a short search (the page's choices)
    path = tmp_path / "story.yaml"
    shutil.copy(STORY, path)
    return path


def client_for(path, designer=None):
    draft, found = open_workbench(path)
    return TestClient(make_design_app(draft, designer or found), base_url=BASE), draft


def finished(client, seconds: float = 120.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = client.get("/api/suggest").json()
        if not got["running"]:
            return got
        time.sleep(0.05)
    raise AssertionError("the suggestion did not finish")


def test_the_page_offers_suggest_with_the_games_locks(story):
    client, _ = client_for(story)
    page = client.get("/").text
    assert 'data-tab="suggest"' in page and 'id="suggest-rate"' in page
    assert [f'name="keep" value="{k}"' in page for k in ("zones", "walls", "items")] == [True] * 3
    assert '<option value="1000">1,000</option>' in page


def test_a_suggestion_is_offered_then_applied_as_one_undoable_unsaved_change(story):
    client, draft = client_for(story)
    before = client.get("/api/yaml").text
    # (2,000 games: a search that never overruns its budget has made a few changes by then)
    started = client.post("/api/suggest", json={"keep": ["zones", "walls"], "win_rate": 0.3, "budget": 2000})
    assert started.status_code == 200 and started.json()["running"]
    s = finished(client)
    assert s["error"] is None and s["total"] == 2000 and 0 < s["done"] <= 2000
    result = s["result"]
    assert result["keep"] == ["walls", "zones"] and result["text"].startswith("# ")
    assert result["changes"] and all(re.match(r"[A-Z][0-9]+: ", c) for c in result["changes"])   # items only
    # offered, not applied: the draft and the file are as they were
    assert client.get("/api/yaml").text == before and story.read_text() == before
    state = client.post("/api/suggest/apply", json={}).json()
    assert state["dirty"] and state["undo"] == 1 and client.get("/api/yaml").text == result["text"]
    assert story.read_text() == before                           # Save is the designer's
    assert client.get("/api/suggest").json()["result"] is None   # applied once: no longer offered
    assert client.post("/api/suggest/apply", json={}).status_code == 409
    # the locked parts are as drawn: zones (events, requirements) and walls
    old, new = D.check_text(story, before).fmap.model, D.check_text(story, result["text"]).fmap.model
    assert new.walls == old.walls and new.zones == old.zones and new.items != old.items
    state = client.post("/api/op", json={"op": "undo"}).json()
    assert not state["dirty"] and client.get("/api/yaml").text == before


def test_refusals_are_messages_never_a_500(story, tmp_path):
    client, _ = client_for(story)
    from sheetgen.games.foury.mapgen import CAMPAIGNS
    assert D.SUGGEST_CAMPAIGNS == CAMPAIGNS                      # Suggest balances what generate map does
    bad = client.post("/api/suggest", json={"keep": ["cells"], "budget": 1000})
    assert bad.status_code == 400 and "keep" in bad.json()["error"]
    bad = client.post("/api/suggest", json={"budget": 10 ** 9})
    assert bad.status_code == 400 and "1000, 2000" in bad.json()["error"]
    bad = client.post("/api/suggest", json={"win_rate": "lots", "budget": 1000})
    assert bad.status_code == 400 and "bad value" in bad.json()["error"]
    assert client.post("/api/suggest/apply", json={}).status_code == 409
    # every part locked, and a target no search meets: the worker's error, shown as a message
    client.post("/api/suggest", json={"keep": ["zones", "walls", "items"], "budget": 1000})
    assert "every part is locked" in finished(client)["error"]
    client.post("/api/suggest", json={"win_rate": 1.5, "budget": 1000})
    assert "cannot be met" in finished(client)["error"]
    # a campaign generate does not balance: said, not played
    slaughter = STORY.parent / "slaughter.yaml"
    with pytest.raises(InputError, match="four-round games"):
        D.suggest(slaughter, slaughter.read_text(), [], 0.3, 1000)
    # a map with findings: fix them first
    client.post("/api/op", json={"op": "paint", "cells": ["A2", "B2", "C2", "D2", "D3", "D4"], "symbol": "#"})
    client.post("/api/suggest", json={"budget": 1000})
    assert "fix the" in finished(client)["error"]
    assert client.post("/api/suggest/apply", json={}).status_code == 409


def test_one_suggestion_at_a_time_and_cancel_drops_it(story):
    release, entered = threading.Event(), threading.Event()
    seen = []

    def suggest(path, text, keep, win_rate, budget, progress, cancelled):
        entered.set()
        release.wait(30)
        progress(100, budget)
        seen.append(cancelled())
        return {"text": text, "met": True}
    designer = types.SimpleNamespace(**{k: getattr(D, k) for k in dir(D) if not k.startswith("__")})
    designer.suggest = suggest
    client, _ = client_for(story, designer)
    assert client.post("/api/suggest", json={"budget": 1000}).status_code == 200
    assert entered.wait(30)
    again = client.post("/api/suggest", json={"budget": 1000})
    assert again.status_code == 400 and "running already" in again.json()["error"]
    cancelled = client.post("/api/suggest/cancel", json={}).json()
    assert not cancelled["running"] and cancelled["result"] is None
    assert client.post("/api/suggest", json={"budget": 1000}).status_code == 400     # its thread still works
    release.set()
    deadline = time.monotonic() + 30
    while not seen:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # the cancelled job saw it, and its result is dropped: nothing to apply
    assert seen == [True] and client.get("/api/suggest").json()["result"] is None
    assert client.post("/api/suggest/apply", json={}).status_code == 409
