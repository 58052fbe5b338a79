"""Simultaneous rounds over the websocket, proven with Highest Unique (a test-only game,
registered for each test by ``tests.support.highest.fixtures``), through
``config.asgi.application`` and the channel layer the settings configure.

Until a round closes, a seat's number reaches only that seat's sockets: the frames every
other socket gets after it chooses, and the whole view a socket gets on (re)connect, are
byte for byte the same in two twin rooms that differ only in that number (once the room's
code and QR code are masked: ``tests.support.highest.rooms.normal``). The close reaches
every socket with every number."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tests.realtime.test_pushes import open_socket, pushed_at, run, version_of
from tests.support.highest import fixtures
from tests.support.highest.fixtures import Clock
from tests.support.highest.rooms import Table, normal, room_link, seat_table

# The channel layer keeps its messages in the database: real commits, not a rolled-back
# test transaction, or the consumers would never see them.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("highest")]

# The test game, registered for each test here only, and the stopped clock (fixtures.py).
highest = fixtures.highest
frozen_clock = fixtures.frozen_clock

DONE = '<th scope="row">Bo</th><td class="round-status">done</td>'


def text(html: str) -> str:
    return " ".join(html.split())


def test_a_number_reaches_its_own_seat_and_the_close_reaches_everyone():
    table = seat_table(3)

    async def scenario():
        code = table.room.code
        sockets = {n: await open_socket(c, code) for n, c in table.seats.items()}
        sockets[None] = await open_socket(table.spectator, code)
        start = await sync_to_async(table.state)()
        for _, snapshot in sockets.values():
            assert version_of(snapshot) == start.version

        assert (await sync_to_async(table.choose)(2, 7)).status_code == 200
        after = await sync_to_async(table.state)()
        for who, (socket, _) in sockets.items():
            frame = text(await pushed_at(socket, after.version))
            assert 'hx-swap-oob="true"' in frame, who
            if who == 2:
                assert "Round 1 of 3: you chose 7." in frame
            else:
                assert DONE in frame and "chose 7" not in frame, who

        again = await sync_to_async(table.choose)(2, 4)  # final: refused, nothing pushed
        assert again.status_code == 409
        for socket, _ in sockets.values():
            assert await socket.receive_nothing(timeout=0.3)

        assert (await sync_to_async(table.choose)(1, 5)).status_code == 200
        mid = await sync_to_async(table.state)()
        for socket, _ in sockets.values():
            await pushed_at(socket, mid.version)
        assert (await sync_to_async(table.choose)(3, 1)).status_code == 200
        closed = await sync_to_async(table.state)()
        assert closed.round.number == 2 and closed.version == mid.version + 3
        for who, (socket, _) in sockets.items():
            frame = text(await pushed_at(socket, closed.version))
            assert "Round 1: Ada 5, Bo 7, Cy 1. Bo scores with 7." in frame, who
            assert "Round 2 of 3" in frame, who
        for socket, _ in sockets.values():
            assert await socket.receive_nothing(timeout=0.3)  # one push per audience
            await socket.disconnect()

    run(scenario)


def twins() -> tuple[Table, Table]:
    """Two rooms alike in everything (names, seats, the clock and the instant they started,
    the clock being stopped) in which seat 1 has chosen 5."""
    tables = (seat_table(3, step="60"), seat_table(3, step="60"))
    for table in tables:
        assert table.choose(1, 5).status_code == 200
    return tables


def test_what_other_sockets_receive_does_not_depend_on_a_seat_s_number(frozen_clock: Clock):
    first, second = twins()
    watchers = (1, 3, None)  # seat 1 (chose), seat 3 (choosing), a spectator

    async def frames_after_seat_2_chooses(table: Table, number: int) -> dict:
        code = table.room.code
        sockets = {who: await open_socket(table.client(who), code) for who in watchers}
        assert (await sync_to_async(table.choose)(2, number)).status_code == 200
        state = await sync_to_async(table.state)()
        got = {}
        for who, (socket, _) in sockets.items():
            got[who] = await pushed_at(socket, state.version)
            assert await socket.receive_nothing(timeout=0.3)
            await socket.disconnect()
        # A socket that (re)connects now gets the whole view: the lobby panel and board.
        for who in watchers:
            socket, snapshot = await open_socket(table.client(who), code)
            got[f"snapshot {who}"] = snapshot
            await socket.disconnect()
        own, own_snapshot = await open_socket(table.seats[2], code)
        got["seat 2's own snapshot"] = own_snapshot
        await own.disconnect()
        link = room_link(table.room)
        return {who: normal(html, table.room, link) for who, html in got.items()}

    async def scenario():
        a = await frames_after_seat_2_chooses(first, 3)
        b = await frames_after_seat_2_chooses(second, 9)
        for who in (*watchers, *(f"snapshot {w}" for w in watchers)):
            assert a[who] == b[who], who
            assert DONE in a[who], who
        # The positive control: seat 2's own view carries its number, so it differs.
        assert a["seat 2's own snapshot"] != b["seat 2's own snapshot"]
        assert "you chose 3" in text(a["seat 2's own snapshot"])

    run(scenario)
