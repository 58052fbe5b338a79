"""Under One Sky over the websocket, through ``config.asgi.application`` and the channel
layer the settings configure: each socket joins its own audience (a player, or the public),
gets the whole current view on connect, and every action's push; nobody's frames carry the
other player's card."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tests.realtime.test_pushes import open_socket, pushed_at, run, version_of
from tests.web.uos_rooms import card_markup, seat_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_player_and_the_public_get_their_own_board_on_connect_and_after_a_move():
    table = seat_table()

    async def scenario():
        state = await sync_to_async(table.state)()
        sockets = {n: await open_socket(c, table.room.code) for n, c in table.seats.items()}
        spectator = await open_socket(table.spectator, table.room.code)
        for n, (_, snapshot) in sockets.items():
            assert version_of(snapshot) == state.version
            assert state.card_of(n).name in snapshot
            assert state.card_of(3 - n).name not in snapshot
        assert not card_markup(spectator[1])

        response = await sync_to_async(table.place)(state.empty_spaces()[0], "blind")
        assert response.status_code == 200
        after = await sync_to_async(table.state)()
        for n, (socket, _) in sockets.items():
            frame = await pushed_at(socket, after.version)
            assert state.card_of(n).name in frame and state.card_of(3 - n).name not in frame
        frame = await pushed_at(spectator[0], after.version)
        assert not card_markup(frame)
        for socket, _ in [*sockets.values(), spectator]:
            await socket.disconnect()

    run(scenario)
