"""Who may know what (H1-H6): the view of the state for one seat, or for anyone else.

Everything a browser receives is built from a ``View``. Public to everyone (H3): every
Journal with its held cards, Active or Exhausted; every slot with every star's mark and the
Boons crossed out; the active Sphere; the whole discard pile; how many cards lie above and
below the Game End card (H2); the turn, its phase, its active seat and how far it has gone;
the running step's deadline; a pick step's seats, each "done" or "choosing" (H4). For the
viewer only: its own Final Scoring card (H1) and its own sealed Boon pick while its group
picks (H4, D6). After the game ends (E7): every dealt Final Scoring card and the final
scoring (F1-F9); the undealt ones are never in the state, so never here.

Never: the deck's order or any card still in it (H2, H6), another seat's Final Scoring card
before the end (H1), another member's sealed pick (H4). ``view_for`` reads ``state.deck``
only for its length and ``state.scoring`` only for the viewer's own card until the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.kit import RoundStatus

from .cards import Element
from .ending import game_ended
from .events import GameEnded
from .model import Journal, Phase, Pick, Slot, State, TurnMark


@dataclass(frozen=True)
class View:
    seat: int | None  # None: a spectator (or anyone not seated)
    version: int
    dealt: bool
    ended: bool
    players: int
    first_player: int  # P3
    phase: Phase
    turn: int  # E5
    round: int
    active: int | None  # T2
    step_seconds: int | None  # Z1
    deadline: datetime | None  # Z2: the running step's deadline
    journals: tuple[Journal, ...]  # H3: every Journal, held cards Active/Exhausted; seat 1's first
    slots: tuple[Slot, ...]  # H3: every mark and the Boons crossed out; slot 1's first
    discard: tuple[int, ...]  # H3: face up, the top card last
    sphere: Element | None  # H3: the active Sphere
    above_game_end: int  # H2: how many cards lie above the Game End card, never which
    below_game_end: int  # H2
    game_end_exposed: bool  # E1, E2
    last_turn: int | None  # E3-E5
    observes: int  # O9
    rested: bool  # R1, V5
    discovered: tuple[int, ...]  # O12, D1: the slots discovered this turn
    in_force: tuple[int, ...]  # A4, K17
    skipped: bool  # K1, A5
    turn_marks: tuple[TurnMark, ...]  # K2, K7, K16: public marks
    dreamed: bool  # V5, V13
    dream_discovered: int | None  # V10
    picked: tuple[int, ...]  # D5: the seats that picked a Boon of the card resolved now
    taken: tuple[int, ...]  # D10, D12
    picks: RoundStatus[Pick] | None  # H4, D6: done/choosing, and the viewer's own pick only
    can_pick: bool  # the viewer is in the open pick step and has not picked
    scoring: str | None  # H1: the viewer's own Final Scoring card (any time after the deal)
    scorings: tuple[str, ...]  # H1: every dealt card, seat 1's first, once the game ended
    final: GameEnded | None  # E7, F1-F9: the final scoring, once the game ended
    recent: tuple[object, ...]  # H3, U2: the last public events, for the log


def view_for(state: State, seat: int | None) -> View:
    viewer = seat if seat is not None and 1 <= seat <= state.players else None
    picking = state.phase is Phase.PICKING and state.picks is not None and not state.picks.closed
    picks = state.picks.status_for(viewer) if picking and state.picks is not None else None
    ended = state.ended
    return View(
        seat=viewer,
        version=state.version,
        dealt=state.dealt,
        ended=ended,
        players=state.players,
        first_player=state.first_player,
        phase=state.phase,
        turn=state.turn,
        round=state.round,
        active=state.active,
        step_seconds=state.step_seconds,
        deadline=state.deadline,
        journals=state.journals,
        slots=state.slots,
        discard=state.discard,
        sphere=state.sphere,
        above_game_end=state.above_game_end,
        below_game_end=state.below_game_end,
        game_end_exposed=state.game_end_exposed,
        last_turn=state.last_turn,
        observes=state.observes,
        rested=state.rested,
        discovered=state.discovered,
        in_force=state.in_force,
        skipped=state.skipped,
        turn_marks=state.turn_marks,
        dreamed=state.dreamed,
        dream_discovered=state.dream_discovered,
        picked=state.picked,
        taken=state.taken,
        picks=picks,
        can_pick=picks is not None and viewer in picks.waiting,
        scoring=_own_scoring(state, viewer),
        scorings=state.scoring if ended else (),
        final=game_ended(state) if ended and state.dealt else None,
        recent=state.recent,
    )


def _own_scoring(state: State, viewer: int | None) -> str | None:
    """H1: the viewer's own card, once dealt."""
    if viewer is None or not state.dealt or len(state.scoring) < viewer:
        return None
    return state.scoring[viewer - 1]
