"""Simultaneous rounds on the web, proven with Highest Unique (a test-only game, registered
for each test by ``tests.support.highest.fixtures``) in real rooms made through the lobby:
each seat's choice is whole, final and private until the round closes; the round closes
on the last choice (one event reveals every number) or on the clock (the silent seats
recorded); a preview answers a seat and records nothing; one seat may play alone.

The leak test plays two twin rooms that differ only in seat 2's number and compares, byte
for byte, everything seat 1, seat 3, a spectator and a stranger receive from each (pages,
previews, refusals, ticks), after masking only what differs between any two rooms:
``tests.support.highest.rooms.normal`` says exactly what and why.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client

from games import clock, registry
from games.models import Event, Game
from tests.support.highest import fixtures
from tests.support.highest.fixtures import Clock
from tests.support.highest.game import GAME
from tests.support.highest.rooms import Table, normal, room_link, seat_table
from tests.web.rooms import HX, notice, page, post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("highest")]

# The test game, registered for each test here only, and the stopped clock (fixtures.py).
highest = fixtures.highest
frozen_clock = fixtures.frozen_clock

FINAL = "You have already submitted this round: it is final."


def stored_version(table: Table) -> int:
    return Game.objects.get(pk=table.refresh().game_id).version


def reveal_payload(table: Table) -> dict:
    (row,) = Event.objects.filter(game_id=table.room.game_id, kind="NumbersRevealed")
    return row.payload


def board_text(html: str) -> str:
    return " ".join(html.split())


# -- a room of the game, from the lobby ------------------------------------------------------


def test_a_room_of_the_test_game_is_made_and_started_through_the_lobby():
    table = seat_table(3)
    state = table.state()
    assert table.room.kind == "highest" and state.players == 3 and state.round.number == 1
    assert table.stored() == ["GameDealt", "RoundStarted"]
    page = board_text(table.page(1))
    assert 'id="board"' in page and "Round 1 of 3: choose a number from 1 to 10" in page
    assert 'hx-post="/r/' in page and "/play/choose" in page and "/preview/check" in page
    spectator = board_text(table.page(None))
    assert "waiting for Ada, Bo and Cy" in spectator and "/play/choose" not in spectator


def test_a_choice_is_accepted_and_others_see_only_done():
    table = seat_table(3)
    response = table.choose(2, 7)
    assert response.status_code == 200
    mine = board_text(response.content.decode())
    assert (
        'hx-swap-oob="true"' in mine
        and "Round 1 of 3: you chose 7. Waiting for Ada and Cy." in mine
    )
    assert table.stored() == ["GameDealt", "RoundStarted", "NumberChosen"]
    for seat in (1, 3, None):
        html = board_text(table.page(seat))
        assert '<th scope="row">Bo</th><td class="round-status">done</td>' in html, seat
        assert "chose 7" not in html and "you chose" not in html, seat


# -- final: a second choice -------------------------------------------------------------------


def test_a_second_choice_is_refused_with_409_and_appends_nothing():
    table = seat_table(3)
    assert table.choose(2, 7).status_code == 200
    before, version = table.stored(), stored_version(table)
    response = table.choose(2, 4)
    assert response.status_code == 409
    assert notice(response) == FINAL
    assert table.stored() == before and stored_version(table) == version
    assert "you chose 7" in board_text(response.content.decode())  # the board refreshed
    state = table.state()
    assert state.round.submitted == {2: 7}


def test_a_choice_the_rules_refuse_is_refused_whole():
    table = seat_table(2)
    before = table.stored()
    out_of_range = table.choose(1, 11)
    assert out_of_range.status_code == 400
    assert notice(out_of_range) == "Choose a whole number from 1 to 10."
    wrong_round = table.choose(1, 5, round=2)
    assert wrong_round.status_code == 409 and notice(wrong_round) == "That round has not started."
    typed = table.choose(1, "seven")
    assert typed.status_code == 400 and "whole number" in notice(typed)
    by_a_spectator = post(table.spectator, table.room, "play/choose", round=1, number=5)
    assert by_a_spectator.status_code == 403
    assert table.stored() == before


# -- closing on the last choice ----------------------------------------------------------------


def test_the_last_choice_closes_the_round_with_one_event_that_reveals_every_number():
    table = seat_table(3)
    assert table.choose(1, 7).status_code == 200
    assert table.choose(2, 7).status_code == 200
    before = table.stored()
    assert table.choose(3, 5).status_code == 200
    appended = table.stored()[len(before) :]
    assert appended == ["NumberChosen", "NumbersRevealed", "RoundStarted"]
    payload = reveal_payload(table)
    assert [(s["seat"], s["submission"]) for s in payload["submissions"]] == [
        (1, 7),
        (2, 7),
        (3, 5),
    ]
    assert payload["silent"] == [] and payload["by_clock"] is False
    line = "Round 1: Ada 7, Bo 7, Cy 5. Cy scores with 5."
    for seat in (1, 2, 3, None):
        html = board_text(table.page(seat))
        assert line in html, seat
        assert "Round 2 of 3" in html, seat
    assert table.state().scores == (0, 0, 1)


# -- the preview --------------------------------------------------------------------------------


def test_a_check_answers_the_seat_and_records_nothing():
    table = seat_table(3)
    assert table.choose(2, 9).status_code == 200
    kinds, version = table.stored(), stored_version(table)
    updated = Game.objects.get(pk=table.room.game_id).updated_at

    legal = table.check(1, 7)
    assert legal.status_code == 200
    assert legal.content.decode() == (
        '<div id="preview" class="preview" aria-live="polite">'
        "7 is allowed; you have scored 0 points so far.</div>"
    )
    refused = table.check(1, 11)
    assert refused.status_code == 200 and "refused" in refused.content.decode()
    assert "11 is not allowed now: Choose a whole number from 1 to 10." in refused.content.decode()
    done = table.check(2, 3)
    assert FINAL in done.content.decode()
    assert table.check(1, "x").status_code == 400
    assert table.check(None, 7).status_code == 403  # only a seat checks its own draft

    assert table.stored() == kinds and stored_version(table) == version
    assert Game.objects.get(pk=table.room.game_id).updated_at == updated
    assert table.state().round.submitted == {2: 9}


def test_a_check_reads_only_revealed_rounds():
    table = seat_table(2)
    assert table.choose(1, 8).status_code == 200
    assert table.choose(2, 3).status_code == 200  # round 1: Ada scores with 8
    assert table.choose(2, 10).status_code == 200  # round 2: Bo's 10, not revealed
    answer = table.check(1, 8).content.decode()
    assert "8 is allowed; you have scored 1 point so far. 8 scored in round 1." in answer
    # Bo's 10 is open: the check of 10 says what it says of any number.
    answer = table.check(1, 10).content.decode()
    assert answer.endswith(">10 is allowed; you have scored 1 point so far.</div>")


# -- solo ---------------------------------------------------------------------------------------


def test_one_seat_plays_a_whole_game_alone():
    table = seat_table(1, start=False)
    assert table.start().status_code == 200
    assert table.state().players == 1
    for number in (4, 10, 1):
        response = table.choose(1, number)
        assert response.status_code == 200
    state = table.state()
    assert state.ended and state.scores == (3,) and state.winners == (1,)
    assert table.stored().count("NumbersRevealed") == 3 and table.stored()[-1] == "GameEnded"
    page = board_text(table.page(1))
    assert "Game over: Ada scored 3 points." in page
    assert "Round 3: Ada 1. Ada scores with 1." in page
    assert table.choose(1, 5, round=3).status_code == 409
    # The replay folds the stored events and says what each step did.
    said = []
    for step in range(1, state.version + 1):
        response = table.host.get(f"/r/{table.room.code}/history/1/?step={step}")
        assert response.status_code == 200
        found = re.search(r'<p class="happened"[^>]*>(.*?)</p>', response.content.decode())
        said.append(found.group(1) if found else "")
    assert said[:5] == [
        "The table was set for 1 player and 3 rounds.",
        "Round 1 began.",
        "Ada chose a number.",
        "Round 1: Ada 4. Ada scores with 4.",
        "Round 2 began.",
    ]
    assert said[-1] == "Game over: Ada scored 3 points."


# -- the clock ------------------------------------------------------------------------------------


def round_one_started(table: Table) -> int:
    """The step the clock's task names: the version of the event that opened round 1."""
    rows = Event.objects.filter(game_id=table.room.game_id, kind="RoundStarted")
    return rows.order_by("seq").values_list("seq", flat=True)[0]


def close_late(table: Table, how: str) -> None:
    """After the deadline, whatever comes first closes the round: a read, the countdown's
    tick, the scheduled task, or a choice that comes too late."""
    if how == "read":
        GAME.current(table.room.game_id)
    elif how == "tick":
        response = table.tick(None)
        assert response.status_code == 200 and 'id="board"' in response.content.decode()
    elif how == "task":
        step = round_one_started(table)
        assert clock.run_expiry(table.room.game_id, step).startswith(f"expired step {step}")
        assert clock.run_expiry(table.room.game_id, step).startswith("nothing to do")
    elif how == "late choice":
        response = table.choose(2, 6, round=1)
        assert response.status_code == 409 and notice(response) == "Time is up for this round."


@pytest.mark.parametrize("how", ["read", "tick", "task", "late choice"])
def test_the_clock_closes_the_round_recording_the_silent_seats(how, frozen_clock: Clock):
    table = seat_table(3, step="60")
    assert table.choose(1, 4).status_code == 200
    early = table.tick(None)
    assert early.status_code == 200 and table.stored()[-1] == "NumberChosen"
    assert clock.run_expiry(table.room.game_id, round_one_started(table)) == (
        "nothing to do: This round still has time."
    )
    frozen_clock.advance(61)
    close_late(table, how)
    assert table.stored() == [
        "GameDealt",
        "RoundStarted",
        "NumberChosen",
        "NumbersRevealed",
        "RoundStarted",
    ]
    payload = reveal_payload(table)
    assert payload["silent"] == [2, 3] and payload["by_clock"] is True
    assert [(s["seat"], s["submission"]) for s in payload["submissions"]] == [(1, 4)]
    state = table.state()
    assert state.scores == (1, 0, 0) and state.round.number == 2
    assert state.deadline == frozen_clock.at + timedelta(seconds=60)  # round 2's own clock
    line = "Round 1: Ada 4; Bo and Cy chose nothing in time (the clock closed it). Ada scores"
    assert line in board_text(table.page(None))


# -- the registry ------------------------------------------------------------------------------


def test_the_game_is_on_offer_only_while_its_fixture_runs():
    assert registry.game_type("highest") is GAME
    assert 'name="kind" value="highest"' in Client().get("/").content.decode()


# -- privacy: two twin rooms ----------------------------------------------------------------------


def twin_tables(numbers: tuple[int, int]) -> tuple[Table, Table]:
    """Two rooms, alike in everything (names, seats, the clock, the instant they started,
    seat 1's number) but seat 2's number."""
    tables = (seat_table(3, step="60"), seat_table(3, step="60"))
    for table, number in zip(tables, numbers, strict=True):
        assert table.choose(1, 5).status_code == 200
        assert table.choose(2, number).status_code == 200
    return tables


def received(table: Table, client: Client) -> list[str]:
    """Everything this browser can get from the room now without changing it, normalised:
    the page, the check of a few drafts (seat 2's numbers in either room among them), the
    refusals it can provoke (none of them may choose: seat 3 has not chosen yet), the
    tick."""
    code = table.room.code
    out = [page(client, table.room)]
    for draft in (3, 5, 9, 11):
        out.append(client.get(f"/r/{code}/preview/check", {"number": draft}, **HX))
    for data in ({"round": 1, "number": 11}, {"round": 2, "number": 3}, {"number": "x"}):
        out.append(post(client, table.room, "play/choose", **data))
    out.append(client.post(f"/r/{code}/tick", **HX))
    texts = [o if isinstance(o, str) else f"{o.status_code} {o.content.decode()}" for o in out]
    return [normal(html, table.room, room_link(table.room)) for html in texts]


def test_a_seat_s_number_reaches_nobody_else_before_the_close(frozen_clock: Clock):
    first, second = twin_tables((3, 9))
    before = [t.stored() for t in (first, second)]
    stranger = Client()
    for seat in (1, 3, None):
        a = received(first, first.client(seat))
        b = received(second, second.client(seat))
        assert a == b, seat
        assert '<th scope="row">Bo</th><td class="round-status">done</td>' in a[0], seat
    assert received(first, stranger) == received(second, stranger)
    assert [t.stored() for t in (first, second)] == before  # nothing above changed a game
    # Positive controls: seat 2 sees its own number, so its pages differ...
    own = [normal(t.page(2), t.room, room_link(t.room)) for t in (first, second)]
    assert own[0] != own[1]
    # ... and once the round closes, everyone sees both numbers.
    for table in (first, second):
        assert table.choose(3, 1).status_code == 200
    after = [normal(t.page(1), t.room, room_link(t.room)) for t in (first, second)]
    assert after[0] != after[1]
    assert "Ada 5, Bo 3, Cy 1" in board_text(after[0])
    assert "Ada 5, Bo 9, Cy 1" in board_text(after[1])
