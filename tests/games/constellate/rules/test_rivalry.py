"""Rivalry only: V1-V3."""

from games.constellate.rules import CometLit, Crew, Finish, Step, TouchCard, TurnEnd
from tests.support.sky import COMET, HAZE, SECOND_STARS, events_of, name, rivalry, stop, touch


def test_touching_the_rival_crews_star_lights_it_for_them_and_ends_the_turn_V1():
    state = touch(name(rivalry(), number=3), SECOND_STARS[0])
    assert SECOND_STARS[0] in state.lit
    assert state.dark_stars(Crew.TEAL) == list(SECOND_STARS[1:])
    assert (state.step, state.crew) == (Step.NAMING, Crew.TEAL)
    assert state.constellations[-1].ended_by is TurnEnd.RIVAL_STAR


def test_touching_the_rivals_last_star_makes_them_win_V1():
    state = rivalry()
    for turn, card in enumerate(SECOND_STARS[:6]):  # Gold lights six of Teal's stars
        state = touch(name(state, number=1), card)
        state = touch(name(state, number=1), HAZE[turn])  # Teal touches haze
    state = touch(name(state, number=1), SECOND_STARS[6])
    assert state.ended and state.winner is Crew.TEAL and state.finish is Finish.GIFTED_STAR


def test_the_comet_ends_the_turn_and_lights_two_rival_stars_drawn_by_the_server_V2():
    state = name(rivalry(), number=2)
    order = (20, 12, 3, 9, *range(24))
    events = events_of(state, TouchCard(3, COMET, state.version, comet_order=order))
    assert CometLit(crew=Crew.TEAL, cards=(12, 9)) in events
    state = touch(state, COMET, comet_order=order)
    assert {12, 9, COMET} <= state.lit
    assert (state.step, state.crew) == (Step.NAMING, Crew.TEAL)
    assert state.constellations[-1].comet_lit == (12, 9)


def test_the_comet_lights_the_one_star_left_and_that_wins_for_them_V2():
    state = rivalry()
    for turn, card in enumerate(SECOND_STARS[:6]):
        state = touch(name(state, number=1), card)  # Gold lights a Teal star
        state = touch(name(state, number=1), HAZE[turn])
    state = touch(name(state, number=1), COMET, comet_order=tuple(range(24)))
    assert state.constellations[-1].comet_lit == (SECOND_STARS[6],)
    assert state.ended and state.winner is Crew.TEAL and state.finish is Finish.COMET


def test_the_comet_can_win_the_game_for_the_rivals_with_two_left_V2():
    state = rivalry()
    for turn, card in enumerate(SECOND_STARS[:5]):
        state = touch(name(state, number=1), card)
        state = touch(name(state, number=1), HAZE[turn])
    state = touch(name(state, number=1), COMET)
    assert state.winner is Crew.TEAL and state.finish is Finish.COMET


def test_turns_alternate_between_the_crews_V3():
    state = rivalry(first=Crew.TEAL)
    crews = []
    for _ in range(4):
        crews.append(state.crew)
        state = stop(touch(name(state, number=2), state.dark_stars(state.crew)[0]))
    assert crews == [Crew.TEAL, Crew.GOLD, Crew.TEAL, Crew.GOLD]
