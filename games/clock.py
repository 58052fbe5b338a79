"""The step clock, for every game type, through django-q2.

When a batch of events starts a step that has a deadline, a one-off django-q2 schedule is
made for that deadline. When it runs, it asks the game type to expire that step; the rules
refuse an expiry of a step that is over or still has time, so a late or duplicate run
changes nothing. The expiry's events go out through ``store.events_appended`` like any
others (the realtime layer pushes them).

django-q2's cluster looks at schedules only every ~30 s, so ``tick`` (run in a loop by
``manage.py clocktick``) hands due schedules to the broker within a few tens of ms of
their time. A new schedule rings the tick's doorbell (config/doorbell.py), so it need not
look for new ones often. The schedule stays the durable record: with no tick running, the cluster
still runs it, later; and C6 settles a due step on any read or action meanwhile.

Only the definition's ``clock`` and ``expire_step`` are used, so another game plugs in as is.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models import Min, Q
from django.utils import timezone

from config import doorbell

from .models import Game
from .registry import game_type

log = logging.getLogger(__name__)

TASK = "games.clock.run_expiry"  # the schedules' func: keep in step with run_expiry's path
PREFIX = "clock"


def schedule_name(kind: str, game_id: int, step: int) -> str:
    return f"{PREFIX}:{kind}:{game_id}:{step}"


def _game_prefix(kind: str, game_id: int) -> str:
    return f"{PREFIX}:{kind}:{game_id}:"


# -- scheduling, on every append ---------------------------------------------------------


def on_events_appended(
    sender: str,
    *,
    game_id: int,
    state: Any,
    events: list[object],
    first_version: int,
    **_: Any,
) -> None:
    """Receiver of ``store.events_appended`` (after commit): schedule the step this batch
    started, and drop the schedules of steps it ended. Never raises: a missed schedule is
    covered by C6 (the next read or action settles a due step)."""
    try:
        sync_schedule(sender, game_id, state, first_version, first_version + len(events) - 1)
    except Exception:
        log.exception("clock: could not schedule game %s (%s)", game_id, sender)


def sync_schedule(kind: str, game_id: int, state: Any, first: int, last: int) -> None:
    """Make the pending schedules of one game match its clock after events first..last.

    Steps are numbered by the version of the event that started them, so they only grow.
    Receivers of batches committed by different processes may run out of order: a batch
    never removes a later step's schedule, and never adds one older than a pending one.
    """
    if last < first or state.step_seconds is None:
        return  # nothing happened, or the clock is off: no step of this game has a schedule
    running = game_type(kind).clock(state)
    if running is None:
        # Over, or a step without a clock: a step started so far is over. A batch that
        # started no step (a touch) changed nothing here and costs no query.
        if state.ended or first <= state.step_started <= last:
            _drop(kind, game_id, upto=last)
        return
    step, deadline = running
    if not first <= step <= last:
        return  # this batch did not start a step (e.g. a touch): its schedule stands
    if deadline is None:
        _drop(kind, game_id, upto=last)
        return
    from django_q.models import Schedule

    with transaction.atomic():
        pending = _pending(kind, game_id)
        if any(s >= step for s in pending):
            return  # a newer step (or this one) is already scheduled
        stale = [pk for s, pk in pending.items() if s < step]
        if stale:
            Schedule.objects.filter(pk__in=stale).delete()
        Schedule.objects.create(
            name=schedule_name(kind, game_id, step),
            func=TASK,
            args=repr((game_id, step)),
            schedule_type=Schedule.ONCE,
            repeats=-1,  # a ONCE schedule with negative repeats is deleted once it ran
            next_run=deadline,
        )
        # A new schedule may be due sooner than the tick's next look: wake it to look now.
        doorbell.ring_after_commit(
            getattr(settings, "DOORBELLS", None), [CLOCK_BELL], using=DEFAULT_DB_ALIAS
        )


CLOCK_BELL = "clock"  # the doorbell (config/doorbell.py) on which ``manage.py clocktick`` waits


def _pending(kind: str, game_id: int) -> dict[int, int]:
    """This game's clock schedules not yet run: step -> schedule pk."""
    from django_q.models import Schedule

    rows = Schedule.objects.filter(name__startswith=_game_prefix(kind, game_id)).values_list(
        "name", "pk"
    )
    pending = {}
    for name, pk in rows:
        try:
            pending[int(name.rsplit(":", 1)[1])] = pk
        except ValueError:
            continue
    return pending


def _drop(kind: str, game_id: int, *, upto: int) -> None:
    from django_q.models import Schedule

    stale = [pk for step, pk in _pending(kind, game_id).items() if step <= upto]
    if stale:
        Schedule.objects.filter(pk__in=stale).delete()


# -- the task -----------------------------------------------------------------------------


def run_expiry(game_id: int, step: int) -> str:
    """The scheduled task: expire ``step`` of the game if it is still running and due.
    Returns a short note for the task's record in django-q2's admin."""
    kind = Game.objects.filter(pk=game_id).values_list("kind", flat=True).first()
    if kind is None:
        return "no such game"
    game = game_type(kind)
    if game.expire is None:
        return f"{kind} has no clock"
    outcome = game.expire_step(game_id, step)
    # C6 may settle the due step before the expiry itself is decided (then refused as
    # over): what counts is whether anything was appended.
    appended = [*getattr(outcome, "expired", ()), *getattr(outcome, "events", ())]
    if appended:
        return f"expired step {step}: {len(appended)} events"
    refusal = getattr(outcome, "refusal", None)
    return f"nothing to do: {getattr(refusal, 'reason', refusal)}"


# -- the fast tick ------------------------------------------------------------------------


def _ours() -> Q:
    """The schedules django-q2's scheduler would pick up in this cluster (its own filter)."""
    from django_q.conf import Conf

    default = Q(cluster__isnull=True) if Conf.CLUSTER_NAME == Conf.PREFIX else Q(pk__in=[])
    return default | Q(cluster=Conf.CLUSTER_NAME)


def tick(broker: Any = None, *, interval: float = 0.5, now: datetime | None = None) -> float:
    """Hand every due schedule to the broker (django-q2's own ``scheduler``), and return
    how long to sleep: until the next schedule is due, at most ``interval`` (so a schedule
    made meanwhile by another process is seen within ``interval``).

    Only reads when nothing is due: the scheduler itself takes the database's write lock,
    so it is called only when there is work for it.
    """
    from django_q.models import Schedule
    from django_q.scheduler import scheduler

    ours = Schedule.objects.exclude(repeats=0).filter(_ours())
    now = now or timezone.now()
    if ours.filter(next_run__lt=now).exists():
        scheduler(broker=broker)
        now = timezone.now()
    upcoming = ours.filter(next_run__gte=now).aggregate(at=Min("next_run"))["at"]
    if upcoming is None:
        return interval
    # The scheduler takes schedules strictly before its "now": wake just after.
    wait = (upcoming - now + timedelta(milliseconds=5)).total_seconds()
    return min(interval, max(0.005, wait))
