"""The flow of a game (S1, S2, G7, R1-R9, T2-T6, E1, E6-E8): the deal reveals round 1, every
seat submits once per round against its board as the round began, the round closes on the
last submission or when its clock runs out, and round 18's close ends the game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.codec import EventCodec
from games.kit import Problem, Refusal
from games.lookatthestars.rules import decide as rules
from games.lookatthestars.rules.board import TEST_DESIGN, Design, Power, StarBoard
from games.lookatthestars.rules.cards import NIGHT_DECK
from games.lookatthestars.rules.commands import Command, Deal, Expire, Submit
from games.lookatthestars.rules.designs import DESIGNS
from games.lookatthestars.rules.events import (
    EVENT_TYPES,
    DrawingSubmitted,
    GameDealt,
    GameEnded,
    RoundClosed,
    RoundStarted,
)
from games.lookatthestars.rules.evolve import fold
from games.lookatthestars.rules.model import PASS, ROUNDS, Drawing, State, cards_left, pile_of
from games.lookatthestars.rules.scoring import score
from tests.games.lookatthestars.play_helpers import S, lines, shooting

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
# R1: 18 of the 30 cards, a shooting star in round 2; the last 12 are never used.
NIGHT = ("S01", "SS1", "S04", *(f"S{n:02d}" for n in range(5, 20)))
UNUSED = tuple(card for card in NIGHT_DECK if card not in NIGHT)
CROSS = S("a2-b2 b1-b2 b2-b3 b2-c2")
CODEC = EventCodec(EVENT_TYPES)


def designs_for(players: int) -> tuple[Design, ...]:
    return tuple(Design(id=f"t{i}", name=f"Test {i}") for i in range(1, players + 1))


def deal(
    players: int,
    step_seconds: int | None = None,
    *,
    designs: tuple[Design, ...] | None = None,
    night: tuple[str, ...] = NIGHT,
    point_card: str = "B3",
) -> Deal:
    chosen = designs_for(players) if designs is None else designs
    return Deal(players, chosen, night, point_card, Power.LINE, step_seconds)


def applied(state: State, command: Command, now: datetime = NOW) -> tuple[State, list]:
    decision = rules.decide(state, command, now)
    assert isinstance(decision, list), decision
    return fold(decision, state), decision


def dealt(players: int, step_seconds: int | None = None) -> State:
    return applied(State(), deal(players, step_seconds))[0]


def submit(state: State, seat: int, drawing: Drawing = PASS, now: datetime = NOW) -> tuple:
    return applied(state, Submit(seat, state.round_number, drawing), now)


def everyone_passes(state: State) -> State:
    for seat in state.seats:
        state, _ = submit(state, seat)
    return state


def stored(events: list) -> list:
    return [CODEC.decode(*CODEC.encode(event)) for event in events]


# -- the deal (S1, S2, R1, R8, R9, T2) -----------------------------------------------------------


def test_r8_r9_the_deal_records_every_draw_and_reveals_round_one() -> None:
    """R8, R9, T2: GameDealt holds the seats' designs, the night in order, both bonus cards
    and the clock; RoundStarted reveals card 1 with its deadline."""
    state, events = applied(State(), deal(3, 60))
    assert events == [
        GameDealt(3, designs_for(3), NIGHT, "B3", Power.LINE, 60),
        RoundStarted(1, "S01", NOW + timedelta(seconds=60)),
    ]
    assert state.round_number == 1 and state.card == "S01" and state.cards == ("S01",)
    assert state.deadline == NOW + timedelta(seconds=60) and state.step_started == 2
    assert state.boards == tuple(StarBoard(d) for d in designs_for(3))
    assert "night=<hidden>" in repr(events[0]) and "NIGHT" not in repr(state)


@pytest.mark.parametrize("players", [0, 9])
def test_s1_a_game_seats_one_to_eight(players: int) -> None:
    """S1: 1 to 8 players."""
    assert rules.decide(State(), deal(players, designs=()), NOW) == Refusal(
        "Look at the Stars is played by 1 to 8 players."
    )


def test_s1_s2_eight_seats_on_the_eight_designs_each_a_different_board() -> None:
    """S1, S2: eight seats get the eight designs; two seats on one design are refused."""
    state, _ = applied(State(), deal(8, designs=DESIGNS))
    assert [b.design for b in state.boards] == list(DESIGNS)
    same = (DESIGNS[0], DESIGNS[0])
    assert rules.decide(State(), deal(2, designs=same), NOW) == Refusal(
        "Every seat gets a different board design."
    )
    assert rules.decide(State(), deal(2, designs=DESIGNS[:3]), NOW) == Refusal(
        "Each seat gets one board design."
    )


@pytest.mark.parametrize(
    "night",
    [NIGHT[:17], (*NIGHT[:17], "S01"), (*NIGHT[:17], "X99"), (*NIGHT, "S20")],
)
def test_r1_the_night_is_eighteen_different_cards_of_the_deck(night: tuple) -> None:
    """R1: 18 different cards of the 30."""
    assert rules.decide(State(), deal(2, night=night), NOW) == Refusal(
        "The night is 18 different cards of the deck."
    )


def test_r1_the_deck_may_hold_several_shooting_stars() -> None:
    """R1: a night may hold all three shooting-star cards."""
    night = ("SS1", "SS2", "SS3", *(f"S{n:02d}" for n in range(1, 16)))
    state, _ = applied(State(), deal(1, night=night))
    assert state.card == "SS1"


def test_the_table_is_set_once_and_its_options_are_checked() -> None:
    """S3, T1: one deal; a point card that does not exist, or a clock of 0 s, is refused."""
    state = dealt(2)
    assert rules.decide(state, deal(2), NOW) == Refusal(
        "The night has already been dealt.", Problem.CONFLICT
    )
    assert rules.decide(State(), deal(2, point_card="B11"), NOW) == Refusal(
        "There is no point card 'B11'."
    )
    assert isinstance(rules.decide(State(), deal(2, step_seconds=0), NOW), Refusal)
    assert rules.decide(State(), Submit(1, 1, PASS), NOW) == Refusal(
        "The night has not started yet.", Problem.CONFLICT
    )


# -- a round (R2, R3, R5, R6, G7) ----------------------------------------------------------------


def test_r5_r6_the_last_submission_closes_the_round_and_reveals_the_next_card() -> None:
    """R5, R6, R2: submissions are private until the last one; one RoundClosed reveals them
    all in seat order; round 2's card is revealed at once."""
    state = dealt(2)
    state, first = submit(state, 2, lines("c3-c4 c4-d4"))
    assert first == [DrawingSubmitted(1, 2, lines("c3-c4 c4-d4"))]
    assert state.boards[1].drawn == frozenset()  # V3: the board changes at the close
    state, last = submit(state, 1, lines("e5-e6 e5-f5"))
    assert last == [
        DrawingSubmitted(1, 1, lines("e5-e6 e5-f5")),
        RoundClosed(
            round=1,
            submissions=(
                DrawingSubmitted(1, 1, lines("e5-e6 e5-f5")),
                DrawingSubmitted(1, 2, lines("c3-c4 c4-d4")),
            ),
            silent=(),
            defaulted=(),
            by_clock=False,
        ),
        RoundStarted(2, "SS1", None),
    ]
    assert state.boards[0].drawn == S("e5-e6 e5-f5")
    assert state.boards[1].drawn == S("c3-c4 c4-d4")
    assert state.card == "SS1" and state.closed[0].card == "S01"


def test_r6_a_second_submission_is_refused_and_a_refused_one_changes_nothing() -> None:
    """R6: once accepted, final; a refused submission leaves the seat free to send another."""
    state = dealt(2)
    bad = rules.decide(state, Submit(1, 1, lines("c3-c4")), NOW)
    assert bad == Refusal("A shape card is drawn whole: 2 lines, not 1.")
    state, _ = submit(state, 1, lines("c3-c4 c4-d4"))
    assert rules.decide(state, Submit(1, 1, PASS), NOW) == Refusal(
        "You have already submitted this round: it is final.", Problem.CONFLICT
    )
    assert state.round is not None and state.round.waiting == (2,)


def test_r6_a_submission_names_its_round_not_the_game_s_version() -> None:
    """R6: a submission for another round is refused; seats never conflict on versions."""
    state = dealt(2)
    assert rules.decide(state, Submit(1, 2, PASS), NOW) == Refusal(
        "That round has not started.", Problem.CONFLICT
    )
    state = everyone_passes(state)
    assert rules.decide(state, Submit(1, 1, PASS), NOW) == Refusal(
        "That round is already over.", Problem.CONFLICT
    )
    assert rules.decide(state, Submit(3, 2, PASS), NOW) == Refusal(
        "That seat is not in this round.", Problem.FORBIDDEN
    )


def test_r6_it_is_checked_against_the_board_as_the_round_began() -> None:
    """R6, G7: two seats may draw the same lines on their own boards in one round; each
    seat's drawing lands on its own board only."""
    state = dealt(3)
    state, _ = submit(state, 1, lines("c3-c4 c4-d4"))
    state, _ = submit(state, 2, lines("c3-c4 c4-d4"))
    state, _ = submit(state, 3)
    assert [b.drawn for b in state.boards] == [S("c3-c4 c4-d4"), S("c3-c4 c4-d4"), frozenset()]


def test_r3_ss5_the_round_s_card_decides_what_may_be_drawn() -> None:
    """R3, SS5: round 2 is a shooting-star card: a shape is refused, a shooting star is not."""
    state = everyone_passes(dealt(1))
    assert state.card == "SS1"
    assert rules.decide(state, Submit(1, 2, lines("c3-c4 c4-d4")), NOW) == Refusal(
        "This is a shooting-star card: draw a shooting star, or pass."
    )
    state, _ = submit(state, 1, shooting("c3-d4 d4-e5", "c3"))
    assert len(state.boards[0].shooting_stars) == 1


def test_r4_the_sun_rises_after_piles_one_and_two() -> None:
    """R4, R1: rounds 7-12 are pile 2 with rows 1-2 day; rounds 13-18 pile 3, rows 1-4."""
    state = dealt(1)
    for _ in range(6):
        state = everyone_passes(state)
    assert state.round_number == 7 and pile_of(7) == 2
    assert rules.decide(state, Submit(1, 7, lines("c2-c3 c3-d2")), NOW) == Refusal(
        "c2 is in a day row."
    )
    assert cards_left(7) == (0, 5, 6) and cards_left(13) == (0, 0, 5) and cards_left(0) == (6, 6, 6)


# -- the clock (T2-T6) -----------------------------------------------------------------------------


def test_t3_the_clock_passes_every_seat_still_drawing_and_closes_the_round() -> None:
    """T3, R9: the close records the seats the clock passed; their boards are unchanged."""
    state = dealt(3, step_seconds=60)
    state, _ = submit(state, 2, lines("c3-c4 c4-d4"))
    deadline = NOW + timedelta(seconds=60)
    step = state.step_started
    assert rules.decide(state, Expire(step), deadline - timedelta(seconds=1)) == Refusal(
        "This round still has time.", Problem.CONFLICT
    )
    closed, events = applied(state, Expire(step), deadline)
    close = events[0]
    assert isinstance(close, RoundClosed) and close.by_clock
    assert close.passed_by_clock == (1, 3) and close.by_seat() == {2: lines("c3-c4 c4-d4")}
    assert events[1] == RoundStarted(2, "SS1", deadline + timedelta(seconds=60))
    assert closed.closed[0].passed_by_clock == (1, 3)
    assert closed.closed[0].drawings == (PASS, lines("c3-c4 c4-d4"), PASS)
    assert closed.boards[0].drawn == frozenset() and closed.boards[2].drawn == frozenset()
    assert rules.decide(closed, Expire(step), deadline) == Refusal(
        "That round is already over.", Problem.CONFLICT
    )


def test_t4_a_submission_at_the_deadline_is_refused_and_the_expiry_comes_first() -> None:
    """T4: at or after the deadline a submission is refused; ``due_expiry`` gives the close."""
    state = dealt(2, step_seconds=60)
    deadline = NOW + timedelta(seconds=60)
    assert rules.decide(state, Submit(1, 1, PASS), deadline) == Refusal(
        "Time is up for this round.", Problem.CONFLICT
    )
    assert rules.due_expiry(state, deadline - timedelta(seconds=1)) == []
    due = rules.due_expiry(state, deadline)
    assert [type(e) for e in due] == [RoundClosed, RoundStarted]
    after = fold(due, state)
    assert after.round_number == 2 and rules.decide(after, Submit(1, 2, PASS), deadline)


def test_t2_each_card_s_deadline_is_its_reveal_plus_the_length() -> None:
    """T2: the deadline is stored in the event that reveals the card."""
    state = dealt(2, step_seconds=90)
    later = NOW + timedelta(seconds=30)
    state, _ = submit(state, 1, PASS, later)
    state, events = submit(state, 2, PASS, later)
    assert events[-1] == RoundStarted(2, "SS1", later + timedelta(seconds=90))
    assert state.deadline == later + timedelta(seconds=90)


def test_t5_t6_no_forfeit_and_without_a_clock_a_round_waits() -> None:
    """T6: with the clock off there is no deadline and nothing to expire. T5: a seat the
    clock passes every round still plays to round 18."""
    state = dealt(2)
    assert state.deadline is None and rules.due_expiry(state, NOW + timedelta(days=9)) == []
    assert rules.decide(state, Expire(state.step_started), NOW) == Refusal(
        "This round has no clock.", Problem.CONFLICT
    )
    state, now = dealt(2, step_seconds=60), NOW
    for _ in range(ROUNDS):
        state, _ = submit(state, 1, PASS, now)
        now += timedelta(seconds=60)
        state = fold(rules.due_expiry(state, now), state)
    assert state.ended and all(c.passed_by_clock == (2,) for c in state.closed)


# -- the end (E1, E6-E8) --------------------------------------------------------------------------


def test_e8_provisional_scores_follow_each_closed_round() -> None:
    """E8: after each close every board is scored as if the game ended then."""
    state = dealt(2)
    state, _ = submit(state, 1, lines("c3-c4 c4-d4"))
    assert state.scores[0].total == 0
    state, _ = submit(state, 2, PASS)
    state = everyone_passes(state)  # round 2
    state, _ = submit(state, 1, lines("d4-e5 e5-f6"))  # S04 joins: a group of 4
    state, _ = submit(state, 2, PASS)
    assert state.scores[0] == score(state.boards[0], CROSS) and state.scores[0].total == 4
    assert state.scores[1].total == 0


def test_e1_e6_the_game_ends_when_round_eighteen_closes_and_the_best_total_wins() -> None:
    """E1, E6, E7: GameEnded after round 18 with each seat's sheet; the higher total wins."""
    state = dealt(2)
    state, _ = submit(state, 1, lines("c3-c4 c4-d4"))
    state, _ = submit(state, 2, PASS)
    state, _ = submit(state, 1, PASS)
    state, _ = submit(state, 2, PASS)
    state, _ = submit(state, 1, lines("d4-e5 e5-f6"))
    state, _ = submit(state, 2, PASS)
    for _ in range(ROUNDS - 4):
        assert not state.ended
        state = everyone_passes(state)
    state, _ = submit(state, 1, PASS)
    state, events = submit(state, 2, PASS)
    assert isinstance(events[-1], GameEnded) and state.ended
    assert events[-1] == GameEnded(state.scores, (1,))
    assert state.winners == (1,) and state.deadline is None and len(state.closed) == ROUNDS
    assert state.cards == NIGHT  # E7: the 18 cards of the night, in order
    assert rules.decide(state, Submit(1, 18, PASS), NOW) == Refusal(
        "The game is over.", Problem.CONFLICT
    )


def test_e6_equal_best_totals_share_the_win_and_solo_has_no_winner() -> None:
    """E6: two seats with 0 share the win; a solo game names no winner."""
    state = dealt(2)
    for _ in range(ROUNDS):
        state = everyone_passes(state)
    assert state.winners == (1, 2)
    state = dealt(1)
    for _ in range(ROUNDS):
        state, events = submit(state, 1)
    assert events[-1] == GameEnded(state.scores, ()) and state.ended and state.solo


def test_s1_one_seat_plays_alone_and_each_submission_closes_its_round() -> None:
    """S1, R5: solo: every submission closes the round at once."""
    state = dealt(1)
    state, events = submit(state, 1, lines("c3-c4 c4-d4"))
    assert [type(e) for e in events] == [DrawingSubmitted, RoundClosed, RoundStarted]


def test_r9_every_event_survives_the_store() -> None:
    """R9: the events round-trip through the codec and fold to the same state."""
    log: list = []
    state, events = applied(State(), deal(2, 60))
    log += events
    state, events = submit(state, 1, lines("c3-c4 c4-d4"))
    log += events
    state, events = applied(state, Expire(state.step_started), NOW + timedelta(seconds=60))
    log += events
    state, events = submit(state, 1, shooting("c5-d6", "d6"), NOW + timedelta(seconds=61))
    log += events
    assert fold(stored(log)) == state and state.version == len(log)
    assert "submission=<hidden>" in repr(log[2])


def test_g6_a_game_may_be_dealt_on_test_boards() -> None:
    """G6: the rules take each board as a value: the test board deals like any design."""
    state, _ = applied(State(), deal(1, designs=(TEST_DESIGN,)))
    assert state.boards == (StarBoard(TEST_DESIGN),)
    assert UNUSED and not set(UNUSED) & set(state.night)


def test_u1_checking_a_draft_runs_the_very_checks_a_submission_runs() -> None:
    """U1, R6: the preview says legal exactly when Submit would accept; it records nothing
    and shows the board with the draft and its score."""
    state = dealt(2)
    for draft in (lines("c3-c4 c4-d4"), lines("c3-c4"), lines("c3-c4 c3-b4"), PASS):
        answer = rules.check(state, 1, draft, NOW)
        decision = rules.decide(state, Submit(1, 1, draft), NOW)
        assert answer.legal is isinstance(decision, list)
        assert answer.refusal == (None if isinstance(decision, list) else decision)
    answer = rules.check(state, 1, lines("c3-c4 c4-d4"), NOW)
    assert answer.details is not None and answer.details.board.drawn == S("c3-c4 c4-d4")
    assert answer.details.open_copies == () and answer.details.score.total == 0
    assert rules.check(State(), 1, PASS).reason == "The night has not started yet."
