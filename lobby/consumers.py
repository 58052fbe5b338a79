"""One websocket per browser tab: it only pushes. It joins the room's group and the group
of its audience; on (re)connect it sends the whole current view, so a browser that slept
or lost its connection shows the board as it is now.

Sockets are capped per room and per browser (lobby.limits): one over a cap is closed with
code 4429 and nothing is rendered for it."""

from __future__ import annotations

from importlib import import_module

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from . import limits, views
from .models import Room
from .realtime import audience_group, room_group

SessionStore = import_module(settings.SESSION_ENGINE).SessionStore


class RoomConsumer(AsyncWebsocketConsumer):
    room_id: int | None = None
    audience: str | None = None
    caps: list[limits.Cap] | None = None  # what this socket is counted against, once admitted

    async def connect(self) -> None:
        """Listen first, render second: anything that changes after the socket joined its
        groups reaches it as a push, and the first view is rendered after that moment,
        so it is never older than what the groups carry."""
        code = self.scope["url_route"]["kwargs"]["code"]
        place = await self._place(code)
        if place is None:
            await self.close(code=4404)
            return
        self.room_id, audience = place
        caps = limits.socket_caps(self.room_id, self.scope)
        if not await limits.admit(caps):
            await self.accept()  # a close code reaches the browser only after the handshake
            await self.close(code=limits.CLOSE_OVER_CAP)
            self.room_id = None
            return
        self.caps = caps
        await self.channel_layer.group_add(room_group(self.room_id), self.channel_name)
        await self._join_audience(audience)
        await self.accept()
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
        """The socket only pushes; anything a browser sends is ignored."""

    async def board_push(self, event: dict) -> None:
        await self.send(text_data=event["html"])

    async def lobby_changed(self, event: dict) -> None:
        place = await self._place(None)
        if place is not None:
            await self._join_audience(place[1])
            await self._send_view()

    async def _send_view(self) -> None:
        html, audience = await self._render()
        await self._join_audience(audience)  # a seat changed meanwhile: a push follows
        await self.send(text_data=html)

    async def _join_audience(self, audience: str) -> None:
        if audience == self.audience:
            return
        if self.audience:
            old = audience_group(self.room_id, self.audience)
            await self.channel_layer.group_discard(old, self.channel_name)
        await self.channel_layer.group_add(
            audience_group(self.room_id, audience), self.channel_name
        )
        self.audience = audience

    def _identity(self) -> str | None:
        """Read afresh each time: the browser may have picked its name after connecting."""
        session = self.scope.get("session")
        key = session.session_key if session is not None else None
        if not key:
            return None
        return SessionStore(session_key=key).get(views.IDENTITY)

    def _context(self, code: str | None) -> views.RoomContext | None:
        query = Room.objects.select_related("game")
        room = query.filter(code=code[:32]).first() if code else query.get(pk=self.room_id)
        return None if room is None else views.context_for(room, self._identity())

    @database_sync_to_async
    def _place(self, code: str | None) -> tuple[int, str] | None:
        """The room and this socket's audience (who it is in the current game)."""
        ctx = self._context(code)
        return None if ctx is None else (ctx.room.pk, views.audience_of_viewer(ctx))

    @database_sync_to_async
    def _render(self) -> tuple[str, str]:
        """Everything this socket shows, rendered now, and the audience it was for."""
        ctx = self._context(None)
        board, audience = views.board_html(ctx, oob=True)
        return views.render_lobby(ctx, oob=True) + board, audience or "public"
