"""Before Dawn only: D1-D6."""

from games.constellate.rules import Crew, Finish, Step, TurnEnd
from tests.support.sky import CLOUDS, COMET, HAZE, before_dawn, name, stop, touch


def test_the_hour_track_starts_at_seven_D1():
    assert before_dawn().hours == 7
    assert before_dawn(3).hours == 7


def test_taking_a_constellation_spends_one_hour_D2():
    assert name(before_dawn()).hours == 6


def test_a_cloud_ends_the_turn_and_spends_an_extra_hour_D3():
    state = touch(name(before_dawn(), number=3), CLOUDS[0])
    assert state.hours == 5
    assert state.constellations[-1].ended_by is TurnEnd.CLOUD
    assert (state.step, state.crew) == (Step.NAMING, Crew.GOLD)


def test_the_comet_ends_the_turn_and_spends_two_extra_hours_lighting_nothing_else_D4():
    state = touch(name(before_dawn(), number=3), COMET)
    assert state.hours == 4
    assert state.lit == {COMET}
    assert state.constellations[-1].comet_lit == ()


def test_dawn_breaks_when_a_turn_ends_at_zero_hours_with_stars_dark_D5():
    state = before_dawn()
    for haze in HAZE[:6]:
        state = touch(name(state, number=1), haze)
    assert state.hours == 1 and not state.ended
    state = name(state, number=2)
    assert state.hours == 0 and not state.ended  # the last constellation is still spotted
    state = touch(state, 0)
    assert not state.ended
    state = touch(state, 1)  # allowance used: the turn ends at zero hours
    assert state.ended and state.winner is None and state.finish is Finish.DAWN


def test_a_cloud_can_bring_the_dawn_D5():
    state = before_dawn()
    for haze in HAZE[:5]:
        state = touch(name(state, number=1), haze)
    state = touch(name(state, number=1), CLOUDS[0])  # 7 - 6 - 1 = 0
    assert state.finish is Finish.DAWN


def test_lighting_the_last_star_wins_even_at_zero_hours_D6():
    state = before_dawn()
    state = stop(touch(touch(touch(name(state, number=4), 0), 1), 2))  # 6 hours, bank
    state = touch(name(state, number=1), COMET)  # 5 - 2 = 3 hours
    state = touch(name(state, number=1), CLOUDS[0])  # 2 - 1 = 1 hour
    state = name(state, number=5)  # 0 hours; the stars 3-7 are still dark
    assert state.hours == 0
    for card in (3, 4, 5, 6):
        state = touch(state, card)
        assert not state.ended
    state = touch(state, 7)
    assert state.ended and state.winner is Crew.GOLD and state.finish is Finish.LAST_STAR


def test_before_dawn_has_one_crew_all_along_D1():
    state = before_dawn(3)
    state = touch(name(state), HAZE[0])
    assert state.crew is Crew.GOLD and state.crews() == (Crew.GOLD,)
