"""The Discovery phase (D1-D14) and the card limit (L1-L3), 3-5 players: who assists a
discovered card and in which groups they pick (D4-D6), which Boons a pick may take and what
it names (D7, D8, B1-B7), the discoverer taking the card (D10), the card limit's discards
(L1, L2) and the refills (D12, D13).

``discovery_step`` is the next thing the phase does by itself, given the state (None: a
player must act, or the phase is over); ``decide`` runs it until a player must act. Cards
are resolved one at a time in ascending slot order (D3): each group of assisting players
picks (a pick step, D6), then the discoverer takes the card (D10); once every discovered card
is taken the card limit is checked (D11, L1) and the emptied slots are refilled (D12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from itertools import groupby

from games.kit import Problem, Refusal

from .cards import BY_NUMBER, BoonKind
from .events import (
    BoonPicked,
    BoonPickOpened,
    BoonsCrossed,
    CardDrawn,
    CardGained,
    CardLimitExceeded,
    DreamCardDiscarded,
)
from .model import DREAMER, Phase, Pick, Slot, State


def half_step(state: State, now: datetime) -> datetime | None:
    """Z2: a Boon pick step and a card-limit step last half the turn step."""
    if state.step_seconds is None:
        return None
    return now + timedelta(seconds=state.step_seconds / 2)


# -- D4-D6: who picks, in which groups --------------------------------------------------------


def assisting(slot: Slot, discoverer: int | None) -> dict[int, int]:
    """D4: every seat but the discoverer with at least one star marked on the card, and how
    many it marked. The dreamer pen is never a player. V10: a card the dreamer discovered has
    no discoverer (None), so both seats may assist."""
    seats = {mark for mark in slot.marks if mark is not None and mark not in (DREAMER, discoverer)}
    return {seat: slot.marked_by(seat) for seat in sorted(seats)}


def groups(marked: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    """D5, D6: the assisting seats in descending order of stars marked; tied seats form one
    group (in seat order)."""
    ranked = sorted(marked, key=lambda seat: (-marked[seat], seat))
    return tuple(tuple(group) for _, group in groupby(ranked, key=lambda seat: marked[seat]))


def discoverer(state: State, number: int) -> int | None:
    """D2, V10: the active player, except for the card the dreamer discovered (nobody)."""
    return None if number == state.dream_discovered else state.active


def next_group(state: State, number: int, slot: Slot) -> tuple[int, ...] | None:
    """D5: the first group of the card's assisting players that has not picked yet."""
    for group in groups(assisting(slot, discoverer(state, number))):
        if not set(group) <= set(state.picked):
            return group
    return None


# -- D7, D8, B7, V3: a pick ---------------------------------------------------------------------

DREAMER_KEEPS = (1, 2)  # V3: the boxes a player out-marked by the dreamer may not pick


def open_boxes(state: State, seat: int, slot: Slot) -> tuple[int, ...]:
    """D6, D7, V3, V10: the boxes ``seat`` may pick: those not crossed out, but only boxes
    3 and 4 when the dreamer marked more of the card's stars than the seat did."""
    boxes = slot.available
    if slot.marked_by(DREAMER) > slot.marked_by(seat):
        return tuple(box for box in boxes if box not in DREAMER_KEEPS)
    return boxes


def exhausted(state: State, seat: int) -> tuple[int, ...]:
    """B7: the seat's Exhausted cards, in the order gained."""
    return tuple(held.card for held in state.journal(seat).held if not held.active)


def needs_choice(state: State, seat: int, slot: Slot, box: int) -> bool:
    """B7: only a Boon of Activation n, picked with more than n Exhausted cards, asks which."""
    boon = slot.boon(box)
    return boon.kind is BoonKind.ACTIVATION and len(exhausted(state, seat)) > boon.amount


def server_pick(state: State, seat: int, slot: Slot) -> Pick | None:
    """D8: with exactly one Boon available and nothing more to choose, the server picks it."""
    available = open_boxes(state, seat, slot)
    if len(available) != 1 or needs_choice(state, seat, slot, available[0]):
        return None
    return resolved(state, seat, slot, available[0], ())


def resolved(state: State, seat: int, slot: Slot, box: int, targets: Sequence[int]) -> Pick:
    """The pick as stored: a Boon of Activation names the cards it reactivates (B7: all the
    Exhausted ones when they are no more than its amount); other Boons name none."""
    if slot.boon(box).kind is not BoonKind.ACTIVATION:
        return Pick(box)
    if needs_choice(state, seat, slot, box):
        return Pick(box, tuple(targets))
    return Pick(box, exhausted(state, seat))


def pick_refused(
    state: State, seat: int, slot: Slot, box: int, targets: Sequence[int]
) -> Refusal | None:
    """Why ``seat`` may not pick ``box`` of the card in ``slot`` (None: it may): a box of
    the card (B1), not crossed out (D7), and for a Boon of Activation the right cards (B7)."""
    card = slot.constellation
    if not 1 <= box <= len(card.boons):
        return Refusal(f"{card.name} has Boon boxes 1-{len(card.boons)}; there is no box {box}.")
    boon = slot.boon(box)
    if box in slot.crossed:
        return Refusal(
            f"Box {box} of {card.name} ({boon.label}) is crossed out: pick another (D7).",
            Problem.CONFLICT,
        )
    if box not in open_boxes(state, seat, slot):
        return Refusal(
            f"The dreamer marked more stars on {card.name} than you did: boxes 1 and 2 are "
            f"crossed out for you; pick box 3 or 4 (V3).",
            Problem.CONFLICT,
        )
    if boon.kind is not BoonKind.ACTIVATION or not needs_choice(state, seat, slot, box):
        if targets:
            return Refusal(f"{boon.label} has no cards to choose: name none (B7).")
        return None
    return _targets_refused(exhausted(state, seat), boon.amount, targets)


def _targets_refused(
    exhausted_cards: tuple[int, ...], amount: int, targets: Sequence[int]
) -> Refusal | None:
    """B7: with more Exhausted cards than the amount, the pick names exactly that many."""
    if len(targets) != amount or len(set(targets)) != amount:
        return Refusal(
            f"Activation {amount} reactivates {amount} of your "
            f"{len(exhausted_cards)} Exhausted cards: name {amount}, each once (B7)."
        )
    for card in targets:
        if card not in exhausted_cards:
            name = BY_NUMBER[card].name if card in BY_NUMBER else f"card {card}"
            return Refusal(f"{name} is not one of your Exhausted cards (B7).")
    return None


# -- L1, L2: the card limit ----------------------------------------------------------------------


def over_limit(state: State, seat: int) -> int:
    """L1: how many cards ``seat`` holds over its card limit (0: none)."""
    journal = state.journal(seat)
    return max(0, len(journal.held) - journal.card_limit)


def discard_refused(state: State, seat: int, cards: Sequence[int]) -> Refusal | None:
    """L1: exactly the cards over the limit, each one held, each named once."""
    journal = state.journal(seat)
    excess = over_limit(state, seat)
    keep = journal.card_limit
    if len(cards) != excess:
        noun = "card" if excess == 1 else "cards"
        return Refusal(f"Keep {keep} of {len(journal.held)}: discard exactly {excess} {noun} (L1).")
    if len(set(cards)) != len(cards):
        return Refusal("Name each card to discard once (L1).")
    held = {held.card for held in journal.held}
    for card in cards:
        if card not in held:
            name = BY_NUMBER[card].name if card in BY_NUMBER else f"card {card}"
            return Refusal(f"You do not hold {name}: discard only cards you hold (L1).")
    return None


def in_held_order(state: State, seat: int, cards: Sequence[int]) -> tuple[int, ...]:
    """L2: the discarded cards in the order they were held (the newest lies on top)."""
    named = set(cards)
    return tuple(held.card for held in state.journal(seat).held if held.card in named)


# -- the phase, step by step --------------------------------------------------------------------


def discovery_step(state: State, now: datetime) -> list[object] | None:
    """The Discovery phase's next step by itself (D3-D13), or None when it is over. The card
    the dreamer discovered (V10) is resolved the same way and then discarded (V11: one draw)."""
    seat = state.active
    assert seat is not None
    for number, slot in enumerate(state.slots, 1):
        if slot.discovered:  # D3: ascending slot order
            group = next_group(state, number, slot)
            if group is not None:
                return opened(state, number, slot, group, now)
            if number == state.dream_discovered:
                return [DreamCardDiscarded(number, slot.constellation.number)]  # V10
            return [CardGained(seat, number, slot.constellation.number)]  # D10
    if state.discovered and over_limit(state, seat):  # D11, L1, L3
        return [CardLimitExceeded(seat, state.journal(seat).card_limit, half_step(state, now))]
    if state.taken:  # D12, D13: one draw at a time, so the Game End card is met in order
        slot_number = min(state.taken)
        return [CardDrawn(slot_number, state.deck[0] if state.deck else None)]
    return None


def opened(
    state: State, number: int, slot: Slot, group: tuple[int, ...], now: datetime
) -> list[object]:
    """D6: the group's pick step, from the Boons available when it starts (V3: to each
    seat); D8: the picks the server makes itself; the group completes at once if it made
    them all."""
    step = state.version + 1  # the version of the event that opens it
    events: list[object] = [
        BoonPickOpened(
            number,
            slot.constellation.number,
            group,
            tuple(open_boxes(state, seat, slot) for seat in group),
            half_step(state, now),
        )
    ]
    picks: dict[int, Pick] = {}
    for seat in group:
        pick = server_pick(state, seat, slot)
        if pick is not None:
            picks[seat] = pick
            events.append(BoonPicked(step, seat, pick, by_server=True))
    if len(picks) == len(group):
        events.append(crossed(step, number, slot, picks))
    return events


def crossed(
    step: int,
    number: int,
    slot: Slot,
    picks: Mapping[int, Pick],
    defaulted: tuple[int, ...] = (),
) -> BoonsCrossed:
    """D6, D7: the group complete: every pick shown (seat order) and the boxes crossed.
    Z5: ``defaulted``, the seats the clock picked for."""
    return BoonsCrossed(
        round=step,
        submissions=tuple(BoonPicked(step, seat, picks[seat]) for seat in sorted(picks)),
        silent=(),
        defaulted=defaulted,
        by_clock=bool(defaulted),
        slot=number,
        card=slot.constellation.number,
        crossed=tuple(sorted({pick.box for pick in picks.values()})),
    )


def clock_pick(state: State, seat: int, slot: Slot) -> Pick:
    """Z5: the leftmost Boon open to the seat; a Boon of Activation reactivates the oldest
    Exhausted cards first."""
    box = open_boxes(state, seat, slot)[0]
    if needs_choice(state, seat, slot, box):
        return Pick(box, exhausted(state, seat)[: slot.boon(box).amount])
    return resolved(state, seat, slot, box, ())


def pick_step_open(state: State) -> bool:
    return state.phase is Phase.PICKING and state.picks is not None and not state.picks.closed
