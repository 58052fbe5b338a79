"""Under One Sky on the platform: its service runs on the shared loop (games.service), its
events go through the store and codec, its turns get the platform clock's schedules, and a
replay of the stored events equals the live game."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.models import Schedule

from games import clock, registry, store
from games.models import Event, Game
from games.underonesky.game import GAME, clean_options
from games.underonesky.rules import (
    COLOURS,
    Compass,
    Expire,
    GameDealt,
    Place,
    Tile,
    TilePlaced,
)
from tests.support.uos import legal_commands

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run on_commit callbacks (the events_appended signal) as a real commit would."""

    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


def _schedules(game):
    return list(Schedule.objects.filter(name__startswith=f"clock:underonesky:{game.pk}:"))


def test_it_is_registered_beside_constellate():
    kinds = {kind.slug for kind in registry.all_game_types()}
    assert {"constellate", "underonesky"} <= kinds
    kind = registry.game_type("underonesky")
    assert (kind.seats.least, kind.seats.most) == (2, 2)
    assert kind.options.default() == {"chart": "orange", "compass": "N"}


def test_the_deal_is_drawn_by_the_server_and_stored_in_the_first_event():
    game, outcome = GAME.start(options={"chart": "yellow", "compass": "W"}, rng=random.Random(4))
    (dealt,) = [e for e in store.read_events(game) if isinstance(e, GameDealt)]
    assert (dealt.chart, dealt.compass) == (Tile.YELLOW, Compass.W)
    assert sorted(dealt.stack) == sorted(c for c in COLOURS for _ in range(9))
    assert {c.id for c in (*dealt.cards, dealt.face_down)} == {"yellow-1", "yellow-2", "yellow-3"}
    assert dealt.first_seat in (1, 2)
    assert Event.objects.get(game=game, seq=1).payload["stack"][0] in ("blue", "orange", "yellow")
    # Another draw deals differently: the randomness is the server's, not the rules'.
    other, _ = GAME.start(rng=random.Random(5))
    assert store.read_events(other)[0].stack != dealt.stack


def test_only_two_play_and_only_the_offered_options():
    with pytest.raises(ValueError, match="2 players"):
        GAME.start(players=3)
    with pytest.raises(ValueError, match="blue, orange or yellow"):
        clean_options({"chart": "green"})


def test_the_replay_equals_every_state_the_live_game_went_through():
    start = timezone.now()
    game, outcome = GAME.start(step_seconds=60, rng=random.Random(8), now=start)
    rng = random.Random(9)
    state, now = outcome.state, start
    live = {state.version: state}
    while not state.ended:
        command = rng.choice(legal_commands(state, rng))
        now = state.deadline + timedelta(milliseconds=1) if isinstance(command, Expire) else now
        result = GAME.act(game.pk, command, now=now)
        assert result.ok, result.refusal
        state = result.state
        live[state.version] = state
    game.refresh_from_db()
    assert game.ended_at is not None
    store.forget_cached_states()
    replayed = store.replay(game)
    assert len(replayed) == state.version + 1
    for version, live_state in live.items():
        assert replayed[version] == live_state


def test_each_turn_with_a_clock_gets_one_schedule_and_the_task_plays_the_turn(committed):
    ago = timezone.now() - timedelta(seconds=90)
    game, outcome = committed(GAME.start, step_seconds=60, now=ago)
    state = outcome.state
    (schedule,) = _schedules(game)
    assert schedule.name == clock.schedule_name("underonesky", game.pk, state.step_started)
    assert schedule.next_run == state.deadline and schedule.func == clock.TASK
    note = committed(clock.run_expiry, game.pk, state.step_started)  # the deadline has passed
    assert note.startswith(f"expired step {state.step_started}")
    placed = next(
        e for e in store.read_events(Game.objects.get(pk=game.pk)) if isinstance(e, TilePlaced)
    )
    assert placed.by_clock and placed.face_up is None  # the blind top tile
    (schedule,) = _schedules(game)  # the next turn's
    assert schedule.name.endswith(f":{GAME.current(game.pk).step_started}")
    again = clock.run_expiry(game.pk, state.step_started)
    assert again.startswith("nothing to do")


def test_a_page_load_after_the_deadline_plays_the_expired_turn_first():
    ago = timezone.now() - timedelta(seconds=61)
    game, outcome = GAME.start(step_seconds=60, now=ago)
    state = GAME.current(game.pk)
    assert state.turn == 2 and state.turns[0].by_clock


def test_a_stale_command_is_refused_and_appends_nothing():
    game, outcome = GAME.start(rng=random.Random(1))
    state = outcome.state
    count = Event.objects.filter(game=game).count()
    result = GAME.act(game.pk, Place(state.seat, 0, state.version - 1, 0))
    assert result.refusal and "changed a moment ago" in result.refusal.reason
    assert Event.objects.filter(game=game).count() == count
