"""What a request reads before it acts: a player's row comes with its room, the room's game
and the game's match in one statement; a browser not in the room reads the room alone."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.constellate import game as constellate
from lobby import renders
from tests.web.rooms import Table, create_room, join, page, post, seat_table

pytestmark = pytest.mark.django_db


def reads_before_the_lock(queries: CaptureQueriesContext) -> list[str]:
    """The statements before the service takes the game's lock (a BEGIN, or a SAVEPOINT
    inside the test's transaction)."""
    sql = [q["sql"] for q in queries.captured_queries]
    return sql[: next(i for i, s in enumerate(sql) if not s.startswith("SELECT"))]


def test_a_spotters_touch_reads_the_room_and_the_spotter_in_one_statement() -> None:
    table = seat_table(4)
    table.name(number=2)
    card, seat, version = table.dark_own()[0], table.spotter(), table.state().version
    with CaptureQueriesContext(connection) as queries:
        answer = post(table.seats[seat], table.room, "play/touch", card=card, version=version)
    assert answer.status_code == 200
    assert table.state().version == version + 1  # the touch was taken
    (read,) = reads_before_the_lock(queries)
    for table_name in ("lobby_player", "lobby_room", "games_game", "lobby_match"):
        assert f'"{table_name}"' in read


def test_a_browser_that_joined_another_room_still_sees_this_room_and_its_game() -> None:
    table = seat_table(4)
    elsewhere = Client()
    assert join(elsewhere, create_room(elsewhere), "Vega").status_code in (200, 302)
    html = page(elsewhere, table.room)  # an identity, but no player here: the room alone
    for name in table.names.values():
        assert name in html  # the seated players' names, read with the match
    assert 'id="board"' in html
    assert "Vega" not in html


def test_a_lobby_pass_reads_the_rooms_players_once_for_every_browser() -> None:
    """After a change every socket of the room is re-rendered in one pass: each browser gets
    its own lobby (its seat marked) and its audience's board, and the players are read once,
    not once for each browser's row, seats and spectators."""
    table = seat_table(4)
    browsers = {seat: client.session.session_key for seat, client in table.seats.items()}
    sessions = {*browsers.values(), table.spectator.session.session_key, None}
    with CaptureQueriesContext(connection) as queries:
        views = renders._views.func(table.room.pk, sessions)
    player_reads = [q for q in queries.captured_queries if '"lobby_player"' in q["sql"]]
    assert len(player_reads) == 1
    assert views is not None and set(views) == sessions
    for seat, session in browsers.items():
        lobby, audience = views[session]
        assert audience == views_of_seat(table, seat)
        assert 'id="board"' in lobby
    assert views[None][1] == views[table.spectator.session.session_key][1] == "public"


def views_of_seat(table: Table, seat: int) -> str:
    state = table.state()
    return constellate.GAME.screens.audience_of(state, seat)
