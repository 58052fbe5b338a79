"""The Dream phase, 2 players (V5-V13): after a Rest the dreamer pen marks stars on a card
the rules choose (V6: unmarked cards first, then the most stars; ties chosen by the active
player), a chain of as many stars as the active Sphere's number (V7), continued until it has
them all or meets a dead end (V8). Nobody pays or gains (V9). A card the dreamer completes
is resolved without a discoverer and discarded (V10), and one card replaces it (V11).

``dream_step`` is what the phase does by itself: nothing to mark (V13), the only legal
choice marked at once (V12), or the step opened for the active player's ``Dream``.
``clock_dream`` is the expiry of that step (Z6), from the server's random numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from games.kit import Problem, Refusal

from .discovery import half_step
from .events import DreamDiscovered, DreamMarked, DreamOpened, DreamSkipped
from .marking import chain_refused, next_stars
from .model import State

CLOCK_PICKS = 2  # Z6: one random number for the card, one for the chain


def dream_length(state: State) -> int:
    """V7: the number on the active Sphere (after R5's move)."""
    assert state.sphere is not None
    number = state.board.number(state.sphere)
    assert number is not None, "only the 2-player side prints numbers (V2)"
    return number


def dream_cards(state: State) -> tuple[int, ...]:
    """V6: the slots the dreamer may mark: the undiscovered cards with no marked star if
    there are any, else all undiscovered ones; of those, the ones with the most stars."""
    undiscovered = state.undiscovered()
    unmarked = tuple(n for n in undiscovered if not state.slot(n).marked)
    candidates = unmarked or undiscovered
    if not candidates:
        return ()
    most = max(state.slot(n).constellation.stars for n in candidates)
    return tuple(n for n in candidates if state.slot(n).constellation.stars == most)


def dream_chains(state: State, slot: int) -> tuple[tuple[int, ...], ...]:
    """V7, V8: every legal chain of the dreamer on the card in ``slot``: O3-O5, exactly n
    stars, or fewer only when the last one has no unmarked neighbour."""
    placed = state.slot(slot)
    card, marked, n = placed.constellation, placed.marked, dream_length(state)
    chains: list[tuple[int, ...]] = []

    def grow(chain: tuple[int, ...]) -> None:
        options = sorted(next_stars(card, marked, chain)) if len(chain) < n else []
        if chain and not options:
            chains.append(chain)
        for star in options:
            grow((*chain, star))

    grow(())
    return tuple(chains)


def dream_refused(state: State, slot: int, stars: Sequence[int]) -> Refusal | None:
    """Why the dreamer may not mark ``stars`` on the card in ``slot`` (None: it may)."""
    cards = dream_cards(state)
    if slot not in cards:
        names = " or ".join(state.slot(n).constellation.name for n in cards)
        return Refusal(
            f"The dreamer marks an unmarked card if there is one, and the one with the most "
            f"stars: {names} (V6)."
        )
    placed = state.slot(slot)
    card, n = placed.constellation, dream_length(state)
    refusal = chain_refused(card, placed.marked, stars)
    if refusal is not None or tuple(stars) in dream_chains(state, slot):
        return refusal
    if len(stars) > n:
        return Refusal(f"The dreamer marks {n} stars on the Sphere it is on, no more (V7).")
    return Refusal(
        f"The dreamer's chain goes on while it has fewer than {n} stars and star "
        f"{stars[-1]} of {card.name} has an unmarked neighbour (V8)."
    )


def dreamed(
    state: State,
    slot: int,
    stars: tuple[int, ...],
    *,
    by_server: bool = False,
    by_clock: bool = False,
    picks: tuple[int, ...] = (),
) -> list[object]:
    """V7-V10: the dreamer's marks and, when they complete the card, its dream discovery."""
    seat = state.active
    assert seat is not None
    placed = state.slot(slot)
    card = placed.constellation.number
    events: list[object] = [DreamMarked(seat, slot, card, stars, by_server, by_clock, picks)]
    if len(placed.marked) + len(stars) == placed.constellation.stars:
        events.append(DreamDiscovered(slot, card))
    return events


def dream_step(state: State, now: datetime) -> list[object]:
    """V5, V12, V13: the Dream phase's start."""
    seat = state.active
    assert seat is not None
    cards = dream_cards(state)
    if not cards:
        return [DreamSkipped(seat)]  # V13
    if len(cards) == 1:
        chains = dream_chains(state, cards[0])
        if len(chains) == 1:
            return dreamed(state, cards[0], chains[0], by_server=True)  # V12
    return [DreamOpened(seat, cards, dream_length(state), half_step(state, now))]


def clock_dream(state: State, picks: Sequence[int]) -> list[object] | Refusal:
    """Z6, H5: the card and the chain chosen at random, with the server's numbers."""
    if len(picks) < CLOCK_PICKS or any(pick < 0 for pick in picks):
        return Refusal(
            "The clock's Dream needs the server's two random numbers, whole and not negative "
            "(Z6, H5).",
            Problem.INVALID,
        )
    cards = dream_cards(state)
    slot = cards[picks[0] % len(cards)]
    chains = dream_chains(state, slot)
    chain = chains[picks[1] % len(chains)]
    return dreamed(state, slot, chain, by_clock=True, picks=tuple(picks[:CLOCK_PICKS]))
