"""Seats, crews and roles: S1-S5."""

import pytest

from games.constellate.rules import Crew, Deal, Mode, Name, State, TouchCard, seat_of
from tests.support.sky import SKY, before_dawn, dawn_key, refused, rivalry, rivalry_key


@pytest.mark.parametrize("players", [0, 1, 9, 12])
def test_it_refuses_a_deal_outside_two_to_eight_players_S1(players):
    refusal = refused(State(), Deal(players, SKY, rivalry_key(), Crew.GOLD))
    assert "2 to 8 players" in refusal.reason


@pytest.mark.parametrize("players", range(4, 9))
def test_it_makes_odd_seats_gold_and_even_seats_teal_in_a_rivalry_S2(players):
    state = rivalry(players)
    assert state.mode is Mode.RIVALRY
    for number in range(1, players + 1):
        seat = state.seat(number)
        assert seat.crew is (Crew.GOLD if number % 2 else Crew.TEAL)
        assert seat.stargazer is (number in (1, 2))
    assert state.seat(players + 1) is None


@pytest.mark.parametrize("players", [2, 3])
def test_it_plays_before_dawn_with_seat_one_as_stargazer_S3(players):
    state = before_dawn(players)
    assert state.mode is Mode.BEFORE_DAWN
    assert state.seat(1).stargazer
    assert all(not state.seat(n).stargazer for n in range(2, players + 1))
    assert {state.seat(n).crew for n in range(1, players + 1)} == {Crew.GOLD}


def test_it_never_lets_a_stargazer_touch_S4():
    state = rivalry()
    state = state if state.step.value == "spotting" else _named(state)
    refusal = refused(state, TouchCard(seat=1, card=0, version=state.version))
    assert "Stargazer never touches" in refusal.reason
    assert 0 not in state.lit


def test_it_lets_only_the_active_crews_spotters_touch_S4():
    state = _named(rivalry(6))
    for teal_spotter in (4, 6):
        refusal = refused(state, TouchCard(seat=teal_spotter, card=0, version=state.version))
        assert "Gold's crew's turn" in refusal.reason


def test_it_lets_only_a_stargazer_name_S4():
    state = rivalry()
    refusal = refused(state, Name(seat=3, word="ocean", number=1, version=state.version))
    assert "Only a Stargazer" in refusal.reason


@pytest.mark.parametrize("first", [Crew.GOLD, Crew.TEAL])
def test_the_drawn_first_crew_starts_with_eight_stars_the_other_seven_S5(first):
    state = rivalry(first=first)
    assert state.first_crew is first and state.crew is first
    assert len(state.stars(first)) == 8
    assert len(state.stars(first.rival)) == 7


def test_before_dawn_cannot_start_with_teal_S5():
    refusal = refused(State(), Deal(2, SKY, dawn_key(), Crew.TEAL))
    assert "one crew" in refusal.reason


def test_seat_of_is_the_same_rule_for_the_lobby_S2_S3():
    assert seat_of(5, 5).crew is Crew.GOLD and not seat_of(5, 5).stargazer
    assert seat_of(3, 3).crew is Crew.GOLD and seat_of(3, 3).role == "Spotter"
    assert seat_of(8, 2).role == "Stargazer"


def _named(state):
    from tests.support.sky import name

    return name(state)
