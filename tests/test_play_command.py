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


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_page_drawing_processes_follow_the_journal_and_die_with_the_server(tmp_path):
    """--workers 2: two processes draw the pages; a game tapped over a new connection for every
    request is recorded once per tap, in order, and its page says so; a drawing process killed
    is replaced (the page is still drawn); killed with SIGKILL, the server leaves none behind."""
    import json
    import time
    from urllib.parse import urlencode

    import yaml

    from sheetgen.tracker.journal import Journal
    if not Path("/proc/self/task").exists():
        raise AssertionError("this test reads /proc (Linux)")
    journal = tmp_path / "j.sqlite"
    proc, out = _serve("--map", str(HALL), "--traits", "hearts=4,shields=2,weapon=2,clovers=2,shovels=2",
                       "--journal", str(journal), "--port", "0", "--workers", "2")
    try:
        workers = _children(proc.pid)          # started before the address is printed
        assert len(workers) == 2, workers
        port = urlsplit(re.search(r"playing at (\S+)\n", out).group(1)).port

        def request(method, path, body=None):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request(method, path, body, {"host": f"127.0.0.1:{port}",
                                              "content-type": "application/x-www-form-urlencoded"})
            res = conn.getresponse()
            data = res.read()
            conn.close()
            return res, data
        res, page = request("GET", "/g/1")
        key = re.search(rb'name="key" value="([^"]+)"', page).group(1).decode()
        assert request("POST", "/g/1/dice", urlencode({"key": key, "mode": "ask"}))[0].status == 303
        # the first round of a legal log, its dice written in
        first = yaml.safe_load((HALL.parent / "legal-round-a-then-c.yaml").read_text())["rounds"][0]
        steps = [{"entry": first["entry"]}] + [s for s in first["steps"] if not (isinstance(s, dict) and "sheet" in s)]
        for i, step in enumerate(steps[:10]):
            res, _ = request("POST", "/g/1/act", urlencode({"key": key, "step": json.dumps(step)}))
            assert res.status == 303, (i, step, res.status)
            assert request("GET", res.getheader("location"))[0].status == 200
        with Journal(journal) as j:
            assert j.steps(1) == steps[:10]
        assert json.loads(request("GET", "/g/1/state.json")[1])["steps"] == 10
        os.kill(workers[1], signal.SIGKILL)    # game 1 is drawn by the second (1 % 2)
        res, page = request("GET", "/g/1?told=10")
        assert res.status == 200 and b'id="told"' in page
        workers = [w for w in workers if _alive(w)] + [c for c in _children(proc.pid) if c not in workers]
        assert len([w for w in workers if _alive(w)]) == 2, workers
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(20)
    for _ in range(100):            # the kernel kills them with the server (PR_SET_PDEATHSIG)
        if not any(_alive(w) for w in workers):
            break
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "a page-drawing process outlived the server"
