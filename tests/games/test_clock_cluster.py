"""The clock end to end with the real background processes (tests/support/cluster.py):
django-q2's cluster and the clock's tick, against the test's file database, 2 s steps.

Also: the embedded default's channel layer (channels-lite, SQLite) crosses processes, so a
push made in the q2 worker reaches daphne's websockets."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers
from django.db import connection
from django.utils import timezone
from django_q.models import Schedule, Task

from games import clock, store
from games.constellate import rules
from games.constellate.game import GAME
from games.models import Event, Game
from tests.support.cluster import ROOT, run_cluster

pytestmark = pytest.mark.django_db(transaction=True)

STEP_SECONDS = 2  # the lobby offers 60/90/120; the service takes any positive length
LATE_AT_MOST = 1.5  # seconds after the deadline (the precision figure is bench's)


@pytest.fixture
def cluster(transactional_db):
    with run_cluster() as running:
        yield running


def _wait_for(predicate, timeout, cluster, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        cluster.check_alive()
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}\n{cluster.logs()}")


def _tasks_for(game_id, step):
    return [t for t in Task.objects.filter(func=clock.TASK) if tuple(t.args) == (game_id, step)]


def _expiries(game):
    """Each TurnEnded, with the step it ended, that step's deadline and when it landed."""
    stamps = list(Event.objects.filter(game=game).order_by("seq").values_list("created_at"))
    state, found = rules.State(), []
    for event, (created_at,) in zip(store.read_events(game), stamps, strict=True):
        if isinstance(event, rules.TurnEnded):
            found.append((state.step_started, state.deadline, created_at))
        state = rules.evolve(state, event)
    return found


def test_c2_c4_a_real_cluster_expires_each_step_once_on_time_and_a_duplicate_does_nothing(
    cluster,
):
    game, outcome = GAME.start(players=4, step_seconds=STEP_SECONDS, rng=random.Random(11))
    first_step = outcome.state.step_started
    assert Schedule.objects.filter(name__startswith=f"clock:constellate:{game.pk}:").count() == 1

    # The first naming expires (C2): the turn passes.
    _wait_for(
        lambda: Game.objects.get(pk=game.pk).version >= 3,
        STEP_SECONDS + 10,
        cluster,
        "the first expiry",
    )
    # A second copy of that step's task, due now: the tick hands it over, it does nothing.
    Schedule.objects.create(
        name="duplicate",
        func=clock.TASK,
        args=repr((game.pk, first_step)),
        schedule_type=Schedule.ONCE,
        next_run=timezone.now(),
    )
    # Nobody names a word: Teal's naming expires, then the first crew's again (C4 forfeit).
    _wait_for(
        lambda: Game.objects.get(pk=game.pk).ended_at,
        3 * STEP_SECONDS + 10,
        cluster,
        "the forfeit",
    )
    copies = _wait_for(
        lambda: len(_tasks_for(game.pk, first_step)) == 2 and _tasks_for(game.pk, first_step),
        10,
        cluster,
        "the duplicate task to run",
    )
    results = sorted(str(t.result) for t in copies)
    assert results[0].startswith("expired") and results[1].startswith("nothing to do"), results

    kinds = list(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == [
        "SkyDealt",
        "TurnEnded",
        "NamingStarted",
        "TurnEnded",
        "NamingStarted",
        "TurnEnded",
        "GameEnded",
    ]
    ended = Event.objects.get(game=game, kind="GameEnded")
    assert ended.payload["finish"] == rules.Finish.FORFEIT.value
    expiries = _expiries(game)
    assert [step for step, _, _ in expiries] == [1, 3, 5]
    for step, deadline, appended in expiries:
        late = (appended - deadline).total_seconds()
        assert 0 <= late <= LATE_AT_MOST, (step, late, cluster.logs())
    # The other steps' tasks ran once each (django-q2's monitor records a task just after
    # it ran, so wait for the records).
    for step in (3, 5):
        ran = _wait_for(
            lambda step=step: _tasks_for(game.pk, step), 10, cluster, f"step {step}'s task"
        )
        assert [str(t.result).split(":")[0] for t in ran] == [f"expired step {step}"], ran
    # Nothing is left scheduled for a finished game.
    assert not Schedule.objects.filter(name__startswith=f"clock:constellate:{game.pk}:").exists()


def test_the_channel_layer_carries_a_group_send_from_another_process(transactional_db):
    """A push from the q2 worker's process reaches the process that holds the websockets."""
    layer = channel_layers.make_backend("default")
    script = (
        "import django; django.setup()\n"
        "from asgiref.sync import async_to_sync\n"
        "from channels.layers import get_channel_layer\n"
        "async_to_sync(get_channel_layer().group_send)("
        "'clock-test', {'type': 'push.html', 'html': '<p id=x>pushed</p>'})\n"
    )

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("clock-test", channel)
        env = {
            "CONSTELLATE_SQLITE_PATH": str(connection.settings_dict["NAME"]),
            "CONSTELLATE_DB_NAME": str(connection.settings_dict["NAME"]),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        sent = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert sent.returncode == 0, sent.stderr
        try:
            return await asyncio.wait_for(layer.receive(channel), timeout=5)
        finally:
            close = getattr(layer, "close", None) or layer.close_pools  # lite / redis
            await close()

    message = async_to_sync(scenario)()
    assert message == {"type": "push.html", "html": "<p id=x>pushed</p>"}


def test_c6_holds_with_no_cluster_running(transactional_db):
    """The schedule is only the fast path: with no worker at all, the next read settles."""
    start = timezone.now() - timedelta(seconds=STEP_SECONDS + 0.5)
    game, _ = GAME.start(players=2, step_seconds=STEP_SECONDS, now=start)
    state = GAME.current(game.pk)
    assert state.version == 3 and state.hours == 6  # C2 + D2-style hour spent (Before Dawn)
