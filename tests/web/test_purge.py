"""Rooms are not kept forever (issue 13, finding 4): the daily purge deletes rooms idle for
30 days with their games, and rooms no one ever joined after a day, never one whose game
has an open flag; clearsessions and the purge are scheduled in django-q2 by migrate."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.module_loading import import_string
from django_q.models import Schedule

from games.models import Event, Game
from lobby import housekeeping
from lobby.models import Match, Player, Room
from moderation.models import BlockedWord, Flag, ModerationAction
from tests.web.rooms import create_room, seat_table

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def _age(room: Room, days: float) -> Room:
    """Make everything in the room as old as ``days``."""
    then = NOW - timedelta(days=days)
    Room.objects.filter(pk=room.pk).update(created_at=then)
    Player.objects.filter(room=room).update(joined_at=then)
    Game.objects.filter(match__room=room).update(created_at=then, updated_at=then)
    Flag.objects.filter(game__match__room=room).update(created_at=then)
    ModerationAction.objects.filter(flag__game__match__room=room).update(created_at=then)
    return room


def _played(days: float) -> Room:
    table = seat_table(2)
    return _age(table.room, days)


def _flag(room: Room, *, status: str = Flag.Status.OPEN) -> Flag:
    return Flag.objects.create(
        game_id=room.game_id,
        constellation=1,
        event_seq=1,
        word="ocean",
        flagger_seat=2,
        flagger_name="Bo",
        status=status,
    )


def _exists(room: Room) -> bool:
    return Room.objects.filter(pk=room.pk).exists()


def test_a_room_idle_for_a_month_goes_with_its_games_and_everyone_in_it():
    room = _played(days=31)
    game_id = room.game_id
    kept = _played(days=29)
    note = housekeeping.purge_idle_rooms(NOW)
    assert note == "purged 1 rooms and 1 games"
    assert not _exists(room)
    assert not Game.objects.filter(pk=game_id).exists()
    assert not Event.objects.filter(game_id=game_id).exists()
    assert not Player.objects.filter(room_id=room.pk).exists()
    assert not Match.objects.filter(room_id=room.pk).exists()
    assert _exists(kept) and Event.objects.filter(game_id=kept.game_id).exists()


def test_any_recent_activity_keeps_an_old_room():
    joined = _played(days=60)
    Player.objects.filter(room=joined).update(joined_at=NOW - timedelta(days=1))
    played = _played(days=60)
    Game.objects.filter(pk=played.game_id).update(updated_at=NOW - timedelta(days=1))
    housekeeping.purge_idle_rooms(NOW)
    assert _exists(joined) and _exists(played)


def test_a_room_whose_game_has_an_open_flag_is_kept_whatever_its_age():
    room = _played(days=400)
    _flag(room)
    _age(room, days=400)
    housekeeping.purge_idle_rooms(NOW)
    assert _exists(room) and Flag.objects.filter(game_id=room.game_id).exists()


def test_a_recent_moderators_decision_keeps_the_room_an_old_one_does_not():
    recent, old = _played(days=60), _played(days=60)
    for room in (recent, old):
        flag = _flag(room, status=Flag.Status.DISMISSED)
        ModerationAction.objects.create(flag=flag, verb=ModerationAction.Verb.DISMISSED)
        _age(room, days=60)
    ModerationAction.objects.filter(flag__game_id=recent.game_id).update(
        created_at=NOW - timedelta(days=3)
    )
    BlockedWord.objects.create(word="ocean")
    housekeeping.purge_idle_rooms(NOW)
    assert _exists(recent) and not _exists(old)
    assert BlockedWord.objects.filter(word="ocean").exists()  # the blocklist stays whole


def test_a_room_no_one_joined_goes_after_a_day():
    empty_old = _age(create_room(Client()), days=1.5)
    empty_new = _age(create_room(Client()), days=0.5)
    joined = create_room(Client())
    Player.objects.create(room=joined, identity="x", name="Ada")
    _age(joined, days=1.5)
    housekeeping.purge_idle_rooms(NOW)
    assert not _exists(empty_old)
    assert _exists(empty_new) and _exists(joined)


def test_the_purge_goes_in_batches():
    rooms = [_age(create_room(Client(REMOTE_ADDR=f"192.0.2.{n}")), days=2) for n in range(5)]
    original = housekeeping.BATCH
    housekeeping.BATCH = 2
    try:
        assert housekeeping.purge_idle_rooms(NOW) == "purged 5 rooms and 0 games"
    finally:
        housekeeping.BATCH = original
    assert not any(_exists(room) for room in rooms)


# -- the schedules --------------------------------------------------------------------------


def _ours() -> list[Schedule]:
    return list(Schedule.objects.filter(name__startswith="housekeeping:").order_by("name"))


def test_migrate_schedules_clearsessions_and_the_purge_daily_at_a_quiet_hour():
    schedules = {s.name: s for s in _ours()}
    assert set(schedules) == {housekeeping.CLEAR_SESSIONS, housekeeping.PURGE_ROOMS}
    for schedule in schedules.values():
        assert schedule.schedule_type == Schedule.DAILY and schedule.repeats == -1
        # The next quiet hour after the database was migrated: ahead, or just behind when
        # the test run has crossed that hour since (a run that started at 03:57 UTC).
        now = timezone.now()
        assert now - timedelta(days=1) < schedule.next_run <= now + timedelta(days=1)
        assert schedule.next_run.hour == housekeeping.QUIET_HOUR
        assert callable(import_string(schedule.func))
    assert schedules[housekeeping.CLEAR_SESSIONS].args == "'clearsessions'"


def test_ensuring_the_schedules_again_changes_nothing_but_a_wrong_one():
    before = {(s.name, s.next_run) for s in _ours()}
    housekeeping.ensure_schedules()
    housekeeping.ensure_schedules()
    assert {(s.name, s.next_run) for s in _ours()} == before
    Schedule.objects.filter(name=housekeeping.PURGE_ROOMS).update(func="math.floor")
    Schedule.objects.create(name=housekeeping.PURGE_ROOMS, func="math.floor")  # a duplicate
    housekeeping.ensure_schedules()
    (purge,) = Schedule.objects.filter(name=housekeeping.PURGE_ROOMS)
    assert purge.func == "lobby.housekeeping.purge_idle_rooms"
