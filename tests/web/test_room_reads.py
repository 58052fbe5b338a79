"""What a request reads before it acts: a player's row comes with its room, the room's game
and the game's match in one statement; a browser not in the room reads the room alone."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.constellate import game as constellate
from games.prepared import Prepared
from lobby import renders, views
from lobby.models import Player, Room
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


# -- the first query, compiled once (games/prepared.py) ---------------------------------------


def _orm_player(code: str, identity: str) -> Player | None:
    return (
        Player.objects.select_related("room__game__match")
        .filter(room__code=code, identity=identity)
        .order_by("pk")
        .first()
    )


def _shown(player: Player) -> tuple:
    """What a request reads of a player, its room, game and match, each from the row read
    with it (no query: the test fails with one)."""
    room = player.room
    game = room.game
    match = views.match_of(room)
    return (
        (player.pk, player.identity, player.seat, player.name, player.joined_at),
        (room.pk, room.code, room.kind, room.host, room.options, room.created_at),
        None if game is None else (game.pk, game.kind, game.version, game.ended_at),
        None if match is None else (match.pk, match.names(), match.bound, match.held),
    )


def test_the_prepared_read_gives_what_the_orm_gives_for_every_player_of_a_running_game() -> None:
    table = seat_table(4)
    table.name(number=2)
    for client in table.seats.values():
        identity = client.session[views.IDENTITY]
        orm = _orm_player(table.room.code, identity)
        assert orm is not None
        with CaptureQueriesContext(connection) as queries:
            prepared = views.PLAYER_IN_ROOM.first(table.room.code, identity)
            assert prepared is not None
            shown = _shown(prepared)
        assert len(queries.captured_queries) == 1  # the relations came with the row
        assert shown == _shown(orm)
        assert prepared.room.game.ended_at is None


def test_the_prepared_read_of_a_room_without_a_game_or_a_player() -> None:
    host = Client()
    room = create_room(host)
    assert join(host, room, "Ana").status_code in (200, 302)
    identity = host.session[views.IDENTITY]
    player = views.PLAYER_IN_ROOM.first(room.code, identity)
    assert player is not None and player.room.game is None
    assert _shown(player) == _shown(_orm_player(room.code, identity))
    assert views.PLAYER_IN_ROOM.first(room.code, "no-such-identity") is None
    assert views.PLAYER_IN_ROOM.first("no-such-room", identity) is None
    assert views.ROOM.first("no-such-room") is None
    alone = views.ROOM.first(room.code)
    assert alone is not None and (alone.pk, alone.game) == (room.pk, None)


def test_a_query_whose_lookup_changes_the_value_cannot_be_prepared() -> None:
    contains = Prepared(lambda code: Room.objects.filter(code__contains=code), str)
    with pytest.raises(ValueError, match="as given"):
        contains.run("abc")
    both = Prepared(lambda code: Room.objects.filter(Q(code=code) | Q(code__startswith=code)), str)
    with pytest.raises(ValueError, match="also used changed"):
        both.run("abc")


@pytest.mark.parametrize(
    ("build", "refusal"),
    [
        (lambda code: Room.objects.filter(code=code).values("pk"), "model instances"),
        (lambda code: Room.objects.filter(code=code).prefetch_related("players"), "prefetch"),
        (lambda code: Room.objects.using("default").filter(code=code), "runs alone"),
    ],
)
def test_what_a_prepared_query_would_leave_out_is_refused(build, refusal: str) -> None:
    with pytest.raises(ValueError, match=refusal):
        Prepared(build, str).run("abc")
    with pytest.raises(TypeError, match="takes 1 values"):
        views.ROOM.run("a", "b")
