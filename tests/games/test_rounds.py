"""Simultaneous rounds, on a tiny game of secret words: every seat submits once, whole and
final; nobody sees another seat's word before the one event that closes the round."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from games import kit
from games.codec import EventCodec
from games.kit import Problem, Refusal, Round, RoundClosed, SeatStatus, Submitted

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
ALICE, BOB, CHARLIE = 1, 2, 3


def table(*seats: int, deadline: datetime | None = None) -> Round[str]:
    seated = frozenset(seats or (ALICE, BOB, CHARLIE))
    return Round(number=4, seats=seated, started=9, deadline=deadline)


def refuse(word: str) -> Refusal | None:
    """The game's own check, on the whole submission."""
    return None if word.isalpha() else Refusal("Only letters, please.")


def play(round: Round[str], events: list[object]) -> Round[str]:
    for event in events:
        round = kit.evolve_round(round, event)
    return round


def submit(
    round: Round[str],
    seat: int,
    word: str,
    *,
    number: int | None = None,
    now: datetime | None = None,
    called: str = "round",
) -> kit.Decision:
    return kit.submit(round, seat, word, refuse=refuse, number=number, now=now, called=called)


def accepted(round: Round[str], seat: int, word: str) -> Round[str]:
    decision = submit(round, seat, word)
    assert isinstance(decision, list), decision
    return play(round, decision)


# -- submitting ----------------------------------------------------------------------------


def test_it_accepts_a_whole_submission_and_keeps_the_round_open() -> None:
    round = table()
    assert submit(round, ALICE, "vega") == [Submitted(4, ALICE, "vega")]
    after = accepted(round, ALICE, "vega")
    assert after.done(ALICE) and after.waiting == (BOB, CHARLIE) and not after.closed


def test_it_refuses_a_submission_the_games_check_refuses_whole() -> None:
    round = table()
    assert submit(round, ALICE, "vega 2") == Refusal("Only letters, please.")
    assert round == table() and not round.done(ALICE)
    assert isinstance(submit(round, ALICE, "vega"), list)  # the seat may send another


def test_a_second_submission_is_refused_and_changes_nothing() -> None:
    round = accepted(table(), ALICE, "vega")
    assert submit(round, ALICE, "deneb") == Refusal(
        "You have already submitted this round: it is final.", Problem.CONFLICT
    )
    assert round.submitted == {ALICE: "vega"} and round.waiting == (BOB, CHARLIE)


def test_a_seat_outside_the_round_may_not_submit() -> None:
    refusal = Refusal("That seat is not in this round.", Problem.FORBIDDEN)
    assert submit(table(ALICE, BOB), CHARLIE, "vega") == refusal


def test_a_submission_names_its_round() -> None:
    round = table()
    assert submit(round, ALICE, "vega", number=3) == Refusal(
        "That round is already over.", Problem.CONFLICT
    )
    assert submit(round, ALICE, "vega", number=5) == Refusal(
        "That round has not started.", Problem.CONFLICT
    )
    assert isinstance(submit(round, ALICE, "vega", number=4), list)


def test_a_submission_at_the_deadline_is_too_late_in_the_games_words() -> None:
    round = table(deadline=NOW)
    assert submit(round, ALICE, "vega", now=NOW, called="turn") == Refusal(
        "Time is up for this turn.", Problem.CONFLICT
    )
    assert isinstance(submit(round, ALICE, "vega", now=NOW - timedelta(seconds=1)), list)


# -- closing -------------------------------------------------------------------------------


def test_the_last_submission_closes_the_round_in_one_event_revealing_every_one() -> None:
    round = accepted(accepted(table(), BOB, "deneb"), ALICE, "vega")
    decision = submit(round, CHARLIE, "altair")
    assert isinstance(decision, list)
    closes = [event for event in decision if isinstance(event, RoundClosed)]
    assert decision[0] == Submitted(4, CHARLIE, "altair")
    assert closes == [decision[-1]] and len(decision) == 2
    assert closes[0] == RoundClosed(
        round=4,
        submissions=(Submitted(4, 1, "vega"), Submitted(4, 2, "deneb"), Submitted(4, 3, "altair")),
        silent=(),
        defaulted=(),
        by_clock=False,
    )
    after = play(round, decision)
    assert after.closed and after.complete and after.submitted == closes[0].by_seat()


def test_the_clock_closes_the_round_with_the_games_default_for_silent_seats() -> None:
    round = accepted(table(ALICE, BOB, CHARLIE), BOB, "deneb")
    pass_for_alice = {ALICE: "pass"}.get  # Charlie gets nothing: recorded as silent
    decision = kit.close_by_clock(round, pass_for_alice)
    assert decision == [
        RoundClosed(
            round=4,
            submissions=(Submitted(4, ALICE, "pass"), Submitted(4, BOB, "deneb")),
            silent=(CHARLIE,),
            defaulted=(ALICE,),
            by_clock=True,
        )
    ]
    closed = play(round, decision)
    assert closed.closed and closed.waiting == (CHARLIE,)


def test_a_late_submission_after_the_close_is_refused() -> None:
    closing = kit.close_by_clock(table(), lambda seat: None)
    assert isinstance(closing, list)
    round = play(table(), closing)
    assert submit(round, ALICE, "vega") == Refusal(
        "This round is already closed.", Problem.CONFLICT
    )
    assert submit(round, ALICE, "vega", number=4) == Refusal(
        "This round is already closed.", Problem.CONFLICT
    )
    refused = kit.close_by_clock(round, lambda seat: "pass")
    assert refused == Refusal("This round is already closed.", Problem.CONFLICT)


def test_a_solo_round_closes_on_its_one_submission() -> None:
    decision = submit(table(ALICE), ALICE, "vega")
    assert decision == [
        Submitted(4, ALICE, "vega"),
        RoundClosed(4, (Submitted(4, ALICE, "vega"),), (), (), by_clock=False),
    ]
    assert play(table(ALICE), decision).closed


# -- who sees what -------------------------------------------------------------------------


def test_a_seat_sees_its_own_submission_and_only_done_or_choosing_for_others() -> None:
    round = accepted(accepted(table(), ALICE, "vega"), BOB, "deneb")
    seen = round.status_for(CHARLIE)
    assert seen.seats == {
        ALICE: SeatStatus.DONE,
        BOB: SeatStatus.DONE,
        CHARLIE: SeatStatus.CHOOSING,
    }
    assert seen.own is None and seen.waiting == (CHARLIE,)
    assert round.status_for(ALICE).own == "vega" and round.status_for(None).own is None
    for shown in (repr(seen), str(seen), repr(round.status_for(ALICE)), repr(round)):
        assert "vega" not in shown and "deneb" not in shown


def test_no_log_line_carries_a_private_submission() -> None:
    assert "vega" not in repr(Submitted(4, ALICE, "vega"))
    assert "submission=<hidden>" in repr(Submitted(4, ALICE, "vega"))
    shown = repr(accepted(table(), ALICE, "vega"))
    assert "vega" not in shown and "submitted=<hidden>" in shown and "number=4" in shown


# -- previewing ----------------------------------------------------------------------------


def test_a_preview_says_what_submitting_would_do_and_records_nothing() -> None:
    round = table()
    legal = kit.preview(round, ALICE, "vega", refuse=refuse, details=4)
    assert legal.legal and legal.reason == "" and legal.details == 4
    refused = kit.preview(round, ALICE, "ve ga", refuse=refuse, details=None)
    assert not refused.legal and refused.reason == "Only letters, please."
    late = kit.preview(accepted(round, ALICE, "vega"), ALICE, "deneb", refuse=refuse, details=0)
    assert late.refusal == Refusal(
        "You have already submitted this round: it is final.", Problem.CONFLICT
    )
    assert round == table()


# -- a game's own stored events ------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    text: str


@dataclass(frozen=True)
class WordSubmitted(Submitted[Word]):
    submission: Word


@dataclass(frozen=True)
class WordsRevealed(RoundClosed[Word]):
    submissions: tuple[WordSubmitted, ...]


def test_a_games_concrete_events_hide_the_word_and_go_through_the_codec() -> None:
    round: Round[Word] = Round(number=1, seats=frozenset({ALICE}), started=0)
    decision = kit.submit(
        round,
        ALICE,
        Word("vega"),
        refuse=lambda word: None,
        submitted_as=WordSubmitted,
        closed_as=WordsRevealed,
    )
    assert isinstance(decision, list) and [type(e) for e in decision] == [
        WordSubmitted,
        WordsRevealed,
    ]
    assert "vega" not in repr(decision[0])
    codec = EventCodec([WordSubmitted, WordsRevealed])
    assert [codec.decode(*codec.encode(event)) for event in decision] == decision


# -- properties ----------------------------------------------------------------------------


def word(seat: int, index: int) -> str:
    """A word of letters only, its seat's letter five times first: no other seat's word
    can be found inside it, nor in a status."""
    return "abcdefgh"[seat - 1] * 5 + "".join("ijklmnopqr"[int(d)] for d in str(index))


Played = tuple[frozenset[int], list[tuple[int, bool]], int | None, set[int]]


@st.composite
def rounds_played(draw: st.DrawFn) -> Played:
    """Seats; the submissions they try, in any order, with repeats and refused ones, then
    a good one from every seat; where the clock strikes among them (None: it never does);
    and the seats the clock gives a default."""
    seats = draw(st.frozensets(st.integers(1, 8), min_size=1, max_size=8))
    ordered = sorted(seats)
    tries = draw(st.lists(st.tuples(st.sampled_from(ordered), st.booleans()), max_size=20))
    last = [(seat, True) for seat in draw(st.permutations(ordered))]
    strike = draw(st.none() | st.integers(0, len(tries) + len(last)))
    defaulted = draw(st.sets(st.sampled_from(ordered)))
    return seats, tries + last, strike, defaulted


@given(rounds_played())
def test_a_round_closes_exactly_once_and_reveals_nothing_before(played: Played) -> None:
    seats, tries, strike, defaulted = played
    round: Round[str] = Round(number=1, seats=seats, started=0)
    events: list[object] = []
    closed_by_clock = False

    def default(seat: int) -> str | None:
        return f"default-{seat}" if seat in defaulted else None

    def apply(decision: kit.Decision) -> None:
        nonlocal round
        if isinstance(decision, list):
            events.extend(decision)
            round = play(round, decision)

    for index in range(len(tries) + 1):
        if index == strike:
            closed_by_clock = not round.closed
            apply(kit.close_by_clock(round, default))
        if index < len(tries):
            seat, good = tries[index]
            apply(submit(round, seat, word(seat, index) if good else "1"))
        if not round.closed:
            for viewer in (*sorted(seats), None):
                seen = round.status_for(viewer)
                assert seen.own == (round.submitted.get(viewer) if viewer else None)
                shown = repr(seen) + str(seen) + str(seen.seats) + str(seen.own)
                others = [word for seat, word in round.submitted.items() if seat != viewer]
                assert not any(word in shown for word in others)
    assert isinstance(kit.close_by_clock(round, default), Refusal)  # never a second close

    closes = [event for event in events if isinstance(event, RoundClosed)]
    assert len(closes) == 1 and round.closed
    close = closes[0]
    revealed = [entry.seat for entry in close.submissions]
    assert sorted(revealed + list(close.silent)) == sorted(seats)
    assert not set(revealed) & set(close.silent)
    assert set(close.defaulted) <= set(revealed) and close.by_clock == closed_by_clock
    submitted = [event for event in events if isinstance(event, Submitted)]
    assert len({event.seat for event in submitted}) == len(submitted)  # each seat once
    assert {event.seat for event in submitted} | set(close.defaulted) == set(revealed)
