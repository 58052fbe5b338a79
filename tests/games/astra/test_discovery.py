"""The Discovery phase, 3-5 players (D1-D14, B1-B7, H4, T4's exception): assisting players
pick Boons in descending order of stars marked, tied players at once as one group with sealed
picks, the boxes crossed out, the discoverer taking the card Active and the refills in slot
order. Worked example 2 is played with its exact numbers.

The 2-player game's Boon limits (V3, V10) are tested with the Dream phase (test_dream.py)."""

from __future__ import annotations

from datetime import timedelta

from games import kit
from games.astra.rules.cards import BY_NAME
from games.astra.rules.commands import Command, DiscardCards, Done, Observe, PickBoon, Rest
from games.astra.rules.events import (
    ActionPhaseEnded,
    BoonPicked,
    BoonPickOpened,
    BoonsCrossed,
    CardDiscovered,
    CardDrawn,
    CardGained,
    StarsMarked,
    TurnEnded,
    TurnStarted,
)
from games.astra.rules.evolve import fold
from games.astra.rules.model import DREAMER, Ending, Held, Journal, Phase, Pick, State
from games.kit import Problem, Refusal, SeatStatus
from tests.games.astra.flow_helpers import (
    ANA,
    BEN,
    CLEO,
    DAN,
    NOW,
    act,
    deal,
    deck_from,
    holding,
    number,
    observe,
    refused,
    sky,
    stored,
    with_journal,
    with_marks,
)

CETUS = BY_NAME["Cetus"]  # 7 stars: 0-1 1-2 2-3 2-4 3-5 5-6, Grand 2
SLOT = 4  # Cetus's slot in ``example_2()``


def example_2(
    ben: tuple[int, ...] = (0, 1), cleo: tuple[int, ...] = (2, 4), step_seconds: int | None = None
) -> State:
    """Four players, Ana first; Cetus on slot 4 with Ben's and Cleo's earlier marks; Cleo's
    Grand star gave her 1 Wisdom. Ana has no Telescope."""
    state = sky(4, "Orion", step_seconds=step_seconds)
    marks = {star: BEN for star in ben} | {star: CLEO for star in cleo}
    state = with_marks(state, SLOT, marks)
    return with_journal(state, CLEO, wisdom=1)


def ana_discovers(state: State, *stars: int) -> tuple[State, list[object]]:
    return observe(state, SLOT, *stars)


def pick(state: State, seat: int, box: int, *targets: int) -> tuple[State, list[object]]:
    assert state.picks is not None
    return act(state, PickBoon(seat, state.picks.number, box, targets))


def pick_refused(state: State, seat: int, box: int, *targets: int) -> Refusal:
    assert state.picks is not None
    return refused(state, PickBoon(seat, state.picks.number, box, targets))


# -- worked example 2 ------------------------------------------------------------------------


def test_example_2_d4_d6_h4_ben_and_cleo_tie_and_pick_at_once_a_both_pick_box_1() -> None:
    """Example 2 (a): Ana Observes 3, 5, 6 for 3 Stardust and discovers Cetus; no Telescope
    ends her Action phase (O11). Ben (2 stars) and Cleo (2 stars) tie and form one group
    picking from boxes 1-4 (D5, D6); Dan marked nothing and picks nothing (D4). Both pick box
    1: each gains 5 Fame, box 1 is crossed out, and Ana takes Cetus, Active (D10)."""
    state, events = ana_discovers(example_2(), 3, 5, 6)
    step = state.version
    assert events == [
        StarsMarked(ANA, SLOT, CETUS.number, (3, 5, 6), 3, 0),
        CardDiscovered(ANA, SLOT, CETUS.number),
        ActionPhaseEnded(ANA, Ending.NO_TELESCOPE),
        BoonPickOpened(SLOT, CETUS.number, (BEN, CLEO), ((1, 2, 3, 4), (1, 2, 3, 4)), None),
    ]
    assert state.journal(ANA).stardust == 8 - 3
    assert state.phase is Phase.PICKING and state.picks is not None
    assert state.picks.number == step and state.picks.seats == {BEN, CLEO}

    state, events = pick(state, BEN, 1)
    assert events == [BoonPicked(step, BEN, Pick(1))]
    # H4: Ben's pick is sealed: nothing is gained or crossed yet, and Cleo sees only "done".
    assert state.journal(BEN).fame == 0 and state.slot(SLOT).crossed == ()
    assert state.picks is not None
    cleo_sees = state.picks.status_for(CLEO)
    assert cleo_sees.own is None and cleo_sees.seats == {
        BEN: SeatStatus.DONE,
        CLEO: SeatStatus.CHOOSING,
    }
    assert state.picks.status_for(BEN).own == Pick(1)
    assert "Pick(" not in repr(events[0]) and "Pick(" not in repr(state)

    state, events = pick(state, CLEO, 1)  # the same box as Ben (D6)
    crossed = events[1]
    assert isinstance(crossed, BoonsCrossed)
    assert crossed.crossed == (1,) and crossed.by_seat() == {BEN: Pick(1), CLEO: Pick(1)}
    assert events[2] == CardGained(ANA, SLOT, CETUS.number)
    assert (state.journal(BEN).fame, state.journal(CLEO).fame) == (5, 5)  # B2
    assert state.journal(DAN).fame == 0
    assert state.journal(ANA).held == (Held(CETUS.number, active=True),)
    assert state.active == BEN  # T3: the next seat's turn


def test_example_2_b_ben_picks_fame_5_and_cleo_improvement_1_both_boxes_crossed() -> None:
    """Example 2 (b): Ben box 1 (5 Fame), Cleo box 2 (Pouch size 5 -> 6, B3); boxes 1 and 2
    are crossed out (D6); Ana then takes Cetus, Active (D10)."""
    state, _ = ana_discovers(example_2(), 3, 5, 6)
    state, _ = pick(state, CLEO, 2)  # any order within the group
    before = state
    state, events = pick(state, BEN, 1)
    crossed = events[1]
    assert isinstance(crossed, BoonsCrossed) and crossed.crossed == (1, 2)
    assert fold(events[:2], before).slot(SLOT).crossed == (1, 2)
    assert state.journal(BEN).fame == 5
    assert (state.journal(CLEO).pouch_size, state.journal(CLEO).fame) == (6, 0)
    assert state.journal(ANA).held == (Held(CETUS.number, active=True),)


def test_example_2_d5_ben_with_3_stars_picks_alone_then_cleo_from_the_three_boxes_left() -> None:
    """Example 2's variant: Ben marked 3 stars, Cleo 2: Ben picks alone first, then Cleo
    from the three boxes left (D5, D7)."""
    state, events = ana_discovers(example_2(ben=(0, 1, 2), cleo=(3, 4)), 5, 6)
    assert events[-1] == BoonPickOpened(SLOT, CETUS.number, (BEN,), ((1, 2, 3, 4),), None)
    state, events = pick(state, BEN, 1)
    assert state.journal(BEN).fame == 5
    assert events[-1] == BoonPickOpened(SLOT, CETUS.number, (CLEO,), ((2, 3, 4),), None)
    assert pick_refused(state, CLEO, 1) == Refusal(
        "Box 1 of Cetus (Fame 5) is crossed out: pick another (D7).", Problem.CONFLICT
    )
    state, events = pick(state, CLEO, 3)  # Observation 1 (B6)
    assert state.journal(CLEO).telescopes == 1
    assert isinstance(events[1], BoonsCrossed) and events[1].crossed == (3,)
    assert events[2] == CardGained(ANA, SLOT, CETUS.number)


def test_example_2_z2_with_a_60_second_clock_the_groups_step_lasts_30_seconds() -> None:
    state, events = ana_discovers(example_2(step_seconds=60), 3, 5, 6)
    opened = events[-1]
    assert isinstance(opened, BoonPickOpened) and opened.deadline == NOW + timedelta(seconds=30)
    assert state.deadline == opened.deadline and state.step_started == state.version


# -- D1, D3, D10, D12: the phase, card by card -------------------------------------------------


def test_d1_without_a_discovered_card_the_discovery_phase_is_skipped() -> None:
    state, events = observe(example_2(), 1, 0)
    assert [type(e) for e in events] == [StarsMarked, ActionPhaseEnded, TurnEnded, TurnStarted]
    assert state.slot(1).marks[0] == ANA  # nothing taken


def test_d2_d10_the_active_player_discovers_and_takes_the_card_active_without_its_marks() -> None:
    dealt = with_marks(example_2(ben=(), cleo=()), SLOT, dict.fromkeys(range(6), ANA))
    after, events = ana_discovers(dealt, 6)
    assert events[3] == CardGained(ANA, SLOT, CETUS.number)  # no assisting player (D4)
    assert after.journal(ANA).held == (Held(CETUS.number, active=True),)
    assert after.slot(SLOT).marks == (None,) * after.slot(SLOT).constellation.stars
    assert after.slot(SLOT).card == dealt.deck[0]  # D12: refilled from the deck's top
    assert after.slot(SLOT).crossed == ()


def test_d3_d12_two_cards_are_resolved_in_ascending_slot_order_then_refilled_in_that_order() -> (
    None
):
    state = example_2(ben=(), cleo=())
    lyra = state.slot(1).constellation  # 4 stars: 0-1 0-2 2-3
    state = with_marks(state, 1, {0: BEN, 2: BEN, 3: BEN})
    state = with_marks(state, SLOT, {0: ANA, 1: ANA, 2: ANA, 3: ANA, 4: ANA, 5: ANA})
    state = with_journal(state, ANA, telescopes=1)
    state, _ = observe(state, SLOT, 6)  # Cetus first, in slot 4 ...
    state, events = observe(state, 1, 1)  # ... then Lyra, in slot 1
    top = fold([], state)
    assert isinstance(events[-1], BoonPickOpened) and events[-1].slot == 1  # Lyra first (D3)
    state, events = pick(state, BEN, 1)
    deck = top.deck
    assert events[2:6] == [
        CardGained(ANA, 1, lyra.number),
        CardGained(ANA, SLOT, CETUS.number),
        CardDrawn(1, deck[0]),  # D12: ascending slot order
        CardDrawn(SLOT, deck[1]),
    ]
    assert state.slot(1).card == deck[0] and state.slot(SLOT).card == deck[1]


def test_d13_an_empty_deck_leaves_the_emptied_slot_empty() -> None:
    state = example_2(ben=(), cleo=())
    state = with_marks(state, SLOT, {0: ANA, 1: ANA, 2: ANA, 3: ANA, 4: ANA, 5: ANA})
    state = kit.with_changes(state, deck=(), above_game_end=0, game_end_exposed=True, last_turn=9)
    after, events = ana_discovers(state, 6)
    assert CardDrawn(SLOT, None) in events
    assert after.slot(SLOT).card is None and after.slot(SLOT).marks == ()
    assert after.active == BEN


# -- D6-D9: picks --------------------------------------------------------------------------------


def five_players(marks: dict[int, int], crossed: tuple[int, ...] = ()) -> State:
    """Five players, seat 1 first; Cetus on slot 4 with these marks and crossed boxes."""
    state = with_marks(sky(5, "Orion", "Virgo"), SLOT, marks)
    cetus = kit.with_changes(state.slot(SLOT), crossed=crossed)
    return kit.with_changes(state, slots=(*state.slots[:3], cetus, *state.slots[4:]))


def test_d8_d9_five_players_four_groups_each_picker_finds_a_box() -> None:
    """D9: each picker crosses at most one box, so every group starts with a box open. Seat
    2 marked 3 stars, seat 3 two, seat 4 one; seat 5 none (D4)."""
    state = five_players({0: 2, 1: 2, 2: 2, 3: 3, 5: 3, 4: 4})
    state, events = observe(state, SLOT, 6)
    assert events[-1] == BoonPickOpened(SLOT, CETUS.number, (2,), ((1, 2, 3, 4),), None)
    state, events = pick(state, 2, 1)
    assert events[-1] == BoonPickOpened(SLOT, CETUS.number, (3,), ((2, 3, 4),), None)
    state, events = pick(state, 3, 2)
    assert events[-1] == BoonPickOpened(SLOT, CETUS.number, (4,), ((3, 4),), None)
    state, events = pick(state, 4, 3)
    assert events[2] == CardGained(1, SLOT, CETUS.number)  # seat 5 never marked: no pick
    assert state.journal(5) == Journal()  # nothing gained


def test_d8_the_server_picks_the_last_box_when_nothing_is_left_to_choose() -> None:
    state = five_players({0: 2, 1: 2, 2: 2, 3: 2, 4: 3, 5: 3}, crossed=(1, 2))
    state, events = observe(state, SLOT, 6)
    state, events = pick(state, 2, 3)  # seat 2 (4 stars) first; seat 3 (2) has box 4 left
    opened = [e for e in events if isinstance(e, BoonPickOpened)]
    assert opened == [BoonPickOpened(SLOT, CETUS.number, (3,), ((4,),), None)]
    (server,) = [e for e in events if isinstance(e, BoonPicked)][1:]
    assert (server.seat, server.submission, server.by_server) == (3, Pick(4), True)
    assert state.journal(3).stardust == 8 + 2  # Stardust 2 (B4), past the Pouch size (J1)


# -- B1-B7: what each Boon gives ---------------------------------------------------------------


def assisted(card: str, marks: dict[int, int], **journal: object) -> State:
    """Three players, Ana (seat 1) to discover ``card`` (slot 1) by its last unmarked star;
    Ben (seat 2) alone marked ``marks`` on it; Ben's Journal as given. The Pick step is open."""
    state = deal(3, deck=deck_from("Leo", card, "Ursa Major", "Hydra", "Cetus"))
    placed = state.slot(1).constellation
    rest = [star for star in range(placed.stars) if star not in marks]
    assert len(rest) == 1
    state = with_journal(with_marks(state, 1, marks), BEN, **journal)
    state, events = observe(state, 1, rest[0])
    assert isinstance(events[-1], BoonPickOpened) and events[-1].seats == (BEN,)
    return state


def test_b1_b2_b4_b6_fame_stardust_and_observation_are_gained_at_once() -> None:
    corvus = BY_NAME["Corvus"]  # Activation 2, Stardust 4, Observation 1, Fame 2
    assert [boon.label for boon in corvus.boons] == [
        "Activation 2",
        "Stardust 4",
        "Observation 1",
        "Fame 2",
    ]
    marks = {0: BEN, 1: BEN, 2: BEN, 3: BEN, 4: BEN}
    for box, (stardust, telescopes, fame) in {2: (12, 0, 0), 3: (8, 1, 0), 4: (8, 0, 2)}.items():
        after, _ = pick(assisted("Corvus", marks), BEN, box)
        ben = after.journal(BEN)
        assert (ben.stardust, ben.telescopes, ben.fame) == (stardust, telescopes, fame)


def test_b3_b5_j3_j4_improvement_and_wisdom_past_the_tracks_top_are_lost() -> None:
    lyra = {0: BEN, 1: BEN, 2: BEN}  # Lyra: Wisdom 1, Stardust 4, Observation 1, Fame 2
    after, _ = pick(assisted("Lyra", lyra, wisdom=4), BEN, 1)
    assert (after.journal(BEN).wisdom, after.journal(BEN).card_limit) == (5, 5)
    after, _ = pick(assisted("Lyra", lyra, wisdom=11), BEN, 1)
    assert after.journal(BEN).wisdom == 11
    lupus = {0: BEN, 1: BEN, 2: BEN}  # Lupus: Improvement 1, Wisdom 1, Fame 2, Stardust 3
    after, _ = pick(assisted("Lupus", lupus, pouch_gains=6), BEN, 1)
    assert after.journal(BEN).pouch_size == 12
    after, _ = pick(assisted("Lupus", lupus, pouch_gains=7), BEN, 1)
    assert after.journal(BEN).pouch_gains == 7


def test_b7_activation_reactivates_every_exhausted_card_when_they_are_no_more_than_n() -> None:
    marks = {0: BEN, 1: BEN, 2: BEN, 3: BEN, 4: BEN}
    state = holding(assisted("Corvus", marks), BEN, ("Aries", False), ("Lupus", True))
    after, events = pick(state, BEN, 1)  # Activation 2, one Exhausted card: no choice
    assert events[0] == BoonPicked(state.picks.number if state.picks else 0, BEN, Pick(1, (6,)))
    assert after.journal(BEN).held == (Held(number("Aries")), Held(number("Lupus")))
    assert pick_refused(state, BEN, 1, number("Lupus")) == Refusal(
        "Activation 2 has no cards to choose: name none (B7)."
    )
    none, _ = pick(holding(assisted("Corvus", marks), BEN), BEN, 1)  # B7: may be picked
    assert none.journal(BEN).held == ()


def test_b7_activation_names_which_n_with_more_exhausted_cards_any_element_any_sphere() -> None:
    marks = {0: BEN, 1: BEN, 2: BEN, 3: BEN, 4: BEN}
    cards = (("Aries", False), ("Lupus", False), ("Lyra", False), ("Orion", True))
    state = holding(assisted("Corvus", marks), BEN, *cards)
    reason = Refusal(
        "Activation 2 reactivates 2 of your 3 Exhausted cards: name 2, each once (B7)."
    )
    assert pick_refused(state, BEN, 1) == reason
    assert pick_refused(state, BEN, 1, number("Aries"), number("Aries")) == reason
    assert pick_refused(state, BEN, 1, number("Aries"), number("Orion")) == Refusal(
        "Orion is not one of your Exhausted cards (B7)."
    )
    after, _ = pick(state, BEN, 1, number("Lyra"), number("Aries"))
    assert [held.active for held in after.journal(BEN).held] == [True, False, True, True]


# -- D6, T4, T5: the pick step's guards ------------------------------------------------------------


def test_t4_d6_a_pick_names_its_step_so_tied_pickers_do_not_refuse_each_other() -> None:
    state, _ = ana_discovers(example_2(), 3, 5, 6)
    assert state.picks is not None
    step = state.picks.number
    state, _ = act(state, PickBoon(BEN, step, 1))  # the version moves on ...
    assert state.version != step
    state, events = act(state, PickBoon(CLEO, step, 4))  # ... Cleo's pick still stands
    assert isinstance(events[1], BoonsCrossed)
    assert state.journal(CLEO).stardust == 8 + 2


def test_t5_d6_pick_refusals_change_nothing_and_read_well() -> None:
    state, _ = ana_discovers(example_2(), 3, 5, 6)
    assert state.picks is not None
    step = state.picks.number
    picked, _ = act(state, PickBoon(BEN, step, 1))
    cases: list[tuple[State, Command, Refusal]] = [
        (
            state,
            PickBoon(DAN, step, 1),
            Refusal(
                "You are not picking a Boon now: only the assisting players of this group "
                "pick (D4, D5).",
                Problem.FORBIDDEN,
            ),
        ),
        (
            state,
            PickBoon(ANA, step, 1),
            Refusal(
                "You are not picking a Boon now: only the assisting players of this group "
                "pick (D4, D5).",
                Problem.FORBIDDEN,
            ),
        ),
        (
            state,
            PickBoon(BEN, step - 1, 1),
            Refusal("That Boon pick is already over.", Problem.CONFLICT),
        ),
        (state, PickBoon(BEN, step, 5), Refusal("Cetus has Boon boxes 1-4; there is no box 5.")),
        (
            picked,
            PickBoon(BEN, step, 2),
            Refusal("You have already picked: a pick is final (D6).", Problem.CONFLICT),
        ),
        (state, PickBoon(9, step, 1), Refusal("That seat is not in this game.", Problem.FORBIDDEN)),
        (
            state,
            Observe(ANA, state.version, 1, (0,)),
            Refusal(
                "Your Action phase is over: no more Observes this turn (O11).", Problem.CONFLICT
            ),
        ),
        (
            state,
            Rest(ANA, state.version),
            Refusal("Your Action phase is over (O11).", Problem.CONFLICT),
        ),
        (
            state,
            Done(ANA, state.version),
            Refusal("Your Action phase is already over.", Problem.CONFLICT),
        ),
        (
            state,
            DiscardCards(ANA, state.version, ()),
            Refusal(
                "You hold no more cards than your card limit: there is nothing to discard "
                "(L1, L3).",
                Problem.CONFLICT,
            ),
        ),
    ]
    for table, command, reason in cases:
        before = repr(table), table.journals, table.slots, table.version, table.picks
        assert refused(table, command) == reason
        assert (repr(table), table.journals, table.slots, table.version, table.picks) == before
    after_turn, _ = act(picked, PickBoon(CLEO, step, 1))
    assert refused(after_turn, PickBoon(CLEO, step, 1)) == Refusal(
        "No Boon pick is open now (D5, D6).", Problem.CONFLICT
    )


def test_h4_i2_a_sealed_pick_is_stored_and_read_back_whole() -> None:
    state, _ = ana_discovers(example_2(), 3, 5, 6)
    sealed, events = pick(state, BEN, 2)
    _, closing = pick(sealed, CLEO, 3)
    assert stored(events) == events and stored(closing) == closing
    assert fold(stored(events + closing), state) == fold(events + closing, state)


def test_d4_dreamer_marks_belong_to_no_player() -> None:
    """D4: the dreamer pen is never a player (a table set by hand: the pen marks only with
    2 players)."""
    state = with_marks(example_2(), SLOT, {3: DREAMER})
    state, events = ana_discovers(state, 5, 6)
    assert events[-1] == BoonPickOpened(
        SLOT, CETUS.number, (BEN, CLEO), ((1, 2, 3, 4), (1, 2, 3, 4)), None
    )


def test_z2_t5_a_pick_after_its_steps_deadline_is_refused() -> None:
    state, _ = ana_discovers(example_2(step_seconds=60), 3, 5, 6)
    assert state.picks is not None
    late = NOW + timedelta(seconds=30)
    assert refused(state, PickBoon(BEN, state.picks.number, 1), late) == Refusal(
        "Time is up for this Boon pick.", Problem.CONFLICT
    )
