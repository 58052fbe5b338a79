"""Pushing HTML to the browsers of a room over Channels.

Game changes are rendered once per audience (a Stargazer or Spotter of a crew, or the
public) and sent to that audience's group; lobby changes ask each socket to re-render its
own lobby panel (they are rare, and the panel is personal: your seat, host buttons).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.dispatch import receiver

from games.registry import game_type
from games.store import events_appended

from .models import Room
from .seating import seating_of

log = logging.getLogger(__name__)


def room_group(room_id: int) -> str:
    return f"room-{room_id}"


def audience_group(room_id: int, audience: str) -> str:
    return f"room-{room_id}-{audience}"


# A message, or what makes it: an audience's board is rendered only if its group has a
# socket to send it to (a room with no spectators renders no public board). The layers that
# take a whole action's messages at once make each one after finding the groups' members.
Message = dict | Callable[[], dict]


def made(message: Message) -> dict:
    return message() if callable(message) else message


def _send(group: str, message: dict) -> None:
    _send_all([(group, message)])


def _send_all(messages: list[tuple[str, Message]]) -> None:
    """Every group's message at once: straight from this thread when the layer can (the
    embedded default's, config/channel_layers.py, and the scale-out one's,
    config/redis_layer.py), else in one trip to the event loop."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    send_to_groups = getattr(layer, "send_to_groups", None)
    if send_to_groups is not None:
        try:
            send_to_groups(messages)
        except Exception:  # a push that fails must never undo or block the action
            log.exception("pushing %d messages failed", len(messages))
        return

    async def send_each(ready: list[tuple[str, dict]]) -> None:
        results = await asyncio.gather(
            *(layer.group_send(group, message) for group, message in ready),
            return_exceptions=True,
        )
        for (group, _), result in zip(ready, results, strict=True):
            if isinstance(result, BaseException):
                log.error("push to %s failed", group, exc_info=result)

    try:  # a plain layer (channels' in-memory one): every message made here, not on the loop
        async_to_sync(send_each)([(group, made(message)) for group, message in messages])
    except Exception:  # a push that fails must never undo or block the action
        log.exception("pushing %d messages failed", len(messages))


def lobby_changed(room: Room) -> None:
    room_id = room.pk
    transaction.on_commit(lambda: _send(room_group(room_id), {"type": "lobby.changed"}))


@receiver(events_appended)
def push_game(
    sender: str, game_id: int, state: Any, events: list[object], first_version: int, **_: object
) -> None:
    seating = seating_of(game_id)  # the view that acted handed it over: no query
    if seating is None:
        return
    if first_version == 1:
        # A new game: the sockets still listen as the lobby's public; each one moves to
        # its own audience and renders its board itself (no flash of the public board).
        _send(room_group(seating.room_id), {"type": "lobby.changed"})
        return
    screens = game_type(sender).screens

    def push_to(audience: str) -> dict:
        html = screens.render_push(
            state,
            events,
            audience,
            seating.names,
            seating.code,
            game=game_id,
            since=first_version - 1,
        )
        return {"type": "board.push", "html": html, "version": state.version}

    messages: list[tuple[str, Message]] = [
        (audience_group(seating.room_id, audience), partial(push_to, audience))
        for audience in screens.audiences(state)
    ]
    if state.ended:  # the lobby reopens for a rematch
        messages.append((room_group(seating.room_id), {"type": "lobby.changed"}))
    _send_all(messages)
