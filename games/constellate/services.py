"""Constellate's one way in: run one command against one game, in one transaction.

Load (lock the game), fold, apply any due expiry first (C6), decide, append, and announce
the new events after commit: the platform's loop (``games.service``) with Constellate's
rules and clue check. Views, consumers and the clock all come through ``act``.
"""

from __future__ import annotations

import random
from datetime import datetime

from games.models import Game
from games.service import GameService, Outcome

from . import rules
from .clues import check_clue
from .deck import draw_sky, pictured_names

KIND = "constellate"


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


def _decide(state: rules.State, command: rules.Command, now: datetime) -> rules.Decision:
    return rules.decide(state, command, now, check_word=_lazy_word_check(state))


def _lazy_word_check(state: rules.State) -> rules.WordCheck:
    if not state.dealt:
        return rules.letters_only
    return word_check_for(state)


SERVICE = GameService(
    kind=KIND,
    decide=_decide,
    fold=rules.fold,
    due_expiry=rules.due_expiry,
    is_refusal=lambda decision: isinstance(decision, rules.Refusal),
    is_expiry=lambda command: isinstance(command, rules.Expire),
)
clock = SERVICE.clock  # the step now running and its deadline, for the scheduler


def start_game(
    *,
    players: int,
    step_seconds: int | None = None,
    rng: random.Random | None = None,
    now: datetime | None = None,
) -> tuple[Game, Outcome]:
    return SERVICE.start(deal_command(players, step_seconds, rng), now=now)


def act(game_id: int, command: rules.Command, *, now: datetime | None = None) -> Outcome:
    """Run one command. A refusal appends nothing (except a due expiry, C6)."""
    return SERVICE.act(game_id, command, now=now)


def expire(game_id: int, step: int, *, now: datetime | None = None) -> Outcome:
    """The clock ran out on ``step`` (C2/C3). Refused, changing nothing, if that step is
    over or still has time: a late or duplicate job does nothing."""
    return act(game_id, rules.Expire(step=step), now=now)


def current(game: Game | int, *, now: datetime | None = None) -> rules.State:
    """The game's state as it stands, any due expiry applied first (C6: a page load after
    the deadline shows the expired step)."""
    return SERVICE.current(game, now=now)
