"""Driving a Highest Unique room through the Django test client: created from the home
page's game choice (kind "highest"), 1 to 5 seats taken in order, and the same htmx
requests a browser sends (POST /r/<code>/play/choose, GET /r/<code>/preview/check).

The game must be installed for the test (``tests.support.highest.fixtures``). A test may
read the state to know the round; the HTML a seat receives must not tell it more."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import segno
from django.http import HttpResponse
from django.test import Client

from games.models import Event
from lobby.models import Room
from tests.web import rooms
from tests.web.rooms import page, post

from . import rules
from .game import GAME, SLUG

if TYPE_CHECKING:  # what the test client answers, as django-stubs names it
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

HX = {"HX-Request": "true"}  # the header htmx sends with every request


def create_room(host: Client) -> Room:
    return rooms.create_room(host, SLUG)


@dataclass
class Table(rooms.RoomTable):
    """A room of Highest Unique."""

    @property
    def game_id(self) -> int:
        game_id = self.refresh().game_id
        assert game_id is not None, "the game has not started"
        return game_id

    def state(self) -> rules.State:
        """The game as it stands (a due expiry applied first, as any read does)."""
        return GAME.current(self.game_id)

    def stored(self) -> list[str]:
        """The kinds of this game's stored events, in order: read without settling."""
        rows = Event.objects.filter(game_id=self.game_id).order_by("seq")
        return list(rows.values_list("kind", flat=True))

    def client(self, seat: int | None) -> Client:
        return self.seats[seat] if seat else self.spectator

    def page(self, seat: int | None) -> str:
        return page(self.client(seat), self.room)

    # -- what a browser sends --------------------------------------------------------------
    def choose(self, seat: int, number: object, round: int | None = None) -> HttpResponse:
        if round is None:
            state = self.state()
            assert state.round is not None
            round = state.round.number
        return post(self.seats[seat], self.room, "play/choose", round=round, number=number)

    def check(self, seat: int | None, number: int | str) -> Response:
        url = f"/r/{self.room.code}/preview/check"
        return self.client(seat).get(url, {"number": number}, headers=HX)

    def tick(self, seat: int | None = None) -> Response:
        return self.client(seat).post(f"/r/{self.room.code}/tick", headers=HX)


def seat_table(players: int = 3, *, step: str | None = None, start: bool = True) -> Table:
    """A room with ``players`` seated 1..N (seat 1 hosts) and a spectator who joined
    without sitting; the clock set to ``step`` seconds if given; started unless not."""
    host = Client()
    room = create_room(host)
    seats, names, spectator = rooms.seat_people(host, room, players)
    table = Table(room=room, seats=seats, spectator=spectator, names=names)
    return rooms.set_up(table, step=step, start=start)


# -- comparing what two twin rooms send ------------------------------------------------------

CSRF = re.compile(r'"X-CSRFToken": "[^"]*"')
GAME_ID = re.compile(r'data-game="[0-9]+"')
QR_SCALE = {"scale": 4, "dark": "#0d1326", "light": "#ffffff"}  # as lobby.views draws it


def normal(html: str, room: Room, link: str | None = None) -> str:
    """What is left of a response once only what legitimately differs between two rooms
    (or two requests) is masked. Everything else must be byte for byte the same.

    * The room's code (in every link and the socket's address) -> ``ROOM``: each room
      draws its own. It is masked only as the exact code string.
    * The room link's QR code: the SVG ``lobby.views`` draws from the room's link. It is
      replaced only if it is exactly the QR of this room's link (drawn again here), so a
      QR carrying anything else would be left in place and fail the comparison.
    * The CSRF token in ``hx-headers``: masked anew on every response, by design.
    * The board's game (``data-game``, for the page to keep the newest board of a game):
      each room's games are rows of their own. Masked only as that attribute's number.

    Nothing else: not the names, numbers, statuses, scores, versions or counts, nor the
    deadline or the countdown's "now" (twin rooms run on one stopped clock, so those are
    the same too: ``fixtures.frozen_clock``)."""
    if link is not None:
        qr = segno.make(link, error="m").svg_inline(**QR_SCALE)
        assert html.count(qr) <= 1
        html = html.replace(qr, "<svg>QR</svg>")
    html = html.replace(room.code, "ROOM")
    html = GAME_ID.sub('data-game="GAME"', html)
    return CSRF.sub('"X-CSRFToken": ""', html)


def room_link(room: Room) -> str:
    return f"http://testserver/r/{room.code}/"
