"""The clock as the rules see it: C2-C6 (C1's lengths are the lobby's choice)."""

from datetime import timedelta

from games.constellate.rules import (
    Crew,
    Expire,
    Finish,
    Name,
    Problem,
    Step,
    TouchCard,
    TurnEnd,
    due_expiry,
)
from tests.support.sky import (
    HAZE,
    NOW,
    before_dawn,
    expire,
    name,
    play,
    refused,
    rivalry,
    touch,
)


def test_every_step_carries_its_deadline_C1():
    state = rivalry(step_seconds=60)
    assert state.deadline == NOW + timedelta(seconds=60)
    later = NOW + timedelta(seconds=20)
    state = name(state, now=later)
    assert state.deadline == later + timedelta(seconds=60)


def test_a_missed_naming_passes_the_turn_C2():
    state = expire(rivalry(step_seconds=60))
    assert (state.step, state.crew) == (Step.NAMING, Crew.TEAL)
    assert state.constellations == ()


def test_a_missed_naming_still_spends_the_hour_in_before_dawn_C2():
    state = expire(before_dawn(step_seconds=60))
    assert state.hours == 6 and state.crew is Crew.GOLD and state.step is Step.NAMING


def test_a_missed_naming_can_bring_the_dawn_C2_D5():
    state = before_dawn(step_seconds=60)
    for _ in range(6):
        state = expire(state)
    assert state.hours == 1 and not state.ended
    state = expire(state)
    assert state.finish is Finish.DAWN


def test_spotting_that_runs_out_ends_the_turn_banking_nothing_C3():
    state = touch(name(rivalry(step_seconds=60), number=3), 0)
    state = expire(state)
    assert state.constellations[-1].ended_by is TurnEnd.SPOTTING_EXPIRED
    assert state.banks == frozenset() and state.crew is Crew.TEAL


def test_spotting_that_runs_out_without_a_touch_banks_nothing_C3():
    state = expire(name(rivalry(step_seconds=60)))
    assert state.banks == frozenset() and state.crew is Crew.TEAL


def test_two_missed_namings_in_a_row_forfeit_the_game_C4():
    state = rivalry(step_seconds=60)
    state = expire(state)  # Gold misses
    state = touch(name(state, number=1), HAZE[0])  # Teal plays
    state = expire(state)  # Gold misses again
    assert state.ended and state.winner is Crew.TEAL and state.finish is Finish.FORFEIT


def test_an_accepted_constellation_clears_the_count_C4():
    state = rivalry(step_seconds=60)
    state = expire(state)  # Gold misses
    state = touch(name(state, number=1), HAZE[0])  # Teal
    state = touch(name(state, number=1), HAZE[1])  # Gold names: count cleared
    state = touch(name(state, number=1), HAZE[2])  # Teal
    state = expire(state)  # Gold misses once
    assert not state.ended and state.crew is Crew.TEAL


def test_the_rivals_missed_naming_does_not_count_against_us_C4():
    state = rivalry(step_seconds=60)
    state = expire(state)  # Gold misses
    state = expire(state)  # Teal misses
    assert not state.ended and state.crew is Crew.GOLD


def test_before_dawn_has_no_forfeit_C5():
    state = before_dawn(step_seconds=60)
    state = expire(expire(expire(state)))
    assert not state.ended and state.hours == 4


def test_an_action_after_the_deadline_is_refused_C6():
    state = rivalry(step_seconds=60)
    late = state.deadline + timedelta(milliseconds=1)
    refusal = refused(state, Name(1, "ocean", 2, state.version), now=late)
    assert refusal.reason == "Time is up for this step." and refusal.problem is Problem.CONFLICT


def test_the_expiry_is_applied_first_when_a_late_action_arrives_C6():
    state = name(rivalry(step_seconds=60))
    late = state.deadline + timedelta(seconds=5)
    expired = due_expiry(state, late)
    state = play(state, Expire(state.step_started), late)
    assert expired and state.crew is Crew.TEAL
    refused(state, TouchCard(3, 0, state.version - 2), now=late)


def test_no_expiry_is_due_before_the_deadline_or_without_a_clock_C6():
    state = rivalry(step_seconds=60)
    assert due_expiry(state, state.deadline - timedelta(milliseconds=1)) == []
    assert due_expiry(rivalry(), NOW + timedelta(days=1)) == []


def test_an_expiry_for_a_step_that_is_over_does_nothing_C2():
    state = rivalry(step_seconds=60)
    old_step = state.step_started
    state = name(state)
    refusal = refused(state, Expire(old_step), now=state.deadline + timedelta(seconds=1))
    assert refusal.reason == "That step is already over."


def test_an_early_expiry_changes_nothing_C6():
    state = rivalry(step_seconds=60)
    refusal = refused(state, Expire(state.step_started), now=NOW + timedelta(seconds=59))
    assert refusal.reason == "This step still has time."
