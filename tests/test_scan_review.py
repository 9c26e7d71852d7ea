"""`sheetgen scan PHOTO --review`: the session (a tap flips a region, the check runs again, the
corrections saved in the sheetscan YAML as a person's), the review page's server (its form key,
Origin, body limit and headers, as the play page's) and the command end to end (a server started,
a tap posted, Ctrl-C, the corrections counted).  The photo: the corpus's legal game on the test
hall with a wall nobody explains (A4:E), made in the test."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

cv2 = pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")
pytest.importorskip("starlette", reason="the web extra: pip install 'sheetgen[web]'")

from click.testing import CliRunner                                  # noqa: E402

from sheetgen.cli import main                                        # noqa: E402
from sheetgen.scan.review import ReviewSession, next_value, taps_between, taps_needed   # noqa: E402
from tests.review_photo import HALL, LEGAL, WALL, review_session, tampered_photo        # noqa: E402

pytestmark = pytest.mark.photo


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> Path:
    return tampered_photo(tmp_path_factory.mktemp("review"))


def session_of(photo: Path, tmp_path: Path, record: str | None = LEGAL) -> ReviewSession:
    return review_session(photo, tmp_path, record)


def test_a_tap_steps_through_the_readings_of_its_kind():
    assert [next_value("box", v) for v in ("empty", "crossed", "filled")] == ["crossed", "filled", "empty"]
    assert next_value("line", "marked") == "empty" and next_value("fill", "empty") == "filled"
    assert taps_between("box", "filled", "crossed") == 2 and taps_between("box", "crossed", "crossed") == 0
    assert taps_between("dot", "empty", "marked") == 1


def test_a_flip_runs_the_check_again_and_is_saved_as_a_persons(photo, tmp_path):
    s = session_of(photo, tmp_path)
    assert s.summary()["verdict"] == "not consistent"
    assert any("A4:E" in d for d in s.summary()["differences"])
    assert s.flip(WALL) == "empty"
    s.save()
    summary = s.summary()
    assert summary["verdict"] == "consistent", summary
    assert summary["corrections"] == 1
    data = yaml.safe_load(s.yaml_path.read_text(encoding="utf-8"))
    assert data["kind"] == "sheetscan" and data["verdict"] == "consistent"
    assert data["corrections"] == [{"id": WALL, "read": "marked", "now": "empty", "by": "person"}]
    region = next(r for r in data["regions"] if r["id"] == WALL)
    assert region["reading"] == "empty" and region["by"] == "person"
    assert "1 corrected by a person" in s.yaml_path.read_text(encoding="utf-8").splitlines()[0]
    # tapped again: back to what was read, no correction left, the difference back
    s.flip(WALL)
    assert s.summary()["corrections"] == 0 and s.summary()["verdict"] == "not consistent"
    s.save()
    assert "corrections" not in yaml.safe_load(s.yaml_path.read_text(encoding="utf-8"))


def _doubted(s: ReviewSession) -> str:
    """A region the photo shows plainly, made one the reader doubts (confidence 0.3) in the session,
    as a faint pencil would leave it: its reading unchanged."""
    from sheetgen.scan.contract import RegionReading
    rid = next(rid for rid, r in sorted(s.result.readings.items())
               if not r.hidden and not r.unreadable and rid != WALL and r.region.role == "visited")
    r = s.result.readings[rid]
    s.result.readings[rid] = s.original[rid] = RegionReading(r.region, r.value, 0.3, r.score, r.visible)
    return rid


def test_a_person_confirms_a_doubted_reading_and_the_verdict_rests_on_their_word(photo, tmp_path):
    s = session_of(photo, tmp_path)
    rid = _doubted(s)
    s.flip(WALL)
    s.recheck()
    assert s.summary()["verdict"] == "unconfirmed"              # the rules hold as read, one doubt left
    value = s.result.readings[rid].value
    assert s.confirm(rid) == value and s.result.readings[rid].value == value
    s.save()
    summary = s.summary()
    assert summary["verdict"] == "consistent" and summary["confirmed"] == 1 and summary["corrections"] == 1
    data = yaml.safe_load(s.yaml_path.read_text(encoding="utf-8"))
    assert data["verdict"] == "consistent" and data["confirmed"] == [rid] and "to_check" not in data
    assert next(r for r in data["regions"] if r["id"] == rid)["by"] == "person"
    assert "1 confirmed by a person" in s.yaml_path.read_text(encoding="utf-8").splitlines()[0]
    # a flip after the confirmation: the person's word is the new reading; flipped back, the doubt returns
    s.flip(rid)
    assert s.result.confirmed == [] and s.summary()["corrections"] == 2
    s.flip(rid)
    assert s.summary()["verdict"] == "unconfirmed" and s.summary()["corrections"] == 1
    with pytest.raises(KeyError):
        s.confirm("no-such-region")


def test_the_page_offers_to_confirm_a_doubted_reading(photo, tmp_path):
    from starlette.testclient import TestClient

    from sheetgen.web.review import make_review_app
    s = session_of(photo, tmp_path)
    rid = _doubted(s)
    client = TestClient(make_review_app(s, form_key="k"), base_url="http://127.0.0.1")
    number = next(i for i, r in enumerate(s.regions()) if r["id"] == rid)
    page = client.get("/").text
    assert f'id="r{number}" class="uncertain"' in page and 'action="/confirm"' in page
    assert client.post("/confirm", data={"n": number}).status_code == 403                 # no form key
    assert client.post("/confirm", data={"key": "k", "n": "99999"}).status_code == 400
    assert client.post("/confirm", data={"key": "k", "n": number}, follow_redirects=False).status_code == 303
    assert f'id="r{number}" class="corrected"' in client.get("/").text     # listed, as the person's
    assert client.get("/state.json").json()["confirmed"] == 1
    assert yaml.safe_load((tmp_path / "tampered.sheetscan.yaml").read_text(encoding="utf-8"))["confirmed"] == [rid]


def test_the_page_says_what_the_rules_find_were_a_doubted_region_read_otherwise(photo, tmp_path):
    from starlette.testclient import TestClient

    from sheetgen.web.review import make_review_app
    s = session_of(photo, tmp_path, record=None)
    rid = _doubted(s)
    s.result.reread(dict(s.result.readings))            # the verdict worked out again with the doubt
    waits = {r.region.id for r in s.result.unsure()}
    assert rid in waits
    said = s.otherwise([rid])[rid]
    other = next_value("dot", s.result.readings[rid].value)
    assert said.startswith(f"if {other}: ")
    # the tampered wall breaks a rule as read: a reading that breaks none anew does not say they hold
    assert s.result.violations and "the rules still hold" not in said
    sure = next(r for r, reading in s.result.readings.items() if r not in waits and not reading.uncertain)
    assert s.otherwise([sure]) == {}                    # only what the verdict waits on
    page = TestClient(make_review_app(s, form_key="k"), base_url="http://127.0.0.1").get("/").text
    from markupsafe import escape
    assert f'<span class="otherwise">{escape(said)}</span>' in page


def test_the_page_lists_the_uncertain_first_in_an_order_a_tap_does_not_change(photo, tmp_path):
    s = session_of(photo, tmp_path, record=None)
    before = [r["id"] for r in s.regions()]
    flags = [r["uncertain"] for r in s.regions()]
    assert flags == sorted(flags, reverse=True)           # every uncertain one before every sure one
    s.flip(before[0])
    after = s.regions()
    assert [r["id"] for r in after] == before and after[0]["corrected"]
    assert s.crop_png(WALL)[:4] == b"\x89PNG" and s.photo_png()[:2] == b"\xff\xd8"


def test_taps_needed_counts_the_wrong_regions_and_those_listed_uncertain(photo, tmp_path):
    s = session_of(photo, tmp_path, record=None)
    truth = {rid: r.value for rid, r in s.result.readings.items() if not r.hidden}
    assert taps_needed(s.result, truth) == (0, 0, 0)
    truth[WALL] = "empty"
    truth["chest-round-1"] = {"crossed": "empty", "filled": "crossed", "empty": "filled"}[truth["chest-round-1"]]
    taps, listed, wrong = taps_needed(s.result, truth)
    assert (taps, wrong) == (3, 2) and listed <= taps


def test_the_review_server_guards_its_form_like_the_play_page(photo, tmp_path):
    from starlette.testclient import TestClient

    from sheetgen.web.review import make_review_app
    s = session_of(photo, tmp_path)
    client = TestClient(make_review_app(s, form_key="k"), base_url="http://127.0.0.1")
    page = client.get("/")
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert "Check these first" in page.text and f'data-n="{len(s.regions()) - 1}"' in page.text
    number = next(r["n"] for r in [dict(r, n=i) for i, r in enumerate(s.regions())] if r["id"] == WALL)
    assert client.post("/flip", data={"n": number}).status_code == 403                 # no form key
    assert client.post("/flip", data={"key": "k", "n": number},
                       headers={"origin": "http://elsewhere.example"}).status_code == 403
    assert client.post("/flip", data={"key": "k", "n": "99999"}).status_code == 400
    assert client.post("/flip", content=b"key=k&n=" + b"1" * 5000,
                       headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413
    done = client.post("/flip", data={"key": "k", "n": number}, follow_redirects=False)
    assert done.status_code == 303
    assert f'id="r{number}" class="corrected"' in client.get("/").text     # listed, as the person's
    state = client.get("/state.json").json()
    assert state["corrections"] == 1 and state["verdict"] == "consistent"
    assert "corrections:" in (tmp_path / "tampered.sheetscan.yaml").read_text(encoding="utf-8")
    assert client.get(f"/crop/{number}.png").headers["content-type"] == "image/png"
    assert client.get("/crop/99999.png").status_code == 404
    # not on this machine's names: refused (DNS rebinding)
    assert client.get("/", headers={"host": "evil.example"}).status_code == 421


def test_review_takes_one_photo(photo):
    result = CliRunner().invoke(main, ["scan", str(photo), str(photo), "--review", "--sheet", HALL])
    assert result.exit_code == 2 and "--review takes one photo, not 2" in result.output


def test_the_command_serves_the_review_and_counts_the_corrections(photo, tmp_path):
    """A real `sheetgen scan --review` process: the printed address serves the page, a tap is
    posted, Ctrl-C ends it, and it prints the corrected verdict with the corrections counted."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "sheetgen", "scan", str(photo), "--sheet", HALL, "--log", LEGAL,
                             "--review", "-o", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        line = ""
        deadline = time.monotonic() + 120
        while "reviewing" not in line:
            line = proc.stdout.readline()
            assert line or proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline
        url = re.search(r"(http://\S+)", line).group(1)
        assert url.startswith("http://127.0.0.1:")
        page = urllib.request.urlopen(url, timeout=60).read().decode()
        key = re.search(r'name="key" value="([^"]+)"', page).group(1)
        s = session_of(photo, tmp_path / "..", record=None)
        number = [r["id"] for r in s.regions()].index(WALL)
        urllib.request.urlopen(urllib.request.Request(url.rstrip("/") + "/flip", data=f"key={key}&n={number}".encode(),
                                                      method="POST"), timeout=60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert "1 correction by a person" in out and "corrected by a person: 1 region (wall-A4-E marked -> empty)" in out
    assert "  consistent" in out
    data = yaml.safe_load((tmp_path / "tampered.sheetscan.yaml").read_text(encoding="utf-8"))
    assert data["corrections"][0]["by"] == "person" and data["verdict"] == "consistent"
