"""Drive random legal Constellate games, for property tests and the store's tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime

from games.constellate import rules as constellate
from games.constellate.rules import (
    Command,
    Crew,
    Deal,
    Expire,
    Key,
    Name,
    State,
    Step,
    Stop,
    TouchCard,
    key_counts,
    mode_for,
)
from tests.support import driver
from tests.support.sky import NOW, SKY

Chooser = Callable[[list[Command]], Command]


def random_deal(rng: random.Random, players: int, step_seconds: int | None = 60) -> Deal:
    mode = mode_for(players)
    first = rng.choice([Crew.GOLD, Crew.TEAL]) if players >= 4 else Crew.GOLD
    key: list[Key] = [k for k, n in key_counts(mode, first).items() for _ in range(n)]
    rng.shuffle(key)
    return Deal(players, SKY, tuple(key), first, step_seconds)


def legal_commands(state: State, rng: random.Random) -> list[Command]:
    """Every legal move now (with the current version), plus the clock's expiry."""
    moves: list[Command] = []
    seats = [state.seat(n) for n in range(1, state.players + 1)]
    active = [s for s in seats if s.crew is state.crew]
    if state.step is Step.NAMING:
        gazer = next(s for s in active if s.stargazer)
        dark = len(state.dark_stars(state.crew))
        moves += [Name(gazer.number, "ocean", n, state.version) for n in range(1, dark + 1)]
    elif state.step is Step.SPOTTING:
        spotters = [s for s in active if not s.stargazer]
        order = list(range(24))
        rng.shuffle(order)
        for card in range(24):
            if card not in state.lit:
                seat = rng.choice(spotters).number
                moves.append(TouchCard(seat, card, state.version, tuple(order)))
        if state.touches_made:
            moves.append(Stop(spotters[0].number, state.version))
    if state.deadline is not None and not state.ended:
        moves.append(Expire(state.step_started))
    return moves


def when(state: State, command: Command, clock: datetime) -> datetime:
    return driver.when(constellate, state, command, clock)


def play_out(
    deal: Deal, choose: Chooser, rng: random.Random, limit: int = 400
) -> tuple[State, list[list[object]], list[State]]:
    """Play a game to its end (or ``limit`` commands): each step's events and each state."""
    return driver.play_out(constellate, deal, legal_commands, choose, rng, start=NOW, limit=limit)
