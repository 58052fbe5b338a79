"""Highest Unique, the rules: pure Python (the standard library and ``games.kit`` only), no
Django, no I/O, no clock (``now`` comes from the caller), no randomness.

Each round every seat secretly picks a whole number from 1 to 10, once and for good
(``games.kit.rounds``). When the round closes (everyone has chosen, or the clock ran out:
a silent seat records nothing and scores nothing) one event reveals every number, and the
highest number chosen by exactly one seat scores that seat a point (no point if no number
is unique). After the last round the game ends: most points wins, ties shared.

decide(state, command, now) -> events | Refusal;  evolve(state, event) -> state;  fold
view_for(state, seat) -> what that seat (None: anyone else) may know;  check (the preview)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import singledispatch

from games import kit
from games.kit import Decision, Problem, Refusal, Round, RoundStatus, hiding

LEAST, MOST = 1, 5  # seats
ROUNDS = 3
LOWEST, HIGHEST = 1, 10  # the numbers a seat may choose
CALLED = "round"  # what the clock runs, in the refusals' words
UNDEALT = "The game has not started."
OUT_OF_RANGE = f"Choose a whole number from {LOWEST} to {HIGHEST}."


# -- commands --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """Set the table: how many play, how many rounds, and the clock (None: off)."""

    players: int
    step_seconds: int | None = None
    rounds: int = ROUNDS


@hiding("number")
@dataclass(frozen=True)
class Choose:
    """A seat's number for a round: final once accepted. It names the round, never the
    game's version: seats choosing at the same moment never conflict."""

    seat: int
    round: int
    number: int


@dataclass(frozen=True)
class Expire:
    """The clock ran out on the round that started at version ``step``."""

    step: int


Command = Deal | Choose | Expire


# -- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameDealt:
    players: int
    rounds: int
    step_seconds: int | None


@dataclass(frozen=True)
class RoundStarted:
    number: int
    deadline: datetime | None


@dataclass(frozen=True)
class NumberChosen(kit.Submitted[int]):
    """A seat's number was accepted: private to that seat until the round closes (the kit
    hides it from the repr)."""

    submission: int


@dataclass(frozen=True)
class NumbersRevealed(kit.RoundClosed[int]):
    """The round closed: every number chosen, in seat order, and the silent seats."""

    submissions: tuple[NumberChosen, ...]


@dataclass(frozen=True)
class GameEnded:
    scores: tuple[int, ...]  # seat 1's first
    winners: tuple[int, ...]  # most points, ties shared


Event = GameDealt | RoundStarted | NumberChosen | NumbersRevealed | GameEnded
EVENT_TYPES: tuple[type, ...] = (GameDealt, RoundStarted, NumberChosen, NumbersRevealed, GameEnded)


# -- the state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Revealed:
    """A closed round, as everyone may see it."""

    number: int
    version: int  # of the event that revealed it
    chosen: tuple[tuple[int, int], ...]  # (seat, number), seat order
    silent: tuple[int, ...]
    by_clock: bool
    scorer: int | None  # the seat that chose the highest unique number
    highest: int | None  # that number


@dataclass(frozen=True)
class State:
    version: int = 0
    dealt: bool = False
    ended: bool = False
    players: int = 0
    rounds: int = ROUNDS
    step_seconds: int | None = None
    round: Round[int] | None = None  # the round running (after the last one, closed)
    step_started: int = 0  # the version of the event that started the running round
    scores: tuple[int, ...] = ()
    revealed: tuple[Revealed, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def deadline(self) -> datetime | None:
        if self.ended or self.round is None or self.round.closed:
            return None
        return self.round.deadline

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(1, self.players + 1))


def highest_unique(chosen: Mapping[int, int]) -> tuple[int, int] | None:
    """(seat, number) of the highest number exactly one seat chose, or None."""
    counts = Counter(chosen.values())
    unique = [(number, seat) for seat, number in chosen.items() if counts[number] == 1]
    if not unique:
        return None
    number, seat = max(unique)
    return seat, number


def winners_of(scores: tuple[int, ...]) -> tuple[int, ...]:
    best = max(scores, default=0)
    return tuple(seat for seat, score in enumerate(scores, start=1) if score == best)


# -- deciding ----------------------------------------------------------------------------------


def number_refused(number: int) -> Refusal | None:
    """The game's own check of a whole submission."""
    if not LOWEST <= number <= HIGHEST:
        return Refusal(OUT_OF_RANGE, Problem.INVALID)
    return None


def decide(state: State, command: Command, now: datetime) -> Decision:
    match command:
        case Deal():
            return _deal(state, command, now)
        case Choose():
            return _choose(state, command, now)
        case Expire():
            return _expire(state, command, now)
    return Refusal("That is not something this game knows how to do.")


def _deal(state: State, command: Deal, now: datetime) -> Decision:
    if state.dealt:
        return Refusal("The table is already set.", Problem.CONFLICT)
    if not LEAST <= command.players <= MOST:
        return Refusal(f"Highest Unique is played by {LEAST} to {MOST} players.")
    if command.rounds < 1:
        return Refusal("A game has one round or more.")
    if command.step_seconds is not None and command.step_seconds <= 0:
        return Refusal("A round's clock runs for a positive number of seconds.")
    return [
        GameDealt(command.players, command.rounds, command.step_seconds),
        RoundStarted(1, kit.deadline_after(command.step_seconds, now)),
    ]


def _choose(state: State, command: Choose, now: datetime) -> Decision:
    refusal = kit.in_play(state, now, undealt=UNDEALT, called=CALLED)
    if refusal is not None:
        return refusal
    assert state.round is not None, "a dealt game has a round"
    decision = kit.submit(
        state.round,
        command.seat,
        command.number,
        refuse=number_refused,
        number=command.round,
        called=CALLED,
        submitted_as=NumberChosen,
        closed_as=NumbersRevealed,
    )
    return _then(state, decision, now)


def _expire(state: State, command: Expire, now: datetime) -> Decision:
    refusal = kit.expiry_refused(state, command.step, now, called=CALLED)
    if refusal is not None:
        return refusal
    assert state.round is not None, "a dealt game has a round"
    # What the clock records for a seat still choosing: nothing (it is silent, scores nothing).
    decision = kit.close_by_clock(
        state.round,
        lambda seat: None,
        called=CALLED,
        submitted_as=NumberChosen,
        closed_as=NumbersRevealed,
    )
    return _then(state, decision, now)


def _then(state: State, decision: Decision, now: datetime) -> Decision:
    """After a close: the next round, or the end of the game."""
    if isinstance(decision, Refusal) or not isinstance(decision[-1], NumbersRevealed):
        return decision
    after = fold(decision, state)
    if after.revealed[-1].number >= after.rounds:
        return [*decision, GameEnded(after.scores, winners_of(after.scores))]
    started = RoundStarted(
        after.revealed[-1].number + 1, kit.deadline_after(state.step_seconds, now)
    )
    return [*decision, started]


# -- evolving ----------------------------------------------------------------------------------


def evolve(state: State, event: object) -> State:
    """The state after one more event; the version counts events."""
    return _apply(event, kit.with_changes(state, version=state.version + 1))


fold = kit.make_fold(evolve, State)


@singledispatch
def _apply(event: object, state: State) -> State:
    raise TypeError(f"not a Highest Unique event: {type(event).__name__}")


@_apply.register
def _(event: GameDealt, state: State) -> State:
    return kit.with_changes(
        state,
        dealt=True,
        players=event.players,
        rounds=event.rounds,
        step_seconds=event.step_seconds,
        scores=(0,) * event.players,
    )


@_apply.register
def _(event: RoundStarted, state: State) -> State:
    opened: Round[int] = Round(
        number=event.number,
        seats=frozenset(state.seats),
        started=state.version,
        deadline=event.deadline,
    )
    return kit.with_changes(state, round=opened, step_started=state.version)


@_apply.register
def _(event: NumberChosen, state: State) -> State:
    assert state.round is not None
    return kit.with_changes(state, round=kit.evolve_round(state.round, event))


@_apply.register
def _(event: NumbersRevealed, state: State) -> State:
    assert state.round is not None
    chosen = event.by_seat()
    scored = highest_unique(chosen)
    scores = list(state.scores)
    if scored is not None:
        scores[scored[0] - 1] += 1
    revealed = Revealed(
        number=event.round,
        version=state.version,
        chosen=tuple(sorted(chosen.items())),
        silent=event.silent,
        by_clock=event.by_clock,
        scorer=scored[0] if scored else None,
        highest=scored[1] if scored else None,
    )
    return kit.with_changes(
        state,
        round=kit.evolve_round(state.round, event),
        scores=tuple(scores),
        revealed=(*state.revealed, revealed),
    )


@_apply.register
def _(event: GameEnded, state: State) -> State:
    return kit.with_changes(state, ended=True, winners=event.winners)


# -- what a viewer may know ----------------------------------------------------------------


@dataclass(frozen=True)
class View:
    """Everything a browser is shown is built from this: the running round as the viewer
    may see it (every seat done or choosing, and the viewer's own number only), and the
    rounds already revealed."""

    seat: int | None
    version: int
    dealt: bool
    ended: bool
    players: int
    rounds: int
    round: RoundStatus[int] | None
    can_choose: bool
    scores: tuple[int, ...]
    revealed: tuple[Revealed, ...]
    winners: tuple[int, ...]
    deadline: datetime | None
    step_seconds: int | None


def view_for(state: State, seat: int | None) -> View:
    status = state.round.status_for(seat) if state.round is not None else None
    can_choose = (
        state.round is not None
        and not state.ended
        and not state.round.closed
        and seat in state.round.seats
        and not state.round.done(seat)
    )
    return View(
        seat=seat,
        version=state.version,
        dealt=state.dealt,
        ended=state.ended,
        players=state.players,
        rounds=state.rounds,
        round=status,
        can_choose=bool(can_choose),
        scores=state.scores,
        revealed=state.revealed,
        winners=state.winners,
        deadline=state.deadline,
        step_seconds=state.step_seconds,
    )


# -- the preview: a draft checked, nothing recorded -------------------------------------------


@dataclass(frozen=True)
class Check:
    """What the check says beside legal or not: read from the revealed rounds only."""

    number: int
    points: int  # the seat's points so far
    won_with: tuple[int, ...]  # the earlier rounds this number scored in, for anyone


def check(state: State, seat: int, number: int, now: datetime | None = None) -> kit.Preview[Check]:
    """Would choosing ``number`` now be accepted, by the very checks a ``Choose`` runs?
    Nothing here reads another seat's open number: only the revealed rounds."""
    points = state.scores[seat - 1] if 1 <= seat <= len(state.scores) else 0
    won = tuple(r.number for r in state.revealed if r.highest == number)
    details = Check(number, points, won)
    if not state.dealt or state.round is None:
        return kit.Preview(Refusal(UNDEALT, Problem.CONFLICT), details)
    if state.ended:
        return kit.Preview(Refusal("The game is over.", Problem.CONFLICT), details)
    return kit.preview(
        state.round, seat, number, refuse=number_refused, details=details, now=now, called=CALLED
    )
