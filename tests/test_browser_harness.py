"""The browser harness itself: chromium opens a page of a live sheetgen server at phone size."""
import pytest
from starlette.responses import HTMLResponse
from starlette.routing import Route

from sheetgen.web.server import make_app
from tests.browser import SHOTS, browser, live_server  # noqa: F401


def test_chromium_opens_a_page_of_the_live_server(live_server, browser):
    page_html = ('<!doctype html><html><head><meta name="viewport" content="width=device-width">'
                 '<link rel="stylesheet" href="/static/base.css"></head>'
                 '<body><button id="b" onclick="this.textContent=\'pressed\'">press</button></body></html>')
    url = live_server(make_app([Route("/", lambda r: HTMLResponse(page_html))]))
    page = browser(360, 740)
    page.get(url)
    button = page.find_element("id", "b")
    assert button.size["height"] >= 33          # 9 mm at 96 css px per inch is 34 px
    button.click()
    assert button.text == "pressed"
    assert page.execute_script("return window.innerWidth") == 360


# the fast lane leaves these out (README): a real chromium per test
pytestmark = pytest.mark.browser
