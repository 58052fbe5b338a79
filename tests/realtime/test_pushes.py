"""Who receives which fragment over the websocket (K4, K5, T3, T4 and the re-sync),
through ``config.asgi.application`` and the channel layer the settings configure."""

from __future__ import annotations

import asyncio
import re

import pytest
from asgiref import sync
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games.constellate.rules import Key
from tests.web.rooms import (
    REFUSED_WORD,
    Table,
    dark_card_findings,
    join,
    notice,
    page,
    parse_cards,
    post,
    seat_table,
    sit,
)

# The default layer keeps its messages in the database: real commits, not a rolled-back
# test transaction, or the consumers (and the layer's readers) would never see them.
pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 5


def run(coroutine_function) -> None:
    async_to_sync(coroutine_function)()


async def connect(client: Client | None, code: str, origin: bytes = b"http://testserver"):
    headers = [(b"host", b"testserver"), (b"origin", origin)]  # as a browser sends them
    if client is not None and "sessionid" in client.cookies:
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        headers.append((b"cookie", cookie))
    socket = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers)
    connected, _ = await socket.connect(timeout=WAIT)
    return socket, connected


async def open_socket(client: Client | None, code: str) -> tuple[WebsocketCommunicator, str]:
    """A connected socket and the snapshot it is sent on connect."""
    socket, connected = await connect(client, code)
    assert connected
    return socket, await socket.receive_from(timeout=WAIT)


async def pushed_at(socket: WebsocketCommunicator, version: int) -> str:
    """The next frame carrying ``version``: the whole board, or the areas of it that the
    change to that version changed (earlier frames are skipped)."""
    while True:
        frame = await socket.receive_from(timeout=WAIT)
        shows = 'id="board"' in frame or "data-area" in frame
        if shows and f'data-version="{version}"' in frame:
            return frame


def version_of(frame: str) -> int:
    return int(re.search(r'id="board"[^>]*data-version="(\d+)"', frame, re.S).group(1))


def spotting_table() -> Table:
    table = seat_table(4)
    assert table.name(number=2).status_code == 200
    return table


def test_after_a_touch_each_audience_gets_its_own_board():
    """K4/K5: the Stargazers' sockets get the key on dark cards; the Spotters', the
    spectator's and a stranger's do not."""
    table = spotting_table()

    async def scenario():
        sockets = {}
        for n, client in table.seats.items():
            sockets[f"seat {n}"] = await open_socket(client, table.room.code)
        sockets["spectator"] = await open_socket(table.spectator, table.room.code)
        sockets["stranger"] = await open_socket(None, table.room.code)
        state = await sync_to_async(table.state)()
        for who, (_, snapshot) in sockets.items():
            gazer = who in ("seat 1", "seat 2")
            assert bool(dark_card_findings(snapshot, state)) is gazer, who
            assert 'id="lobby"' in snapshot and version_of(snapshot) == state.version

        haze = (await sync_to_async(table.dark)(Key.HAZE))[0]
        spotting = await sync_to_async(table.spotter)()  # the seat whose turn the haze ends
        response = await sync_to_async(table.touch)(haze)
        assert response.status_code == 200
        state = await sync_to_async(table.state)()
        assert haze in state.lit
        for who, (socket, _) in sockets.items():
            frame = await pushed_at(socket, state.version)
            gazer = who in ("seat 1", "seat 2")
            assert ("key-legend" in frame) is gazer, who  # each socket is in its own audience
            # Its cards can no longer be touched: that Spotter's whole sky, nobody else's.
            assert ('id="sky"' in frame) is (who == f"seat {spotting}"), who
            assert not dark_card_findings(frame, state), who  # a turn's end: no dark card
            assert 'id="board"' not in frame and 'hx-swap-oob="true"' in frame, who
            assert "key-haze" in frame, who  # the lit card shows its key to everyone (K5)
            assert "haze ended the turn" in frame  # T9, for everyone
        for socket, _ in sockets.values():
            await socket.disconnect()

    run(scenario)


def test_an_accepted_word_reaches_everyone_and_a_refused_one_no_one():
    """T3: the reason is in the Stargazer's HTTP response only; T4: the word, to all."""
    table = seat_table(4)

    async def scenario():
        sockets = [await open_socket(c, table.room.code) for c in table.seats.values()]
        sockets.append(await open_socket(table.spectator, table.room.code))
        response = await sync_to_async(table.name)(word=REFUSED_WORD)
        assert response.status_code == 422
        reason = notice(response)
        for socket, _ in sockets:
            assert await socket.receive_nothing(timeout=1)

        word = await sync_to_async(table.word)()
        response = await sync_to_async(table.name)(number=1, word=word)
        assert response.status_code == 200
        state = await sync_to_async(table.state)()
        for socket, _ in sockets:
            frame = await pushed_at(socket, state.version)
            assert word.upper() in frame and reason not in frame
            await socket.disconnect()

    run(scenario)


def test_a_reconnecting_socket_resyncs_to_the_current_board():
    """A browser that slept or dropped gets the board as it is now on (re)connect."""
    table = spotting_table()
    spotter = table.seats[table.spotter()]

    async def scenario():
        socket, snapshot = await open_socket(spotter, table.room.code)
        before = version_of(snapshot)
        await socket.disconnect()

        own = (await sync_to_async(table.dark_own)())[0]
        assert (await sync_to_async(table.touch)(own)).status_code == 200
        assert (await sync_to_async(table.stop)()).status_code == 200
        state = await sync_to_async(table.state)()
        assert state.version > before

        socket, snapshot = await open_socket(spotter, table.room.code)
        assert version_of(snapshot) == state.version
        assert "stopped, one touch banked" in snapshot
        assert not dark_card_findings(snapshot, state)
        await socket.disconnect()

    run(scenario)


def test_lobby_changes_reach_every_socket_and_the_start_moves_sockets_to_their_audience():
    """Seats update live; when the game starts each socket gets its own audience's board,
    and the next push follows it (the Stargazer's with the key, the Spotter's without)."""
    table = seat_table(2, start=False)

    async def scenario():
        host, _ = await open_socket(table.host, table.room.code)
        guest, _ = await open_socket(table.seats[2], table.room.code)
        newcomer = Client()
        response = await sync_to_async(join)(newcomer, table.room, "Cyd")
        assert response.status_code == 200
        assert (await sync_to_async(sit)(newcomer, table.room, 3)).status_code == 200
        for socket in (host, guest):
            frame = await socket.receive_from(timeout=WAIT)
            while "Cyd" not in frame or "seat-name" not in frame:
                frame = await socket.receive_from(timeout=WAIT)

        assert (await sync_to_async(table.start)()).status_code == 200
        state = await sync_to_async(table.state)()
        gazer_frame = await pushed_at(host, state.version)
        while not dark_card_findings(gazer_frame, state):  # the public push comes first
            gazer_frame = await pushed_at(host, state.version)
        spotter_frame = await pushed_at(guest, state.version)
        assert not dark_card_findings(spotter_frame, state)

        # A word comes as areas: the Stargazer's status still explains the key (its legend),
        # the Spotter's does not, and the Spotter's cards become touchable without it.
        assert (await sync_to_async(table.name)(number=1)).status_code == 200
        state = await sync_to_async(table.state)()
        gazer_frame = await pushed_at(host, state.version)
        assert "key-legend" in gazer_frame
        spotter_frame = await pushed_at(guest, state.version)
        assert "key-legend" not in spotter_frame and 'id="sky"' in spotter_frame
        assert not dark_card_findings(spotter_frame, state)
        await host.disconnect()
        await guest.disconnect()

    run(scenario)


def test_a_browser_that_opened_the_link_before_joining_gets_its_seat_s_pushes():
    """The socket opens with the page, before the visitor picks a name and sits: its
    lobby panel and, once the game starts, its board follow the seat it took."""
    table = seat_table(1, start=False)
    visitor = Client()
    page(visitor, table.room)

    async def scenario():
        socket, _ = await open_socket(visitor, table.room.code)
        assert (await sync_to_async(join)(visitor, table.room, "Vic")).status_code == 200
        frame = await socket.receive_from(timeout=WAIT)
        assert "You are <strong>Vic</strong>" in frame  # not a stranger's panel
        assert (await sync_to_async(sit)(visitor, table.room, 2)).status_code == 200
        table.seats[2] = visitor
        assert (await sync_to_async(table.start)()).status_code == 200
        assert (await sync_to_async(table.name)(number=1)).status_code == 200
        state = await sync_to_async(table.state)()
        # Before Dawn: the visitor in seat 2 is a Spotter of the crew now spotting, so its
        # socket's board has touchable cards (the public board's are all disabled).
        frame = await pushed_at(socket, state.version)
        cards = parse_cards(frame).cards
        assert len(cards) == 24 and all("disabled" not in c.attrs for c in cards)
        assert not dark_card_findings(frame, state)
        await socket.disconnect()

    run(scenario)


def test_a_stargazer_who_stands_up_stops_receiving_the_key():
    """K4/K5: the socket's audience follows the seat: standing up mid-game moves it to
    the public group, and the next push to it carries no key."""
    table = spotting_table()
    gazer = table.seats[table.stargazer()]

    async def scenario():
        socket, snapshot = await open_socket(gazer, table.room.code)
        state = await sync_to_async(table.state)()
        assert dark_card_findings(snapshot, state)
        response = await sync_to_async(post)(gazer, table.room, "stand")
        assert response.status_code == 200
        frame = await pushed_at(socket, state.version)
        assert not dark_card_findings(frame, state)
        haze = (await sync_to_async(table.dark)(Key.HAZE))[0]
        assert (await sync_to_async(table.touch)(haze)).status_code == 200
        state = await sync_to_async(table.state)()
        frame = await pushed_at(socket, state.version)
        assert not dark_card_findings(frame, state) and "key-legend" not in frame
        assert await socket.receive_nothing(timeout=0.5)  # and no Stargazer's board after
        await socket.disconnect()

    run(scenario)


def test_a_foreign_origin_is_refused():
    """The websocket's Origin must be the page's own (config/origins.py; more in
    tests/realtime/test_socket_limits.py)."""
    table = seat_table(2)

    async def scenario():
        socket, connected = await connect(table.host, table.room.code, b"http://evil.example")
        assert not connected
        await socket.disconnect()
        socket, connected = await connect(table.host, table.room.code, b"http://testserver")
        assert connected  # the positive control
        await socket.disconnect()

    run(scenario)


@pytest.mark.parametrize("code", ["nope-nope-nope-nope", "abcd-efgh-jkmn-pqrs"])
def test_an_unknown_room_closes_the_socket_with_4404(code):
    """Malformed or well-formed but unknown: accepted, then closed with 4404, so the page
    knows there is no room to come back to (a refused handshake reads as 1006, retried)."""

    async def scenario():
        socket, connected = await connect(None, code)
        assert connected
        assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
        await socket.disconnect()

    run(scenario)


def test_a_push_reaches_its_socket_without_a_hop_to_the_database_thread(monkeypatch):
    """A board pushed to a socket is sent from the event loop as it arrives; channels would
    first hop to its synchronous thread to close old database connections, for every push
    to every socket."""
    table = seat_table(4)
    hops: list[str] = []
    hop = sync.SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        hops.append(self.func.__qualname__)
        return await hop(self, *args, **kwargs)

    async def scenario():
        socket, _ = await open_socket(table.spectator, table.room.code)
        await asyncio.sleep(0.2)  # the socket's first view and joins are done
        monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
        try:
            await get_channel_layer().group_send(
                f"room-{table.room.pk}-public",
                {"type": "board.push", "html": "<p>pushed</p>", "version": 99},
            )
            frame = await socket.receive_from(timeout=WAIT)
        finally:
            monkeypatch.undo()
            await socket.disconnect()
        return frame

    assert async_to_sync(scenario)() == "<p>pushed</p>"
    # The closing hop (channels' test communicator swaps its function for ``no_op``).
    assert not {"close_old_connections", "no_op"} & set(hops), hops
