"""Two players: the dreamer pen (V1-V13). The dreamer out-marking an assisting player leaves
them boxes 3 and 4 (V3); after a Rest the Dream phase marks a chain on the card the rules
choose (V5-V9), the server marking the only legal choice itself (V12); a card the dreamer
completes is resolved without a discoverer, discarded and replaced (V10, V11); with no card
left the phase marks nothing (V13). Worked example 4 is played with its exact outcome."""

from __future__ import annotations

from games import kit
from games.astra.rules.cards import BY_NAME
from games.astra.rules.commands import Dream, PickBoon
from games.astra.rules.dream import dream_chains
from games.astra.rules.events import (
    BoonPicked,
    BoonPickOpened,
    BoonsCrossed,
    CardDrawn,
    CardGained,
    DreamCardDiscarded,
    DreamDiscovered,
    DreamMarked,
    DreamOpened,
    DreamSkipped,
    Rested,
    TurnEnded,
    TurnStarted,
)
from games.astra.rules.evolve import fold
from games.astra.rules.model import DREAMER, Phase, Pick, Slot, State
from games.kit import Problem, Refusal
from tests.games.astra.flow_helpers import (
    ANA,
    BEN,
    act,
    deal,
    deck_from,
    number,
    observe,
    refused,
    rest,
    stored,
    with_marks,
)

LYRA, DRACO, LEO, HYDRA = (BY_NAME[name].number for name in ("Lyra", "Draco", "Leo", "Hydra"))


def table(discard: str, *slots: str) -> State:
    """Two players, Ana first, the deck's top card discarded (its Element: the marker)."""
    return deal(2, deck=deck_from(discard, *slots))


def dream(state: State, slot: int, *stars: int) -> Dream:
    assert state.active is not None
    return Dream(state.active, state.version, slot, stars)


# -- V3, V4: Discovery with dreamer marks ---------------------------------------------------------


def test_v3_example_4_the_dreamer_out_marks_ben_who_picks_box_3_or_4() -> None:
    """Example 4, V3: Lyra has dreamer marks on 0 and 2 and Ben's on 1; Ana Observes 3. Ben
    assists with 1 star, the dreamer has 2 > 1: boxes 1 and 2 are crossed out for him."""
    state = with_marks(table("Ara", "Lyra", "Draco", "Leo"), 1, {0: DREAMER, 2: DREAMER, 1: BEN})
    state, events = observe(state, 1, 3)
    assert events[-1] == BoonPickOpened(1, LYRA, (BEN,), ((3, 4),), None)
    assert state.phase is Phase.PICKING
    step = state.picks.number if state.picks else 0
    assert refused(state, PickBoon(BEN, step, 1)) == Refusal(
        "The dreamer marked more stars on Lyra than you did: boxes 1 and 2 are crossed out "
        "for you; pick box 3 or 4 (V3).",
        Problem.CONFLICT,
    )
    after, events = act(state, PickBoon(BEN, step, 3))  # Observation 1
    assert after.journal(BEN).telescopes == 1
    assert CardGained(ANA, 1, LYRA) in events  # D10: Ana takes Lyra
    assert isinstance(events[-1], TurnStarted) and events[-1].seat == BEN  # no Rest: no Dream
    assert not any(isinstance(e, DreamOpened | DreamMarked) for e in events)


def test_v3_when_the_dreamer_marked_no_more_than_the_assisting_player_all_four_boxes_open() -> None:
    state = with_marks(table("Ara", "Lyra", "Draco", "Leo"), 1, {0: DREAMER, 1: BEN, 2: BEN})
    _, events = observe(state, 1, 3)
    assert events[-1] == BoonPickOpened(1, LYRA, (BEN,), ((1, 2, 3, 4),), None)


def test_v4_a_player_with_no_mark_picks_nothing_whatever_the_dreamer_marked() -> None:
    state = with_marks(table("Ara", "Lyra", "Draco", "Leo"), 1, {0: DREAMER, 1: DREAMER})
    _, events = observe(state, 1, 2, 3)
    assert not any(isinstance(e, BoonPickOpened) for e in events)
    assert CardGained(ANA, 1, LYRA) in events


# -- V5-V9: the Dream phase ----------------------------------------------------------------------


def example_4_dream() -> tuple[State, list[object]]:
    """Example 4's later turn: the marker on Fire; Draco (8 stars, one mark), Leo and Hydra
    (5 stars, no mark). Ana Rests: the marker moves to Air (number 2)."""
    state = with_marks(table("Ara", "Draco", "Leo", "Hydra"), 1, {0: BEN})
    return rest(state)


def test_v5_v6_v2_example_4_after_a_rest_the_dream_step_offers_the_unmarked_largest_cards() -> None:
    state, events = example_4_dream()
    assert isinstance(events[0], Rested) and events[0].sphere_to.value == "air"
    assert events[1:] == [DreamOpened(ANA, (2, 3), 2, None)]  # Leo or Hydra, 2 stars (V2)
    assert state.phase is Phase.DREAMING and state.active == ANA


def test_v6_v7_v8_the_dream_command_is_checked_card_and_chain() -> None:
    state, _ = example_4_dream()
    assert "Leo or Hydra (V6)" in refused(state, dream(state, 1, 1)).reason  # Draco is marked
    assert "(V8)" in refused(state, dream(state, 3, 0)).reason  # 1 < 2, not a dead end
    assert "no more (V7)" in refused(state, dream(state, 3, 0, 1, 2)).reason
    assert "(O3)" in refused(state, dream(state, 3, 1, 2)).reason
    assert refused(state, Dream(BEN, state.version, 3, (0, 1))).problem is Problem.FORBIDDEN


def test_v7_v9_example_4_ana_chooses_hydra_and_the_dreamer_marks_0_and_1_for_nobody() -> None:
    state, _ = example_4_dream()
    journals = state.journals
    after, events = act(state, dream(state, 3, 0, 1))
    assert events[0] == DreamMarked(ANA, 3, HYDRA, (0, 1))
    assert after.slot(3).marks == (DREAMER, DREAMER, None, None, None)
    assert after.journals == journals  # V9: nobody pays or gains
    assert isinstance(events[1], TurnEnded) and isinstance(events[2], TurnStarted)
    assert after.active == BEN and after.phase is Phase.ABILITY
    assert stored(events) == events and fold(stored(events), state) == after


def test_v1_a_dreamer_mark_counts_as_marked_for_the_next_chain() -> None:
    state, _ = example_4_dream()
    state, _ = act(state, dream(state, 3, 0, 1))
    after, _ = observe(state, 3, 2)  # Ben, next to the dreamer's 1 (O3)
    assert after.slot(3).marks == (DREAMER, DREAMER, BEN, None, None)


def test_v6_with_every_card_marked_the_largest_undiscovered_cards_are_offered() -> None:
    state = table("Ara", "Draco", "Leo", "Hydra")
    state = with_marks(with_marks(with_marks(state, 1, {0: BEN}), 2, {0: BEN}), 3, {0: BEN})
    _, events = rest(state)
    assert events[1:2] == [DreamOpened(ANA, (1,), 2, None)]  # Draco alone: 8 stars


def test_v8_a_chain_may_stop_early_only_at_a_dead_end_and_need_not_be_longest() -> None:
    """Leo (0-1 0-2 2-3 3-4), 3 stars (Water): 0 then 1 is a dead end; 0, 2, 3 is full."""
    state = kit.with_changes(table("Ara", "Draco", "Leo", "Hydra"), sphere=BY_NAME["Lyra"].element)
    assert dream_chains(state, 2) == ((0, 1), (0, 2, 3))


def test_v12_one_card_and_one_chain_are_marked_by_the_server() -> None:
    """The marker on Earth moves to Fire (1 star); Draco alone has 8 stars: star 0 only."""
    state = table("Boötes", "Draco", "Leo", "Hydra")
    state, events = rest(state)
    assert events[1] == DreamMarked(ANA, 1, DRACO, (0,), by_server=True)
    assert state.active == BEN


# -- V10, V11: a dream discovery; V13: nothing to mark ---------------------------------------


def lyra_alone(marks: dict[int, int]) -> State:
    """Only Lyra is on the Sphere (the other slots empty, D13); the marker on Earth, so the
    dreamer marks 1 star (Fire)."""
    state = table("Boötes", "Lyra", "Draco", "Leo")
    state = with_marks(state, 1, marks)
    return kit.with_changes(state, slots=(state.slot(1), Slot(), Slot()))


def test_v10_v11_the_dreamer_discovers_lyra_both_seats_pick_and_it_is_discarded() -> None:
    state = lyra_alone({0: ANA, 1: BEN, 2: DREAMER})
    state, events = rest(state)
    assert events[1:4] == [
        DreamMarked(ANA, 1, LYRA, (3,), by_server=True),
        DreamDiscovered(1, LYRA),
        BoonPickOpened(1, LYRA, (ANA, BEN), ((3, 4), (3, 4)), None),  # tied; 2 > 1 each
    ]
    assert state.picks is not None
    step = state.picks.number
    state, _ = act(state, PickBoon(ANA, step, 3))
    top = state.deck[0]
    after, events = act(state, PickBoon(BEN, step, 4))
    assert isinstance(events[1], BoonsCrossed) and events[1].crossed == (3, 4)
    assert events[2:5] == [
        DreamCardDiscarded(1, LYRA),
        CardDrawn(1, top),  # V11: one replacement
        TurnEnded(ANA, 0),
    ]
    assert after.discard[-1] == LYRA and all(not j.held for j in after.journals)  # nobody
    assert after.journal(ANA).telescopes == 1 and after.journal(BEN).fame == 2


def test_v10_the_picker_with_more_marks_picks_first_from_all_open_boxes() -> None:
    state = lyra_alone({0: BEN, 1: BEN, 2: ANA})  # dreamer 1 (star 3), Ben 2, Ana 1
    state = kit.with_changes(state, slots=(state.slot(1), Slot(), Slot()))
    state, events = rest(state)
    assert events[-1] == BoonPickOpened(1, LYRA, (BEN,), ((1, 2, 3, 4),), None)
    assert state.picks is not None
    state, events = act(state, PickBoon(BEN, state.picks.number, 1))
    # Ana: 1 mark, the dreamer 1: d <= a, the three boxes left
    assert any(e == BoonPickOpened(1, LYRA, (ANA,), ((2, 3, 4),), None) for e in events)


def test_v13_no_undiscovered_card_the_dream_phase_marks_nothing() -> None:
    state = table("Boötes", "Lyra", "Draco", "Leo")
    state = kit.with_changes(state, slots=(Slot(), Slot(), Slot()))
    _, events = rest(state)
    assert events[1:3] == [DreamSkipped(ANA), TurnEnded(ANA, 0)]


def test_v5_no_dream_after_an_observe() -> None:
    _, events = observe(table("Ara", "Draco", "Leo", "Hydra"), 2, 0)
    assert not any(isinstance(e, DreamOpened | DreamMarked | DreamSkipped) for e in events)


def test_v10_a_dream_pick_names_its_stored_boon() -> None:
    state = lyra_alone({0: ANA, 1: BEN, 2: DREAMER})
    state, _ = rest(state)
    assert state.picks is not None
    _, events = act(state, PickBoon(ANA, state.picks.number, 4))
    assert events == [BoonPicked(state.picks.number, ANA, Pick(4))]
    assert number("Lyra") == LYRA
