"""Issue 13, finding 3 and the names and reasons of finding 6, each reproduced and refused:
'²' as a number, a NUL byte in free text or a room link, the database refusing a value,
invisible, look-alike and over-accented names. A 4xx with a message, never a 500, and
nothing changed (games/inputs.py, lobby/converters.py, games/middleware.py)."""

import logging

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import DataError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config.asgi import application
from games.constellate.rules import Key
from lobby.models import Player
from moderation.models import Flag
from tests.web.rooms import HX, join, notice, post, seat_table
from tests.web.test_fuzz import snapshot
from tests.web.test_history import _finish

pytestmark = pytest.mark.django_db

DIGITS_ELSEWHERE = ["²", "¹", "①", "٣", "１", "𝟑"]


def _with_a_constellation():
    table = seat_table(4)
    assert table.name(number=2, word="ocean").status_code == 200
    return table


def _flag(table, seat=3, **data):
    return post(table.seats[seat], table.room, "flag", **{"kind": "other", **data})


def _no_secret(text: str) -> None:
    """Nothing from the key (a card's key class, a key word) nor from the settings."""
    assert "key-" not in text and "Traceback" not in text
    for key in Key:
        assert f"key={key}" not in text and repr(key) not in text
    assert settings.SECRET_KEY not in text
    assert "DATABASE" not in text and "SECRET_KEY" not in text


# -- numbers: ASCII digits only ---------------------------------------------------------------


@pytest.mark.parametrize("raw", DIGITS_ELSEWHERE)
def test_a_superscript_constellation_in_a_flag_is_a_400(raw):
    table = _with_a_constellation()
    before = snapshot()
    response = _flag(table, constellation=raw)
    assert response.status_code == 400
    assert "written with the digits 0 to 9" in notice(response)
    assert snapshot() == before


@pytest.mark.parametrize("raw", DIGITS_ELSEWHERE)
def test_a_superscript_replay_step_is_a_400_with_a_message(raw):
    table = seat_table(2, step="60")
    _finish(table)
    response = table.host.get(f"/r/{table.room.code}/history/1/", {"step": raw})
    assert response.status_code == 400
    assert b"The step must be a whole number written with the digits 0 to 9." in response.content
    assert table.host.get(f"/r/{table.room.code}/history/1/", {"step": "2"}).status_code == 200


@pytest.mark.parametrize("raw", DIGITS_ELSEWHERE)
def test_superscript_seats_cards_and_versions_are_400s(raw):
    table = seat_table(4)
    before = snapshot()
    spotter = table.seats[table.stargazer()]
    for action, data in [
        ("free", {"seat": raw}),
        ("play/name", {"word": "ocean", "number": raw, "version": table.state().version}),
        ("play/name", {"word": "ocean", "number": 1, "version": raw}),
    ]:
        client = table.host if action == "free" else spotter
        response = post(client, table.room, action, **data)
        assert response.status_code == 400, (action, response.status_code)
        assert "digits 0 to 9" in notice(response)
    assert snapshot() == before


# -- NUL and control characters in free text ---------------------------------------------------


@pytest.mark.parametrize("reason", ["bad\x00word", "bad\x07word", "line\nbreak", "rtl\u202eword"])
def test_a_flag_reason_with_a_control_character_is_a_400_with_no_secret(reason, caplog):
    table = _with_a_constellation()
    before = snapshot()
    with caplog.at_level(logging.DEBUG):
        response = _flag(table, constellation="1", reason=reason)
    assert response.status_code == 400
    assert "The reason cannot hold control characters or invisible ones." in notice(response)
    _no_secret(response.content.decode())
    for record in caplog.records:
        _no_secret(record.getMessage())
    assert snapshot() == before
    assert not Flag.objects.exists()


def test_a_flag_reason_is_kept_normalized():
    table = _with_a_constellation()
    assert _flag(table, constellation="1", reason="  it  is\u00a0the ｓｅａ ").status_code == 200
    assert Flag.objects.get().reason == "it is the sea"


def test_a_nul_in_the_clue_word_is_a_400_and_names_nothing():
    table = seat_table(4)
    before = snapshot()
    response = table.name(number=1, word="oce\x00an")
    assert response.status_code == 400
    assert "The word cannot hold control characters" in notice(response)
    assert snapshot() == before


@pytest.mark.parametrize("code", ["%00", "abcd-efgh-jkmn-pqr%00", "x" * 400, "NOPE-NOPE-NOPE-NOPE"])
def test_a_malformed_room_link_is_a_404_that_asks_the_database_nothing(code):
    client = Client()
    for method, page in [("get", ""), ("post", "join"), ("post", "flag"), ("get", "history/1/")]:
        with CaptureQueriesContext(connection) as queries:
            response = getattr(client, method)(f"/r/{code}/{page}", {"name": "Al"})
        assert response.status_code == 404, (method, page)
        assert len(queries) == 0, [q["sql"] for q in queries]
        _no_secret(response.content.decode())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("code", ["%00", "nope", "x" * 400])
def test_a_socket_for_a_malformed_room_link_is_closed_like_an_unknown_rooms(code):
    async def scenario():
        headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
        socket = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=headers)
        connected, _ = await socket.connect(timeout=5)
        assert connected  # accepted, so the close code reaches the browser (not 1006)
        assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}

    async_to_sync(scenario)()


# -- what the database refuses is a 400, never a 500 -------------------------------------------


def _refuse_with_data_error(*args, **kwargs):
    raise DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")


def test_a_value_the_database_refuses_is_a_400_saying_nothing_changed(monkeypatch):
    table = _with_a_constellation()
    monkeypatch.setattr("moderation.views.flag_constellation", _refuse_with_data_error)
    before = snapshot()
    response = _flag(table, constellation="1", reason="fine")
    assert response.status_code == 400
    assert "cannot be stored" in notice(response)
    assert 'id="lobby-notice"' in response.content.decode()  # both places a player looks
    assert "NUL" not in response.content.decode()  # the database's words stay in the server
    assert snapshot() == before


def test_a_page_the_database_refuses_is_a_400_page(monkeypatch):
    table = seat_table(2, start=False)
    monkeypatch.setattr("lobby.views.page_context", _refuse_with_data_error)
    response = table.host.get(f"/r/{table.room.code}/")
    assert response.status_code == 400
    assert b"cannot be stored" in response.content


# -- names a reader can tell apart -------------------------------------------------------------


def _players(room):
    return list(Player.objects.filter(room=room).values_list("name", "seat"))


@pytest.fixture
def lobby():
    return seat_table(2, start=False)


@pytest.mark.parametrize(
    "name",
    ["\u3164", "\u3164\u3164\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u2800\u2800"],
    ids=["hangul-filler", "three-fillers", "choseong", "jungseong", "halfwidth", "braille"] + ["2"],
)
def test_an_invisible_name_is_refused_with_a_message(lobby, name):
    before = _players(lobby.room)
    response = join(Client(), lobby.room, name)
    assert response.status_code == 400
    assert "invisible" in notice(response)
    assert _players(lobby.room) == before


def test_a_name_with_a_hidden_character_beside_letters_is_refused(lobby):
    for name in ["Ada\u3164", "A\u200bda", "Ad\u2800a", "Zed\x00", "Zed\u202e"]:
        response = join(Client(), lobby.room, name)
        assert response.status_code == 400, name
        assert "cannot hold control characters or invisible ones" in notice(response)


def test_a_name_with_23_combining_accents_is_refused(lobby):
    before = _players(lobby.room)
    response = join(Client(), lobby.room, "Zed" + "\u0301" * 23)
    assert response.status_code == 400
    assert "too many accents on one letter" in notice(response)
    assert _players(lobby.room) == before
    assert join(Client(), lobby.room, "Zoë").status_code == 200  # one accent is a name


def test_a_name_of_symbols_only_asks_for_a_visible_letter(lobby):
    response = join(Client(), lobby.room, "...")
    assert response.status_code == 400
    assert "at least one visible letter or digit" in notice(response)


LOOKS_LIKE_P1 = " looks just like P1, who is already here. Pick another name."


def test_a_cyrillic_look_alike_beside_a_latin_name_is_refused():
    table = seat_table(2, start=False)
    assert join(Client(), table.room, "P1").status_code == 200
    before = _players(table.room)
    for look_alike in ["\u04201", "\u04401", "Pl", "PI", "\u0420\u04c0"]:  # Р1 р1 Pl PI РӀ
        response = join(Client(), table.room, look_alike)
        assert response.status_code == 409, look_alike
        assert notice(response).endswith(LOOKS_LIKE_P1)
    assert "already called p1" in notice(join(Client(), table.room, "p1"))
    assert _players(table.room) == before


def test_the_look_alike_refusal_says_which_name_it_looks_like():
    table = seat_table(2, start=False)  # Ada and Bo
    response = join(Client(), table.room, "\u0410d\u0430")  # Cyrillic А and а
    assert response.status_code == 409
    assert notice(response) == "Аdа looks just like Ada, who is already here. Pick another name."


def test_a_name_is_normalized_before_it_is_kept(lobby):
    client = Client()
    assert join(client, lobby.room, "  Ｚｅｄ\u3000 Ｌｅｅ ").status_code == 200
    assert ("Zed Lee", None) in _players(lobby.room)


def test_renaming_yourself_to_a_look_alike_of_your_own_name_is_allowed(lobby):
    assert join(lobby.host, lobby.room, "\u0410da").status_code == 200  # was Ada


def test_the_htmx_lobby_refusal_reaches_the_lobby_notice(lobby):
    response = lobby.host.post(f"/r/{lobby.room.code}/join", {"name": "\u3164"}, **HX)
    assert 'id="lobby-notice"' in response.content.decode()
