"""PostgreSQL binds an action's values itself and keeps its statements prepared on each
pooled connection (config/settings.py): an action's reads and its append are no longer
parsed and planned every time. Only meaningful on PostgreSQL: skipped otherwise."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from games import store
from games.constellate.game import GAME
from games.constellate.rules.events import CardTouched
from games.models import Event, Game

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's own statements"),
    pytest.mark.django_db(transaction=True),
]


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_an_action_s_read_and_append_are_prepared_once_run_five_times() -> None:
    game, outcome = GAME.start(players=4, rng=random.Random(3))
    version = outcome.state.version
    for _ in range(6):  # the game's read, five times and more, on one connection
        assert store.game(game.pk).version == version
    assert [s for s in _prepared() if 'FROM "games_game"' in s]
    for card in range(6):  # an append each (no transaction: one statement each)
        version = store.append(game, [CardTouched(seat=3, card=card)], expected_version=version)
    assert [s for s in _prepared() if s.startswith("WITH") and '"games_event"' in s]
    stored = Event.objects.filter(game=game, kind="CardTouched").order_by("seq")
    assert [e.payload["card"] for e in stored] == list(range(6))
    assert Game.objects.get(pk=game.pk).version == version == 7
