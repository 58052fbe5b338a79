"""Computer players: a seat the host gives to the game's own computer player
(``GameDefinition.computer``), which plays through the very commands a person sends.

A computer is a ``Player`` of the room whose identity no browser can have (``computer:`` and
a token: a browser's identity is URL-safe base64, with no colon), with a star's name marked
"(computer)". The host seats one in a free seat between games and frees it like anyone.

After every append (``store.events_appended``, once it is committed) a computer sitting in
the game that owes a move (``computer.waiting``, cheap) gets one task: it thinks for every
such seat and moves, one command at a time, until none owes a move. The task runs on
django-q2's cluster, never in the request of the person whose action woke it (the embedded
default runs the cluster with the server); ``CONSTELLATE_COMPUTERS_INLINE`` runs it at once
instead, for tests. A move the rules refuse is logged and never retried in that task: a
computer can stall its own seat (the clock then passes it, as it would a person), never
the server.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.dispatch import receiver

from games.registry import game_type
from games.store import events_appended

from .models import COMPUTER, Player, Room
from .seating import seating_of

log = logging.getLogger(__name__)

PREFIX = COMPUTER
TASK = "lobby.computers.play"  # keep in step with play's path
MOVES_PER_TASK = 400  # far more than any game's moves between two people's
NAMES = ("Vega", "Altair", "Deneb", "Rigel", "Sirius", "Capella", "Mira", "Lyra")
MARK = " (computer)"

_local = threading.local()


def is_computer(identity: str | None) -> bool:
    return bool(identity) and str(identity).startswith(PREFIX)


def new_identity() -> str:
    return PREFIX + secrets.token_urlsafe(12)


def free_name(room: Room) -> str:
    """A star's name, marked as a computer's, that nobody in the room has."""
    taken = {name.casefold() for name in room.players.values_list("name", flat=True)}
    for star in NAMES:
        if (name := star + MARK).casefold() not in taken:
            return name
    return next(f"Computer {n}" for n in range(1, 100) if f"computer {n}" not in taken)


def seat(room: Room, seat: int) -> Player:
    """A new computer in this (free, checked by the caller) seat."""
    for _ in range(3):
        try:
            with transaction.atomic():
                return Player.objects.create(
                    room=room, identity=new_identity(), name=free_name(room), seat=seat
                )
        except IntegrityError:  # a name or seat taken meanwhile: look again
            continue
    raise IntegrityError(f"no computer could sit in seat {seat}")


# -- moving ------------------------------------------------------------------------------


@receiver(events_appended, dispatch_uid="lobby.computers")
def wake(sender: str, game_id: int, state: Any, **_: object) -> None:
    """After an append: if a computer of this game owes a move, have it move (a task)."""
    computer = game_type(sender).computer
    if computer is None or getattr(_local, "playing", False):
        return  # no computers in this game, or the task that made this append goes on
    seating = seating_of(game_id)
    if seating is None or not seating.computers:
        return
    if any(computer.waiting(state, seat) for seat in seating.computers):
        dispatch(game_id)


def dispatch(game_id: int) -> None:
    if getattr(settings, "CONSTELLATE_COMPUTERS_INLINE", False):
        play(game_id)
        return
    try:
        from django_q.tasks import async_task

        async_task(TASK, game_id, task_name=f"computers:{game_id}")
    except Exception:  # a move not queued stalls a seat until the clock; never an action
        log.exception("could not queue the computers' move in game %s", game_id)


def play(game_id: int) -> int:
    """Every computer sitting in this game moves while it owes a move; how many moved."""
    _local.playing = True
    try:
        return _play(game_id)
    finally:
        _local.playing = False


def _play(game_id: int) -> int:
    room = Room.objects.filter(game_id=game_id).first()
    if room is None:
        return 0
    game = game_type(room.kind)
    computer = game.computer
    if computer is None:
        return 0
    sitting = sorted(
        seat
        for seat in room.players.filter(
            identity__startswith=PREFIX, seat__isnull=False
        ).values_list("seat", flat=True)
        if seat is not None
    )
    rng = random.Random(secrets.randbits(64))
    stalled: set[int] = set()
    moves = 0
    while moves < MOVES_PER_TASK:
        state = game.current(game_id)
        owing = [s for s in sitting if s not in stalled and computer.waiting(state, s)]
        if not owing:
            break
        seat_ = owing[0]
        outcome = game.act(game_id, computer.move(state, seat_, rng))
        if outcome.ok:
            moves += 1
        else:
            stalled.add(seat_)
            reason = outcome.refusal.reason if outcome.refusal else "refused"
            log.warning("computer in seat %s of game %s was refused: %s", seat_, game_id, reason)
    return moves
