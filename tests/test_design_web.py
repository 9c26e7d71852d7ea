"""The workbench's HTTP side (sheetgen/web/design): the routes over one draft, their security
(the shared guard, JSON POSTs from the page's own origin, a bounded body, one file only),
save, playtest, print preview and PDF; and the `sheetgen design` command's clean errors."""
import json
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from sheetgen.cli import main
from sheetgen.web.design import MAX_BODY, make_design_app, open_workbench

DATA = Path(__file__).parent / "data" / "foury_maps"
BASE = "http://127.0.0.1:8642"


@pytest.fixture
def hall(tmp_path):
    target = tmp_path / "hall.yaml"
    shutil.copy(DATA / "test-hall.yaml", target)
    return target


def client_for(path: Path, new=None, **kw) -> TestClient:
    draft, designer = open_workbench(path, new)
    return TestClient(make_design_app(draft, designer, **kw), base_url=kw.pop("base", BASE))


def post(client, url, body):
    return client.post(url, json=body)


def test_the_page_and_its_state(hall):
    client = client_for(hall)
    page = client.get("/")
    assert page.status_code == 200 and "hall.yaml" in page.text and 'data-item="statue"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/design/design.js").status_code == 200
    state = client.get("/api/state").json()
    assert state["loads"] and state["columns"] == 5 and 'id="cell-A1"' in state["svg"]
    assert client.get("/api/yaml").text == hall.read_text()


def test_an_edit_then_save_writes_the_one_file(hall):
    client = client_for(hall)
    state = post(client, "/api/op", {"op": "items", "cell": "C4", "items": ["potion"]}).json()
    assert state["dirty"] and state["items"]["C4"] == ["potion"]
    assert "C4" not in hall.read_text()                                # nothing written before Save
    state = post(client, "/api/save", {}).json()
    assert not state["dirty"] and "  C4: potion\n" in hall.read_text()
    assert sorted(p.name for p in hall.parent.iterdir()) == ["hall.yaml"]   # atomic: no part file left


def test_a_bad_edit_is_a_clean_400_with_the_message(hall):
    client = client_for(hall)
    answer = post(client, "/api/op", {"op": "items", "cell": "C4", "items": ["potoin"]})
    assert answer.status_code == 400 and answer.json()["error"] == ("unknown item 'potoin' (expected `sheetgen list items`); "
                                                           "did you mean 'potion'?")
    assert post(client, "/api/op", ["not", "a", "mapping"]).status_code == 400


def test_changes_are_json_posts_from_the_page_itself_and_bounded(hall):
    client = client_for(hall)
    assert client.get("/api/op").status_code == 405                     # a link cannot change the map
    form = client.post("/api/op", data={"op": "undo"})
    assert form.status_code == 400 and "JSON" in form.json()["error"]  # a form from another site cannot either
    foreign = client.post("/api/op", json={"op": "undo"}, headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 400 and "workbench page itself" in foreign.json()["error"]
    same = client.post("/api/op", json={"op": "undo"}, headers={"Origin": BASE})
    assert same.status_code == 200
    big = client.post("/api/op", content=b'{"op": "undo", "x": "' + b"x" * MAX_BODY + b'"}',
                      headers={"Content-Type": "application/json"})
    assert big.status_code == 400 and "larger than" in big.json()["error"]
    assert client.get("/api/state", headers={"Host": "evil.example"}).status_code == 421   # the shared guard
    assert client.get("/design/../__init__.py").status_code == 404


def test_a_shared_workbench_needs_its_token(hall):
    draft, designer = open_workbench(hall)
    client = TestClient(make_design_app(draft, designer, host="0.0.0.0", token="s3cret"),
                        base_url="http://192.168.1.5:8642")
    assert client.get("/api/state").status_code == 403
    assert client.post("/api/save", json={}).status_code == 403
    assert client.get("/?token=s3cret").status_code == 200             # then the cookie carries it
    assert client.get("/api/state").status_code == 200


def test_print_preview_and_pdf_are_made_in_memory(hall):
    client = client_for(hall)
    for paper in ("a4", "letter"):
        png = client.get(f"/preview.png?paper={paper}")
        assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    a4, letter = (client.get(f"/preview.png?paper={p}").content for p in ("a4", "letter"))
    assert a4 != letter
    pdf = client.get("/sheet.pdf?paper=letter")
    assert pdf.status_code == 200 and pdf.content[:5] == b"%PDF-"
    assert 'filename="hall.pdf"' in pdf.headers["content-disposition"]
    assert client.get("/preview.png?paper=a3").status_code == 400
    assert sorted(p.name for p in hall.parent.iterdir()) == ["hall.yaml"]


def test_a_map_with_format_errors_has_no_preview_but_a_reason(tmp_path):
    client = client_for(tmp_path / "new.yaml", (5, 5))
    post(client, "/api/op", {"op": "paint", "cells": ["A1"], "symbol": "A"})
    post(client, "/api/op", {"op": "paint", "cells": ["A1"], "symbol": "#"})      # zone A unused: a format error
    answer = client.get("/preview.png")
    assert answer.status_code == 409 and "format errors" in answer.json()["error"]


def wait_playtest(client) -> dict:
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        status = client.get("/api/playtest").json()
        if not status["running"]:
            return status
        time.sleep(0.1)
    raise AssertionError("the playtest did not finish")


def test_playtest_in_the_background_with_progress_and_comparison(hall):
    client = client_for(hall)
    post(client, "/api/op", {"op": "items", "cell": "C4", "items": ["potion"]})
    started = post(client, "/api/playtest", {"games": 500})
    assert started.status_code == 200 and started.json()["running"]
    status = wait_playtest(client)
    assert status["error"] is None and status["done"] == status["total"] == 1500    # draft, saved, base
    result = status["result"]
    assert result["draft"]["games"] == result["saved"]["games"] == 500
    assert "verdict" in result["comparison"]
    assert post(client, "/api/playtest", {"games": 7}).status_code == 400


def test_a_playtest_of_a_broken_map_says_why(tmp_path):
    client = client_for(tmp_path / "new.yaml", (5, 5))
    post(client, "/api/playtest", {"games": 500})
    status = wait_playtest(client)
    assert status["result"] is None and "fix them to playtest" in status["error"]


@pytest.mark.parametrize("args, message", [
    ([], "give the map to edit, or --new"),
    (["missing.yaml"], "no such file (give --new WxH"),
    (["--new", "2x2"], "is not a grid from 5x5 to 26x26"),
    (["HALL", "--new", "7x7"], "exists already: open it without --new"),
])
def test_the_command_refuses_unusable_input_cleanly(hall, args, message):
    result = CliRunner().invoke(main, ["design", *[str(hall) if a == "HALL" else a for a in args], "--port", "0"])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output, result.output


def test_the_command_refuses_a_file_that_is_not_a_map(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text("sheetgen: 1\nkind: pack\ntitle: p\nitems: []\n")
    result = CliRunner().invoke(main, ["design", str(path), "--port", "0"])
    assert result.exit_code == 2 and "the workbench edits maps" in result.output, result.output


def test_a_built_in_name_is_not_edited_in_place(tmp_path):
    import os
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, ["design", "ancient-story", "--port", "0"])
    finally:
        os.chdir(here)
    assert result.exit_code == 2 and "sheetgen new map my-map --from ancient-story" in result.output, result.output


def test_the_command_serves_the_page_at_the_address_it_prints(hall):
    import os
    import subprocess
    import sys
    import urllib.request
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    server = subprocess.Popen([sys.executable, "-m", "sheetgen", "design", str(hall), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        first = server.stdout.readline()
        second = server.stdout.readline()
        assert first.startswith(f"designing {hall}"), first + second
        address = second.split()[1]
        assert address.startswith("http://127.0.0.1:") and "token" not in address   # loopback: no token
        state = json.loads(urllib.request.urlopen(address + "api/state", timeout=30).read())
        assert state["file"] == "hall.yaml" and state["loads"]
    finally:
        server.terminate()
        server.wait(20)


def test_a_playtest_plays_the_hero_chosen(hall):
    client = client_for(hall)
    assert 'value="kael"' in client.get("/").text
    post(client, "/api/playtest", {"games": 500, "hero": "kael"})
    status = wait_playtest(client)
    assert status["error"] is None and status["result"]["hero"] == "kael"
    assert "saved" not in status["result"]                         # nothing changed: nothing to compare
    assert post(client, "/api/playtest", {"games": 500, "hero": "conan"}).status_code == 400


def test_the_pdf_of_a_strangely_named_file_has_a_safe_name(tmp_path):
    path = tmp_path / 'carte "du\nsud" 地図.yaml'
    shutil.copy(DATA / "test-hall.yaml", path)
    pdf = client_for(path).get("/sheet.pdf")
    assert pdf.status_code == 200 and 'filename="carte-du-sud.pdf"' in pdf.headers["content-disposition"]


def test_findings_of_a_map_not_saved_yet_name_the_drafts_lines(tmp_path, hall):
    path = tmp_path / "fresh.yaml"
    client = client_for(path, new=(7, 7))
    state = post(client, "/api/op", {"op": "paint", "cells": ["A1", "B1"], "symbol": "A"}).json()
    wheres = [f["where"] for f in state["findings"]]
    assert wheres and all(w.startswith("line ") and "of the draft (not saved yet)" in w for w in wheres), wheres
    assert not any(str(path) in w or "fresh.yaml" in w for w in wheres)
    # once saved, the file's own lines
    state = post(client, "/api/save", {}).json()
    assert all(f["where"].startswith(str(path) + ":") for f in state["findings"])
    # a saved file's findings keep naming it
    saved = client_for(hall).get("/api/state").json()["findings"]
    assert saved and all(f["where"].startswith(str(hall) + ":") for f in saved)
