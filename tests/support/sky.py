"""A known sky for rules tests: where every card's key is, by construction.

Rivalry: the first crew's 8 stars are cards 0-7, the other crew's 7 stars 8-14, the comet
15, haze 16-23. Before Dawn: stars 0-7, clouds 8-14, comet 15, haze 16-23.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.constellate.rules import (
    STAR_OF,
    Crew,
    Deal,
    Expire,
    Key,
    Name,
    Refusal,
    State,
    Stop,
    TouchCard,
    decide,
    fold,
    letters_only,
)

NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
SKY = tuple(
    [
        "apple",
        "anchor",
        "owl",
        "rocket",
        "violin",
        "volcano",
        "kite",
        "lamp",
        "drum",
        "ghost",
        "robot",
        "whale",
        "tiger",
        "lemon",
        "house",
        "train",
        "crown",
        "bell",
        "tent",
        "dice",
        "moon",
        "sun",
        "horse",
        "candle",
    ]
)
FIRST_STARS = tuple(range(0, 8))
SECOND_STARS = tuple(range(8, 15))
CLOUDS = tuple(range(8, 15))
COMET = 15
HAZE = tuple(range(16, 24))


def rivalry_key(first: Crew = Crew.GOLD) -> tuple[Key, ...]:
    return (STAR_OF[first],) * 8 + (STAR_OF[first.rival],) * 7 + (Key.COMET,) + (Key.HAZE,) * 8


def dawn_key() -> tuple[Key, ...]:
    return (Key.GOLD,) * 8 + (Key.CLOUD,) * 7 + (Key.COMET,) + (Key.HAZE,) * 8


def rivalry(players: int = 4, first: Crew = Crew.GOLD, step_seconds: int | None = None) -> State:
    return play(State(), Deal(players, SKY, rivalry_key(first), first, step_seconds))


def before_dawn(players: int = 2, step_seconds: int | None = None) -> State:
    return play(State(), Deal(players, SKY, dawn_key(), Crew.GOLD, step_seconds))


def play(state: State, command, now: datetime = NOW, check_word=letters_only) -> State:
    decision = decide(state, command, now, check_word=check_word)
    assert not isinstance(decision, Refusal), decision
    return fold(decision, state)


def events_of(state: State, command, now: datetime = NOW) -> list[object]:
    decision = decide(state, command, now)
    assert not isinstance(decision, Refusal), decision
    return decision


def refused(state: State, command, now: datetime = NOW, check_word=letters_only) -> Refusal:
    decision = decide(state, command, now, check_word=check_word)
    assert isinstance(decision, Refusal), decision
    return decision


def stargazer(state: State) -> int:
    """The active crew's Stargazer's seat."""
    if state.players < 4:
        return 1
    return 1 if state.crew is Crew.GOLD else 2


def spotter(state: State) -> int:
    """One Spotter of the active crew."""
    if state.players < 4:
        return 2
    return 3 if state.crew is Crew.GOLD else 4


def name(state: State, word: str = "ocean", number: int = 2, now: datetime = NOW) -> State:
    return play(state, Name(stargazer(state), word, number, state.version), now)


def touch(state: State, card: int, now: datetime = NOW, **kw) -> State:
    return play(state, TouchCard(spotter(state), card, state.version, **kw), now)


def stop(state: State, now: datetime = NOW) -> State:
    return play(state, Stop(spotter(state), state.version), now)


def expire(state: State, after: timedelta = timedelta(seconds=1)) -> State:
    assert state.deadline is not None
    return play(state, Expire(state.step_started), state.deadline + after)


def dark_own(state: State) -> list[int]:
    return state.dark_stars(state.crew)
