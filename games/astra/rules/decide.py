"""What a command does: events, or a refusal with a reason a person can read (T5: a
refusal changes nothing). ``decide(state, command, now)`` never changes anything.

The first half of a turn, as built so far:

- the deal (S1-S8, H5): the server's draws arrive whole in ``Deal`` and are stored in
  ``GameDealt``; ``TableSet`` turns up the discard and the slots (S3, S6); the first player's
  first turn starts (S8, T1);
- every player's command names the version it was made against (T4), comes from the active
  seat (T2) and arrives before the turn's deadline (Z8's check, the kit's);
- Observe (O1-O13): one whole chain per command (O10), the first of a turn free, each
  further one paid with a Telescope (O9); a card whose last star is marked is discovered at
  once (O12) and waits on its slot; the Action phase ends by itself when O11 says so, or when
  the player is done;
- Rest (R1-R7): refill, reactivate, move the marker, discard past the icon (R6: not from an
  empty deck). A Rest is the whole Action.

What comes next, not built here: after the Action phase (``Phase.ACTION_ENDED``) the
Discovery phase for the ``discovered`` slots (D1-D14, then L1-L3), the Dream phase after a
2-player Rest (V5-V13) and the end of the turn (T3: K-effects, the game end E1-E7, the next
seat's turn); the Abilities (A1-A8, K1-K18); the clock's expiries (Z3-Z7: ``Expire`` is
refused once its guard passes).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from games import kit
from games.kit import Decision, Problem, Refusal

from .boards import ABOVE_GAME_END, FINAL_SCORING_CARDS, SPHERE_BOARDS, WISDOM_GAINS_TO_TOP
from .cards import BY_NUMBER, CARDS
from .commands import Command, Deal, Done, Expire, Observe, Rest
from .events import (
    ActionPhaseEnded,
    CardDiscovered,
    GameDealt,
    Rested,
    StarsMarked,
    TableSet,
    TelescopeSpent,
    TurnStarted,
)
from .evolve import fold
from .marking import chain_refused
from .model import CALLED, LEAST, MOST, UNDEALT, Ending, Phase, State, seat_of_turn

STALE = "The table changed a moment ago: here it is as it is now (T4)."


def decide(state: State, command: Command, now: datetime) -> Decision:
    match command:
        case Deal():
            return _deal(state, command, now)
        case Observe():
            return _observe(state, command, now)
        case Rest():
            return _rest(state, command, now)
        case Done():
            return _done(state, command, now)
        case Expire():
            return _expire(state, command, now)
    return Refusal("That is not something this game knows how to do.")


# -- the deal (S1-S8, H5) --------------------------------------------------------------------


def deal_refused(command: Deal) -> Refusal | None:
    """P1, S2, S5, P3, Z1: the server's draws make a legal table."""
    players = command.players
    if not LEAST <= players <= MOST:
        return Refusal(f"Astra is played by {LEAST} to {MOST} players (P1).")
    if sorted(command.deck) != [card.number for card in CARDS]:
        return Refusal("The deck is dealt whole: the 48 cards, each once, in any order (S2).")
    above = ABOVE_GAME_END[players]
    if command.above_game_end != above:
        return Refusal(
            f"With {players} players the Game End card goes under the top {above} cards (S2)."
        )
    known = {card.id for card in FINAL_SCORING_CARDS}
    scoring = command.scoring
    if len(scoring) != players or len(set(scoring)) != players or not set(scoring) <= known:
        return Refusal("Each seat is dealt one Final Scoring card, all different (S5).")
    if not 1 <= command.first_player <= players:
        return Refusal("The first player is one of the seats (P3).")
    if command.step_seconds is not None and command.step_seconds <= 0:
        return Refusal("A turn's clock runs for a positive number of seconds (Z1).")
    return None


def _deal(state: State, command: Deal, now: datetime) -> Decision:
    if state.dealt:
        return Refusal("The game has already been dealt.", Problem.CONFLICT)
    refusal = deal_refused(command)
    if refusal is not None:
        return refusal
    dealt = GameDealt(
        players=command.players,
        deck=tuple(command.deck),
        above_game_end=command.above_game_end,
        scoring=tuple(command.scoring),
        first_player=command.first_player,
        step_seconds=command.step_seconds,
    )
    top, *rest = command.deck
    table = TableSet(
        discarded=top,  # S3
        sphere=BY_NUMBER[top].element,
        slots=tuple(rest[: SPHERE_BOARDS[command.players].slots]),  # S1, S6: N+1 slots
    )
    after = fold([dealt, table], state)
    return [dealt, table, _turn_started(after, 0, now)]  # S8


def _turn_started(state: State, turn: int, now: datetime) -> TurnStarted:
    """T1, P3, Z2: turn k's seat, its round (E5) and the turn step's deadline."""
    return TurnStarted(
        seat=seat_of_turn(state.first_player, turn, state.players),
        turn=turn,
        round=turn // state.players,
        deadline=kit.deadline_after(state.step_seconds, now),
    )


# -- guards every player's command passes (T2, T4, Z8) -------------------------------------


def _in_turn(state: State, seat: int, version: int, now: datetime) -> Refusal | None:
    refusal = (
        kit.in_play(state, now, undealt=UNDEALT, called=CALLED)
        or kit.stale(version, state.version, STALE)
        or kit.seat_refused(state, seat)
    )
    if refusal is not None:
        return refusal
    if seat != state.active:
        return Refusal("It is another player's turn: only they act now (T2).", Problem.FORBIDDEN)
    return None


# -- Observe (O1-O13) ------------------------------------------------------------------------


def observe_refused(state: State, seat: int, slot: int, stars: Sequence[int]) -> Refusal | None:
    """Why the active ``seat`` may not Observe ``stars`` on the card in ``slot`` now (None:
    it may). The browser may ask before sending (O10); the server asks again."""
    if state.phase is Phase.ACTION_ENDED:
        if state.rested:
            return Refusal(
                "You rested this turn: no Observe after a Rest (R1, O9).", Problem.CONFLICT
            )
        return Refusal(
            "Your Action phase is over: no more Observes this turn (O11).", Problem.CONFLICT
        )
    journal = state.journal(seat)
    if state.observes and not journal.telescopes:
        return Refusal(
            "Another Observe costs 1 Telescope, and you have none (O9).", Problem.CONFLICT
        )
    if not journal.stardust:
        return Refusal(
            "Observing needs at least 1 Stardust: your Pouch is empty (O1).", Problem.CONFLICT
        )
    if not state.undiscovered():
        return Refusal(
            "No undiscovered card is left on the Sphere to observe (O1, O13).", Problem.CONFLICT
        )
    if not 1 <= slot <= len(state.slots):
        return Refusal(f"There is no slot {slot}: the Sphere has slots 1-{len(state.slots)}.")
    placed = state.slot(slot)
    if placed.card is None:
        return Refusal(f"Slot {slot} is empty: there is no card to observe there.")
    card = placed.constellation
    if placed.discovered:
        return Refusal(f"{card.name} is discovered: nobody may mark it any more (O12).")
    refusal = chain_refused(card, placed.marked, stars)
    if refusal is not None:
        return refusal
    if len(stars) > journal.stardust:
        cost = len(stars)
        return Refusal(
            f"{_stars(cost)} cost {cost} Stardust, and you have {journal.stardust} (O6)."
        )
    return None


def _stars(n: int) -> str:
    return "1 star" if n == 1 else f"{n} stars"


def _observe(state: State, command: Observe, now: datetime) -> Decision:
    refusal = _in_turn(state, command.seat, command.version, now) or observe_refused(
        state, command.seat, command.slot, command.stars
    )
    if refusal is not None:
        return refusal
    return _observed(state, command.seat, command.slot, tuple(command.stars))


def _observed(state: State, seat: int, slot: int, stars: tuple[int, ...]) -> list[object]:
    """O9: a Telescope for every Observe after the first; O6: 1 Stardust a star; O8: 1 Wisdom
    a Grand star (J4: none past the track's top); O12: the last star discovers the card; O11:
    the Action phase may end by itself."""
    events: list[object] = [TelescopeSpent(seat)] if state.observes else []
    placed = state.slot(slot)
    card = placed.constellation
    grand = sum(star in card.grand for star in stars)
    room = WISDOM_GAINS_TO_TOP - state.journal(seat).wisdom
    events.append(StarsMarked(seat, slot, card.number, stars, len(stars), min(grand, room)))
    if len(placed.marked) + len(stars) == card.stars:
        events.append(CardDiscovered(seat, slot, card.number))
    ending = action_ending(fold(events, state), seat)
    if ending is not None:
        events.append(ActionPhaseEnded(seat, ending))
    return events


def action_ending(state: State, seat: int) -> Ending | None:
    """O11: after an Observe action the Action phase ends by itself with no Telescope, no
    Stardust or no undiscovered card left (the first that applies, in that order)."""
    journal = state.journal(seat)
    if not journal.telescopes:
        return Ending.NO_TELESCOPE
    if not journal.stardust:
        return Ending.NO_STARDUST
    if not state.undiscovered():
        return Ending.NO_CARD
    return None


def _done(state: State, command: Done, now: datetime) -> Decision:
    refusal = _in_turn(state, command.seat, command.version, now)
    if refusal is not None:
        return refusal
    if state.phase is Phase.ABILITY:
        return Refusal(
            "Observe or Rest first: Done ends a run of Observe actions (O11).", Problem.CONFLICT
        )
    if state.phase is Phase.ACTION_ENDED:
        return Refusal("Your Action phase is already over.", Problem.CONFLICT)
    return [ActionPhaseEnded(command.seat, Ending.DONE)]


# -- Rest (R1-R7) ----------------------------------------------------------------------------


def rest_refused(state: State) -> Refusal | None:
    """R1: a Rest is always allowed, Stardust or not, as the turn's only Action."""
    if state.phase is Phase.OBSERVING:
        return Refusal("You observed this turn: no Rest in the same turn (R1).", Problem.CONFLICT)
    if state.phase is Phase.ACTION_ENDED:
        if state.rested:
            return Refusal(
                "You have already rested this turn: one Rest a turn (R1).", Problem.CONFLICT
            )
        return Refusal("Your Action phase is over (O11).", Problem.CONFLICT)
    return None


def _rest(state: State, command: Rest, now: datetime) -> Decision:
    refusal = _in_turn(state, command.seat, command.version, now) or rest_refused(state)
    if refusal is not None:
        return refusal
    return [rested(state, command.seat)]


def rested(state: State, seat: int, *, by_clock: bool = False) -> Rested:
    """R2, R3: refill to the Pouch size of now, never above it; R4: every Exhausted card of
    the active Sphere's Element, Active again; R5: the marker one Sphere clockwise and, past
    the discard icon, the deck's top card to the discard pile (R6: none from an empty deck)."""
    journal = state.journal(seat)
    sphere = state.sphere
    assert sphere is not None, "a dealt table has an active Sphere"
    reactivated = tuple(
        held.card
        for held in journal.held
        if not held.active and BY_NUMBER[held.card].element is sphere
    )
    passes = state.board.passes_discard(sphere)
    return Rested(
        seat=seat,
        stardust=max(0, journal.pouch_size - journal.stardust),
        reactivated=reactivated,
        sphere_from=sphere,
        sphere_to=state.board.next_sphere(sphere),
        discarded=state.deck[0] if passes and state.deck else None,
        by_clock=by_clock,
    )


# -- the clock (Z2-Z8, next) ---------------------------------------------------------------


def _expire(state: State, command: Expire, now: datetime) -> Decision:
    refusal = kit.expiry_refused(state, command.step, now, called=CALLED)
    if refusal is not None:
        return refusal
    return Refusal(
        "What the clock does when a turn runs out (Z3, Z4) is not built yet.", Problem.CONFLICT
    )
