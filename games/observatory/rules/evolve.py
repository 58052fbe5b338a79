"""How each event changes the state: one small function per event, and the fold.

A step's close applies every seat's revealed submission to that seat's own sheet (C10) and
scores every sheet again: the running scores (V1). The deal (G2), the choice's returns (G3)
and the Night Sky (G4, G6, G7) follow from the deck orders the deal stored: no event repeats
what the fold can work out.
"""

from __future__ import annotations

from functools import singledispatch

from games import kit
from games.kit import Refusal, Round

from . import steps
from .deck import CARDS, LARGE_SIZE
from .events import (
    ChoicesRevealed,
    ChoiceStarted,
    DraftStarted,
    GameDealt,
    GameEnded,
    KeepSubmitted,
    OpeningStarted,
    Picked,
    StepsRevealed,
    StepsSubmitted,
    TurnStarted,
)
from .model import (
    DEALT_LARGE,
    DEALT_SMALL,
    FIRST_GAME_LARGE,
    FIRST_GAME_SMALL,
    PASS,
    SLOTS,
    ClosedStep,
    DraftPick,
    Keep,
    Phase,
    Source,
    State,
    Submission,
)
from .scoring import score
from .sheet import Sheet


def evolve(state: State, event: object) -> State:
    """The state after one more event; the version counts events."""
    return _apply(event, kit.with_changes(state, version=state.version + 1))


fold = kit.make_fold(evolve, State)


def applied(state: State, seat: int, submission: Submission) -> Sheet | Refusal:
    """The seat's sheet after ``submission`` in the running step (U1): its dice, whether the
    seat is the active one (N7) and whether the step is a Night opening (N8)."""
    opening = state.phase is Phase.OPENING
    return steps.apply(
        state.sheet(seat),
        submission.steps,
        dice=None if opening else state.dice,
        active=not opening and seat == state.active,
        opening=opening,
    )


@singledispatch
def _apply(event: object, state: State) -> State:
    raise TypeError(f"not an Observatory event: {type(event).__name__}")


@_apply.register
def _(event: GameDealt, state: State) -> State:
    n = event.players
    if event.first_game:  # G2: 1 Large per seat in seat order, then 3 Small each
        large_each, small_each = FIRST_GAME_LARGE, FIRST_GAME_SMALL
    else:  # G2: the top 3 Large to seat 1, the next 3 to seat 2...; then the Small deck
        large_each, small_each = DEALT_LARGE, DEALT_SMALL
    hands = tuple(
        event.large[i * large_each : (i + 1) * large_each]
        + event.small[i * small_each : (i + 1) * small_each]
        for i in range(n)
    )
    sheets = tuple(Sheet(goals=hand if event.first_game else ()) for hand in hands)
    dealt = kit.with_changes(
        state,
        dealt=True,
        phase=Phase.CHOICE,
        players=n,
        first_player=event.first_player,
        first_game=event.first_game,
        step_seconds=event.step_seconds,
        large=event.large[n * large_each :],
        small=event.small[n * small_each :],
        hands=hands,
        sheets=sheets,
        scores=tuple(score(sheet) for sheet in sheets),
        opened=(0,) * n,
        owed=(0,) * n,
    )
    return _night_sky(dealt) if event.first_game else dealt  # G2: G4 follows at once


def _night_sky(state: State) -> State:
    """G4: the top 3 cards of each deck turned face up, slots 1-3."""
    return kit.with_changes(
        state,
        sky_large=_slots(state.large[:SLOTS]),
        sky_small=_slots(state.small[:SLOTS]),
        large=state.large[SLOTS:],
        small=state.small[SLOTS:],
    )


def _slots(cards: tuple[str, ...]) -> tuple[str | None, ...]:
    return (*cards, *(None,) * (SLOTS - len(cards)))


@_apply.register
def _(event: ChoiceStarted, state: State) -> State:
    opened: Round[Keep] = Round(
        number=1, seats=frozenset(state.seats), started=state.version, deadline=event.deadline
    )
    return kit.with_changes(state, phase=Phase.CHOICE, choice=opened, step_started=state.version)


@_apply.register
def _(event: KeepSubmitted, state: State) -> State:
    assert state.choice is not None
    return kit.with_changes(state, choice=kit.evolve_round(state.choice, event))


@_apply.register
def _(event: ChoicesRevealed, state: State) -> State:
    """G3: kept cards become goals (in the order dealt); the returned ones go under their
    own deck in seat order, each seat's two in the order dealt; then G4."""
    assert state.choice is not None
    by_seat = event.by_seat()
    large, small = list(state.large), list(state.small)
    sheets = []
    for seat, hand, sheet in zip(state.seats, state.hands, state.sheets, strict=True):
        kept = set(by_seat[seat].cards)
        sheets.append(kit.with_changes(sheet, goals=tuple(c for c in hand if c in kept)))
        for card in hand:
            if card not in kept:
                (large if CARDS[card].size == LARGE_SIZE else small).append(card)
    chosen = kit.with_changes(
        state,
        choice=kit.evolve_round(state.choice, event),
        sheets=tuple(sheets),
        large=tuple(large),
        small=tuple(small),
    )
    return _night_sky(chosen)


@_apply.register
def _(event: OpeningStarted, state: State) -> State:
    opened: Round[Submission] = Round(
        number=event.round,
        seats=frozenset(state.seats),
        started=state.version,
        deadline=event.deadline,
    )
    return kit.with_changes(
        state,
        phase=Phase.OPENING,
        night=event.night,
        turn=0,
        dice=None,
        round=opened,
        step_started=state.version,
        opened=(0,) * state.players,
        owed=(0,) * state.players,
        drafter=None,
        draft_deadline=None,
    )


@_apply.register
def _(event: TurnStarted, state: State) -> State:
    opened: Round[Submission] = Round(
        number=event.round,
        seats=frozenset(state.seats),
        started=state.version,
        deadline=event.deadline,
    )
    return kit.with_changes(
        state,
        phase=Phase.TURN,
        night=event.night,
        turn=event.turn,
        dice=event.dice,
        round=opened,
        step_started=state.version,
        owed=(0,) * state.players,
        drafter=None,
        draft_deadline=None,
    )


@_apply.register
def _(event: StepsSubmitted, state: State) -> State:
    assert state.round is not None
    return kit.with_changes(state, round=kit.evolve_round(state.round, event))


@_apply.register
def _(event: StepsRevealed, state: State) -> State:
    assert state.round is not None
    by_seat = event.by_seat()
    sheets: list[Sheet] = []
    completed: list[tuple[str, ...]] = []
    for seat in state.seats:
        before = state.sheet(seat)
        after = applied(state, seat, by_seat.get(seat, PASS))
        if isinstance(after, Refusal):  # never: decide accepted it against this very sheet
            raise ValueError(f"a stored submission breaks the rules: {after.reason}")
        sheets.append(after)
        completed.append(after.completed[len(before.completed) :])
    opening = state.phase is Phase.OPENING
    counts = tuple(len(cards) for cards in completed)
    closed = ClosedStep(
        night=state.night,
        turn=state.turn,
        active=None if opening else state.active,
        dice=state.dice,
        version=state.version,
        submissions=tuple(by_seat.get(seat) for seat in state.seats),
        completed=tuple(completed),
        skipped=event.silent,
        by_clock=event.by_clock,
    )
    if opening:  # N9: they belong to the Night's first turn
        opened, owed = tuple(a + b for a, b in zip(state.opened, counts, strict=True)), state.owed
    else:  # G5: one replacement per card completed this turn, its opening included
        opened = (0,) * state.players
        owed = tuple(a + b for a, b in zip(state.opened, counts, strict=True))
    return kit.with_changes(
        state,
        round=kit.evolve_round(state.round, event),
        sheets=tuple(sheets),
        scores=tuple(score(sheet) for sheet in sheets),
        closed=(*state.closed, closed),
        opened=opened,
        owed=owed,
    )


@_apply.register
def _(event: DraftStarted, state: State) -> State:
    return kit.with_changes(
        state,
        phase=Phase.DRAFT,
        drafter=event.seat,
        step_started=state.version,
        draft_deadline=event.deadline,
    )


@_apply.register
def _(event: Picked, state: State) -> State:
    """G6: a face-up card taken is replaced at once from its deck (G7: not if it is empty);
    a deck's top card is simply drawn. The card joins the seat's goals (G8: face up)."""
    large, small = state.large, state.small
    sky_large, sky_small = list(state.sky_large), list(state.sky_small)
    if event.source is Source.LARGE_ROW and event.slot is not None:
        sky_large[event.slot - 1], large = (large[0], large[1:]) if large else (None, large)
    elif event.source is Source.SMALL_ROW and event.slot is not None:
        sky_small[event.slot - 1], small = (small[0], small[1:]) if small else (None, small)
    elif event.source is Source.LARGE_DECK:
        large = large[1:]
    else:
        small = small[1:]
    i = event.seat - 1
    sheet = state.sheets[i]
    sheet = kit.with_changes(sheet, goals=(*sheet.goals, event.card))
    owed = tuple(n - 1 if seat == event.seat else n for seat, n in enumerate(state.owed, 1))
    pick = DraftPick(
        event.seat, event.source, event.slot, event.card, event.by_clock, state.version
    )
    return kit.with_changes(
        state,
        large=large,
        small=small,
        sky_large=tuple(sky_large),
        sky_small=tuple(sky_small),
        sheets=(*state.sheets[:i], sheet, *state.sheets[i + 1 :]),
        owed=owed,
        picks=(*state.picks, pick),
    )


@_apply.register
def _(event: GameEnded, state: State) -> State:
    return kit.with_changes(
        state,
        ended=True,
        phase=Phase.ENDED,
        scores=event.scores,
        winners=event.winners,
        drafter=None,
        draft_deadline=None,
    )
