"""A lobby change reaches every socket of a room, rendered once per viewer in a process and
debounced per room (lobby/renders.py): one browser with many sockets costs one render."""

from __future__ import annotations

from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.definition import Screens
from lobby import renders
from tests.realtime.test_pushes import WAIT, open_socket, run
from tests.web.rooms import join, seat_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lobby_change_renders_once_for_all_sockets_of_one_browser():
    table = seat_table(2, start=False)
    code = table.room.code

    async def scenario():
        sockets = [await open_socket(table.host, code) for _ in range(10)]
        stranger, _ = await open_socket(None, code)
        before = renders.renders
        assert (await sync_to_async(join)(Client(), table.room, "Newcomer")).status_code == 200
        for socket, _ in [*sockets, (stranger, None)]:
            frame = await socket.receive_from(timeout=WAIT)
            assert "2 watching" in frame  # the newcomer, on every screen
        assert renders.renders - before == 2  # the host's view, the stranger's view
        for socket, _ in [*sockets, (stranger, None)]:
            assert await socket.receive_nothing(timeout=0.2)
            await socket.disconnect()

    run(scenario)


def test_a_burst_of_changes_is_rendered_once_per_pass():
    table = seat_table(2, start=False)
    code = table.room.code

    async def scenario():
        sockets = [await open_socket(table.host, code) for _ in range(5)]
        before = renders.renders
        for n in range(3):  # three changes in a row, quicker than the debounce
            await sync_to_async(join)(Client(), table.room, f"Guest {n}")
        for socket, _ in sockets:
            frame = await socket.receive_from(timeout=WAIT)
            while not await socket.receive_nothing(timeout=0.3):
                frame = await socket.receive_from(timeout=WAIT)
            assert "4 watching" in frame  # the last state, whatever the frames before
        assert renders.renders - before <= 3  # never a render per socket per change
        for socket, _ in sockets:
            await socket.disconnect()

    run(scenario)


def test_watchers_of_a_running_game_share_one_board_render():
    """Each watcher's lobby panel is their own, but the board a spectator sees is the same
    for all of them: it is rendered once per audience, not once per viewer."""
    table = seat_table(2)
    code = table.room.code
    watchers = [Client() for _ in range(3)]
    for n, watcher in enumerate(watchers):
        assert join(watcher, table.room, f"Watcher {n}").status_code == 200

    async def scenario():
        sockets = [await open_socket(watcher, code) for watcher in watchers]  # first views
        render = Screens.render_board
        with mock.patch.object(Screens, "render_board", autospec=True, side_effect=render) as board:
            assert (await sync_to_async(join)(Client(), table.room, "Late")).status_code == 200
            for socket, _ in sockets:
                assert "watching" in await socket.receive_from(timeout=WAIT)
        audiences = [call.args[2] for call in board.call_args_list]  # (screens, state, audience)
        assert len(audiences) == len(set(audiences)) == 1  # three viewers, one board
        for socket, _ in sockets:
            await socket.disconnect()

    run(scenario)
