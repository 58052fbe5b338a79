"""Simultaneous rounds: a step in which every seat in play submits once, in any order.

A submission is checked whole and accepted or refused whole; once accepted it is final (a
second one from the same seat is refused) and private to its seat until the round closes:
every other viewer sees only "done" or "choosing". The round closes when every seat has
submitted, or when its clock expires; the game says what the clock gives a silent seat (a
default submission, or nothing: the seat is recorded as silent). The close is ONE event,
``RoundClosed``, that reveals every submission at once; the game's own evolve folds it into
its state (boards, scores, the next round).

How a game uses it:

- its state holds a ``Round[T]`` (``T``: the game's submission, e.g. a drawing or a pass);
- ``decide`` on a submission: ``submit(round, seat, submission, refuse=..., number=...)``,
  where ``refuse`` is the game's own legality check on the whole submission (against the
  seat's board as it stood when the round began) and ``number`` the round the command names
  (a submission carries the round number, never the game's version: seats never conflict);
- ``expire`` (after ``kit.expiry_refused``): ``close_by_clock(round, silent_default)``;
- ``evolve``: ``evolve_round(round, event)`` for both events, then the game's own fold of
  ``RoundClosed`` (scoring, the next round);
- views: ``round.status_for(seat)``, the only view of an open round a viewer may get.

A preview is a pure function of (state, seat, draft) that says what would happen if the
draft were submitted now: whether it would be accepted (and if not, why) and whatever the
game shows with it (the board with the draft, what it would score). The platform never
records a preview: no event, no version, nothing another seat can see. ``preview`` runs the
very checks ``submit`` runs, so "Confirm" is offered exactly when the submission would be
accepted.

Storing the events: the codec decodes an event from its type hints, and a type variable
tells it nothing, so a game stores its own concrete subclasses, re-declaring the fields
that hold ``T``, and passes them to ``submit`` and ``close_by_clock``::

    @dataclass(frozen=True)
    class DrawingSubmitted(kit.Submitted[Drawing]):
        submission: Drawing

    @dataclass(frozen=True)
    class DrawingsRevealed(kit.RoundClosed[Drawing]):
        submissions: tuple[DrawingSubmitted, ...]

A subclass of ``Submitted`` hides its submission in its repr, like ``Submitted`` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

from .evolving import with_changes
from .hiding import hiding
from .refusals import Decision, Problem, Refusal

T = TypeVar("T")
D = TypeVar("D")

Check = Callable[[T], Refusal | None]


class SeatStatus(StrEnum):
    """All anyone but the seat itself may know of a seat during a round."""

    DONE = "done"
    CHOOSING = "choosing"


# -- events --------------------------------------------------------------------------------


@hiding("submission")
@dataclass(frozen=True)
class Submitted(Generic[T]):
    """A seat's submission for a round was accepted: final, and private until the close."""

    round: int
    seat: int
    submission: T

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A game's concrete subclass keeps the submission out of its repr too: ``dataclass``
        # leaves a ``__repr__`` the class already holds alone.
        super().__init_subclass__(**kwargs)
        hiding("submission")(cls)


@dataclass(frozen=True)
class RoundClosed(Generic[T]):
    """The round closed and every submission is revealed, in seat order. ``silent``: the
    seats that never submitted and got nothing from the clock; ``defaulted``: the seats whose
    submission the clock gave (they are in ``submissions`` too); ``by_clock``: the clock
    closed it, rather than the last seat's submission."""

    round: int
    submissions: tuple[Submitted[T], ...]
    silent: tuple[int, ...]
    defaulted: tuple[int, ...]
    by_clock: bool

    def by_seat(self) -> dict[int, T]:
        return {entry.seat: entry.submission for entry in self.submissions}


# -- the round in a game's state -----------------------------------------------------------


@hiding("own")
@dataclass(frozen=True)
class RoundStatus(Generic[T]):
    """A round as one viewer may see it: every seat done or choosing, and the viewer's own
    submission (None: a spectator, or the viewer has not submitted). Nothing else."""

    number: int
    seats: Mapping[int, SeatStatus]
    viewer: int | None
    own: T | None
    closed: bool

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats still choosing, in seat order."""
        return tuple(seat for seat, status in self.seats.items() if status is SeatStatus.CHOOSING)


@hiding("submitted")
@dataclass(frozen=True)
class Round(Generic[T]):
    """One simultaneous round: ``seats`` must each submit once. ``started`` is the version
    of the event that opened it and ``deadline`` its clock (None: it waits for everyone).
    ``submitted`` is private (hidden from the repr): views read ``status_for``."""

    number: int
    seats: frozenset[int]
    started: int
    deadline: datetime | None = None
    submitted: Mapping[int, T] = field(default_factory=dict)
    closed: bool = False

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats still choosing, in seat order."""
        return tuple(sorted(self.seats - self.submitted.keys()))

    def done(self, seat: int) -> bool:
        return seat in self.submitted

    @property
    def complete(self) -> bool:
        return not self.waiting

    def status_for(self, viewer: int | None) -> RoundStatus[T]:
        """What ``viewer`` (a seat, or None for anyone else) may see of the round."""
        seats = {
            seat: SeatStatus.DONE if self.done(seat) else SeatStatus.CHOOSING
            for seat in sorted(self.seats)
        }
        own = self.submitted.get(viewer) if viewer is not None else None
        return RoundStatus(self.number, seats, viewer, own, self.closed)


# -- deciding ------------------------------------------------------------------------------


def submission_refused(
    round: Round[T],
    seat: int,
    submission: T,
    *,
    refuse: Check[T],
    number: int | None = None,
    now: datetime | None = None,
    called: str = "round",
) -> Refusal | None:
    """Why ``seat`` may not submit ``submission`` now (None: it would be accepted).

    ``number``: the round the command names (None: the current one). ``now``: the server's
    time, to refuse a submission at or after the deadline (None when the game's own
    ``kit.in_play`` already checked it). ``called``: the round in the game's words."""
    if seat not in round.seats:
        return Refusal(f"That seat is not in this {called}.", Problem.FORBIDDEN)
    if number is not None and number < round.number:
        return Refusal(f"That {called} is already over.", Problem.CONFLICT)
    if number is not None and number > round.number:
        return Refusal(f"That {called} has not started.", Problem.CONFLICT)
    if round.closed:
        return Refusal(f"This {called} is already closed.", Problem.CONFLICT)
    if now is not None and round.deadline is not None and now >= round.deadline:
        return Refusal(f"Time is up for this {called}.", Problem.CONFLICT)
    if round.done(seat):
        return Refusal(f"You have already submitted this {called}: it is final.", Problem.CONFLICT)
    return refuse(submission)


def submit(
    round: Round[T],
    seat: int,
    submission: T,
    *,
    refuse: Check[T],
    number: int | None = None,
    now: datetime | None = None,
    called: str = "round",
    submitted_as: type[Submitted[T]] = Submitted,
    closed_as: type[RoundClosed[T]] = RoundClosed,
) -> Decision:
    """A seat's whole submission: refused (see ``submission_refused``), or ``Submitted``,
    followed by ``RoundClosed`` when it was the last seat still choosing."""
    refusal = submission_refused(
        round, seat, submission, refuse=refuse, number=number, now=now, called=called
    )
    if refusal is not None:
        return refusal
    accepted = submitted_as(round.number, seat, submission)
    after = with_submission(round, accepted)
    if not after.complete:
        return [accepted]
    closed = _closing(after, {}, by_clock=False, submitted_as=submitted_as, closed_as=closed_as)
    return [accepted, closed]


def close_by_clock(
    round: Round[T],
    silent_default: Callable[[int], T | None],
    *,
    called: str = "round",
    submitted_as: type[Submitted[T]] = Submitted,
    closed_as: type[RoundClosed[T]] = RoundClosed,
) -> Decision:
    """The clock's close of a round still open: each seat still choosing gets
    ``silent_default(seat)`` (None: nothing, the seat is recorded as silent), and one
    ``RoundClosed`` reveals it all. Guard it with ``kit.expiry_refused`` first."""
    if round.closed:
        return Refusal(f"This {called} is already closed.", Problem.CONFLICT)
    defaults = {seat: silent_default(seat) for seat in round.waiting}
    given = {seat: value for seat, value in defaults.items() if value is not None}
    return [_closing(round, given, by_clock=True, submitted_as=submitted_as, closed_as=closed_as)]


def _closing(
    round: Round[T],
    defaults: Mapping[int, T],
    *,
    by_clock: bool,
    submitted_as: type[Submitted[T]],
    closed_as: type[RoundClosed[T]],
) -> RoundClosed[T]:
    revealed = {**round.submitted, **defaults}
    return closed_as(
        round=round.number,
        submissions=tuple(
            submitted_as(round.number, seat, revealed[seat]) for seat in sorted(revealed)
        ),
        silent=tuple(seat for seat in round.waiting if seat not in defaults),
        defaulted=tuple(sorted(defaults)),
        by_clock=by_clock,
    )


# -- previewing ----------------------------------------------------------------------------


@hiding("details")
@dataclass(frozen=True)
class Preview(Generic[D]):
    """What submitting a draft now would do, for its seat only; never recorded.
    ``details``: whatever the game shows with it (the board with the draft, the score)."""

    refusal: Refusal | None
    details: D

    @property
    def legal(self) -> bool:
        return self.refusal is None

    @property
    def reason(self) -> str:
        return "" if self.refusal is None else self.refusal.reason


def preview(
    round: Round[T],
    seat: int,
    draft: T,
    *,
    refuse: Check[T],
    details: D,
    number: int | None = None,
    now: datetime | None = None,
    called: str = "round",
) -> Preview[D]:
    """Would ``draft`` be accepted now, by the very checks ``submit`` runs, with the
    game's ``details``."""
    refusal = submission_refused(
        round, seat, draft, refuse=refuse, number=number, now=now, called=called
    )
    return Preview(refusal, details)


# -- evolving ------------------------------------------------------------------------------


def with_submission(round: Round[T], event: Submitted[T]) -> Round[T]:
    """The round once ``event``'s submission is in."""
    submitted = {**round.submitted, event.seat: event.submission}
    return with_changes(round, submitted=submitted)


def with_close(round: Round[T], event: RoundClosed[T]) -> Round[T]:
    """The round once closed: every revealed submission in, nothing more to accept."""
    return with_changes(round, submitted=event.by_seat(), closed=True)


def evolve_round(round: Round[T], event: object) -> Round[T]:
    """The round after any event: the round's own events change it, others do not."""
    if isinstance(event, Submitted):
        return with_submission(round, event)
    if isinstance(event, RoundClosed):
        return with_close(round, event)
    return round
