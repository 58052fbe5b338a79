"""Under One Sky's one way in: the platform's loop (``games.service``) with these rules.

Everything random is drawn here, by the server, and stored in the events through the
commands: the stack's order, the cards, who starts, and for an expired turn the space the
blind tile goes to and the move that is made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime

from games.inputs import one_of
from games.models import Game
from games.service import GameService, Outcome

from . import rules

KIND = "underonesky"
PICK_RANGE = 2**30


def default_options() -> dict[str, str]:
    return {"chart": rules.RECOMMENDED.value, "compass": rules.Compass.N.value}


def clean_options(raw: Mapping[str, str]) -> dict[str, str]:
    """The host's choice of chart and where its north points, or ``BadInput`` (a
    ValueError) saying why."""
    chart = one_of(
        str(raw.get("chart", rules.RECOMMENDED.value)),
        {colour.value for colour in rules.CHARTS},
        "Choose the blue, orange or yellow star chart.",
    )
    compass = one_of(
        str(raw.get("compass", rules.Compass.N.value)),
        {c.value for c in rules.Compass},
        "The chart's north points up, right, down or left (N, E, S or W).",
    )
    return {"chart": chart, "compass": compass}


def deal_command(
    *,
    chart: rules.Tile,
    compass: rules.Compass,
    step_seconds: int | None,
    rng: random.Random | None = None,
) -> rules.Deal:
    """Shuffle the 27 tiles, deal one card of the chart's set to each player (the third
    stays face down), and pick who starts."""
    rng = rng or random.SystemRandom()
    cards = list(rules.CHARTS[chart].cards)
    rng.shuffle(cards)
    stack = [colour for colour in rules.COLOURS for _ in range(rules.TILES_PER_COLOUR)]
    rng.shuffle(stack)
    return rules.Deal(
        chart=chart,
        compass=compass,
        cards=(cards[0], cards[1]),
        face_down=cards[2],
        stack=tuple(stack),
        first_seat=rng.choice((1, 2)),
        step_seconds=step_seconds,
    )


def picks(rng: random.Random | None = None) -> tuple[int, int]:
    """The clock's dice: one number picks the empty space, one the legal move."""
    rng = rng or random.SystemRandom()
    return rng.randrange(PICK_RANGE), rng.randrange(PICK_RANGE)


def _due_expiry(state: rules.State, now: datetime) -> list[object]:
    return rules.due_expiry(state, now, picks())


SERVICE = GameService(
    kind=KIND,
    decide=rules.decide,
    fold=rules.fold,
    due_expiry=_due_expiry,
    is_refusal=lambda decision: isinstance(decision, rules.Refusal),
    is_expiry=lambda command: isinstance(command, rules.Expire),
)
clock = SERVICE.clock  # the turn now running and its deadline, for the scheduler


def start_game(
    *,
    players: int = rules.PLAYERS,
    step_seconds: int | None = None,
    options: Mapping[str, str] | None = None,
    rng: random.Random | None = None,
    now: datetime | None = None,
) -> tuple[Game, Outcome]:
    if players != rules.PLAYERS:
        raise ValueError("Under One Sky is a game for two.")
    chosen = clean_options(options or default_options())
    command = deal_command(
        chart=rules.Tile(chosen["chart"]),
        compass=rules.Compass(chosen["compass"]),
        step_seconds=step_seconds,
        rng=rng,
    )
    return SERVICE.start(command, now=now)


def act(game_id: int, command: rules.Command, *, now: datetime | None = None) -> Outcome:
    """Run one command. A refusal appends nothing (except a due expiry)."""
    return SERVICE.act(game_id, command, now=now)


def expire(game_id: int, step: int, *, now: datetime | None = None) -> Outcome:
    """The clock ran out on the turn that started at ``step``: refused, changing nothing,
    if that turn is over or still has time."""
    return act(game_id, rules.Expire(step=step, picks=picks()), now=now)


def current(game: Game | int, *, now: datetime | None = None) -> rules.State:
    """The game as it stands, an expired turn played out first."""
    return SERVICE.current(game, now=now)
