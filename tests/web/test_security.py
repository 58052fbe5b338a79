"""CSRF on every POST, the session cookie's flags, and identities that stay private."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.web.rooms import HX, create_room, join, page, post, seat_table, sit

pytestmark = pytest.mark.django_db


def csrf_client() -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    return client, client.cookies["csrftoken"].value


def test_creating_a_room_needs_the_csrf_token():
    client, token = csrf_client()
    assert client.post("/rooms").status_code == 403
    response = client.post("/rooms", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302  # the positive control: the token is what was missing


@pytest.mark.parametrize("action", ["join", "sit", "stand", "free", "clock", "start"])
def test_lobby_posts_need_the_csrf_token(action):
    table = seat_table(2, start=False)
    client, token = csrf_client()
    data = {"name": "Zed", "seat": "2", "step": "60"}
    assert client.post(f"/r/{table.room.code}/{action}", data, **HX).status_code == 403
    response = client.post(f"/r/{table.room.code}/{action}", data, HTTP_X_CSRFTOKEN=token, **HX)
    assert response.status_code != 403 or b"CSRF" not in response.content


@pytest.mark.parametrize("action", ["play/name", "play/touch", "play/stop", "tick"])
def test_game_posts_need_the_csrf_token(action):
    table = seat_table(2)
    client, token = csrf_client()
    room = table.room
    assert client.post("/rooms", {"csrfmiddlewaretoken": token}).status_code == 302
    data = {"word": "ocean", "number": "1", "card": "0", "version": "1"}
    response = client.post(f"/r/{room.code}/{action}", data, **HX)
    assert response.status_code == 403 and b"CSRF" in response.content
    response = client.post(f"/r/{room.code}/{action}", data, HTTP_X_CSRFTOKEN=token, **HX)
    assert b"CSRF" not in response.content


def test_the_page_carries_the_csrf_token_for_htmx():
    table = seat_table(2, start=False)
    assert '"X-CSRFToken": "' in page(table.host, table.room)


def test_the_session_cookie_is_httponly_and_samesite_lax():
    client = Client()
    response = client.post("/rooms")
    cookie = response.cookies["sessionid"]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    client.get("/")
    assert client.cookies["csrftoken"]["samesite"] == "Lax"


def test_a_joiner_gets_a_session_cookie_with_the_same_flags():
    host = Client()
    room = create_room(host)
    guest = Client()
    response = join(guest, room, "Bo")
    cookie = response.cookies["sessionid"]
    assert cookie["httponly"] is True and cookie["samesite"] == "Lax"


def test_no_page_shows_anyone_s_identity():
    """Identity is the session: it is never printed, so it cannot be copied from a page."""
    table = seat_table(4)
    identities = [c.session["identity"] for c in table.seats.values()]
    for client in [*table.seats.values(), table.spectator, Client()]:
        html = page(client, table.room)
        for identity in identities:
            assert identity not in html


def test_another_browser_cannot_take_a_seat_by_name():
    table = seat_table(2, start=False)
    intruder = Client()
    response = join(intruder, table.room, "ada")
    assert response.status_code == 409
    assert sit(intruder, table.room, 1).status_code == 403
    assert post(intruder, table.room, "stand").status_code == 403
