"""The card limit (L1-L3, D11): after every discovered card is taken the discoverer discards
down to the limit, Wisdom gained this turn included, new cards or old; the discards go face
up to the discard pile; then the slots refill (D12)."""

from __future__ import annotations

from datetime import timedelta

from games.astra.rules.commands import DiscardCards
from games.astra.rules.events import CardDrawn, CardLimitExceeded, CardsDiscarded, TurnStarted
from games.astra.rules.model import Held, Phase
from games.kit import Problem, Refusal
from tests.games.astra.flow_helpers import (
    ANA,
    NOW,
    act,
    at_the_limit,
    holding,
    number,
    observe,
    refused,
    sky,
    stored,
    with_marks,
)

SLOT = 4  # Cetus (7 stars: 0-1 1-2 2-3 2-4 3-5 5-6, Grand 2), in ``at_the_limit()``


def test_l1_d11_over_the_limit_the_discoverer_must_discard_before_the_refill() -> None:
    state, events = observe(at_the_limit(step_seconds=60), SLOT, 6)
    assert events[-1] == CardLimitExceeded(ANA, 2, NOW + timedelta(seconds=30))  # Z2: half
    assert state.phase is Phase.DISCARDING and len(state.journal(ANA).held) == 3
    assert not any(isinstance(e, CardDrawn) for e in events)  # D12 waits for L1
    assert state.active == ANA and state.deadline == NOW + timedelta(seconds=30)


def test_l1_l2_the_player_keeps_any_cards_old_or_new_and_the_discards_go_face_up() -> None:
    state, _ = observe(at_the_limit(), SLOT, 6)
    before = state
    state, events = act(state, DiscardCards(ANA, state.version, (number("Lupus"),)))
    assert events[0] == CardsDiscarded(ANA, (number("Lupus"),))
    assert state.journal(ANA).held == (Held(number("Aries"), False), Held(number("Cetus")))
    assert state.discard == (*before.discard, number("Lupus"))  # L2: face up, on top
    assert events[1] == CardDrawn(SLOT, before.deck[0])  # D12 after L1
    assert isinstance(events[-1], TurnStarted)
    assert stored(events) == events


def test_l2_discards_lie_on_the_pile_in_the_order_held_active_or_exhausted() -> None:
    state, _ = observe(with_marks(at_the_limit(), 1, {}), SLOT, 6)
    state = holding(state, ANA, ("Lupus", True), ("Aries", False), ("Cetus", True), ("Orion", True))
    named = (number("Cetus"), number("Aries"))
    state, events = act(state, DiscardCards(ANA, state.version, named))
    assert events[0] == CardsDiscarded(ANA, (number("Aries"), number("Cetus")))
    assert state.discard[-2:] == (number("Aries"), number("Cetus"))


def test_l1_j4_wisdom_gained_this_turn_raises_the_limit_before_it_is_checked() -> None:
    state = with_marks(sky(4, "Orion"), SLOT, {0: ANA, 1: ANA, 4: ANA})
    state = holding(state, ANA, ("Lupus", True), ("Aries", False))
    state, events = observe(state, SLOT, 2, 3, 5, 6)  # star 2 is Grand: limit 3
    assert not any(isinstance(e, CardLimitExceeded) for e in events)
    assert len(state.journal(ANA).held) == 3 == state.journal(ANA).card_limit


def test_l1_t5_discard_refusals_change_nothing_and_read_well() -> None:
    state, _ = observe(at_the_limit(), SLOT, 6)
    version = state.version
    cases = {
        (): Refusal("Keep 2 of 3: discard exactly 1 card (L1)."),
        (number("Lupus"), number("Aries")): Refusal("Keep 2 of 3: discard exactly 1 card (L1)."),
        (number("Leo"),): Refusal("You do not hold Leo: discard only cards you hold (L1)."),
    }
    for cards, reason in cases.items():
        before = repr(state), state.journals, state.discard
        assert refused(state, DiscardCards(ANA, version, cards)) == reason
        assert (repr(state), state.journals, state.discard) == before
    assert refused(state, DiscardCards(2, version, (number("Lupus"),))) == Refusal(
        "It is another player's turn: only they act now (T2).", Problem.FORBIDDEN
    )
    assert refused(state, DiscardCards(ANA, version - 1, (number("Lupus"),))).problem is (
        Problem.CONFLICT
    )


def test_l1_naming_a_card_twice_is_refused() -> None:
    state, _ = observe(at_the_limit(), SLOT, 6)
    state = holding(state, ANA, ("Lupus", True), ("Aries", False), ("Cetus", True), ("Orion", True))
    twice = (number("Lupus"), number("Lupus"))
    assert refused(state, DiscardCards(ANA, state.version, twice)) == Refusal(
        "Name each card to discard once (L1)."
    )


def test_l3_without_a_discovery_the_limit_is_not_checked() -> None:
    state = holding(at_the_limit(), ANA, ("Lupus", True), ("Aries", False))
    state, events = observe(state, 1, 0)  # no discovery: the turn ends
    assert not any(isinstance(e, CardLimitExceeded) for e in events)
    assert refused(state, DiscardCards(2, state.version, ())) == Refusal(
        "You hold no more cards than your card limit: there is nothing to discard (L1, L3).",
        Problem.CONFLICT,
    )
