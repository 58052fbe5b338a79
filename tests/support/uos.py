"""Under One Sky tables for tests: a known deal, boards drawn as text, and random legal play.

A board is drawn as five rows of five letters, north at the top: ``B`` blue, ``O`` orange,
``Y`` yellow, ``N`` the North Star (always in the centre), ``.`` empty.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from games.underonesky import rules as uos_rules
from games.underonesky.rules import (
    CARDS,
    CENTRE,
    COLOURS,
    TILES_PER_COLOUR,
    Command,
    Compass,
    Deal,
    Expire,
    Move,
    Place,
    Refusal,
    State,
    Step,
    Tile,
    decide,
    fold,
    legal_moves,
)
from tests.support import driver

NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
LETTERS = {"B": Tile.BLUE, "O": Tile.ORANGE, "Y": Tile.YELLOW, "N": Tile.NORTH, ".": None}
# A stack whose top tiles are known: yellow, blue, orange, then the rest in turn.
STACK = tuple(COLOURS[(i + 2) % 3] for i in range(3 * TILES_PER_COLOUR))


def board(text: str) -> tuple[Tile | None, ...]:
    rows = [line.strip() for line in text.strip().splitlines()]
    assert len(rows) == 5 and all(len(r) == 5 for r in rows), rows
    tiles = tuple(LETTERS[ch] for row in rows for ch in row)
    assert tiles[CENTRE] is Tile.NORTH, "the North Star is in the centre"
    return tiles


def drawn(tiles: tuple[Tile | None, ...]) -> str:
    back = {v: k for k, v in LETTERS.items()}
    return "\n".join("".join(back[t] for t in tiles[r * 5 : r * 5 + 5]) for r in range(5))


def deal(
    *,
    chart: Tile = Tile.ORANGE,
    compass: Compass = Compass.N,
    cards: tuple[str, str, str] = ("orange-1", "orange-2", "orange-3"),
    stack: tuple[Tile, ...] = STACK,
    first_seat: int = 1,
    step_seconds: int | None = None,
) -> Deal:
    mine, theirs, down = (CARDS[c] for c in cards)
    return Deal(chart, compass, (mine, theirs), down, stack, first_seat, step_seconds)


def decided(state: State, command: Command, now: datetime = NOW) -> list[object]:
    decision = decide(state, command, now)
    assert not isinstance(decision, Refusal), (command, decision)
    return decision


def refused(state: State, command: Command, now: datetime = NOW) -> Refusal:
    decision = decide(state, command, now)
    assert isinstance(decision, Refusal), (command, decision)
    return decision


def dealt(**options: object) -> State:
    return fold(decided(State(), deal(**options)))  # type: ignore[arg-type]


def arranged(state: State, text: str, *, face_up: tuple[Tile, ...] | None = None) -> State:
    """The dealt state with this board (and these tiles beside it): a position to test
    from. The stack is trimmed so that the 27 tiles still add up."""
    tiles = board(text)
    face_up = state.face_up if face_up is None else face_up
    used = [t for t in tiles if t not in (None, Tile.NORTH)] + list(face_up)
    stack = list(STACK)
    for tile in used:
        stack.remove(tile)
    return replace(state, board=tiles, face_up=face_up, stack=tuple(stack))


# -- random legal play ---------------------------------------------------------------------

Chooser = Callable[[list[Command]], Command]


def random_deal(rng: random.Random, step_seconds: int | None = 60) -> Deal:
    chart = rng.choice(COLOURS)
    cards = [c.id for c in CARDS.values() if c.chart is chart]
    rng.shuffle(cards)
    stack = [c for c in COLOURS for _ in range(TILES_PER_COLOUR)]
    rng.shuffle(stack)
    return deal(
        chart=chart,
        compass=rng.choice(list(Compass)),
        cards=tuple(cards),  # type: ignore[arg-type]
        stack=tuple(stack),
        first_seat=rng.choice((1, 2)),
        step_seconds=step_seconds,
    )


def legal_commands(state: State, rng: random.Random) -> list[Command]:
    """Every legal move now (with the current version), plus the clock's expiry."""
    moves: list[Command] = []
    if state.step is Step.PLACING:
        picks = [*range(len(state.face_up)), *([None] if state.stack else [])]
        for space in state.empty_spaces():
            for pick in picks:
                moves.append(Place(state.seat, space, state.version, pick))
    elif state.step is Step.ACTING:
        for origin, target in legal_moves(state.board, state.placed):  # type: ignore[arg-type]
            moves.append(Move(state.seat, target, state.version, origin))
    if state.deadline is not None and not state.ended:
        moves.append(Expire(state.step_started, (rng.randrange(1000), rng.randrange(1000))))
    return moves


def when(state: State, command: Command, clock: datetime) -> datetime:
    return driver.when(uos_rules, state, command, clock)


def play_out(
    first: Deal, choose: Chooser, rng: random.Random, limit: int = 200
) -> tuple[State, list[list[object]], list[State]]:
    """Play a game to its end (or ``limit`` commands): each step's events and each state."""
    return driver.play_out(uos_rules, first, legal_commands, choose, rng, start=NOW, limit=limit)
