"""Computer players, proven with Highest Unique (a test-only game whose computer picks a
number at random): the host seats one in a free seat between games, clearly marked; it
plays through the same commands as a person, its moves stored as events like anyone's;
freed while a game runs it stops, and the clock passes its seat as it would a person's.

The computers' task runs inline here (``CONSTELLATE_COMPUTERS_INLINE``); in a server it
runs on django-q2's cluster, never in the request of the person whose move woke it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from games import registry
from games.definition import Computer
from games.models import Event
from lobby import computers
from lobby.models import Player, Room
from lobby.services import new_identity
from tests.support.highest import fixtures, rules
from tests.support.highest.fixtures import Clock
from tests.support.highest.game import SLUG
from tests.support.highest.rooms import Table, create_room
from tests.web.rooms import create_room as create_constellate_room
from tests.web.rooms import join, notice, page, post, sit

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("highest", "inline")]

highest = fixtures.highest
frozen_clock = fixtures.frozen_clock


@pytest.fixture
def inline(settings):
    settings.CONSTELLATE_COMPUTERS_INLINE = True


# What waits for a commit (the pushes, the computers' wake-up) runs as in a server.
committing = pytest.mark.django_db(transaction=True)


def host_room() -> tuple[Client, Room]:
    host = Client()
    room = create_room(host)
    assert join(host, room, "Ada").status_code == 200
    return host, room


def seat_computer(client: Client, room: Room, seat: int):
    return post(client, room, "computer", seat=seat)


def computer_in(room: Room, seat: int) -> Player:
    player = room.players.get(seat=seat)
    assert player.is_computer
    return player


def test_the_host_seats_a_computer_marked_as_one_in_every_view():
    host, room = host_room()
    guest = Client()
    join(guest, room, "Bo")
    assert seat_computer(host, room, 2).status_code == 200
    player = computer_in(room, 2)
    assert player.name == "Vega (computer)"
    for client in (host, guest):
        assert "Vega (computer)" in page(client, room)
    assert "Computer<span" in page(host, room)  # the host may seat another in a free seat
    assert "Computer<span" not in page(guest, room)  # nobody else may


def test_a_second_computer_gets_another_star_and_never_a_taken_name():
    host, room = host_room()
    seat_computer(host, room, 1)
    seat_computer(host, room, 2)
    assert [p.name for p in room.players.filter(seat__isnull=False)] == [
        "Vega (computer)",
        "Altair (computer)",
    ]


def test_only_the_host_seats_a_computer_and_a_refusal_changes_nothing():
    host, room = host_room()
    guest = Client()
    join(guest, room, "Bo")
    response = seat_computer(guest, room, 2)
    assert response.status_code == 403
    assert notice(response) == "Only the host can do that."
    sit(guest, room, 2)
    response = seat_computer(host, room, 2)
    assert response.status_code == 409
    assert notice(response) == "Seat 2 is taken: Bo is in it."
    assert not room.players.filter(identity__startswith=computers.PREFIX).exists()


def test_a_game_without_a_computer_player_refuses_one():
    host = Client()
    room = create_constellate_room(host)
    join(host, room, "Ada")
    response = seat_computer(host, room, 2)
    assert response.status_code == 409
    assert notice(response) == "Constellate has no computer player."
    assert "Computer<span" not in page(host, room)


def test_removing_a_computer_between_games_lets_it_leave_the_room():
    host, room = host_room()
    seat_computer(host, room, 2)
    response = post(host, room, "free", seat=2)
    assert response.status_code == 200
    assert not room.players.filter(identity__startswith=computers.PREFIX).exists()
    assert "Vega (computer)" not in page(host, room)


@committing
def test_a_computer_moves_once_the_person_beside_it_has_and_the_round_closes():
    host, room = host_room()
    sit(host, room, 1)
    seat_computer(host, room, 2)
    assert post(host, room, "start").status_code == 200
    table = Table(room=room, seats={1: host}, spectator=Client(), names={1: "Ada"})
    # The computer chose as soon as the round began: only Ada is still choosing.
    state = table.state()
    assert state.round is not None and state.round.waiting == (1,)
    assert table.choose(1, 7).status_code == 200
    state = table.state()
    assert state.round is not None and state.round.number == 2  # round 1 closed on Ada's pick
    chosen = dict(state.revealed[0].chosen)
    assert chosen[1] == 7 and rules.LOWEST <= chosen[2] <= rules.HIGHEST
    # Stored like anyone's: one NumberChosen per seat per round.
    kinds = list(Event.objects.filter(game_id=table.game_id).values_list("kind", flat=True))
    assert kinds.count("NumberChosen") == 3  # Ada's, and the computer's for rounds 1 and 2


@committing
def test_computers_alone_play_a_whole_game_to_its_end():
    host, room = host_room()
    for seat in (1, 2, 3):
        seat_computer(host, room, seat)
    assert post(host, room, "start").status_code == 200
    state = Table(room=room, seats={}, spectator=host, names={}).state()
    assert state.ended
    assert len(state.revealed) == rules.ROUNDS
    assert "Game over:" in page(host, room)


@committing
def test_a_computer_freed_during_a_game_stops_and_the_clock_passes_it(
    frozen_clock: Clock,
):
    host, room = host_room()
    sit(host, room, 1)
    seat_computer(host, room, 2)
    assert post(host, room, "clock", step="60").status_code == 200
    assert post(host, room, "start").status_code == 200
    table = Table(room=room, seats={1: host}, spectator=Client(), names={1: "Ada"})
    assert post(host, room, "free", seat=2).status_code == 200
    assert computer_in_room(room).seat is None  # it stays, as a name, but plays no more
    table.choose(1, 5)  # round 1 was already chosen by the computer: round 2 begins
    state = table.state()
    assert state.round is not None and state.round.number == 2
    assert state.round.waiting == (1, 2)  # the freed computer does not choose
    frozen_clock.advance(61)
    state = table.state()
    assert state.round is not None and state.round.number == 3  # the clock closed round 2
    assert 2 not in dict(state.revealed[1].chosen)


def computer_in_room(room: Room) -> Player:
    return room.players.get(identity__startswith=computers.PREFIX)


def test_no_browser_can_pass_for_a_computer():
    """A computer's identity begins ``computer:``; a browser's never can."""
    assert all(":" not in new_identity() for _ in range(200))
    assert computers.is_computer(computers.new_identity())


@committing
def test_a_move_the_rules_refuse_stalls_that_seat_only(monkeypatch, caplog):
    game = fixtures.GAME
    assert game.computer is not None
    out_of_range = Computer(
        game.computer.waiting,
        lambda state, seat, rng: rules.Choose(seat=seat, round=state.round.number, number=99),
    )
    monkeypatch.setitem(registry._registry, SLUG, replace(game, computer=out_of_range))
    host, room = host_room()
    sit(host, room, 1)
    seat_computer(host, room, 2)
    assert post(host, room, "start").status_code == 200
    table = Table(room=room, seats={1: host}, spectator=Client(), names={1: "Ada"})
    state = table.state()
    assert state.round is not None and state.round.waiting == (1, 2)
    assert "was refused" in caplog.text
    assert table.choose(1, 3).status_code == 200  # the person plays on
    state = table.state()
    assert state.round is not None and state.round.waiting == (2,)  # seat 2 stalls, alone


def test_in_a_server_the_move_is_queued_for_the_cluster_not_made_in_the_request(
    settings, monkeypatch
):
    """Without the inline setting the wake-up only queues a task (django-q2, whichever
    broker), so the person whose move woke the computers never waits for them to think."""
    import django_q.tasks

    queued: list[tuple[object, ...]] = []
    monkeypatch.setattr(django_q.tasks, "async_task", lambda *args, **kw: queued.append(args))
    settings.CONSTELLATE_COMPUTERS_INLINE = False
    computers.dispatch(12345)
    assert queued == [(computers.TASK, 12345)]
    assert computers.play(12345) == 0  # the task itself: no room plays that game, no move
