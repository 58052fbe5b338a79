"""Limits that hold (issue 13, finding 4): counted on the real client address behind a
trusted proxy and never on one the client wrote, per address as well as per browser; no
session stored for a wrong link; spectators capped; the countdown's tick limited and free
of the write lock while nothing is due."""

from __future__ import annotations

import sqlite3
import time
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory, override_settings

from config.clients import RealClientMiddleware, client_address
from games import store
from games.constellate import game as constellate
from lobby.models import Player
from tests.support.cache import clear_cache
from tests.web.rooms import HX, create_room, join, notice, post, seat_table

PROXY = "10.0.0.1"
BEHIND = {"TRUSTED_PROXIES": [PROXY, "10.1.0.0/16"]}


def limits(**scopes: tuple[int, int]) -> dict:
    return {**settings.RATE_LIMITS, **scopes}


def via_proxy(client_ip: str, chain: str | None = None) -> Client:
    """A browser at ``client_ip`` behind our nginx (which appends the address it saw)."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=chain or client_ip)


# -- the real client address ---------------------------------------------------------------


@override_settings(**BEHIND)
def test_it_takes_the_rightmost_address_that_is_not_one_of_our_proxies():
    assert client_address(PROXY, "203.0.113.5") == "203.0.113.5"
    # whatever the client wrote on the left is ignored
    assert client_address(PROXY, "1.2.3.4, 203.0.113.5") == "203.0.113.5"
    # a chain of our own proxies is walked through
    assert client_address(PROXY, "203.0.113.5, 10.1.2.3") == "203.0.113.5"
    assert client_address(PROXY, "::ffff:203.0.113.5") == "203.0.113.5"
    # only our proxies in the chain: the farthest of them
    assert client_address(PROXY, "10.1.2.3") == "10.1.2.3"
    # garbage where the client should be: the hop that vouched for it
    assert client_address(PROXY, "nonsense, 10.1.2.3") == "10.1.2.3"


@override_settings(**BEHIND)
def test_it_ignores_forwarded_for_from_anyone_else():
    assert client_address("198.51.100.7", "203.0.113.5") == "198.51.100.7"
    assert client_address("198.51.100.7", None) == "198.51.100.7"


def test_with_no_trusted_proxy_forwarded_for_means_nothing():
    assert settings.TRUSTED_PROXIES == []
    assert client_address("127.0.0.1", "203.0.113.5") == "127.0.0.1"


# -- room creation ------------------------------------------------------------------------


@pytest.mark.django_db
@override_settings(RATE_LIMITS=limits(create_room_ip=(3, 600)))
def test_a_fresh_cookie_does_not_reset_the_room_limit():
    for _ in range(3):
        assert Client().post("/rooms").status_code == 302
    refused = Client().post("/rooms")  # a new browser, a new cookie, the same address
    assert refused.status_code == 429
    assert "wait a few minutes" in refused.content.decode()
    assert Client(REMOTE_ADDR="192.0.2.8").post("/rooms").status_code == 302  # another one


@pytest.mark.django_db
@override_settings(RATE_LIMITS=limits(create_room_ip=(2, 600)), **BEHIND)
def test_behind_our_proxy_one_client_cannot_close_room_creation_for_everybody():
    flooder = "203.0.113.5"
    for _ in range(2):
        assert via_proxy(flooder).post("/rooms").status_code == 302
    assert via_proxy(flooder).post("/rooms").status_code == 429
    # writing another address on the left changes nothing: nginx appends the real one
    assert via_proxy(flooder, f"192.0.2.99, {flooder}").post("/rooms").status_code == 429
    # an innocent new browser behind the same proxy is counted apart
    assert via_proxy("203.0.113.6").post("/rooms").status_code == 302


@pytest.mark.django_db
@override_settings(RATE_LIMITS=limits(create_room_ip=(2, 600)), **BEHIND)
def test_an_untrusted_peers_forwarded_for_is_ignored():
    peer = "198.51.100.7"
    for n in range(2):
        spoof = Client(REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
        assert spoof.post("/rooms").status_code == 302
    spoof = Client(REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR="203.0.113.50")
    assert spoof.post("/rooms").status_code == 429  # counted on the peer, whatever it says


def _seen_by_views(**meta: str) -> dict:
    seen = {}

    def view(request: HttpRequest) -> HttpResponse:
        seen.update(request.META)
        return HttpResponse("")

    RealClientMiddleware(view)(RequestFactory().get("/", **meta))
    return seen


def test_an_untrusted_peer_cannot_claim_https_nor_an_address():
    seen = _seen_by_views(HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert "HTTP_X_FORWARDED_PROTO" not in seen and "HTTP_X_FORWARDED_FOR" not in seen
    assert seen["REMOTE_ADDR"] == "127.0.0.1"


@override_settings(**BEHIND)
def test_our_proxy_says_who_the_client_is_and_how_it_came():
    seen = _seen_by_views(
        REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR="203.0.113.5"
    )
    assert seen["REMOTE_ADDR"] == "203.0.113.5"
    assert seen["HTTP_X_FORWARDED_PROTO"] == "https"


# -- joins --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_joins_are_counted_per_address_whatever_the_cookie():
    room = create_room(Client())
    clear_cache()
    with override_settings(RATE_LIMITS=limits(join_ip=(3, 60))):
        for n in range(3):
            assert join(Client(), room, f"Guest {n}").status_code == 200
        refused = join(Client(), room, "Guest 3")
        assert refused.status_code == 429
        assert notice(refused) == "Slow down a moment: too many actions at once."
        assert join(Client(REMOTE_ADDR="192.0.2.8"), room, "Guest 4").status_code == 200
    assert sorted(Player.objects.filter(room=room).values_list("name", flat=True)) == [
        "Guest 0",
        "Guest 1",
        "Guest 2",
        "Guest 4",
    ]


@pytest.mark.django_db
@override_settings(SPECTATORS_PER_ROOM=2)
def test_spectators_are_capped_with_a_clear_refusal():
    table = seat_table(2, start=False)  # two seated, one spectator
    second = Client()
    assert join(second, table.room, "Second").status_code == 200
    sessions = Session.objects.count()
    refused = join(Client(), table.room, "Third")
    assert refused.status_code == 409
    assert notice(refused) == "This room is full: 2 people are watching already. Try again later."
    assert Session.objects.count() == sessions  # the refused newcomer left nothing behind
    assert not Player.objects.filter(room=table.room, name="Third").exists()
    assert join(second, table.room, "Second again").status_code == 200  # a rename is no newcomer
    assert post(table.seats[2], table.room, "stand").status_code == 200
    assert Player.objects.filter(room=table.room, seat=None).count() == 3


# -- sessions -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_cookieless_visit_to_a_wrong_link_stores_no_session():
    for code in ("abcd-efgh-jkmn-pqrs", "nope", "x" * 40):
        response = Client().get(f"/r/{code}/")
        assert response.status_code == 404
        assert settings.SESSION_COOKIE_NAME not in response.cookies
    assert Session.objects.count() == 0


@pytest.mark.django_db
def test_a_visit_to_a_real_room_still_gets_an_identity():
    room = create_room(Client())
    before = Session.objects.count()
    response = Client().get(f"/r/{room.code}/")
    assert response.status_code == 200
    assert settings.SESSION_COOKIE_NAME in response.cookies
    assert Session.objects.count() == before + 1


# -- the countdown's tick -----------------------------------------------------------------


@pytest.mark.django_db
@override_settings(RATE_LIMITS=limits(tick=(2, 60), tick_ip=(4, 60)))
def test_the_tick_is_limited_per_browser_and_per_address():
    table = seat_table(2, step="60")
    clear_cache()
    spotter = table.seats[2]
    assert [post(spotter, table.room, "tick").status_code for _ in range(3)] == [200, 200, 429]
    assert post(table.seats[1], table.room, "tick").status_code == 200  # the address's 4th
    assert post(table.spectator, table.room, "tick").status_code == 429  # its 5th


@pytest.mark.django_db
def test_reading_a_game_with_nothing_due_takes_no_lock():
    table = seat_table(2, step="60")
    with mock.patch.object(store, "lock", side_effect=AssertionError("locked")):
        assert constellate.GAME.current(table.room.game_id).deadline is not None
        assert table.host.get(f"/r/{table.room.code}/").status_code == 200
        assert post(table.host, table.room, "tick").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_page_load_and_a_tick_go_through_while_another_writer_holds_sqlite():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's write lock only")
    table = seat_table(2, step="60")
    page = f"/r/{table.room.code}/"
    table.host.get(page)  # the session is stored: the next loads only read it
    blocker = sqlite3.connect(settings.DATABASES["default"]["NAME"], timeout=1)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the database
    try:
        with mock.patch.dict(connection.settings_dict["OPTIONS"], {"timeout": 0.5}):
            connection.close()
            start = time.monotonic()
            loaded = table.host.get(page)
            ticked = table.host.post(f"/r/{table.room.code}/tick", **HX)
            elapsed = time.monotonic() - start
    finally:
        blocker.rollback()
        blocker.close()
        connection.close()
    assert loaded.status_code == 200
    assert ticked.status_code == 200, ticked.content
    assert elapsed < 0.5  # neither waited for the lock
