"""Who may know what (V1-V3): the view of the state for one seat, or for anyone else.

Everything a browser receives is built from a ``View``. It holds every seat's sheet and
running score as of the last closed step (V1), every seat's "ready" or "choosing" while a
simultaneous step runs (U3, V2), the viewer's own accepted submission and its sheet with it
(that seat only), the viewer's own six dealt cards while the setup choice runs (V2), the Night
Sky and how many cards each deck holds (V1). Never: the order of either deck or any card still
in one, another seat's dealt cards, which cards a seat returned (not even at the end), another
seat's open submission (V2).

``best_solo`` (S3) is platform data (the seat's best earlier solo score on this server under
the same display name): the rules cannot know it, so ``view_for`` only carries what the
caller passes, and only into a solo game's view.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.kit import Refusal, RoundStatus, SeatStatus

from .evolve import applied
from .model import ClosedStep, DraftPick, Keep, Phase, State, Submission
from .scoring import ScoreSheet
from .sheet import Dice, Sheet


@dataclass(frozen=True)
class SeatView:
    """One seat's public sheet (V1): as of the last closed step, with its running score, and
    whether it is ready in the running simultaneous step (None: none runs)."""

    seat: int
    sheet: Sheet
    score: ScoreSheet
    status: SeatStatus | None


@dataclass(frozen=True)
class View:
    seat: int | None  # None: a spectator
    version: int
    dealt: bool
    ended: bool
    phase: Phase
    players: int
    solo: bool
    first_game: bool
    first_player: int
    night: int
    nights: int  # N2
    turn: int  # 0: the Night opening (or before the first turn)
    turns: int  # one per seat (N4)
    opening_nights: tuple[int, ...]  # X6
    active: int | None
    dice: Dice | None  # V1: the current turn's dice
    step_seconds: int | None
    deadline: datetime | None
    seats: tuple[SeatView, ...]
    sky_large: tuple[str | None, ...]  # G4: slots 1-3, None when empty (G7)
    sky_small: tuple[str | None, ...]
    large_left: int  # V1: how many cards each deck holds, never which
    small_left: int
    hand: tuple[str, ...]  # V2: the viewer's own six dealt cards, while the choice runs
    choice: RoundStatus[Keep] | None  # ready / choosing, and the viewer's own choice
    round: RoundStatus[Submission] | None  # ready / choosing, and the viewer's own submission
    own: Sheet | None  # the viewer's sheet with its accepted submission (that seat only)
    can_choose: bool
    can_submit: bool
    can_pick: bool
    drafter: int | None
    picks_left: int  # the drafting seat's replacements still to take
    closed: tuple[ClosedStep, ...]  # closed openings and turns only (U3)
    picks: tuple[DraftPick, ...]
    winners: tuple[int, ...]  # E5; none in a solo game (S3)
    best_solo: int | None = None  # S3: platform data, passed in by the caller


def view_for(state: State, seat: int | None, *, best_solo: int | None = None) -> View:
    viewer = seat if seat is not None and 1 <= seat <= state.players else None
    phase = state.phase
    choosing = phase is Phase.CHOICE and state.choice is not None and not state.choice.closed
    running = (
        phase in (Phase.OPENING, Phase.TURN)
        and state.round is not None
        and not state.round.closed
        and not state.ended
    )
    choice = state.choice.status_for(viewer) if choosing and state.choice else None
    round = state.round.status_for(viewer) if running and state.round else None
    statuses = choice.seats if choice is not None else round.seats if round is not None else {}
    drafter = state.drafter if phase is Phase.DRAFT else None
    return View(
        seat=viewer,
        version=state.version,
        dealt=state.dealt,
        ended=state.ended,
        phase=phase,
        players=state.players,
        solo=state.solo,
        first_game=state.first_game,
        first_player=state.first_player,
        night=state.night,
        nights=state.nights,
        turn=state.turn,
        turns=state.players,
        opening_nights=tuple(sorted(state.opening_nights)),
        active=state.active if phase is Phase.TURN else None,
        dice=state.dice if phase is Phase.TURN else None,
        step_seconds=state.step_seconds,
        deadline=state.deadline,
        seats=tuple(
            SeatView(s, state.sheet(s), state.scores[s - 1], statuses.get(s)) for s in state.seats
        ),
        sky_large=state.sky_large,
        sky_small=state.sky_small,
        large_left=len(state.large),
        small_left=len(state.small),
        hand=state.hands[viewer - 1] if choosing and viewer is not None else (),
        choice=choice,
        round=round,
        own=_own(state, viewer) if running else None,
        can_choose=bool(choosing and choice is not None and viewer in choice.waiting),
        can_submit=bool(running and round is not None and viewer in round.waiting),
        can_pick=drafter is not None and viewer == drafter,
        drafter=drafter,
        picks_left=state.owed[drafter - 1] if drafter is not None else 0,
        closed=state.closed,
        picks=state.picks,
        winners=state.winners,
        best_solo=best_solo if state.solo else None,
    )


def _own(state: State, seat: int | None) -> Sheet | None:
    """The viewer's sheet with its accepted submission this step (U3: that seat only)."""
    if seat is None or state.round is None or not state.round.done(seat):
        return None
    after = applied(state, seat, state.round.submitted[seat])
    return None if isinstance(after, Refusal) else after
