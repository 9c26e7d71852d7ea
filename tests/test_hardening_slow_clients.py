"""The local server under slow and many clients (issue 29, item 6), on 127.0.0.1.

A real uvicorn server (a subprocess, with a short read deadline for the test) and a
bounded number of raw sockets: half-sent requests are cut off by the read deadline
while a whole request is still answered; a connection past the limit is closed at
once.  Every wait is bounded (socket timeouts), and the server is stopped at the end.
"""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVER = """
import sys
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from sheetgen.web import server

async def page(request):
    return PlainTextResponse("page")

async def echo(request):
    return PlainTextResponse(str(len(await request.body())))

sock = server.bind("127.0.0.1", 0)
print(sock.getsockname()[1], flush=True)
server.serve(server.make_app([Route("/", page), Route("/echo", echo, methods=["POST"])]), sock, read_timeout=float(sys.argv[1]),
             max_connections=int(sys.argv[2]))
"""
HALF = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "          # never finished
WHOLE = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


@pytest.fixture
def start():
    procs = []

    def run(read_timeout: float, max_connections: int) -> int:
        proc = subprocess.Popen([sys.executable, "-c", SERVER, str(read_timeout), str(max_connections)],
                                stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        procs.append(proc)
        return int(proc.stdout.readline())
    yield run
    for proc in procs:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=15)
    s.settimeout(15)                   # every wait below is bounded by this
    return s


def answer(port: int) -> bytes:
    with connect(port) as s:
        s.sendall(WHOLE)
        data = b""
        while chunk := s.recv(4096):
            data += chunk
        return data


def closed_by_server(s: socket.socket) -> bool:
    try:
        return s.recv(4096) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


@contextlib.contextmanager
def half_sent(port: int, n: int) -> Iterator[list[socket.socket]]:
    """N connections, each holding a request it never finishes; closed on the way out."""
    held: list[socket.socket] = []
    try:
        for _ in range(n):
            held.append(connect(port))
            held[-1].sendall(HALF)
        yield held
    finally:
        for s in held:
            s.close()


def test_half_sent_requests_are_cut_off_and_others_still_answered(start):
    port = start(read_timeout=1.0, max_connections=50)
    with half_sent(port, 20) as slow:
        assert answer(port).startswith(b"HTTP/1.1 200")    # while the slow ones are held
        assert all(closed_by_server(s) for s in slow)      # each cut off by the read deadline
        assert answer(port).startswith(b"HTTP/1.1 200")


def test_a_slow_body_is_cut_off_too(start):
    port = start(read_timeout=1.0, max_connections=50)
    with connect(port) as s:
        s.sendall(b"POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc")
        assert closed_by_server(s)                     # the app waited for the body; the deadline ended it
    with connect(port) as s:                           # a whole body is answered
        s.sendall(b"POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc")
        assert s.recv(4096).startswith(b"HTTP/1.1 200")


def test_a_connection_past_the_limit_is_closed_at_once(start):
    port = start(read_timeout=60.0, max_connections=8)
    with half_sent(port, 8):
        with connect(port) as extra:
            try:
                extra.sendall(WHOLE)
            except (BrokenPipeError, ConnectionResetError):
                pass
            assert closed_by_server(extra)             # long before the 60 s deadline of the held ones
    assert answer(port).startswith(b"HTTP/1.1 200")    # the held ones gone, the server answers again
