"""Constellate's rules page, in players' words (/rules/constellate/): both modes, the key's
kinds with their shapes, the word and the clock; linked from the home page's game card, the
room and the board. And the small things of the board: the QWERTY letter keys, a word's
length said by the server (W1) rather than the browser's "requested format", and "Invite
friends" folded while a game runs."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games.constellate.presenters import KEY_LABELS, KEY_SYMBOLS
from tests.web.rooms import notice, page, seat_table

pytestmark = pytest.mark.django_db

RULES = "/rules/constellate/"


def words(text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def test_it_explains_both_modes_the_key_and_the_clock_S2_S3_K2_K3_C1_C4():
    response = Client().get(RULES)
    assert response.status_code == 200
    text = words(response.content.decode())
    assert "Constellate: how to play" in text
    assert "Rivalry (4 to 8 players)" in text and "Before Dawn (2 or 3 players)" in text
    for key, symbol in KEY_SYMBOLS.items():  # every kind, with its shape
        assert f"{symbol} {KEY_LABELS[key]}" in text, key
    assert "ends the turn and lights two of the other crew's dark stars" in text  # V2
    assert "ends the turn and costs an extra hour" in text  # D3
    assert "off, 60, 90 or 120 seconds" in text  # C1
    assert "two of its own turns in a row forfeits" in text  # C4
    assert "2 to 10 letters, A to Z" in text  # W1


def test_the_home_page_room_and_board_link_to_it():
    assert f'href="{RULES}"' in Client().get("/").content.decode()
    table = seat_table(2)
    for client in (table.host, table.spectator):
        assert page(client, table.room).count(f'href="{RULES}"') == 2  # the room's, the board's
    waiting = seat_table(2, start=False)
    assert page(waiting.host, waiting.room).count(f'href="{RULES}"') == 1  # no board yet


def test_the_letter_keys_are_laid_out_qwerty_T2():
    table = seat_table(2)
    gazer = page(table.seats[table.stargazer()], table.room)
    letters = "".join(re.findall(r'data-letter="([A-Z])"', gazer))
    assert letters == "QWERTYUIOPASDFGHJKLZXCVBNM"
    assert 'maxlength="10"' in gazer and 'id="word-hint"' in gazer


def test_a_one_letter_word_is_answered_by_the_rules_not_the_browser_W1():
    table = seat_table(2)
    gazer = page(table.seats[table.stargazer()], table.room)
    field = re.search(r'<input id="word"[^>]*>', gazer, re.S)
    assert field and "pattern=" not in field.group(0)  # no "Please match the requested format"
    response = table.name(word="a")
    assert response.status_code == 422
    assert notice(response) == "A is too short: use 2 to 10 letters."


def test_invite_friends_is_folded_while_a_game_runs():
    waiting = seat_table(2, start=False)
    assert re.search(r'<details id="share" class="share"\s+open>', page(waiting.host, waiting.room))
    running = seat_table(2)
    assert re.search(r'<details id="share" class="share"\s*>', page(running.host, running.room))
