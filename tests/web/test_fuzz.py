"""Hostile input at every form field and path parameter: random and malicious values get a
4xx with a message, never a 500, and a refusal changes nothing (events, games, rooms,
players, matches, flags).

The values reach the views as sent (a NUL byte included): under PostgreSQL (the scale-out
run) they would reach the database if a view forgot to read them through games/inputs.py.
"""

import json
import re
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from games.models import Event, Game
from lobby.converters import RoomCode
from lobby.models import Match, Player, Room
from moderation.models import Flag
from tests.web.rooms import HX, create_room, join, seat_table
from tests.web.test_history import _finish

ACTIONS = [
    "join",
    "sit",
    "stand",
    "free",
    "ask",
    "withdraw",
    "let-sit",
    "turn-down",
    "clock",
    "options",
    "start",
    "play/name",
    "play/touch",
    "play/stop",
    "tick",
    "flag",
]
FIELDS = [
    "name",
    "seat",
    "player",
    "step",
    "word",
    "number",
    "version",
    "card",
    "constellation",
    "kind",
    "reason",
    "chart",
    "compass",
    "csrfmiddlewaretoken",
    "",
    "seat[]",
    "x" * 300,
]
SAMPLES = [
    "",
    " ",
    "-1",
    "0",
    "1",
    "2",
    "8",
    "9",
    "24",
    "1e9",
    "NaN",
    "²",
    "¹",
    "①",
    "٣",
    "１",
    "𝟑",
    "0x10",
    " 3 ",
    "+3",
    "9" * 5000,
    "0" * 40 + "1",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "\x00",
    "bad\x00word",
    "1\x00",
    "\ud7ff",
    "\u3164",
    "\u2800",
    "\u200b",
    "\u202eevil",
    "\u0420" + "1",  # a Cyrillic Р beside P1
    "a" + "\u0301" * 23,
    "🌟" * 50,
    "None",
    "null",
    "[]",
    "{}",
    "1.5",
    "off",
    "60",
    "120",
    "other",
    "offensive",
    "orange",
    "N",
]
# Other scripts' digits, superscripts, circled and Roman numerals; control and format
# characters (NUL among them); private-use and unassigned ones; marks and fillers.
ODD = st.characters(categories=["Nd", "Nl", "No", "Cc", "Cf", "Co", "Cn", "Mn", "Zs", "Lo"])
HIDDEN = st.characters(categories=["Cc", "Cf"])
HOSTILE = st.one_of(
    st.text(max_size=50),
    st.text(alphabet=ODD, max_size=30),
    st.tuples(
        st.text(max_size=10), st.text(HIDDEN, min_size=1, max_size=3), st.text(max_size=10)
    ).map("".join),
    st.text(min_size=1000, max_size=5000),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(SAMPLES),
)
FORMS = st.dictionaries(st.sampled_from(FIELDS), HOSTILE, max_size=6)
LOOSE = {name: (10**6, window) for name, (_, window) in settings.RATE_LIMITS.items()}
FUZZ = hsettings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def snapshot() -> list:
    """Everything a refusal must leave as it was."""
    return [
        list(model.objects.order_by("pk").values())
        for model in (Game, Event, Room, Player, Match, Flag)
    ]


def _events(room):
    return list(Event.objects.filter(game_id=room.game_id).values_list("seq", "kind", "payload"))


@pytest.fixture
def table():
    with override_settings(RATE_LIMITS=LOOSE):
        table = seat_table(4)
        assert table.name(number=2, word="ocean").status_code == 200  # a constellation to flag
        yield table


@pytest.mark.django_db
@FUZZ
@given(action=st.sampled_from(ACTIONS), data=FORMS)
def test_a_stranger_never_breaks_or_changes_a_game_with_hostile_forms(table, action, data):
    stranger = Client()
    with override_settings(RATE_LIMITS=LOOSE):
        join(stranger, create_room(stranger), "Mallory")  # the host of a room elsewhere
        before = snapshot()
        response = stranger.post(f"/r/{table.room.code}/{action}", data, **HX)
    assert response.status_code < 500
    if action not in ("join", "sit", "stand", "tick"):  # open to anyone with the link
        assert response.status_code >= 400
    if response.status_code >= 400:
        assert snapshot() == before


@pytest.mark.django_db
@FUZZ
@given(action=st.sampled_from(ACTIONS), data=FORMS, seat=st.sampled_from([1, 2, 3, 4]))
def test_a_seated_player_sending_garbage_gets_a_clear_answer_never_a_500(table, action, data, seat):
    before = snapshot()
    with override_settings(RATE_LIMITS=LOOSE):
        response = table.seats[seat].post(f"/r/{table.room.code}/{action}", data, **HX)
    assert response.status_code < 500
    if response.status_code >= 400:
        assert b"notice" in response.content  # a message, shown where the player looks
        assert snapshot() == before


@pytest.mark.django_db
@FUZZ
@given(
    action=st.sampled_from(ACTIONS),
    body=st.one_of(st.binary(max_size=300), HOSTILE.map(str.encode)),
    content_type=st.sampled_from(
        ["application/json", "text/plain", "application/octet-stream", "multipart/form-data"]
    ),
)
def test_wrong_content_types_and_raw_bodies_never_break_anything(table, action, body, content_type):
    before = _events(table.room)
    with override_settings(RATE_LIMITS=LOOSE):
        response = table.seats[3].post(
            f"/r/{table.room.code}/{action}", body, content_type=content_type, **HX
        )
    assert response.status_code < 500
    if action in ("play/name", "play/touch", "play/stop", "flag"):
        assert _events(table.room) == before


# -- path parameters: the room code, the replay's number and step -----------------------------

PAGES = ["", *ACTIONS, "history/", "history/1/", "play/place", "play/move"]


def _near(code: str) -> st.SearchStrategy[str]:
    """A real room's code with one character changed, dropped or added."""
    return st.one_of(
        st.tuples(st.integers(0, len(code) - 1), st.text(min_size=1, max_size=1)).map(
            lambda edit: code[: edit[0]] + edit[1] + code[edit[0] + 1 :]
        ),
        st.integers(0, len(code) - 1).map(lambda i: code[:i] + code[i + 1 :]),
        st.text(min_size=1, max_size=3).map(lambda extra: code + extra),
    )


@pytest.mark.django_db
@FUZZ
@given(
    code=st.one_of(HOSTILE, st.just("nope-nope-nope-nope"), st.just("zzzz-zzzz-zzzz-zzzz")),
    near=st.booleans(),
    edit=st.data(),
    page=st.sampled_from(PAGES),
    method=st.sampled_from(["get", "post"]),
)
def test_a_hostile_room_code_in_any_path_is_a_404_that_changes_nothing(
    table, code, near, edit, page, method
):
    """A code that is not the code alphabet's shape never reaches a view or the database;
    one of the right shape that no room has is the view's 404."""
    if near:
        code = edit.draw(_near(table.room.code))
    if code == table.room.code:
        return
    before = snapshot()
    client = Client()
    with override_settings(RATE_LIMITS=LOOSE), CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(f"/r/{quote(code, safe='')}/{page}", **HX)
    if re.fullmatch(RoomCode.regex, code):  # the right shape: the view answers
        assert response.status_code in (404, 405), (code, page, response.status_code)
    else:
        assert response.status_code == 404, (code, page, response.status_code)
        assert len(queries) == 0, [q["sql"] for q in queries]
    assert snapshot() == before


@pytest.fixture
def finished():
    with override_settings(RATE_LIMITS=LOOSE):
        table = seat_table(2, step="60")
        _finish(table)
        yield table


@pytest.mark.django_db
@FUZZ
@given(step=HOSTILE, seat=st.sampled_from([1, 2]))
def test_any_replay_step_is_the_replay_or_a_clear_400(finished, step, seat):
    before = snapshot()
    url = f"/r/{finished.room.code}/history/1/?step={quote(step, safe='')}"
    response = finished.seats[seat].get(url)
    assert response.status_code in (200, 400), response.status_code
    if response.status_code == 400:
        assert b"step" in response.content
    assert snapshot() == before


@pytest.mark.django_db
@FUZZ
@given(number=st.one_of(HOSTILE, st.integers(min_value=-(2**70), max_value=2**70).map(str)))
def test_any_replay_number_is_a_replay_or_a_404(finished, number):
    before = snapshot()
    response = finished.host.get(f"/r/{finished.room.code}/history/{quote(number, safe='')}/")
    assert response.status_code in (200, 404), (number, response.status_code)
    assert snapshot() == before


@pytest.mark.django_db
def test_other_rooms_ids_and_unknown_rooms_are_refused():
    table = seat_table(4)
    other = seat_table(2)
    before = _events(table.room)
    for action, data in [
        ("play/touch", {"card": 0, "version": table.state().version}),
        ("play/name", {"word": "ocean", "number": 1, "version": table.state().version}),
        ("free", {"seat": 1}),
        ("start", {}),
        ("flag", {"constellation": 1, "kind": "other"}),
    ]:
        response = other.seats[1].post(f"/r/{table.room.code}/{action}", data, **HX)
        assert 400 <= response.status_code < 500
        assert Client().post(f"/r/zzzz-zzzz-zzzz-zzzz/{action}", data).status_code == 404
    assert _events(table.room) == before
    assert json.dumps(before)
