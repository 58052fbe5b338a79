"""How each event changes the state: one small function per event, and the fold.

The deal stores the deck; ``TableSet`` then names every card it turns up (S3, S6) and each
is taken off the deck's top, checked against the event (I3): folding never consults the deck
except through what the events say. A stored event that disagrees with the state it folds
into is a broken history, and raises.
"""

from __future__ import annotations

from functools import singledispatch
from typing import TypeVar

from games import kit

from .boards import WISDOM_GAINS_TO_TOP
from .events import (
    ActionPhaseEnded,
    CardDiscovered,
    GameDealt,
    Rested,
    StarsMarked,
    TableSet,
    TelescopeSpent,
    TurnStarted,
)
from .model import Journal, Phase, Slot, State

T = TypeVar("T")


def evolve(state: State, event: object) -> State:
    """The state after one more event; the version counts events."""
    return _apply(event, kit.with_changes(state, version=state.version + 1))


fold = kit.make_fold(evolve, State)


@singledispatch
def _apply(event: object, state: State) -> State:
    raise TypeError(f"not an Astra event: {type(event).__name__}")


@_apply.register
def _(event: GameDealt, state: State) -> State:
    """S4, S5: a Journal per seat (8 Stardust, no Telescope, Pouch size 5, card limit 2,
    no Fame, no card) and each seat's Final Scoring card; the deck as dealt (S2)."""
    return kit.with_changes(
        state,
        dealt=True,
        players=event.players,
        first_player=event.first_player,
        step_seconds=event.step_seconds,
        scoring=event.scoring,
        deck=event.deck,
        above_game_end=event.above_game_end,
        journals=tuple(Journal() for _ in range(event.players)),
    )


@_apply.register
def _(event: TableSet, state: State) -> State:
    """S3: the top card to the discard pile, the marker on its Element; S6: the next N+1
    cards in slots 1..N+1, in that order."""
    state = _off_the_top(state, event.discarded)
    state = kit.with_changes(state, discard=(*state.discard, event.discarded), sphere=event.sphere)
    for card in event.slots:
        state = _off_the_top(state, card)
    return kit.with_changes(state, slots=tuple(Slot.laid(card) for card in event.slots))


def _off_the_top(state: State, card: int) -> State:
    """The deck without its top card, which the event names (I3). The Game End card is
    passed when the count above it is used up (E1, E2 come next)."""
    if not state.deck or state.deck[0] != card:
        raise ValueError(f"an event takes card {card} off the deck, whose top is not that card")
    return kit.with_changes(
        state, deck=state.deck[1:], above_game_end=max(0, state.above_game_end - 1)
    )


@_apply.register
def _(event: TurnStarted, state: State) -> State:
    """T1: the turn opens at its Ability phase, nothing done yet; its step's clock starts."""
    return kit.with_changes(
        state,
        phase=Phase.ABILITY,
        turn=event.turn,
        active=event.seat,
        observes=0,
        rested=False,
        discovered=(),
        step_started=state.version,
        deadline=event.deadline,
    )


@_apply.register
def _(event: TelescopeSpent, state: State) -> State:
    """O9, J6: the Telescope goes to the supply."""
    journal = state.journal(event.seat)
    return _with_journal(state, event.seat, telescopes=journal.telescopes - 1)


@_apply.register
def _(event: StarsMarked, state: State) -> State:
    """O2-O8: the marks, the Stardust paid (J6) and the Wisdom gained; the Action phase is
    under way (A5)."""
    slot = state.slot(event.slot)
    if slot.card != event.card:
        raise ValueError(f"stars marked on card {event.card}, not the card in slot {event.slot}")
    marks = list(slot.marks)
    for star in event.stars:
        marks[star] = event.seat
    journal = state.journal(event.seat)
    state = _with_journal(
        state,
        event.seat,
        stardust=journal.stardust - event.stardust,
        wisdom=min(WISDOM_GAINS_TO_TOP, journal.wisdom + event.wisdom),
    )
    slots = _replaced(state.slots, event.slot, kit.with_changes(slot, marks=tuple(marks)))
    return kit.with_changes(state, slots=slots, phase=Phase.OBSERVING, observes=state.observes + 1)


@_apply.register
def _(event: CardDiscovered, state: State) -> State:
    """O12: recorded for the Discovery phase (D1, next); the card stays on its slot."""
    return kit.with_changes(state, discovered=(*state.discovered, event.slot))


@_apply.register
def _(event: ActionPhaseEnded, state: State) -> State:
    """O11: no more Observes; no step runs until the turn's next phase (D1, V5, T3)."""
    return kit.with_changes(state, phase=Phase.ACTION_ENDED, deadline=None)


@_apply.register
def _(event: Rested, state: State) -> State:
    """R2: the refill; R4: the Element's cards Active again; R5: the marker moves and,
    past the discard icon, the deck's top card goes face up to the discard pile. The Rest
    is the whole Action (R1)."""
    journal = state.journal(event.seat)
    back = set(event.reactivated)
    held = tuple(
        kit.with_changes(card, active=True) if card.card in back else card for card in journal.held
    )
    state = _with_journal(state, event.seat, stardust=journal.stardust + event.stardust, held=held)
    if event.discarded is not None:
        state = _off_the_top(state, event.discarded)
        state = kit.with_changes(state, discard=(*state.discard, event.discarded))
    return kit.with_changes(
        state, sphere=event.sphere_to, rested=True, phase=Phase.ACTION_ENDED, deadline=None
    )


def _with_journal(state: State, seat: int, **changes: object) -> State:
    journal = kit.with_changes(state.journal(seat), **changes)
    return kit.with_changes(state, journals=_replaced(state.journals, seat, journal))


def _replaced(items: tuple[T, ...], number: int, item: T) -> tuple[T, ...]:
    """``items`` with the one numbered ``number`` (from 1: a seat, a slot) replaced."""
    return (*items[: number - 1], item, *items[number:])
