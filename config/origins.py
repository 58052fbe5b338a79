"""Websockets only from our own pages: the ``Origin`` must equal, scheme, host and port,
one of ``settings.SITE_ORIGINS`` or, with none configured, the socket's own origin (its
``Host`` header, over http for ws and https for wss, or as a trusted proxy's
``X-Forwarded-Proto`` says). Another site on the same host name but another port or
scheme cannot open a player's socket with the player's cookies.
"""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

from .clients import forwarded_proto, scope_header, scope_peer

Origin = tuple[str, str, int]  # (scheme, host, port)
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(text: str | None) -> Origin | None:
    """``scheme://host[:port]`` in a comparable form, or None if it is not one."""
    if not text:
        return None
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.username or parts.password or parts.query or parts.fragment:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def own_origin(scope: dict) -> Origin | None:
    """The origin of the page that would open this socket on this server."""
    host = scope_header(scope, "host")
    if not host:
        return None
    proto = forwarded_proto(scope_peer(scope), scope_header(scope, "x-forwarded-proto"))
    if proto is None:
        proto = "https" if scope.get("scheme") == "wss" else "http"
    return parse_origin(f"{proto}://{host}")


def allowed_origins(scope: dict) -> list[Origin]:
    configured = [parse_origin(o) for o in getattr(settings, "SITE_ORIGINS", ())]
    if configured:
        return [o for o in configured if o is not None]
    own = own_origin(scope)
    return [own] if own else []


def origin_allowed(scope: dict) -> bool:
    origin = parse_origin(scope_header(scope, "origin"))
    return origin is not None and origin in allowed_origins(scope)


class ExactOriginValidator:
    """ASGI middleware: a websocket whose Origin is not exactly one of ours is denied."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            denier = WebsocketDenier()
            return await denier(cast(Any, scope), receive, send)
        return await self.application(scope, receive, send)
