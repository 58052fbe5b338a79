"""One websocket per browser tab: it pushes (whole boards, or the areas of a board that
changed), and listens only for ``resync``. It joins the room's group and the group of its
audience; on (re)connect, and on ``resync``, it sends the whole current view, so a browser
that slept, lost its connection or missed a change shows the board as it is now.

Whole views are rendered by lobby.renders, once per viewer for all the room's sockets in
this process. Sockets are capped per room and per browser (lobby.limits): one over a cap
is closed with code 4429 and nothing is rendered for it."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import cast

from asgiref.sync import SyncToAsync
from asgiref.typing import WebSocketReceiveEvent
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from config.http_threads import THREADS
from games.registry import game_type

from . import limits, renders, socket_actions, views
from .realtime import audience_group, room_group

log = logging.getLogger(__name__)

RESYNC = "resync"
RESYNC_EVERY = 0.5  # seconds; a page asks once every 1.5 s at most (socket.js)


class RoomConsumer(AsyncWebsocketConsumer):
    room_id: int | None = None
    kind: str | None = None  # the room's game (a room plays one kind all its life)
    resynced: float = float("-inf")  # when this socket last asked for the whole view
    audience: str | None = None
    caps: list[limits.Cap] | None = None  # what this socket is counted against, once admitted
    acted_since: float = float("-inf")  # this socket's window of actions began then
    acted: int = 0  # actions sent in that window
    identity: str | None = None  # the browser's, from its session, once it has one

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
        self.room_id, self.kind, self.identity, audience = place
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
        """A browser says two things: ``resync``, and a seated player's action.

        ``resync``: it missed a change that came as areas (socket.js), and gets the whole
        view again, at most once a half second (a page cannot make the server render for
        it faster than that; a page asks every 1.5 s at most).

        An action (a JSON object, lobby/socket_actions.py): run as its POST would be, and
        this socket alone answered with the notice (and, after a refusal, the board); the
        change reaches it with the push every socket of the room gets. Anything else is
        ignored."""
        if self.room_id is None or text_data is None:
            return
        if text_data.startswith("{"):
            await self._act(text_data)
            return
        if text_data != RESYNC:
            return
        now = time.monotonic()
        if now - self.resynced < RESYNC_EVERY:
            return
        self.resynced = now
        await self._send_view()

    async def dispatch(self, message: dict) -> None:
        """A push, and a frame from the browser, are handled at once. channels first runs
        ``close_old_connections`` on its synchronous thread before every message, a hop to
        that thread and back for each push to each socket and for each action, queued
        behind the other sockets' database work. A push asks the database nothing, and an
        action runs on the threads kept for actions, which look after their own
        connections (config/http_threads.py): closing that one thread's connections did
        nothing for either. Every other message goes the usual way."""
        kind = message["type"]
        if kind == "board.push":
            await self.board_push(message)
        elif kind == "websocket.receive":
            await self.websocket_receive(cast(WebSocketReceiveEvent, message))
        else:
            await super().dispatch(message)

    async def board_push(self, event: dict) -> None:
        await self.send(text_data=event["html"])

    async def lobby_changed(self, event: dict) -> None:
        """Re-render this socket's view (shared with the room's other sockets, lobby.renders):
        the room's pass moves it to its audience first."""
        await self._send_view()

    async def _act(self, text: str) -> None:
        """One action at a time (channels hands a socket its frames in turn). Refused here,
        on the loop, without a thread: a frame over the size any form makes, and frames
        past the browser's allowance of actions counted by this socket alone (the shared
        count, per browser, is kept on the action's thread)."""
        assert self.kind is not None  # known once the socket is in its room
        screens = game_type(self.kind).screens
        if len(text) > socket_actions.MAX_FRAME:
            await self.send(text_data=screens.render_notice(socket_actions.UNREADABLE))
            return
        if self._over_allowance():
            await self.send(text_data=screens.render_notice(views.SLOW_DOWN))
            return
        code = self.scope["url_route"]["kwargs"]["code"]
        try:
            frames = await _answer_action(code, self.kind, self.session_key, self.identity, text)
        except Exception:  # the thread's own set-up or clean-up: the socket lives on
            log.exception("a socket's action could not be run")
            frames = [screens.render_notice(socket_actions.DID_NOT_WORK)]
        for html in frames:
            await self.send(text_data=html)

    def _over_allowance(self) -> bool:
        limit, window = settings.RATE_LIMITS["action"]
        now = time.monotonic()
        if now - self.acted_since >= window:
            self.acted_since, self.acted = now, 0
        self.acted += 1
        return self.acted > limit

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
    def _place(self, code: str) -> tuple[int, str, str | None, str] | None:
        """The room, its game, the browser's identity and this socket's audience (who it is
        in the current game)."""
        room = views.ROOM.first(code[:32])
        if room is None:
            return None
        identity = renders.identity_of_session(self.session_key)
        ctx = views.context_for(room, identity)
        return room.pk, room.kind, identity, views.audience_of_viewer(ctx)


# An action runs on threads kept for actions, as a POST does (config/http_threads.py): not
# on the one thread channels gives every socket's database work (the sockets' first views
# and the lobby's passes wait on that one), nor on the event loop's default threads (socket
# caps and address look-ups wait on those, and a Redis push from an action waits on the
# loop: with every default thread waiting so, nothing would be left to look an address up).
_answer_action = SyncToAsync(
    socket_actions.answer,
    thread_sensitive=False,
    executor=ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="socket-action"),
)
