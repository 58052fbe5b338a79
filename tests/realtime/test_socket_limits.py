"""Websockets capped (issue 13, finding 4): per browser and per room, counted across
processes in the cache with keys that expire, so a dead process counts no more; one over a
cap is closed with its own code before anything is rendered for it."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client, override_settings

from config.asgi import application
from lobby import limits
from tests.realtime.test_pushes import WAIT, open_socket, run
from tests.web.rooms import seat_table

pytestmark = pytest.mark.django_db(transaction=True)


def _socket(client: Client | None, code: str) -> WebsocketCommunicator:
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    if client is not None and "sessionid" in client.cookies:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers)


async def _over_cap(socket: WebsocketCommunicator) -> bool:
    """Accepted, then closed with the cap's code before any frame."""
    connected, _ = await socket.connect(timeout=WAIT)
    assert connected
    first = await socket.receive_output(timeout=WAIT)
    return first == {"type": "websocket.close", "code": limits.CLOSE_OVER_CAP}


@override_settings(SOCKETS_PER_SESSION=3)
def test_sockets_per_browser_are_capped_and_a_closed_one_frees_its_place():
    table = seat_table(2, start=False)
    code = table.room.code

    async def scenario():
        sockets = [await open_socket(table.host, code) for _ in range(3)]
        assert await _over_cap(_socket(table.host, code))
        other, _ = await open_socket(table.seats[2], code)  # another browser is not counted
        await sockets.pop()[0].disconnect()
        sockets.append(await open_socket(table.host, code))
        for socket, _ in [*sockets, (other, None)]:
            await socket.disconnect()

    run(scenario)


@override_settings(SOCKETS_PER_ROOM=3)
def test_sockets_per_room_are_capped():
    table = seat_table(4, start=False)
    code = table.room.code
    elsewhere = seat_table(2, start=False).room.code

    async def scenario():
        sockets = [await open_socket(table.seats[n], code) for n in (1, 2, 3)]
        assert await _over_cap(_socket(table.seats[4], code))
        assert await _over_cap(_socket(None, code))  # strangers too
        other, _ = await open_socket(table.seats[4], elsewhere)  # another room is not
        for socket, _ in [*sockets, (other, None)]:
            await socket.disconnect()

    run(scenario)


@override_settings(SOCKETS_PER_SESSION=2)
def test_cookieless_sockets_are_counted_per_address():
    code = seat_table(2, start=False).room.code

    async def scenario():
        sockets = [await open_socket(None, code) for _ in range(2)]
        assert await _over_cap(_socket(None, code))
        for socket, _ in sockets:
            await socket.disconnect()

    run(scenario)


@override_settings(SOCKETS_PER_ROOM=3)
def test_other_processes_sockets_count_and_a_dead_process_counts_no_more():
    table = seat_table(2, start=False)
    code, room_id = table.room.code, table.room.pk

    async def scenario():
        # another process (slot 7) holds two sockets in this room; it dies: its count
        # expires (here after 1 s instead of a minute)
        await sync_to_async(cache.set)(f"sockets:room:{room_id}:7", 2, timeout=1)
        mine, _ = await open_socket(table.host, code)
        assert await _over_cap(_socket(table.seats[2], code))
        await asyncio.sleep(1.2)
        theirs, _ = await open_socket(table.seats[2], code)
        await mine.disconnect()
        await theirs.disconnect()

    run(scenario)


def test_a_process_publishes_its_counts_with_an_expiry_and_withdraws_them():
    table = seat_table(2, start=False)
    code, room_id = table.room.code, table.room.pk

    async def scenario():
        socket, _ = await open_socket(table.host, code)
        slot = limits._here.slot
        key = f"sockets:room:{room_id}:{slot}"
        assert await sync_to_async(cache.get)(key) == 1
        ttl = await sync_to_async(cache.ttl if hasattr(cache, "ttl") else lambda k: None)(key)
        assert ttl is None or 0 < ttl <= limits.LEASE
        await socket.disconnect()
        assert await sync_to_async(cache.get)(key) is None

    run(scenario)
