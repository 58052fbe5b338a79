"""The games the platform hosts. A game plugs in by registering its pure rules here:
how to start from nothing, how an event changes the state, and how its events are stored.
The event store, lobby, realtime push and clock work through this and nothing else."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .codec import EventCodec, EventSchemas
from .flags import Moderation


@dataclass(frozen=True)
class GameType:
    kind: str  # stored on Game.kind, e.g. "constellate"
    title: str
    initial: Callable[[], Any]  # the state before any event
    evolve: Callable[[Any, object], Any]  # (state, event) -> state
    event_types: Iterable[type] = ()
    # How the events evolved: each kind's current schema version and the upcasters that
    # read older stored versions (games.codec); by default every kind is at version 1.
    event_schemas: EventSchemas = field(default_factory=EventSchemas)
    # The clock: the current step and its deadline (None when no clock runs), and how to
    # expire that step in a game (a no-op, refused, when the step is already over).
    clock: Callable[[Any], tuple[int, Any] | None] = lambda state: None
    expire: Callable[[int, int], Any] | None = None
    # How the game is shown: a module or object with audiences(state), audience_of(state,
    # seat), render_board(state, audience, names, code, oob=) and current(game_id).
    screens: Any = None
    # The lobby's side: how many seats, what a seat is called for a player count, the
    # name of the mode a player count plays, and how to start a game (returns the Game).
    min_players: int = 2
    max_players: int = 8
    seat_label: Callable[[int, int], str] = lambda players, seat: f"Seat {seat}"
    mode_label: Callable[[int], str] = lambda players: ""
    start: Callable[..., Any] | None = None  # start(players=, step_seconds=, options=) -> Game
    # What the home page says about the game, and the static files its screens need.
    summary: str = ""
    styles: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    # The host's choices before a start, kept on the room (a dict of strings): their
    # defaults, a check that returns them cleaned or raises ValueError with a message for
    # a person, a sentence saying what was chosen, and the template of the host's form
    # (rendered in the lobby with ``room``, ``options`` and ``running``).
    default_options: Callable[[], dict[str, str]] = dict
    clean_options: Callable[[Mapping[str, str]], dict[str, str]] = lambda raw: {}
    options_text: Callable[[Mapping[str, str]], str] = lambda options: ""
    options_template: str | None = None
    # Moderation (games.flags): which public texts players may flag and what the admin
    # shows for a flag (None: nothing to flag); and the work done once at server start
    # (config/asgi.py), e.g. loading word data before the first player waits on it.
    moderation: Moderation | None = None
    warm_up: Callable[[], None] = lambda: None
    codec: EventCodec = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "codec", EventCodec(self.event_types, self.event_schemas))

    def fold(self, events: Iterable[object], state: Any = None) -> Any:
        state = self.initial() if state is None else state
        for event in events:
            state = self.evolve(state, event)
        return state


_registry: dict[str, GameType] = {}


def register(game_type: GameType) -> GameType:
    _registry[game_type.kind] = game_type
    return game_type


def game_type(kind: str) -> GameType:
    return _registry[kind]


def all_game_types() -> list[GameType]:
    return list(_registry.values())
