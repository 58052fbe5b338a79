"""Small builders for Astra's rules tests: a table dealt from a deck the test chooses,
commands by the active seat against the version it sees (T4), their events folded in, a
Journal or a card's marks set for a test, and the events stored and read back through the
codec."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from games import kit
from games.astra.rules.boards import ABOVE_GAME_END, FINAL_SCORING_CARDS
from games.astra.rules.cards import BY_NAME, CARDS
from games.astra.rules.commands import Command, Deal, Done, Observe, Rest
from games.astra.rules.decide import decide
from games.astra.rules.events import EVENT_TYPES, ActionPhaseEnded, Rested
from games.astra.rules.evolve import fold
from games.astra.rules.model import Held, Journal, Slot, State
from games.codec import EventCodec
from games.kit import Refusal

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
CODEC = EventCodec(EVENT_TYPES)
DECK = tuple(card.number for card in CARDS)  # number order: Andromeda on top
SCORING = tuple(card.id for card in FINAL_SCORING_CARDS)  # FS1..FS6


def number(name: str) -> int:
    return BY_NAME[name].number


def deck_from(*names: str) -> tuple[int, ...]:
    """A whole deck with these cards on top, in this order, then the rest in number order:
    the first is discarded (S3), the next go to slots 1, 2, ... (S6)."""
    top = tuple(number(name) for name in names)
    return (*top, *(n for n in DECK if n not in top))


def dealing(
    players: int,
    *,
    deck: tuple[int, ...] = DECK,
    first_player: int = 1,
    step_seconds: int | None = None,
) -> Deal:
    return Deal(
        players=players,
        deck=deck,
        above_game_end=ABOVE_GAME_END.get(players, 0),
        scoring=SCORING[:players],
        first_player=first_player,
        step_seconds=step_seconds,
    )


def deal(
    players: int,
    *,
    deck: tuple[int, ...] = DECK,
    first_player: int = 1,
    step_seconds: int | None = None,
    now: datetime = NOW,
) -> State:
    """Dealt: the first player's first turn is open (S8)."""
    state, _ = act(
        State(),
        dealing(players, deck=deck, first_player=first_player, step_seconds=step_seconds),
        now,
    )
    return state


def stored(events: Iterable[object]) -> list[object]:
    return [CODEC.decode(*CODEC.encode(event)) for event in events]


def act(state: State, command: Command, now: datetime = NOW) -> tuple[State, list[object]]:
    """The state after ``command`` (which must be accepted) and its events."""
    decision = decide(state, command, now)
    assert isinstance(decision, list), decision
    return fold(decision, state), decision


def action_of(events: list[object]) -> list[object]:
    """The Action phase's events: up to the one that ends it (``ActionPhaseEnded`` or
    ``Rested``); what follows is the rest of the turn, made by itself (D1-D14, T3)."""
    for n, event in enumerate(events, 1):
        if isinstance(event, ActionPhaseEnded | Rested):
            return events[:n]
    return events


def action_ended(state: State, command: Command) -> tuple[State, list[object]]:
    """The table just after ``command`` ended the Action phase, before the rest of the turn
    goes on by itself (the Action phase's own rules are tested there)."""
    _, events = act(state, command)
    events = action_of(events)
    return fold(events, state), events


def refused(state: State, command: Command, now: datetime = NOW) -> Refusal:
    decision = decide(state, command, now)
    assert isinstance(decision, Refusal), decision
    return decision


def active(state: State) -> int:
    assert state.active is not None
    return state.active


def observing(state: State, slot: int, *stars: int) -> Observe:
    """The active seat's Observe against the version it sees."""
    return Observe(active(state), state.version, slot, stars)


def observe(state: State, slot: int, *stars: int) -> tuple[State, list[object]]:
    return act(state, observing(state, slot, *stars))


def rest(state: State) -> tuple[State, list[object]]:
    return act(state, Rest(active(state), state.version))


def done(state: State) -> tuple[State, list[object]]:
    return act(state, Done(active(state), state.version))


def with_journal(state: State, seat: int, **changes: object) -> State:
    """The state with one seat's Journal changed (a position the test needs)."""
    journal: Journal = kit.with_changes(state.journal(seat), **changes)
    journals = tuple(journal if s == seat else state.journal(s) for s in state.seats)
    return kit.with_changes(state, journals=journals)


def holding(state: State, seat: int, *cards: tuple[str, bool]) -> State:
    """The seat holds these cards (name, Active?), in this order of gain."""
    held = tuple(Held(number(name), is_active) for name, is_active in cards)
    return with_journal(state, seat, held=held)


def with_marks(state: State, slot: int, marks: Mapping[int, int]) -> State:
    """The card in ``slot`` with these stars marked (star -> seat, or DREAMER)."""
    placed = state.slot(slot)
    new = tuple(marks.get(star, mark) for star, mark in enumerate(placed.marks))
    slots = tuple(
        Slot(placed.card, new) if n == slot else other for n, other in enumerate(state.slots, 1)
    )
    return kit.with_changes(state, slots=slots)
