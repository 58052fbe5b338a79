"""Constellate's one way in: run one command against one game, in one transaction.

Load (lock the game), fold, apply any due expiry first (C6), decide, append, and announce
the new events after commit. Views, consumers and the clock all come through ``act``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import store
from games.models import Game

from . import rules
from .clues import check_clue
from .deck import draw_sky, pictured_names

KIND = "constellate"


@dataclass(frozen=True)
class Outcome:
    state: rules.State
    events: list[object] = field(default_factory=list)  # appended for the command
    expired: list[object] = field(default_factory=list)  # appended first, by the clock (C6)
    refusal: rules.Refusal | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None


def word_check_for(state: rules.State) -> rules.WordCheck:
    """The clue rules (W1-W8) against this sky's pictures and their aliases."""
    pictured = pictured_names(state.sky)
    return lambda word: check_clue(word, pictured)


def deal_command(
    players: int, step_seconds: int | None, rng: random.Random | None = None
) -> rules.Deal:
    """Draw everything random about a new sky (K1-K3, S5); the deal event stores it."""
    rng = rng or random.SystemRandom()
    mode = rules.mode_for(players)
    first = rules.Crew.GOLD if mode is rules.Mode.BEFORE_DAWN else rng.choice(list(rules.Crew))
    key = [k for k, n in rules.key_counts(mode, first).items() for _ in range(n)]
    rng.shuffle(key)
    return rules.Deal(
        players=players,
        sky=draw_sky(rng),
        key=tuple(key),
        first_crew=first,
        step_seconds=step_seconds,
    )


def comet_order(rng: random.Random | None = None) -> tuple[int, ...]:
    """V2: the order in which a comet, if touched, would pick the rival crew's stars."""
    order = list(range(rules.SKY_SIZE))
    (rng or random.SystemRandom()).shuffle(order)
    return tuple(order)


def start_game(
    *,
    players: int,
    step_seconds: int | None = None,
    rng: random.Random | None = None,
    now: datetime | None = None,
) -> tuple[Game, Outcome]:
    with transaction.atomic():
        game = store.create_game(KIND)
        outcome = _run(game, deal_command(players, step_seconds, rng), now or timezone.now())
    return game, outcome


def act(game_id: int, command: rules.Command, *, now: datetime | None = None) -> Outcome:
    """Run one command. A refusal appends nothing (except a due expiry, C6)."""
    with transaction.atomic():
        game = store.lock(game_id)
        return _run(game, command, now or timezone.now())


def expire(game_id: int, step: int, *, now: datetime | None = None) -> Outcome:
    """The clock ran out on ``step`` (C2/C3). Refused, changing nothing, if that step is
    over or still has time: a late or duplicate job does nothing."""
    return act(game_id, rules.Expire(step=step), now=now)


def clock(state: rules.State) -> tuple[int, datetime] | None:
    """The step now running and its deadline, for the scheduler (None: no clock runs)."""
    if state.ended or state.deadline is None:
        return None
    return state.step_started, state.deadline


def current(game: Game | int, *, now: datetime | None = None) -> rules.State:
    """The game's state as it stands, any due expiry applied first (C6: a page load after
    the deadline shows the expired step)."""
    game_id = game if isinstance(game, int) else game.pk
    with transaction.atomic():
        game = store.lock(game_id)
        state = store.state_of(game)
        if state.deadline is None or (now or timezone.now()) < state.deadline:
            return state
        return _settle(game, state, now or timezone.now())[0]


def _settle(game: Game, state: rules.State, now: datetime) -> tuple[rules.State, list[object]]:
    expired = rules.due_expiry(state, now)
    if not expired:
        return state, []
    return _append(game, state, expired, actor_seat=None, now=now), expired


def _run(game: Game, command: rules.Command, now: datetime) -> Outcome:
    state, expired = store.state_of(game), []
    if not isinstance(command, rules.Expire):  # the clock's own command expires itself
        before = state
        state, expired = _settle(game, state, now)
        if expired:  # C6: it came after the deadline: refused as such, the expiry applied
            late = rules.decide(before, command, now, check_word=_lazy_word_check(before))
            if isinstance(late, rules.Refusal):
                return Outcome(state=state, expired=expired, refusal=late)
    decision = rules.decide(state, command, now, check_word=_lazy_word_check(state))
    if isinstance(decision, rules.Refusal):
        return Outcome(state=state, expired=expired, refusal=decision)
    state = _append(game, state, decision, actor_seat=getattr(command, "seat", None), now=now)
    return Outcome(state=state, events=decision, expired=expired)


def _lazy_word_check(state: rules.State) -> rules.WordCheck:
    if not state.dealt:
        return rules.letters_only
    return word_check_for(state)


def _append(
    game: Game, state: rules.State, events: list[object], *, actor_seat: int | None, now: datetime
) -> rules.State:
    first_version = state.version + 1
    store.append(game, events, expected_version=state.version, actor_seat=actor_seat, now=now)
    after = rules.fold(events, state)
    if after.ended and game.ended_at is None:
        Game.objects.filter(pk=game.pk).update(ended_at=now)
        game.ended_at = now
    store.remember_state(game, after)
    store.after_commit(game, after, events, first_version)
    return after
