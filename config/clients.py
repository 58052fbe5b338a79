"""Who the client is, behind the reverse proxies we trust (settings.TRUSTED_PROXIES).

A request that comes straight from a browser is that browser. A request from one of our
proxies carries the client in ``X-Forwarded-For``, each proxy appending the address it
was reached from: the client is the rightmost address in that chain that is not one of our
proxies (anything left of it was written by the client itself and proves nothing). Anyone
else's ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are ignored, so a browser cannot
pick the address its rate limits are counted on, nor claim it came over HTTPS.

The same function serves HTTP (``RealClientMiddleware``, first in MIDDLEWARE, which puts
the answer in ``REMOTE_ADDR``) and websockets (``scope_client``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)


def _trusted_networks() -> tuple[Network, ...]:
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))


def _ip(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not text:
        return None
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[::1]:port"
        text = text[1 : text.index("]")]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped  # "::ffff:10.0.0.1" is 10.0.0.1
    return address


def is_trusted_proxy(peer: str | None) -> bool:
    address = _ip(peer)
    return address is not None and any(address in net for net in _trusted_networks())


def client_address(peer: str | None, forwarded_for: str | None) -> str | None:
    """The client's address, given the peer that connected and its X-Forwarded-For."""
    if not forwarded_for or not is_trusted_proxy(peer):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",")]
    nearest = peer
    for hop in reversed(hops):
        address = _ip(hop)
        if address is None:  # garbage beyond our proxies: the last hop we trust vouches
            return nearest
        if not is_trusted_proxy(hop):
            return str(address)
        nearest = str(address)
    return nearest  # a chain of our own proxies only


def forwarded_proto(peer: str | None, header: str | None) -> str | None:
    """``X-Forwarded-Proto`` ("http" or "https") when a trusted proxy sent it, else None."""
    if not header or not is_trusted_proxy(peer):
        return None
    proto = header.split(",")[0].strip().lower()
    return proto if proto in ("http", "https") else None


def _header(scope: Mapping[str, Any], name: bytes) -> str | None:
    values = [v for k, v in scope.get("headers", ()) if k.lower() == name]
    return b",".join(values).decode("latin-1") if values else None


def scope_peer(scope: Mapping[str, Any]) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


def scope_client(scope: Mapping[str, Any]) -> str | None:
    """A websocket's (or any ASGI scope's) real client address."""
    return client_address(scope_peer(scope), _header(scope, b"x-forwarded-for"))


def scope_header(scope: Mapping[str, Any], name: str) -> str | None:
    return _header(scope, name.lower().encode("latin-1"))


class RealClientMiddleware:
    """First in MIDDLEWARE: ``REMOTE_ADDR`` becomes the real client; forwarded headers from
    anyone but a trusted proxy are dropped before anything else reads them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        peer = meta.get("REMOTE_ADDR")
        if is_trusted_proxy(peer):
            meta["REMOTE_ADDR"] = client_address(peer, meta.get("HTTP_X_FORWARDED_FOR"))
        else:
            _drop(meta, ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO"))
        return self.get_response(request)


def _drop(meta: dict, names: Iterable[str]) -> None:
    for name in names:
        meta.pop(name, None)
