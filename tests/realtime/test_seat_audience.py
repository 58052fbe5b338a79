"""The socket's audience follows the seat bound to its browser (K4/K5): a Stargazer freed by
the host, or a player who stands up, is away and their socket leaves the secret audience at
once; coming back rejoins it; a newcomer the host lets in joins the seat's audience, and the
player they replaced does not."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from lobby.models import Player
from tests.realtime.test_pushes import open_socket, pushed_at, run
from tests.web import uos_rooms
from tests.web.rooms import dark_card_findings, join, post, seat_table, sit

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_freed_stargazers_socket_stops_receiving_the_key_until_they_sit_back():
    table = seat_table(4)
    gazer = table.stargazer()
    client = table.seats[gazer]

    async def scenario():
        socket, snapshot = await open_socket(client, table.room.code)
        state = await sync_to_async(table.state)()
        assert dark_card_findings(snapshot, state)
        freed = await sync_to_async(post)(table.host, table.room, "free", seat=gazer)
        assert freed.status_code == 200
        frame = await pushed_at(socket, state.version)
        assert not dark_card_findings(frame, state)
        assert "away from seat" in frame

        back = await sync_to_async(sit)(client, table.room, gazer)
        assert back.status_code == 200
        frame = await pushed_at(socket, state.version)
        assert dark_card_findings(frame, state)  # the positive control
        await socket.disconnect()

    run(scenario)


async def frames_until_quiet(socket) -> list[str]:
    """Every frame the socket gets until it has been quiet for half a second."""
    frames = []
    while not await socket.receive_nothing(timeout=0.5):
        frames.append(await socket.receive_from(timeout=5))
    return frames


def test_a_newcomer_let_in_gets_the_seats_secrets_and_the_old_player_does_not():
    table = uos_rooms.seat_table()
    guest = table.seats[2]
    flo = Client()

    async def scenario():
        state = await sync_to_async(table.state)()
        card = state.card_of(2).name
        assert (await sync_to_async(join)(flo, table.room, "Flo")).status_code == 200
        old, snapshot = await open_socket(guest, table.room.code)
        assert card in snapshot
        new, snapshot = await open_socket(flo, table.room.code)
        assert card not in snapshot
        assert (await sync_to_async(post)(guest, table.room, "stand")).status_code == 200
        assert (await sync_to_async(post)(flo, table.room, "ask", seat=2)).status_code == 200
        for frame in [*await frames_until_quiet(old), *await frames_until_quiet(new)]:
            assert card not in frame

        flo_id = await sync_to_async(lambda: Player.objects.get(name="Flo").pk)()
        answer = await sync_to_async(post)(table.host, table.room, "let-sit", seat=2, player=flo_id)
        assert answer.status_code == 200
        assert card in (await frames_until_quiet(new))[-1]
        frames = await frames_until_quiet(old)
        assert frames and not any(card in frame for frame in frames)
        for socket in (old, new):
            await socket.disconnect()

    run(scenario)
