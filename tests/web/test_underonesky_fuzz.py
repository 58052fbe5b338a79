"""Hostile input at Under One Sky's forms (place, move, the host's options, a new room):
random and malicious values get 4xx with a message, never a 500, never change a game the
sender has no seat in, and a refusal changes nothing at all."""

import pytest
from django.test import Client, override_settings
from hypothesis import given
from hypothesis import strategies as st

from games.models import Event
from tests.web.rooms import HX, join
from tests.web.test_fuzz import FUZZ, HOSTILE, LOOSE, snapshot
from tests.web.uos_rooms import seat_table

ACTIONS = ["play/place", "play/move", "options", "tick", "start", "sit", "stand", "free", "ask"]
FIELDS = [
    "space",
    "tile",
    "target",
    "origin",
    "version",
    "chart",
    "compass",
    "seat",
    "player",
    "kind",
    "",
]
FORMS = st.dictionaries(st.sampled_from(FIELDS), HOSTILE, max_size=6)


def _events(room):
    return list(Event.objects.filter(game_id=room.game_id).values_list("seq", "kind", "payload"))


@pytest.fixture
def table():
    with override_settings(RATE_LIMITS=LOOSE):
        yield seat_table(step="60")


@pytest.mark.django_db
@FUZZ
@given(action=st.sampled_from(ACTIONS), data=FORMS)
def test_a_stranger_never_breaks_or_changes_a_game_with_hostile_forms(table, action, data):
    stranger = Client()
    with override_settings(RATE_LIMITS=LOOSE):
        join(stranger, table.room, "Mallory")
        before = _events(table.room)
        options = table.refresh().options
        everything = snapshot()
        response = stranger.post(f"/r/{table.room.code}/{action}", data, **HX)
    assert response.status_code < 500
    if action not in ("tick", "sit", "stand"):
        assert response.status_code >= 400
    assert _events(table.room) == before
    assert table.refresh().options == options
    if response.status_code >= 400:
        assert snapshot() == everything


@pytest.mark.django_db
@FUZZ
@given(action=st.sampled_from(ACTIONS), data=FORMS, seat=st.sampled_from([1, 2]))
def test_a_seated_player_sending_garbage_gets_a_clear_answer_never_a_500(table, action, data, seat):
    before = snapshot()
    with override_settings(RATE_LIMITS=LOOSE):
        response = table.seats[seat].post(f"/r/{table.room.code}/{action}", data, **HX)
    assert response.status_code < 500
    if response.status_code >= 400:
        assert b"notice" in response.content
        assert snapshot() == before
    assert table.refresh().options == {"chart": "orange", "compass": "N"}  # a game is on


@pytest.mark.django_db
@FUZZ
@given(kind=HOSTILE)
def test_a_new_room_for_any_hostile_game_name_is_refused_or_made(kind):
    before = snapshot()
    with override_settings(RATE_LIMITS=LOOSE):
        response = Client().post("/rooms", {"kind": kind})
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        assert b"Choose one of the games" in response.content
        assert snapshot() == before
