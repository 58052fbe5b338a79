"""Your constellation is yours: nothing the other player or a spectator can receive (the
page, every refusal, the tick, every push) carries its name or its shape, nor the stack's
order. Two checks, as for Constellate's key:

* Reading the HTML: the other player's card appears nowhere (its name, its figure).
* A twin table: the same game with seat 1's card swapped for the face-down one and the
  stack reshuffled. What seat 2 or a spectator receives must be byte for byte the same in
  both worlds, while seat 1's own page differs (the positive control).
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from django.test import Client

from games import store
from games.underonesky.game import GAME
from games.underonesky.presenters import PUBLIC
from games.underonesky.rules import Card, State
from lobby import realtime, views
from lobby.models import Match
from tests.web.rooms import every_push_into, page, post
from tests.web.uos_rooms import Table, card_markup, seat_table

pytestmark = pytest.mark.django_db


def twin(state: State) -> State:
    """Seat 1 holds the face-down card instead, and the stack is in another order."""
    stack = list(state.stack)
    random.Random(7).shuffle(stack)
    while len(set(stack)) > 1 and tuple(stack) == state.stack:
        random.Random(8).shuffle(stack)
    return replace(
        state,
        cards=(state.face_down, state.cards[1]),
        face_down=state.cards[0],
        stack=tuple(stack),
    )


@pytest.fixture
def twin_world(monkeypatch):
    real = store.state_of

    def switch():
        monkeypatch.setattr(store, "state_of", lambda game: twin(real(game)))

    return switch


def normal(html: str) -> str:
    """Drop what differs on every response: the masked CSRF token and the server's now."""
    html = re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": ""', html)
    return re.sub(r'data-now="[^"]*"', 'data-now=""', html)


def mid_game() -> Table:
    """Four turns in, with a clock: tiles on the board, the stack part drawn, seat 1's
    turn (so seat 2 is the one watching)."""
    table = seat_table(step="120")
    rng = random.Random(11)
    while len(table.state().turns) < 5 or table.state().seat != 1:
        table.play_a_turn(rng)
        assert not table.state().ended
    return table


def leaks(html: str, card: Card) -> list[str]:
    found = []
    if card.name in html or card.name.replace("'", "&#x27;") in html:
        found.append(f"the name {card.name}")
    for figure in card_markup(html):
        if "Your constellation" not in figure:
            found.append(f"a card figure: {figure[:120]}")
    return found


def refusals(table: Table, client: Client) -> list:
    state = table.state()
    v = state.version
    return [
        post(client, table.room, "play/place", space=0, tile="0", version=v),  # not theirs
        post(client, table.room, "play/place", space=12, tile="blind", version=v - 1),  # stale
        post(client, table.room, "play/place", space="x", tile="0", version=v),  # malformed
        post(client, table.room, "play/move", target=3, origin=2, version=v),
        post(client, table.room, "play/move", target="", version=""),
    ]


def responses(table: Table, client: Client) -> list[str]:
    out = [page(client, table.room)]
    for response in refusals(table, client):
        assert 400 <= response.status_code < 500, response.status_code
        out.append(response.content.decode())
    out.append(post(client, table.room, "tick").content.decode())
    return out


def onlookers(table: Table) -> dict[str, Client]:
    return {"seat 2": table.seats[2], "spectator": table.spectator, "stranger": Client()}


def test_the_other_players_card_is_in_no_page_refusal_or_tick():
    table = mid_game()
    state = table.state()
    for who, client in onlookers(table).items():
        for html in responses(table, client):
            assert not leaks(html, state.card_of(1)), who
            assert state.face_down.name not in html, who
    assert table.state() == state  # the refusals changed nothing
    mine = page(table.seats[1], table.room)
    assert state.card_of(1).name in mine and len(card_markup(mine)) == 1
    assert state.card_of(2).name not in mine and state.face_down.name not in mine


def test_what_onlookers_receive_does_not_depend_on_the_hidden_card_or_the_stack(twin_world):
    table = mid_game()
    state = table.state()
    watchers = {k: v for k, v in onlookers(table).items() if k != "stranger"}
    real = {who: [normal(h) for h in responses(table, c)] for who, c in watchers.items()}
    own = normal(page(table.seats[1], table.room))

    twin_world()
    assert table.state().card_of(1) != state.card_of(1)
    assert table.state().stack != state.stack
    for who, client in watchers.items():
        assert [normal(h) for h in responses(table, client)] == real[who], who
    assert normal(page(table.seats[1], table.room)) != own


def test_each_rendered_fragment_for_another_audience_is_the_same_in_both_worlds():
    table = mid_game()
    state, other = table.state(), twin(table.state())
    names = Match.objects.get(game_id=table.room.game_id).names()
    audiences = GAME.screens.audiences(state)
    assert audiences == [PUBLIC, "seat-1", "seat-2"]
    for audience in audiences:
        html = GAME.screens.render_board(state, audience, names, table.room.code, game=1, oob=True)
        twin_html = GAME.screens.render_board(
            other, audience, names, table.room.code, game=1, oob=True
        )
        same = normal(html) == normal(twin_html)
        assert same is (audience != "seat-1"), audience
        if audience != "seat-1":
            assert not leaks(html, state.card_of(1)), audience


def test_each_pushed_fragment_reaches_its_group_without_the_other_card(
    monkeypatch, django_capture_on_commit_callbacks
):
    table = mid_game()
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(realtime, "_send_all", every_push_into(sent))
    state = table.state()
    with django_capture_on_commit_callbacks(execute=True):
        response = table.place(state.empty_spaces()[0], "0")
        assert response.status_code == 200
    after = table.state()
    boards = {g: m for g, m in sent if m["type"] == "board.push"}
    room_id = table.room.pk
    assert set(boards) == {f"room-{room_id}-{a}" for a in ("public", "seat-1", "seat-2")}
    for group, message in boards.items():
        assert message["version"] == after.version
        html = message["html"]
        if group.endswith("seat-1"):
            assert after.card_of(1).name in html and after.card_of(2).name not in html
        elif group.endswith("seat-2"):
            assert after.card_of(2).name in html and not leaks(html, after.card_of(1))
        else:
            assert not card_markup(html)
            assert after.card_of(1).name not in html and after.card_of(2).name not in html


def test_the_websocket_snapshot_of_a_spectator_holds_no_card():
    table = mid_game()
    state = table.state()
    ctx = views.context_for(table.refresh(), None)
    html, audience = views.board_html(ctx, oob=True)
    assert audience == PUBLIC
    assert not card_markup(html)
    assert state.card_of(1).name not in html and state.card_of(2).name not in html
