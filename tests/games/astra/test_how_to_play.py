"""Astra's rules page (/rules/astra/): written for players, every number read from the
rules' data, linked from the room and listed on the home page."""

from __future__ import annotations

import pytest
from django.test import Client

from games.astra.rules.boards import ABOVE_GAME_END, POUCH_SPOTS, SPOT_VALUES, STARTING_STARDUST
from games.astra.rules.cards import CARDS
from tests.support.howto import rules_page, seated_host, words
from tests.web.rooms import page

pytestmark = pytest.mark.django_db


def test_s2_s4_j3_f4_the_page_states_the_game_s_own_numbers():
    """S2, S4, J3, F4: the starting Stardust, the Pouch track, the Game End card's place per
    player count and the Final Scoring row values on the page are the rules' data."""
    text = words(rules_page("/rules/astra/"))
    assert f"You start with {STARTING_STARDUST} Stardust, a Pouch of {POUCH_SPOTS[0]}" in text
    assert "The Pouch track goes " + ", ".join(map(str, POUCH_SPOTS)) in text
    for players, above in ABOVE_GAME_END.items():
        assert f"{above} cards with {players} players" in text
    assert ", ".join(map(str, SPOT_VALUES)) + " for 1 to 9 marks" in text


def test_c1_c48_every_ability_is_listed_with_its_card():
    """C1-C48: the page's table names every card with its Element and what its Ability does."""
    text = words(rules_page("/rules/astra/"))
    for card in CARDS:
        assert card.name in text, card.name
    assert "Star Burst: mark a star and all its neighbours" in text
    assert "Windfall: gain 4 Stardust" in text


def test_u2_the_room_and_the_home_page_lead_to_the_rules():
    """U2: a room of Astra links its rules page; the home page offers the game with its
    one-line description."""
    host, room = seated_host("astra")
    assert 'href="/rules/astra/"' in page(host, room)
    home = Client().get("/").content.decode()
    assert "Astra" in home and "trace the 48 constellations" in home
