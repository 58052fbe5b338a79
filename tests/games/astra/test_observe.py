"""The Observe action (O1-O13, J4, J6): worked example 1 up to the discovery with its exact
numbers, each rule with its own case and refusal, and random legal chains that keep the
marking rules while the stored events fold to the live state."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from games import kit
from games.astra.rules.cards import BY_NAME, CARDS
from games.astra.rules.commands import Done, Observe, Rest
from games.astra.rules.decide import decide, observe_refused
from games.astra.rules.events import (
    ActionPhaseEnded,
    CardDiscovered,
    CardDrawn,
    CardGained,
    StarsMarked,
    TelescopeSpent,
    TurnEnded,
    TurnStarted,
)
from games.astra.rules.evolve import fold
from games.astra.rules.marking import first_stars, next_stars
from games.astra.rules.model import DREAMER, Ending, Held, Phase, Slot, State
from games.kit import Problem, Refusal
from tests.games.astra.flow_helpers import (
    CETUS,
    DECK,
    HYDRA,
    LYRA,
    NOW,
    URSA_MAJOR,
    action_ended,
    action_of,
    active,
    deal,
    holding,
    number,
    observe,
    observing,
    refused,
    sky,
    stored,
    with_journal,
    with_marks,
)

URSA = BY_NAME["Ursa Major"]  # 7 stars: 0-1 1-2 2-3 3-4 3-5 5-6, Grand 3 and 6


def table(**journal: object) -> State:
    """``sky()``: three players, Ana (seat 1) first; Ana's Journal as given."""
    return with_journal(sky(), 1, **journal)


# -- worked example 1 ------------------------------------------------------------------------


def test_example_1_an_observe_then_an_additional_observe_paid_by_a_telescope() -> None:
    state = holding(table(stardust=7, telescopes=1), 1, ("Lyra", True), ("Leo", False))
    assert state.slot(URSA_MAJOR).card == URSA.number and not state.slot(URSA_MAJOR).marked
    assert state.journal(1).card_limit == 2

    # 0 (the Starting star, O3), 1, 2, 3, 4: each adjacent to the one before (O4).
    state, events = observe(state, URSA_MAJOR, 0, 1, 2, 3, 4)
    assert events == [StarsMarked(1, URSA_MAJOR, URSA.number, (0, 1, 2, 3, 4), 5, 1)]
    ana = state.journal(1)
    assert (ana.stardust, ana.telescopes, ana.wisdom, ana.card_limit) == (2, 1, 1, 3)  # O6, O8
    assert next_stars(URSA, state.slot(URSA_MAJOR).marked, (0, 1, 2, 3, 4)) == frozenset()  # O7
    assert state.phase is Phase.OBSERVING  # a Telescope, Stardust and cards left (O11)

    # A chain starting at 6 is refused: 6 touches only 5, which is unmarked (O3).
    assert refused(state, observing(state, URSA_MAJOR, 6, 5)) == Refusal(
        "Star 6 of Ursa Major touches no marked star: a chain starts next to one (O3)."
    )
    assert state.journal(1).telescopes == 1  # the refusal spent nothing (T5)

    # 5 (adjacent to the marked 3), then 6, with the Telescope (O9).
    before = state
    state, events = observe(state, URSA_MAJOR, 5, 6)
    assert events == [
        TelescopeSpent(1),
        StarsMarked(1, URSA_MAJOR, URSA.number, (5, 6), 2, 1),
        CardDiscovered(1, URSA_MAJOR, URSA.number),  # O12
        ActionPhaseEnded(1, Ending.NO_TELESCOPE),  # O11: no Telescope, no Stardust
        # Discovery: nobody else marked it, no Boons (D4); Ana takes it Active (D10) and
        # holds 3 = her limit (L1: no discard); one card is drawn into slot 2 (D12).
        CardGained(1, URSA_MAJOR, URSA.number),
        CardDrawn(URSA_MAJOR, before.deck[0]),
        TurnEnded(1, 0),  # T3
        TurnStarted(2, 1, 0, None),
    ]
    mid = fold(action_of(events), before)
    assert mid.slot(URSA_MAJOR).discovered and mid.slot(URSA_MAJOR).marks == (1,) * 7
    assert mid.discovered == (URSA_MAJOR,) and mid.phase is Phase.ACTION_ENDED
    ana = state.journal(1)
    assert (ana.stardust, ana.telescopes, ana.wisdom, ana.card_limit) == (0, 0, 2, 3)
    assert ana.held[-1] == Held(URSA.number, active=True) and len(ana.held) == ana.card_limit
    assert state.slot(URSA_MAJOR) == Slot.laid(before.deck[0])


# -- O1, O2: what an Observe needs and what it marks ---------------------------------------


def test_o1_observing_needs_stardust() -> None:
    state = table(stardust=0)
    assert refused(state, observing(state, URSA_MAJOR, 0)) == Refusal(
        "Observing needs at least 1 Stardust: your Pouch is empty (O1).", Problem.CONFLICT
    )


def test_o1_o13_observing_needs_an_undiscovered_card_on_the_sphere() -> None:
    state = table()
    full = tuple(Slot(slot.card, (2,) * len(slot.marks)) for slot in state.slots)
    state = kit.with_changes(state, slots=(Slot(), *full[1:]))  # one empty, the rest found
    assert state.undiscovered() == ()
    assert refused(state, observing(state, URSA_MAJOR, 0)) == Refusal(
        "No undiscovered card is left on the Sphere to observe (O1, O13).", Problem.CONFLICT
    )


def test_o1_an_observe_marks_at_least_one_star() -> None:
    state = table()
    assert refused(state, observing(state, URSA_MAJOR)) == Refusal("Mark at least 1 star (O1).")


def test_o2_one_chain_on_one_card_marked_by_the_active_seat() -> None:
    state, _ = observe(table(), HYDRA, 0, 1)
    assert state.slot(HYDRA).marks == (1, 1, None, None, None)
    assert all(not state.slot(n).marked for n in (LYRA, URSA_MAJOR, CETUS))


def test_o2_the_slot_must_hold_a_card() -> None:
    state = table()
    assert refused(state, observing(state, 5, 0)) == Refusal(
        "There is no slot 5: the Sphere has slots 1-4."
    )
    emptied = kit.with_changes(state, slots=(Slot(), *state.slots[1:]))
    assert refused(emptied, observing(emptied, LYRA, 0)) == Refusal(
        "Slot 1 is empty: there is no card to observe there."
    )


# -- O3-O5: the chain ------------------------------------------------------------------------


def test_o3_a_card_with_no_mark_starts_at_its_starting_star() -> None:
    state = table()
    assert refused(state, observing(state, URSA_MAJOR, 1, 0)) == Refusal(
        "Nothing is marked on Ursa Major yet: a chain on it starts at its Starting star, "
        "star 0 (O3)."
    )
    assert first_stars(URSA, frozenset()) == {0}


def test_o3_a_marked_card_starts_next_to_any_marked_star_whoever_marked_it() -> None:
    state = with_marks(table(), URSA_MAJOR, {0: 2, 1: 3, 2: DREAMER})  # Ben, Cleo, the dreamer
    assert first_stars(URSA, state.slot(URSA_MAJOR).marked) == {3}
    after, _ = observe(state, URSA_MAJOR, 3, 5, 6)  # next to the dreamer's 2
    assert after.slot(URSA_MAJOR).marks == (2, 3, DREAMER, 1, None, 1, 1)
    other = with_marks(table(), URSA_MAJOR, {3: 2})  # Ben's lone mark: 2, 4 or 5 may start
    assert first_stars(URSA, other.slot(URSA_MAJOR).marked) == {2, 4, 5}
    assert refused(other, observing(other, URSA_MAJOR, 0)) == Refusal(
        "Star 0 of Ursa Major touches no marked star: a chain starts next to one (O3)."
    )


def test_o4_each_further_star_is_joined_to_the_one_marked_just_before() -> None:
    state = table()
    reason = Refusal(
        "Star 5 of Ursa Major is not joined to star 4, the star marked just before it (O4)."
    )
    # 5 touches 3, an earlier star of this chain, but not 4: it cannot be next.
    assert refused(state, observing(state, URSA_MAJOR, 0, 1, 2, 3, 4, 5)) == reason
    marked = with_marks(state, URSA_MAJOR, {0: 2, 1: 2, 2: 2, 3: 2})
    # 5 touches Ben's marked 3 but not 4, the star marked just before it.
    assert refused(marked, observing(marked, URSA_MAJOR, 4, 5)) == reason


def test_o5_a_marked_star_is_never_marked_again() -> None:
    state = with_marks(table(), URSA_MAJOR, {0: 2})
    assert refused(state, observing(state, URSA_MAJOR, 0)) == Refusal(
        "Star 0 of Ursa Major is already marked: no star is marked twice (O5)."
    )
    lyra = table()
    assert refused(lyra, observing(lyra, LYRA, 0, 2, 0)) == Refusal(
        "Star 0 of Lyra is already marked: no star is marked twice (O5)."
    )
    assert refused(lyra, observing(lyra, LYRA, 0, 4)) == Refusal(
        "Lyra has no star 4: its stars are 0-3."
    )


# -- O6, J6: paying ----------------------------------------------------------------------------


def test_o6_j6_each_star_costs_one_stardust_from_the_pouch() -> None:
    state, events = observe(table(), HYDRA, 0, 1, 2)
    assert state.journal(1).stardust == 8 - 3
    marked = events[0]
    assert isinstance(marked, StarsMarked) and marked.stardust == 3


def test_o6_a_chain_costs_no_more_than_the_pouch_holds() -> None:
    state = table(stardust=2)
    assert refused(state, observing(state, HYDRA, 0, 1, 2)) == Refusal(
        "3 stars cost 3 Stardust, and you have 2 (O6)."
    )
    after, _ = observe(state, HYDRA, 0, 1)
    assert after.journal(1).stardust == 0


# -- O7: where an Observe action ends --------------------------------------------------------


def test_o7_the_player_may_stop_after_any_star() -> None:
    state, _ = observe(table(telescopes=3), CETUS, 0)
    assert state.slot(CETUS).marked == {0} and state.phase is Phase.OBSERVING


def test_o7_a_dead_end_ends_the_chain() -> None:
    state = table()
    marked = with_marks(state, HYDRA, {0: 1, 1: 1, 2: 1, 3: 1})
    assert next_stars(BY_NAME["Hydra"], frozenset(), (0, 1, 2, 3, 4)) == frozenset()
    assert next_stars(BY_NAME["Lyra"], frozenset(), (0, 1)) == frozenset()  # 1 touches only 0
    assert refused(state, observing(state, LYRA, 0, 1, 2)) == Refusal(
        "Star 2 of Lyra is not joined to star 1, the star marked just before it (O4)."
    )
    after, _ = action_ended(marked, observing(marked, HYDRA, 4))  # the last star
    assert after.slot(HYDRA).discovered


def test_o7_o11_no_stardust_left_ends_the_action_phase() -> None:
    start = table(stardust=2, telescopes=1)
    state, events = action_ended(start, observing(start, HYDRA, 0, 1))
    assert events[-1] == ActionPhaseEnded(1, Ending.NO_STARDUST)
    assert state.phase is Phase.ACTION_ENDED


# -- O8, J4: Grand stars --------------------------------------------------------------------


def test_o8_j4_a_grand_star_gains_one_wisdom_at_once_and_the_card_limit_follows() -> None:
    state, events = observe(table(), HYDRA, 0, 1, 2, 3)  # Hydra's Grand star is 3
    assert events[0] == StarsMarked(1, HYDRA, number("Hydra"), (0, 1, 2, 3), 4, 1)
    assert (state.journal(1).wisdom, state.journal(1).card_limit) == (1, 3)
    state, _ = observe(table(), HYDRA, 0, 1, 2)
    assert state.journal(1).wisdom == 0


def test_j4_wisdom_past_the_tracks_top_is_lost() -> None:
    state = table(wisdom=11)
    state, events = observe(state, HYDRA, 0, 1, 2, 3)
    assert events[0] == StarsMarked(1, HYDRA, number("Hydra"), (0, 1, 2, 3), 4, 0)
    assert (state.journal(1).wisdom, state.journal(1).card_limit) == (11, 8)
    near = table(wisdom=10)
    after, _ = observe(with_marks(near, URSA_MAJOR, {0: 2, 1: 2, 2: 2}), URSA_MAJOR, 3, 5, 6)
    assert after.journal(1).wisdom == 11  # two Grand stars, one spot left


# -- O9: additional Observe actions ----------------------------------------------------------


def test_o9_an_additional_observe_on_another_card_costs_a_telescope_when_it_starts() -> None:
    state, _ = observe(table(telescopes=2), HYDRA, 0, 1)
    state, events = observe(state, LYRA, 0, 2)
    assert events[0] == TelescopeSpent(1)
    assert (state.journal(1).telescopes, state.journal(1).stardust, state.observes) == (1, 4, 2)
    state, events = observe(state, HYDRA, 2)
    assert events[:1] == [TelescopeSpent(1)] and action_of(events)[-1] == ActionPhaseEnded(
        1, Ending.NO_TELESCOPE
    )


def test_o9_no_additional_observe_without_a_telescope() -> None:
    state, _ = observe(table(telescopes=1), HYDRA, 0)
    short = with_journal(state, 1, telescopes=0)  # (O11 would have ended the phase)
    assert refused(short, observing(short, LYRA, 0)) == Refusal(
        "Another Observe costs 1 Telescope, and you have none (O9).", Problem.CONFLICT
    )


def test_o9_r1_a_turn_with_observes_takes_no_rest() -> None:
    state, _ = observe(table(telescopes=1), HYDRA, 0)
    assert refused(state, Rest(1, state.version)) == Refusal(
        "You observed this turn: no Rest in the same turn (R1).", Problem.CONFLICT
    )


# -- O10: submitted whole --------------------------------------------------------------------


def test_o10_a_chain_with_one_bad_star_is_refused_whole() -> None:
    state = table()
    decision = decide(state, observing(state, URSA_MAJOR, 0, 1, 2, 3, 6), NOW)
    assert isinstance(decision, Refusal)
    assert not state.slot(URSA_MAJOR).marked and state.journal(1).stardust == 8
    assert observe_refused(state, 1, URSA_MAJOR, (0, 1, 2, 3)) is None  # the browser may ask


# -- O11: the Action phase ends by itself, or when the player is done -----------------------


def test_o11_without_a_telescope_the_first_observe_ends_the_action_phase() -> None:
    state, events = action_ended(table(), observing(table(), HYDRA, 0))
    assert events[-1] == ActionPhaseEnded(1, Ending.NO_TELESCOPE)
    assert refused(state, observing(state, HYDRA, 1)) == Refusal(
        "Your Action phase is over: no more Observes this turn (O11).", Problem.CONFLICT
    )
    assert refused(state, Done(1, state.version)) == Refusal(
        "Your Action phase is already over.", Problem.CONFLICT
    )


def test_o11_with_no_undiscovered_card_left_the_action_phase_ends() -> None:
    state = table(telescopes=1)
    full = tuple(Slot(slot.card, (2,) * len(slot.marks)) for slot in state.slots[:3])
    state = kit.with_changes(state, slots=(*full, state.slot(CETUS)))
    state = with_marks(state, CETUS, {0: 2, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2})
    state, events = observe(state, CETUS, 6)
    assert action_of(events)[-2:] == [
        CardDiscovered(1, CETUS, number("Cetus")),
        ActionPhaseEnded(1, Ending.NO_CARD),
    ]


def test_o11_otherwise_the_player_observes_again_or_is_done() -> None:
    state, events = observe(table(telescopes=1), HYDRA, 0, 1)
    assert not any(isinstance(e, ActionPhaseEnded) for e in events)
    assert state.phase is Phase.OBSERVING and state.deadline is None  # no clock here
    state, events = action_ended(state, Done(1, state.version))
    assert events == [ActionPhaseEnded(1, Ending.DONE)] and state.phase is Phase.ACTION_ENDED
    assert state.journal(1).telescopes == 1  # Done spends nothing


def test_o11_done_ends_a_run_of_observes_only() -> None:
    state = table()
    assert refused(state, Done(1, state.version)) == Refusal(
        "Observe or Rest first: Done ends a run of Observe actions (O11).", Problem.CONFLICT
    )


# -- O12: discovered at once --------------------------------------------------------------


def test_o12_the_last_star_discovers_the_card_for_the_active_player_and_it_stays_put() -> None:
    state = with_marks(table(telescopes=1), LYRA, {0: 2, 1: 3, 2: DREAMER})
    state, events = observe(state, LYRA, 3)
    assert events[1] == CardDiscovered(1, LYRA, number("Lyra"))  # D2: Ana, whoever marked more
    assert state.slot(LYRA).card == number("Lyra") and state.slot(LYRA).discovered
    assert LYRA not in state.undiscovered() and state.discovered == (LYRA,)
    assert refused(state, observing(state, LYRA, 0)) == Refusal(
        "Lyra is discovered: nobody may mark it any more (O12)."
    )
    assert state.phase is Phase.OBSERVING  # a discovery ends nothing by itself (O11)


# -- O13: an undiscovered card always has a first star -------------------------------------


def test_o13_every_partly_marked_card_offers_a_first_star() -> None:
    for card in CARDS:
        marked: frozenset[int] = frozenset()
        while len(marked) < card.stars:
            offered = first_stars(card, marked)
            assert offered, card.name
            marked |= {min(offered)}


# -- properties ---------------------------------------------------------------------------


@st.composite
def chain_on(draw: st.DrawFn, state: State, slot: int, budget: int) -> tuple[int, ...]:
    """A legal chain of 1..budget stars on the card in ``slot``, stopping anywhere."""
    placed = state.slot(slot)
    chain: list[int] = []
    while len(chain) < budget:
        offered = sorted(next_stars(placed.constellation, placed.marked, chain))
        if not offered or (chain and draw(st.booleans())):
            break
        chain.append(draw(st.sampled_from(offered)))
    return tuple(chain)


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    deck=st.permutations(DECK),
    players=st.integers(2, 5),
    stardust=st.integers(1, 40),
    telescopes=st.integers(0, 12),
    wisdom=st.integers(0, 11),
)
def test_o3_o6_random_legal_chains_keep_the_rules_and_the_events_fold_to_the_live_state(
    data: st.DataObject,
    deck: list[int],
    players: int,
    stardust: int,
    telescopes: int,
    wisdom: int,
) -> None:
    dealt = deal(players, deck=tuple(deck))
    seat = active(dealt)
    start = with_journal(dealt, seat, stardust=stardust, telescopes=telescopes, wisdom=wisdom)
    state, history = start, []
    while state.phase is not Phase.ACTION_ENDED:
        if state.observes and data.draw(st.booleans()):
            state, events = action_ended(state, Done(seat, state.version))
            history += events
            break
        slot = data.draw(st.sampled_from(state.undiscovered()))
        before = state
        stars = data.draw(chain_on(state, slot, state.journal(seat).stardust))
        state, events = action_ended(state, Observe(seat, state.version, slot, stars))
        history += events
        _check_observe(before, state, seat, slot, stars)
    assert fold(stored(history), start) == state
    assert sum(e.stardust for e in history if isinstance(e, StarsMarked)) == (
        stardust - state.journal(seat).stardust
    )


def _check_observe(
    before: State, after: State, seat: int, slot: int, stars: tuple[int, ...]
) -> None:
    card = before.slot(slot).constellation
    marked = before.slot(slot).marked
    assert stars[0] in first_stars(card, marked)  # O3
    assert all(card.adjacent(a, b) for a, b in pairwise(stars))  # O4
    assert len(set(stars)) == len(stars) and not marked & set(stars)  # O5
    for number_, (old, new) in enumerate(zip(before.slots, after.slots, strict=True), 1):
        for star, (was, now) in enumerate(zip(old.marks, new.marks, strict=True)):
            if was is not None:
                assert now == was  # O5: a mark never changes
            elif number_ == slot and star in stars:
                assert now == seat
            else:
                assert now is None
    paid = before.journal(seat).stardust - after.journal(seat).stardust
    assert paid == len(stars) >= 1  # O1, O6
    spent = before.journal(seat).telescopes - after.journal(seat).telescopes
    assert spent == (1 if before.observes else 0)  # O9
    grand = sum(star in card.grand for star in stars)
    gained = after.journal(seat).wisdom - before.journal(seat).wisdom
    assert gained == min(grand, 11 - before.journal(seat).wisdom)  # O8, J4
    assert after.slot(slot).discovered == (len(marked) + len(stars) == card.stars)  # O12


@settings(max_examples=80, deadline=None)
@given(
    slot=st.integers(1, 4),
    stars=st.lists(st.integers(0, 8), min_size=1, max_size=6),
    premarked=st.sets(st.integers(0, 8), max_size=5),
)
def test_o3_o5_o10_any_star_sequence_is_accepted_exactly_when_it_is_a_legal_chain(
    slot: int, stars: list[int], premarked: set[int]
) -> None:
    state = table(stardust=20)
    card = state.slot(slot).constellation
    state = with_marks(state, slot, {star: 2 for star in premarked if star < card.stars})
    marked = state.slot(slot).marked
    legal = (
        all(0 <= s < card.stars for s in stars)
        and len(set(stars)) == len(stars)
        and not marked & set(stars)
        and len(marked) < card.stars
        and (stars[0] == 0 if not marked else any(card.adjacent(stars[0], m) for m in marked))
        and all(card.adjacent(a, b) for a, b in pairwise(stars))
    )
    decision = decide(state, Observe(1, state.version, slot, tuple(stars)), NOW)
    assert isinstance(decision, list) is legal, decision
