"""The step clock's server side (games/clock.py): one django-q2 schedule per step with a
deadline, a task that expires that step only (C2/C3), C6 on read, and the fast tick.

The cluster itself runs in tests/games/test_clock_cluster.py."""

from __future__ import annotations

import random
import tempfile
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_q.models import Schedule

from games import clock, registry, store
from games.constellate.game import GAME
from games.constellate.rules import Name, Step, TouchCard, TurnEnd
from games.models import Event, Game
from tests.support.toy import ToyState, toy_definition

WORDS = ("liberty", "quantum", "harvest", "justice", "memory", "thunder", "velvet")


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run on_commit callbacks (the events_appended signal) as a real commit would."""

    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


def _start(committed, *, step_seconds=60, players=4, ago=0.0, seed=5):
    now = timezone.now() - timedelta(seconds=ago)
    game, outcome = committed(
        GAME.start,
        players=players,
        step_seconds=step_seconds,
        rng=random.Random(seed),
        now=now,
    )
    return game, outcome.state


def _schedules(game):
    return list(
        Schedule.objects.filter(name__startswith=f"clock:constellate:{game.pk}:").order_by("pk")
    )


def _kinds(game):
    return list(Event.objects.filter(game=game).values_list("kind", flat=True))


def _name_a_word(committed, game, state):
    gazer = next(n for n in range(1, state.players + 1) if _is_gazer(state, n))
    for word in WORDS:
        outcome = committed(GAME.act, game.pk, Name(gazer, word, 2, state.version))
        if outcome.ok:
            return outcome.state
    raise AssertionError("no test word was accepted")


def _is_gazer(state, number):
    seat = state.seat(number)
    return seat.crew is state.crew and seat.stargazer


# -- scheduling --------------------------------------------------------------------------


@pytest.mark.django_db
def test_c1_a_new_step_with_a_clock_schedules_exactly_one_task_at_its_deadline(committed):
    game, state = _start(committed, step_seconds=60)
    (schedule,) = _schedules(game)
    assert schedule.func == "games.clock.run_expiry" == clock.TASK
    assert schedule.schedule_type == Schedule.ONCE
    assert schedule.next_run == state.deadline
    assert schedule.args == repr((game.pk, state.step_started))
    assert schedule.name == clock.schedule_name("constellate", game.pk, state.step_started)
    assert schedule.repeats < 0  # django-q2 deletes a run ONCE schedule


@pytest.mark.django_db
def test_c1_a_game_with_the_clock_off_schedules_nothing(committed):
    game, state = _start(committed, step_seconds=None)
    assert state.deadline is None
    assert _schedules(game) == []


@pytest.mark.django_db
def test_c1_with_the_clock_off_a_new_step_never_reads_the_schedules(committed):
    game, state = _start(committed, step_seconds=None)
    with CaptureQueriesContext(connection) as queries:
        state = _name_a_word(committed, game, state)  # T4: the spotting step starts
    assert state.step is Step.SPOTTING
    assert queries.captured_queries  # the append itself was seen
    assert not [q for q in queries.captured_queries if "django_q_schedule" in q["sql"]]


@pytest.mark.django_db
def test_the_next_step_replaces_the_schedule_and_a_touch_keeps_it(committed):
    game, state = _start(committed, step_seconds=90)
    state = _name_a_word(committed, game, state)  # T4: spotting starts, with its own clock
    assert state.step is Step.SPOTTING
    (schedule,) = _schedules(game)
    assert (schedule.args, schedule.next_run) == (
        repr((game.pk, state.step_started)),
        state.deadline,
    )
    spotter = next(
        n
        for n in range(1, state.players + 1)
        if state.seat(n).crew is state.crew and not state.seat(n).stargazer
    )
    own_star = state.stars(state.crew)[0]
    touched = committed(GAME.act, game.pk, TouchCard(spotter, own_star, state.version))
    assert touched.ok and touched.state.step is Step.SPOTTING  # same step goes on
    assert _schedules(game) == [schedule]


@pytest.mark.django_db
def test_the_end_of_a_game_drops_its_pending_schedule(committed):
    game, state = _start(committed, step_seconds=60)
    now = state.deadline
    # C4: each naming expires; Gold or Teal misses twice in a row and forfeits.
    while not state.ended:
        now = state.deadline + timedelta(milliseconds=1)
        state = committed(GAME.current, game.pk, now=now)
    assert state.ended
    assert _schedules(game) == []


# -- the task ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_c2_a_due_task_expires_its_step_once_and_a_duplicate_does_nothing(committed):
    game, state = _start(committed, step_seconds=60, ago=61)  # the deadline has passed
    step = state.step_started
    note = committed(clock.run_expiry, game.pk, step)
    assert note.startswith("expired")
    assert _kinds(game) == ["SkyDealt", "TurnEnded", "NamingStarted"]
    turn_ended = Event.objects.get(game=game, kind="TurnEnded")
    assert turn_ended.payload["reason"] == TurnEnd.NAMING_EXPIRED.value
    game.refresh_from_db()
    version = game.version
    # The next naming step got its own schedule; the run one is not pending any more.
    (schedule,) = _schedules(game)
    assert schedule.args == repr((game.pk, version))

    again = committed(clock.run_expiry, game.pk, step)  # a duplicate or late copy
    assert again.startswith("nothing to do")
    game.refresh_from_db()
    assert game.version == version
    assert _kinds(game) == ["SkyDealt", "TurnEnded", "NamingStarted"]


@pytest.mark.django_db
def test_an_early_task_does_nothing(committed):
    game, state = _start(committed, step_seconds=60)
    note = committed(clock.run_expiry, game.pk, state.step_started)
    assert note == "nothing to do: This step still has time."
    assert _kinds(game) == ["SkyDealt"]
    assert len(_schedules(game)) == 1


@pytest.mark.django_db
def test_a_task_for_a_missing_game_does_nothing():
    assert clock.run_expiry(987654, 1) == "no such game"


# -- C6 ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_c6_a_read_after_the_deadline_shows_the_expired_step_even_with_no_worker(committed):
    game, state = _start(committed, step_seconds=2, ago=2.5)  # the task never ran
    assert state.step_started == 1
    seen = committed(GAME.current, game.pk)
    assert seen.version == 3 and seen.step_started == 3 and seen.step is Step.NAMING
    assert seen.crew is state.crew.rival
    assert _kinds(game) == ["SkyDealt", "TurnEnded", "NamingStarted"]
    (schedule,) = _schedules(game)  # the next step is scheduled from the read's expiry
    assert schedule.args == repr((game.pk, 3))
    # Then the late task finds nothing to do.
    assert committed(clock.run_expiry, game.pk, 1).startswith("nothing to do")
    game.refresh_from_db()
    assert game.version == 3


@pytest.mark.django_db
def test_c6_a_read_before_the_deadline_changes_nothing(committed):
    game, state = _start(committed, step_seconds=60)
    assert committed(GAME.current, game.pk) == state
    assert _kinds(game) == ["SkyDealt"]


@pytest.mark.django_db
def test_c6_a_read_before_the_deadline_takes_no_lock(committed, monkeypatch):
    game, state = _start(committed, step_seconds=60)
    monkeypatch.setattr(store, "lock", mock.Mock(side_effect=AssertionError("locked")))
    assert committed(GAME.current, game.pk) == state


@pytest.mark.django_db
def test_c6_a_reader_that_saw_the_step_due_settles_it_only_if_no_one_did_meanwhile(
    committed, monkeypatch
):
    """The lock-free read sees the deadline passed; another reader settles the step before
    this one gets the lock: it finds the expiry applied and appends nothing more."""
    game, stale = _start(committed, step_seconds=2, ago=2.5)
    settled = committed(GAME.current, game.pk)  # the other reader
    assert _kinds(game) == ["SkyDealt", "TurnEnded", "NamingStarted"]
    reads = iter([stale])  # this reader's unlocked read, from before that
    real_state_of = store.state_of
    monkeypatch.setattr(store, "state_of", lambda g: next(reads, None) or real_state_of(g))
    assert committed(GAME.current, game.pk, now=settled.deadline - timedelta(seconds=1)) == (
        settled
    )
    assert _kinds(game) == ["SkyDealt", "TurnEnded", "NamingStarted"]


# -- game-agnostic: another game type plugs in unchanged ---------------------------------


@pytest.fixture
def toy_game(monkeypatch):
    """A game type whose state is just (step, deadline) or None, and whose expiries are
    recorded instead of appended."""
    calls = []
    toy = toy_definition(
        "toyclock",
        expire=lambda step, rng: ("expire", step),
        expiry_type=tuple,
        decide=lambda state, command, now: calls.append(command) or [],
    )
    monkeypatch.setitem(registry._registry, "toyclock", toy)
    game = Game.objects.create(kind="toyclock")
    return game, calls


def _toy_schedules(game):
    return sorted(
        Schedule.objects.filter(name__startswith=f"clock:toyclock:{game.pk}:").values_list(
            "args", flat=True
        )
    )


@pytest.mark.django_db
def test_receivers_run_out_of_order_never_lose_the_newest_step(toy_game):
    game, _ = toy_game
    soon = timezone.now() + timedelta(seconds=30)
    later = soon + timedelta(seconds=30)
    # Two batches committed by two processes: (v5 starts step 5), then (v7 starts step 7);
    # their receivers run the other way round.
    clock.on_events_appended(
        "toyclock",
        game_id=game.pk,
        state=ToyState(step_started=7, deadline=later),
        events=[1],
        first_version=7,
    )
    clock.on_events_appended(
        "toyclock",
        game_id=game.pk,
        state=ToyState(step_started=5, deadline=soon),
        events=[1],
        first_version=5,
    )
    assert _toy_schedules(game) == [repr((game.pk, 7))]
    # A batch that ends the clock (the game is over) drops only steps it has seen.
    clock.on_events_appended(
        "toyclock", game_id=game.pk, state=ToyState(ended=True), events=[1], first_version=6
    )
    assert _toy_schedules(game) == [repr((game.pk, 7))]
    clock.on_events_appended(
        "toyclock", game_id=game.pk, state=ToyState(ended=True), events=[1], first_version=8
    )
    assert _toy_schedules(game) == []


@pytest.mark.django_db
def test_a_batch_within_a_step_leaves_its_schedule_alone(toy_game):
    game, _ = toy_game
    at = timezone.now() + timedelta(seconds=30)
    clock.on_events_appended(
        "toyclock",
        game_id=game.pk,
        state=ToyState(step_started=3, deadline=at),
        events=[1],
        first_version=3,
    )
    clock.on_events_appended(
        "toyclock",
        game_id=game.pk,
        state=ToyState(step_started=3, deadline=at),
        events=[1, 2],
        first_version=4,
    )
    assert _toy_schedules(game) == [repr((game.pk, 3))]
    (schedule,) = Schedule.objects.filter(name=clock.schedule_name("toyclock", game.pk, 3))
    assert schedule.next_run == at


@pytest.mark.django_db
def test_the_task_calls_the_game_types_own_expire(toy_game):
    game, calls = toy_game
    clock.run_expiry(game.pk, 4)
    assert calls == [("expire", 4)]


@pytest.mark.django_db
def test_a_broken_schedule_write_does_not_break_the_append(toy_game, monkeypatch):
    game, _ = toy_game

    def boom(*args, **kwargs):
        raise RuntimeError("database is locked")

    monkeypatch.setattr(clock, "sync_schedule", boom)
    at = timezone.now() + timedelta(seconds=30)
    clock.on_events_appended(
        "toyclock",
        game_id=game.pk,
        state=ToyState(step_started=2, deadline=at),
        events=[1],
        first_version=2,
    )
    assert _toy_schedules(game) == []  # C6 covers it: the next read or action settles


def test_the_receiver_is_connected_to_the_event_store():
    sync_receivers, _ = store.events_appended._live_receivers("constellate")
    assert clock.on_events_appended in sync_receivers


# -- the fast tick ----------------------------------------------------------------------


def _schedule_at(when, name="t"):
    return Schedule.objects.create(
        name=name, func="math.floor", args="(1.5,)", schedule_type=Schedule.ONCE, next_run=when
    )


@pytest.mark.django_db
def test_the_tick_hands_due_schedules_to_the_broker_and_sleeps_until_the_next(monkeypatch):
    import django_q.scheduler
    from django_q.brokers import get_broker

    # django-q2 closes old connections first: not the test's own, mid-transaction.
    monkeypatch.setattr(django_q.scheduler, "close_old_django_connections", lambda: None)

    now = timezone.now()
    _schedule_at(now - timedelta(seconds=1), "due")
    _schedule_at(now + timedelta(seconds=0.2), "soon")
    broker = get_broker()
    broker.purge_queue()
    wait = clock.tick(broker, interval=0.5, now=now)
    assert broker.queue_size() == 1  # the due one was queued (ORM or Redis broker)...
    broker.purge_queue()
    left = Schedule.objects.filter(name__in=["due", "soon"]).values_list("name", flat=True)
    assert list(left) == ["soon"]  # ...and ran
    assert 0 < wait <= 0.21


@pytest.mark.django_db
def test_the_tick_waits_at_most_its_interval_and_only_reads_when_nothing_is_due(monkeypatch):
    import django_q.scheduler

    def scheduler(broker=None):
        raise AssertionError("the scheduler (a write) ran with nothing due")

    monkeypatch.setattr(django_q.scheduler, "scheduler", scheduler)
    assert clock.tick(None, interval=0.5) == 0.5
    _schedule_at(timezone.now() + timedelta(minutes=5))
    assert clock.tick(None, interval=0.5) == 0.5


@pytest.mark.django_db
def test_a_new_schedule_wakes_the_tick_at_once(committed, monkeypatch):
    """The tick sleeps long between looks (it has a doorbell): a step started meanwhile
    rings it, so a deadline sooner than its next look is still kept."""
    from config import doorbell

    folder = Path(tempfile.mkdtemp(prefix="bells"))  # AF_UNIX paths are short
    monkeypatch.setattr(settings, "DOORBELLS", folder)
    bell = doorbell.Doorbell(folder, clock.CLOCK_BELL)
    try:
        game, state = _start(committed, step_seconds=30)
        assert _schedules(game)
        assert bell.wait(2.0) is True
        _name_a_word(committed, game, state)  # the next step: a new schedule, a new ring
        assert bell.wait(2.0) is True
        assert bell.wait(0.05) is False
    finally:
        bell.close()
