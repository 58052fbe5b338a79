"""A page that missed a change pushed as areas asks its socket for the whole view with
``resync`` (static/platform/socket.js; lobby/consumers.py): it gets the view it would get on
connect, at most once a half second; anything else a browser sends is ignored."""

from __future__ import annotations

import pytest

from lobby import consumers
from tests.realtime.test_pushes import WAIT, open_socket, run
from tests.web.rooms import seat_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_resync_sends_the_whole_view_again_at_most_once_a_half_second(monkeypatch):
    table = seat_table(2)

    async def scenario():
        socket, snapshot = await open_socket(table.seats[1], table.room.code)
        assert 'id="board"' in snapshot
        await socket.send_to(text_data="resync")
        assert await socket.receive_from(timeout=WAIT) == snapshot  # the same whole view
        await socket.send_to(text_data="resync")  # within the half second: not rendered again
        await socket.send_to(text_data="hello")  # not a word the socket knows
        await socket.send_to(text_data="resync please")
        assert await socket.receive_nothing(timeout=0.3)
        monkeypatch.setattr(consumers, "RESYNC_EVERY", 0.0)  # the half second has passed
        await socket.send_to(text_data="resync")
        assert await socket.receive_from(timeout=WAIT) == snapshot
        await socket.disconnect()

    run(scenario)
