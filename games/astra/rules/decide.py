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

- after the Action phase, with 3-5 players, the turn goes on by itself (``proceed``) until a
  player must act: the Discovery phase (D1-D14, ``discovery``: a Boon pick step per group of
  assisting players, PickBoon naming its step, T4; the discoverer takes the card; the card
  limit, L1-L3, DiscardCards; the refills), the end of the turn (T3, ``ending``), the Game
  End card set aside whenever it is exposed (E1, E2) and the next seat's turn or, after the
  last turn (E3-E5), the final scoring (E7, F1-F9).

- with 2 players (V1-V13): the dreamer out-marking an assisting player leaves them boxes 3
  and 4 (V3); after a Rest, the Dream phase (``dream``): the server's own marks when only one
  choice is legal (V12), else a Dream step for the active player's ``Dream``; a card the
  dreamer completes is resolved without a discoverer, discarded and replaced (V10, V11);
- the clock (Z2-Z8): ``Expire`` closes the step still running once its deadline has passed,
  guarded by the kit: the turn step by a Rest (Z3) or by ending the Action phase (Z4), a Boon
  pick step by the leftmost Boons (Z5), a Dream step by the server's random numbers (Z6), a
  card-limit step by the newest cards (Z7). ``due_expiry`` is what the service applies
  before any late command (Z8).

- the Ability phase (A1-A8, ``abilities``): UseAbility before the turn's first Observe or
  Rest (A5), one card at a time; a Star Burst (K1) skips the Action phase, and Done then ends
  the Ability phase (A5) or the clock does (Z4); a Free Sight (K6) frees an Observe's first
  star, a Full Rest (K13) changes the Rest's refill (Z3 too); T3 pays K2, K7 and K16.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from games import kit
from games.kit import Decision, Problem, Refusal

from .abilities import ability_refused, free_sight, full_rest, used
from .boards import ABOVE_GAME_END, FINAL_SCORING_CARDS, SPHERE_BOARDS, WISDOM_GAINS_TO_TOP
from .cards import BY_NUMBER, CARDS
from .commands import (
    Command,
    Deal,
    DiscardCards,
    Done,
    Dream,
    Expire,
    Observe,
    PickBoon,
    Rest,
    UseAbility,
)
from .discovery import (
    clock_pick,
    crossed,
    discard_refused,
    discovery_step,
    in_held_order,
    pick_refused,
    pick_step_open,
    resolved,
)
from .dream import clock_dream, dream_refused, dream_step, dreamed
from .ending import exposed, game_ended, game_over, turn_ended
from .events import (
    ActionPhaseEnded,
    BoonPicked,
    CardDiscovered,
    CardsDiscarded,
    GameDealt,
    Rested,
    StarsMarked,
    TableSet,
    TelescopeSpent,
    TurnStarted,
)
from .evolve import fold
from .marking import chain_refused
from .model import CALLED, LEAST, MOST, UNDEALT, Ending, Phase, Pick, State, seat_of_turn

STALE = "The table changed a moment ago: here it is as it is now (T4)."
PICK_CALLED = "Boon pick"
DREAM_CALLED = "Dream"
DISCARD_CALLED = "card limit"
ACTING = (Phase.ABILITY, Phase.OBSERVING)  # the Action phase may still be taken (T1)


def decide(state: State, command: Command, now: datetime) -> Decision:
    match command:
        case Deal():
            return _deal(state, command, now)
        case UseAbility():
            return _use(state, command, now)
        case Observe():
            return _observe(state, command, now)
        case Rest():
            return _rest(state, command, now)
        case Done():
            return _done(state, command, now)
        case PickBoon():
            return _pick(state, command, now)
        case DiscardCards():
            return _discard(state, command, now)
        case Dream():
            return _dream(state, command, now)
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


def _in_turn(
    state: State, seat: int, version: int, now: datetime, called: str = CALLED
) -> Refusal | None:
    refusal = (
        kit.in_play(state, now, undealt=UNDEALT, called=called)
        or kit.stale(version, state.version, STALE)
        or kit.seat_refused(state, seat)
    )
    if refusal is not None:
        return refusal
    if seat != state.active:
        return Refusal("It is another player's turn: only they act now (T2).", Problem.FORBIDDEN)
    return None


# -- the Ability phase (A1-A8, K1-K18) ------------------------------------------------------

SKIPPED = Refusal(
    "Your Star Burst skipped this turn's Action phase: no Observe or Rest; say Done when you "
    "have used your Abilities (K1, A5).",
    Problem.CONFLICT,
)


def _use(state: State, command: UseAbility, now: datetime) -> Decision:
    stars = tuple(command.stars)
    refusal = _in_turn(state, command.seat, command.version, now) or ability_refused(
        state, command.seat, command.card, stars, command.k
    )
    if refusal is not None:
        return refusal
    return proceed(state, used(state, command.seat, command.card, stars, command.k), now)


# -- Observe (O1-O13) ------------------------------------------------------------------------


def observe_refused(state: State, seat: int, slot: int, stars: Sequence[int]) -> Refusal | None:
    """Why the active ``seat`` may not Observe ``stars`` on the card in ``slot`` now (None:
    it may). The browser may ask before sending (O10); the server asks again."""
    if state.phase not in ACTING:
        if state.rested:
            return Refusal(
                "You rested this turn: no Observe after a Rest (R1, O9).", Problem.CONFLICT
            )
        return Refusal(
            "Your Action phase is over: no more Observes this turn (O11).", Problem.CONFLICT
        )
    if state.skipped:
        return SKIPPED
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
    refusal = chain_refused(card, placed.marked, stars, free=free_sight(state))
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
    events = _observed(state, command.seat, command.slot, tuple(command.stars))
    return proceed(state, events, now)


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
    if state.phase is Phase.ABILITY and state.skipped:  # K1, A5: the Ability phase ends
        return proceed(state, [ActionPhaseEnded(command.seat, Ending.DONE)], now)
    if state.phase is Phase.ABILITY:
        return Refusal(
            "Observe or Rest first: Done ends a run of Observe actions (O11).", Problem.CONFLICT
        )
    if state.phase not in ACTING:
        return Refusal("Your Action phase is already over.", Problem.CONFLICT)
    return proceed(state, [ActionPhaseEnded(command.seat, Ending.DONE)], now)


# -- Rest (R1-R7) ----------------------------------------------------------------------------


def rest_refused(state: State) -> Refusal | None:
    """R1: a Rest is always allowed, Stardust or not, as the turn's only Action."""
    if state.phase is Phase.OBSERVING:
        return Refusal("You observed this turn: no Rest in the same turn (R1).", Problem.CONFLICT)
    if state.phase not in ACTING:
        if state.rested:
            return Refusal(
                "You have already rested this turn: one Rest a turn (R1).", Problem.CONFLICT
            )
        return Refusal("Your Action phase is over (O11).", Problem.CONFLICT)
    if state.skipped:
        return SKIPPED
    return None


def _rest(state: State, command: Rest, now: datetime) -> Decision:
    refusal = _in_turn(state, command.seat, command.version, now) or rest_refused(state)
    if refusal is not None:
        return refusal
    return proceed(state, [rested(state, command.seat)], now)


def rested(state: State, seat: int, *, by_clock: bool = False) -> Rested:
    """R2, R3: refill to the Pouch size of now, never above it; R4: every Exhausted card of
    the active Sphere's Element, Active again; R5: the marker one Sphere clockwise and, past
    the discard icon, the deck's top card to the discard pile (R6: none from an empty deck).
    K13: a Full Rest in force gains the Pouch size instead of the refill."""
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
        stardust=(
            journal.pouch_size
            if full_rest(state)
            else max(0, journal.pouch_size - journal.stardust)
        ),
        reactivated=reactivated,
        sphere_from=sphere,
        sphere_to=state.board.next_sphere(sphere),
        discarded=state.deck[0] if passes and state.deck else None,
        by_clock=by_clock,
    )


# -- the rest of the turn, by itself (D1-D14, L1, T3, E1-E7) --------------------------------


def proceed(state: State, events: list[object], now: datetime) -> list[object]:
    """``events``, then whatever the turn does by itself after them, until a player must
    act or the game is over (D1: the Discovery phase after the Action phase; T3; E7)."""
    after = fold(events, state)
    events = list(events)
    while (step := next_step(after, now)) is not None:
        events += step
        after = fold(step, after)
    return events


def next_step(state: State, now: datetime) -> list[object] | None:
    """The next events the game makes by itself (None: a player must act, or it is over)."""
    if state.ended:
        return None
    game_end = exposed(state)  # E1, E2: at once, wherever the draw or discard happened
    if game_end is not None:
        return [game_end]
    if state.phase in (Phase.ACTION_ENDED, Phase.DISCOVERY):
        step = discovery_step(state, now)  # D1
        if step is not None:
            return step
        if state.dreamer and state.rested and not state.dreamed:
            return dream_step(state, now)  # V5
        return [turn_ended(state)]  # T3
    if state.phase is Phase.TURN_ENDED:
        if game_over(state):
            return [game_ended(state)]  # E3-E5, E7
        return [_turn_started(state, state.turn + 1, now)]  # T3
    return None


# -- Boon picks (D5-D8, H4, T4's exception) --------------------------------------------------


def _pick(state: State, command: PickBoon, now: datetime) -> Decision:
    refusal = kit.in_play(state, now, undealt=UNDEALT, called=PICK_CALLED) or kit.seat_refused(
        state, command.seat
    )
    if refusal is not None:
        return refusal
    picks = state.picks
    number = resolving(state)
    if not pick_step_open(state) or picks is None or number is None:
        return Refusal("No Boon pick is open now (D5, D6).", Problem.CONFLICT)
    if command.seat not in picks.seats:
        return Refusal(
            "You are not picking a Boon now: only the assisting players of this group pick "
            "(D4, D5).",
            Problem.FORBIDDEN,
        )
    if picks.done(command.seat) and command.step == picks.number:
        return Refusal("You have already picked: a pick is final (D6).", Problem.CONFLICT)
    slot = state.slot(number)
    refusal = kit.submission_refused(
        picks,
        command.seat,
        Pick(command.box, tuple(command.targets)),
        refuse=lambda pick: pick_refused(state, command.seat, slot, pick.box, pick.targets),
        number=command.step,
        called=PICK_CALLED,
    )
    if refusal is not None:
        return refusal
    pick = resolved(state, command.seat, slot, command.box, command.targets)
    picked = BoonPicked(picks.number, command.seat, pick)
    after = kit.with_submission(picks, picked)
    if not after.complete:
        return [picked]  # H4: sealed until the group completes
    return proceed(state, [picked, crossed(picks.number, number, slot, after.submitted)], now)


def resolving(state: State) -> int | None:
    """D3: the slot of the card being resolved: the lowest discovered one."""
    return next((n for n, slot in enumerate(state.slots, 1) if slot.discovered), None)


# -- the card limit (L1-L3) --------------------------------------------------------------------


def _discard(state: State, command: DiscardCards, now: datetime) -> Decision:
    refusal = _in_turn(state, command.seat, command.version, now, DISCARD_CALLED)
    if refusal is not None:
        return refusal
    if state.phase is not Phase.DISCARDING:
        return Refusal(
            "You hold no more cards than your card limit: there is nothing to discard (L1, L3).",
            Problem.CONFLICT,
        )
    refusal = discard_refused(state, command.seat, command.cards)
    if refusal is not None:
        return refusal
    cards = in_held_order(state, command.seat, command.cards)
    return proceed(state, [CardsDiscarded(command.seat, cards)], now)


# -- the Dream phase (V5-V13) -------------------------------------------------------------------


def _dream(state: State, command: Dream, now: datetime) -> Decision:
    refusal = _in_turn(state, command.seat, command.version, now, DREAM_CALLED)
    if refusal is not None:
        return refusal
    if state.phase is not Phase.DREAMING:
        return Refusal(
            "The dreamer marks only in the Dream phase, after a Rest, when the rules leave "
            "you a choice (V5, V12).",
            Problem.CONFLICT,
        )
    stars = tuple(command.stars)
    refusal = dream_refused(state, command.slot, stars)
    if refusal is not None:
        return refusal
    return proceed(state, dreamed(state, command.slot, stars), now)


# -- the clock (Z2-Z8) ---------------------------------------------------------------------------


def due_expiry(state: State, now: datetime, picks: tuple[int, ...] = ()) -> list[object]:
    """Z8: if the running step's deadline has passed, the events that close it (else none).
    The service applies these before any command, so a late job changes nothing; ``picks``:
    the server's random numbers, for a Dream step (Z6, H5)."""
    return kit.expire_if_due(
        state, now, lambda due: _expire(due, Expire(due.step_started, picks), now)
    )


def called(state: State) -> str:
    """The running step, in the refusals' words (Z2)."""
    match state.phase:
        case Phase.PICKING:
            return PICK_CALLED
        case Phase.DREAMING:
            return DREAM_CALLED
        case Phase.DISCARDING:
            return DISCARD_CALLED
    return CALLED


def _expire(state: State, command: Expire, now: datetime) -> Decision:
    refusal = kit.expiry_refused(state, command.step, now, called=called(state))
    if refusal is not None:
        return refusal
    seat = state.active
    assert seat is not None
    match state.phase:
        case Phase.ABILITY if state.skipped:  # Z4: a Star Burst's Ability phase ends there
            return proceed(state, [ActionPhaseEnded(seat, Ending.TIME_UP, by_clock=True)], now)
        case Phase.ABILITY:  # Z3: a Rest for the player (K13 too); the turn goes on
            return proceed(state, [rested(state, seat, by_clock=True)], now)
        case Phase.OBSERVING:  # Z4: the Action phase ends there
            return proceed(state, [ActionPhaseEnded(seat, Ending.TIME_UP, by_clock=True)], now)
        case Phase.PICKING:
            return proceed(state, _picks_by_clock(state), now)
        case Phase.DREAMING:
            events = clock_dream(state, command.picks)
            return events if isinstance(events, Refusal) else proceed(state, events, now)
        case Phase.DISCARDING:  # Z7: the newest cards first
            held = state.journal(seat).held
            newest = tuple(h.card for h in held[state.journal(seat).card_limit :])
            return proceed(state, [CardsDiscarded(seat, newest, by_clock=True)], now)
    return Refusal("No step of this game is waiting on the clock.", Problem.CONFLICT)


def _picks_by_clock(state: State) -> list[object]:
    """Z5: each member still to pick gets the leftmost Boon open to them; picks made stand;
    the group completes (D6)."""
    picks = state.picks
    number = resolving(state)
    assert picks is not None and number is not None
    slot = state.slot(number)
    given = {seat: clock_pick(state, seat, slot) for seat in picks.waiting}
    events: list[object] = [
        BoonPicked(picks.number, seat, pick, by_clock=True) for seat, pick in given.items()
    ]
    everyone = {**picks.submitted, **given}
    return [*events, crossed(picks.number, number, slot, everyone, tuple(sorted(given)))]
