"""Pages driven in a real browser: Debian's chromium through its chromium-driver and selenium
(no browser downloads), and a live sheetgen server on 127.0.0.1 in a thread.

    from tests.browser import browser, live_server      # noqa: F401  (pytest fixtures)

    def test_page(live_server, browser):
        url = live_server(make_app_somehow())          # a Starlette app -> its address
        page = browser(360, 740)                       # a phone-sized window (or 1280, 900)
        page.get(url)
        ...
        page.save_screenshot(str(SHOTS / "name.png"))

Without chromium or its driver the tests that use `browser` skip and say what to install
(.ci/run installs both); everything else runs.
"""
from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
# screenshots the browser tests save, to look at (not compared: fonts differ between machines)
SHOTS = Path(__file__).resolve().parent.parent / "output" / "screenshots"


@pytest.fixture
def live_server():
    """live_server(app) -> 'http://127.0.0.1:PORT': serves APP in a thread until the test ends."""
    import uvicorn

    from sheetgen.web.server import bind
    servers = []

    def start(app, path: str = "/") -> str:
        sock = bind("127.0.0.1", 0)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        servers.append((server, thread, sock))
        return f"http://127.0.0.1:{sock.getsockname()[1]}{path}"

    yield start
    for server, thread, sock in servers:
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture
def browser(tmp_path):
    """browser(width, height) -> a headless chromium WebDriver of that window size."""
    if not (CHROMIUM and DRIVER):
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver; "
                    ".ci/run installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    drivers = []

    def open_window(width: int = 1280, height: int = 900):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / f'chromium-{len(drivers)}'}",
                     f"--window-size={width},{height}", "--force-device-scale-factor=1"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
        driver.set_window_size(width, height)
        driver.implicitly_wait(0)
        drivers.append(driver)
        return driver

    yield open_window
    for driver in drivers:
        driver.quit()


def gone(element):
    """A wait condition: ELEMENT has left the page (the next page has loaded).  Selenium's
    staleness_of lets chromium's "Node with given id does not belong to the document",
    raised mid-navigation, escape as an error; here it means gone too."""
    from selenium.common.exceptions import WebDriverException

    def check(_driver) -> bool:
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True
    return check
