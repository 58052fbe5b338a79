"""One game, as the platform reads it: the one typed object a game registers.

A game is its pure rules (``rules/``: commands, events, ``decide``, ``evolve``,
``view_for``), its presenters and templates, and one definition module (``game.py``)
that builds a ``GameDefinition`` and registers it. Everything else (the event store, the
service loop, the room's web and realtime edge, the clock, the replay, moderation) is the
platform's and reads the game through this object only. ``docs/adding-a-game.md`` walks
through it.
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from django.core.signals import setting_changed
from django.dispatch import receiver

from games.fragments import render_fragment, render_fragments

from .codec import EventCodec, EventSchemas
from .flags import Moderation
from .kit import Clocked, Decision, Problem, due

if TYPE_CHECKING:
    from .models import Game
    from .service import Outcome


class GameState(Clocked, Protocol):
    """What the platform reads of any game's state: the kit's ``Clocked`` and a version."""

    @property
    def version(self) -> int: ...


S = TypeVar("S", bound=GameState)
S_in = TypeVar("S_in", bound=GameState, contravariant=True)
C = TypeVar("C")
Names = Mapping[int, str]  # seat -> the name its player had when the game started


class Form(Protocol):
    """What an action reads of a submitted form (a QueryDict): one value per field."""

    def get(self, key: str, default: None = None, /) -> str | None: ...


@dataclass(frozen=True)
class Table:
    """What the host chose before a start: the deal command is drawn from it."""

    players: int
    step_seconds: int | None  # the step clock (None: off)
    options: Mapping[str, str]  # the game's own options, cleaned by ``HostOptions.clean``
    rng: random.Random  # the server's randomness: the draws are stored in the deal


@dataclass(frozen=True)
class Seats:
    """How many play, what each seat is called for a player count (``label(players,
    seat)``), and the name of the mode a player count plays (``mode(players)``)."""

    least: int
    most: int
    label: Callable[[int, int], str] = lambda players, seat: f"Seat {seat}"
    mode: Callable[[int], str] = lambda players: ""

    def __post_init__(self) -> None:
        if not 1 <= self.least <= self.most:
            raise ValueError(f"a game seats 1 or more: {self.least}..{self.most}")

    @property
    def range_text(self) -> str:
        if self.least == self.most:
            return f"{self.least} player" + ("s" if self.least > 1 else "")
        return f"{self.least}–{self.most} players"


def _no_options() -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class HostOptions:
    """The host's choices before a start, kept on the room as strings: their defaults, a
    check that returns them cleaned or raises ``BadInput`` (a ValueError) saying why, a
    sentence saying what was chosen, and the template of the host's form (rendered in the
    lobby with ``room``, ``options`` and ``running``)."""

    default: Callable[[], dict[str, str]] = _no_options
    clean: Callable[[Mapping[str, str]], dict[str, str]] = lambda raw: {}
    text: Callable[[Mapping[str, str]], str] = lambda options: ""
    template: str | None = None

    @classmethod
    def of(cls, module: OptionsModule, template: str) -> HostOptions:
        """The choices a module (a game's ``options.py``) defines, and their form."""
        return cls(default=module.default, clean=module.clean, text=module.text, template=template)


class OptionsModule(Protocol):
    """What ``HostOptions.of`` reads of a game's options module."""

    def default(self) -> dict[str, str]: ...

    def clean(self, raw: Mapping[str, str], /) -> dict[str, str]: ...

    def text(self, options: Mapping[str, str], /) -> str: ...


@dataclass(frozen=True)
class Action(Generic[C]):
    """A seated player's command over a form: ``build(form, seat)`` reads the fields with
    ``games.inputs`` (raising ``BadInput``). A refusal whose problem is in ``quiet`` is
    answered with the notice alone, so what the player typed stays in place; ``status``
    overrides a problem's HTTP status."""

    build: Callable[[Form, int], C]
    quiet: frozenset[Problem] = frozenset()
    status: Mapping[Problem, int] = field(default_factory=dict)


# The boards rendered last, by audience, each with the very state object it showed and
# when: a state is immutable, so the same object renders the same board, but the board
# also carries the server's "now" for the countdown, so a render is reused only for a
# moment (the action's answer right after its push), never by a later page load.
_RECENT = 256
_FRESH = 0.25  # seconds: the push and the answer of one action are milliseconds apart
_recent: OrderedDict[tuple[object, ...], tuple[object, str, float]] = OrderedDict()
_recent_lock = threading.Lock()


def _known(key: tuple[object, ...], state: object) -> str | None:
    """The HTML rendered a moment ago for this key from this very state (the push's render
    of an audience, reused by the action's own answer), or None."""
    with _recent_lock:
        known = _recent.get(key)
    if known is not None and known[0] is state and time.monotonic() - known[2] < _FRESH:
        return known[1]
    return None


def _remember(key: tuple[object, ...], state: object, html: str) -> None:
    with _recent_lock:
        _recent[key] = (state, html, time.monotonic())
        _recent.move_to_end(key)
        while len(_recent) > _RECENT:
            _recent.popitem(last=False)


@dataclass(frozen=True)
class Preview(Generic[S]):
    """A draft a seated player may check before submitting it: ``show(state, seat, form,
    now)`` reads the draft from the form (raising ``BadInput``) and says what would happen (legal
    or why not, a score), for the template's ``#preview`` partial (given ``preview``).
    Nothing is recorded: the state is read, never locked or appended to."""

    show: Callable[[S, int, Form, datetime], object]


# -- what a board may ask the platform about the player in a seat ---------------------------
# The rules know a game only; the room knows who holds each seat and what else they played.
# A board that shows something of its seat's player's earlier games (Observatory's S3: the
# best earlier solo score) says so in ``Screens.past``; the room installs the finder.


@dataclass(frozen=True)
class EarlierAsked:
    """A board's question about the player in ``seat``: their earlier finished games of the
    same kind that had ``players`` seats (started before the game shown)."""

    seat: int
    players: int


@dataclass(frozen=True)
class Earlier:
    """One such game: the seat the player held at its end, and its last event (a finished
    game's last event carries its result)."""

    seat: int
    last_event: object


# (the game shown, the question) -> the earlier games found, in one query
EarlierFinder = Callable[[int, EarlierAsked], Sequence[Earlier]]


def _nothing_earlier(game: int, asked: EarlierAsked) -> Sequence[Earlier]:
    return ()


_earlier_finder: EarlierFinder = _nothing_earlier


def provide_earlier_games(finder: EarlierFinder | None) -> None:
    """Install how the platform finds a seat's player's earlier games (the room's, which
    knows who held each seat; None: nothing is ever found)."""
    global _earlier_finder
    _earlier_finder = finder if finder is not None else _nothing_earlier


def earlier_games(game: int, asked: EarlierAsked) -> Sequence[Earlier]:
    return _earlier_finder(game, asked)


@dataclass(frozen=True)
class PlayerPast(Generic[S]):
    """A board that shows something of its seat's player's earlier games. ``ask(state,
    audience)`` says, without a query, whether this board does (None: it does not, and
    nothing is read); ``present(state, audience, names, code, earlier)`` is then the board,
    given the games found."""

    ask: Callable[[S, str], EarlierAsked | None]
    present: Callable[[S, str, Names, str, Sequence[Earlier]], object]


class Presenters(Protocol[S_in]):
    """A game's presenters (usually its ``presenters`` module), as ``Screens.of`` reads
    them: see ``Screens`` for what each one does."""

    def present(self, state: S_in, audience: str, names: Names, code: str, /) -> object: ...

    def present_history(self, state: S_in, names: Names, code: str, /) -> object: ...

    def audiences(self, state: S_in, /) -> Sequence[str]: ...

    def audience_of(self, state: S_in, seat: int | None, /) -> str: ...

    def describe(self, before: S_in, after: S_in, names: Names, /) -> str: ...

    def jumps(self, final: S_in, names: Names, /) -> list[tuple[int, str]]: ...


class Areas(Protocol[S_in]):
    """Pushes by area: given the state after a change, the change's events and an audience,
    the names of the template's partials that are all this audience sees change (each
    pushed alone, out of band; at least one), or None for the whole board. An area's
    element carries ``data-area``, the board's ``data-version`` and ``data-game``
    (``{% area_marks %}``, games/templatetags/areas.py), and when pushed alone
    ``data-since`` (the version the change started from) and ``hx-swap-oob``: the browser
    keeps the newest of each area and asks for the whole board when it missed a change
    (static/platform/socket.js). Every change reaches every audience, as areas or as the
    whole board, so a gap shows."""

    def __call__(
        self, state: S_in, events: Sequence[object], audience: str, /
    ) -> tuple[str, ...] | None: ...


@dataclass(frozen=True)
class Screens(Generic[S]):
    """How the game is shown. ``template`` holds the partials ``#board`` (given ``board``
    and ``oob``) and ``#notice`` (``message``, ``error``); the presenters turn a state into
    what the template reads for one audience (a role, a seat, or ``"public"``)."""

    template: str
    present: Callable[[S, str, Names, str], object]  # (state, audience, names, room code)
    present_history: Callable[[S, Names, str], object]  # a replay step: everything shown
    audiences: Callable[[S], Sequence[str]]  # every audience a change is pushed to
    audience_of: Callable[[S, int | None], str]  # a seat's audience (None: a spectator)
    describe: Callable[[S, S, Names], str]  # what one step of a replay did, in a sentence
    jumps: Callable[[S, Names], list[tuple[int, str]]]  # the replay's landmarks
    jump_label: str = "Jump to a turn"
    past: PlayerPast[S] | None = None  # a seat's board that shows its player's earlier games
    areas: Areas[S] | None = None  # pushes by area: see ``Areas``

    @classmethod
    def of(
        cls,
        template: str,
        presenters: Presenters[S],
        *,
        jump_label: str = "Jump to a turn",
        past: PlayerPast[S] | None = None,
        areas: Areas[S] | None = None,
    ) -> Screens[S]:
        """The screens drawn by ``template`` from a module (or object) of presenters."""
        return cls(
            template=template,
            present=presenters.present,
            present_history=presenters.present_history,
            audiences=presenters.audiences,
            audience_of=presenters.audience_of,
            describe=presenters.describe,
            jumps=presenters.jumps,
            jump_label=jump_label,
            past=past,
            areas=areas,
        )

    def render_push(
        self,
        state: S,
        events: Sequence[object],
        audience: str,
        names: Names,
        code: str,
        *,
        game: int,
        since: int,
    ) -> str:
        """What one audience is pushed after a change from version ``since`` to
        ``state.version`` made of ``events``: only the areas it sees change, when the game
        names them (``Areas``), else the whole board."""
        changed = self.areas(state, events, audience) if self.areas is not None else None
        if not changed:
            return self.render_board(state, audience, names, code, game=game, oob=True)
        key = (self.template, "areas", audience, code, game, since, tuple(sorted(names.items())))
        known = _known(key, state)
        if known is not None:
            return known
        board = self._present(state, audience, names, code, game)
        context = {"board": board, "game": game, "area_oob": True, "since": since}
        html = render_fragments(self.template, changed, context)
        _remember(key, state, html)
        return html

    def render_board(
        self, state: S, audience: str, names: Names, code: str, *, game: int, oob: bool = False
    ) -> str:
        """One audience's board of the game stored as ``game``. The push after an action
        renders every audience of the new state; the action's own answer then reuses its
        audience's render. The board carries its game and version: a browser keeps the
        newest board of a game whatever order pushes and answers arrive in (socket.js)."""
        key = (self.template, audience, code, game, oob, tuple(sorted(names.items())))
        known = _known(key, state)
        if known is not None:
            return known
        board = self._present(state, audience, names, code, game)
        context = {"board": board, "oob": oob, "game": game}
        html = render_fragment(f"{self.template}#board", context)
        _remember(key, state, html)
        return html

    def _present(self, state: S, audience: str, names: Names, code: str, game: int) -> object:
        """The board's presenter; a board that shows its seat's player's earlier games gets
        them first (``past``)."""
        asked = self.past.ask(state, audience) if self.past is not None else None
        if self.past is None or asked is None:
            return self.present(state, audience, names, code)
        return self.past.present(state, audience, names, code, earlier_games(game, asked))

    def render_notice(self, message: str, *, error: bool = True) -> str:
        return _notice(self.template, message, error)

    def render_preview(self, preview: object) -> str:
        return render_fragment(f"{self.template}#preview", {"preview": preview})

    def history_board(self, state: S, names: Names, code: str) -> str:
        board = self.present_history(state, names, code)
        return render_fragment(f"{self.template}#board", {"board": board, "oob": False})


@lru_cache(maxsize=256, typed=True)
def _notice(template: str, message: str, error: bool) -> str:
    """A notice: the same few sentences (and the empty one every action's answer carries),
    rendered once each (forgotten when a test swaps the templates: ``_forget_notices``)."""
    return render_fragment(f"{template}#notice", {"message": message, "error": error})


@receiver(setting_changed)
def _forget_notices(*, setting: str, **_: object) -> None:
    if setting == "TEMPLATES":
        _notice.cache_clear()


@dataclass(frozen=True)
class Computer(Generic[S, C]):
    """A computer player the host may seat: ``waiting(state, seat)`` says, cheaply, whether
    that seat owes a move now; ``move(state, seat, rng)`` thinks (under a second) and gives
    the command a person in that seat could send. It plays through the same commands and
    refusals as anyone, and its choices are stored in the events like anyone's."""

    waiting: Callable[[S, int], bool]
    move: Callable[[S, int, random.Random], C]


@dataclass(frozen=True)
class HowToPlay:
    """The game's rules page: a template and what it reads (``context()``)."""

    template: str
    context: Callable[[], Mapping[str, object]] = dict


@dataclass(frozen=True, kw_only=True)
class GameDefinition(Generic[S, C]):
    """Everything the platform knows about one game. ``S`` is its state, ``C`` its
    commands. Build one in the game's ``game.py`` and ``register`` it."""

    slug: str  # stored on Game.kind and Room.kind, e.g. "constellate"
    title: str
    summary: str  # what the home page says about it
    seats: Seats
    options: HostOptions = HostOptions()
    # The pure rules.
    initial: Callable[[], S]  # the state before any event
    decide: Callable[[S, C, datetime], Decision]  # (state, command, now) -> events | refusal
    evolve: Callable[[S, object], S]  # (state, event) -> state
    view_for: Callable[[S, int | None], object]  # what a seat (None: a spectator) may know
    event_types: Sequence[type]
    # How the stored events evolved (games.codec): by default every kind at version 1.
    event_schemas: EventSchemas = EventSchemas()
    # The first command, drawn by the server from the host's table (the deal).
    deal: Callable[[Table], C]
    # The clock's command for the step that started at a version; the service decides it
    # when the step is due (C6), whoever comes first: the scheduled job or a player.
    expire: Callable[[int, random.Random], C] | None = None
    expiry_type: type | None = None  # the class of that command
    # What a seated player may do, by the action's name in the room's URL.
    actions: Mapping[str, Action[C]] = field(default_factory=dict)
    # What a seated player may check before acting, by name: answered, never recorded.
    previews: Mapping[str, Preview[S]] = field(default_factory=dict)
    screens: Screens[S]
    how_to_play: HowToPlay | None = None
    computer: Computer[S, C] | None = None  # None: only people play it
    styles: tuple[str, ...] = ()  # the static files its screens need
    scripts: tuple[str, ...] = ()
    # Moderation (games.flags): which public texts may be flagged and what the admin
    # shows for a flag (None: nothing to flag); and the work done once at server start
    # (config/asgi.py), e.g. loading word data before the first player waits on it.
    moderation: Moderation | None = None
    warm_up: Callable[[], None] = lambda: None
    codec: EventCodec = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if (self.expire is None) != (self.expiry_type is None):
            raise ValueError(f"{self.slug}: give both expire and expiry_type, or neither")
        object.__setattr__(self, "codec", EventCodec(self.event_types, self.event_schemas))

    # -- the rules, as the platform uses them ---------------------------------------------
    def fold(self, events: Iterable[object], state: S | None = None) -> S:
        state = self.initial() if state is None else state
        for event in events:
            state = self.evolve(state, event)
        return state

    def due_expiry(self, state: S, now: datetime, rng: random.Random | None = None) -> list[object]:
        """C6: the events that expire the running step if its deadline has passed."""
        if self.expire is None or not due(state, now):
            return []
        command = self.expire(state.step_started, rng or random.SystemRandom())
        decision = self.decide(state, command, now)
        return decision if isinstance(decision, list) else []

    def is_expiry(self, command: object) -> bool:
        return self.expiry_type is not None and isinstance(command, self.expiry_type)

    @staticmethod
    def clock(state: S) -> tuple[int, datetime] | None:
        """The step now running and its deadline, for the scheduler (None: no clock runs)."""
        if state.ended or state.deadline is None:
            return None
        return state.step_started, state.deadline

    def seat_label(self, players: int, seat: int) -> str:
        return self.seats.label(players, seat)

    def mode_label(self, players: int) -> str:
        return self.seats.mode(players)

    # -- the service (games.service): one command, one atomic write --------------------------
    def start(
        self,
        *,
        players: int | None = None,
        step_seconds: int | None = None,
        options: Mapping[str, str] | None = None,
        rng: random.Random | None = None,
        now: datetime | None = None,
    ) -> tuple[Game, Outcome]:
        """A new game, dealt: the host's table (options cleaned here) drawn into the deal.
        ``players`` may be left out when the game seats a fixed number."""
        from . import service

        if players is None and self.seats.least == self.seats.most:
            players = self.seats.least
        if players is None or not self.seats.least <= players <= self.seats.most:
            raise ValueError(f"{self.title} is played by {self.seats.range_text}.")
        chosen = self.options.clean(options if options is not None else self.options.default())
        table = Table(players, step_seconds, chosen, rng or random.SystemRandom())
        return service.start(self, self.deal(table), now=now)

    def act(self, game: int | Game, command: C, *, now: datetime | None = None) -> Outcome:
        """Run one command. A refusal appends nothing (except a due expiry, C6). Given the
        game's row as just read (not its id), the command is decided at that row's version
        without locking it first (``service.act``)."""
        from . import service

        return service.act(self, game, command, now=now)

    def expire_step(
        self,
        game_id: int,
        step: int,
        *,
        now: datetime | None = None,
        rng: random.Random | None = None,
    ) -> Outcome:
        """The clock ran out on ``step``. Refused, changing nothing, if that step is over or
        still has time: a late or duplicate job does nothing."""
        if self.expire is None:
            raise ValueError(f"{self.title} has no clock.")
        return self.act(game_id, self.expire(step, rng or random.SystemRandom()), now=now)

    def current(self, game: Game | int, *, now: datetime | None = None) -> S:
        """The game as it stands, any due expiry applied first (C6)."""
        from . import service

        return service.current(self, game, now=now)
