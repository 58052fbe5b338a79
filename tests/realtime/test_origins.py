"""Websockets only from our own pages (issue 13, finding 5): the Origin must equal, scheme,
host and port, one of SITE_ORIGINS or, with none, the socket's own origin."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application
from tests.realtime.test_pushes import WAIT, run
from tests.web.rooms import seat_table

pytestmark = pytest.mark.django_db(transaction=True)


def _headers(host: bytes, origin: bytes | None, **extra: bytes) -> list:
    headers = [(b"host", host)]
    if origin is not None:
        headers.append((b"origin", origin))
    headers += [(name.replace("_", "-").encode(), value) for name, value in extra.items()]
    return headers


async def _try(code: str, headers: list, *, peer: str, scheme: str) -> bool:
    socket = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers)
    socket.scope["client"] = [peer, 50000]
    socket.scope["scheme"] = scheme
    connected, _ = await socket.connect(timeout=WAIT)
    if connected:
        await socket.disconnect()
    return connected


def _origin_accepted(
    code: str,
    host: bytes,
    origin: bytes | None,
    *,
    peer: str = "127.0.0.1",
    scheme: str = "ws",
    extra: dict[str, bytes] | None = None,
) -> bool:
    accepted = []

    async def scenario():
        headers = _headers(host, origin, **(extra or {}))
        accepted.append(await _try(code, headers, peer=peer, scheme=scheme))

    run(scenario)
    return accepted[0]


def test_another_port_on_the_same_host_is_refused():
    code = seat_table(2, start=False).room.code
    assert not _origin_accepted(code, b"localhost:8000", b"http://localhost:9999")
    assert not _origin_accepted(code, b"localhost:8000", b"https://localhost:8000")  # scheme
    assert not _origin_accepted(code, b"localhost:8000", b"http://localhost")  # port 80
    assert not _origin_accepted(code, b"localhost:8000", None)  # no Origin at all
    assert not _origin_accepted(code, b"localhost:8000", b"null")
    assert _origin_accepted(code, b"localhost:8000", b"http://localhost:8000")
    assert _origin_accepted(code, b"LocalHost:8000", b"http://localhost:8000")


def test_a_secure_socket_wants_an_https_page():
    code = seat_table(2, start=False).room.code
    assert _origin_accepted(code, b"example.org", b"https://example.org", scheme="wss")
    assert _origin_accepted(code, b"example.org", b"https://example.org:443", scheme="wss")
    assert not _origin_accepted(code, b"example.org", b"http://example.org", scheme="wss")


def test_only_a_trusted_proxy_says_the_page_was_https():
    code = seat_table(2, start=False).room.code
    tls = {"x_forwarded_proto": b"https"}
    with override_settings(TRUSTED_PROXIES=["10.0.0.1"]):
        assert _origin_accepted(
            code, b"example.org", b"https://example.org", peer="10.0.0.1", extra=tls
        )
        assert not _origin_accepted(
            code, b"example.org", b"https://example.org", peer="198.51.100.7", extra=tls
        )


def test_with_site_origins_only_those_are_accepted_whatever_the_host_header():
    code = seat_table(2, start=False).room.code
    with override_settings(SITE_ORIGINS=["https://constellate.example.org"]):
        site = b"https://constellate.example.org"
        assert _origin_accepted(code, b"constellate.example.org", site)
        assert _origin_accepted(code, b"127.0.0.1:8001", site)  # behind the proxy
        assert not _origin_accepted(code, b"evil.example", b"http://evil.example")
        assert not _origin_accepted(
            code, b"constellate.example.org", b"https://constellate.example.org:8443"
        )
