"""How each event changes the state: one small function per event, and the fold."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch
from typing import Any

from games.kit import make_fold
from games.kit import with_changes as _with

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
from .model import Constellation, MissedNaming, Mode, State, Step, Touch, TurnEnd


def evolve(state: State, event: object) -> State:
    """The state after one more event; the version counts events."""
    return _apply(event, _with(state, version=state.version + 1))


fold = make_fold(evolve, State)


@singledispatch
def _apply(event: object, state: State) -> State:
    raise TypeError(f"not a Constellate event: {event!r}")


@_apply.register
def _(event: SkyDealt, state: State) -> State:
    return _with(
        state,
        mode=event.mode,
        players=event.players,
        sky=event.sky,
        key=event.key,
        first_crew=event.first_crew,
        crew=event.first_crew,
        step=Step.NAMING,
        step_started=state.version,
        step_seconds=event.step_seconds,
        deadline=event.deadline,
        family=event.family,
    )


@_apply.register
def _(event: ConstellationTaken, state: State) -> State:
    constellation = Constellation(
        number=len(state.constellations) + 1,
        crew=event.crew,
        seat=event.seat,
        word=event.word,
        count=event.count,
        allowance=event.allowance,
        version=state.version,
    )
    return _with(
        state,
        step=Step.SPOTTING,
        step_started=state.version,
        deadline=event.deadline,
        touches_left=event.allowance,
        touches_made=0,
        banks=state.banks - {event.crew},  # T6: taking a constellation spends the bank
        missed_naming=state.missed_naming - {event.crew},  # C4: the count is cleared
        hours=state.hours - 1 if state.mode is Mode.BEFORE_DAWN else state.hours,  # D2
        constellations=(*state.constellations, constellation),
    )


def _amend_current(state: State, **changes: Any) -> tuple[Constellation, ...]:
    *done, current = state.constellations
    return (*done, replace(current, **changes))


@_apply.register
def _(event: CardTouched, state: State) -> State:
    touches = (*state.constellations[-1].touches, Touch(event.card, event.seat))
    return _with(
        state,
        lit=state.lit | {event.card},
        touches_left=state.touches_left - 1,
        touches_made=state.touches_made + 1,
        constellations=_amend_current(state, touches=touches),
    )


@_apply.register
def _(event: CometLit, state: State) -> State:
    return _with(
        state,
        lit=state.lit | set(event.cards),
        constellations=_amend_current(state, comet_lit=event.cards),
    )


@_apply.register
def _(event: SpottingStopped, state: State) -> State:
    return state


@_apply.register
def _(event: TurnEnded, state: State) -> State:
    constellations = state.constellations
    if event.reason is not TurnEnd.NAMING_EXPIRED:
        constellations = _amend_current(state, ended_by=event.reason)
    missed, log = state.missed_naming, state.missed_namings
    if event.reason is TurnEnd.NAMING_EXPIRED:
        again = event.crew in missed
        missed = missed | {event.crew}
        log = (*log, MissedNaming(crew=event.crew, version=state.version, again=again))
    banks = state.banks | {event.crew} if event.banked else state.banks
    return _with(
        state,
        constellations=constellations,
        missed_naming=missed,
        missed_namings=log,
        banks=banks,
        hours=state.hours - event.hours_spent,
        touches_left=0,
        deadline=None,
    )


@_apply.register
def _(event: NamingStarted, state: State) -> State:
    return _with(
        state,
        crew=event.crew,
        step=Step.NAMING,
        step_started=state.version,
        deadline=event.deadline,
        touches_made=0,
    )


@_apply.register
def _(event: GameEnded, state: State) -> State:
    return _with(
        state,
        step=Step.ENDED,
        deadline=None,
        touches_left=0,
        winner=event.winner,
        finish=event.finish,
    )
