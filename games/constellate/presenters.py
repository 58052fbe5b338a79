"""What a template receives: the board as one audience may see it, built from the seat's
view (K4). Templates never see the rule state, so they cannot show what is not here."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from functools import lru_cache
from operator import is_
from typing import Generic, TypeVar

from django.templatetags.static import static
from django.utils import timezone

from games.fragments import Presented, once

from . import rules
from .deck import picture

V = TypeVar("V")

KEY_LABELS = {
    rules.Key.GOLD: "Gold star",
    rules.Key.TEAL: "Teal star",
    rules.Key.HAZE: "Haze",
    rules.Key.CLOUD: "Cloud",
    rules.Key.COMET: "Comet",
}
KEY_SYMBOLS = {  # a shape for each kind, so colour is never the only clue
    rules.Key.GOLD: "★",
    rules.Key.TEAL: "◆",
    rules.Key.HAZE: "≋",
    rules.Key.CLOUD: "☁",
    rules.Key.COMET: "☄",
}
TURN_ENDS = {
    rules.TurnEnd.HAZE: "haze ended the turn",
    rules.TurnEnd.CLOUD: "a cloud ended the turn (an extra hour)",
    rules.TurnEnd.COMET: "the comet ended the turn",
    rules.TurnEnd.RIVAL_STAR: "a rival star ended the turn",
    rules.TurnEnd.ALLOWANCE_USED: "every touch used",
    rules.TurnEnd.STOPPED: "stopped, one touch banked",
    rules.TurnEnd.NAMING_EXPIRED: "the clock ran out before a word",  # C2
    rules.TurnEnd.SPOTTING_EXPIRED: "the clock ran out while spotting, nothing banked",  # C3
}
PUBLIC = "public"
HISTORY = "history"  # a replay sees the key: the game is over, or a moderator is looking


def audience_of(state: rules.State, seat: int | None) -> str:
    """Who this viewer is for pushes: a Stargazer or a Spotter of a crew, or the public."""
    place = state.seat(seat) if seat is not None and state.dealt else None
    if place is None:
        return PUBLIC
    return f"{'stargazer' if place.stargazer else 'spotter'}-{place.crew.value}"


def audiences(state: rules.State) -> list[str]:
    seats = {audience_of(state, n) for n in range(1, state.players + 1)}
    return [PUBLIC, *sorted(seats)]


@dataclass(frozen=True)
class CardPresenter(Presented):
    index: int
    name: str
    asset: str
    lit: bool
    key: str | None  # only where this audience may see it
    key_label: str
    symbol: str
    touchable: bool


@dataclass(frozen=True)
class TouchLine(Presented):
    name: str
    key: str
    key_label: str
    who: str


@dataclass(frozen=True)
class LogLine(Presented):
    number: int
    crew: str
    word: str
    count: int
    giver: str
    touches: tuple[TouchLine, ...]
    comet: tuple[str, ...]
    ended: str
    version: int
    can_flag: bool = False  # F1: the line carries its flag form for seated players
    code: str = ""
    note: str = ""  # never set: a constellation (NoteLine's is)


@dataclass(frozen=True)
class NoteLine(Presented):
    """A line of the log that is no constellation: a naming step that ran out (C2, C4)."""

    crew: str
    note: str
    version: int


@dataclass(frozen=True)
class Sky(Presented):
    """The cards as one audience sees them: the same for every audience that sees the same
    cards, at every version and in every room while they stay as they are (rendered once,
    ``render_shared``; the form around them and its version field are areas of their own)."""

    cards: tuple[CardPresenter, ...]


@dataclass(frozen=True)
class Log(Presented):
    lines: tuple[LogLine | NoteLine, ...]  # the newest first

    @once
    def _hash(self) -> int:
        return hash(self.lines)

    def __hash__(self) -> int:  # looked up in the render cache by every audience that shares it
        return self._hash


@dataclass(frozen=True, eq=False)
class Board(Presented):
    """One audience's board. What is costly to build and shown only by some areas (the
    sky's cards, the log, the card a touch lit, the line being spotted) is built when a
    template first reads it, from this audience's seat view (K4: never the rule state): a
    touch's push reads none of the sky and one line of the log. Two boards are equal when
    everything they show is."""

    code: str
    audience: str
    version: int
    mode: str
    rivalry: bool
    crew: str
    crew_title: str
    step: str
    sees_key: bool
    word: str | None
    count: int
    touches_left: int
    bank_in_play: bool
    banks: tuple[str, ...]
    dark_stars: tuple[tuple[str, int], ...]
    hours: int
    can_name: bool
    can_touch: bool
    can_stop: bool
    numbers: tuple[int, ...]
    ended: bool
    result: str
    deadline: str | None
    step_seconds: int | None
    turn_text: str  # whose turn, said to this audience ("Your turn: ...", "Wait: ...")
    view: rules.SeatView = field(repr=False, compare=False)  # what the lazy fields read
    names: tuple[tuple[int, str], ...] = field(repr=False, compare=False, default=())
    now: datetime | None = field(repr=False, compare=False, default=None)  # None: when read
    warning: str = ""  # C4: one more missed word and the crew naming now forfeits
    key_legend: tuple[tuple[str, str, str], ...] = ()  # (kind, symbol, label): who sees the key
    role_text: str = ""  # who this audience is ("You are the Teal Stargazer", "You are watching")
    my_turn: bool = False  # this audience acts now
    can_flag: bool = False  # F1: every seated player, either crew
    history: bool = False  # a replay: no clock, no controls
    fresh: tuple[int, ...] = ()  # the card the latest touch lit (pushed alone: "touched")
    current: int = 0  # the number of the constellation being spotted (its log line)

    @once
    def cards(self) -> tuple[CardPresenter, ...]:
        return _cards(self.view.cards, self.can_touch)

    @property
    def log(self) -> tuple[LogLine | NoteLine, ...]:
        """The constellations and the naming steps that ran out, the newest first."""
        return self.log_view.lines

    @once
    def server_now(self) -> str:
        return (self.now or timezone.now()).isoformat()

    @once
    def sky(self) -> Sky:
        return Sky(self.cards)

    @property
    def touched(self) -> tuple[CardPresenter, ...]:
        """The card the latest touch lit (its area, pushed alone after a touch)."""
        cards = self.view.cards
        return tuple(_card(cards[i], self.can_touch) for i in self.fresh)

    @property
    def current_line(self) -> tuple[LogLine, ...]:
        """The log's line of the constellation being spotted (its area, after a touch)."""
        spotted = [c for c in self.view.constellations if c.number == self.current]
        return tuple(_line(self.view, c, self.names, self.can_flag, self.code) for c in spotted)

    @once
    def log_view(self) -> Log:
        return _log(self.view, self.names, self.can_flag, self.code)

    def shown(self) -> tuple[object, ...]:
        """Everything a template may read of this board."""
        kept = (getattr(self, f.name) for f in fields(self) if f.compare)
        return (*kept, self.cards, self.log, self.server_now)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.shown() == other.shown()

    def __hash__(self) -> int:
        return hash(self.shown())


def present(
    state: rules.State,
    audience: str,
    names: Mapping[int, str],
    code: str,
    now: datetime | None = None,
) -> Board:
    role, _, crew = audience.partition("-")
    view = _view(state, _stand_in(state, audience))
    active = state.crew.value
    spotting = state.step is rules.Step.SPOTTING
    can_touch = role == "spotter" and crew == active and spotting
    can_name = role == "stargazer" and crew == active and view.step is rules.Step.NAMING
    seated = role in ("stargazer", "spotter")  # F1: every seated player may flag
    return Board(
        code=code,
        audience=audience,
        version=view.version,
        mode="Rivalry" if view.mode is rules.Mode.RIVALRY else "Before Dawn",
        rivalry=view.mode is rules.Mode.RIVALRY,
        crew=active,
        crew_title=state.crew.display,
        step=view.step.value,
        sees_key=view.sees_key,
        word=view.current.word if view.current else None,
        count=view.current.count if view.current else 0,
        touches_left=view.touches_left,
        bank_in_play=view.bank_in_play,
        banks=tuple(c.value for c in view.banks),
        dark_stars=tuple((c.value, n) for c, n in view.dark_stars.items()),
        hours=view.hours,
        can_name=can_name,
        can_touch=can_touch,
        can_stop=can_touch and view.touches_made > 0,
        numbers=tuple(range(1, view.dark_stars.get(state.crew, 0) + 1)),
        ended=state.ended,
        result=result_text(state),
        deadline=view.deadline.isoformat() if view.deadline else None,
        step_seconds=view.step_seconds,
        turn_text=_turn_text(state, audience, names),
        view=view,
        names=tuple(sorted(names.items())),
        now=now,
        warning=_forfeit_warning(state, crew),
        key_legend=_key_legend(state) if view.sees_key else (),
        role_text=_role_text(state, audience),
        my_turn=can_name or can_touch,
        can_flag=seated,
        fresh=_fresh(view.constellations),
        current=view.current.number if view.current is not None else 0,
    )


def _fresh(constellations: Sequence[rules.Constellation]) -> tuple[int, ...]:
    """The card the latest touch lit: of the constellation being spotted, or of the one
    whose turn that touch ended (the next naming has begun)."""
    latest = constellations[-1] if constellations else None
    return (latest.touches[-1].card,) if latest is not None and latest.touches else ()


# Pushes by area (games/definition.py, Areas). Every change but the game's end comes as the
# areas it changes; the board's frame stays the same all game (board.jinja).
#
# A touch that leaves the turn going changes, for every audience, the status (touches left,
# the dark stars), the card it lit, the form's version, the panel of whoever acts (the
# touches left, the stop button) and the log's line of that constellation.
TOUCH_AREAS = ("status", "sky_version", "touched", "panel", "current_line")
# Anything else (a word, a turn's end by a touch, a stop or the clock, a missed naming)
# changes the status, the form's version, the panels (whose turn it is), and the log (a new
# line, or the line that ended); the cards a touch or the comet lit; and the whole sky of the
# Spotters whose turn began or ended (their cards can be touched, or no longer).
TURN_AREAS = ("status", "sky_version", "panel", "log_area")


def areas(state: rules.State, events: Sequence[object], audience: str) -> tuple[str, ...] | None:
    if state.ended or not events:
        return None  # the result, the replay's link (or no change named): the whole board
    if len(events) == 1 and isinstance(events[0], rules.CardTouched):
        return TOUCH_AREAS
    if _sky_changes(events, audience):
        return (*TURN_AREAS, "sky_area")
    if any(isinstance(event, rules.CardTouched) for event in events):
        return (*TURN_AREAS, "touched")
    return TURN_AREAS


def _sky_changes(events: Sequence[object], audience: str) -> bool:
    """The whole sky of this audience changed: the comet lit cards (V2), or this audience's
    Spotters may now touch (a word), or no longer (their turn ended)."""
    role, _, crew = audience.partition("-")
    turns = rules.ConstellationTaken | rules.TurnEnded
    return any(
        isinstance(event, rules.CometLit)
        or (role == "spotter" and isinstance(event, turns) and event.crew.value == crew)
        for event in events
    )


def _key_legend(state: rules.State) -> tuple[tuple[str, str, str], ...]:
    """What each frame and shape of the key means (K2, K3), for whoever sees the key."""
    return _legend(state.mode, state.first_crew)


@lru_cache(maxsize=8)
def _legend(mode: rules.Mode, first_crew: rules.Crew) -> tuple[tuple[str, str, str], ...]:
    kinds = rules.key_counts(mode, first_crew)
    order = (rules.Key.GOLD, rules.Key.TEAL, rules.Key.CLOUD, rules.Key.HAZE, rules.Key.COMET)
    return tuple((k.value, KEY_SYMBOLS[k], KEY_LABELS[k]) for k in order if k in kinds)


def how_to_play() -> dict[str, object]:
    """The rules page's key: each kind of card in each mode, its shape, how many, and what
    touching it does (K2, K3, T8, T9, V1, V2, D3, D4)."""

    def kind(key: rules.Key, count: str, does: str) -> dict[str, str]:
        symbol, label = KEY_SYMBOLS[key], KEY_LABELS[key]
        return {"kind": key.value, "symbol": symbol, "label": label, "count": count, "does": does}

    rivalry = [
        kind(rules.Key.GOLD, "8 or 7", "Gold's own: lit, and Gold may go on touching"),
        kind(rules.Key.TEAL, "7 or 8", "Teal's own: lit, and Teal may go on touching"),
        kind(rules.Key.HAZE, "8", "ends the turn"),
        kind(rules.Key.COMET, "1", "ends the turn and lights two of the other crew's dark stars"),
    ]
    dawn = [
        kind(rules.Key.GOLD, "8", "the crew's own: lit, and the crew may go on touching"),
        kind(rules.Key.CLOUD, "7", "ends the turn and costs an extra hour"),
        kind(rules.Key.HAZE, "8", "ends the turn"),
        kind(rules.Key.COMET, "1", "ends the turn and costs two extra hours"),
    ]
    return {"rivalry_keys": rivalry, "dawn_keys": dawn, "hours": rules.FIRST_HOURS}


def present_history(state: rules.State, names: Mapping[int, str], code: str) -> Board:
    """A step of a replay: the whole key (the game is over, or a moderator is looking),
    nothing to press, no clock."""
    board = present(state, HISTORY, names, code)
    return replace(board, deadline=None, history=True, can_flag=False)


def _stand_in(state: rules.State, audience: str) -> int | None:
    """A seat that sees what this audience sees: a Stargazer's for the key, else none."""
    if audience.startswith("stargazer") or audience == HISTORY:
        return 2 if audience.endswith("teal") else 1
    return None


class _Kept(Generic[V]):
    """Values made once for immutable objects and kept by their identity, with the objects
    themselves: an entry is used only for those very objects, never for others that come
    to live at the same addresses. Past ``limit`` entries, all are forgotten at once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.entries: dict[tuple[object, ...], tuple[tuple[object, ...], V]] = {}

    def get(
        self, objects: tuple[object, ...], more: tuple[object, ...], make: Callable[[], V]
    ) -> V:
        """The value for ``objects`` (by identity) and ``more`` (by value), made if new."""
        key = (*map(id, objects), *more)
        known = self.entries.get(key)
        if known is not None and all(map(is_, known[0], objects)):
            return known[1]
        value = make()
        if len(self.entries) >= self.limit:
            self.entries.clear()
        self.entries[key] = (objects, value)
        return value

    def clear(self) -> None:
        self.entries.clear()


# A push presents the same state to every audience, and several see the same seat view (a
# Spotter, the public) and the same cards: each is built once for the state and shared.
_views: _Kept[rules.SeatView] = _Kept(64)


def _view(state: rules.State, stand_in: int | None) -> rules.SeatView:
    """``rules.view_for``, once per state object and stand-in."""
    return _views.get((state,), (stand_in,), lambda: rules.view_for(state, stand_in))


@lru_cache(maxsize=1024)
def _asset_url(asset: str) -> str:
    return static(asset)


@lru_cache(maxsize=512)
def _cards(cards: tuple[rules.CardView, ...], can_touch: bool) -> tuple[CardPresenter, ...]:
    """The sky as one audience sees it: the same cards give the same presenters."""
    return tuple(_card(card, can_touch) for card in cards)


def _card(card: rules.CardView, can_touch: bool) -> CardPresenter:
    pic = picture(card.picture)
    return CardPresenter(
        index=card.index,
        name=pic.name,
        asset=_asset_url(pic.asset),
        lit=card.lit,
        key=card.key.value if card.key else None,
        key_label=KEY_LABELS[card.key] if card.key else "",
        symbol=KEY_SYMBOLS[card.key] if card.key else "",
        touchable=can_touch and not card.lit,
    )


# The log is the same for every audience that may flag (every seated player) and for every
# one that may not: a touched or comet-lit card is lit, and what is lit everyone sees. Each
# is built once for a state's constellations, and each line once for its constellation (a
# past one is the same object from version to version).
_logs: _Kept[Log] = _Kept(64)
_lines: _Kept[LogLine] = _Kept(4096)


def _log(
    view: rules.SeatView, names: tuple[tuple[int, str], ...], can_flag: bool, code: str
) -> Log:
    """The constellations and the naming steps that ran out, the newest first."""
    made, missed = view.constellations, view.missed_namings

    def make() -> Log:
        lines: list[LogLine | NoteLine] = [_line(view, c, names, can_flag, code) for c in made]
        rivalry = view.mode is rules.Mode.RIVALRY
        lines += [
            NoteLine(m.crew.value, missed_text(m, rivalry=rivalry), m.version) for m in missed
        ]
        return Log(tuple(sorted(lines, key=lambda line: line.version, reverse=True)))

    return _logs.get((made, missed), (view.mode, names, can_flag, code), make)


def _line(
    view: rules.SeatView,
    c: rules.Constellation,
    names: tuple[tuple[int, str], ...],
    can_flag: bool,
    code: str,
) -> LogLine:
    """A constellation's line, its cards as this viewer sees them (lit: as everyone does)."""

    def make() -> LogLine:
        cards = view.cards
        touched = tuple(cards[t.card] for t in c.touches)
        comet = tuple(cards[i].picture for i in c.comet_lit)
        return _log_line(c, touched, comet, names, can_flag, code)

    return _lines.get((c,), (names, can_flag, code), make)


def missed_text(missed: rules.MissedNaming, *, rivalry: bool) -> str:
    """C2, C4, C5: a naming step ran out, in a sentence."""
    if not rivalry:
        return "The clock ran out before a word: an hour is spent"  # C2, C5
    crew = missed.crew.display
    if missed.again:
        return f"{crew}'s clock ran out before a word again: {crew} forfeits"
    return f"{crew}'s clock ran out before a word; one more and {crew} forfeits"


def _forfeit_warning(state: rules.State, crew: str) -> str:
    """C4: while a crew whose last naming ran out names again, everyone is told what one
    more would do; that crew in its own words."""
    naming = state.step is rules.Step.NAMING and state.mode is rules.Mode.RIVALRY
    if not naming or state.crew not in state.missed_naming:
        return ""
    if state.missed_namings[-1].version > state.step_started:
        return ""  # a replay's step between the miss and the next crew's naming
    if crew == state.crew.value:
        return "Your crew's clock ran out last turn: if it runs out again now, your crew forfeits."
    name = state.crew.display
    return f"{name}'s clock ran out last turn: if it runs out again now, {name} forfeits."


@lru_cache(maxsize=4096)
def _log_line(
    c: rules.Constellation,
    touched: tuple[rules.CardView, ...],
    comet: tuple[str, ...],
    names: tuple[tuple[int, str], ...],
    can_flag: bool,
    code: str,
) -> LogLine:
    """A constellation's line, from the cards its touches lit as this viewer sees them and
    the pictures its comet lit: once for every audience and push that sees the same (the
    lines of the log's older constellations stay as they are)."""
    named = dict(names)
    return LogLine(
        number=c.number,
        crew=c.crew.value,
        word=c.word,
        count=c.count,
        giver=named.get(c.seat, f"Seat {c.seat}"),
        touches=tuple(
            _touch_line(card, t.seat, named) for card, t in zip(touched, c.touches, strict=True)
        ),
        comet=comet,
        ended=TURN_ENDS[c.ended_by] if c.ended_by else "",
        version=c.version,
        can_flag=can_flag,
        code=code,
    )


def _touch_line(card: rules.CardView, seat: int, names: Mapping[int, str]) -> TouchLine:
    key = card.key  # None when this viewer may not know what the card is
    return TouchLine(
        name=card.picture,
        key=key.value if key else "",
        key_label=KEY_LABELS[key] if key else "",
        who=names.get(seat, f"Seat {seat}"),
    )


def _turn_text(state: rules.State, audience: str, names: Mapping[int, str]) -> str:
    """Whose turn it is, said to this audience: the same words for everyone in it (an
    audience is a role of a crew, never one person)."""
    if state.ended or not state.dealt:
        return ""
    role, _, crew = audience.partition("-")
    if role not in ("stargazer", "spotter"):
        return _public_turn_text(state, names)
    rivalry = state.mode is rules.Mode.RIVALRY
    active = state.crew.display if rivalry else "the crew"
    ours = crew == state.crew.value
    if state.step is rules.Step.NAMING:
        if ours and role == "stargazer":
            return f"Your turn: give a clue to {active if rivalry else 'your crew'}"
        gazer = names.get(_stargazer_seat(state.crew), "the Stargazer")
        return f"Wait: {gazer} is giving {'your crew' if ours else active} a clue"
    if ours and role == "spotter":
        return f"Your turn: touch {active if rivalry else 'your crew'}'s stars"
    if ours:
        several = _spotters(state, state.crew) > 1
        return f"Wait: your Spotter{'s are' if several else ' is'} touching"
    return f"Wait: {active} is touching"


def _public_turn_text(state: rules.State, names: Mapping[int, str]) -> str:
    """Whose turn it is, for a spectator and the replay."""
    crew = "The crew" if state.mode is rules.Mode.BEFORE_DAWN else f"{state.crew.display}"
    if state.step is rules.Step.NAMING:
        gazer = names.get(_stargazer_seat(state.crew), "the Stargazer")
        return f"{crew}: {gazer} is naming a constellation"
    return f"{crew}: the Spotters are touching the sky"


def _role_text(state: rules.State, audience: str) -> str:
    """Who this audience is: its crew and role (S2, S3), or a spectator."""
    if audience == PUBLIC:
        return "You are watching"
    role, _, crew_value = audience.partition("-")
    if role not in ("stargazer", "spotter") or not state.dealt:
        return ""  # the replay
    crew = rules.Crew(crew_value)
    team = f"{crew.display} " if state.mode is rules.Mode.RIVALRY else ""
    if role == "stargazer":
        return f"You are the {team}Stargazer"
    article = "a" if _spotters(state, crew) > 1 else "the"
    return f"You are {article} {team}Spotter"


def _stargazer_seat(crew: rules.Crew) -> int:
    return 1 if crew is rules.Crew.GOLD else 2  # S2, S3


def _spotters(state: rules.State, crew: rules.Crew) -> int:
    return _spotter_count(state.players, crew)


@lru_cache(maxsize=64)
def _spotter_count(players: int, crew: rules.Crew) -> int:
    """How many Spotters a crew has at a table of ``players`` (S2, S3: seats are fixed)."""
    seats = (rules.seat_of(players, n) for n in range(1, players + 1))
    return sum(1 for seat in seats if seat.crew is crew and not seat.stargazer)


def result_text(state: rules.State) -> str:
    if not state.ended:
        return ""
    finish = state.finish
    if finish is rules.Finish.DAWN:
        return "Dawn broke with stars still dark: the crew loses."
    if state.mode is rules.Mode.BEFORE_DAWN:
        return "Every star is lit before dawn: the crew wins!"
    assert state.winner is not None and finish is not None, "a crew won the game"
    winner, rival = state.winner.display, state.winner.rival.display
    why = {
        rules.Finish.LAST_STAR: f"{winner} lit their last star.",
        rules.Finish.GIFTED_STAR: f"{rival} touched {winner}'s last star.",
        rules.Finish.COMET: f"The comet lit {winner}'s last stars.",
        rules.Finish.FORFEIT: f"{rival} let the word's time run out twice.",
    }[finish]
    return f"{winner} wins! {why}"


# -- the replay ------------------------------------------------------------------------------


def jumps(final: rules.State, names: Mapping[int, str]) -> list[tuple[int, str]]:
    """The replay's landmarks: each constellation named."""
    return [(c.version, f"{c.number}. {c.word} {c.count}") for c in final.constellations]


def describe(before: rules.State, after: rules.State, names: Mapping[int, str]) -> str:
    """What the step's event did, in a sentence."""
    if not before.dealt:
        first = after.first_crew.display if after.players >= 4 else "the crew"
        return f"The sky was dealt: {first} starts."
    if after.ended:
        return result_text(after)
    if len(after.constellations) > len(before.constellations):
        c = after.constellations[-1]
        return f"{names.get(c.seat, 'The Stargazer')} named {c.word} {c.count}."
    new_lit = sorted(after.lit - before.lit)
    if new_lit and after.constellations:
        touches = after.constellations[-1].touches
        if touches and touches[-1].card in new_lit:
            who = names.get(touches[-1].seat, "A Spotter")
            return f"{who} touched the {after.sky[touches[-1].card]}."
        return "The comet lit " + ", ".join(after.sky[i] for i in new_lit) + "."
    if len(after.missed_namings) > len(before.missed_namings):  # C2, C4
        missed = after.missed_namings[-1]
        return missed_text(missed, rivalry=after.mode is rules.Mode.RIVALRY) + "."
    ended = _just_ended(before, after)
    if ended is not None:
        said = (
            TURN_ENDS[ended]
            if "turn" in TURN_ENDS[ended]
            else f"the turn ended: {TURN_ENDS[ended]}"
        )
        return f"{said[0].upper()}{said[1:]}."
    if after.step is rules.Step.NAMING and after.step_started != before.step_started:
        return f"{after.crew.display if after.players >= 4 else 'The crew'} names next."
    if after.step is rules.Step.SPOTTING:
        return "The Spotters stopped."  # nothing else leaves a spotting step as it was
    return "The turn ended."


def _just_ended(before: rules.State, after: rules.State) -> rules.TurnEnd | None:
    """Why the turn ended, if this step ended it (the constellation records it)."""
    if not after.constellations or len(after.constellations) != len(before.constellations):
        return None
    was, now = before.constellations[-1].ended_by, after.constellations[-1].ended_by
    return now if was is None else None
