"""The end of a turn (T3) and of the game (E1-E7, F1-F9).

T3, in order: the turn-lasting effects in force pay out (``turn_lasting_payouts``: K2, K7
and K16, settled by ``abilities.payouts``), the turn is over,
the game end is checked (E3-E5) and the next seat's turn starts or the final scoring is made.

The endgame (E1, E2): the Game End card is exposed when the count above it runs out, by a
Discovery draw or a Rest discard; it is set aside at once and the last turn is fixed (E5).
The final scoring (F1-F9) calls ``scoring.score`` with each seat's ``Holdings`` and records
every breakdown in one ``GameEnded`` (I2), the Final Scoring cards shown (H1).
"""

from __future__ import annotations

from .abilities import Payouts, payouts
from .boards import FINAL_SCORING_CARDS
from .cards import BY_NUMBER
from .events import FinalScore, GameEnded, GameEndExposed, TurnEnded
from .model import State
from .scoring import HeldCard, Holdings, MarkedCard, ScoreSheet, score, winners

SCORING_CARDS = {card.id: card for card in FINAL_SCORING_CARDS}


# -- T3: the end of the turn ---------------------------------------------------------------------


def turn_lasting_payouts(state: State) -> Payouts:
    """T3's first step: resolve the turn-lasting effects in force (K2, K7, K16, K17); they
    are forgotten when the next turn starts."""
    return payouts(state)


def turn_ended(state: State) -> TurnEnded:
    """T3: the payouts, then the turn is over (its effects forgotten)."""
    assert state.active is not None
    paid = turn_lasting_payouts(state)
    return TurnEnded(state.active, state.turn, paid.stardust_returned, paid.fame)


def last_turn(turn: int, players: int) -> int:
    """E3-E5: the endgame triggered in turn k of round r ends the game after turn
    N(r+1) - 1 if k is the first player's (k = N r), else after N(r+2) - 1."""
    round_ = turn // players
    if turn == players * round_:
        return players * (round_ + 1) - 1
    return players * (round_ + 2) - 1


def exposed(state: State) -> GameEndExposed | None:
    """E1, E2: the Game End card is the deck's top card and not yet set aside."""
    if not state.dealt or state.game_end_exposed or state.above_game_end:
        return None
    return GameEndExposed(state.turn, last_turn(state.turn, state.players))


def game_over(state: State) -> bool:
    """E3-E5, E7: the turn just ended was the last one."""
    return state.last_turn is not None and state.turn >= state.last_turn


# -- F1-F9: the final scoring --------------------------------------------------------------------


def holdings(state: State, seat: int) -> Holdings:
    """What ``seat`` brings to the final scoring: Fame (J5), its Final Scoring card (M10),
    its held cards (F3, F4), its marks on the undiscovered cards still on the Sphere (F2),
    its tracks (F6, F7) and its Stardust and Telescopes (F8)."""
    journal = state.journal(seat)
    return Holdings(
        fame=journal.fame,
        scoring_card=SCORING_CARDS[state.scoring[seat - 1]],
        held=tuple(HeldCard(BY_NUMBER[held.card], held.active) for held in journal.held),
        marked=tuple(
            MarkedCard(slot.constellation, slot.marked_by(seat))
            for slot in state.slots
            if slot.undiscovered
        ),
        pouch_gains=journal.pouch_gains,
        wisdom=journal.wisdom,
        stardust=journal.stardust,
        telescopes=journal.telescopes,
    )


def final_score(seat: int, card: str, sheet: ScoreSheet) -> FinalScore:
    return FinalScore(
        seat=seat,
        scoring_card=card,
        fame_in_play=sheet.fame_in_play,
        marked_stars=sheet.marked_stars,
        active_cards=sheet.active_cards,
        element_rows=sheet.element_rows,
        element_columns=sheet.element_columns,
        pouch_size=sheet.pouch_size,
        card_limit=sheet.card_limit,
        leftover_stardust=sheet.leftover_stardust,
        total=sheet.total,
        rows=tuple(marks for _, marks in sheet.rows),
    )


def game_ended(state: State) -> GameEnded:
    """E7, F1-F9: every seat scored, the winners (ties share, F9), the cards shown (H1)."""
    sheets = {seat: score(holdings(state, seat)) for seat in state.seats}
    return GameEnded(
        scores=tuple(
            final_score(seat, state.scoring[seat - 1], sheet) for seat, sheet in sheets.items()
        ),
        winners=winners(sheets),
    )
