"""Look at the Stars' rules page, in players' words (/rules/lookatthestars/): a round, drawing,
shooting stars, sunrise, constellations, planets, the ten point cards and the nine power cards
(each drawn by the board's own card picture, named as ``rules.cards`` names it), the end with
worked example X1, and the computer player; linked from the home page, the room and the
board."""

from __future__ import annotations

import pytest
from django.test import Client

from games.lookatthestars.how_to_play import x1_board
from games.lookatthestars.rules import cards
from games.lookatthestars.rules.board import Power
from games.lookatthestars.rules.scoring import score
from tests.support.howto import rules_page, seated_host, words
from tests.web.rooms import join, page, post, sit

pytestmark = pytest.mark.django_db

RULES = "/rules/lookatthestars/"


def test_it_renders_and_explains_a_round_drawing_sunrise_and_scoring():
    text = words(rules_page(RULES))
    assert "Look at the Stars: how to play" in text
    for heading in (
        "A round",
        "Your board",
        "Drawing",
        "Shooting stars",
        "Sunrise",
        "Constellations",
        "Planets",
        "The point card",
        "The power card",
        "The end and scoring",
        "The computer player",
    ):
        assert heading in text, heading
    assert "everyone draws its shape at the same time" in text  # R3
    assert "Confirm sends your drawing. It is final" in text  # R6
    assert "60, 90 or 120 seconds" in text  # T1
    assert "everyone still drawing passes" in text  # T3
    assert "Turning is allowed, mirroring never" in text  # L7
    assert "Place shape" in text and "Turn ↻" in text and "Use this" in text  # U4
    assert "1 to 3 diagonal lines" in text and "1 point per line" in text  # SS1, SS5
    assert "rows 1–2" in text and "rows 1–4" in text  # R4
    assert "3 to 8 lines" in text and "3 + 4 + 5 + 6 + 7 + 8 = 33" in text  # C3, C5
    assert "1 point per constellation next to it" in text  # E3
    assert "taps Computer on a free seat" in text


def test_it_lists_the_ten_point_cards_and_the_nine_powers_with_their_pictures_D4_D5():
    body = rules_page(RULES)
    text = words(body)
    for card in cards.POINT_CARDS.values():
        assert f"{card.name} ({card.id})" in text, card.id
        assert card.text in text, card.id
    for power in Power:
        power_card = cards.POWER_CARDS[power]
        assert power_card.name in text, power
        assert power_card.effect in text, power
    # Each drawn on its 4 x 4 grid by the board's card picture, named by its lines.
    for card in cards.POINT_CARDS.values():
        assert f'role="img" aria-label="{card.name} ({card.id}): lines ' in body, card.id
    for power in Power:
        assert f'role="img" aria-label="{cards.POWER_CARDS[power].name}: lines ' in body, power


def test_its_example_is_worked_example_x1_scored_as_the_game_scores_it():
    sheet = score(x1_board(), cards.POINT_CARDS[cards.BEGINNER_POINT].lines)
    assert (sheet.constellations, sheet.planets, sheet.shooting_stars, sheet.total) == (7, 2, 2, 11)
    text = words(rules_page(RULES))
    assert "Constellations 7 (sizes 3, 4)" in text
    assert "Total 11" in text
    assert "9 lines from b9: not a constellation" in text  # the board's own note


def test_the_home_page_the_room_and_the_board_link_to_it():
    assert f'href="{RULES}"' in Client().get("/").content.decode()
    host, room = seated_host("lookatthestars")
    assert page(host, room).count(f'href="{RULES}"') == 1  # the room's: no board yet
    guest = Client()
    assert join(guest, room, "Bo").status_code == 200
    assert sit(guest, room, 2).status_code == 200
    assert post(host, room, "start").status_code == 200
    for client in (host, guest):
        shown = page(client, room)
        assert shown.count(f'href="{RULES}"') == 2  # the room's, and the card panel's
        assert "How to play Look at the Stars" in words(shown)
