"""One websocket per browser tab: it pushes (whole boards, or the areas of a board that
changed), and listens only for ``resync``. It joins the room's group and the group of its
audience; on (re)connect, and on ``resync``, it sends the whole current view, so a browser
that slept, lost its connection or missed a change shows the board as it is now.

Whole views are rendered by lobby.renders, once per viewer for all the room's sockets in
this process. Sockets are capped per room and per browser (lobby.limits): one over a cap
is closed with code 4429 and nothing is rendered for it."""

from __future__ import annotations

import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import limits, renders, views
from .realtime import audience_group, room_group

RESYNC = "resync"
RESYNC_EVERY = 0.5  # seconds; a page asks once every 1.5 s at most (socket.js)


class RoomConsumer(AsyncWebsocketConsumer):
    room_id: int | None = None
    resynced: float = float("-inf")  # when this socket last asked for the whole view
    audience: str | None = None
    caps: list[limits.Cap] | None = None  # what this socket is counted against, once admitted

    async def connect(self) -> None:
        """Accept first, then listen, then render. The handshake is answered before any
        work: daphne drops a websocket its application has not accepted within its connect
        timeout (5 s), and in a reconnect storm (a restart, hundreds of sockets back at
        once) the lookups and renders queued before the accept outran it, so every
        handshake was dropped and retried while its work was still done (bench/storm.py).
        A close code reaches the browser only after the handshake, too: 4404 (no room) and
        4429 (over a cap) tell the page to stop. Then listen first, render second: anything
        that changes after the socket joined its groups reaches it as a push, and the first
        view is rendered after that moment, so it is never older than what the groups
        carry."""
        await self.accept()
        code = self.scope["url_route"]["kwargs"]["code"]
        place = await self._place(code)
        if place is None:
            await self.close(code=4404)
            return
        self.room_id, audience = place
        caps = limits.socket_caps(self.room_id, self.scope)
        if not await limits.admit(caps):
            await self.close(code=limits.CLOSE_OVER_CAP)
            self.room_id = None
            return
        self.caps = caps
        await self.channel_layer.group_add(room_group(self.room_id), self.channel_name)
        await self.join_audience(audience)
        await self._send_view()

    async def disconnect(self, code: int) -> None:
        if self.caps is not None:
            caps, self.caps = self.caps, None
            await limits.release(caps)
        if self.room_id is None:
            return
        await self.channel_layer.group_discard(room_group(self.room_id), self.channel_name)
        if self.audience:
            group = audience_group(self.room_id, self.audience)
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The socket pushes; the one thing a browser may say is ``resync``: it missed a
        change that came as areas (socket.js), and gets the whole view again, at most once
        a half second (a page cannot make the server render for it faster than that; a
        page asks every 1.5 s at most). Anything else is ignored."""
        if text_data != RESYNC or self.room_id is None:
            return
        now = time.monotonic()
        if now - self.resynced < RESYNC_EVERY:
            return
        self.resynced = now
        await self._send_view()

    async def dispatch(self, message: dict) -> None:
        """A push is sent at once. channels first runs ``close_old_connections`` on its
        synchronous thread before every message, a hop to that thread and back for each
        push to each socket, queued behind the other sockets' database work; a push asks
        the database nothing. Every other message goes the usual way."""
        if message["type"] == "board.push":
            await self.board_push(message)
            return
        await super().dispatch(message)

    async def board_push(self, event: dict) -> None:
        await self.send(text_data=event["html"])

    async def lobby_changed(self, event: dict) -> None:
        """Re-render this socket's view (shared with the room's other sockets, lobby.renders):
        the room's pass moves it to its audience first."""
        await self._send_view()

    @property
    def session_key(self) -> str | None:
        session = self.scope.get("session")
        return session.session_key if session is not None else None

    async def _send_view(self) -> None:
        view = await renders.view_for(self)
        if view is None:  # the room is gone
            await self.close(code=4404)
            return
        html, audience = view
        await self.join_audience(audience)  # a seat changed meanwhile: a push follows
        await self.send(text_data=html)

    async def join_audience(self, audience: str) -> None:
        if audience == self.audience or self.room_id is None:
            return
        if self.audience:
            old = audience_group(self.room_id, self.audience)
            await self.channel_layer.group_discard(old, self.channel_name)
        await self.channel_layer.group_add(
            audience_group(self.room_id, audience), self.channel_name
        )
        self.audience = audience

    @database_sync_to_async
    def _place(self, code: str) -> tuple[int, str] | None:
        """The room and this socket's audience (who it is in the current game)."""
        room = views.ROOM.first(code[:32])
        if room is None:
            return None
        ctx = views.context_for(room, renders.identity_of_session(self.session_key))
        return room.pk, views.audience_of_viewer(ctx)
