"""Highest Unique's pure rules, the test-only game built on ``games.kit.rounds``: a round
closes when every seat has chosen (one event reveals every number) or when its clock runs
out (the silent seats record nothing); a second choice is refused and changes nothing;
one seat plays alone; random whole games fold back from their stored events; and no view
of any seat ever depends on another seat's number before the close."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import kit
from games.kit import Problem, Refusal
from tests.support.highest import rules
from tests.support.highest.game import GAME
from tests.support.highest.rules import (
    Choose,
    Deal,
    Expire,
    GameDealt,
    GameEnded,
    NumberChosen,
    NumbersRevealed,
    RoundStarted,
    State,
)

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[3]


def applied(state: State, command: rules.Command, now: datetime = NOW) -> tuple[State, list]:
    decision = rules.decide(state, command, now)
    assert isinstance(decision, list), decision
    return rules.fold(decision, state), decision


def dealt(players: int, step_seconds: int | None = None, rounds: int = rules.ROUNDS) -> State:
    return applied(State(), Deal(players, step_seconds, rounds))[0]


def choose(state: State, seat: int, number: int, now: datetime = NOW) -> tuple[State, list]:
    assert state.round is not None
    return applied(state, Choose(seat, state.round.number, number), now)


# -- the deal ----------------------------------------------------------------------------------


def test_the_deal_opens_round_one_with_its_clock() -> None:
    state, events = applied(State(), Deal(3, 60))
    assert events == [GameDealt(3, 3, 60), RoundStarted(1, NOW + timedelta(seconds=60))]
    assert state.version == 2 and state.step_started == 2 and state.scores == (0, 0, 0)
    assert state.round is not None and state.round.seats == {1, 2, 3}
    assert state.deadline == NOW + timedelta(seconds=60)
    assert GAME.clock(state) == (2, NOW + timedelta(seconds=60))


@pytest.mark.parametrize("players", [0, 6])
def test_it_seats_one_to_five(players: int) -> None:
    assert rules.decide(State(), Deal(players), NOW) == Refusal(
        "Highest Unique is played by 1 to 5 players."
    )


def test_the_table_is_set_once() -> None:
    assert rules.decide(dealt(2), Deal(2), NOW) == Refusal(
        "The table is already set.", Problem.CONFLICT
    )


# -- closing on every seat's choice -------------------------------------------------------------


def test_the_last_choice_closes_the_round_with_one_event_revealing_every_number() -> None:
    state = dealt(3)
    state, first = choose(state, 1, 7)
    assert first == [NumberChosen(1, 1, 7)]
    state, second = choose(state, 2, 7)
    assert second == [NumberChosen(1, 2, 7)]
    assert state.round is not None and state.round.waiting == (3,) and not state.revealed
    state, last = choose(state, 3, 5)
    reveals = [e for e in last if isinstance(e, NumbersRevealed)]
    assert reveals == [
        NumbersRevealed(
            round=1,
            submissions=(NumberChosen(1, 1, 7), NumberChosen(1, 2, 7), NumberChosen(1, 3, 5)),
            silent=(),
            defaulted=(),
            by_clock=False,
        )
    ]
    assert last == [NumberChosen(1, 3, 5), reveals[0], RoundStarted(2, None)]
    # 7 was chosen twice: the highest unique number is 5, and seat 3 scores.
    assert state.scores == (0, 0, 1)
    assert state.revealed[-1].chosen == ((1, 7), (2, 7), (3, 5))
    assert (state.revealed[-1].scorer, state.revealed[-1].highest) == (3, 5)
    assert state.round is not None and state.round.number == 2 and not state.round.submitted


def test_no_unique_number_scores_nobody() -> None:
    state = dealt(2)
    state, _ = choose(state, 1, 4)
    state, _ = choose(state, 2, 4)
    assert state.scores == (0, 0) and state.revealed[-1].scorer is None


@pytest.mark.parametrize(
    ("chosen", "expected"),
    [
        ({1: 9, 2: 9, 3: 8}, (3, 8)),
        ({1: 3, 2: 10, 3: 10, 4: 1}, (1, 3)),
        ({1: 2, 2: 2}, None),
        ({1: 5}, (1, 5)),
        ({}, None),
    ],
)
def test_the_highest_number_chosen_once_scores(chosen: dict, expected: tuple | None) -> None:
    assert rules.highest_unique(chosen) == expected


# -- final: a second choice ----------------------------------------------------------------------


def test_a_second_choice_is_refused_and_changes_nothing() -> None:
    state, _ = choose(dealt(3), 1, 7)
    refusal = rules.decide(state, Choose(1, 1, 3), NOW)
    assert refusal == Refusal(
        "You have already submitted this round: it is final.", Problem.CONFLICT
    )
    assert state.round is not None and state.round.submitted == {1: 7}
    assert state.version == 3  # decide never changes a state; nothing was made to fold


def test_a_whole_choice_is_checked_before_anything_is_recorded() -> None:
    state = dealt(3)
    for number in (0, 11, -3):
        assert rules.decide(state, Choose(1, 1, number), NOW) == Refusal(
            "Choose a whole number from 1 to 10.", Problem.INVALID
        )
    assert rules.decide(state, Choose(4, 1, 5), NOW) == Refusal(
        "That seat is not in this round.", Problem.FORBIDDEN
    )
    assert rules.decide(state, Choose(1, 2, 5), NOW) == Refusal(
        "That round has not started.", Problem.CONFLICT
    )
    after, _ = choose(choose(choose(state, 1, 1)[0], 2, 2)[0], 3, 3)
    assert rules.decide(after, Choose(1, 1, 5), NOW) == Refusal(
        "That round is already over.", Problem.CONFLICT
    )
    assert rules.decide(State(), Choose(1, 1, 5), NOW) == Refusal(
        "The game has not started.", Problem.CONFLICT
    )


# -- the clock --------------------------------------------------------------------------------


def test_the_clock_closes_the_round_and_records_the_silent_seats() -> None:
    state = dealt(3, step_seconds=60)
    state, _ = choose(state, 2, 6)
    deadline = NOW + timedelta(seconds=60)
    step = state.step_started
    assert rules.decide(state, Expire(step), deadline - timedelta(seconds=1)) == Refusal(
        "This round still has time.", Problem.CONFLICT
    )
    assert rules.decide(state, Choose(1, 1, 4), deadline) == Refusal(
        "Time is up for this round.", Problem.CONFLICT
    )
    later = deadline + timedelta(seconds=5)
    closed, events = applied(state, Expire(step), later)
    assert events == [
        NumbersRevealed(
            round=1,
            submissions=(NumberChosen(1, 2, 6),),
            silent=(1, 3),
            defaulted=(),
            by_clock=True,
        ),
        RoundStarted(2, later + timedelta(seconds=60)),
    ]
    assert closed.scores == (0, 1, 0)  # a silent seat records nothing and scores nothing
    assert closed.revealed[-1].silent == (1, 3) and closed.revealed[-1].by_clock
    assert closed.step_started == closed.version and closed.deadline == later + timedelta(
        seconds=60
    )
    # A late or duplicate job for the old round changes nothing.
    assert rules.decide(closed, Expire(step), later) == Refusal(
        "That round is already over.", Problem.CONFLICT
    )


def test_the_service_s_due_expiry_is_the_same_close() -> None:
    state = dealt(2, step_seconds=60)
    due = GAME.due_expiry(state, NOW + timedelta(seconds=60))
    assert [type(e) for e in due] == [NumbersRevealed, RoundStarted]
    assert GAME.due_expiry(state, NOW + timedelta(seconds=59)) == []


def test_a_round_nobody_chose_in_scores_nobody() -> None:
    state = dealt(2, step_seconds=60)
    closed, events = applied(state, Expire(state.step_started), NOW + timedelta(seconds=60))
    reveal = events[0]
    assert isinstance(reveal, NumbersRevealed)
    assert reveal.submissions == () and reveal.silent == (1, 2)
    assert closed.scores == (0, 0) and closed.revealed[-1].scorer is None


def test_without_a_clock_there_is_nothing_to_expire() -> None:
    state = dealt(2)
    assert state.deadline is None and GAME.clock(state) is None
    assert rules.decide(state, Expire(state.step_started), NOW) == Refusal(
        "This round has no clock.", Problem.CONFLICT
    )


# -- solo, and the end ---------------------------------------------------------------------------


def test_one_seat_plays_alone_and_each_choice_closes_its_round() -> None:
    state = dealt(1)
    for number in (3, 9, 10):
        state, events = choose(state, 1, number)
        assert isinstance(events[1], NumbersRevealed) and events[1].by_seat() == {1: number}
    assert events[-1] == GameEnded(scores=(3,), winners=(1,))
    assert state.ended and state.deadline is None and state.scores == (3,)
    assert rules.decide(state, Choose(1, 3, 4), NOW) == Refusal(
        "The game is over.", Problem.CONFLICT
    )


def test_most_points_wins_and_ties_are_shared() -> None:
    state = dealt(3, rounds=2)
    for picks in ({1: 9, 2: 8, 3: 8}, {1: 1, 2: 5, 3: 5}):
        for seat, number in picks.items():
            state, events = choose(state, seat, number)
    assert events[-1] == GameEnded(scores=(2, 0, 0), winners=(1,))
    state = dealt(2, rounds=2)
    for picks in ({1: 9, 2: 8}, {1: 1, 2: 5}):
        for seat, number in picks.items():
            state, events = choose(state, seat, number)
    assert events[-1] == GameEnded(scores=(1, 1), winners=(1, 2))


# -- the preview ----------------------------------------------------------------------------------


def test_the_check_says_what_choosing_would_do_from_revealed_rounds_only() -> None:
    state, _ = choose(choose(dealt(2), 1, 7)[0], 2, 3)  # seat 1 scored with 7
    state, _ = choose(state, 2, 10)  # round 2: seat 2 chose, not yet revealed
    answer = rules.check(state, 1, 7, NOW)
    assert answer.legal and answer.details == rules.Check(7, points=1, won_with=(1,))
    assert not rules.check(state, 1, 11, NOW).legal
    assert rules.check(state, 2, 4, NOW).reason == (
        "You have already submitted this round: it is final."
    )
    # The draft's answer is the very one a choice gets.
    for seat, number in ((1, 7), (1, 0), (2, 4), (3, 4)):
        decision = rules.decide(state, Choose(seat, 2, number), NOW)
        answer = rules.check(state, seat, number, NOW)
        assert answer.legal is isinstance(decision, list)
        assert answer.refusal == (None if isinstance(decision, list) else decision)


# -- purity, the codec and secrecy, over random whole games -------------------------------------


def test_the_rules_import_only_the_standard_library_and_the_kit() -> None:
    tree = ast.parse((ROOT / "tests/support/highest/rules.py").read_text())
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    for name in imported:
        assert name and (
            name.split(".")[0] in sys.stdlib_module_names
            or name
            in {
                "games",
                "games.kit",
            }
        ), name
    script = (
        "import sys; import tests.support.highest.rules; "
        "print(' '.join(m for m in sys.modules if m.startswith('django')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == []


def twin(state: State, viewer: int | None) -> State:
    """The same game, but every open number of a seat other than ``viewer`` is another."""
    if state.round is None:
        return state
    others = {
        seat: (number % rules.HIGHEST) + 1 if seat != viewer else number
        for seat, number in state.round.submitted.items()
    }
    if state.round.closed:
        return state  # revealed to everyone: nothing left to hide
    return replace(state, round=kit.with_changes(state.round, submitted=others))


def check_secrecy(state: State) -> None:
    """No view, and no check of a draft, for any viewer depends on another seat's number
    before the round closes."""
    for viewer in (None, *state.seats):
        other = twin(state, viewer)
        assert rules.view_for(other, viewer) == rules.view_for(state, viewer), viewer
        if viewer is not None:
            for draft in (0, 1, 5, 10, 11):
                assert rules.check(other, viewer, draft, NOW) == rules.check(
                    state, viewer, draft, NOW
                )
        shown = rules.view_for(state, viewer)
        if shown.round is not None and not shown.round.closed:
            mine = state.round.submitted.get(viewer) if state.round and viewer else None
            assert shown.round.own == mine


def stored(events: list[object]) -> list[object]:
    """The events as the store keeps them: encoded to JSON and decoded by the game's codec."""
    return [GAME.codec.decode(*GAME.codec.encode(event)) for event in events]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(rules.LEAST, rules.MOST),
    clock=st.booleans(),
    data=st.data(),
)
def test_random_games_play_to_the_end_and_fold_back_from_their_stored_events(
    players: int, clock: bool, data: st.DataObject
) -> None:
    now = NOW
    state, log = State(), []
    state, events = applied(state, Deal(players, 60 if clock else None), now)
    log += events
    expected_scores = [0] * players
    while not state.ended:
        assert state.round is not None
        number = state.round.number
        order = data.draw(st.permutations(list(state.seats)))
        # With a clock, any seats may stay silent; without one, everyone chooses.
        speaking = data.draw(st.integers(0 if clock else players, players))
        picks = {}
        for seat in order[:speaking]:
            picked = data.draw(st.integers(rules.LOWEST, rules.HIGHEST))
            wrong = data.draw(st.sampled_from([None, 0, 11]))
            if wrong is not None:  # a whole choice refused changes nothing
                assert isinstance(rules.decide(state, Choose(seat, number, wrong), now), Refusal)
            state, events = applied(state, Choose(seat, number, picked), now)
            log += events
            picks[seat] = picked
            if not state.ended and state.round.number == number:
                again = rules.decide(state, Choose(seat, number, picked), now)
                assert again == Refusal(
                    "You have already submitted this round: it is final.", Problem.CONFLICT
                )
                check_secrecy(state)
        if speaking < players:
            now += timedelta(seconds=60)
            state, events = applied(state, Expire(state.step_started), now)
            log += events
        reveal = [e for e in events if isinstance(e, NumbersRevealed)]
        assert len(reveal) == 1 and reveal[0].by_seat() == picks
        assert reveal[0].silent == tuple(s for s in state.seats if s not in picks)
        counts = Counter(picks.values())
        unique = [n for n in picks.values() if counts[n] == 1]
        if unique:
            expected_scores[next(s for s, n in picks.items() if n == max(unique)) - 1] += 1
        check_secrecy(state)
        assert rules.fold(stored(log)) == state
    assert state.scores == tuple(expected_scores)
    best = max(expected_scores)
    assert state.winners == tuple(s for s in state.seats if expected_scores[s - 1] == best)
    assert len(state.revealed) == rules.ROUNDS and log[-1] == GameEnded(state.scores, state.winners)
    assert GAME.fold(stored(log)) == state and state.version == len(log)
    # Every event's repr keeps the open numbers out of any log line.
    for event in log:
        if isinstance(event, NumberChosen):
            assert "submission=<hidden>" in repr(event)


def test_importing_the_game_registers_nothing() -> None:
    """Only ``tests.support.highest.fixtures`` puts it on offer, for one test at a time: the
    home page and every other test see the real games alone."""
    from django.conf import settings

    from games import registry

    assert GAME.slug == "highest"
    assert "highest" not in registry._registry
    assert not any("highest" in str(d) for d in settings.TEMPLATES[0]["DIRS"])
