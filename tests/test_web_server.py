"""The local server shared by `sheetgen play` and `sheetgen design`: its guard (Host check,
token when shared), its static files and its socket (the address printed is the one served)."""
import pytest
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from sheetgen.errors import InputError
from sheetgen.web import server


def _app(**kw):
    return server.make_app([Route("/", lambda r: PlainTextResponse("page"))], **kw)


def test_loopback_needs_no_token_and_refuses_foreign_hosts():
    app = _app()
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/").text == "page"
    assert TestClient(app, base_url="http://localhost:8000").get("/").text == "page"
    # DNS rebinding: a page on another name that resolves to 127.0.0.1 must not reach the server
    assert TestClient(app, base_url="http://evil.example:8000").get("/").status_code == 421


def test_a_shared_server_needs_its_token_then_keeps_it_in_a_cookie():
    assert server.token_for("127.0.0.1") is None and server.token_for("0.0.0.0")
    client = TestClient(_app(host="0.0.0.0", token="s3cret"), base_url="http://192.168.1.5:8000")
    assert client.get("/").status_code == 403
    assert client.get("/?token=wrong").status_code == 403
    first = client.get("/?token=s3cret", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/"      # the token leaves the address bar
    assert "httponly" in first.headers["set-cookie"].lower()
    assert client.get("/").text == "page"                                     # the cookie carries it now
    assert client.get("/static/base.css").status_code == 200


def test_static_files_are_local_and_paths_stay_inside():
    client = TestClient(_app(), base_url="http://127.0.0.1:8000")
    assert "--tap" in client.get("/static/base.css").text
    assert client.get("/static/../server.py").status_code == 404


def test_bind_gives_the_address_served_and_a_taken_port_is_a_clean_error():
    sock = server.bind("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert server.address(sock) == f"http://127.0.0.1:{port}/"
        assert server.address(sock, "t") == f"http://127.0.0.1:{port}/?token=t"
        with pytest.raises(InputError, match=f"cannot listen on 127.0.0.1:{port}"):
            server.bind("127.0.0.1", port).close()
    finally:
        sock.close()


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("::1", True), ("localhost", True),
                                            ("0.0.0.0", False), ("192.168.1.5", False), ("example.org", False)])
def test_is_loopback(host, loopback):
    assert server.is_loopback(host) is loopback


def test_connections_of_the_bound_socket_send_without_delay():
    """Every connection the server accepts has Nagle off (TCP_NODELAY): with it on, a response
    written in two parts (headers, body) waited for the client's delayed ACK, ~40 ms a request
    after a connection's first.  asyncio sets it only on sockets whose proto says TCP."""
    import asyncio
    import socket

    sock = server.bind("127.0.0.1", 0)
    seen = []

    async def main():
        async def handler(reader, writer):
            seen.append(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()
        srv = await asyncio.start_server(handler, sock=sock)
        port = sock.getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await reader.read()
        writer.close()
        srv.close()
        await srv.wait_closed()
    asyncio.run(main())
    assert seen and seen[0] != 0
