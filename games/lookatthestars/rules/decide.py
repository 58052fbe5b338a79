"""What a command does: events, or a refusal with a reason a person can read.

``decide(state, command, now)`` never changes anything. The flow (R1-R9, T1-T6, E1, E6-E8):
the deal reveals round 1's card; each seat submits once per round (R6), checked against its
board as the round began; the round closes on the last submission or when its clock runs
out (T3: the seats still drawing pass); the next card is revealed at once (R5); round 18's
close ends the game (E1) with every seat's score sheet and the winners (E6).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import kit
from games.kit import Decision, Problem, Refusal

from . import drawing
from .board import StarBoard
from .cards import NIGHT_DECK, POINT_CARDS
from .commands import Command, Deal, Expire, Submit
from .events import DrawingSubmitted, GameDealt, GameEnded, RoundClosed, RoundStarted
from .evolve import fold, scored, turn_of
from .model import CALLED, LEAST, MOST, NIGHT, ROUNDS, UNDEALT, Drawing, State
from .scoring import ScoreSheet, winners
from .sky import Shape


def decide(state: State, command: Command, now: datetime) -> Decision:
    match command:
        case Deal():
            return _deal(state, command, now)
        case Submit():
            return _submit(state, command, now)
        case Expire():
            return _expire(state, command, now)
    return Refusal("That is not something this game knows how to do.")


def due_expiry(state: State, now: datetime) -> list[object]:
    """T3, T4: if the running round's deadline has passed, the events that close it (else
    none). The service applies these before any action, so a late job changes nothing."""
    return kit.expire_if_due(state, now, lambda due: _expire(due, Expire(due.step_started), now))


# -- the deal (S1-S3, R1, R8) -------------------------------------------------------------------


def _deal(state: State, command: Deal, now: datetime) -> Decision:
    if state.dealt:
        return Refusal("The night has already been dealt.", Problem.CONFLICT)
    if not LEAST <= command.players <= MOST:
        return Refusal(f"Look at the Stars is played by {LEAST} to {MOST} players.")  # S1
    if len(command.designs) != command.players:
        return Refusal("Each seat gets one board design.")  # S2
    if len({design.id for design in command.designs}) != command.players:
        return Refusal("Every seat gets a different board design.")  # S2
    night = command.night
    if len(night) != NIGHT or len(set(night)) != NIGHT or not set(night) <= set(NIGHT_DECK):
        return Refusal(f"The night is {NIGHT} different cards of the deck.")  # R1
    if command.point_card not in POINT_CARDS:
        return Refusal(f"There is no point card {command.point_card!r}.")  # S3
    if command.step_seconds is not None and command.step_seconds <= 0:
        return Refusal("A round's clock runs for a positive number of seconds.")  # T1
    dealt = GameDealt(
        players=command.players,
        designs=tuple(command.designs),
        night=tuple(night),
        point_card=command.point_card,
        power=command.power,
        step_seconds=command.step_seconds,
    )
    return [dealt, RoundStarted(1, night[0], kit.deadline_after(command.step_seconds, now))]


# -- a round (R3, R5, R6, T2-T4) -----------------------------------------------------------------


def submission_refused(state: State, seat: int, submission: Drawing) -> Refusal | None:
    """The game's own check of a whole submission: against the seat's board as it stood
    when the round began (R6), for the running round's card (L, SS, W)."""
    return drawing.refused(state.boards[seat - 1], submission, turn_of(state))


def _submit(state: State, command: Submit, now: datetime) -> Decision:
    refusal = kit.in_play(state, now, undealt=UNDEALT, called=CALLED)
    if refusal is not None:
        return refusal
    assert state.round is not None, "a dealt game has a round"
    decision = kit.submit(
        state.round,
        command.seat,
        command.drawing,
        refuse=lambda submission: submission_refused(state, command.seat, submission),
        number=command.round,
        called=CALLED,
        submitted_as=DrawingSubmitted,
        closed_as=RoundClosed,
    )
    return _then(state, decision, now)


def _expire(state: State, command: Expire, now: datetime) -> Decision:
    refusal = kit.expiry_refused(state, command.step, now, called=CALLED)
    if refusal is not None:
        return refusal
    assert state.round is not None, "a dealt game has a round"
    # T3: a seat still drawing passes: nothing is recorded for it but its seat number.
    decision = kit.close_by_clock(
        state.round,
        lambda seat: None,
        called=CALLED,
        submitted_as=DrawingSubmitted,
        closed_as=RoundClosed,
    )
    return _then(state, decision, now)


def _then(state: State, decision: Decision, now: datetime) -> Decision:
    """After a close: the next card at once (R5), or the end after round 18 (E1, E6)."""
    if isinstance(decision, Refusal) or not isinstance(decision[-1], RoundClosed):
        return decision
    after = fold(decision, state)
    number = after.round_number
    if number >= ROUNDS:
        totals = [sheet.total for sheet in after.scores]
        return [*decision, GameEnded(after.scores, winners(totals))]
    deadline = kit.deadline_after(state.step_seconds, now)
    return [*decision, RoundStarted(number + 1, state.night[number], deadline)]


# -- the preview: a draft checked, nothing recorded (U1) ---------------------------------------


@dataclass(frozen=True)
class Sketch:
    """What a draft would make, for its seat only: the board with as much of the draft as
    is legal (``drawing.sketch``), the copies still open on it in board order (U7), and its
    provisional score (E8)."""

    board: StarBoard
    open_copies: tuple[Shape, ...]
    score: ScoreSheet


def check(
    state: State, seat: int, draft: Drawing, now: datetime | None = None
) -> kit.Preview[Sketch | None]:
    """Would ``draft`` be accepted now, by the very checks a ``Submit`` runs? Read from the
    seat's own board and the revealed card only (V3, V4)."""
    if not state.dealt or state.round is None:
        return kit.Preview(Refusal(UNDEALT, Problem.CONFLICT), None)
    if state.ended:
        return kit.Preview(Refusal("The game is over.", Problem.CONFLICT), None)
    details = None
    if 1 <= seat <= state.players:
        turn = turn_of(state)
        board = drawing.sketch(state.boards[seat - 1], draft, turn)
        opened = drawing.in_board_order(drawing.open_copies(board, turn))
        details = Sketch(board, opened, scored(state, board))
    return kit.preview(
        state.round,
        seat,
        draft,
        refuse=lambda submission: submission_refused(state, seat, submission),
        details=details,
        now=now,
        called=CALLED,
    )
