"""Pushing HTML to the browsers of a room over Channels.

Game changes are rendered once per audience (a Stargazer or Spotter of a crew, or the
public) and sent to that audience's group; lobby changes ask each socket to re-render its
own lobby panel (they are rare, and the panel is personal: your seat, host buttons).
"""

from __future__ import annotations

import asyncio
import logging
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


def _send(group: str, message: dict) -> None:
    _send_all([(group, message)])


def _send_all(messages: list[tuple[str, dict]]) -> None:
    """Every group's message at once: straight from this thread when the layer can
    (the embedded default's, config/channel_layers.py), else in one trip to the event
    loop (in one batch when the layer can: the scale-out one's, config/redis_layer.py)."""
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

    group_send_all = getattr(layer, "group_send_all", None)  # scale-out: config/redis_layer.py

    async def send() -> None:
        if group_send_all is not None:
            await group_send_all(messages)
            return
        results = await asyncio.gather(
            *(layer.group_send(group, message) for group, message in messages),
            return_exceptions=True,
        )
        for (group, _), result in zip(messages, results, strict=True):
            if isinstance(result, BaseException):
                log.error("push to %s failed", group, exc_info=result)

    try:
        async_to_sync(send)()
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
    messages = [
        (
            audience_group(seating.room_id, audience),
            {
                "type": "board.push",
                "html": screens.render_push(
                    state,
                    events,
                    audience,
                    seating.names,
                    seating.code,
                    game=game_id,
                    since=first_version - 1,
                ),
                "version": state.version,
            },
        )
        for audience in screens.audiences(state)
    ]
    if state.ended:  # the lobby reopens for a rematch
        messages.append((room_group(seating.room_id), {"type": "lobby.changed"}))
    _send_all(messages)
