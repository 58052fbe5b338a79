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

from .boards import POUCH_GAINS_TO_TOP, WISDOM_GAINS_TO_TOP
from .cards import AbilityKind, BoonKind
from .events import (
    AbilityMarked,
    AbilityUsed,
    ActionPhaseEnded,
    BoonPicked,
    BoonPickOpened,
    BoonsCrossed,
    CardDiscovered,
    CardDrawn,
    CardGained,
    CardLimitExceeded,
    CardsDiscarded,
    DreamCardDiscarded,
    DreamDiscovered,
    DreamMarked,
    DreamOpened,
    DreamSkipped,
    GameDealt,
    GameEnded,
    GameEndExposed,
    Rested,
    StarsMarked,
    TableSet,
    TelescopeSpent,
    TurnEnded,
    TurnStarted,
)
from .model import DREAMER, Held, Journal, Phase, Pick, Slot, State, TurnMark

T = TypeVar("T")


LOG_KEPT = 12  # U2: the log shows the last public events
UNLOGGED = (GameDealt, BoonPicked)  # H1, H2: the deal's secrets; H4: a pick sealed in its group


def evolve(state: State, event: object) -> State:
    """The state after one more event; the version counts events. Every public event is
    kept for the log (U2), the last ``LOG_KEPT``: never the deal (H1, H2) nor a single Boon
    pick, sealed until its group completes (H4: ``BoonsCrossed`` then names them all)."""
    after = _apply(event, kit.with_changes(state, version=state.version + 1))
    if isinstance(event, TurnStarted):
        after = kit.with_changes(after, turns=(*after.turns, (after.version, event.seat)))
    if isinstance(event, UNLOGGED):
        return after
    return kit.with_changes(after, recent=(*after.recent, event)[-LOG_KEPT:])


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
    """The deck without its top card, which the event names (I3). Once the count above the
    Game End card is used up, the card is on top until ``GameEndExposed`` sets it aside (E1,
    E2); the cards drawn after come from below it."""
    if not state.deck or state.deck[0] != card:
        raise ValueError(f"an event takes card {card} off the deck, whose top is not that card")
    return kit.with_changes(
        state, deck=state.deck[1:], above_game_end=max(0, state.above_game_end - 1)
    )


@_apply.register
def _(event: TurnStarted, state: State) -> State:
    """T1: the turn opens at its Ability phase, nothing done yet, no effect in force (T3
    forgot the last turn's); its step's clock starts."""
    return kit.with_changes(
        state,
        phase=Phase.ABILITY,
        turn=event.turn,
        active=event.seat,
        observes=0,
        rested=False,
        in_force=(),
        skipped=False,
        turn_marks=(),
        discovered=(),
        dreamed=False,
        dream_discovered=None,
        picks=None,
        picked=(),
        taken=(),
        step_started=state.version,
        deadline=event.deadline,
    )


@_apply.register
def _(event: AbilityUsed, state: State) -> State:
    """A2: the card is Exhausted at once; A3: what an instant kind gains (K3, K4, K8, K9,
    K11, K12, K15); A4: a this-turn kind is in force; K1: the Action phase is skipped."""
    journal = state.journal(event.seat)
    held = tuple(Held(h.card, False) if h.card == event.card else h for h in journal.held)
    state = _with_journal(
        state,
        event.seat,
        held=held,
        stardust=journal.stardust + event.stardust,
        telescopes=journal.telescopes + event.telescopes,
        wisdom=journal.wisdom + event.wisdom,
        fame=journal.fame + event.fame,
        pouch_gains=journal.pouch_gains + event.pouch,
    )
    if event.kind.this_turn:
        state = kit.with_changes(state, in_force=(*state.in_force, event.card))
    if event.kind is AbilityKind.STAR_BURST:
        state = kit.with_changes(state, skipped=True)
    return state


@_apply.register
def _(event: AbilityMarked, state: State) -> State:
    """K18, O8: the Ability's free marks are the user's; Grand stars gain Wisdom. No Action
    is taken by them (A5)."""
    state = _marked(state, event.seat, event.slot, event.card, event.stars)
    journal = state.journal(event.seat)
    state = _with_journal(state, event.seat, wisdom=journal.wisdom + event.wisdom)
    mark = TurnMark(event.card, event.stars, observe=False)
    return kit.with_changes(state, turn_marks=(*state.turn_marks, mark))


def _marked(state: State, seat: int, number: int, card: int, stars: tuple[int, ...]) -> State:
    slot = state.slot(number)
    if slot.card != card:
        raise ValueError(f"stars marked on card {card}, not the card in slot {number}")
    marks = list(slot.marks)
    for star in stars:
        marks[star] = seat
    return kit.with_changes(
        state, slots=_replaced(state.slots, number, kit.with_changes(slot, marks=tuple(marks)))
    )


@_apply.register
def _(event: TelescopeSpent, state: State) -> State:
    """O9, J6: the Telescope goes to the supply."""
    journal = state.journal(event.seat)
    return _with_journal(state, event.seat, telescopes=journal.telescopes - 1)


@_apply.register
def _(event: StarsMarked, state: State) -> State:
    """O2-O8: the marks, the Stardust paid (J6) and the Wisdom gained; the Action phase is
    under way (A5); the marks are kept for the end of the turn (K2, K7, K16)."""
    state = _marked(state, event.seat, event.slot, event.card, event.stars)
    journal = state.journal(event.seat)
    state = _with_journal(
        state,
        event.seat,
        stardust=journal.stardust - event.stardust,
        wisdom=min(WISDOM_GAINS_TO_TOP, journal.wisdom + event.wisdom),
    )
    mark = TurnMark(event.card, event.stars, observe=True)
    return kit.with_changes(
        state,
        phase=Phase.OBSERVING,
        observes=state.observes + 1,
        turn_marks=(*state.turn_marks, mark),
    )


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


@_apply.register
def _(event: BoonPickOpened, state: State) -> State:
    """D6, Z2: one group's pick step; its number is this event's version (the step a pick
    names, T4)."""
    step: kit.Round[Pick] = kit.Round(
        number=state.version,
        seats=frozenset(event.seats),
        started=state.version,
        deadline=event.deadline,
    )
    return kit.with_changes(
        state,
        phase=Phase.PICKING,
        picks=step,
        step_started=state.version,
        deadline=event.deadline,
    )


@_apply.register
def _(event: BoonPicked, state: State) -> State:
    """H4: the pick is in, sealed; nothing is gained until the group completes."""
    assert state.picks is not None, "a Boon is picked in an open pick step"
    return kit.with_changes(state, picks=kit.evolve_round(state.picks, event))


@_apply.register
def _(event: BoonsCrossed, state: State) -> State:
    """D6, D7: every pick of the group is gained, in seat order (B2-B7), and the boxes
    picked are crossed out; the Discovery phase goes on."""
    slot = state.slot(event.slot)
    if slot.card != event.card:
        raise ValueError(f"Boons of card {event.card} crossed, not the card in slot {event.slot}")
    for picked in event.submissions:
        state = _gained(state, picked.seat, slot, picked.submission)
    crossed = kit.with_changes(slot, crossed=(*slot.crossed, *event.crossed))
    return kit.with_changes(
        state,
        slots=_replaced(state.slots, event.slot, crossed),
        picked=(*state.picked, *(picked.seat for picked in event.submissions)),
        picks=None,
        phase=Phase.DISCOVERY,
        deadline=None,
    )


def _gained(state: State, seat: int, slot: Slot, pick: Pick) -> State:
    """B2-B7: what one Boon gives its picker (J3, J4: gains past a track's top are lost)."""
    boon = slot.boon(pick.box)
    journal = state.journal(seat)
    n = boon.amount
    match boon.kind:
        case BoonKind.FAME:
            return _with_journal(state, seat, fame=journal.fame + n)
        case BoonKind.IMPROVEMENT:
            gains = min(POUCH_GAINS_TO_TOP, journal.pouch_gains + n)
            return _with_journal(state, seat, pouch_gains=gains)
        case BoonKind.STARDUST:
            return _with_journal(state, seat, stardust=journal.stardust + n)
        case BoonKind.WISDOM:
            return _with_journal(state, seat, wisdom=min(WISDOM_GAINS_TO_TOP, journal.wisdom + n))
        case BoonKind.OBSERVATION:
            return _with_journal(state, seat, telescopes=journal.telescopes + n)
        case BoonKind.ACTIVATION:
            back = set(pick.targets)
            held = tuple(Held(card.card) if card.card in back else card for card in journal.held)
            return _with_journal(state, seat, held=held)


@_apply.register
def _(event: CardGained, state: State) -> State:
    """D10: the card leaves its slot (and its marks, and its crossed Boons) for the
    discoverer's held cards, Active; the slot waits for its refill (D12)."""
    if state.slot(event.slot).card != event.card:
        raise ValueError(f"card {event.card} gained, not the card in slot {event.slot}")
    journal = state.journal(event.seat)
    state = _with_journal(state, event.seat, held=(*journal.held, Held(event.card)))
    return kit.with_changes(
        state,
        slots=_replaced(state.slots, event.slot, Slot()),
        taken=(*state.taken, event.slot),
        picked=(),
        phase=Phase.DISCOVERY,
    )


@_apply.register
def _(event: CardLimitExceeded, state: State) -> State:
    """L1, Z2: the discoverer's step to discard down to the limit."""
    return kit.with_changes(
        state, phase=Phase.DISCARDING, step_started=state.version, deadline=event.deadline
    )


@_apply.register
def _(event: CardsDiscarded, state: State) -> State:
    """L1, L2: the cards leave the Journal for the discard pile, face up."""
    journal = state.journal(event.seat)
    gone = set(event.cards)
    state = _with_journal(
        state, event.seat, held=tuple(held for held in journal.held if held.card not in gone)
    )
    return kit.with_changes(
        state,
        discard=(*state.discard, *event.cards),
        phase=Phase.DISCOVERY,
        deadline=None,
    )


@_apply.register
def _(event: DreamOpened, state: State) -> State:
    """V6-V8, Z2: the active player's Dream step, with its deadline."""
    return kit.with_changes(
        state, phase=Phase.DREAMING, step_started=state.version, deadline=event.deadline
    )


@_apply.register
def _(event: DreamSkipped, state: State) -> State:
    """V13: the Dream phase is over, nothing marked."""
    return kit.with_changes(state, dreamed=True)


@_apply.register
def _(event: DreamMarked, state: State) -> State:
    """V7-V9: the dreamer's marks; nobody pays or gains. The Dream phase is over; a card it
    completed is resolved next (V10)."""
    slot = state.slot(event.slot)
    if slot.card != event.card:
        raise ValueError(f"dreamer marks on card {event.card}, not the card in slot {event.slot}")
    marks = list(slot.marks)
    for star in event.stars:
        marks[star] = DREAMER
    slots = _replaced(state.slots, event.slot, kit.with_changes(slot, marks=tuple(marks)))
    return kit.with_changes(state, slots=slots, dreamed=True, phase=Phase.DISCOVERY, deadline=None)


@_apply.register
def _(event: DreamDiscovered, state: State) -> State:
    """V10, D2: the card is discovered with no discoverer; its Boons are picked next."""
    return kit.with_changes(state, dream_discovered=event.slot)


@_apply.register
def _(event: DreamCardDiscarded, state: State) -> State:
    """V10, V11: the card (its marks and crossed Boons gone) face up on the discard pile;
    its slot waits for one replacement."""
    if state.slot(event.slot).card != event.card:
        raise ValueError(f"card {event.card} discarded, not the card in slot {event.slot}")
    return kit.with_changes(
        state,
        slots=_replaced(state.slots, event.slot, Slot()),
        discard=(*state.discard, event.card),
        taken=(*state.taken, event.slot),
        dream_discovered=None,
        picked=(),
        phase=Phase.DISCOVERY,
    )


@_apply.register
def _(event: CardDrawn, state: State) -> State:
    """D12, D13: the deck's top card into the emptied slot, or nothing from an empty deck."""
    if event.card is not None:
        state = _off_the_top(state, event.card)
        state = kit.with_changes(
            state, slots=_replaced(state.slots, event.slot, Slot.laid(event.card))
        )
    return kit.with_changes(state, taken=tuple(n for n in state.taken if n != event.slot))


@_apply.register
def _(event: GameEndExposed, state: State) -> State:
    """E1, E2, E5: the Game End card is set aside for good; the last turn is known."""
    return kit.with_changes(state, game_end_exposed=True, last_turn=event.last_turn)


@_apply.register
def _(event: TurnEnded, state: State) -> State:
    """T3: the turn-lasting effects paid (K2, K16: Stardust back; K7: Fame) and the turn is
    over."""
    journal = state.journal(event.seat)
    state = _with_journal(
        state,
        event.seat,
        stardust=journal.stardust + event.stardust_returned,
        fame=journal.fame + event.fame,
    )
    return kit.with_changes(state, phase=Phase.TURN_ENDED, deadline=None)


@_apply.register
def _(event: GameEnded, state: State) -> State:
    """E7, F9: the game is over; nothing more is played."""
    return kit.with_changes(state, phase=Phase.ENDED, ended=True, active=None, deadline=None)


def _with_journal(state: State, seat: int, **changes: object) -> State:
    journal = kit.with_changes(state.journal(seat), **changes)
    return kit.with_changes(state, journals=_replaced(state.journals, seat, journal))


def _replaced(items: tuple[T, ...], number: int, item: T) -> tuple[T, ...]:
    """``items`` with the one numbered ``number`` (from 1: a seat, a slot) replaced."""
    return (*items[: number - 1], item, *items[number:])
