"""Every game's one way in: run one command against one game, in one atomic write.

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
    command is decided at that row's version with no lock and no transaction: what was
    decided (a due expiry's events, then the command's) is written in one append, atomic on
    its own (on PostgreSQL one statement), whose conditional UPDATE of the version keeps two
    writers apart. If another append landed since the row was read, nothing is written and
    the command runs again on the game locked and read afresh, as it does when given only
    the game's id. A refusal decided at the row's version is the answer the command would
    have had just before the other append. The row object is moved to the version the try
    appended; after a rerun, it is left as it was read.

    The time is read as each try begins, the locked one once it holds the game (the lock's
    wait may be long on a busy game): the deadlines it starts and C6 go by it."""
    if isinstance(row, Game) and not store.known_past(row):
        try:  # no transaction: the one append is atomic on its own (store.append_steps)
            return _run(game, row, command, now or timezone.now())
        except store.VersionConflict:  # nothing of the try was written
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
@dataclass(frozen=True)
class _Step:
    """Events to append, the seat that made them (None: the clock), and the state after."""

    events: list[object]
    seat: int | None
    after: Any


def _run(game: Definition, row: Game, command: object, now: datetime) -> Outcome:
    """Decide, then write what was decided (a due expiry first, C6, then the command's
    events) in one append: nothing is written before the decision is made."""
    state = store.state_of(row)
    steps: list[_Step] = []
    if not game.is_expiry(command):
        expired = game.due_expiry(state, now)
        if expired:  # C6: it came after the deadline: refused as such, the expiry applied
            steps.append(_Step(expired, None, game.fold(expired, state)))
            late = game.decide(state, command, now)
            if isinstance(late, Refusal):
                return Outcome(_write(row, state, steps, now), expired=expired, refusal=late)
            state = steps[-1].after
    expired = steps[0].events if steps else []
    decision = game.decide(state, command, now)
    if isinstance(decision, Refusal):
        return Outcome(_write(row, state, steps, now), expired=expired, refusal=decision)
    steps.append(_Step(decision, getattr(command, "seat", None), game.fold(decision, state)))
    return Outcome(_write(row, state, steps, now), events=decision, expired=expired)


def _settle(game: Definition, row: Game, state: Any, now: datetime) -> tuple[Any, list[object]]:
    expired = game.due_expiry(state, now)
    if not expired:
        return state, []
    return _write(row, state, [_Step(expired, None, game.fold(expired, state))], now), expired


def _write(row: Game, state: Any, steps: list[_Step], now: datetime) -> Any:
    """Every step appended after ``state`` in one write (VersionConflict if the game moved
    on: nothing written); each step announced once it is durable. The state after the
    last step, or ``state`` when there is none."""
    if not steps:
        return state
    first = steps[0].after.version - len(steps[0].events)  # the version before the steps
    after = steps[-1].after
    store.append_steps(
        row,
        [(step.events, step.seat) for step in steps],
        expected_version=first,
        now=now,
        ended=after.ended,
    )
    store.remember_state(row, after)
    for step in steps:
        store.after_commit(row, step.after, step.events, step.after.version - len(step.events) + 1)
    return after


def _due(state: Any, now: datetime) -> bool:
    return state.deadline is not None and now >= state.deadline
