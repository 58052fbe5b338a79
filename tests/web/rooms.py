"""Driving rooms through the Django test client: browsers, names, seats, a started game,
and the moves of a Constellate game made over the same htmx POSTs a browser sends.

A test may know the key (it reads the game's state); the HTML a Spotter gets must not.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import TypeVar

from django.http import HttpResponse
from django.test import Client

from games.constellate import game as constellate
from games.constellate.deck import picture
from games.constellate.presenters import KEY_SYMBOLS
from games.constellate.rules import STAR_OF, Crew, Key, State, Step
from games.models import Event
from lobby import realtime
from lobby.models import Room

HX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
WORDS = ("ocean", "history", "freedom", "justice", "mountain", "journey", "science", "garden")
REFUSED_WORD = "qzxvq"  # W2: not a word


def create_room(host: Client, kind: str | None = None) -> Room:
    """A room the host opened from the home page (its default game unless ``kind``)."""
    response = host.post("/rooms", {"kind": kind} if kind else {})
    assert response.status_code == 302, response
    code = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    return Room.objects.get(code=code)


def post(client: Client, room: Room, action: str, **data: object) -> HttpResponse:
    return client.post(f"/r/{room.code}/{action}", data, **HX)


def page(client: Client, room: Room) -> str:
    response = client.get(f"/r/{room.code}/")
    assert response.status_code == 200
    return response.content.decode()


def events() -> int:
    return Event.objects.count()


def notice(response: HttpResponse) -> str:
    """The text of the refusal notice (``#notice`` or ``#lobby-notice``) in a response."""
    html = response.content.decode()
    found = re.search(r'<p id="(?:lobby-)?notice"[^>]*hx-swap-oob="true">(.*?)</p>', html, re.S)
    assert found, html[:500]
    return found.group(1).strip()


def join(client: Client, room: Room, name: str) -> HttpResponse:
    return post(client, room, "join", name=name)


def sit(client: Client, room: Room, seat: int) -> HttpResponse:
    return post(client, room, "sit", seat=seat)


@dataclass
class RoomTable:
    """A room of any game with browsers in seats 1..N (seat 1 is the host) and one
    spectator; each game's table adds how to read its state and make its moves."""

    room: Room
    seats: dict[int, Client]
    spectator: Client
    names: dict[int, str] = field(default_factory=dict)

    @property
    def host(self) -> Client:
        return self.seats[1]

    def refresh(self) -> Room:
        self.room = Room.objects.get(pk=self.room.pk)
        return self.room

    def start(self) -> HttpResponse:
        response = post(self.host, self.room, "start")
        self.refresh()
        return response


RoomTableT = TypeVar("RoomTableT", bound=RoomTable)


@dataclass
class Table(RoomTable):
    """A Constellate room."""

    def state(self) -> State:
        return constellate.GAME.current(self.refresh().game_id)

    # -- who is who, from the state ----------------------------------------------------
    def stargazer(self, crew: Crew | None = None) -> int:
        state = self.state()
        crew = crew or state.crew
        return next(
            n
            for n in range(1, state.players + 1)
            if state.seat(n).stargazer and state.seat(n).crew is crew
        )

    def spotter(self, crew: Crew | None = None) -> int:
        state = self.state()
        crew = crew or state.crew
        return next(
            n
            for n in range(1, state.players + 1)
            if not state.seat(n).stargazer and state.seat(n).crew is crew
        )

    def dark(self, key: Key) -> list[int]:
        state = self.state()
        return [i for i, k in enumerate(state.key) if k is key and i not in state.lit]

    def dark_own(self) -> list[int]:
        return self.dark(STAR_OF[self.state().crew])

    def dark_rival(self) -> list[int]:
        return self.dark(STAR_OF[self.state().crew.rival])

    def word(self) -> str:
        """A word this sky accepts (W1-W8), not yet used in this game."""
        state = self.state()
        check = constellate.word_check_for(state)
        used = {c.word.lower() for c in state.constellations}
        return next(w for w in WORDS if w not in used and check(w) is None)

    # -- moves -------------------------------------------------------------------------
    def name(
        self, number: int = 1, word: str | None = None, seat: int | None = None, **extra: object
    ) -> HttpResponse:
        state = self.state()
        assert seat is not None or state.step is Step.NAMING
        seat = seat or self.stargazer()
        word = self.word() if word is None else word
        data = {"word": word, "number": number, "version": state.version}
        data.update(extra)
        return post(self.seats[seat], self.room, "play/name", **data)

    def touch(self, card: int, seat: int | None = None, **extra: object) -> HttpResponse:
        data: dict[str, object] = {"card": card, "version": self.state().version}
        data.update(extra)
        return post(self.seats[seat or self.spotter()], self.room, "play/touch", **data)

    def light_every_own_star(self) -> State:
        """The crew on turn names all its dark stars at once and lights them: it wins (T8/E1,
        or Before Dawn's D2). Returns the state at the end."""
        left = self.dark_own()
        assert self.name(number=len(left)).status_code == 200
        for card in left:
            assert self.touch(card).status_code == 200
        state = self.state()
        assert state.ended
        return state

    def stop(self, seat: int | None = None, **extra: object) -> HttpResponse:
        data: dict[str, object] = {"version": self.state().version}
        data.update(extra)
        return post(self.seats[seat or self.spotter()], self.room, "play/stop", **data)


def seat_people(
    host: Client, room: Room, players: int
) -> tuple[dict[int, Client], dict[int, str], Client]:
    """Seats 1..``players`` joined and seated (seat 1 is the host), and a spectator who
    joined without sitting: (browsers by seat, names by seat, the spectator)."""
    seats = {1: host, **{n: Client() for n in range(2, players + 1)}}
    names = {}
    for n, client in seats.items():
        assert join(client, room, NAMES[n - 1]).status_code == 200
        assert sit(client, room, n).status_code == 200
        names[n] = NAMES[n - 1]
    spectator = Client()
    assert join(spectator, room, "Watcher").status_code == 200
    return seats, names, spectator


def set_up(table: RoomTableT, *, step: str | None, start: bool) -> RoomTableT:
    """The host sets the clock to ``step`` seconds if given, and starts unless not."""
    if step:
        assert post(table.host, table.room, "clock", step=step).status_code == 200
    if start:
        response = table.start()
        assert response.status_code == 200, response.content
        assert table.room.game_id is not None
    return table


def seat_table(players: int, *, start: bool = True, step: str | None = None) -> Table:
    """A room with ``players`` people joined and seated 1..N, and a spectator who joined
    without sitting; the game started unless ``start`` is false."""
    host = Client()
    room = create_room(host)
    seats, names, spectator = seat_people(host, room, players)
    table = Table(room=room, seats=seats, spectator=spectator, names=names)
    return set_up(table, step=step, start=start)


# -- reading cards out of the HTML ------------------------------------------------------


@dataclass
class CardHtml:
    index: int
    attrs: dict[str, str]
    inner: list[str] = field(default_factory=list)  # text and attributes inside the button

    def strings(self) -> list[str]:
        return [*(f"{k}={v}" for k, v in self.attrs.items()), *self.inner]


class _Cards(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cards: list[CardHtml] = []
        self._open: CardHtml | None = None
        self.comments: list[str] = []
        self.hidden_inputs: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "input" and values.get("type") == "hidden":
            self.hidden_inputs.append(values)
        if tag == "button" and values.get("name") == "card":
            self._open = CardHtml(int(values["value"]), values)
            self.cards.append(self._open)
        elif self._open is not None:
            self._open.inner += [f"{tag}:{k}={v}" for k, v in values.items()]

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None and data.strip():
            self._open.inner.append(data.strip())

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def parse_cards(html: str) -> _Cards:
    parser = _Cards()
    parser.feed(html)
    parser.close()
    return parser


EVERY_KEY_WORD = ("gold", "teal", "haze", "cloud", "comet", "star", *KEY_SYMBOLS.values())


PANEL = re.compile(r'<div id="panel"[^>]*>')


def shows_panel(html: str) -> bool:
    """Whether a page or a push shows its audience the controls of whoever acts: every
    audience's board has a #panel, hidden and empty for everyone who does not act now."""
    return any(" hidden" not in tag for tag in PANEL.findall(html))


def dark_card_findings(html: str, state: State) -> list[str]:
    """Where a dark card's key (or any key word) shows in this HTML; empty if nowhere."""
    parsed = parse_cards(html)
    found = []
    for card in parsed.cards:
        if card.index in state.lit:
            continue
        pic = picture(state.sky[card.index])
        for text in card.strings():
            plain = text.lower().replace(pic.asset.lower(), "").replace(pic.name, "")
            for word in EVERY_KEY_WORD:
                if word in plain:
                    found.append(f"card {card.index} ({state.key[card.index]}): {text!r}")
    for comment in parsed.comments:
        found += [f"comment: {comment!r}" for w in EVERY_KEY_WORD if w in comment.lower()]
    for hidden in parsed.hidden_inputs:
        public = hidden.get("name") in {"version", "constellation"}  # numbers everyone sees
        marks = {k: v for k, v in hidden.items() if k not in {"type", "name", "value"}}
        if not public or not hidden["value"].isdigit() or not _only_area_marks(marks):
            found.append(f"hidden input: {hidden!r}")
    return found


# The sky's version field is an area (pushed alone): its id, its form, and its version marks.
AREA_MARKS = {"id": {"sky-version"}, "form": {"sky"}, "data-area": {""}, "hx-swap-oob": {"true"}}
AREA_NUMBERS = {"data-version", "data-game", "data-since"}


def _only_area_marks(marks: dict[str, str]) -> bool:
    return all(
        value.isdigit() if key in AREA_NUMBERS else value in AREA_MARKS.get(key, ())
        for key, value in marks.items()
    )


def every_push_into(sent: list[tuple[str, dict]]) -> Callable[[list], None]:
    """A stand-in for ``lobby.realtime._send_all`` that records every group's message, made
    as if every group had a socket (a board is otherwise made only for a group with one)."""

    def record(messages: list) -> None:
        sent.extend((group, realtime.made(message)) for group, message in messages)

    return record
