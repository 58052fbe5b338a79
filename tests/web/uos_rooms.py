"""Driving an Under One Sky room through the Django test client: create it from the home
page's game choice, set the chart, seat two players, and play over the htmx POSTs a
browser sends. A test may read the game's state to choose moves; the HTML a player gets
must not carry the other player's card."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from django.http import HttpResponse
from django.test import Client

from games.underonesky.game import GAME
from games.underonesky.rules import State, Step, legal_moves
from lobby.models import Room
from tests.web import rooms
from tests.web.rooms import page, post

KIND = "underonesky"


def create_room(host: Client, kind: str = KIND) -> Room:
    return rooms.create_room(host, kind)


@dataclass
class Table(rooms.RoomTable):
    """An Under One Sky room."""

    def state(self) -> State:
        return GAME.current(self.refresh().game_id)

    def page(self, seat: int | None) -> str:
        return page(self.seats[seat] if seat else self.spectator, self.room)

    # -- moves -------------------------------------------------------------------------
    def place(self, space: int, tile: str = "0", seat: int | None = None, **extra) -> HttpResponse:
        state = self.state()
        data = {"space": space, "tile": tile, "version": state.version, **extra}
        return post(self.seats[seat or state.seat], self.room, "play/place", **data)

    def move(self, target: int, origin: int | None = None, seat: int | None = None, **extra):
        state = self.state()
        data = {"target": target, "version": state.version, **extra}
        if origin is not None:
            data["origin"] = origin
        return post(self.seats[seat or state.seat], self.room, "play/move", **data)

    def play_a_turn(self, rng: random.Random) -> None:
        """The player whose turn it is places a random tile on a random empty space, then
        makes a random legal move if one is due; every answer is a 200."""
        state = self.state()
        picks = [str(i) for i in range(len(state.face_up))] + (["blind"] if state.stack else [])
        response = self.place(rng.choice(state.empty_spaces()), rng.choice(picks))
        assert response.status_code == 200, response.content.decode()[:300]
        state = self.state()
        if state.step is Step.ACTING and not state.ended:
            origin, target = rng.choice(legal_moves(state.board, state.placed))
            response = self.move(target, origin)
            assert response.status_code == 200, response.content.decode()[:300]


def seat_table(
    *, chart: str = "orange", compass: str = "N", step: str | None = None, start: bool = True
) -> Table:
    host = Client()
    room = create_room(host)
    seats, names, spectator = rooms.seat_people(host, room, 2)
    assert post(host, room, "options", chart=chart, compass=compass).status_code == 200
    table = Table(room=room, seats=seats, spectator=spectator, names=names)
    return rooms.set_up(table, step=step, start=start)


def card_markup(html: str) -> list[str]:
    """Every card figure in a page: its caption and its drawn shape."""
    return re.findall(r'<figure class="uos-card[^"]*">.*?</figure>', html, re.S)
