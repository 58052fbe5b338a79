"""Every game's one way in: run one command against one game, in one transaction.

Lock the game, fold its events, apply any due expiry first (C6), decide, append, and
announce the new events after commit. A game supplies its pure rules (``decide``,
``fold``, ``due_expiry``); its state needs ``version``, ``ended``, ``deadline`` and
``step_started`` (the version of the event that started the running step).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from . import store
from .models import Game


@dataclass(frozen=True)
class Outcome:
    state: Any
    events: list[object] = field(default_factory=list)  # appended for the command
    expired: list[object] = field(default_factory=list)  # appended first, by the clock (C6)
    refusal: Any = None  # the rules' refusal: a reason for a person, and a problem kind

    @property
    def ok(self) -> bool:
        return self.refusal is None


@dataclass(frozen=True)
class GameService:
    kind: str
    decide: Callable[[Any, Any, datetime], Any]  # (state, command, now) -> events | refusal
    fold: Callable[[Iterable[object], Any], Any]  # (events, state) -> state
    due_expiry: Callable[[Any, datetime], list[object]]  # (state, now) -> expiry events
    is_refusal: Callable[[Any], bool]
    is_expiry: Callable[[Any], bool]  # the clock's own command: it expires the step itself

    def start(self, command: Any, *, now: datetime | None = None) -> tuple[Game, Outcome]:
        """A new game of this kind, and its first command (the deal) run against it."""
        with transaction.atomic():
            game = store.create_game(self.kind)
            outcome = self._run(game, command, now or timezone.now())
        return game, outcome

    def act(self, game_id: int, command: Any, *, now: datetime | None = None) -> Outcome:
        """Run one command. A refusal appends nothing (except a due expiry, C6)."""
        with transaction.atomic():
            game = store.lock(game_id)
            return self._run(game, command, now or timezone.now())

    def current(self, game: Game | int, *, now: datetime | None = None) -> Any:
        """The game's state as it stands, any due expiry applied first (C6: a page load
        after the deadline shows the expired step).

        Read without a lock (no transaction: on SQLite any would take the write lock) while
        nothing is due; only past a deadline is the game locked, read again and settled, so
        a second reader finds the expiry applied and appends nothing."""
        game_id = game if isinstance(game, int) else game.pk
        now = now or timezone.now()
        state = store.state_of(Game.objects.get(pk=game_id))
        if not _due(state, now):
            return state
        with transaction.atomic():
            game = store.lock(game_id)
            state = store.state_of(game)
            if not _due(state, now):
                return state
            return self._settle(game, state, now)[0]

    @staticmethod
    def clock(state: Any) -> tuple[int, datetime] | None:
        """The step now running and its deadline, for the scheduler (None: no clock runs)."""
        if state.ended or state.deadline is None:
            return None
        return state.step_started, state.deadline

    # -- the loop ---------------------------------------------------------------------------
    def _run(self, game: Game, command: Any, now: datetime) -> Outcome:
        state = store.state_of(game)
        expired: list[object] = []
        if not self.is_expiry(command):
            before = state
            state, expired = self._settle(game, state, now)
            if expired:  # C6: it came after the deadline: refused as such, the expiry applied
                late = self.decide(before, command, now)
                if self.is_refusal(late):
                    return Outcome(state=state, expired=expired, refusal=late)
        decision = self.decide(state, command, now)
        if self.is_refusal(decision):
            return Outcome(state=state, expired=expired, refusal=decision)
        seat = getattr(command, "seat", None)
        state = self._append(game, state, decision, actor_seat=seat, now=now)
        return Outcome(state=state, events=decision, expired=expired)

    def _settle(self, game: Game, state: Any, now: datetime) -> tuple[Any, list[object]]:
        expired = self.due_expiry(state, now)
        if not expired:
            return state, []
        return self._append(game, state, expired, actor_seat=None, now=now), expired

    def _append(
        self, game: Game, state: Any, events: list[object], *, actor_seat: int | None, now: datetime
    ) -> Any:
        first_version = state.version + 1
        store.append(game, events, expected_version=state.version, actor_seat=actor_seat, now=now)
        after = self.fold(events, state)
        if after.ended and game.ended_at is None:
            Game.objects.filter(pk=game.pk).update(ended_at=now)
            game.ended_at = now
        store.remember_state(game, after)
        store.after_commit(game, after, events, first_version)
        return after


def _due(state: Any, now: datetime) -> bool:
    return state.deadline is not None and now >= state.deadline
