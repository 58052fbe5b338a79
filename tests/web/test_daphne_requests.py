"""Daphne serves the app with Twisted's form parsing off (config/daphne_requests.py): a
form POST reaches Django whole, and Twisted no longer parses it first for nothing."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from daphne import http_protocol
from twisted.internet.testing import StringTransport
from twisted.web import http

import config.asgi  # noqa: F401  (what daphne imports before it serves)
from config.daphne_requests import FormlessWebRequest


def _a_connection() -> http.HTTPChannel:
    """A connection to daphne, as its HTTP factory builds one."""
    server = SimpleNamespace(protocol_connected=lambda request: None)
    protocol = http_protocol.HTTPFactory(server).buildProtocol(("127.0.0.1", 0))
    protocol.makeConnection(StringTransport())
    return protocol


def test_daphne_builds_its_requests_without_form_parsing() -> None:
    assert _a_connection().requestFactory is FormlessWebRequest


def test_a_form_post_is_handed_on_unparsed_with_its_body_intact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def not_parsed(line: bytes) -> bytes:
        raise AssertionError("Twisted parsed the form's content type")

    handed_on: list[tuple[dict, bytes]] = []
    monkeypatch.setattr(http, "_parseContentType", not_parsed)
    monkeypatch.setattr(
        FormlessWebRequest, "process", lambda r: handed_on.append((r.args, r.content.read()))
    )
    body = b"csrfmiddlewaretoken=abc&card=12"
    _a_connection().dataReceived(
        b"POST /r/abc/play/touch HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    assert handed_on == [({}, body)]
