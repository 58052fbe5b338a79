"""An action's pushes through the embedded default's channel layer, sent at once from the
thread that handled the action (config/channel_layers.py ``send_to_groups``): this process's
sockets get their message through the event loop, another process's through the database,
and every group's members are found by one query."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels_lite.models import Event, GroupMembership
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

EMBEDDED = settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("BatchedSQLiteChannelLayer")
pytestmark = [
    pytest.mark.skipif(not EMBEDDED, reason="the embedded default's layer (scale-out: Redis)"),
    pytest.mark.django_db(transaction=True),
]

OTHER_PROCESS = "specific.elsewhere!socket1"  # a socket held by another daphne


def test_another_processs_sockets_get_theirs_through_the_database() -> None:
    layer = get_channel_layer()
    async_to_sync(layer.group_add)("room-1-public", OTHER_PROCESS)
    async_to_sync(layer.group_add)("room-1-seat-2", OTHER_PROCESS)
    messages = [
        ("room-1-public", {"type": "board.push", "html": "<p>public</p>", "version": 4}),
        ("room-1-seat-1", {"type": "board.push", "html": "<p>seat 1</p>", "version": 4}),
        ("room-1-seat-2", {"type": "board.push", "html": "<p>seat 2</p>", "version": 4}),
    ]
    with CaptureQueriesContext(connection) as queries:
        layer.send_to_groups(messages)
    statements = [q["sql"].split()[0] for q in queries.captured_queries]
    assert [s for s in statements if s not in ("BEGIN", "COMMIT")] == ["SELECT", "INSERT"]
    sent = [layer.deserialize(bytes(e.data)) for e in Event.objects.order_by("id")]
    assert {e.channel_name for e in Event.objects.all()} == {"specific.elsewhere!"}
    assert [m["html"] for m in sent] == ["<p>public</p>", "<p>seat 2</p>"]
    assert all(m["__asgi_channel__"] == OTHER_PROCESS for m in sent)


def test_this_processs_socket_gets_its_message_without_the_database() -> None:
    layer = get_channel_layer()

    async def scenario() -> dict:
        channel = await layer.new_channel()
        await layer.group_add("room-7-seat-1", channel)
        receiving = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.01)  # the socket is listening: the layer knows its loop
        message = {"type": "board.push", "html": "<p>yours</p>", "version": 9}
        await sync_to_async(layer.send_to_groups, thread_sensitive=False)(
            [("room-7-seat-1", message), ("room-7-public", {"type": "board.push"})]
        )
        return await asyncio.wait_for(receiving, timeout=5)

    received = async_to_sync(scenario)()
    assert received["html"] == "<p>yours</p>" and received["version"] == 9
    assert not Event.objects.exists()  # handed over in memory, never written


def test_a_board_is_made_only_for_a_group_with_a_socket() -> None:
    """An audience's board is handed over as what makes it: the public's, with no spectator
    listening, is never rendered; the one with a socket is, once."""
    layer = get_channel_layer()
    async_to_sync(layer.group_add)("room-5-seat-1", OTHER_PROCESS)
    made: list[str] = []

    def board_of(audience: str) -> dict:
        made.append(audience)
        return {"type": "board.push", "html": f"<p>{audience}</p>", "version": 2}

    layer.send_to_groups(
        [
            ("room-5-seat-1", lambda: board_of("seat-1")),
            ("room-5-public", lambda: board_of("public")),
            ("room-5", {"type": "lobby.changed"}),
        ]
    )
    assert made == ["seat-1"]
    sent = [layer.deserialize(bytes(e.data)) for e in Event.objects.order_by("id")]
    assert [m["html"] for m in sent] == ["<p>seat-1</p>"]


def test_a_socket_whose_membership_expired_gets_nothing() -> None:
    """A membership past its expiry (a socket of a daphne that died without leaving its
    groups) is no member: nothing is written for it; a live one in the same group gets its
    message."""
    layer = get_channel_layer()
    async_to_sync(layer.group_add)("room-9-public", OTHER_PROCESS)
    async_to_sync(layer.group_add)("room-9-public", "specific.gone!socket2")
    GroupMembership.objects.filter(channel_name="specific.gone!socket2").update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    layer.send_to_groups([("room-9-public", {"type": "board.push", "html": "<p>9</p>"})])
    assert {e.channel_name for e in Event.objects.all()} == {"specific.elsewhere!"}
