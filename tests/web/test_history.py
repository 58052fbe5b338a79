"""History and replay: a finished game, step by step, folded from its stored events."""

import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from games import store
from games.constellate.game import GAME
from games.constellate.rules import Expire
from moderation.apps import MODERATORS
from tests.support.games import legal_commands, when
from tests.web.rooms import seat_table

pytestmark = pytest.mark.django_db


def _finish(table):
    """Play the table's game to its end with every step expiring (a forfeit or the dawn)."""
    state = table.state()
    while not state.ended:
        now = state.deadline
        state = GAME.act(table.room.game_id, Expire(state.step_started), now=now).state
    return state


def test_the_replay_equals_every_state_the_live_game_went_through():
    game, outcome = GAME.start(players=6, step_seconds=60, rng=random.Random(11))
    rng = random.Random(12)
    live = {outcome.state.version: outcome.state}
    state, now = outcome.state, outcome.state.deadline - timedelta(seconds=59)
    while not state.ended:
        command = rng.choice(legal_commands(state, rng))
        now = when(state, command, now)
        result = GAME.act(game.pk, command, now=now)
        assert result.ok, result.refusal
        state = result.state
        live[state.version] = state
    store.forget_cached_states()
    game.refresh_from_db()
    replayed = store.replay(game)
    assert len(replayed) == state.version + 1
    for version, live_state in live.items():
        assert replayed[version] == live_state


def test_everyone_in_the_room_can_replay_a_finished_game_with_the_whole_key_E2():
    table = seat_table(4, step="60")
    table.name(number=1)
    final = _finish(table)
    for client in (*table.seats.values(), table.spectator, Client()):
        response = client.get(f"/r/{table.room.code}/history/1/")
        assert response.status_code == 200
        html = response.content.decode()
        assert f"Step {final.version} of {final.version}" in html
        assert len(re.findall(r'class="card[^"]*key-(gold|teal|haze|comet)', html)) == 24
        cards = re.findall(r'<button[^>]*name="card"[^>]*>', html)
        assert len(cards) == 24 and all("disabled" in card for card in cards)  # nothing to press


def test_stepping_through_the_events_shows_the_sky_as_it_was():
    table = seat_table(2, step="60")
    response = table.name(number=1)
    assert response.status_code == 200
    _finish(table)
    first = table.host.get(f"/r/{table.room.code}/history/1/?step=1").content.decode()
    assert "The sky was dealt" in first
    assert "lit" not in re.findall(r'class="card[^"]*"', first)[0]
    second = table.host.get(f"/r/{table.room.code}/history/1/?step=2").content.decode()
    assert "named" in second and "Step 2 of" in second
    assert 'option value="2"' in second  # jump to the first constellation
    clamped = table.host.get(f"/r/{table.room.code}/history/1/?step=99999").content.decode()
    assert "Step 99999" not in clamped


def test_the_room_links_to_the_replay_once_the_game_is_over():
    table = seat_table(2, step="60")
    _finish(table)
    page = table.seats[2].get(f"/r/{table.room.code}/").content.decode()
    assert f"/r/{table.room.code}/history/" in page
    latest = table.seats[2].get(f"/r/{table.room.code}/history/")
    assert latest.status_code == 302 and latest["Location"].endswith("/history/1/")


def test_a_running_game_cannot_be_replayed_by_players_but_moderators_can_K4():
    table = seat_table(4)
    assert table.seats[3].get(f"/r/{table.room.code}/history/1/").status_code == 403
    admin = User.objects.create_user("mo", password="pw-for-tests-only", is_staff=True)
    admin.groups.add(Group.objects.get(name=MODERATORS))  # tests/web/test_seat_takeover.py
    client = Client()
    client.force_login(admin)
    response = client.get(f"/r/{table.room.code}/history/1/")
    assert response.status_code == 200
    assert 'id="countdown"' not in response.content.decode()


def test_unknown_games_and_rooms_are_not_found():
    table = seat_table(2, start=False)
    assert table.host.get(f"/r/{table.room.code}/history/").status_code == 404
    assert table.host.get(f"/r/{table.room.code}/history/3/").status_code == 404
    assert Client().get("/r/nope-nope-nope-nope/history/1/").status_code == 404


def test_admins_reach_every_games_replay_from_the_admin():
    table = seat_table(2, step="60")
    _finish(table)
    admin = User.objects.create_superuser("root", password="pw-for-tests-only")
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/games/game/").content.decode()
    assert f"/r/{table.room.code}/history/1/" in listing
    page = client.get(f"/admin/games/game/{table.room.game_id}/change/").content.decode()
    assert "SkyDealt" in page and "GameEnded" in page
