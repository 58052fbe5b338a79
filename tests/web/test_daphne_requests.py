"""Daphne serves the app with Twisted's form parsing off (config/daphne_requests.py): a
form POST reaches Django whole, and Twisted no longer parses it first for nothing."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from daphne import http_protocol
from daphne import server as daphne_server
from twisted.internet.testing import StringTransport
from twisted.web import http

import config.asgi  # noqa: F401  (what daphne imports before it serves)
from config.daphne_requests import FormlessWebRequest, UnloggedHTTPFactory

# What daphne's HTTP factory is given of its server, as far as these tests reach.
DAPHNE = SimpleNamespace(protocol_connected=lambda request: None)


def _a_connection() -> http.HTTPChannel:
    """A connection to daphne, as its HTTP factory builds one."""
    protocol = http_protocol.HTTPFactory(DAPHNE).buildProtocol(("127.0.0.1", 0))
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


def _a_request() -> http.Request:
    channel = http.HTTPChannel()
    channel.makeConnection(StringTransport())
    return http.Request(channel)


def _started_factory(factory_class: type[http.HTTPFactory]) -> http.HTTPFactory:
    """An HTTP factory as daphne's server makes and starts one, whose log line is watched."""
    factory = factory_class(DAPHNE)
    factory.startFactory()  # Twisted's log file is set here

    def formatted(timestamp: str, request: http.Request) -> str:
        raise AssertionError("Twisted formatted an access log line")

    factory._logFormatter = formatted
    return factory


def test_daphne_serves_through_a_factory_that_makes_no_twisted_log_line() -> None:
    factory = _started_factory(daphne_server.HTTPFactory)
    try:
        factory.log(_a_request())  # what every finished request calls
    finally:
        factory.stopFactory()
    assert daphne_server.HTTPFactory is UnloggedHTTPFactory


def test_without_it_twisted_formats_a_line_for_every_request() -> None:
    factory = _started_factory(http_protocol.HTTPFactory)  # daphne's own (the control)
    try:
        with pytest.raises(AssertionError, match="access log line"):
            factory.log(_a_request())
    finally:
        factory.stopFactory()
