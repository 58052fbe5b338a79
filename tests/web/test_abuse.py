"""Abuse and faults at the edges: rate limits, a busy database, unguessable room links."""

import sqlite3
import statistics
import time
from unittest import mock

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import Client, override_settings

from games.models import Event
from lobby.services import CODE_ALPHABET
from tests.support.cache import clear_cache
from tests.web.rooms import events, notice, post, seat_table

LIMITS = {**settings.RATE_LIMITS, "action": (3, 10), "create_room": (2, 600)}


@pytest.mark.django_db
def test_a_browser_that_floods_actions_is_slowed_down_and_nothing_lands():
    table = seat_table(4)
    clear_cache()  # the table's own joins and seats are not the flood
    spotter = table.seats[3]
    with override_settings(RATE_LIMITS=LIMITS):
        for _ in range(3):
            post(spotter, table.room, "play/touch", card=0, version=0)  # refused, but counted
        before = events()
        response = post(spotter, table.room, "play/touch", card=1, version=table.state().version)
        assert response.status_code == 429
        assert notice(response) == "Slow down a moment: too many actions at once."
        assert events() == before
        assert post(table.seats[2], table.room, "stand").status_code == 200  # not slowed


@pytest.mark.django_db
@override_settings(RATE_LIMITS=LIMITS)
def test_room_creation_is_limited_per_browser():
    browser = Client()
    assert browser.post("/rooms").status_code == 302
    assert browser.post("/rooms").status_code == 302
    third = browser.post("/rooms")
    assert third.status_code == 429
    assert "wait a few minutes" in third.content.decode()
    assert Client().post("/rooms").status_code == 302  # another browser still can


@pytest.mark.django_db
def test_a_database_error_gets_try_again_and_changes_nothing():
    table = seat_table(4)
    before = events()
    with mock.patch("games.service.act", side_effect=OperationalError("database is locked")):
        response = table.name(number=1)
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert "try again" in notice(response)
    assert events() == before
    assert table.name(number=1).status_code == 200  # and it works once the table is free


@pytest.mark.django_db(transaction=True)
def test_a_locked_sqlite_database_gets_try_again_not_a_half_applied_game():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's write lock only")
    table = seat_table(4)
    before = list(Event.objects.values_list("seq", "kind"))
    version = table.state().version
    gazer = table.stargazer()  # the crew whose turn it is: a word the game takes, so written
    # (an action the game refuses is decided without the write lock, and answered so)
    blocker = sqlite3.connect(settings.DATABASES["default"]["NAME"], timeout=1)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the database
    try:
        with mock.patch.dict(connection.settings_dict["OPTIONS"], {"timeout": 0.2}):
            connection.close()
            response = post(
                table.seats[gazer], table.room, "play/name", word="ocean", number=1, version=version
            )
    finally:
        blocker.rollback()
        blocker.close()
        connection.close()
    assert response.status_code == 503, response.content
    assert list(Event.objects.values_list("seq", "kind")) == before
    assert table.name(number=1, word="ocean").status_code == 200


def _timed_404(client: Client, code: str) -> tuple[float, bytes]:
    start = time.perf_counter()
    response = client.get(f"/r/{code}/")
    elapsed = time.perf_counter() - start
    assert response.status_code == 404
    return elapsed, response.content


@pytest.mark.django_db
def test_a_wrong_room_link_reveals_nothing_about_real_rooms():
    table = seat_table(2, start=False)
    real = table.room.code
    near = real[:-1] + next(c for c in CODE_ALPHABET if c != real[-1])  # one letter off
    client = Client()
    far_times, near_times, bodies = [], [], set()
    for i in range(30):
        far = "-".join(CODE_ALPHABET[(i + k) % len(CODE_ALPHABET)] * 4 for k in range(4))
        elapsed, body = _timed_404(client, far)
        far_times.append(elapsed)
        bodies.add(body.replace(far.encode(), b"CODE"))
        elapsed, body = _timed_404(client, near)
        near_times.append(elapsed)
        bodies.add(body.replace(near.encode(), b"CODE"))
    assert len(bodies) == 1  # the same page, whatever the wrong link
    assert real.encode() not in b"".join(bodies)
    assert statistics.median(far_times) < 0.05  # a wrong link is answered quickly
    assert abs(statistics.median(far_times) - statistics.median(near_times)) < 0.005


@pytest.mark.django_db
def test_room_links_carry_at_least_64_bits_and_read_aloud_cleanly():
    host = Client()
    codes = {host.post("/rooms").url.split("/")[2] for _ in range(5)}
    for code in codes:
        letters = code.replace("-", "")
        assert len(letters) == 16 and set(letters) <= set(CODE_ALPHABET)
    assert len(CODE_ALPHABET) ** 16 > 2**64
    assert not set("01lio") & set(CODE_ALPHABET)
    assert len(codes) == 5
