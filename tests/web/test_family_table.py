"""A family table, through the Django test client: the host chooses it in the lobby, the
deal stores it, and the Stargazer's rude word is refused (W3 at a family table, T3) while
the same word is taken at an open table."""

from __future__ import annotations

from html import unescape

import pytest

from games.constellate.clues import FAMILY_BLOCKED
from games.models import Event
from tests.web.rooms import Table, events, notice, page, post, seat_table

pytestmark = pytest.mark.django_db

RUDE = "crap"  # rated 2 ("likely profane") by cuss; no slur, so an open table takes it
OPEN_TEXT = (
    "An open table: rude words are allowed, but never slurs or the moderators' blocked words."
)
FAMILY_TEXT = "A family table: rude words are refused too."


def _family_room() -> Table:
    table = seat_table(4, start=False)
    response = post(table.host, table.room, "options", table="family")
    assert response.status_code == 200, response.content[:300]
    return table


def test_a_room_is_an_open_table_until_the_host_chooses_otherwise_W3():
    table = seat_table(4, start=False)
    assert table.refresh().options == {"table": "open"}
    assert 'name="table" value="open" checked' in page(table.host, table.room)
    assert OPEN_TEXT in unescape(page(table.seats[2], table.room))


def test_the_host_chooses_a_family_table_and_everyone_is_told_W3():
    table = _family_room()
    assert table.refresh().options == {"table": "family"}
    host_page = page(table.host, table.room)
    assert 'name="table" value="family" checked' in host_page
    guest_page = unescape(page(table.seats[2], table.room))
    assert 'name="table"' not in guest_page  # only the host's form has the choice
    assert FAMILY_TEXT in guest_page


def test_a_family_tables_stargazer_is_refused_a_rude_word_and_nothing_is_stored_W3_T3():
    table = _family_room()
    assert table.start().status_code == 200
    assert table.state().family is True
    dealt = Event.objects.get(game_id=table.room.game_id, seq=1)
    assert (dealt.kind, dealt.schema, dealt.payload["family"]) == ("SkyDealt", 2, True)
    before = events()
    response = table.name(word=RUDE)
    assert response.status_code == 422
    assert notice(response) == FAMILY_BLOCKED
    assert 'id="board"' not in response.content.decode()  # T3: the word stays in place
    assert events() == before
    assert table.name(word=table.word()).status_code == 200  # the turn was not spent


def test_an_open_tables_stargazer_may_give_the_same_word_W3():
    table = seat_table(4)
    assert table.state().family is False
    before = events()
    response = table.name(word=RUDE)
    assert response.status_code == 200, notice(response)
    assert events() > before
    assert table.state().constellations[-1].word == RUDE.upper()


def test_only_an_open_or_a_family_table_may_be_chosen_and_only_between_games_W3():
    table = seat_table(4, start=False)
    response = post(table.host, table.room, "options", table="strict")
    assert response.status_code == 400
    assert "open table or a family table" in notice(response)
    response = post(table.seats[2], table.room, "options", table="family")
    assert response.status_code == 403 and "Only the host" in notice(response)
    assert table.refresh().options == {"table": "open"}
    table.start()
    response = post(table.host, table.room, "options", table="family")
    assert response.status_code == 409 and "between games" in notice(response)
    assert table.state().family is False
