"""Hostile input at every form: random and malicious values get 4xx with a message, never a
500, and never change a game the sender has no seat in."""

import json

import pytest
from django.conf import settings
from django.test import Client, override_settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from games.models import Event
from tests.web.rooms import HX, join, seat_table

ACTIONS = [
    "join",
    "sit",
    "stand",
    "free",
    "clock",
    "start",
    "name",
    "touch",
    "stop",
    "tick",
    "flag",
]
FIELDS = [
    "name",
    "seat",
    "step",
    "word",
    "number",
    "version",
    "card",
    "constellation",
    "kind",
    "reason",
    "csrfmiddlewaretoken",
    "",
    "seat[]",
    "x" * 300,
]
HOSTILE = st.one_of(
    st.text(max_size=50),
    st.text(min_size=1000, max_size=5000),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(
        [
            "",
            " ",
            "-1",
            "0",
            "8",
            "9",
            "24",
            "1e9",
            "NaN",
            "²",
            "٣",
            "１",
            "0x10",
            "<script>alert(1)</script>",
            "' OR 1=1 --",
            "\x00",
            "\ud7ff",
            "🌟" * 50,
            "None",
            "null",
            "[]",
            "{}",
            "1.5",
            " 3 ",
            "off",
            "60",
            "120",
        ]
    ),
)
FORMS = st.dictionaries(st.sampled_from(FIELDS), HOSTILE, max_size=6)
LOOSE = {
    **settings.RATE_LIMITS,
    "action": (10**6, 10),
    "create_room": (10**6, 600),
    "create_room_ip": (10**6, 600),
}
FUZZ = hsettings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _events(room):
    return list(Event.objects.filter(game_id=room.game_id).values_list("seq", "kind", "payload"))


@pytest.fixture
def table():
    with override_settings(RATE_LIMITS=LOOSE):
        yield seat_table(4)


@pytest.mark.django_db
@FUZZ
@given(action=st.sampled_from(ACTIONS), data=FORMS)
def test_a_stranger_never_breaks_or_changes_a_game_with_hostile_forms(table, action, data):
    stranger = Client()
    with override_settings(RATE_LIMITS=LOOSE):
        join(stranger, seat_table(2, start=False).room, "Mallory")  # seated elsewhere, if at all
        before = _events(table.room)
        response = stranger.post(f"/r/{table.room.code}/{action}", data, **HX)
    assert response.status_code < 500
    if action not in ("join", "sit", "stand", "tick"):  # open to anyone with the link
        assert response.status_code >= 400
    assert _events(table.room) == before


@pytest.mark.django_db
@FUZZ
@given(action=st.sampled_from(ACTIONS), data=FORMS, seat=st.sampled_from([1, 2, 3, 4]))
def test_a_seated_player_sending_garbage_gets_a_clear_answer_never_a_500(table, action, data, seat):
    with override_settings(RATE_LIMITS=LOOSE):
        response = table.seats[seat].post(f"/r/{table.room.code}/{action}", data, **HX)
    assert response.status_code < 500
    if response.status_code >= 400:
        assert b"notice" in response.content  # a message, shown where the player looks


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
    if action in ("name", "touch", "stop", "flag"):
        assert _events(table.room) == before


@pytest.mark.django_db
def test_other_rooms_ids_and_unknown_rooms_are_refused():
    table = seat_table(4)
    other = seat_table(2)
    before = _events(table.room)
    for action, data in [
        ("touch", {"card": 0, "version": table.state().version}),
        ("name", {"word": "ocean", "number": 1, "version": table.state().version}),
        ("free", {"seat": 1}),
        ("start", {}),
        ("flag", {"constellation": 1, "kind": "other"}),
    ]:
        response = other.seats[1].post(f"/r/{table.room.code}/{action}", data, **HX)
        assert 400 <= response.status_code < 500
        assert Client().post(f"/r/zzzz-zzzz-zzzz-zzzz/{action}", data).status_code == 404
    assert _events(table.room) == before
    assert json.dumps(before)
