"""A room's socket reads its browser's session (its key, on connecting) and never writes
one: channels' ``SessionMiddleware`` also wraps the socket's ``send`` to save a changed
session on an ``http.response.start``, a message a websocket never sends, and that wrapper
ran for every push to every socket (two lazy-object reads and a check a push; side by side
its removal saved less than the bench's noise, docs/performance.md). Here the scope gets
the same session as channels gives it, and ``send`` is the server's own."""

from __future__ import annotations

from typing import Any

from channels.sessions import CookieMiddleware, InstanceSessionWrapper


class SocketSessionMiddleware:
    """``scope["session"]`` as channels' ``SessionMiddleware`` sets it (a lazy store read
    from the session cookie), with the inner application given the server's ``send``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_session_stack(inner: Any) -> CookieMiddleware:
    """Cookies, then the session: what ``SessionMiddlewareStack`` does, for sockets."""
    return CookieMiddleware(SocketSessionMiddleware(inner))
