"""The sky and who sees it: K1-K4 (K5 is proven where HTML is rendered)."""

from collections import Counter

import pytest

from games.constellate.rules import Crew, Deal, Key, State, view_for
from tests.support.sky import (
    COMET,
    SKY,
    before_dawn,
    dawn_key,
    name,
    refused,
    rivalry,
    rivalry_key,
    touch,
)


def test_a_sky_is_twenty_four_different_pictures_K1():
    assert len(rivalry().sky) == 24
    too_few = refused(State(), Deal(4, SKY[:23], rivalry_key()[:23], Crew.GOLD))
    assert "24 different pictures" in too_few.reason
    repeated = refused(State(), Deal(4, (SKY[0],) * 2 + SKY[2:], rivalry_key(), Crew.GOLD))
    assert "24 different pictures" in repeated.reason


def test_a_rivalry_key_has_eight_seven_one_comet_eight_haze_K2():
    counts = Counter(rivalry(first=Crew.TEAL).key)
    assert counts == {Key.TEAL: 8, Key.GOLD: 7, Key.COMET: 1, Key.HAZE: 8}


def test_a_before_dawn_key_has_eight_stars_seven_clouds_eight_haze_one_comet_K3():
    counts = Counter(before_dawn().key)
    assert counts == {Key.GOLD: 8, Key.CLOUD: 7, Key.HAZE: 8, Key.COMET: 1}


@pytest.mark.parametrize(
    "players,key",
    [(4, dawn_key()), (2, rivalry_key())],
    ids=["rivalry-with-clouds", "dawn-with-teal"],
)
def test_it_refuses_a_key_with_the_wrong_counts_K2_K3(players, key):
    assert "counts" in refused(State(), Deal(players, SKY, key, Crew.GOLD)).reason


def test_only_stargazers_see_the_key_of_dark_cards_K4():
    state = rivalry(6)
    for seat in (1, 2):
        assert all(card.key is not None for card in view_for(state, seat).cards)
    for seat in (3, 4, 5, 6, None):
        view = view_for(state, seat)
        assert not view.sees_key
        assert all(card.key is None for card in view.cards)


def test_everyone_sees_a_card_once_it_is_touched_or_lit_by_the_comet_K4():
    state = touch(name(rivalry()), COMET, comet_order=tuple(range(24)))
    view = view_for(state, 3)
    shown = {card.index: card.key for card in view.cards if card.key is not None}
    assert shown == {COMET: Key.COMET, 8: Key.TEAL, 9: Key.TEAL}


def test_at_the_end_the_whole_key_is_shown_to_everyone_K4():
    state = before_dawn()
    for haze in range(16, 23):
        state = touch(name(state, number=1), haze)
    assert state.ended
    for seat in (1, 2, None):
        assert all(card.key is not None for card in view_for(state, seat).cards)
