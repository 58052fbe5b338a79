"""The clock's expiries (Z1-Z9): each step's deadline stored in the event that starts it
(Z2: the turn step whole, pick, card-limit and Dream steps half), and what ``Expire`` does
when it runs out: a Rest for a turn with no Action (Z3), the end of the Action phase after
an Observe (Z4), the leftmost Boons (Z5), a random Dream with the server's numbers (Z6), the
newest cards discarded (Z7); a late command is refused and the expiry applies first (Z8);
no forfeit (Z9)."""

from __future__ import annotations

from datetime import timedelta

from games.astra.rules.commands import Dream, Expire, Observe, PickBoon, Rest
from games.astra.rules.decide import decide, due_expiry
from games.astra.rules.events import (
    ActionPhaseEnded,
    BoonPicked,
    BoonPickOpened,
    BoonsCrossed,
    CardLimitExceeded,
    CardsDiscarded,
    DreamMarked,
    DreamOpened,
    Rested,
    TurnStarted,
)
from games.astra.rules.model import DREAMER, Ending, Held, Phase, Pick, State
from games.kit import Problem, Refusal
from tests.games.astra.flow_helpers import (
    ANA,
    BEN,
    CLEO,
    NOW,
    act,
    deal,
    deck_from,
    dream_step,
    holding,
    number,
    observe,
    refused,
    stored,
    with_journal,
    with_marks,
)

MINUTE = timedelta(seconds=60)
HALF = timedelta(seconds=30)


def expire(state: State, at: timedelta, picks: tuple[int, ...] = ()) -> tuple[State, list[object]]:
    return act(state, Expire(state.step_started, picks), NOW + at)


def test_z1_with_the_clock_off_no_step_has_a_deadline_and_expire_is_refused() -> None:
    state = deal(3)
    assert state.deadline is None
    assert refused(state, Expire(state.step_started), NOW + timedelta(days=9)) == Refusal(
        "This turn has no clock.", Problem.CONFLICT
    )


def test_z2_the_turn_step_has_the_full_length_the_dream_step_half() -> None:
    state = deal(2, deck=deck_from("Ara", "Draco", "Leo", "Hydra"), step_seconds=60)
    assert state.deadline == NOW + MINUTE
    state, events = act(state, Rest(ANA, state.version))
    assert events[-1] == DreamOpened(ANA, (1,), 2, NOW + HALF)  # Draco: (0, 1) or (0, 2)
    assert state.deadline == NOW + HALF and state.step_started == state.version


def test_z3_a_turn_that_runs_out_before_any_action_rests_by_clock() -> None:
    state = with_journal(deal(3, step_seconds=60), ANA, stardust=2)
    state, events = expire(state, MINUTE)
    assert isinstance(events[0], Rested) and events[0].by_clock and events[0].stardust == 3
    assert state.journal(ANA).stardust == 5  # R2
    assert events[-1] == TurnStarted(BEN, 1, 0, NOW + MINUTE + MINUTE)  # the turn went on


def test_z4_a_turn_that_runs_out_after_an_observe_ends_its_action_phase() -> None:
    state = with_journal(deal(3, step_seconds=60), ANA, telescopes=1)
    state, _ = observe(state, 1, 0)
    assert state.phase is Phase.OBSERVING
    stardust = state.journal(ANA).stardust
    state, events = expire(state, MINUTE)
    assert events[0] == ActionPhaseEnded(ANA, Ending.TIME_UP, by_clock=True)
    assert state.journal(ANA).stardust == stardust and state.active == BEN  # nothing added


def pick_step() -> State:
    """Three players; Ana discovers Lyra (0-1 0-2 2-3) after Ben marked 0 and Cleo 1: one
    each, tied, so they pick at once; the clock at 60 s."""
    state = deal(3, deck=deck_from("Ara", "Lyra"), step_seconds=60)
    state = with_marks(state, 1, {0: BEN, 1: CLEO})
    state = holding(state, CLEO, ("Leo", False), ("Hydra", False))
    state = with_journal(state, CLEO, wisdom=5)
    state, events = observe(state, 1, 2, 3)
    assert isinstance(events[-1], BoonPickOpened) and events[-1].deadline == NOW + HALF  # Z2
    return state


def test_z5_a_pick_step_that_runs_out_gives_the_leftmost_boon_and_picks_made_stand() -> None:
    state = pick_step()
    assert state.picks is not None
    step = state.picks.number
    state, _ = act(state, PickBoon(BEN, step, 2))
    state, events = expire(state, HALF)
    assert events[0] == BoonPicked(step, CLEO, Pick(1), by_clock=True)
    crossed = events[1]
    assert isinstance(crossed, BoonsCrossed) and crossed.by_clock
    assert crossed.defaulted == (CLEO,) and crossed.crossed == (1, 2)
    assert state.journal(CLEO).wisdom == 6 and state.journal(BEN).stardust == 8 + 4


def test_z5_a_boon_of_activation_by_clock_reactivates_the_oldest_exhausted_cards() -> None:
    """Two players: on Leo the dreamer (2) out-marks Ben (1), who may pick boxes 3 and 4
    (V3); box 3 is Activation 1 and Ben holds Draco then Hydra, both Exhausted."""
    state = deal(2, deck=deck_from("Ara", "Leo"), step_seconds=60)
    state = with_marks(state, 1, {0: DREAMER, 2: DREAMER, 1: BEN})
    state = holding(state, BEN, ("Draco", False), ("Hydra", False))
    state, _ = observe(state, 1, 3, 4)
    assert state.picks is not None
    step = state.picks.number
    state, events = expire(state, HALF)
    assert events[0] == BoonPicked(step, BEN, Pick(3, (number("Draco"),)), by_clock=True)
    assert state.journal(BEN).held == (Held(number("Draco")), Held(number("Hydra"), False))


def test_z7_a_card_limit_step_that_runs_out_discards_the_newest_cards() -> None:
    state = deal(3, deck=deck_from("Ara", "Lyra"), step_seconds=60)
    state = with_marks(state, 1, {0: ANA, 1: ANA, 2: ANA})
    state = holding(state, ANA, ("Leo", True), ("Hydra", False))
    state, events = observe(state, 1, 3)
    assert events[-1] == CardLimitExceeded(ANA, 2, NOW + HALF)  # Z2: half
    state, events = expire(state, HALF)
    assert events[0] == CardsDiscarded(ANA, (number("Lyra"),), by_clock=True)
    assert [h.card for h in state.journal(ANA).held] == [number("Leo"), number("Hydra")]


def test_z6_h5_a_dream_step_that_runs_out_uses_the_servers_random_numbers() -> None:
    state = dream_step(step_seconds=60)  # Leo (slot 2) or Hydra (slot 3), 2 stars on Air
    after, events = expire(state, HALF, (1, 0))
    assert events[0] == DreamMarked(ANA, 3, number("Hydra"), (0, 1), by_clock=True, picks=(1, 0))
    assert after.slot(3).marks[:2] == (DREAMER, DREAMER)
    _, events = expire(state, HALF, (2, 1))  # Leo: chains (0, 1), (0, 2, ...): the second
    assert events[0] == DreamMarked(ANA, 2, number("Leo"), (0, 2), by_clock=True, picks=(2, 1))
    assert stored(events) == events
    assert refused(state, Expire(state.step_started), NOW + HALF) == Refusal(
        "The clock's Dream needs the server's two random numbers, whole and not negative (Z6, H5).",
        Problem.INVALID,
    )


def test_z8_a_late_command_is_refused_and_the_expiry_applies_first() -> None:
    state = deal(3, step_seconds=60)
    late = NOW + MINUTE
    assert refused(state, Observe(ANA, state.version, 1, (0,)), late) == Refusal(
        "Time is up for this turn.", Problem.CONFLICT
    )
    assert due_expiry(state, NOW) == []
    expiry = due_expiry(state, late)
    assert isinstance(expiry[0], Rested) and expiry[0].by_clock
    state = dream_step(step_seconds=60)
    assert refused(state, Dream(ANA, state.version, 3, (0, 1)), NOW + HALF) == Refusal(
        "Time is up for this Dream.", Problem.CONFLICT
    )
    assert isinstance(due_expiry(state, NOW + HALF, (0, 0))[0], DreamMarked)


def test_z8_an_expired_step_cannot_be_expired_twice() -> None:
    state = deal(3, step_seconds=60)
    step = state.step_started
    after, _ = expire(state, MINUTE)
    assert decide(after, Expire(step), NOW + MINUTE) == Refusal(
        "That turn is already over.", Problem.CONFLICT
    )


def test_z9_no_forfeit_a_seat_whose_every_turn_expires_rests_every_turn() -> None:
    state = deal(3, step_seconds=60)
    at = NOW
    for _ in range(6):
        assert state.deadline is not None
        at = state.deadline
        state, events = act(state, Expire(state.step_started), at)
        assert isinstance(events[0], Rested) and events[0].by_clock
    assert state.turn == 6 and not state.ended
    assert state.active == ANA and state.phase is Phase.ABILITY  # her seat plays on
