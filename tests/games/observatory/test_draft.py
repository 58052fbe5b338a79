"""The draft after a turn with completions (G5-G8, N10, T6, C9): seats in turn order from the
active seat, each taking all its replacements one pick (one event) at a time; a pick is a
face-up slot of either row, refilled at once, or the top of either deck; an empty deck
refills nothing; the clock picks for a silent seat."""

from __future__ import annotations

from datetime import timedelta

from games import kit
from games.kit import Problem, Refusal
from games.observatory.rules.commands import Expire, Pick, Submit
from games.observatory.rules.decide import clock_take, decide, take_refused
from games.observatory.rules.deck import CARDS, LARGE, SMALL, BonusKind
from games.observatory.rules.events import DraftStarted, Picked, StepsRevealed, TurnStarted
from games.observatory.rules.model import Phase, Source, State, Take
from games.observatory.rules.sheet_data import Space
from games.observatory.rules.steps import FORGO, Claim, Step
from games.observatory.rules.view import view_for
from tests.games.observatory.flow_helpers import NOW, ROLL, act, deal, submit, with_stars
from tests.games.observatory.sheet_helpers import placed


def claiming(state: State, seat: int, *cards: tuple[str, Space]) -> list[Step]:
    """Steps claiming each card on stars put there first (bonuses forgone)."""
    steps: list[Step] = []
    for card, at in cards:
        spaces = placed(card, at)
        steps.append(Claim(card, spaces))
        if CARDS[card].bonus.kind is not BonusKind.NONE:
            steps.append(FORGO)
    return steps


def completing(state: State, seat: int, *cards: tuple[str, Space]) -> State:
    for card, at in cards:
        state = with_stars(state, seat, placed(card, at))
    state, _ = submit(state, seat, claiming(state, seat, *cards))
    return state


def table(first_player: int = 2, step_seconds: int | None = None) -> State:
    """A first game of 3 in file order: seat 1 holds L01 S01 S02 S03, seat 2 L02 S04 S05
    S06, seat 3 L03 S07 S08 S09; the Night Sky is L04-L06 and S10-S12."""
    return deal(3, first_player=first_player, first_game=True, step_seconds=step_seconds)


def test_g5_seats_draft_in_turn_order_from_the_active_seat_each_all_its_cards() -> None:
    state = table(first_player=2)
    state = completing(state, 1, ("S01", (1, 1)))
    state = completing(state, 3, ("S07", (1, 1)))
    state, events = submit(state, 2, claiming(with_stars(state, 2, []), 2))
    assert isinstance(events[-1], DraftStarted) and events[-1].seat == 3  # seat 2 completed none
    state = table(first_player=2)
    state = completing(state, 1, ("S01", (1, 1)))
    state = completing(state, 3, ("S07", (1, 1)))
    state = with_stars(state, 2, placed("S04", (1, 1)) | placed("S05", (7, 7)))
    state, events = submit(state, 2, claiming(state, 2, ("S04", (1, 1)), ("S05", (7, 7))))
    assert [type(e) for e in events] == [type(events[0]), StepsRevealed, DraftStarted]
    assert events[-1] == DraftStarted(2, 2, None) and state.owed == (1, 2, 1)
    order = []
    while state.phase is Phase.DRAFT:
        assert state.drafter is not None
        order.append(state.drafter)
        state, events = act(
            state, Pick(state.drafter, state.version, Take(Source.SMALL_DECK), ROLL)
        )
        assert isinstance(events[0], Picked)
    assert order == [2, 2, 3, 1]  # active first, all of its picks, then up the seats, wrapping
    assert isinstance(events[-1], TurnStarted) and state.turn == 2
    assert [len(sheet.goals) for sheet in state.sheets] == [4, 4, 4]  # G7: never more than 4


def test_g6_a_face_up_card_taken_is_replaced_in_its_slot_from_its_deck() -> None:
    state = table(first_player=1)
    state = completing(state, 1, ("S01", (1, 1)))
    state = completing(state, 2, ("S04", (1, 1)))
    state, _ = submit(state, 3)
    assert state.drafter == 1 and state.sky_large == ("L04", "L05", "L06")
    state, events = act(state, Pick(1, state.version, Take(Source.LARGE_ROW, 2)))
    assert events == [Picked(1, Source.LARGE_ROW, 2, "L05", False), DraftStarted(2, 1, None)]
    assert state.sky_large == ("L04", "L07", "L06") and state.large == LARGE[7:]
    assert state.sheet(1).goals == ("L01", "S02", "S03", "L05")
    state, events = act(state, Pick(2, state.version, Take(Source.SMALL_DECK), ROLL))
    assert events[0] == Picked(2, Source.SMALL_DECK, None, "S13", False)
    assert state.small == SMALL[13:] and state.sky_small == ("S10", "S11", "S12")
    assert state.picks[-1].card == "S13" and not state.picks[-1].by_clock


def test_g6_a_pick_is_refused_from_a_wrong_seat_a_stale_view_or_a_wrong_place() -> None:
    state = table(first_player=1)
    state = completing(state, 1, ("S01", (1, 1)))
    state, _ = submit(state, 2)
    state, _ = submit(state, 3)
    assert state.drafter == 1
    wrong = decide(state, Pick(2, state.version, Take(Source.SMALL_DECK)), NOW)
    assert wrong == Refusal("It is another seat's turn to draft (G5).", Problem.FORBIDDEN)
    stale = decide(state, Pick(1, state.version - 1, Take(Source.SMALL_DECK)), NOW)
    assert stale == Refusal("The Night Sky changed: look again.", Problem.CONFLICT)
    for bad in (Take(Source.LARGE_ROW), Take(Source.SMALL_ROW, 4), Take(Source.LARGE_DECK, 1)):
        assert isinstance(decide(state, Pick(1, state.version, bad), NOW), Refusal)


def test_c9_no_claim_and_no_submission_during_a_draft() -> None:
    state = table(first_player=1)
    state = completing(state, 1, ("S01", (1, 1)))
    state, _ = submit(state, 2)
    state, _ = submit(state, 3)
    assert state.phase is Phase.DRAFT
    refused = decide(state, Submit(1, state.round_number, ()), NOW)
    assert refused == Refusal("No turn is open for submissions now.", Problem.CONFLICT)


def test_g7_an_empty_deck_refills_nothing_and_its_row_empties() -> None:
    state = table(first_player=1)
    state = completing(state, 1, ("S01", (1, 1)))
    state, _ = submit(state, 2)
    state, _ = submit(state, 3)
    state = kit.with_changes(state, large=())
    refused = decide(state, Pick(1, state.version, Take(Source.LARGE_DECK)), NOW)
    assert refused == Refusal("That deck is empty: no card comes out of it (G7).", Problem.CONFLICT)
    state, _ = act(state, Pick(1, state.version, Take(Source.LARGE_ROW, 1), ROLL))
    assert state.sky_large == (None, "L05", "L06")  # the slot stays empty
    assert take_refused(state, Take(Source.LARGE_ROW, 1)) == Refusal(
        "That slot is empty: its deck has run out (G7).", Problem.CONFLICT
    )


def test_g7_with_no_card_left_a_seat_takes_fewer_and_the_game_goes_on() -> None:
    state = table(first_player=1)
    state = completing(state, 1, ("S01", (1, 1)), ("S02", (7, 7)))
    state, _ = submit(state, 2)
    state = kit.with_changes(
        state, large=(), small=(), sky_large=(None, None, None), sky_small=(None, "S11", None)
    )
    state, events = submit(state, 3)
    assert state.drafter == 1 and state.owed == (2, 0, 0)
    state, events = act(state, Pick(1, state.version, Take(Source.SMALL_ROW, 2), ROLL))
    assert isinstance(events[-1], TurnStarted)  # nothing left: the draft ends
    assert state.sheet(1).goals == ("L01", "S03", "S11")


def test_t6_the_clock_takes_a_silent_seats_replacements_one_pick_each() -> None:
    state = table(first_player=1, step_seconds=60)
    state = completing(state, 1, ("S01", (1, 1)), ("S02", (7, 7)))
    state, _ = submit(state, 2)
    state, _ = submit(state, 3)
    state = kit.with_changes(state, large=state.large[:1], small=state.small[:2])
    assert state.drafter == 1 and state.deadline == NOW + timedelta(seconds=60)
    later = NOW + timedelta(seconds=60)
    state, events = act(state, Expire(state.step_started, ROLL), later)
    picks = [e for e in events if isinstance(e, Picked)]
    # Large holds 1 < Small 2: the Small top; then 1 >= 1: the Large top.
    assert [(p.source, p.card, p.by_clock) for p in picks] == [
        (Source.SMALL_DECK, "S13", True),
        (Source.LARGE_DECK, "L07", True),
    ]
    assert isinstance(events[-1], TurnStarted)


def test_t6_both_decks_empty_the_clock_takes_the_lowest_large_slot_else_small() -> None:
    state = kit.with_changes(
        table(), large=(), small=(), sky_large=(None, "L05", "L06"), sky_small=("S10", None, None)
    )
    assert clock_take(state) == Take(Source.LARGE_ROW, 2)
    state = kit.with_changes(state, sky_large=(None, None, None))
    assert clock_take(state) == Take(Source.SMALL_ROW, 1)
    assert clock_take(kit.with_changes(state, sky_small=(None, None, None))) is None


def test_g8_v1_goals_and_the_night_sky_are_public_with_deck_counts_only() -> None:
    state = table()
    for viewer in (None, 1, 2, 3):
        seen = view_for(state, viewer)
        assert [s.sheet.goals for s in seen.seats] == [sheet.goals for sheet in state.sheets]
        assert seen.sky_large == ("L04", "L05", "L06") and seen.sky_small == ("S10", "S11", "S12")
        assert (seen.large_left, seen.small_left) == (len(LARGE) - 6, len(SMALL) - 12)
