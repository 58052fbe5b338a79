"""Small builders for the flow tests: a table dealt from the decks in file order, commands
applied with their events folded in, every seat passing, stars put on a sheet, and the
events stored and read back through the codec."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from games import kit
from games.codec import EventCodec
from games.observatory.rules.commands import Choose, Command, Deal, Pick, Submit
from games.observatory.rules.decide import decide
from games.observatory.rules.deck import LARGE, SMALL
from games.observatory.rules.events import EVENT_TYPES
from games.observatory.rules.evolve import fold
from games.observatory.rules.model import Phase, Source, State, Take
from games.observatory.rules.sheet import Dice
from games.observatory.rules.sheet_data import Space
from games.observatory.rules.steps import Step

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
ROLL = Dice((3, 4, 5), 6)  # a roll with no wild
CODEC = EventCodec(EVENT_TYPES)


def dice(b1: int, b2: int, b3: int, orange: int = 6) -> Dice:
    return Dice((b1, b2, b3), orange)


def stored(events: Iterable[object]) -> list[object]:
    return [CODEC.decode(*CODEC.encode(event)) for event in events]


def act(state: State, command: Command, now: datetime = NOW) -> tuple[State, list[object]]:
    """The state after ``command`` (which must be accepted) and its events."""
    decision = decide(state, command, now)
    assert isinstance(decision, list), decision
    return fold(decision, state), decision


def deal(
    players: int,
    *,
    first_player: int = 1,
    first_game: bool = False,
    step_seconds: int | None = None,
    large: tuple[str, ...] = LARGE,
    small: tuple[str, ...] = SMALL,
    roll: Dice | None = ROLL,
    now: datetime = NOW,
) -> State:
    command = Deal(players, large, small, first_player, first_game, step_seconds, roll)
    state, _ = act(State(), command, now)
    return state


def choose_all(state: State, roll: Dice = ROLL, now: datetime = NOW) -> State:
    """Every seat keeps its first four dealt cards (G3)."""
    for seat in state.seats:
        state, _ = act(state, Choose(seat, 1, state.hands[seat - 1][:4], roll), now)
    return state


def started(players: int, *, first_player: int = 1, step_seconds: int | None = None) -> State:
    """Dealt and chosen: Night 1's first turn is open."""
    return choose_all(deal(players, first_player=first_player, step_seconds=step_seconds))


def submit(
    state: State, seat: int, steps: Iterable[Step] = (), roll: Dice = ROLL, now: datetime = NOW
) -> tuple[State, list[object]]:
    return act(state, Submit(seat, state.round_number, tuple(steps), roll), now)


def pass_all(state: State, roll: Dice = ROLL, now: datetime = NOW) -> State:
    """Every seat still choosing passes (U4); a draft takes the top of the Small deck."""
    if state.phase is Phase.DRAFT:
        assert state.drafter is not None
        state, _ = act(state, Pick(state.drafter, state.version, Take(Source.SMALL_DECK), roll))
        return state
    number = state.round_number
    assert state.round is not None
    for seat in state.round.waiting:
        if state.round_number == number and not state.ended:
            state, _ = submit(state, seat, (), roll, now)
    return state


def with_stars(state: State, seat: int, stars: Iterable[Space], **changes: object) -> State:
    """The state with more stars (and any other change) on one seat's sheet."""
    sheet = state.sheet(seat)
    sheet = kit.with_changes(sheet, stars=sheet.stars | frozenset(stars), **changes)
    sheets = tuple(sheet if s == seat else state.sheet(s) for s in state.seats)
    return kit.with_changes(state, sheets=sheets)
