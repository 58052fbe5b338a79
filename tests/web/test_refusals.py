"""Every refusal: 403/409/4xx with a message, never a 500, and nothing appended
(S4, T2, T7, T10, W1, S1 and the lobby's forms)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.constellate.rules import STALE, Key, Step
from lobby.models import Player, Room
from tests.web.rooms import Table, create_room, events, join, notice, post, seat_table, sit

pytestmark = pytest.mark.django_db


def refused(response, status: int | tuple[int, ...]) -> str:
    """The response is a refusal with this status and a message a person can read."""
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    message = notice(response)
    assert message
    return message


@pytest.fixture
def naming() -> Table:
    """A Rivalry of 4, the first crew naming."""
    return seat_table(4)


@pytest.fixture
def spotting(naming: Table) -> Table:
    """The first crew spotting for a word of 2, nothing touched yet."""
    assert naming.name(number=2).status_code == 200
    return naming


# -- whose action it is (S4) -----------------------------------------------------------


def test_a_spotter_cannot_name(naming):
    before = events()
    assert "Only a Stargazer" in refused(naming.name(seat=naming.spotter()), 403)
    assert events() == before


def test_the_other_crews_stargazer_cannot_name(naming):
    rival = naming.stargazer(naming.state().crew.rival)
    before = events()
    assert "turn" in refused(naming.name(seat=rival), 403)
    assert events() == before


def test_a_stargazer_never_touches(spotting):
    before = events()
    card = spotting.dark(Key.HAZE)[0]
    assert "Stargazer" in refused(spotting.touch(card, seat=spotting.stargazer()), 403)
    assert events() == before


def test_the_crew_that_is_not_active_cannot_touch_or_stop(spotting):
    rival = spotting.spotter(spotting.state().crew.rival)
    before = events()
    refused(spotting.touch(spotting.dark(Key.HAZE)[0], seat=rival), 403)
    assert spotting.touch(spotting.dark_own()[0]).status_code == 200
    before = events()
    refused(spotting.stop(seat=rival), 403)
    assert events() == before


@pytest.mark.parametrize("action", ["play/name", "play/touch", "play/stop"])
def test_a_spectator_or_a_stranger_cannot_act(spotting, action):
    before = events()
    data = {"word": "ocean", "number": 1, "card": 0, "version": spotting.state().version}
    for client in (spotting.spectator, Client()):
        assert "seated" in refused(post(client, spotting.room, action, **data), 403)
    assert events() == before


# -- the step that is current ----------------------------------------------------------


def test_touch_and_stop_while_naming_are_refused(naming):
    before = events()
    refused(naming.touch(naming.dark(Key.HAZE)[0], seat=naming.spotter()), 409)
    refused(naming.stop(seat=naming.spotter()), 409)
    assert events() == before


def test_naming_while_spotting_is_refused(spotting):
    before = events()
    assert "touching" in refused(spotting.name(seat=spotting.stargazer()), 409)
    assert events() == before


def test_stop_before_the_first_touch_is_refused(spotting):
    """T10."""
    before = events()
    assert "Touch at least one" in refused(spotting.stop(), 409)
    assert events() == before


def test_touching_a_lit_card_is_refused(spotting):
    """T7."""
    card = spotting.dark_own()[0]
    assert spotting.touch(card).status_code == 200
    before = events()
    assert "already lit" in refused(spotting.touch(card), 409)
    assert events() == before


def test_a_number_above_the_dark_stars_is_refused(naming):
    """T2: 1 to the number of the crew's dark stars (the rival crew's 7 < 8)."""
    state = naming.state()
    dark = len(state.dark_stars(state.crew))
    before = events()
    if dark < 8:
        refused(naming.name(number=dark + 1), 400)
    refused(naming.name(number=0), 400)
    assert events() == before


# -- stale versions (T7) -----------------------------------------------------------------


def test_a_stale_touch_is_refused_and_the_view_refreshes(spotting):
    card = spotting.dark_own()[0]
    assert spotting.touch(card).status_code == 200
    stale = spotting.state().version - 1
    before = events()
    response = spotting.touch(spotting.dark_own()[0], version=stale)
    assert refused(response, 409) == STALE
    html = response.content.decode()
    assert 'id="board"' in html and f'data-version="{spotting.state().version}"' in html
    refused(spotting.stop(version=stale), 409)
    assert events() == before


def test_a_stale_word_is_refused(naming):
    before = events()
    refused(naming.name(version=naming.state().version + 1), 409)
    assert events() == before


# -- another room, no game, a finished game ---------------------------------------------


def test_a_game_in_another_room_is_refused(spotting):
    other = seat_table(4)
    assert other.name(number=1).status_code == 200
    state = other.state()
    before = events()
    for seat, client in spotting.seats.items():
        for action in ("play/name", "play/touch", "play/stop"):
            data = {"word": "ocean", "number": 1, "card": 0, "version": state.version}
            response = post(client, other.room, action, **data)
            assert refused(response, 403), (seat, action)
    assert events() == before
    assert other.state() == state


def test_no_game_in_the_room_yet():
    table = seat_table(2, start=False)
    before = events()
    for action in ("play/name", "play/touch", "play/stop"):
        refused(post(table.host, table.room, action, card=0, number=1, version=0), 409)
    assert events() == before


def test_a_finished_game_takes_no_more_actions():
    table = seat_table(2)
    left = table.dark_own()
    assert table.name(number=len(left)).status_code == 200
    for card in left:
        table.touch(card)
    assert table.state().ended
    before = events()
    refused(table.touch(table.dark(Key.HAZE)[0], seat=2), 409)
    refused(post(table.host, table.room, "play/name", word="ocean", number=1, version=0), 409)
    assert events() == before


def test_an_unknown_room_is_404():
    client = Client()
    assert client.get("/r/nope-nope-nope-nope/").status_code == 404
    assert post(client, Room(code="nope"), "play/touch", card=1, version=1).status_code == 404
    assert post(client, Room(code="x" * 400), "join", name="Al").status_code == 404


def test_get_on_an_action_is_405(spotting):
    for action in ("play/name", "play/touch", "play/stop", "join", "sit", "start"):
        response = spotting.host.get(f"/r/{spotting.room.code}/{action}")
        assert response.status_code == 405


# -- malformed fields: a message, never a 500 -------------------------------------------

BAD_NUMBERS = ["", "x", "1.5", "1e3", "-1", "--1", "²", "٣٣", " ", "99999999999", "0x10"]


@pytest.mark.parametrize("card", [*BAD_NUMBERS, "24"])
def test_malformed_card(spotting, card):
    before = events()
    data = {"version": spotting.state().version}
    if card != "":
        data["card"] = card
    refused(
        post(spotting.seats[spotting.spotter()], spotting.room, "play/touch", **data), (400, 409)
    )
    assert events() == before
    assert spotting.state().step is Step.SPOTTING


@pytest.mark.parametrize("number", [*BAD_NUMBERS, "0", "9"])
def test_malformed_number(naming, number):
    before = events()
    refused(naming.name(number=number), 400)
    assert events() == before


@pytest.mark.parametrize("version", BAD_NUMBERS)
def test_malformed_version(spotting, version):
    before = events()
    client = spotting.seats[spotting.spotter()]
    refused(post(client, spotting.room, "play/touch", card=0, version=version), (400, 409))
    refused(post(client, spotting.room, "play/stop", version=version), (400, 409))
    assert events() == before


@pytest.mark.parametrize(
    "word", ["", " ", "a", "ab cd", "x" * 200, "ocean1", "<script>", "océan", "\x00ocean"]
)
def test_malformed_word(naming, word):
    before = events()
    response = naming.name(word=word)
    refused(response, (400, 422))
    assert "<script>" not in response.content.decode()
    assert events() == before


def test_missing_word_and_number(naming):
    before = events()
    client = naming.seats[naming.stargazer()]
    refused(post(client, naming.room, "play/name", version=naming.state().version), 400)
    refused(post(client, naming.room, "play/name", number=1, version=naming.state().version), 422)
    assert events() == before


# -- the lobby's forms -------------------------------------------------------------------


@pytest.fixture
def lobby() -> Table:
    return seat_table(2, start=False)


def players(room: Room) -> list[tuple[str, int | None]]:
    return list(Player.objects.filter(room=room).values_list("name", "seat"))


@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * 25, "y" * 200, "\u200b", "a\x07b", "a\nb\x00"],
)
def test_a_bad_name_is_refused(lobby, name):
    before = players(lobby.room)
    refused(join(Client(), lobby.room, name), 400)
    assert players(lobby.room) == before


@pytest.mark.parametrize("name", ["ada", "ADA", " Ada ", "bO"])
def test_a_duplicate_name_in_any_case_is_refused(lobby, name):
    before = players(lobby.room)
    assert "already called" in refused(join(Client(), lobby.room, name), 409)
    assert players(lobby.room) == before


def test_a_duplicate_accented_name_in_any_case_is_refused(lobby):
    assert join(Client(), lobby.room, "Émile").status_code == 200
    before = players(lobby.room)
    assert "already called" in refused(join(Client(), lobby.room, "émile"), 409)
    assert "already called" in refused(join(Client(), lobby.room, "ÉMILE"), 409)
    assert players(lobby.room) == before


def test_a_name_is_trimmed_and_escaped(lobby):
    client = Client()
    assert join(client, lobby.room, "  <b>Zed</b>  ").status_code == 200
    html = client.get(f"/r/{lobby.room.code}/").content.decode()
    assert "&lt;b&gt;Zed&lt;/b&gt;" in html and "<b>Zed</b>" not in html


def test_renaming_yourself_is_allowed(lobby):
    assert join(lobby.host, lobby.room, "ADA").status_code == 200
    assert ("ADA", 1) in players(lobby.room)


@pytest.mark.parametrize("seat", ["0", "9", "x", "", "-1", "²", "1.0", "999", "07x"])
def test_a_bad_seat_is_refused(lobby, seat):
    client = Client()
    join(client, lobby.room, "Zed")
    before = players(lobby.room)
    refused(sit(client, lobby.room, seat), 400)
    refused(post(lobby.host, lobby.room, "free", seat=seat), (400, 409))
    assert players(lobby.room) == before


def test_a_taken_seat_is_refused(lobby):
    client = Client()
    join(client, lobby.room, "Zed")
    before = players(lobby.room)
    assert refused(sit(client, lobby.room, 1), 409) == "Seat 1 is taken."
    assert players(lobby.room) == before


def test_sitting_without_a_name_is_refused(lobby):
    refused(sit(Client(), lobby.room, 3), 403)
    refused(post(Client(), lobby.room, "stand"), 403)


def test_only_the_host_frees_seats_and_sets_the_clock(lobby):
    guest = lobby.seats[2]
    before = players(lobby.room)
    assert "host" in refused(post(guest, lobby.room, "free", seat=1), 403)
    assert "host" in refused(post(guest, lobby.room, "clock", step="60"), 403)
    assert players(lobby.room) == before
    assert Room.objects.get(pk=lobby.room.pk).step_seconds is None


@pytest.mark.parametrize("step", ["", "30", "0", "x", "60.0", "off "])
def test_a_bad_clock_is_refused(lobby, step):
    refused(post(lobby.host, lobby.room, "clock", step=step), 400)
    assert Room.objects.get(pk=lobby.room.pk).step_seconds is None


def test_freeing_a_free_seat_is_refused(lobby):
    refused(post(lobby.host, lobby.room, "free", seat=5), 409)


def test_during_a_game_the_clock_and_extra_seats_are_refused():
    table = seat_table(2)
    refused(post(table.host, table.room, "clock", step="90"), 409)
    before = players(table.room)
    refused(sit(table.spectator, table.room, 3), 409)
    assert players(table.room) == before


def test_a_host_frees_a_seat_and_someone_else_takes_it():
    table = seat_table(2, start=False)
    assert post(table.host, table.room, "free", seat=2).status_code == 200
    assert sit(table.spectator, table.room, 2).status_code == 200
    assert ("Watcher", 2) in players(table.room)


def test_two_rooms_do_not_share_names_or_seats():
    one, two = Client(), Client()
    room_a, room_b = create_room(one), create_room(two)
    join(one, room_a, "Ada")
    assert join(two, room_b, "Ada").status_code == 200
    sit(one, room_a, 1)
    refused(sit(one, room_b, 2), 403)  # no name in room B
