"""Highest Unique as the platform reads it: its presenters and its ``GameDefinition``.

Never registered at import (it is a test game, and the home page of every other test must
not list it): ``tests.support.highest.fixtures.install`` registers ``GAME`` and adds this
folder's templates for one test.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.utils import timezone

from games.audiences import HISTORY, Names, listed, name_of, points, seat_of
from games.audiences import audience_of as audience_of
from games.audiences import audiences as audiences
from games.definition import (
    Action,
    Computer,
    Form,
    GameDefinition,
    Preview,
    Screens,
    Seats,
    Table,
)
from games.inputs import integer

from . import rules

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
SLUG = "highest"
TYPED = 10**6  # a typed number is read up to this; the rules say which are allowed


# -- presenters: what the template reads, for one audience -----------------------------------


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    status: str  # "done" or "still choosing" while a round runs (a replay: the number too)
    score: int
    you: bool


@dataclass(frozen=True)
class Board:
    code: str
    audience: str
    version: int
    dealt: bool
    ended: bool
    history: bool
    round_number: int
    rounds: int
    status_text: str
    result: str
    seats: tuple[SeatRow, ...]
    can_choose: bool
    choices: tuple[int, ...]
    log: tuple[str, ...]
    deadline: str | None
    server_now: str
    step_seconds: int | None


def present(
    state: rules.State,
    audience: str,
    names: Names,
    code: str,
    now: datetime | None = None,
    *,
    history: bool = False,
) -> Board:
    seat = seat_of(audience)
    view = rules.view_for(state, seat)
    status = view.round
    rows = []
    for n in state.seats:
        shown = ""
        if status is not None and not status.closed and not view.ended:
            shown = "done" if n not in status.waiting else "still choosing"
            if history and state.round is not None and n in state.round.submitted:
                shown = f"chose {state.round.submitted[n]} (not yet revealed)"
        score = view.scores[n - 1] if n <= len(view.scores) else 0
        rows.append(SeatRow(n, name_of(names, n), shown, score, n == seat))
    return Board(
        code=code,
        audience=audience,
        version=view.version,
        dealt=view.dealt,
        ended=view.ended,
        history=history,
        round_number=status.number if status else 0,
        rounds=view.rounds,
        status_text=_status_text(view, names),
        result=result_text(state, names),
        seats=tuple(rows),
        can_choose=view.can_choose and not history,
        choices=tuple(range(rules.LOWEST, rules.HIGHEST + 1)),
        log=tuple(round_line(r, names) for r in reversed(view.revealed)),
        deadline=view.deadline.isoformat() if view.deadline and not history else None,
        server_now=(now or timezone.now()).isoformat(),
        step_seconds=view.step_seconds,
    )


def present_history(state: rules.State, names: Names, code: str) -> Board:
    """A step of a replay: every number, nothing to press, no clock."""
    return present(state, HISTORY, names, code, history=True)


def _status_text(view: rules.View, names: Names) -> str:
    status = view.round
    if not view.dealt or view.ended or status is None:
        return ""
    head = f"Round {status.number} of {view.rounds}"
    waiting = listed([name_of(names, n) for n in status.waiting if n != view.seat])
    if view.can_choose:
        return f"{head}: choose a number from {rules.LOWEST} to {rules.HIGHEST}; it is final."
    if status.own is not None:
        return f"{head}: you chose {status.own}." + (f" Waiting for {waiting}." if waiting else "")
    return f"{head}: waiting for {waiting}." if waiting else f"{head}."


def round_line(revealed: rules.Revealed, names: Names) -> str:
    chosen = ", ".join(f"{name_of(names, seat)} {number}" for seat, number in revealed.chosen)
    line = f"Round {revealed.number}: " + (chosen or "nobody chose")
    if revealed.silent:
        quiet = listed([name_of(names, seat) for seat in revealed.silent])
        line += f"; {quiet} chose nothing in time"
    if revealed.by_clock:
        line += " (the clock closed it)"
    if revealed.scorer is None:
        return line + ". No number was chosen by one seat alone: nobody scores."
    return line + f". {name_of(names, revealed.scorer)} scores with {revealed.highest}."


def result_text(state: rules.State, names: Names) -> str:
    if not state.ended:
        return ""
    if state.players == 1:
        return f"Game over: {name_of(names, 1)} scored {points(state.scores[0])}."
    best = max(state.scores)
    who = [name_of(names, seat) for seat in state.winners]
    if len(who) == 1:
        return f"Game over: {who[0]} wins with {points(best)}."
    return f"Game over: {listed(who)} share the win with {points(best)} each."


def describe(before: rules.State, after: rules.State, names: Names) -> str:
    """What one step of a replay did, in a sentence."""
    if not before.dealt:
        players = f"{after.players} player{'' if after.players == 1 else 's'}"
        return f"The table was set for {players} and {after.rounds} rounds."
    if after.ended and not before.ended:
        return result_text(after, names)
    if len(after.revealed) > len(before.revealed):
        return round_line(after.revealed[-1], names)
    if after.round is not None and (before.round is None or before.round != after.round):
        new = sorted(
            set(after.round.submitted) - set(before.round.submitted if before.round else {})
        )
        if new and before.round is not None and before.round.number == after.round.number:
            return f"{name_of(names, new[0])} chose a number."
        return f"Round {after.round.number} began."
    return ""


def jumps(final: rules.State, names: Names) -> list[tuple[int, str]]:
    return [(r.version, f"Round {r.number} revealed") for r in final.revealed]


# -- the preview: "check" ---------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    legal: bool
    text: str


def _check(state: rules.State, seat: int, form: Form, now: datetime) -> Checked:
    number = integer(form.get("number"), "number", -TYPED, TYPED)
    answer = rules.check(state, seat, number, now)
    details = answer.details
    so_far = f"you have scored {points(details.points)} so far"
    if answer.legal:
        text = f"{number} is allowed; {so_far}."
    else:
        text = f"{number} is not allowed now: {answer.reason} ({so_far}.)"
    if details.won_with:
        rounds = listed([str(n) for n in details.won_with])
        text += f" {number} scored in round {rounds}."
    return Checked(answer.legal, text)


# -- commands from the table, a form and the clock ---------------------------------------------


def _deal(table: Table) -> rules.Command:
    return rules.Deal(players=table.players, step_seconds=table.step_seconds)


def _expire(step: int, rng: random.Random) -> rules.Command:
    return rules.Expire(step=step)


def _choose(form: Form, seat: int) -> rules.Command:
    return rules.Choose(
        seat=seat,
        round=integer(form.get("round"), "round", 1, TYPED),
        number=integer(form.get("number"), "number", -TYPED, TYPED),
    )


# -- the computer player: a number at random, like a person who does not care ------------------


def _waiting(state: rules.State, seat: int) -> bool:
    running = state.round
    if state.ended or running is None or running.closed:
        return False
    return seat in running.waiting


def _move(state: rules.State, seat: int, rng: random.Random) -> rules.Command:
    assert state.round is not None, "a computer moves only when waiting"
    number = rng.randint(rules.LOWEST, rules.HIGHEST)
    return rules.Choose(seat=seat, round=state.round.number, number=number)


GAME: GameDefinition[rules.State, rules.Command] = GameDefinition(
    slug=SLUG,
    title="Highest Unique",
    summary="Every round each player secretly picks a number: the highest nobody else "
    "picked scores.",
    seats=Seats(rules.LEAST, rules.MOST, mode=lambda players: "Solo" if players == 1 else ""),
    initial=rules.State,
    decide=rules.decide,
    evolve=rules.evolve,
    view_for=rules.view_for,
    event_types=rules.EVENT_TYPES,
    deal=_deal,
    expire=_expire,
    expiry_type=rules.Expire,
    actions={"choose": Action(_choose)},
    previews={"check": Preview(_check)},
    computer=Computer(_waiting, _move),
    screens=Screens(
        template="highest/board.html",
        present=present,
        present_history=present_history,
        audiences=audiences,
        audience_of=audience_of,
        describe=describe,
        jumps=jumps,
        jump_label="Jump to a round",
    ),
)
