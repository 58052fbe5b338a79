"""Which room a game is played in, its seats' names and which seats began with a computer
in them: the part of the room a push (and a computer's wake-up) needs.

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
from types import MappingProxyType

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
