"""`sheetgen play` as a process: the address it prints is the one served; shared on the network
it prints a URL with a token and its QR code, and refuses requests without the token."""
import http.client
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from click.testing import CliRunner

from sheetgen.cli import main

ROOT = Path(__file__).resolve().parent.parent
HALL = Path(__file__).parent / "data" / "foury_logs" / "test-hall.yaml"


def _serve(*args):
    proc = subprocess.Popen([sys.executable, "-m", "sheetgen", "play", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("Ctrl-C stops"):
            return proc, "".join(lines)
    proc.kill()
    raise AssertionError("the server printed no address:\n" + "".join(lines))


def _get(url, path=None, cookie=None):
    u = urlsplit(url)
    conn = http.client.HTTPConnection("127.0.0.1", u.port, timeout=30)
    conn.request("GET", path or (u.path + (f"?{u.query}" if u.query else "")),
                 headers={"host": f"127.0.0.1:{u.port}", **({"cookie": cookie} if cookie else {})})
    res = conn.getresponse()
    res.read()
    conn.close()
    return res


def test_a_new_game_served_on_loopback(tmp_path):
    journal = tmp_path / "j.sqlite"
    proc, out = _serve("--map", str(HALL), "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2",
                       "--journal", str(journal), "--port", "0")
    try:
        assert "game 1 started in" in out
        url = re.search(r"playing at (http://127\.0\.0\.1:\d+/g/1)\n", out).group(1)
        assert "token" not in url
        assert _get(url).status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)


def test_shared_on_the_network_it_needs_the_token(tmp_path):
    journal = tmp_path / "j.sqlite"
    assert CliRunner().invoke(main, ["track", "new", "--map", str(HALL), "--journal", str(journal), "--traits",
                                     "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"]).exit_code == 0
    proc, out = _serve("--journal", str(journal), "--port", "0", "--host", "0.0.0.0")
    try:
        url = re.search(r"playing at (http://\S+/g/1\?token=\S+)\n", out).group(1)
        assert "share it only with your own phone" in out
        assert out.count("\u2588") + out.count("\u2580") + out.count("\u2584") > 50      # the QR code's blocks
        path = urlsplit(url).path
        assert _get(url, path).status == 403                                # no token: refused
        first = _get(url)                                                   # the printed address
        assert first.status == 303
        cookie = first.getheader("set-cookie").split(";")[0]
        assert _get(url, path, cookie).status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
