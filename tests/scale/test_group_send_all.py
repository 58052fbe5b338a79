"""An action's pushes through the scale-out channel layer, sent in one batch
(config/redis_layer.py ``group_send_all``): every group's member gets its message, another
process's sockets through their own process's key, and a socket in several groups gets its
messages in the order they were sent.

Only meaningful on Redis: skipped otherwise (``make test SCALE=1`` runs it)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings

from config.redis_layer import BLOCKING_TIMEOUT, BatchedRedisChannelLayer, _blocking_pool
from tests.scale.players import NOT_SCALE_OUT, SCALE_OUT

pytestmark = pytest.mark.skipif(not SCALE_OUT, reason=NOT_SCALE_OUT)


def push(html: str) -> dict:
    return {"type": "board.push", "html": html, "version": 3}


def test_every_member_of_every_group_gets_its_push_in_order() -> None:
    """... and a message given as what makes it (a board) is made only for a group with a
    socket, on the sender's thread."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    made: list[str] = []

    def never_made() -> dict:
        made.append("seat 3")
        return push("nobody")

    def seat_2() -> dict:
        made.append(threading.current_thread().name)
        return push("seat 2")

    async def scenario() -> tuple[list[str], list[str]]:
        here = BatchedRedisChannelLayer(**config)  # this process
        there = BatchedRedisChannelLayer(**config)  # another daphne
        mine, theirs = await here.new_channel(), await there.new_channel()
        await here.group_add("room-9-public", mine)  # a socket hears its room and audience
        await here.group_add("room-9-seat-1", mine)
        await there.group_add("room-9-seat-2", theirs)
        try:
            await here.group_send_all(
                [
                    ("room-9-seat-1", push("seat 1")),
                    ("room-9-seat-2", seat_2),
                    ("room-9-public", push("lobby")),
                    ("room-9-seat-3", never_made),  # an audience with no socket
                ]
            )
            got_mine = [
                (await asyncio.wait_for(here.receive(mine), timeout=5))["html"] for _ in range(2)
            ]
            got_theirs = [(await asyncio.wait_for(there.receive(theirs), timeout=5))["html"]]
            return got_mine, got_theirs
        finally:
            await here.group_discard("room-9-public", mine)
            await here.group_discard("room-9-seat-1", mine)
            await there.group_discard("room-9-seat-2", theirs)
            await here.close_pools()
            await there.close_pools()

    got_mine, got_theirs = async_to_sync(scenario)()
    assert got_mine == ["seat 1", "lobby"]  # both, in the order sent
    assert got_theirs == ["seat 2"]
    assert made == [threading.current_thread().name]  # once, on the thread that sent it


def test_a_process_reads_every_sockets_pushes_in_order_while_sockets_come_and_go() -> None:
    """One reader for the process's sockets (``receive``): a burst of pushes to many sockets
    reaches each in the order sent, and a socket closing mid-wait loses nobody else's."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]

    async def scenario() -> tuple[dict[str, list[str]], list[str]]:
        here = BatchedRedisChannelLayer(**config)
        sockets = [await here.new_channel() for _ in range(30)]
        leaving = await here.new_channel()
        for n, socket in enumerate(sockets):
            await here.group_add(f"room-8-{n % 3}", socket)
        await here.group_add("room-8-0", leaving)
        waiting = asyncio.ensure_future(here.receive(leaving))
        await asyncio.sleep(0.05)  # its socket waits, as a connected consumer does
        waiting.cancel()  # the socket closes
        try:
            for turn in range(4):
                await here.group_send_all(
                    [(f"room-8-{group}", push(f"{group}.{turn}")) for group in range(3)]
                )
            got = {
                socket: [
                    (await asyncio.wait_for(here.receive(socket), timeout=5))["html"]
                    for _ in range(4)
                ]
                for socket in sockets
            }
            late = await here.new_channel()  # a socket that joins after the burst
            await here.group_add("room-8-0", late)
            await here.group_send_all([("room-8-0", push("after"))])
            after = [(await asyncio.wait_for(here.receive(late), timeout=5))["html"]]
            await here.group_discard("room-8-0", late)
            return got, after
        finally:
            for n, socket in enumerate(sockets):
                await here.group_discard(f"room-8-{n % 3}", socket)
            await here.group_discard("room-8-0", leaving)
            await here.close_pools()

    got, after = async_to_sync(scenario)()
    for n, (_, html) in enumerate(got.items()):
        assert html == [f"{n % 3}.{turn}" for turn in range(4)]
    assert after == ["after"]


def test_a_message_that_cannot_be_read_is_skipped_and_the_next_arrives() -> None:
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]

    async def scenario() -> str:
        here = BatchedRedisChannelLayer(**config)
        there = BatchedRedisChannelLayer(**config)
        socket = await here.new_channel()
        await here.group_add("room-7-public", socket)
        try:
            waiting = asyncio.ensure_future(here.receive(socket))
            await asyncio.sleep(0.05)
            key = here.prefix + here.non_local_name(socket)
            await here.connection(0).zadd(key, {b"\x00not a message": 1.0})
            # sent by another daphne, so it comes through Redis after the bad one
            await there.group_send_all([("room-7-public", push("after the bad one"))])
            return (await asyncio.wait_for(waiting, timeout=5))["html"]
        finally:
            await here.group_discard("room-7-public", socket)
            await here.close_pools()
            await there.close_pools()

    assert async_to_sync(scenario)() == "after the bad one"


def test_a_push_to_this_process_s_listening_sockets_never_goes_through_redis() -> None:
    """A room's sockets usually share the daphne that took the action: their pushes go
    straight into their queues, in order, and only another process's socket is sent its
    push through Redis."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    sent_through_redis: list[list[str]] = []

    async def scenario() -> tuple[list[str], list[str], list[str]]:
        here = BatchedRedisChannelLayer(**config)
        there = BatchedRedisChannelLayer(**config)
        script = here._script

        def counting(index: int, source: str) -> object:
            call = script(index, source)
            if "ZADD" not in source:
                return call

            async def send(keys: list[str], args: list[object]) -> object:
                sent_through_redis.append([k.decode() if isinstance(k, bytes) else k for k in keys])
                return await call(keys=keys, args=args)

            return send

        here._script = counting  # type: ignore[method-assign]
        mine, also_mine = await here.new_channel(), await here.new_channel()
        theirs = await there.new_channel()
        await here.group_add("room-6-seat-1", mine)
        await here.group_add("room-6-public", also_mine)
        await there.group_add("room-6-public", theirs)
        waiting = [asyncio.ensure_future(here.receive(c)) for c in (mine, also_mine)]
        await asyncio.sleep(0.05)  # both sockets listen, as connected consumers do
        try:
            await here.group_send_all(
                [("room-6-seat-1", push("seat 1")), ("room-6-public", push("public"))]
            )
            await here.group_send_all([("room-6-seat-1", push("seat 1 again"))])
            first_mine, first_also = [(await asyncio.wait_for(w, 5))["html"] for w in waiting]
            got_mine = [first_mine, (await asyncio.wait_for(here.receive(mine), 5))["html"]]
            got_theirs = [(await asyncio.wait_for(there.receive(theirs), 5))["html"]]
            return got_mine, [first_also], got_theirs
        finally:
            await here.group_discard("room-6-seat-1", mine)
            await here.group_discard("room-6-public", also_mine)
            await there.group_discard("room-6-public", theirs)
            await here.close_pools()
            await there.close_pools()

    got_mine, got_also_mine, got_theirs = async_to_sync(scenario)()
    assert got_mine == ["seat 1", "seat 1 again"]
    assert got_also_mine == ["public"]
    assert got_theirs == ["public"]
    # one write to Redis in all: the public push, to the other process's key alone
    assert len(sent_through_redis) == 1 and len(sent_through_redis[0]) == 1
    assert "!" in sent_through_redis[0][0]


def test_an_action_s_thread_sends_its_pushes_itself_to_sockets_here_and_elsewhere() -> None:
    """``send_to_groups``, as an action's thread calls it after the commit (redis-py's
    blocking client, no hop to the event loop): this process's listening sockets get their
    pushes in order through their loop, another process's socket through Redis (one write),
    and a board is made only for an audience with a socket, on the action's own thread."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    made: list[str] = []
    sent_through_redis: list[list[str]] = []

    def seat_2() -> dict:
        made.append(threading.current_thread().name)
        return push("seat 2")

    def never_made() -> dict:
        made.append("nobody's")
        return push("nobody")

    async def scenario() -> tuple[list[str], list[str], list[str]]:
        here = BatchedRedisChannelLayer(**config)
        there = BatchedRedisChannelLayer(**config)
        script = here._blocking_script

        def counting(index: int, source: str) -> object:
            call = script(index, source)
            if "ZADD" not in source:
                return call

            def send(keys: list[str], args: list[object]) -> object:
                sent_through_redis.append([k.decode() if isinstance(k, bytes) else k for k in keys])
                return call(keys=keys, args=args)

            return send

        here._blocking_script = counting  # type: ignore[method-assign]
        mine, also_mine = await here.new_channel(), await here.new_channel()
        theirs = await there.new_channel()
        await here.group_add("room-7-seat-1", mine)
        await here.group_add("room-7-seat-2", also_mine)
        await there.group_add("room-7-seat-2", theirs)
        waiting = [asyncio.ensure_future(here.receive(c)) for c in (mine, also_mine)]
        await asyncio.sleep(0.05)  # both sockets listen, as connected consumers do
        action = ThreadPoolExecutor(1, "socket-action")
        try:
            await asyncio.get_running_loop().run_in_executor(
                action,
                here.send_to_groups,
                [
                    ("room-7-seat-1", push("seat 1")),
                    ("room-7-seat-2", seat_2),
                    ("room-7-seat-3", never_made),
                ],
            )
            await asyncio.get_running_loop().run_in_executor(
                action, here.send_to_groups, [("room-7-seat-1", push("seat 1 again"))]
            )
            first_mine, first_also = [(await asyncio.wait_for(w, 5))["html"] for w in waiting]
            got_mine = [first_mine, (await asyncio.wait_for(here.receive(mine), 5))["html"]]
            got_theirs = [(await asyncio.wait_for(there.receive(theirs), 5))["html"]]
            return got_mine, [first_also], got_theirs
        finally:
            action.shutdown()
            await here.group_discard("room-7-seat-1", mine)
            await here.group_discard("room-7-seat-2", also_mine)
            await there.group_discard("room-7-seat-2", theirs)
            await here.close_pools()
            await there.close_pools()

    got_mine, got_also_mine, got_theirs = async_to_sync(scenario)()
    assert got_mine == ["seat 1", "seat 1 again"]
    assert got_also_mine == ["seat 2"]
    assert got_theirs == ["seat 2"]
    assert len(made) == 1 and made[0].startswith("socket-action")
    assert len(sent_through_redis) == 1 and len(sent_through_redis[0]) == 1
    assert "!" in sent_through_redis[0][0]


def test_a_push_from_a_thread_skips_a_socket_that_closed_before_its_loop_took_it() -> None:
    """The loop puts a thread's pushes into their sockets' queues at its next turn: a socket
    gone by then (its queue dropped) is skipped, and the others still get theirs."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]

    async def scenario() -> str:
        layer = BatchedRedisChannelLayer(**config)
        gone, staying = await layer.new_channel(), await layer.new_channel()
        closing = asyncio.ensure_future(layer.receive(gone))
        waiting = asyncio.ensure_future(layer.receive(staying))
        await asyncio.sleep(0.05)  # both listen; then one socket closes
        closing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await closing
        try:
            layer._put_all([(gone, push("too late")), (staying, push("on time"))])
            assert gone not in layer.receive_buffer  # not made again for a message
            return (await asyncio.wait_for(waiting, 5))["html"]
        finally:
            await layer.close_pools()

    assert async_to_sync(scenario)() == "on time"


def test_an_action_s_thread_waits_a_bounded_time_for_redis_s_reply() -> None:
    """The readers' connections wait on BZPOPMIN without a timeout; the blocking pool an
    action's thread sends with does not inherit that: a connection dropped without a word
    costs the action at most a few seconds."""
    host = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
    assert host["socket_timeout"] is None
    pool = _blocking_pool(host)
    assert pool.connection_kwargs["socket_timeout"] == BLOCKING_TIMEOUT <= 5
    assert pool.connection_kwargs["socket_connect_timeout"] == BLOCKING_TIMEOUT
    assert host["socket_timeout"] is None  # the layer's own setting left as it was
    pool.disconnect()
