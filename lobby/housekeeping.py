"""Keeping the database from growing forever: expired sessions and idle rooms go, daily,
through django-q2 schedules that ``migrate`` makes sure exist (lobby.apps).

What the purge deletes (``purge_idle_rooms``), and why nothing anyone can still reach soon
is lost:

- **An idle room**, with its games and their events, players and matches: nothing has
  happened in it for ``ROOM_PURGE_IDLE_DAYS`` (30) days, counting its creation, the last
  time someone joined or renamed, the last event of any game played in it, and the last
  flag on those games or moderator's decision on such a flag. A room link is shared for a
  party, so a month of silence means it is over; the session that made someone host or
  player expires after 30 days anyway (SESSION_COOKIE_AGE).
- **An empty room**: no one ever joined it and no game was ever started in it, created
  more than ``ROOM_PURGE_EMPTY_HOURS`` (24) hours ago (links opened by scripts, or a host
  who never came back).
- **Never** a room while a flag on one of its games is open: the moderators have not seen
  it yet. The blocklist is not tied to rooms and stays whole.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Game

from .models import Match, Room

log = logging.getLogger(__name__)

BATCH = 200  # rooms deleted per transaction: SQLite's write lock is held briefly
CLEAR_SESSIONS = "housekeeping:clearsessions"
PURGE_ROOMS = "housekeeping:purge-idle-rooms"
QUIET_HOUR = 4  # UTC: both run daily at this hour
SCHEDULES = {
    CLEAR_SESSIONS: ("django.core.management.call_command", "'clearsessions'"),
    PURGE_ROOMS: ("lobby.housekeeping.purge_idle_rooms", ""),
}


def _idle_days() -> int:
    return int(getattr(settings, "ROOM_PURGE_IDLE_DAYS", 30))


def _empty_hours() -> int:
    return int(getattr(settings, "ROOM_PURGE_EMPTY_HOURS", 24))


def idle_rooms(now: datetime):  # -> QuerySet[Room]
    """Rooms where nothing happened since the cutoff, with no open flag."""
    cutoff = now - timedelta(days=_idle_days())
    return (
        Room.objects.filter(created_at__lt=cutoff)
        .exclude(players__joined_at__gte=cutoff)
        .exclude(matches__game__updated_at__gte=cutoff)
        .exclude(game__updated_at__gte=cutoff)
        .exclude(matches__game__flags__status="open")
        .exclude(matches__game__flags__created_at__gte=cutoff)
        .exclude(matches__game__flags__actions__created_at__gte=cutoff)
    )


def empty_rooms(now: datetime):  # -> QuerySet[Room]
    """Rooms no one joined and no game was started in, older than a day."""
    cutoff = now - timedelta(hours=_empty_hours())
    return Room.objects.filter(
        created_at__lt=cutoff, game__isnull=True, matches__isnull=True, players__isnull=True
    )


def purge_idle_rooms(now: datetime | None = None) -> str:
    """The scheduled task: delete idle and empty rooms with their games. Returns a short
    note for the task's record in django-q2's admin."""
    now = now or timezone.now()
    rooms = games = 0
    for query in (idle_rooms(now), empty_rooms(now)):
        while batch := list(query.values_list("pk", flat=True)[:BATCH]):
            r, g = _delete(batch)
            rooms, games = rooms + r, games + g
    note = f"purged {rooms} rooms and {games} games"
    log.info("housekeeping: %s", note)
    return note


def _delete(room_ids: list[int]) -> tuple[int, int]:
    with transaction.atomic():
        played = Match.objects.filter(room_id__in=room_ids).values_list("game_id", flat=True)
        current = Room.objects.filter(pk__in=room_ids).exclude(game=None).values_list("game_id")
        game_ids = set(played) | {game_id for (game_id,) in current}
        Game.objects.filter(pk__in=game_ids).delete()  # events, matches, flags with them
        Room.objects.filter(pk__in=room_ids).delete()  # players with it
    return len(room_ids), len(game_ids)


# -- the schedules ---------------------------------------------------------------------------


def next_quiet_hour(now: datetime) -> datetime:
    at = now.astimezone(UTC).replace(hour=QUIET_HOUR, minute=0, second=0, microsecond=0)
    return at if at > now else at + timedelta(days=1)


def ensure_schedules(using: str = "default") -> None:
    """Make the daily schedules exist, once each (running it again changes nothing, and
    keeps the time each is next due)."""
    from django_q.models import Schedule

    schedules = Schedule.objects.using(using)
    for name, (func, args) in SCHEDULES.items():
        found = list(schedules.filter(name=name).order_by("pk"))
        for extra in found[1:]:
            extra.delete()
        wanted = {"func": func, "args": args, "schedule_type": Schedule.DAILY, "repeats": -1}
        if not found:
            schedules.create(name=name, next_run=next_quiet_hour(timezone.now()), **wanted)
        elif any(getattr(found[0], key) != value for key, value in wanted.items()):
            schedules.filter(pk=found[0].pk).update(**wanted)


def on_post_migrate(using: str = "default", **_: object) -> None:
    """After ``migrate`` (and a test database's flush): the schedules exist."""
    from django.db import connections

    if "django_q_schedule" not in connections[using].introspection.table_names():
        return  # django_q is not migrated (yet) on this database
    ensure_schedules(using)
