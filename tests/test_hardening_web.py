"""No HTTP 500 where a 4xx belongs, and every page kept out of frames (issue 29, item 5).

The play and design servers through Starlette's TestClient with server exceptions
turned into responses (as a browser sees them): a non-ASCII form key, token or cookie;
a chunked body over the limit; a game id past SQLite's integers; a design operation
with a malformed value (refused whole: the draft is unchanged); a Content-Type that
only contains the expected one; the token redirect's query and host.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from sheetgen.cli import main
from sheetgen.web import server
from sheetgen.web.design import MAX_BODY as DESIGN_MAX_BODY
from sheetgen.web.design import make_design_app, open_workbench
from sheetgen.web.play import make_play_app
from sheetgen.web.play.app import MAX_BODY as PLAY_MAX_BODY

DATA = Path(__file__).parent / "data"
HALL = DATA / "foury_logs" / "test-hall.yaml"
TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"
KEY = "test-form-key"
LOCAL = "http://127.0.0.1:8765"


@pytest.fixture
def journal(tmp_path) -> Path:
    path = tmp_path / "j.sqlite"
    result = CliRunner().invoke(main, ["track", "new", "--map", str(HALL), "--traits", TRAITS, "--journal", str(path)])
    assert result.exit_code == 0, result.output
    return path


def play_client(journal: Path, **kw) -> TestClient:
    base = kw.pop("base_url", LOCAL)
    return TestClient(make_play_app(journal, form_key=KEY, **kw), base_url=base, raise_server_exceptions=False)


@pytest.fixture
def design(tmp_path):
    target = tmp_path / "hall.yaml"
    shutil.copy(DATA / "foury_maps" / "test-hall.yaml", target)
    draft, designer = open_workbench(target, None)
    client = TestClient(make_design_app(draft, designer), base_url="http://127.0.0.1:8642",
                        raise_server_exceptions=False)
    return draft, client


def chunks(total: int, size: int = 4096):
    """A body sent without Content-Length (chunked)."""
    def gen():
        left = total
        while left > 0:
            yield b"x" * min(size, left)
            left -= size
    return gen()


# -- the token, the form key, the cookie -----------------------------------------------------------

def test_a_non_ascii_form_key_is_refused_not_a_crash(journal):
    client = play_client(journal)
    res = client.post("/g/1/act", data={"key": "clé", "step": '{"entry": "C1:N"}'}, follow_redirects=False)
    assert res.status_code == 403


def test_a_non_ascii_token_or_cookie_is_refused_not_a_crash(journal):
    client = play_client(journal, host="0.0.0.0", token="tok", base_url="http://192.168.1.7:8765")
    assert client.get("/g/1?token=%C3%A9").status_code == 403
    res = client.get("/g/1", headers={"cookie": "sheetgen_token=\u00e9t\u00e9".encode("latin-1")})
    assert res.status_code == 403
    res = client.get("/g/1", headers={"cookie": "sheetgen_token=%C3%A9"})
    assert res.status_code == 403
    assert client.get("/g/1?token=tok", follow_redirects=False).status_code == 303


def _guarded(**kw) -> TestClient:
    async def page(request):
        return PlainTextResponse("page")
    app = server.make_app([Route("/{rest:path}", page)], host="0.0.0.0", token="tok")
    return TestClient(app, base_url="http://192.168.1.5:8000", raise_server_exceptions=False, **kw)


def test_the_token_redirect_keeps_the_query_encoded():
    res = _guarded().get("/g/1?token=tok&do=%7B%22move%22%3A%20%22C2%22%7D&x=a%26b%3Dc", follow_redirects=False)
    assert res.status_code == 303
    location = res.headers["location"]
    assert location == "/g/1?do=%7B%22move%22%3A+%22C2%22%7D&x=a%26b%3Dc"


@pytest.mark.parametrize("path", ["//evil.example/x", "/\\evil.example/x", "//evil.example", "/%2F%2Fevil.example"])
def test_the_token_redirect_never_leaves_the_host(path):
    res = _guarded().get(path + "?token=tok", follow_redirects=False)
    assert res.status_code == 303
    location = res.headers["location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\")), location


# -- bodies ----------------------------------------------------------------------------------------------

def test_a_chunked_play_body_over_the_limit_is_413(journal):
    client = play_client(journal)
    res = client.post("/g/1/act", content=chunks(PLAY_MAX_BODY + 10_000),
                      headers={"content-type": "application/x-www-form-urlencoded"})
    assert res.status_code == 413


def test_a_chunked_design_body_over_the_limit_is_refused_as_with_its_length(design):
    draft, client = design
    before = draft.text()
    chunked = client.post("/api/op", content=chunks(DESIGN_MAX_BODY + 10_000),
                          headers={"content-type": "application/json"})
    sized = client.post("/api/op", content=b"x" * (DESIGN_MAX_BODY + 1), headers={"content-type": "application/json"})
    assert chunked.status_code == sized.status_code == 400          # the workbench's JSON error, as before
    assert "larger than" in chunked.json()["error"] and "larger than" in sized.json()["error"]
    assert draft.text() == before


@pytest.mark.parametrize("kind", ["text/plain; x=application/json", "application/jsonp", "text/application/json"])
def test_the_design_content_type_is_matched_exactly(design, kind):
    draft, client = design
    before = draft.text()
    res = client.post("/api/op", content=json.dumps({"op": "wall", "cell": "D3", "side": "S"}),
                      headers={"content-type": kind})
    assert res.status_code == 400 and "Content-Type: application/json" in res.json()["error"]
    assert draft.text() == before
    ok = client.post("/api/op", content=json.dumps({"op": "wall", "cell": "D3", "side": "S"}),
                     headers={"content-type": "Application/JSON; charset=utf-8"})
    assert ok.status_code == 200


@pytest.mark.parametrize("kind", ["text/plain; x=application/x-www-form-urlencoded",
                                  "application/x-www-form-urlencodedX"])
def test_the_play_content_type_is_matched_exactly(journal, kind):
    client = play_client(journal)
    res = client.post("/g/1/act", content=f"key={KEY}&step=%22flee%22", headers={"content-type": kind})
    assert res.status_code == 415


# -- ids and operations ------------------------------------------------------------------------------

@pytest.mark.parametrize("gid", [10 ** 23, 2 ** 63, 10 ** 300])
def test_a_game_id_past_sqlites_integers_is_404(journal, gid):
    client = play_client(journal)
    assert client.get(f"/g/{gid}").status_code == 404
    assert client.get(f"/g/{gid}/sheet.pdf").status_code == 404
    res = client.post(f"/g/{gid}/act", data={"key": KEY, "step": '{"entry": "C1:N"}'}, follow_redirects=False)
    assert res.status_code == 404


@pytest.mark.parametrize("requirement", ["treasure", 7, ["treasure", 2], {"kind": "treasure", "count": "many"},
                                         {"kind": ["x"]}, {"kind": "treasure", "count": [1]}])
def test_a_malformed_zone_requirement_is_400_and_changes_nothing(design, requirement):
    draft, client = design
    before = draft.text()
    res = client.post("/api/op", json={"op": "zone", "letter": "A", "name": "Renamed", "requirement": requirement})
    assert res.status_code == 400, res.text
    assert "error" in res.json()
    assert draft.text() == before                      # the name was not changed either


# -- frames --------------------------------------------------------------------------------------------

def test_every_play_page_refuses_frames(journal):
    client = play_client(journal)
    for path in ("/", "/g/1", "/g/1/log.yaml", "/g/99", "/static/nothing.css"):
        res = client.get(path, follow_redirects=False)
        assert "frame-ancestors 'none'" in res.headers.get("content-security-policy", ""), (path, res.status_code)


def test_every_design_page_refuses_frames(design):
    _, client = design
    for path in ("/", "/api/state", "/nothing"):
        res = client.get(path)
        assert "frame-ancestors 'none'" in res.headers.get("content-security-policy", ""), (path, res.status_code)
    page = client.get("/").headers["content-security-policy"]
    assert "default-src 'self'" in page                # the page's own policy is kept
