"""Seats are frozen while a game runs (K4, K5, S1-S3, and Under One Sky's secret cards).

At the start each seat is bound to the browser that held it. Until the game ends that
browser alone may sit in it (coming back after standing up or being freed); nobody moves
between seats; standing up or being freed makes a player *away*, watching without secrets,
and the seat waits for them. A newcomer who never held a seat in the game (nor saw its key)
may ask for an away seat, and only the host's yes hands it over.

Every attack the audit reproduced is refused here, with a message and nothing changed.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from games.constellate.rules import STAR_OF, Crew
from games.models import Event
from lobby.models import Match, Player, Room
from moderation.apps import MODERATORS
from tests.web import uos_rooms
from tests.web.rooms import (
    Table,
    dark_card_findings,
    events,
    join,
    notice,
    page,
    post,
    seat_table,
    sit,
)

pytestmark = pytest.mark.django_db


# -- what must not change --------------------------------------------------------------


def seating(room: Room) -> tuple:
    """Who sits where, whose each seat is, who asked, and the game's events."""
    match = Match.objects.filter(game_id=Room.objects.get(pk=room.pk).game_id).first()
    players = sorted(Player.objects.filter(room=room).values_list("name", "seat"))
    bound = (match.bound, sorted(match.held), match.asks) if match else None
    return players, bound, Event.objects.filter(game_id=match.game_id).count()


def refused(response, status: int = 409) -> str:
    assert response.status_code == status, (response.status_code, response.content[:300])
    message = notice(response)
    assert message
    return message


def lobby_of(html: str) -> str:
    found = re.search(r'<section id="lobby".*?</section>', html, re.S)
    assert found, html[:300]
    return found.group(0)


def seat_row(html: str, number: int) -> str:
    rows = re.findall(r'<li class="seat[^"]*">.*?</li>', lobby_of(html), re.S)
    return rows[number - 1]


def host_at(seat: int, players: int = 4) -> Table:
    """A Rivalry whose host sits in ``seat`` (seat 1's player took the host's place)."""
    table = seat_table(players, start=False)
    host, other = table.seats[1], table.seats[seat]
    assert post(host, table.room, "stand").status_code == 200
    assert post(other, table.room, "stand").status_code == 200
    assert sit(other, table.room, 1).status_code == 200
    assert sit(host, table.room, seat).status_code == 200
    table.seats[1], table.seats[seat] = other, host
    table.names[1], table.names[seat] = table.names[seat], table.names[1]
    assert post(host, table.room, "start").status_code == 200
    table.refresh()
    return table


def gazer_seats(table: Table) -> set[int]:
    state = table.state()
    return {n for n in range(1, state.players + 1) if state.seat(n).stargazer}


def newcomer(table, name: str = "Flo") -> Client:
    client = Client()
    assert join(client, table.room, name).status_code == 200
    return client


def player_id(room: Room, name: str) -> int:
    return Player.objects.get(room=room, name=name).pk


def host_answers(table, action: str, seat: int, name: str, client: Client | None = None):
    """The host's "Let … sit" (``let-sit``) or "No" (``turn-down``) to ``name``'s ask."""
    who = player_id(table.room, name)
    return post(client or table.host, table.room, action, seat=seat, player=who)


# -- the audit's attacks, Constellate ------------------------------------------------------


def test_a_spotter_host_cannot_free_the_stargazer_seat_and_sit_in_it():
    """Seen: a host sitting as a Spotter frees seat 1, sits in it (24/24 key classes) and
    moves back. Freeing makes the Stargazer away; the host cannot sit in their seat."""
    table = host_at(3)
    host = table.seats[3]
    assert post(host, table.room, "free", seat=1).status_code == 200  # Ada is away
    before = seating(table.room)
    assert "seat 3" in refused(sit(host, table.room, 1))
    assert post(host, table.room, "stand").status_code == 200  # the host stands up too...
    before = seating(table.room)
    assert "your seat is 3" in refused(sit(host, table.room, 1))  # ...and still cannot
    assert "have seat 3 in this game" in refused(post(host, table.room, "ask", seat=1))
    assert seating(table.room) == before
    state = table.state()
    assert not dark_card_findings(page(host, table.room), state)
    assert sit(host, table.room, 3).status_code == 200  # back in the host's own seat
    assert not dark_card_findings(page(host, table.room), state)


def test_a_teal_stargazers_seat_goes_to_no_spectator_and_no_teal_spotter():
    """Seen: a Teal Stargazer stands up and a spectator or a Teal Spotter takes seat 2."""
    table = seat_table(6)
    state = table.state()
    assert state.seat(2).stargazer and state.seat(2).crew is Crew.TEAL
    assert post(table.seats[2], table.room, "stand").status_code == 200
    before = seating(table.room)
    assert "kept for Bo" in refused(sit(table.spectator, table.room, 2))
    teal_spotters = [n for n in (4, 6) if state.seat(n).crew is Crew.TEAL]
    for n in teal_spotters:
        assert "you play seat" in refused(sit(table.seats[n], table.room, 2))
        assert "seat" in refused(post(table.seats[n], table.room, "ask", seat=2))
    assert seating(table.room) == before
    for client in (table.spectator, *(table.seats[n] for n in teal_spotters)):
        assert not dark_card_findings(page(client, table.room), state)


def test_a_stargazer_host_cannot_sit_in_a_spotter_seat_and_win_alone():
    """Seen: a host Stargazer frees a Spotter seat, sits there and touches all 8 stars."""
    table = seat_table(4)
    host = table.seats[1]
    assert table.state().seat(1).stargazer
    assert post(host, table.room, "free", seat=3).status_code == 200  # Cy is away
    before = seating(table.room)
    assert "you play seat 1" in refused(sit(host, table.room, 3))
    assert post(host, table.room, "stand").status_code == 200
    before = seating(table.room)
    assert "your seat is 1" in refused(sit(host, table.room, 3))
    assert "have seat 1 in this game" in refused(post(host, table.room, "ask", seat=3))
    assert seating(table.room) == before
    assert sit(host, table.room, 1).status_code == 200
    assert table.name(number=2).status_code == 200
    named = events()
    response = table.touch(table.dark(STAR_OF[table.state().crew])[0], seat=1)
    assert response.status_code == 403  # S4: a Stargazer never touches
    assert events() == named


def test_nobody_moves_between_seats_even_to_an_empty_one():
    table = seat_table(4)
    assert post(table.host, table.room, "free", seat=4).status_code == 200
    before = seating(table.room)
    for n in (1, 2, 3):
        refused(sit(table.seats[n], table.room, 4))
    refused(sit(table.seats[2], table.room, 5))  # not one of the game's seats
    refused(sit(table.spectator, table.room, 5))
    assert seating(table.room) == before


# -- the audit's attack, Under One Sky -------------------------------------------------------


def test_in_under_one_sky_nobody_takes_the_guests_seat_or_reads_the_guests_card():
    """Seen: the host or a spectator takes the guest's seat and reads the secret card."""
    table = uos_rooms.seat_table()
    state = table.state()
    guest_card = state.card_of(2).name
    assert post(table.host, table.room, "free", seat=2).status_code == 200  # Bo is away
    before = seating(table.room)
    assert "you play seat 1" in refused(sit(table.host, table.room, 2))
    assert "kept for Bo" in refused(sit(table.spectator, table.room, 2))
    assert post(table.host, table.room, "stand").status_code == 200
    before = seating(table.room)
    assert "your seat is 1" in refused(sit(table.host, table.room, 2))
    assert "have seat 1 in this game" in refused(post(table.host, table.room, "ask", seat=2))
    assert seating(table.room) == before
    for client in (table.host, table.spectator, table.seats[2]):
        html = page(client, table.room)
        assert guest_card not in html
        assert not uos_rooms.card_markup(html)  # nobody seated: no card at all
    assert sit(table.seats[2], table.room, 2).status_code == 200  # Bo comes back
    assert guest_card in page(table.seats[2], table.room)


def test_in_under_one_sky_the_host_lets_a_newcomer_take_the_guests_seat():
    table = uos_rooms.seat_table()
    guest_card = table.state().card_of(2).name
    assert post(table.seats[2], table.room, "stand").status_code == 200
    flo = newcomer(table)
    assert post(flo, table.room, "ask", seat=2).status_code == 200
    assert guest_card not in page(flo, table.room)
    response = host_answers(table, "let-sit", 2, "Flo")
    assert response.status_code == 200
    assert guest_card in page(flo, table.room)
    before = seating(table.room)
    assert "played in this game" in refused(post(table.seats[2], table.room, "ask", seat=2))
    refused(sit(table.seats[2], table.room, 2))
    assert seating(table.room) == before
    assert guest_card not in page(table.seats[2], table.room)


# -- no browser that was not a Stargazer at the start ever renders a key class -------------


def test_no_browser_that_was_not_a_stargazer_at_the_start_ever_renders_a_key_class():
    """Every seat-takeover path the lobby has, tried by every browser that was not a
    Stargazer at the start, with each answer and page read for dark keys."""
    table = host_at(3, players=6)
    assert table.name(number=1).status_code == 200
    gazers = gazer_seats(table)
    others = {f"seat {n}": c for n, c in table.seats.items() if n not in gazers}
    others |= {"spectator": table.spectator, "newcomer": newcomer(table, "Ivy")}
    for n in sorted(gazers):  # the host (in seat 3) frees both Stargazers
        assert post(table.seats[3], table.room, "free", seat=n).status_code == 200
    ivy = player_id(table.room, "Ivy")
    for who, client in others.items():
        answers = []
        for n in sorted(gazers):
            answers += [
                sit(client, table.room, n),
                post(client, table.room, "ask", seat=n),
                post(client, table.room, "let-sit", seat=n, player=ivy),
                post(client, table.room, "stand"),
                sit(client, table.room, n),
            ]
        state = table.state()
        for html in [a.content.decode() for a in answers] + [page(client, table.room)]:
            assert not dark_card_findings(html, state), who
        assert not re.search(
            r'class="card[^"]*key-(gold|teal|haze|comet)', page(client, table.room)
        )
    # the positive control: a Stargazer back in their seat sees the key again
    n = min(gazers)
    assert sit(table.seats[n], table.room, n).status_code == 200
    assert dark_card_findings(page(table.seats[n], table.room), table.state())


# -- away, and coming back -------------------------------------------------------------------


def test_standing_up_mid_game_asks_first_and_leaves_the_seat_waiting():
    table = seat_table(4, start=False)
    lobby = lobby_of(page(table.seats[3], table.room))
    assert "hx-confirm" not in lobby  # between games, standing up is free
    table.start()
    lobby = lobby_of(page(table.seats[3], table.room))
    assert re.search(r'hx-confirm="Stand up\?[^"]*"', lobby)
    assert re.search(r'hx-confirm="Free seat \d\?[^"]*"', lobby_of(page(table.host, table.room)))
    assert post(table.seats[3], table.room, "stand").status_code == 200
    mine = page(table.seats[3], table.room)
    assert "away from seat 3" in lobby_of(mine)
    assert "Sit back" in seat_row(mine, 3)
    theirs = seat_row(page(table.spectator, table.room), 3)
    assert "Cy" in theirs and "away" in theirs and "Sit here" not in theirs
    assert Match.objects.get(game_id=table.room.game_id).bound["3"]  # still Cy's
    assert sit(table.seats[3], table.room, 3).status_code == 200
    assert "in seat 3" in lobby_of(page(table.seats[3], table.room))


def test_a_stargazer_who_stands_up_sees_no_key_and_sees_it_again_on_coming_back():
    table = seat_table(4)
    gazer = table.stargazer()
    client = table.seats[gazer]
    state = table.state()
    assert dark_card_findings(page(client, table.room), state)
    assert post(client, table.room, "stand").status_code == 200
    assert not dark_card_findings(page(client, table.room), state)
    assert sit(client, table.room, gazer).status_code == 200
    assert dark_card_findings(page(client, table.room), state)


def test_a_freed_player_comes_back_and_a_freed_host_too():
    table = seat_table(4)
    assert post(table.host, table.room, "free", seat=2).status_code == 200
    assert post(table.host, table.room, "free", seat=1).status_code == 200
    assert sit(table.seats[2], table.room, 2).status_code == 200
    assert sit(table.host, table.room, 1).status_code == 200
    assert ("Ada", 1) in seating(table.room)[0] and ("Bo", 2) in seating(table.room)[0]


def test_an_away_players_actions_are_refused_until_they_come_back():
    table = seat_table(4)
    gazer = table.stargazer()
    assert post(table.seats[gazer], table.room, "stand").status_code == 200
    before = events()
    assert table.name(number=1, seat=gazer).status_code == 403
    assert events() == before
    assert sit(table.seats[gazer], table.room, gazer).status_code == 200
    assert table.name(number=1, seat=gazer).status_code == 200


# -- the host lets a newcomer into a gone player's seat --------------------------------------


def test_a_newcomer_asks_and_the_host_lets_them_sit():
    table = seat_table(4)
    assert post(table.seats[3], table.room, "stand").status_code == 200  # Cy leaves
    flo = newcomer(table)
    row = seat_row(page(flo, table.room), 3)
    assert "Ask to sit" in row
    assert post(flo, table.room, "ask", seat=3).status_code == 200
    html = page(flo, table.room)
    assert "Cancel" in seat_row(html, 3) and "Ask to sit" not in seat_row(html, 3)
    assert "you asked the host for seat 3" in lobby_of(html)
    host_lobby = lobby_of(page(table.host, table.room))
    assert "Flo</strong> asks for seat 3 (Gold Spotter)" in host_lobby
    assert "Let Flo sit" in host_lobby and re.search(r'hx-confirm="Let Flo sit[^"]*"', host_lobby)
    assert "asks for seat" not in lobby_of(page(table.seats[2], table.room))  # the host's only

    response = host_answers(table, "let-sit", 3, "Flo")
    assert response.status_code == 200
    match = Match.objects.get(game_id=table.room.game_id)
    flo_player = Player.objects.get(room=table.room, name="Flo")
    assert flo_player.seat == 3 and match.bound["3"] == flo_player.identity
    assert match.asks == {} and flo_player.identity in match.held
    assert "in seat 3" in lobby_of(page(flo, table.room))

    before = seating(table.room)  # Cy can no longer come back, nor ask
    assert "gave your seat to someone else" in refused(sit(table.seats[3], table.room, 3))
    assert "played in this game" in refused(post(table.seats[3], table.room, "ask", seat=3))
    assert seating(table.room) == before


def test_the_host_says_no_and_a_newcomer_may_cancel():
    table = seat_table(4)
    assert post(table.seats[4], table.room, "stand").status_code == 200
    flo, gus = newcomer(table), newcomer(table, "Gus")
    assert post(flo, table.room, "ask", seat=4).status_code == 200
    assert post(gus, table.room, "ask", seat=4).status_code == 200
    response = host_answers(table, "turn-down", 4, "Flo")
    assert response.status_code == 200
    assert post(gus, table.room, "withdraw").status_code == 200
    assert Match.objects.get(game_id=table.room.game_id).asks == {}
    before = seating(table.room)
    assert "not asked" in refused(post(gus, table.room, "withdraw"))
    gone = player_id(table.room, "Flo")
    assert "Nobody" in refused(post(table.host, table.room, "let-sit", seat=4, player=gone))
    assert seating(table.room) == before
    assert Player.objects.get(room=table.room, name="Flo").seat is None


def test_the_host_never_lets_in_someone_who_held_a_seat_in_this_game():
    """Forged into the asks (the lobby never stores such an ask), a player who held a seat
    is still refused by the host's yes: no Spotter becomes a Stargazer."""
    table = seat_table(4)
    gazer = table.stargazer()
    assert post(table.seats[gazer], table.room, "stand").status_code == 200
    spotter = table.spotter()
    assert post(table.seats[spotter], table.room, "stand").status_code == 200
    match = Match.objects.get(game_id=table.room.game_id)
    match.asks = {match.bound[str(spotter)]: gazer}
    match.save()
    before = seating(table.room)
    name = table.names[spotter]
    response = host_answers(table, "let-sit", gazer, name)
    assert f"{name} has seat {spotter}" in refused(response)
    assert seating(table.room) == before
    assert "asks for seat" not in lobby_of(page(table.host, table.room))  # never offered


def test_asking_is_refused_for_a_seat_in_use_a_seated_player_and_between_games():
    table = seat_table(4)
    flo = newcomer(table)
    before = seating(table.room)
    assert "Seat 2 is taken" in refused(post(flo, table.room, "ask", seat=2))
    assert "seats 1 to 4" in refused(post(flo, table.room, "ask", seat=6))
    assert "seat 3" in refused(post(table.seats[3], table.room, "ask", seat=3))
    refused(post(Client(), table.room, "ask", seat=3), 403)  # no name
    refused(post(flo, table.room, "ask", seat="²"), 400)
    assert seating(table.room) == before
    lobby = seat_table(4, start=False)
    refused(post(newcomer(lobby), lobby.room, "ask", seat=3))


def test_only_the_host_lets_a_newcomer_in():
    table = seat_table(4)
    assert post(table.seats[3], table.room, "stand").status_code == 200
    flo = newcomer(table)
    assert post(flo, table.room, "ask", seat=3).status_code == 200
    before = seating(table.room)
    for client in (table.seats[2], flo, table.spectator):
        response = host_answers(table, "let-sit", 3, "Flo", client)
        assert "host" in refused(response, 403)
    refused(post(table.host, table.room, "let-sit", seat=3, player="x"), 400)
    assert seating(table.room) == before


def test_the_host_cannot_let_a_newcomer_in_once_the_player_came_back():
    table = seat_table(4)
    assert post(table.seats[3], table.room, "stand").status_code == 200
    flo = newcomer(table)
    assert post(flo, table.room, "ask", seat=3).status_code == 200
    assert sit(table.seats[3], table.room, 3).status_code == 200  # Cy is back
    assert "asks for seat" not in lobby_of(page(table.host, table.room))
    before = seating(table.room)
    response = host_answers(table, "let-sit", 3, "Flo")
    assert "Cy is in it" in refused(response)
    assert seating(table.room) == before


# -- the lobby names the running game's seats and mode --------------------------------------


def test_the_lobby_keeps_the_running_games_mode_and_seat_labels():
    """Seen: after a mid-game stand-up the lobby said Before Dawn while the board said
    Rivalry."""
    table = seat_table(4)
    assert post(table.seats[4], table.room, "stand").status_code == 200
    assert post(table.seats[3], table.room, "stand").status_code == 200
    html = page(table.spectator, table.room)
    assert '<p class="mode-line">Rivalry</p>' in lobby_of(html)
    labels = re.findall(r'<span class="seat-label">(.*?)</span>', lobby_of(html))
    assert labels == ["Gold Stargazer", "Teal Stargazer", "Gold Spotter", "Teal Spotter"]


def test_after_the_game_the_lobby_is_free_again_and_a_rematch_binds_afresh():
    table = seat_table(2)
    assert post(table.seats[2], table.room, "stand").status_code == 200
    left = table.dark_own()
    assert table.name(number=len(left)).status_code == 200
    assert post(table.seats[2], table.room, "ask", seat=2).status_code == 409
    assert sit(table.seats[2], table.room, 2).status_code == 200
    for card in left:
        assert table.touch(card).status_code == 200
    assert table.state().ended
    assert post(table.seats[2], table.room, "stand").status_code == 200
    assert sit(table.spectator, table.room, 2).status_code == 200  # free seating again
    assert "Before Dawn" in lobby_of(page(table.host, table.room))
    assert table.start().status_code == 200
    match = Match.objects.get(game_id=table.room.game_id)
    watcher = Player.objects.get(room=table.room, name="Watcher")
    assert match.number == 2 and match.bound["2"] == watcher.identity
    refused(sit(table.seats[2], table.room, 2))  # Bo's seat is Watcher's in this game


# -- the replay of a running game -----------------------------------------------------------


def moderator(name: str = "mo") -> Client:
    user = User.objects.create_user(name, password="pw-for-tests-only", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS))
    client = Client()
    client.force_login(user)
    return client


def replay(client: Client, table) -> int:
    return client.get(f"/r/{table.room.code}/history/1/").status_code


def test_a_running_games_replay_is_for_moderators_only():
    table = seat_table(4)
    staff = User.objects.create_user("st", password="pw-for-tests-only", is_staff=True)
    just_staff = Client()
    just_staff.force_login(staff)
    for client in (*table.seats.values(), table.spectator, Client(), just_staff):
        assert replay(client, table) == 403
    mo = moderator()
    response = mo.get(f"/r/{table.room.code}/history/1/")
    assert response.status_code == 200
    html = response.content.decode()
    assert len(re.findall(r'class="card[^"]*key-(gold|teal|haze|comet)', html)) == 24


def test_a_moderator_playing_in_the_game_cannot_open_its_replay():
    table = seat_table(4, start=False)
    mo = moderator()
    assert post(table.seats[4], table.room, "stand").status_code == 200
    assert join(mo, table.room, "Mo").status_code == 200
    assert sit(mo, table.room, 4).status_code == 200
    table.start()
    assert replay(mo, table) == 403
    assert post(mo, table.room, "stand").status_code == 200  # away, still bound
    assert replay(mo, table) == 403


def test_a_moderator_who_saw_the_key_may_never_take_a_seat_in_that_game():
    table = seat_table(4)
    mo = moderator()
    assert join(mo, table.room, "Mo").status_code == 200
    assert replay(mo, table) == 200
    assert post(table.seats[3], table.room, "stand").status_code == 200
    before = seating(table.room)
    assert "saw this game" in refused(post(mo, table.room, "ask", seat=3))
    assert "saw this game" in refused(sit(mo, table.room, 3))
    assert seating(table.room) == before
    assert "Ask to sit" not in seat_row(page(mo, table.room), 3)


def test_a_finished_games_replay_stays_public():
    table = seat_table(2)
    table.light_every_own_star()
    for client in (*table.seats.values(), table.spectator, Client()):
        assert replay(client, table) == 200
