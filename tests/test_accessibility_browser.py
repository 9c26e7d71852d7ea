"""The pages pass an automated accessibility check: axe-core (tests/vendor/axe-core, pinned) run
in Debian's chromium on the play page of each kind of game (Foury, Exploration map mode, a card
game and its join page), the design page and the docs' claims of size, at phone width (360 px)
and desktop width, and the review page of `sheetgen scan --review`; no finding of serious or
critical impact is allowed."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.definitions.registry import tracker_for
from sheetgen.tracker.journal import Journal
from tests.browser import SHOTS, browser, live_server  # noqa: F401  (pytest fixtures)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
HALL = Path(__file__).parent / "data" / "foury_logs" / "test-hall.yaml"
SIZES = [(360, 740), (1280, 900)]


def _findings(page) -> list[dict]:
    """axe's violations of serious or critical impact on the page now loaded."""
    page.execute_script(AXE.read_text(encoding="utf-8"))
    page.set_script_timeout(60)
    result = page.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations))"
        ".catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));")
    return [{"rule": v["id"], "impact": v["impact"], "help": v["help"],
             "where": [n.get("target") for n in v.get("nodes", [])][:5]}
            for v in result if v.get("impact") in ("serious", "critical")]


def _check(page, url: str, name: str, width: int) -> None:
    page.get(url)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.save_screenshot(str(SHOTS / f"a11y-{name}-{width}.png"))
    found = _findings(page)
    assert found == [], json.dumps(found, indent=1)


def _foury_journal(tmp_path) -> Path:
    journal = tmp_path / "foury.sqlite"
    res = CliRunner().invoke(main, ["track", "new", "--map", str(HALL), "--journal", str(journal),
                                    "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"])
    assert res.exit_code == 0, res.output
    return journal


@pytest.mark.parametrize("width, height", SIZES)
def test_the_foury_play_page(tmp_path, live_server, browser, width, height):  # noqa: F811
    from sheetgen.web.play import make_play_app
    _check(browser(width, height), live_server(make_play_app(_foury_journal(tmp_path)), "/g/1"), "foury", width)


@pytest.mark.parametrize("width, height", SIZES)
def test_the_exploration_play_page(tmp_path, live_server, browser, width, height):  # noqa: F811
    from sheetgen.web.play import make_play_app
    journal = tmp_path / "explore.sqlite"
    res = CliRunner().invoke(main, ["track", "new", "--ruleset", "exploration", "--journal", str(journal)])
    assert res.exit_code == 0, res.output
    _check(browser(width, height), live_server(make_play_app(journal), "/g/1"), "exploration", width)


@pytest.mark.parametrize("width, height", SIZES)
def test_a_card_game_page_and_its_join_page(tmp_path, live_server, browser, width, height):  # noqa: F811
    from sheetgen.web.play import make_play_app
    journal = tmp_path / "nav.sqlite"
    j = Journal(journal)
    gid = j.new_game("navigation", tracker_for("navigation").start(
        {"map": "nav-crypt", "hero": "Ada,Bo,Cy"}))
    j.close()
    base = live_server(make_play_app(journal), "")
    page = browser(width, height)
    _check(page, f"{base}/g/{gid}?as=Ada", "navigation", width)
    _check(page, f"{base}/g/{gid}/join", "join", width)


@pytest.mark.parametrize("width, height", SIZES)
def test_the_design_page(tmp_path, live_server, browser, width, height):  # noqa: F811
    import shutil

    from sheetgen.web.design import make_design_app, open_workbench
    path = tmp_path / "story.yaml"
    shutil.copy(Path(__file__).parent.parent / "layouts" / "foury" / "ancient-story.yaml", path)
    draft, designer = open_workbench(path)
    _check(browser(width, height), live_server(make_design_app(draft, designer)), "design", width)


def test_the_check_finds_what_it_should(tmp_path, live_server, browser):  # noqa: F811
    """The check can fail: a page with an unnamed button and an image without alt text."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    async def bad(request):
        return HTMLResponse("<!doctype html><html lang=en><head><title>t</title></head><body><main>"
                            "<button></button><img src='x.png'></main></body></html>")
    page = browser(360, 740)
    page.get(live_server(Starlette(routes=[Route("/", bad)])))
    rules = {f["rule"] for f in _findings(page)}
    assert {"button-name", "image-alt"} <= rules


@pytest.fixture(scope="module")
def review_photo(tmp_path_factory):
    pytest.importorskip("cv2", reason="the scan extra: pip install 'sheetgen[scan]'")
    from tests.review_photo import tampered_photo
    return tampered_photo(tmp_path_factory.mktemp("a11y-review"))


@pytest.mark.photo
@pytest.mark.parametrize("width, height", SIZES)
def test_the_scan_review_page(review_photo, tmp_path, live_server, browser, width, height):  # noqa: F811
    from sheetgen.web.review import make_review_app
    from tests.review_photo import WALL, review_session
    session = review_session(review_photo, tmp_path)
    session.flip(WALL)              # a region in the list, as the person's, and one uncertain-free sheet
    _check(browser(width, height), live_server(make_review_app(session)), "scan-review", width)
