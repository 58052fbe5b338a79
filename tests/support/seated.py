"""A room of a game, made through the lobby as a browser makes it, for a game's web tests:
the host creates it, people join and sit in seats 1..n (seat 1 hosts), the host seats a
computer where asked, a spectator joins without sitting, the host sets the clock and the
game's options, and starts. A game's helpers subclass it (``ObsRoom``, ``AstraRoom``) and
add what their pages send."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from django.test import Client

from games.definition import GameDefinition
from games.models import Event
from lobby.models import Room
from tests.web.rooms import NAMES, create_room, join, page, post, sit


class SeatedRoom:
    """A room of ``GAME`` with people (and computers) seated, started unless not."""

    GAME: ClassVar[GameDefinition[Any, Any]]

    def __init__(
        self,
        players: int,
        *,
        computers: Iterable[int] = (),
        step: str | None = None,
        options: Mapping[str, str] | None = None,
        start: bool = True,
    ) -> None:
        self.host = Client()
        self.room: Room = create_room(self.host, self.GAME.slug)
        machines = set(computers)
        assert join(self.host, self.room, NAMES[0]).status_code == 200
        self.seats: dict[int, Client] = {}
        self.names: dict[int, str] = {}
        for n in range(1, players + 1):
            if n in machines:
                assert post(self.host, self.room, "computer", seat=n).status_code == 200
                continue
            client = self.host if n == 1 else Client()
            if n != 1:
                assert join(client, self.room, NAMES[n - 1]).status_code == 200
            assert sit(client, self.room, n).status_code == 200
            self.seats[n] = client
            self.names[n] = NAMES[n - 1]
        self.spectator = Client()
        assert join(self.spectator, self.room, "Watcher").status_code == 200
        if step:
            assert post(self.host, self.room, "clock", step=step).status_code == 200
        if options:
            response = post(self.host, self.room, "options", **options)
            assert response.status_code == 200, response.content[:300]
        if start:
            response = post(self.host, self.room, "start")
            assert response.status_code == 200, response.content[:300]

    @property
    def code(self) -> str:
        return self.room.code

    @property
    def game_id(self) -> int:
        self.room.refresh_from_db()
        assert self.room.game_id is not None, "the game has not started"
        return self.room.game_id

    def state(self) -> Any:
        return self.GAME.current(self.game_id)

    def stored(self) -> list[tuple[int, str, Any]]:
        """This game's events, as stored."""
        rows = Event.objects.filter(game_id=self.game_id).order_by("seq")
        return list(rows.values_list("seq", "kind", "payload"))

    def events(self) -> int:
        return Event.objects.filter(game_id=self.game_id).count()

    def client(self, who: int | str | None) -> Client:
        """A seat's browser, the spectator's, or a fresh one that opened the link."""
        if who == "stranger":
            return Client()
        if who is None or who == "spectator":
            return self.spectator
        assert isinstance(who, int)
        return self.seats[who]

    def page(self, who: int | str | None) -> str:
        return page(self.client(who), self.room)
