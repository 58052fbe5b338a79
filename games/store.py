"""Appending and reading events. Appends are serialized per game: the game's version moves
by a conditional UPDATE (the version the append was decided at, to the new one), the
transaction's first write, so two writers can never land the same version; the game row may
be locked before (``lock``: ``select_for_update``; on SQLite the IMMEDIATE transaction holds
the write lock). The unique (game, seq) constraint is the last line of defence."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from .codec import SchemaError
from .models import Event, Game
from .prepared import Prepared
from .registry import Definition, game_type
from .writes import append_rows

# Sent after the transaction that appended events commits:
# sender=kind, game_id, state (after), events (the new ones), first_version (of the first).
events_appended = Signal()


class VersionConflict(Exception):
    """Another append landed first: the caller's state is stale."""


@dataclass(frozen=True)
class Loaded:
    game: Game
    state: Any


def create_game(kind: str) -> Game:
    game_type(kind)  # unknown kinds fail here, not later
    return Game.objects.create(kind=kind)


def append(
    game: Game,
    events: Sequence[object],
    *,
    expected_version: int,
    actor_seat: int | None = None,
    now: datetime | None = None,
) -> int:
    """Append events at ``expected_version``; return the new version. Raises
    VersionConflict when the game moved on, and nothing is written."""
    return append_steps(game, [(events, actor_seat)], expected_version=expected_version, now=now)


def append_steps(
    game: Game,
    steps: Sequence[tuple[Sequence[object], int | None]],
    *,
    expected_version: int,
    now: datetime | None = None,
    ended: bool = False,
) -> int:
    """Append each step's events (a step: its events and the seat that made them, None for
    the clock), one after the other from ``expected_version``, in one write; return the new
    version. ``ended``: the game ended with them (its ``ended_at`` is set if it has none).
    Atomic on its own, or part of the caller's transaction; raises VersionConflict when
    the game moved on, and nothing is written."""
    codec = game_type(game.kind).codec
    stamp = now or timezone.now()
    rows: list[tuple[Any, ...]] = []
    for events, actor_seat in steps:
        for event in events:
            kind, payload = codec.encode(event)
            seq = expected_version + len(rows) + 1
            rows.append((game.pk, seq, kind, codec.schema(kind), payload, actor_seat, stamp))
    if not rows:
        return expected_version
    new_version = expected_version + len(rows)
    ended_at = stamp if ended and game.ended_at is None else None
    if not append_rows(game.pk, expected_version, new_version, stamp, rows, ended_at=ended_at):
        raise VersionConflict(f"game {game.pk} is no longer at version {expected_version}")
    game.version = new_version
    if ended_at is not None:
        game.ended_at = ended_at
    return new_version


def read_events(game: Game, *, after: int = 0, upto: int | None = None) -> list[object]:
    """The game's events, each upcast from the schema version it was stored in."""
    codec = game_type(game.kind).codec
    rows = Event.objects.filter(game_id=game.pk, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    events = []
    for seq, kind, schema, payload in rows.values_list("seq", "kind", "schema", "payload"):
        try:
            events.append(codec.decode(kind, payload, schema))
        except SchemaError as error:  # say which row, still never its payload
            raise SchemaError(f"game {game.pk}, event {seq}: {error}") from error
    return events


# -- the derived state cache ------------------------------------------------------------------
# A fold of every event, kept per process and topped up with the events it has not seen.
# It is an optimisation only: dropping it changes nothing but speed.

_CACHE_SIZE = 512
_cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()
_cache_lock = threading.Lock()


def forget_cached_states() -> None:
    with _cache_lock:
        _cache.clear()


def state_of(game: Game) -> Any:
    """The game's state at ``game.version``, folded from its events."""
    kind = game_type(game.kind)
    with _cache_lock:
        cached = _cache.get(game.pk)
    if cached and cached[0] == game.version:
        return cached[1]
    if cached and cached[0] < game.version:
        version, state = cached
    else:
        version, state = 0, kind.initial()
    state = _fold_more(kind, game, version, state)
    _remember(game.pk, game.version, state)
    return state


def known_past(game: Game) -> bool:
    """Whether this process already holds the game's state at a later version than the row
    says: the row was read before another append (deciding on it would fold again from the
    start, only for the append to be refused)."""
    with _cache_lock:
        cached = _cache.get(game.pk)
    return cached is not None and cached[0] > game.version


def _fold_more(kind: Definition, game: Game, version: int, state: Any) -> Any:
    events = read_events(game, after=version, upto=game.version)
    if version + len(events) != game.version:
        raise RuntimeError(f"game {game.pk}: events have a gap before version {game.version}")
    return kind.fold(events, state)


def _remember(game_id: int, version: int, state: Any) -> None:
    """Keep the state at ``version``, unless a later one is kept already (a row read before
    another thread's append folds to its own, older version)."""
    with _cache_lock:
        kept = _cache.get(game_id)
        if kept is None or kept[0] <= version:
            _cache[game_id] = (version, state)
        _cache.move_to_end(game_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def remember_state(game: Game, state: Any) -> None:
    """After a successful append, the caller already holds the new state: keep it once the
    transaction commits (a rolled-back append must never be remembered)."""
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: _remember(game_id, version, state))


# An action's two reads of its game, compiled once (games/prepared.py).
GAME = Prepared(lambda pk: Game.objects.filter(pk=pk), int)
LOCKED_GAME = Prepared(lambda pk: Game.objects.select_for_update().filter(pk=pk), int)


def game(game_id: int) -> Game:
    """The game row (``Game.DoesNotExist`` when there is none)."""
    return _found(GAME.first(game_id), game_id)


def lock(game_id: int) -> Game:
    """Inside ``transaction.atomic``: the game row, locked for this transaction."""
    if transaction.get_autocommit():  # the check Django makes as it compiles, made each time
        raise transaction.TransactionManagementError("a game is locked inside a transaction")
    return _found(LOCKED_GAME.first(game_id), game_id)


def _found(row: Game | None, game_id: int) -> Game:
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return row


def replay(game: Game) -> list[Any]:
    """Every state the game went through, version 0 to now, folded from the events."""
    kind = game_type(game.kind)
    states = [kind.initial()]
    for event in read_events(game):
        states.append(kind.evolve(states[-1], event))
    return states


def after_commit(game: Game, state: Any, events: Sequence[object], first_version: int) -> None:
    """Tell the realtime layer (and anyone else) once the append is durable."""
    events = list(events)

    def send() -> None:
        events_appended.send(
            sender=game.kind,
            game_id=game.pk,
            state=state,
            events=events,
            first_version=first_version,
        )

    transaction.on_commit(send)
