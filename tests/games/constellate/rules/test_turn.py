"""A turn: naming then spotting, touches, the bank. T1-T12."""

import pytest

from games.constellate.rules import (
    CardTouched,
    ConstellationTaken,
    Crew,
    Finish,
    Name,
    NamingStarted,
    Problem,
    SpottingStopped,
    Step,
    TouchCard,
    TurnEnd,
    TurnEnded,
    view_for,
)
from tests.support.sky import (
    FIRST_STARS,
    HAZE,
    SECOND_STARS,
    events_of,
    name,
    play,
    refused,
    rivalry,
    spotter,
    stop,
    touch,
)


def test_a_turn_is_naming_then_spotting_by_the_same_crew_T1():
    state = rivalry()
    assert (state.step, state.crew) == (Step.NAMING, Crew.GOLD)
    state = name(state)
    assert (state.step, state.crew) == (Step.SPOTTING, Crew.GOLD)


def test_the_number_is_from_one_to_the_crews_dark_stars_T2():
    state = rivalry()
    for bad in (0, -1, 9):
        refusal = refused(state, Name(1, "ocean", bad, state.version))
        assert refusal.reason == "Choose a number from 1 to 8."
    state = name(state, number=8)
    assert state.current.count == 8


def test_the_number_shrinks_with_the_stars_left_T2():
    state = touch(touch(name(rivalry(), number=3), 0), 1)
    state = stop(state)  # Gold has 6 dark stars now; Teal names
    state = touch(name(state, number=1), HAZE[0])
    refusal = refused(state, Name(1, "ocean", 7, state.version))
    assert refusal.reason == "Choose a number from 1 to 6."


def test_a_refused_word_gives_its_reason_and_spends_nothing_T3():
    state = rivalry(step_seconds=60)

    def picky(word: str) -> str | None:
        return "MOON is a picture on the table" if word.lower() == "moon" else None

    refusal = refused(state, Name(1, "moon", 2, state.version), check_word=picky)
    assert refusal.problem is Problem.WORD
    assert refusal.reason == "MOON is a picture on the table"
    again = play(state, Name(1, "night", 2, state.version), check_word=picky)
    assert again.current.word == "NIGHT"
    assert again.constellations[0].crew is Crew.GOLD


def test_an_accepted_word_and_number_are_shown_to_everyone_T4():
    state = name(rivalry(), word="ocean", number=2)
    for seat in (1, 2, 3, 4, None):
        current = view_for(state, seat).current
        assert (current.word, current.count) == ("OCEAN", 2)


def test_the_allowance_is_the_number_plus_a_banked_touch_T5():
    state = stop(touch(name(rivalry(), number=3), 0))  # Gold banks one
    assert Crew.GOLD in state.banks
    state = stop(touch(name(state, number=2), SECOND_STARS[0]))  # Teal's turn
    state = name(state, number=2)
    assert state.touches_left == 3 and state.bank_in_play


def test_taking_a_constellation_spends_the_bank_even_unused_T6():
    state = stop(touch(name(rivalry(), number=3), 0))
    state = stop(touch(name(state, number=2), SECOND_STARS[0]))
    state = name(state, number=2)
    assert Crew.GOLD not in state.banks
    state = touch(state, HAZE[0])  # haze ends it; the extra touch went unused
    assert Crew.GOLD not in state.banks


def test_a_crew_holds_at_most_one_banked_touch_T6():
    state = stop(touch(name(rivalry(), number=4), 0))  # three left, only one banked
    assert state.banks == frozenset({Crew.GOLD})
    state = stop(touch(name(state, number=2), SECOND_STARS[0]))
    state = stop(touch(name(state, number=3), 1))  # bank in play: 4 allowed, stop with 3
    assert Crew.GOLD in state.banks
    state = stop(touch(name(state, number=2), SECOND_STARS[1]))
    state = name(state, number=2)  # Gold again: still only one extra touch
    assert state.touches_left == 3


def test_the_first_touch_counts_and_a_stale_touch_is_refused_T7():
    state = name(rivalry(6))
    seen = state.version
    state = play(state, TouchCard(3, 0, seen))
    late = refused(state, TouchCard(5, 1, seen))
    assert late.problem is Problem.CONFLICT
    assert "changed a moment ago" in late.reason
    assert state.lit == {0}


def test_touching_a_lit_card_is_refused_T7():
    state = touch(name(rivalry(), number=3), 0)
    refusal = refused(state, TouchCard(3, 0, state.version))
    assert refusal.reason == "That card is already lit."


def test_any_spotter_of_the_active_crew_may_touch_T7():
    state = name(rivalry(8), number=3)
    state = play(state, TouchCard(5, 0, state.version))
    state = play(state, TouchCard(7, 1, state.version))
    assert [t.seat for t in state.current.touches] == [5, 7]


def test_your_own_star_lights_and_spotting_goes_on_T8():
    state = touch(name(rivalry(), number=2), 0)
    assert state.lit == {0}
    assert (state.step, state.crew, state.touches_left) == (Step.SPOTTING, Crew.GOLD, 1)


def test_lighting_your_last_star_wins_at_once_T8():
    state = rivalry()
    state = touch(touch(touch(touch(name(state, number=4), 0), 1), 2), 3)
    state = touch(name(state, number=1), HAZE[0])  # Teal
    state = name(state, number=4)
    for card in (4, 5, 6):
        state = touch(state, card)
    assert not state.ended
    state = touch(state, 7)
    assert state.ended and state.winner is Crew.GOLD and state.finish is Finish.LAST_STAR


def test_haze_ends_the_turn_and_banks_nothing_T9():
    state = touch(touch(name(rivalry(), number=3), 0), HAZE[0])
    assert (state.step, state.crew) == (Step.NAMING, Crew.TEAL)
    assert state.constellations[-1].ended_by is TurnEnd.HAZE
    assert Crew.GOLD not in state.banks


def test_stopping_after_a_touch_banks_exactly_one_T10():
    events = events_of(touch(name(rivalry(), number=3), 0), _stop_command())
    assert isinstance(events[0], SpottingStopped)
    assert events[1] == TurnEnded(Crew.GOLD, TurnEnd.STOPPED, banked=True, hours_spent=0)
    assert isinstance(events[2], NamingStarted) and events[2].crew is Crew.TEAL


def test_stopping_before_the_first_touch_is_refused_T10():
    state = name(rivalry())
    refusal = refused(state, _stop_command(state))
    assert refusal.reason == "Touch at least one card before you stop."
    assert state.step is Step.SPOTTING


@pytest.mark.parametrize(
    "card,reason",
    [(HAZE[0], TurnEnd.HAZE), (SECOND_STARS[0], TurnEnd.RIVAL_STAR), (15, TurnEnd.COMET)],
    ids=["haze", "rival-star", "comet"],
)
def test_ending_any_other_way_banks_nothing_T11(card, reason):
    state = touch(touch(name(rivalry(), number=3), 0), card)
    assert state.constellations[-1].ended_by is reason
    assert state.banks == frozenset()


def test_using_up_the_allowance_on_a_star_ends_the_turn_banking_nothing_T12():
    state = touch(touch(name(rivalry(), number=2), 0), 1)
    assert state.constellations[-1].ended_by is TurnEnd.ALLOWANCE_USED
    assert (state.step, state.crew, state.banks) == (Step.NAMING, Crew.TEAL, frozenset())


def test_the_events_of_a_touch_say_what_happened_T8_T12():
    events = events_of(touch(name(rivalry(), number=2), 0), _touch_command(1))
    assert events[0] == CardTouched(seat=3, card=1)
    assert events[1].reason is TurnEnd.ALLOWANCE_USED and not events[1].banked


def test_naming_records_the_constellation_T4():
    events = events_of(rivalry(), Name(1, "Ocean", 3, 1))
    assert events == [ConstellationTaken(Crew.GOLD, 1, "OCEAN", 3, 3, deadline=None)]
    assert FIRST_STARS  # the sky's stars are cards 0-7


def _stop_command(state=None):
    from games.constellate.rules import Stop

    state = state or touch(name(rivalry(), number=3), 0)
    return Stop(spotter(state), state.version)


def _touch_command(card):
    state = touch(name(rivalry(), number=2), 0)
    return TouchCard(spotter(state), card, state.version)
