"""A room's socket is handed its pushes by the channel layer (config/socket_outboxes.py),
not through a queue and a wake-up each: in the order they came, one task for all of an
action's sockets, and never in the middle of the socket's own turn (its whole view is sent
before a push that came while it was being rendered)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from config import socket_outboxes
from lobby.consumers import RoomConsumer


def a_socket(channel: str, sent: list[str]) -> RoomConsumer:
    """A registered consumer whose sends are recorded (its other work is the test's)."""
    consumer = RoomConsumer()
    consumer.room_id, consumer.channel_name = 1, channel

    async def send(text_data: str | None = None, **_: Any) -> None:
        sent.append(text_data or "")

    consumer.send = send  # type: ignore[method-assign]
    socket_outboxes.register(channel, consumer)
    return consumer


def push(html: str) -> dict[str, str]:
    return {"type": "board.push", "html": html}


async def settled() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_pushes_reach_each_socket_in_order_with_one_task_for_all():
    async def scenario() -> None:
        sent: dict[str, list[str]] = {"a": [], "b": []}
        sockets = {name: a_socket(f"test.outbox!{name}", sent[name]) for name in sent}
        tasks_before = len(asyncio.all_tasks())
        rest = socket_outboxes.hand_over(
            [
                ("test.outbox!a", push("a1")),
                ("test.outbox!b", push("b1")),
                ("test.outbox!a", push("a2")),
                ("test.outbox!stranger", push("x")),  # not registered: its queue's
                ("test.outbox!a", {"type": "lobby.changed"}),  # renders on a thread: queued
            ]
        )
        assert len(asyncio.all_tasks()) == tasks_before + 1  # one hand-over, not one a socket
        assert rest == [
            ("test.outbox!stranger", push("x")),
            ("test.outbox!a", {"type": "lobby.changed"}),
        ]
        await settled()
        assert sent == {"a": ["a1", "a2"], "b": ["b1"]}
        for name in sockets:
            socket_outboxes.unregister(f"test.outbox!{name}")

    async_to_sync(scenario)()


def test_a_push_that_comes_while_the_socket_sends_its_view_follows_the_view():
    """A resync (or a connect) renders the whole view on a thread: a push that comes
    meanwhile waits for that turn to end, as channels' queue had it wait."""

    async def scenario() -> None:
        sent: list[str] = []
        socket = a_socket("test.outbox!busy", sent)
        rendered = asyncio.Event()

        async def view() -> None:
            await rendered.wait()  # the thread renders
            sent.append("view")

        socket._send_view = view  # type: ignore[method-assign]
        resync = asyncio.ensure_future(
            socket.dispatch({"type": "websocket.receive", "text": "resync"})
        )
        await settled()
        assert socket_outboxes.hand_over([("test.outbox!busy", push("p1"))]) == []
        assert socket_outboxes.hand_over([("test.outbox!busy", push("p2"))]) == []
        await settled()
        assert sent == []  # the view is not sent yet, so neither is the push
        rendered.set()
        await resync
        assert sent == ["view", "p1", "p2"]
        socket_outboxes.hand_over([("test.outbox!busy", push("p3"))])  # idle again: at once
        await settled()
        assert sent == ["view", "p1", "p2", "p3"]
        socket_outboxes.unregister("test.outbox!busy")

    async_to_sync(scenario)()


def test_a_closed_socket_is_handed_nothing_and_a_failed_send_stops_no_push():
    """A push that cannot be sent (the socket closing meanwhile) is logged: the socket's
    next pushes and the other sockets' are still sent."""

    async def scenario() -> None:
        sent: dict[str, list[str]] = {"gone": [], "broken": [], "fine": []}
        sockets = {name: a_socket(f"test.outbox!{name}", sent[name]) for name in sent}
        sockets["gone"].room_id = None  # no groups to leave
        await sockets["gone"].disconnect(1000)
        record = sockets["broken"].send

        async def broken_once(text_data: str | None = None, **_: Any) -> None:
            sockets["broken"].send = record  # type: ignore[method-assign]
            raise ConnectionError("the peer went away mid-send")

        sockets["broken"].send = broken_once  # type: ignore[method-assign]
        rest = socket_outboxes.hand_over(
            [
                ("test.outbox!gone", push("gone")),
                ("test.outbox!broken", push("lost")),
                ("test.outbox!broken", push("second")),
                ("test.outbox!fine", push("fine")),
            ]
        )
        assert rest == [("test.outbox!gone", push("gone"))]  # to its queue, if it has one
        await settled()
        assert sent == {"gone": [], "broken": ["second"], "fine": ["fine"]}
        socket_outboxes.hand_over([("test.outbox!broken", push("later"))])
        await settled()
        assert sent["broken"] == ["second", "later"]  # not left waiting for another push
        for name in sockets:
            socket_outboxes.unregister(f"test.outbox!{name}")

    async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_a_push_the_layer_reads_from_its_store_is_handed_over_too_in_order():
    """The clock's pushes and another process's reach a socket through the layer's store
    (the database, or Redis in scale-out): they are handed over as this process's own are,
    so every push a socket gets keeps the order the layer had them in."""

    async def scenario() -> None:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        sent: list[str] = []
        socket = a_socket(channel, sent)  # kept: the registry holds it weakly, as channels'
        reading = asyncio.ensure_future(layer.receive(channel))  # as the consumer listens
        await layer.send(channel, push("stored-1"))
        await layer.send(channel, push("stored-2"))
        for _ in range(100):
            if len(sent) == 2:
                break
            await asyncio.sleep(0.05)
        assert sent == ["stored-1", "stored-2"]
        assert not reading.done()  # nothing came through the socket's queue
        reading.cancel()
        socket_outboxes.unregister(socket.channel_name)

    async_to_sync(scenario)()
