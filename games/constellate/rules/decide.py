"""What a command does: events, or a refusal with a reason a person can read.

``decide`` never changes anything; the service appends the events it returns. It takes
``now`` so that a step's deadline (C6) is judged by the caller's clock, and a word checker
so that the clue rules (W1-W8) plug in from outside.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime

from games import kit
from games.kit import Decision

from .commands import Command, Deal, Expire, Name, Problem, Refusal, Stop, TouchCard
from .events import (
    CardTouched,
    CometLit,
    ConstellationTaken,
    GameEnded,
    NamingStarted,
    SkyDealt,
    SpottingStopped,
    TurnEnded,
)
from .evolve import fold
from .model import (
    SKY_SIZE,
    STAR_OF,
    Crew,
    Finish,
    Key,
    Mode,
    Seat,
    State,
    Step,
    TurnEnd,
    key_counts,
    mode_for,
    seat_of,
)

STALE = "The sky changed a moment ago: here it is as it is now."

WordCheck = Callable[[str], str | None]


def letters_only(word: str) -> str | None:
    """The plainest word check: 2-10 letters A-Z (W1). The real one lives in clues.py."""
    if not (word.isascii() and word.isalpha() and 2 <= len(word) <= 10):
        return "Spell one word of 2 to 10 letters, A to Z."
    return None


def decide(
    state: State, command: Command, now: datetime, *, check_word: WordCheck = letters_only
) -> Decision:
    match command:
        case Deal():
            return _deal(state, command, now)
        case Name():
            return _name(state, command, now, check_word)
        case TouchCard():
            return _touch(state, command, now)
        case Stop():
            return _stop(state, command, now)
        case Expire():
            return _expire(state, command, now)
    return Refusal("That is not something this game knows how to do.")


def due_expiry(state: State, now: datetime) -> list[object]:
    """C6: if the current step's deadline has passed, the events that expire it (else none).

    The service applies these before any action, so the game is right even when the
    scheduled job is late or the worker is down.
    """
    expire = Expire(step=state.step_started)
    return kit.expire_if_due(state, now, lambda due: _expire(due, expire, now))


# -- dealing ---------------------------------------------------------------------------


def _deal(state: State, command: Deal, now: datetime) -> Decision:
    if state.dealt:
        return Refusal("This sky has already been dealt.", Problem.CONFLICT)
    if not 2 <= command.players <= 8:
        return Refusal("A game needs 2 to 8 players, seated 1 to N.")  # S1
    mode = mode_for(command.players)
    if mode is Mode.BEFORE_DAWN and command.first_crew is not Crew.GOLD:
        return Refusal("Before Dawn has one crew, and it goes first.")
    if len(command.sky) != SKY_SIZE or len(set(command.sky)) != SKY_SIZE:
        return Refusal(f"A sky is {SKY_SIZE} different pictures.")  # K1
    if Counter(command.key) != Counter(key_counts(mode, command.first_crew)):
        return Refusal("The key does not match the game's counts.")  # K2/K3
    if command.step_seconds is not None and command.step_seconds <= 0:
        return Refusal("A step's clock must be a positive number of seconds.")
    return [
        SkyDealt(
            mode=mode,
            players=command.players,
            sky=tuple(command.sky),
            key=tuple(command.key),
            first_crew=command.first_crew,
            step_seconds=command.step_seconds,
            deadline=kit.deadline_after(command.step_seconds, now),
            family=command.family,
        )
    ]


# -- guards shared by the players' commands ------------------------------------------------


def _in_play(state: State, now: datetime) -> Refusal | None:
    return kit.in_play(state, now, undealt="The sky has not been dealt yet.")  # C6: time is up


def _current(state: State, version: int) -> Refusal | None:
    """T7: a command made against a version another action already replaced."""
    return kit.stale(version, state.version, STALE)


def _seat(state: State, number: int) -> Seat | Refusal:
    return kit.seat_refused(state, number) or seat_of(state.players, number)


def _turn_of(state: State) -> str:
    if state.mode is Mode.BEFORE_DAWN:
        return "the crew"
    return f"{state.crew.display}'s crew"


# -- naming --------------------------------------------------------------------------------


def _name(state: State, command: Name, now: datetime, check_word: WordCheck) -> Decision:
    if refusal := _in_play(state, now):
        return refusal
    seat = _seat(state, command.seat)
    if isinstance(seat, Refusal):
        return seat
    if not seat.stargazer:
        return Refusal("Only a Stargazer names constellations.", Problem.FORBIDDEN)  # S4
    if seat.crew is not state.crew:
        return Refusal(f"It is {_turn_of(state)}'s turn, not yours.", Problem.FORBIDDEN)
    if state.step is not Step.NAMING:
        return Refusal("Your Spotters are touching the sky now.", Problem.CONFLICT)
    if refusal := _current(state, command.version):
        return refusal
    dark = len(state.dark_stars(state.crew))
    if not 1 <= command.number <= dark:
        return Refusal(f"Choose a number from 1 to {dark}.")  # T2
    word = command.word.strip()
    if reason := check_word(word):
        return Refusal(reason, Problem.WORD)  # T3: the turn is not spent
    allowance = command.number + (1 if state.crew in state.banks else 0)  # T5
    return [
        ConstellationTaken(
            crew=state.crew,
            seat=seat.number,
            word=word.upper(),
            count=command.number,
            allowance=allowance,
            deadline=kit.deadline_after(state.step_seconds, now),
        )
    ]


# -- spotting ------------------------------------------------------------------------------


def _spotter_now(state: State, number: int) -> Refusal | None:
    seat = _seat(state, number)
    if isinstance(seat, Refusal):
        return seat
    if seat.stargazer:
        return Refusal("A Stargazer never touches the sky.", Problem.FORBIDDEN)  # S4
    if seat.crew is not state.crew:
        return Refusal(f"It is {_turn_of(state)}'s turn, not yours.", Problem.FORBIDDEN)
    if state.step is not Step.SPOTTING:
        return Refusal("Wait for your Stargazer's word.", Problem.CONFLICT)
    return None


def _ready_to_spot(state: State, seat: int, version: int, now: datetime) -> Refusal | None:
    # T7: a touch against a stale version is refused as stale before anything else, since
    # the turn it was aimed at may have ended; the player's view refreshes.
    return _in_play(state, now) or _current(state, version) or _spotter_now(state, seat)


def _touch(state: State, command: TouchCard, now: datetime) -> Decision:
    if refusal := _ready_to_spot(state, command.seat, command.version, now):
        return refusal
    if not 0 <= command.card < SKY_SIZE:
        return Refusal("There is no such card in the sky.")
    if command.card in state.lit:
        return Refusal("That card is already lit.", Problem.CONFLICT)  # T7
    touched = CardTouched(seat=command.seat, card=command.card)
    after = fold([touched], state)
    key = state.key[command.card]
    crew = state.crew
    if key is STAR_OF[crew]:
        return [touched, *_own_star(after, now)]
    if key is Key.COMET and state.mode is Mode.RIVALRY:
        return [touched, *_comet(after, command.comet_order, now)]
    if key in (Key.GOLD, Key.TEAL):  # V1: the rival crew's star
        if not after.dark_stars(crew.rival):
            return [touched, GameEnded(winner=crew.rival, finish=Finish.GIFTED_STAR)]
        return [touched, *_end_turn(after, TurnEnd.RIVAL_STAR, now)]
    reason = {Key.HAZE: TurnEnd.HAZE, Key.CLOUD: TurnEnd.CLOUD, Key.COMET: TurnEnd.COMET}[key]
    return [touched, *_end_turn(after, reason, now)]


def _own_star(after: State, now: datetime) -> list[object]:
    """T8: the star lights; the last one wins at once (D6 even at dawn); T12 otherwise."""
    if not after.dark_stars(after.crew):
        return [GameEnded(winner=after.crew, finish=Finish.LAST_STAR)]
    if after.touches_left == 0:
        return _end_turn(after, TurnEnd.ALLOWANCE_USED, now)
    return []


def _comet(after: State, comet_order: tuple[int, ...], now: datetime) -> list[object]:
    """V2: two of the rival crew's dark stars light (the one left, if only one)."""
    rival = after.crew.rival
    dark = set(after.dark_stars(rival))
    drawn = [c for c in dict.fromkeys(comet_order) if c in dark]
    order = drawn + sorted(dark - set(drawn))  # without a draw (tests): lowest cards first
    lit = CometLit(crew=rival, cards=tuple(order[:2]))
    if len(dark) <= 2:
        return [lit, GameEnded(winner=rival, finish=Finish.COMET)]
    return [lit, *_end_turn(fold([lit], after), TurnEnd.COMET, now)]


def _stop(state: State, command: Stop, now: datetime) -> Decision:
    if refusal := _ready_to_spot(state, command.seat, command.version, now):
        return refusal
    if state.touches_made == 0:
        return Refusal("Touch at least one card before you stop.", Problem.CONFLICT)  # T10
    stopped = SpottingStopped(seat=command.seat)
    return [stopped, *_end_turn(state, TurnEnd.STOPPED, now)]


# -- the end of a turn, and the clock ------------------------------------------------------

_EXTRA_HOURS = {TurnEnd.CLOUD: 1, TurnEnd.COMET: 2, TurnEnd.NAMING_EXPIRED: 1}  # D3, D4, C2


def _end_turn(state: State, reason: TurnEnd, now: datetime) -> list[object]:
    """T9-T12: end the turn, then dawn (D5), a forfeit (C4), or the next crew names (V3)."""
    banked = reason is TurnEnd.STOPPED and state.touches_left >= 1  # T10, T11
    hours = _EXTRA_HOURS.get(reason, 0) if state.mode is Mode.BEFORE_DAWN else 0
    ended = TurnEnded(crew=state.crew, reason=reason, banked=banked, hours_spent=hours)
    after = fold([ended], state)
    if state.mode is Mode.BEFORE_DAWN:
        if after.hours <= 0 and after.dark_stars(after.crew):
            return [ended, GameEnded(winner=None, finish=Finish.DAWN)]  # D5
        return [
            ended,
            NamingStarted(crew=after.crew, deadline=kit.deadline_after(after.step_seconds, now)),
        ]
    if reason is TurnEnd.NAMING_EXPIRED and state.crew in state.missed_naming:
        return [ended, GameEnded(winner=state.crew.rival, finish=Finish.FORFEIT)]  # C4
    next_crew = state.crew.rival
    deadline = kit.deadline_after(after.step_seconds, now)
    return [ended, NamingStarted(crew=next_crew, deadline=deadline)]


def _expire(state: State, command: Expire, now: datetime) -> Decision:
    if refusal := kit.expiry_refused(state, command.step, now):
        return refusal
    if state.step is Step.NAMING:
        return _end_turn(state, TurnEnd.NAMING_EXPIRED, now)  # C2, C4, C5
    return _end_turn(state, TurnEnd.SPOTTING_EXPIRED, now)  # C3
