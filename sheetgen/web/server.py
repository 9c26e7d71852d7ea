"""The one local server behind `sheetgen play` and `sheetgen design`.

Both pages share its security: it listens on 127.0.0.1 unless told otherwise; whenever
it listens on another address (shared on a home network, say) every request must carry
a token (given once in the printed address, then kept in a cookie); the Host header is
checked against the addresses it serves, so a page elsewhere cannot reach it through
DNS rebinding. Every asset is served from sheetgen/web/static: nothing from the internet.
"""
from __future__ import annotations

import ipaddress
import secrets
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import quote, urlencode

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent / "static"
TOKEN_COOKIE = "sheetgen_token"
TOKEN_PARAM = "token"
DEFAULT_HOST = "127.0.0.1"
FRAME_POLICY = "frame-ancestors 'none'"     # no page of another site may show ours in a frame


def same_secret(given: str, expected: str) -> bool:
    """given == expected in constant time, for any text (compare_digest refuses non-ASCII str)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogateescape"),
                                  expected.encode("utf-8", "surrogateescape"))


def local_target(path: str, pairs: Sequence[tuple[str, str]]) -> str:
    """A redirect target on this host: path (never '//host' or '/\\host', which a browser
    reads as another host) and the query, both percent-encoded again."""
    path = "/" + path.lstrip("/\\")
    query = urlencode(list(pairs))
    return quote(path, safe="/:@!$&'()*+,;=-._~") + (f"?{query}" if query else "")


def is_loopback(host: str) -> bool:
    """127.0.0.1, ::1, localhost: only this machine can connect."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(18)


def token_for(host: str, token: str | None = None) -> str | None:
    """The token a server on HOST needs: the one given, else a new one when HOST is
    reachable from other machines, else none (loopback)."""
    if token:
        return token
    return None if is_loopback(host) else new_token()


class Guard:
    """ASGI middleware: the Host check and the token check of every HTTP request."""

    def __init__(self, app, *, token: str | None, hosts: Sequence[str]):
        self.app, self.token, self.hosts = app, token, {h.lower() for h in hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        send = _frame_protected(send)
        request = Request(scope)
        host = (request.headers.get("host") or "").lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if self.hosts and name.strip("[]") not in self.hosts:
            return await PlainTextResponse(f"unknown host {host!r}", status_code=421)(scope, receive, send)
        if self.token is not None:
            given = request.query_params.get(TOKEN_PARAM)
            if given is not None and same_secret(given, self.token):
                # first visit through the printed address: keep the token in a cookie and
                # drop it from the address bar (and from the browser's history)
                target = local_target(request.url.path, [(k, v) for k, v in request.query_params.multi_items()
                                                         if k != TOKEN_PARAM])
                response: Response = RedirectResponse(target, status_code=303)
                response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
                return await response(scope, receive, send)
            cookie = request.cookies.get(TOKEN_COOKIE, "")
            if not same_secret(cookie, self.token):
                return await PlainTextResponse(
                    "this sheetgen server needs its token: open the address it printed",
                    status_code=403)(scope, receive, send)
        return await self.app(scope, receive, send)


def _frame_protected(send):
    """send, adding CSP frame-ancestors 'none' (and X-Frame-Options for old browsers) to every
    response: the page's own policy is kept, the frame rule added to it."""
    async def protected(message):
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            names = [name.lower() for name, _ in headers]
            if b"content-security-policy" in names:
                at = names.index(b"content-security-policy")
                policy = headers[at][1]
                if b"frame-ancestors" not in policy:
                    headers[at] = (headers[at][0], policy.rstrip(b"; ") + b"; " + FRAME_POLICY.encode())
            else:
                headers.append((b"content-security-policy", FRAME_POLICY.encode()))
            if b"x-frame-options" not in names:
                headers.append((b"x-frame-options", b"DENY"))
            message = {**message, "headers": headers}
        await send(message)
    return protected


class BodyLimit:
    """ASGI middleware: a request body is read (up to LIMIT bytes) before the app sees it, and
    one past LIMIT is refused (413) whether it gave its Content-Length or came in chunks; the
    app then reads the body kept.  Refusing before the app runs means no app code is cut off
    halfway (an exception raised from receive() would reach the app's 500 handler first)."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                if not value.isdigit() or int(value) > self.limit:
                    return await self._refuse(scope, receive, send)
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None             # the client went away: nothing to answer
            body += message.get("body", b"")
            if len(body) > self.limit:
                return await self._refuse(scope, receive, send)
            if not message.get("more_body", False):
                break
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()      # after the body: the disconnect, when it comes
        return await self.app(scope, replay, send)

    async def _refuse(self, scope, receive, send):
        await PlainTextResponse(f"request body too large (at most {self.limit} bytes)",
                                status_code=413)(scope, receive, send)


def allowed_hosts(host: str) -> list[str]:
    """The names a browser may use for a server bound to HOST."""
    names = {host.lower(), "127.0.0.1", "localhost", "::1"}
    if not is_loopback(host):
        names.add(socket.gethostname().lower())
        if host in ("0.0.0.0", "::"):
            return []              # every address of this machine: the token guards it
    return sorted(names)


def make_app(routes: Sequence[BaseRoute], *, host: str = DEFAULT_HOST, token: str | None = None,
             lifespan: Callable | None = None, debug: bool = False, max_body: int | None = None) -> Starlette:
    """A Starlette app with ROUTES, the shared static files at /static and the guard (and,
    with max_body, the body limit)."""
    return Starlette(
        debug=debug,
        routes=[*routes, Mount("/static", app=StaticFiles(directory=STATIC), name="static")],
        middleware=[Middleware(Guard, token=token, hosts=allowed_hosts(host)),
                    *([Middleware(BodyLimit, limit=max_body)] if max_body is not None else [])],
        lifespan=lifespan,
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on HOST:PORT (PORT 0: a free one), so the address printed is the
    address served, and a taken port is a clean error before anything starts."""
    from ..errors import InputError
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto named: asyncio turns Nagle off (TCP_NODELAY) only on sockets whose proto is TCP, and
    # with Nagle on every response after a connection's first waited ~40 ms for a delayed ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}"
                         + (" (another server has it: try --port 0 for a free one)" if port else "")) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket, token: str | None = None, path: str = "/") -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = socket.gethostname()
    return f"http://{shown}:{port}{path}" + (f"?{TOKEN_PARAM}={token}" if token else "")


READ_TIMEOUT_S = 10.0       # a request's headers and body must arrive within this (a browser's take ms)
MAX_CONNECTIONS = 200       # open connections at once; one more is closed at once (the open-file limit is ~1,024)
SHUTDOWN_S = 3             # at Ctrl-C, requests still open after this are cut (a page's long poll waits 25 s)
KEEP_ALIVE_S = 5            # an idle connection between two requests


def guarded_protocol(read_timeout: float = READ_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS) -> type:
    """uvicorn's HTTP protocol with a read deadline and a connection limit: a request whose
    headers and body have not all arrived READ_TIMEOUT seconds after the connection (or the
    previous response) is cut off, so half-sent requests cannot hold the server's files
    forever; a connection past MAX_CONNECTIONS is closed as soon as it is made."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class Guarded(HttpToolsProtocol):
        _read_deadline = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._read_deadline = self.loop.call_later(read_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._read_deadline is not None:
                self._read_deadline.cancel()
                self._read_deadline = None

        def _too_slow(self) -> None:
            self._read_deadline = None
            cycle = self.cycle
            if cycle is not None and not cycle.more_body and not cycle.response_complete:
                return                  # the request is whole and being answered: not ours to cut
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

    return Guarded


def serve(app: Starlette, sock: socket.socket, *, log_level: str = "warning",
          read_timeout: float = READ_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS) -> None:
    """Serve APP on the bound socket until Ctrl-C (or SIGTERM), each request read within
    read_timeout seconds and at most max_connections open at once (guarded_protocol).

    The objects made so far (the app, its imports, anything it warmed) are frozen out of the
    garbage collector's sight first: a full collection then walks only what requests make, so
    it stops every request for a few milliseconds rather than tens."""
    import gc

    import uvicorn
    gc.collect()
    gc.freeze()
    config = uvicorn.Config(app, log_level=log_level, lifespan="on", http=guarded_protocol(read_timeout, max_connections),
                            timeout_keep_alive=KEEP_ALIVE_S, limit_concurrency=max_connections,
                            timeout_graceful_shutdown=SHUTDOWN_S)
    uvicorn.Server(config).run(sockets=[sock])


def die_with(parent: int) -> None:
    """Have the kernel kill this process when PARENT (the server that started it) dies (Linux:
    PR_SET_PDEATHSIG), so a SIGKILLed server leaves no helper process behind; elsewhere a watcher
    thread does it."""
    import os
    import signal
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:     # 1: PR_SET_PDEATHSIG
            raise OSError(ctypes.get_errno(), "prctl")
    except (OSError, AttributeError):
        import threading
        import time

        def watch():
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:     # the server died before the line above
        os._exit(0)
