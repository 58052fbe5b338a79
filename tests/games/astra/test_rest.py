"""The Rest action (R1-R7, J1, J3): the refill capped by the Pouch size, the active
Sphere's Element reactivated, the marker's move and the discard past the icon (Earth to
Fire), and what the Rested event records."""

from __future__ import annotations

import pytest

from games import kit
from games.astra.rules.cards import Element
from games.astra.rules.commands import Done, Rest
from games.astra.rules.decide import decide
from games.astra.rules.events import Rested
from games.astra.rules.evolve import fold
from games.astra.rules.model import Held, Phase, State
from games.kit import Problem, Refusal
from tests.games.astra.flow_helpers import (
    NOW,
    action_ended,
    deal,
    dealing,
    deck_from,
    holding,
    number,
    observing,
    refused,
    rest,
    stored,
    with_journal,
)

FIRE, WATER, AIR, EARTH = Element.FIRE, Element.WATER, Element.AIR, Element.EARTH


def on(sphere: Element, **journal: object) -> State:
    """Three players, seat 1 to act, the marker on ``sphere``, seat 1's Journal as given."""
    state = kit.with_changes(deal(3), sphere=sphere)
    return with_journal(state, 1, **journal)


# -- R1: always allowed, the whole Action ----------------------------------------------------


def test_r1_a_rest_is_allowed_without_stardust_and_is_the_turns_whole_action() -> None:
    start = on(AIR, stardust=0)
    state, events = action_ended(start, Rest(1, start.version))
    assert [type(e) for e in events] == [Rested]
    assert state.phase is Phase.ACTION_ENDED and state.rested and state.deadline is None
    assert refused(state, observing(state, 1, 0)) == Refusal(
        "You rested this turn: no Observe after a Rest (R1, O9).", Problem.CONFLICT
    )
    assert refused(state, Rest(1, state.version)) == Refusal(
        "You have already rested this turn: one Rest a turn (R1).", Problem.CONFLICT
    )
    assert refused(state, Done(1, state.version)) == Refusal(
        "Your Action phase is already over.", Problem.CONFLICT
    )


def test_r1_no_rest_once_the_observes_are_over() -> None:
    state = on(AIR)
    state = kit.with_changes(state, phase=Phase.ACTION_ENDED)  # after Observes and Done
    assert refused(state, Rest(1, state.version)) == Refusal(
        "Your Action phase is over (O11).", Problem.CONFLICT
    )


# -- R2, R3, J1, J3: the refill ------------------------------------------------------------


def test_r2_the_refill_fills_the_pouch_to_its_size() -> None:
    state, events = rest(on(AIR, stardust=3))
    assert isinstance(events[0], Rested) and events[0].stardust == 2
    assert state.journal(1).stardust == 5


def test_r2_j1_the_refill_never_takes_stardust_away_nor_above_the_pouch_size() -> None:
    state, events = rest(on(AIR, stardust=9))  # more than the Pouch size 5 (J1)
    assert isinstance(events[0], Rested) and events[0].stardust == 0
    assert state.journal(1).stardust == 9
    state, _ = rest(on(AIR, stardust=5))
    assert state.journal(1).stardust == 5


@pytest.mark.parametrize(("gains", "size"), [(2, 7), (7, 12), (9, 12)])
def test_r3_j3_the_refill_uses_the_pouch_size_of_the_moment(gains: int, size: int) -> None:
    state, _ = rest(on(AIR, stardust=1, pouch_gains=gains))
    assert state.journal(1).stardust == size


# -- R4: reactivation ----------------------------------------------------------------------


def test_r4_every_exhausted_card_of_the_active_spheres_element_becomes_active() -> None:
    state = holding(
        on(AIR),
        1,
        ("Aquila", False),  # Air, Exhausted
        ("Leo", False),  # Fire: stays Exhausted
        ("Gemini", True),  # Air, already Active
        ("Libra", False),  # Air, Exhausted
        ("Lyra", False),  # Water, where the marker goes: stays Exhausted
    )
    state, events = rest(state)
    rested = events[0]
    assert isinstance(rested, Rested)
    assert rested.reactivated == (number("Aquila"), number("Libra"))  # in the order held
    assert state.journal(1).held == (
        Held(number("Aquila"), True),
        Held(number("Leo"), False),
        Held(number("Gemini"), True),
        Held(number("Libra"), True),
        Held(number("Lyra"), False),
    )


def test_r4_with_nothing_of_the_element_exhausted_nothing_is_reactivated() -> None:
    state, events = rest(holding(on(FIRE), 1, ("Aquila", False)))
    assert isinstance(events[0], Rested) and events[0].reactivated == ()
    assert state.journal(1).held == (Held(number("Aquila"), False),)


# -- R5, R6: the marker's move and the discard ----------------------------------------------


@pytest.mark.parametrize(("start", "then"), [(FIRE, AIR), (AIR, WATER), (WATER, EARTH)])
def test_r5_the_marker_moves_one_sphere_clockwise(start: Element, then: Element) -> None:
    before = on(start)
    state, events = rest(before)
    assert isinstance(events[0], Rested) and events[0].discarded is None
    assert (events[0].sphere_from, events[0].sphere_to, state.sphere) == (start, then, then)
    assert state.deck == before.deck and state.discard == before.discard


def test_r5_from_earth_to_fire_the_marker_passes_the_discard_icon_and_the_top_card_goes() -> None:
    before = deal(3, deck=deck_from("Ursa Major"))  # the marker starts on Earth (S3)
    assert before.sphere is EARTH and before.above_game_end == 18
    top = before.deck[0]
    state, events = action_ended(before, Rest(1, before.version))
    assert events == [Rested(1, 0, (), EARTH, FIRE, top, False)]
    assert state.sphere is FIRE
    assert state.discard == (number("Ursa Major"), top)  # face up, the top card last
    assert state.deck == before.deck[1:] and state.above_game_end == 17  # H2


def test_r6_an_empty_deck_discards_nothing() -> None:
    state = kit.with_changes(
        on(EARTH), deck=(), above_game_end=0, game_end_exposed=True, last_turn=9
    )
    after, events = action_ended(state, Rest(1, state.version))
    assert events == [Rested(1, 0, (), EARTH, FIRE, None, False)]
    assert after.discard == state.discard and after.sphere is FIRE


# -- R7: what a Rest records ---------------------------------------------------------------


def test_r7_a_rest_records_stardust_cards_marker_discard_and_the_clock() -> None:
    start = dealing(3, deck=deck_from("Ursa Major"))
    dealt = decide(State(), start, NOW)
    assert isinstance(dealt, list)
    state = fold(dealt)
    state = holding(with_journal(state, 1, stardust=2), 1, ("Lupus", False))  # Earth
    decision = decide(state, Rest(1, state.version), NOW)
    assert isinstance(decision, list)
    rested = decision[0]
    assert rested == Rested(
        seat=1,
        stardust=3,
        reactivated=(number("Lupus"),),
        sphere_from=EARTH,
        sphere_to=FIRE,
        discarded=state.deck[0],
        by_clock=False,  # Z3 is the clock's
    )
    assert stored(decision) == decision
    assert fold(stored(decision), state) == fold(decision, state)
