"""Which room a game is played in, its seats' names and which seats began with a computer
in them: the part of the room a push (and a computer's wake-up) needs. And who held a seat
in earlier games, by name: what a board may ask about its seat's player (``earlier_games``).

Both are fixed for a game's whole life (a room keeps its code; a match's seat names are
written once, at the start), so a process remembers them by game: the view that ran the
action has read them already and hands them over, and the clock's worker reads them once
per game, not once per step.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import reduce
from operator import or_
from types import MappingProxyType
from typing import Any

from django.db.models import CharField, F, Func, Q, Subquery, Value
from django.db.models.sql.compiler import SQLCompiler

from games.definition import Earlier, EarlierAsked
from games.models import Event, Game
from games.registry import game_type

from .models import Match, Room

_SIZE = 4096  # games remembered per process


@dataclass(frozen=True)
class Seating:
    room_id: int
    code: str
    names: Mapping[int, str]
    computers: frozenset[int] = frozenset()  # the seats the game started with a computer in


_remembered: OrderedDict[int, Seating] = OrderedDict()
_lock = threading.Lock()


def remember(game_id: int, room: Room, match: Match | None) -> Seating:
    """What a view already read about a running game's room (no query)."""
    seating = Seating(
        room.pk,
        room.code,
        MappingProxyType(match.names() if match else {}),
        match.computer_seats() if match else frozenset(),
    )
    if match is not None:  # without the match the names are not known yet: not kept
        _keep(game_id, seating)
    return seating


def seating_of(game_id: int) -> Seating | None:
    """The room and seat names of a game (None: no room plays it)."""
    with _lock:
        known = _remembered.get(game_id)
        if known is not None:
            _remembered.move_to_end(game_id)
            return known
    room = Room.objects.filter(game_id=game_id).only("pk", "code").first()
    if room is None:
        return None
    match = Match.objects.filter(game_id=game_id).only("seats", "bound").first()
    return remember(game_id, room, match)


def forget_all() -> None:
    with _lock:
        _remembered.clear()


def _keep(game_id: int, seating: Seating) -> None:
    with _lock:
        _remembered[game_id] = seating
        _remembered.move_to_end(game_id)
        while len(_remembered) > _SIZE:
            _remembered.popitem(last=False)


# -- a seat's player in earlier games (games.definition.EarlierAsked) ---------------------------


class _Holder(Func):
    """The name a match's ``seats`` gives one seat. Its keys are digits, which Django's JSON
    key lookups would read as array indexes: the path names the key instead."""

    function = "JSON_EXTRACT"  # SQLite: JSON_EXTRACT(bound, '$."1"')
    output_field = CharField()

    def __init__(self, bound: str, seat: int) -> None:
        super().__init__(F(bound), Value(f'$."{seat}"'))
        self.seat = seat

    def as_postgresql(self, compiler: SQLCompiler, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        return f"({sql} ->> %s)", (*params, str(self.seat))


def earlier_games(game_id: int, asked: EarlierAsked) -> list[Earlier]:
    """The earlier games of whoever holds ``asked.seat`` of game ``game_id``, by the display
    name the seat had (Observatory's S3: "under the same display name"): the finished games
    of its kind, started before it, that had ``asked.players`` seats, one of them under that
    same name; each with that seat and its last event. One query, whatever the number of
    games found."""
    seats = range(1, asked.players + 1)
    shown = Match.objects.filter(game_id=game_id).order_by()
    me = Subquery(shown.annotate(who=_Holder("seats", asked.seat)).values("who")[:1])
    holders = {f"holder_{n}": _Holder("game__match__seats", n) for n in seats}
    rows = (
        Event.objects.filter(
            game__kind=Subquery(Game.objects.filter(pk=game_id).values("kind")[:1]),
            game_id__lt=game_id,
            game__ended_at__isnull=False,
            seq=F("game__version"),
            game__match__seats__has_key=str(asked.players),
        )
        .exclude(game__match__seats__has_key=str(asked.players + 1))
        .annotate(me=me, **holders)
        .filter(reduce(or_, (Q(**{name: F("me")}) for name in holders)))
        .order_by()
        .values_list("game__kind", "kind", "schema", "payload", "me", *holders)
    )
    found = []
    for game_kind, kind, schema, payload, player, *held in rows:
        seat = held.index(player) + 1
        found.append(Earlier(seat, game_type(game_kind).codec.decode(kind, payload, schema)))
    return found
