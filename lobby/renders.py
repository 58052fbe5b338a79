"""A room's sockets re-rendered together: once per viewer, a short while after the change.

When the lobby changes every socket of the room must show it, and each viewer's lobby
panel is their own (their seat, the host's buttons) while their board depends on their
seat. Rendering per socket made one browser with 200 sockets cost 200 renders a change.
Instead, a socket that needs its view asks for it here; the first ask in a room waits
``settings.LOBBY_PUSH_DEBOUNCE`` seconds, every ask meanwhile joins it, and then one pass
renders once per viewer (per identity: all sockets of one browser, or all strangers,
share a render) and hands each socket its view. An ask that comes while a pass runs waits
for the next pass, which reads the database after it: nothing newer is ever missed.

A pass first moves every waiting socket to the audience it has now (before reading what it
renders, as each socket used to do itself), so a push for that audience made meanwhile
reaches it; the socket joins again if the audience changed during the pass.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from importlib import import_module
from typing import Protocol

from channels.db import database_sync_to_async
from django.conf import settings

from . import views
from .models import Room

SessionStore = import_module(settings.SESSION_ENGINE).SessionStore

View = tuple[str, str]  # (the html to send, the audience it was rendered for)


class Viewer(Protocol):
    """A socket waiting for its view (lobby.consumers.RoomConsumer)."""

    room_id: int | None

    @property
    def session_key(self) -> str | None: ...

    async def join_audience(self, audience: str) -> None: ...


@dataclass(eq=False)
class _Pass:
    room_id: int
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future = field(init=False)
    viewers: list[Viewer] = field(default_factory=list)
    after: asyncio.Future | None = None  # the pass running when this one was asked for

    def __post_init__(self) -> None:
        self.done = self.loop.create_future()


_waiting: dict[int, _Pass] = {}  # room id -> the pass that has not started yet
_running: dict[int, _Pass] = {}  # room id -> the pass rendering now
renders = 0  # viewer renders so far in this process (for the benchmark)


async def view_for(viewer: Viewer) -> View | None:
    """This socket's current view, from the room's next pass (None: the room is gone)."""
    loop = asyncio.get_running_loop()
    room_id = viewer.room_id
    assert room_id is not None
    ahead = _waiting.get(room_id)
    if ahead is None or ahead.loop is not loop or ahead.done.done():
        ahead = _Pass(room_id, loop)
        running = _running.get(room_id)
        if running is not None and running.loop is loop and not running.done.done():
            ahead.after = running.done
        _waiting[room_id] = ahead
        loop.create_task(_run(ahead))
    ahead.viewers.append(viewer)
    views_by_session = await asyncio.shield(ahead.done)
    return None if views_by_session is None else views_by_session.get(viewer.session_key)


async def _run(this: _Pass) -> None:
    await asyncio.sleep(settings.LOBBY_PUSH_DEBOUNCE)
    if this.after is not None:  # one pass at a time per room: the next reads after it
        await asyncio.wait([this.after])
    if _waiting.get(this.room_id) is this:
        del _waiting[this.room_id]
    _running[this.room_id] = this
    try:
        result = await _render_pass(this)
    except asyncio.CancelledError:  # the loop is closing
        this.done.cancel()
        raise
    except Exception as error:  # every socket waiting fails, as one rendering alone would
        this.done.set_exception(error)
    else:
        this.done.set_result(result)
    finally:
        if _running.get(this.room_id) is this:
            del _running[this.room_id]


async def _render_pass(this: _Pass) -> dict[str | None, View] | None:
    sessions = {viewer.session_key for viewer in this.viewers}
    audiences = await _audiences(this.room_id, sessions)
    if audiences is None:
        return None
    for viewer in this.viewers:
        await viewer.join_audience(audiences[viewer.session_key])
    return await _views(this.room_id, sessions)


def identity_of_session(session_key: str | None) -> str | None:
    """Read afresh each pass: the browser may have picked its name meanwhile."""
    if not session_key:
        return None
    return SessionStore(session_key=session_key).get(views.IDENTITY)


def _room(room_id: int) -> Room | None:
    """The room with its game, match and players: a pass reads each once for every browser."""
    return views.rooms().prefetch_related("players").filter(pk=room_id).first()


@database_sync_to_async
def _audiences(room_id: int, sessions: set[str | None]) -> dict[str | None, str] | None:
    """Each browser's audience now."""
    room = _room(room_id)
    if room is None:
        return None
    identities = {key: identity_of_session(key) for key in sessions}
    contexts = views.contexts_for(room, set(identities.values()))
    by_identity = {who: views.audience_of_viewer(ctx) for who, ctx in contexts.items()}
    return {key: by_identity[who] for key, who in identities.items()}


@database_sync_to_async
def _views(room_id: int, sessions: set[str | None]) -> dict[str | None, View] | None:
    """Each browser's view: the lobby panel rendered once per identity, the board once per
    audience."""
    global renders
    room = _room(room_id)
    if room is None:
        return None
    identities = {key: identity_of_session(key) for key in sessions}
    rendered: dict[str | None, View] = {}
    boards: dict[str, str] = {}  # the board depends only on the audience: once for each
    for who, ctx in views.contexts_for(room, set(identities.values())).items():
        audience = views.audience_of_viewer(ctx)
        if audience not in boards:
            boards[audience] = views.board_html(ctx, oob=True)[0]
        rendered[who] = (views.render_lobby(ctx, oob=True) + boards[audience], audience)
        renders += 1
    return {key: rendered[who] for key, who in identities.items()}
