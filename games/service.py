"""Every game's one way in: run one command against one game, in one transaction.

Read the game (locked, or as the caller just read it: ``act``), fold its events, apply any
due expiry first (C6), decide, append (the version moved only if it is still the one
decided at), and announce the new events after commit. The game is its definition
(``games.definition``): its pure ``decide`` and ``evolve``, and the clock's command; its
state has ``version``, ``ended``, ``deadline`` and ``step_started`` (the version of the
event that started the running step). Reached through the definition:
``GAME.act(game_id, command)``, or ``GAME.act(row, command)`` with the game's row as just
read, which takes no lock unless another append came first (``act``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from . import store
from .kit import Refusal
from .models import Game

if TYPE_CHECKING:
    from .definition import GameDefinition

    Definition = GameDefinition[Any, Any]


@dataclass(frozen=True)
class Outcome:
    state: Any
    events: list[object] = field(default_factory=list)  # appended for the command
    expired: list[object] = field(default_factory=list)  # appended first, by the clock (C6)
    refusal: Refusal | None = None  # the rules' refusal: a reason for a person, and a problem

    @property
    def ok(self) -> bool:
        return self.refusal is None


def start(
    game: Definition, command: object, *, now: datetime | None = None
) -> tuple[Game, Outcome]:
    """A new game of this kind, and its first command (the deal) run against it."""
    with transaction.atomic():
        row = store.create_game(game.slug)
        outcome = _run(game, row, command, now or timezone.now())
    return row, outcome


def act(
    game: Definition, row: Game | int, command: object, *, now: datetime | None = None
) -> Outcome:
    """Run one command. A refusal appends nothing (except a due expiry, C6).

    Given the game's row as the caller just read it (an action reads it with the room), the
    command is decided at that row's version with no lock taken first: the append's
    conditional UPDATE of the version is what keeps two writers apart, and the first write
    of the transaction. If another append landed since the row was read, nothing of this
    try is kept and the command runs again on the game locked and read afresh, as it does
    when given only the game's id. A refusal decided at the row's version is the answer the
    command would have had just before the other append. The row object given is moved to
    the version the try appended; after a rerun, it is left as it was read.

    The time is read inside each transaction, once it holds the game (as the lock's wait
    may be long on a busy game): the deadlines it starts and C6 go by it."""
    if isinstance(row, Game) and not store.known_past(row):
        try:
            with transaction.atomic():
                return _run(game, row, command, now or timezone.now())
        except store.VersionConflict:  # rolled back; nothing of the try was kept
            pass
    with transaction.atomic():
        locked = store.lock(row if isinstance(row, int) else row.pk)
        return _run(game, locked, command, now or timezone.now())


def current(game: Definition, row: Game | int, *, now: datetime | None = None) -> Any:
    """The game's state as it stands, any due expiry applied first (C6: a page load after
    the deadline shows the expired step).

    Read without a lock (no transaction: on SQLite any would take the write lock) while
    nothing is due; only past a deadline is the game locked, read again and settled, so a
    second reader finds the expiry applied and appends nothing."""
    game_id = row if isinstance(row, int) else row.pk
    now = now or timezone.now()
    state = store.state_of(store.game(game_id))
    if not _due(state, now):
        return state
    with transaction.atomic():
        locked = store.lock(game_id)
        state = store.state_of(locked)
        if not _due(state, now):
            return state
        return _settle(game, locked, state, now)[0]


# -- the loop -------------------------------------------------------------------------------
def _run(game: Definition, row: Game, command: object, now: datetime) -> Outcome:
    state = store.state_of(row)
    expired: list[object] = []
    if not game.is_expiry(command):
        before = state
        state, expired = _settle(game, row, state, now)
        if expired:  # C6: it came after the deadline: refused as such, the expiry applied
            late = game.decide(before, command, now)
            if isinstance(late, Refusal):
                return Outcome(state=state, expired=expired, refusal=late)
    decision = game.decide(state, command, now)
    if isinstance(decision, Refusal):
        return Outcome(state=state, expired=expired, refusal=decision)
    seat = getattr(command, "seat", None)
    state = _append(row, state, game, decision, actor_seat=seat, now=now)
    return Outcome(state=state, events=decision, expired=expired)


def _settle(game: Definition, row: Game, state: Any, now: datetime) -> tuple[Any, list[object]]:
    expired = game.due_expiry(state, now)
    if not expired:
        return state, []
    return _append(row, state, game, expired, actor_seat=None, now=now), expired


def _append(
    row: Game,
    state: Any,
    game: Definition,
    events: list[object],
    *,
    actor_seat: int | None,
    now: datetime,
) -> Any:
    first_version = state.version + 1
    store.append(row, events, expected_version=state.version, actor_seat=actor_seat, now=now)
    after = game.fold(events, state)
    if after.ended and row.ended_at is None:
        Game.objects.filter(pk=row.pk).update(ended_at=now)
        row.ended_at = now
    store.remember_state(row, after)
    store.after_commit(row, after, events, first_version)
    return after


def _due(state: Any, now: datetime) -> bool:
    return state.deadline is not None and now >= state.deadline
