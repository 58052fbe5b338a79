"""Whole games through the Django test client: create, share, join, seat, start, name,
touch, stop, win or dawn, rematch (S1-S3, T*, V*, D*, E*)."""

from __future__ import annotations

import re
from unittest import mock

import pytest
import segno
from django.test import Client

from games.constellate.rules import STAR_OF, Finish, Key, Step, TurnEnd
from lobby import views
from lobby.models import Match
from tests.web.rooms import (
    REFUSED_WORD,
    create_room,
    events,
    join,
    notice,
    page,
    post,
    seat_table,
    sit,
)

pytestmark = pytest.mark.django_db


def test_create_room_shows_an_unguessable_link_and_a_qr_code():
    host = Client()
    assert "Create a room" in host.get("/").content.decode()
    room = create_room(host)
    assert len(room.code.replace("-", "")) >= 14  # 16 letters of 31: 79 bits
    html = page(host, room)
    assert f"http://testserver/r/{room.code}/" in html
    assert "<svg" in html and 'aria-label="QR code of the room link"' in html
    assert host.session["identity"] == room.host


def test_each_room_shows_the_qr_code_of_its_own_link_drawn_once_for_every_reload():
    """A QR code takes segno as long to draw as the rest of the page: a reload, a guest's
    first visit or a reconnecting phone shows the one drawn for the room's link before."""
    views.qr_code.cache_clear()
    host = Client()
    first, second = create_room(host), create_room(host)
    with mock.patch.object(segno, "make", wraps=segno.make) as drawn:
        pages = [page(host, first), page(Client(), first), page(host, second)]
    assert [call.args[0] for call in drawn.call_args_list] == [
        f"http://testserver/r/{first.code}/",
        f"http://testserver/r/{second.code}/",
    ]
    codes = [re.search(r"<svg.*?</svg>", html, re.S).group(0) for html in pages]
    assert codes[0] == codes[1] != codes[2]
    assert codes[0] == views.qr_code(f"http://testserver/r/{first.code}/")


def test_the_same_browser_gets_its_seat_back_on_reload():
    table = seat_table(2, start=False)
    html = page(table.seats[2], table.room)
    assert "in seat 2" in html and "Bo" in html


def test_start_is_refused_with_a_reason_until_seats_1_to_n_are_filled():
    """S1: 2 to 8 players seated 1..N with no gaps; only the host starts."""
    host, guest, third = Client(), Client(), Client()
    room = create_room(host)
    join(host, room, "Ada")
    sit(host, room, 1)
    assert "Two or more players must sit down." in page(host, room)
    response = post(host, room, "start")
    assert response.status_code == 409
    assert notice(response) == "Two or more players must sit down."

    join(guest, room, "Bo")
    sit(guest, room, 3)
    response = post(host, room, "start")
    assert response.status_code == 409
    assert "seat 2 is empty" in notice(response)
    assert "seat 2 is empty" in page(host, room)  # the disabled Start button says why

    sit(guest, room, 2)
    join(third, room, "Cy")
    response = post(third, room, "start")
    assert response.status_code == 403
    assert notice(response) == "Only the host can do that."
    room.refresh_from_db()
    assert room.game_id is None

    response = post(host, room, "start")
    assert response.status_code == 200
    room.refresh_from_db()
    assert room.game_id is not None


def test_seat_labels_follow_the_player_count():
    """S2/S3: seats show crew and role for the current count."""
    table = seat_table(2, start=False)
    html = page(table.host, table.room)
    assert "Before Dawn" in html and "Stargazer" in html
    for n in (3, 4):
        client = Client()
        join(client, table.room, f"P{n}")
        sit(client, table.room, n)
    html = page(table.host, table.room)
    assert "Rivalry" in html and "Gold Stargazer" in html and "Teal Spotter" in html


def test_rivalry_flow_name_touch_stop_comet_haze_win_and_rematch():
    """S2, T2-T11, V1, V2, T8, E1, E2 and the rematch, through the browser's own posts."""
    table = seat_table(4)
    first = table.state()
    assert first.players == 4 and first.step is Step.NAMING
    crew = first.crew
    match = Match.objects.get(game_id=table.room.game_id)
    assert match.seats == {"1": "Ada", "2": "Bo", "3": "Cy", "4": "Di"}
    html = page(table.seats[table.stargazer()], table.room)
    assert 'class="naming"' in html
    assert 'class="naming"' not in page(table.seats[table.spotter()], table.room)

    # T3: a refused word is answered 422 with its reason, to the Stargazer only.
    before = events()
    response = table.name(word=REFUSED_WORD)
    assert response.status_code == 422
    reason = notice(response)
    assert reason
    assert events() == before
    for client in [*table.seats.values(), table.spectator]:
        assert reason not in page(client, table.room)

    # T4: accepted; everyone sees the word.
    word = table.word()
    response = table.name(number=2, word=word)
    assert response.status_code == 200, response.content
    assert table.state().step is Step.SPOTTING
    for client in [*table.seats.values(), table.spectator]:
        assert word.upper() in page(client, table.room)

    # T8: own star lights, spotting goes on; T10: stop with a touch left banks one.
    own = table.dark_own()[0]
    response = table.touch(own)
    assert response.status_code == 200
    state = table.state()
    assert own in state.lit and state.step is Step.SPOTTING and state.touches_left == 1
    assert 'class="stop"' in response.content.decode()
    response = table.stop()
    assert response.status_code == 200
    state = table.state()
    assert crew in state.banks and state.crew is crew.rival
    assert state.constellations[-1].ended_by is TurnEnd.STOPPED

    # V1: the rival crew touches one of the first crew's stars: lit for them, turn over.
    assert table.name(number=1).status_code == 200
    gift = table.dark_rival()[0]
    assert table.touch(gift).status_code == 200
    state = table.state()
    assert gift in state.lit and state.crew is crew
    assert state.constellations[-1].ended_by is TurnEnd.RIVAL_STAR

    # T5/T6: the bank adds a touch and is spent; haze ends the turn (T9).
    assert table.name(number=1).status_code == 200
    state = table.state()
    assert state.touches_left == 2 and state.bank_in_play
    assert "banked touch in play" in page(table.spectator, table.room)
    assert table.touch(table.dark(Key.HAZE)[0]).status_code == 200
    state = table.state()
    assert crew not in state.banks and state.crew is crew.rival
    assert state.constellations[-1].ended_by is TurnEnd.HAZE

    # V2: the comet lights two of the other crew's dark stars.
    dark_before = len(state.dark_stars(crew))
    assert table.name(number=1).status_code == 200
    assert table.touch(table.dark(Key.COMET)[0]).status_code == 200
    state = table.state()
    assert len(state.dark_stars(crew)) == dark_before - 2
    assert len(state.constellations[-1].comet_lit) == 2
    assert "the comet lit" in page(table.spectator, table.room)

    # T8/E1: the first crew names all its dark stars and lights them: it wins at once.
    left = table.dark_own()
    assert table.name(number=len(left)).status_code == 200
    for card in left:
        assert table.touch(card).status_code == 200
    state = table.state()
    assert state.ended and state.winner is crew and state.finish is Finish.LAST_STAR
    # E2: the result and the whole sky, for everyone.
    spectator_page = page(table.spectator, table.room)
    assert f"{crew.display} wins!" in spectator_page
    assert spectator_page.count("key-") >= 24
    assert "Rematch" in page(table.host, table.room)

    # Rematch: same seats, a new sky.
    old_game, old_sky = table.room.game_id, state.sky
    assert table.start().status_code == 200
    assert table.room.game_id != old_game
    state = table.state()
    assert state.step is Step.NAMING and state.sky != old_sky
    rematch = Match.objects.get(game_id=table.room.game_id)
    assert rematch.number == 2 and rematch.seats == match.seats


def test_rematch_is_refused_while_the_game_is_on():
    table = seat_table(2)
    response = table.start()
    assert response.status_code == 409
    assert notice(response) == "A game is already on."


def test_before_dawn_flow_cloud_comet_haze_until_dawn():
    """S3, D1-D5: one crew against the hour track."""
    table = seat_table(2)
    state = table.state()
    assert state.hours == 7 and table.stargazer() == 1 and table.spotter() == 2
    assert "Hours left" in page(table.spectator, table.room)

    assert table.name().status_code == 200  # D2
    assert table.touch(table.dark(Key.CLOUD)[0]).status_code == 200  # D3
    state = table.state()
    assert state.hours == 5 and state.constellations[-1].ended_by is TurnEnd.CLOUD

    assert table.name().status_code == 200
    assert table.touch(table.dark(Key.COMET)[0]).status_code == 200  # D4
    assert table.state().hours == 2

    assert table.name().status_code == 200
    assert table.touch(table.dark(Key.HAZE)[0]).status_code == 200
    assert table.state().hours == 1
    assert not table.state().ended

    assert table.name().status_code == 200
    assert table.touch(table.dark(Key.HAZE)[0]).status_code == 200
    state = table.state()
    assert state.ended and state.finish is Finish.DAWN  # D5
    for client in [*table.seats.values(), table.spectator]:
        assert "Dawn broke" in page(client, table.room)


def test_before_dawn_three_players_win_with_the_bank():
    """S3 with 3 players, T10 stop with bank, T8 win, then a rematch with the same seats."""
    table = seat_table(3)
    assert table.name(number=2).status_code == 200
    stars = table.dark(STAR_OF[table.state().crew])
    assert table.touch(stars[0], seat=3).status_code == 200  # any Spotter may touch (T7)
    assert table.stop(seat=2).status_code == 200
    assert table.state().banks
    left = table.dark_own()
    assert table.name(number=len(left)).status_code == 200
    assert table.state().touches_left == len(left) + 1
    for card in left:
        assert table.touch(card).status_code == 200
    state = table.state()
    assert state.ended and state.finish is Finish.LAST_STAR
    assert "the crew wins" in page(table.seats[2], table.room)
    assert table.start().status_code == 200
    assert Match.objects.get(game_id=table.room.game_id).seats == {
        "1": "Ada",
        "2": "Bo",
        "3": "Cy",
    }
