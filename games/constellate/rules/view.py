"""Who may know what (K4, K5): the view of the state for one seat, or for a spectator.

Everything a browser receives is built from a ``SeatView``; it holds a card's key only
where that seat may see it, so a template cannot leak what it was never given.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from .model import Constellation, Crew, Finish, Key, MissedNaming, Mode, Seat, State, Step


@dataclass(frozen=True)
class CardView:
    index: int
    picture: str
    lit: bool
    key: Key | None  # None: this viewer may not know what the card is


@dataclass(frozen=True)
class SeatView:
    seat: Seat | None  # None: a spectator
    sees_key: bool  # K4: this viewer sees the dark cards' key
    cards: tuple[CardView, ...]
    version: int
    mode: Mode
    players: int
    crew: Crew
    step: Step
    step_started: int
    deadline: datetime | None
    step_seconds: int | None
    touches_left: int
    touches_made: int
    bank_in_play: bool
    banks: frozenset[Crew]
    hours: int
    dark_stars: dict[Crew, int]
    winner: Crew | None
    finish: Finish | None
    constellations: tuple[Constellation, ...]
    missed_naming: frozenset[Crew] = frozenset()  # C4: crews one more missed word forfeits
    missed_namings: tuple[MissedNaming, ...] = ()  # C2: the naming steps that ran out

    @property
    def current(self) -> Constellation | None:
        if self.step is Step.SPOTTING and self.constellations:
            return self.constellations[-1]
        return None


@lru_cache(maxsize=256)
def _cards(
    sky: tuple[str, ...], key: tuple[Key, ...], lit: frozenset[int], full: bool
) -> tuple[CardView, ...]:
    """The cards as a viewer sees them: the whole key (``full``), or only the lit cards'.

    The same for every viewer who sees as much, and from one version to the next until a
    card is lit: made once for them all, and the same tuple each time (a push views a
    state for every audience; a naming step lights nothing)."""
    return tuple(
        CardView(index=i, picture=picture, lit=i in lit, key=key[i] if full or i in lit else None)
        for i, picture in enumerate(sky)
    )


def sees_key(state: State, seat_number: int | None) -> bool:
    """K4: Stargazers see the key; at the end everyone does."""
    if state.ended:
        return True
    seat = state.seat(seat_number) if seat_number is not None else None
    return seat is not None and seat.stargazer


def view_for(state: State, seat_number: int | None) -> SeatView:
    full = sees_key(state, seat_number)
    return SeatView(
        seat=state.seat(seat_number) if seat_number is not None else None,
        sees_key=full,
        cards=_cards(state.sky, state.key, state.lit, full),
        version=state.version,
        mode=state.mode,
        players=state.players,
        crew=state.crew,
        step=state.step,
        step_started=state.step_started,
        deadline=state.deadline,
        step_seconds=state.step_seconds,
        touches_left=state.touches_left,
        touches_made=state.touches_made,
        bank_in_play=state.bank_in_play,
        banks=state.banks,
        hours=state.hours,
        dark_stars={crew: len(state.dark_stars(crew)) for crew in state.crews()},
        winner=state.winner,
        finish=state.finish,
        constellations=state.constellations,
        missed_naming=state.missed_naming,
        missed_namings=state.missed_namings,
    )
