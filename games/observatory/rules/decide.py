"""What a command does: events, or a refusal with a reason a person can read.

``decide(state, command, now)`` never changes anything. The flow:

- the deal (G1, G2, N3) stores both deck orders and the first player; the setup choice
  follows (G3), or, in a first game, Night 1's first turn at once;
- the setup choice, the Night openings (N8) and the turns (N5-N11) are simultaneous rounds:
  every seat submits once, checked whole against its sheet as the step began (U1, U2), final
  and private until the step closes (U3); the step closes on the last submission or when its
  clock runs out (T2-T5);
- after a turn's close: the end if it was the game's last turn (E1, no draft); else the
  draft if any seat completed a card in it or its opening (N9, G5), one seat at a time in turn
  order from the active seat, one pick per event (G5-G7, T6); then the next turn, or the
  next Night with its opening if it has the icon (N4, N8, X6);
- the end: every score sheet and the winners (E2, E5, E6; none in a solo game, S3).

The dice of a turn come in the command that starts it (D2; see ``commands``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from games import kit
from games.kit import Decision, Problem, Refusal

from .commands import Choose, Command, Deal, Expire, Pick, Submit
from .deck import LARGE, SMALL
from .events import (
    ChoicesRevealed,
    ChoiceStarted,
    DraftStarted,
    GameDealt,
    GameEnded,
    KeepSubmitted,
    OpeningStarted,
    Picked,
    StepsRevealed,
    StepsSubmitted,
    TurnStarted,
)
from .evolve import applied, fold
from .model import (
    CALLED,
    DEALT_LARGE,
    KEEP,
    LEAST,
    MOST,
    SLOTS,
    UNDEALT,
    Keep,
    Phase,
    Source,
    State,
    Submission,
    Take,
    active_seat,
    turn_order,
)
from .scoring import ScoreSheet
from .sheet import Dice

NO_DICE = "The server rolls the dice when a turn starts (D2): this command brings none."


def decide(state: State, command: Command, now: datetime) -> Decision:
    match command:
        case Deal():
            return _deal(state, command, now)
        case Choose():
            return _choose(state, command, now)
        case Submit():
            return _submit(state, command, now)
        case Pick():
            return _pick(state, command, now)
        case Expire():
            return _expire(state, command, now)
    return Refusal("That is not something this game knows how to do.")


def due_expiry(state: State, now: datetime, dice: Dice | None = None) -> list[object]:
    """T7: if the running step's deadline has passed, the events that close it (else none).
    The service applies these before any action, so a late job changes nothing."""
    return kit.expire_if_due(
        state, now, lambda due: _expire(due, Expire(due.step_started, dice), now)
    )


# -- the deal (G1, G2, N1, N3) -------------------------------------------------------------------


def _deal(state: State, command: Deal, now: datetime) -> Decision:
    if state.dealt:
        return Refusal("The game has already been dealt.", Problem.CONFLICT)
    players = command.players
    if not LEAST <= players <= MOST:
        return Refusal(f"Observatory is played by {LEAST} to {MOST} players.")  # N1
    if sorted(command.large) != sorted(LARGE) or sorted(command.small) != sorted(SMALL):
        return Refusal("Each deck is dealt whole, every card once, in any order (G1).")
    if not 1 <= command.first_player <= players:
        return Refusal("The first player is one of the seats (N3).")
    if command.step_seconds is not None and command.step_seconds <= 0:
        return Refusal("A step's clock runs for a positive number of seconds (T1).")
    dealt = GameDealt(
        players=players,
        large=tuple(command.large),
        small=tuple(command.small),
        first_player=command.first_player,
        first_game=command.first_game,
        step_seconds=command.step_seconds,
    )
    if not command.first_game:
        return [dealt, ChoiceStarted(kit.deadline_after(command.step_seconds, now))]
    # G2, the first game: no choosing step; G4 follows at once, then Night 1 (never an icon).
    after = fold([dealt], state)
    return _chain(after, [dealt], _night_start(after, 1, command.dice, now))


# -- the setup choice (G3, T5) -------------------------------------------------------------------


def keep_refused(state: State, seat: int, keep: Keep) -> Refusal | None:
    """G3: exactly 4 different cards of the seat's own 6."""
    cards = keep.cards
    hand = state.hands[seat - 1]
    if len(cards) != KEEP or len(set(cards)) != KEEP or not set(cards) <= set(hand):
        return Refusal(f"Keep exactly {KEEP} different cards of the 6 you were dealt (G3).")
    return None


def default_keep(state: State, seat: int) -> Keep:
    """T5: the first 2 Large and the first 2 Small cards dealt (the third of each returned)."""
    hand = state.hands[seat - 1]
    half = KEEP // 2
    return Keep((*hand[:half], *hand[DEALT_LARGE : DEALT_LARGE + half]))


def _choose(state: State, command: Choose, now: datetime) -> Decision:
    refusal = kit.in_play(state, now, undealt=UNDEALT, called=CALLED)
    if refusal is not None:
        return refusal
    if state.phase is not Phase.CHOICE or state.choice is None:
        return Refusal("The setup choice is over.", Problem.CONFLICT)
    keep = Keep(tuple(command.keep))
    decision = kit.submit(
        state.choice,
        command.seat,
        keep,
        refuse=lambda chosen: keep_refused(state, command.seat, chosen),
        number=command.round,
        called="setup choice",
        submitted_as=KeepSubmitted,
        closed_as=ChoicesRevealed,
    )
    return _after(state, decision, command.dice, now)


# -- a Night opening or a turn (U1-U3, N5-N11, T2-T4) -------------------------------------------


def submission_refused(state: State, seat: int, submission: Submission) -> Refusal | None:
    """The game's own check of a whole submission (U1): against the seat's sheet as the step
    began, with the turn's dice, the active seat's Shooting Star die (N7) and, in a Night
    opening, its bonus and no dice (N8)."""
    after = applied(state, seat, submission)
    return after if isinstance(after, Refusal) else None


def _submit(state: State, command: Submit, now: datetime) -> Decision:
    refusal = kit.in_play(state, now, undealt=UNDEALT, called=CALLED)
    if refusal is not None:
        return refusal
    if state.phase not in (Phase.OPENING, Phase.TURN) or state.round is None:
        return Refusal("No turn is open for submissions now.", Problem.CONFLICT)
    called = "Night opening" if state.phase is Phase.OPENING else "turn"
    decision = kit.submit(
        state.round,
        command.seat,
        Submission.of(command.steps),
        refuse=lambda submission: submission_refused(state, command.seat, submission),
        number=command.round,
        called=called,
        submitted_as=StepsSubmitted,
        closed_as=StepsRevealed,
    )
    return _after(state, decision, command.dice, now)


# -- the draft (G5-G7, T6) ------------------------------------------------------------------------


def take_refused(state: State, take: Take) -> Refusal | None:
    """G6, G7: a face-up card still in its slot, or the top of a deck still holding cards."""
    if take.source.row:
        row = state.sky_large if take.source is Source.LARGE_ROW else state.sky_small
        if take.slot is None or not 1 <= take.slot <= SLOTS:
            return Refusal(f"Name a slot 1-{SLOTS} of the row (G6).")
        if row[take.slot - 1] is None:
            return Refusal("That slot is empty: its deck has run out (G7).", Problem.CONFLICT)
        return None
    if take.slot is not None:
        return Refusal("A deck has no slots: take its top card (G6).")
    deck = state.large if take.source is Source.LARGE_DECK else state.small
    if not deck:
        return Refusal("That deck is empty: no card comes out of it (G7).", Problem.CONFLICT)
    return None


def taken(state: State, take: Take) -> str:
    """The card ``take`` takes (it is legal)."""
    if take.source.row:
        row = state.sky_large if take.source is Source.LARGE_ROW else state.sky_small
        card = row[(take.slot or 1) - 1]
        assert card is not None
        return card
    return (state.large if take.source is Source.LARGE_DECK else state.small)[0]


def clock_take(state: State) -> Take | None:
    """T6: the top of the Large deck if it holds at least as many cards as the Small deck,
    else the top of the Small deck; both empty: the face-up card in the lowest slot of the
    Large row, else of the Small row; None if no card is left."""
    if state.large or state.small:
        large = len(state.large) >= len(state.small)
        return Take(Source.LARGE_DECK if large else Source.SMALL_DECK)
    for source, row in ((Source.LARGE_ROW, state.sky_large), (Source.SMALL_ROW, state.sky_small)):
        for slot, card in enumerate(row, start=1):
            if card is not None:
                return Take(source, slot)
    return None


def _pick(state: State, command: Pick, now: datetime) -> Decision:
    refusal = kit.in_play(state, now, undealt=UNDEALT, called=CALLED)
    if refusal is not None:
        return refusal
    refusal = kit.seat_refused(state, command.seat)
    if refusal is not None:
        return refusal
    if state.phase is not Phase.DRAFT or state.drafter is None:
        return Refusal("No draft is running.", Problem.CONFLICT)
    if command.seat != state.drafter:
        return Refusal("It is another seat's turn to draft (G5).", Problem.FORBIDDEN)
    refusal = kit.stale(command.version, state.version, "The Night Sky changed: look again.")
    if refusal is not None:
        return refusal
    refusal = take_refused(state, command.take)
    if refusal is not None:
        return refusal
    picked = _picked(state, command.take, by_clock=False)
    after = fold([picked], state)
    return _chain(after, [picked], _draft_goes_on(after, command.dice, now))


def _picked(state: State, take: Take, *, by_clock: bool) -> Picked:
    assert state.drafter is not None
    return Picked(state.drafter, take.source, take.slot, taken(state, take), by_clock)


def _draft_goes_on(state: State, dice: Dice | None, now: datetime) -> Decision:
    """After a pick: the seat picks again while it owes and a card is left; else the next
    seat in turn order that owes (G5); else the next turn (N10)."""
    seat = state.drafter
    assert seat is not None
    if state.owed[seat - 1] > 0 and state.available():
        return []
    return _draft_from(state, _after_seat(state, seat), dice, now)


def _after_seat(state: State, seat: int) -> tuple[int, ...]:
    """The seats after ``seat`` in this turn's draft order (G5: active first)."""
    active = state.active
    assert active is not None
    order = turn_order(active, state.players)
    return order[order.index(seat) + 1 :]


def _draft_from(state: State, seats: Sequence[int], dice: Dice | None, now: datetime) -> Decision:
    """The draft of the first of ``seats`` that owes a replacement, or the next turn when
    none does or no card is left (G7: a seat takes fewer)."""
    if state.available():
        for seat in seats:
            owed = state.owed[seat - 1]
            if owed > 0:
                return [DraftStarted(seat, owed, kit.deadline_after(state.step_seconds, now))]
    return _next_turn(state, dice, now)


# -- the clock (T2-T7) ----------------------------------------------------------------------------


def _expire(state: State, command: Expire, now: datetime) -> Decision:
    refusal = kit.expiry_refused(state, command.step, now, called=CALLED)
    if refusal is not None:
        return refusal
    if state.phase is Phase.CHOICE and state.choice is not None:
        decision = kit.close_by_clock(
            state.choice,
            lambda seat: default_keep(state, seat),  # T5, recorded as defaulted
            called="setup choice",
            submitted_as=KeepSubmitted,
            closed_as=ChoicesRevealed,
        )
        return _after(state, decision, command.dice, now)
    if state.phase in (Phase.OPENING, Phase.TURN) and state.round is not None:
        # T3, T4: a seat still choosing is skipped: nothing for it, its seat number recorded.
        decision = kit.close_by_clock(
            state.round,
            lambda seat: None,
            called=CALLED,
            submitted_as=StepsSubmitted,
            closed_as=StepsRevealed,
        )
        return _after(state, decision, command.dice, now)
    return _draft_by_clock(state, command.dice, now)


def _draft_by_clock(state: State, dice: Dice | None, now: datetime) -> Decision:
    """T6: the drafting seat's remaining replacements taken for it, one event each."""
    seat = state.drafter
    assert seat is not None
    events: list[object] = []
    while state.owed[seat - 1] > 0:
        take = clock_take(state)
        if take is None:
            break
        picked = _picked(state, take, by_clock=True)
        events.append(picked)
        state = fold([picked], state)
    return _chain(state, events, _draft_from(state, _after_seat(state, seat), dice, now))


# -- after a step closes --------------------------------------------------------------------------


def _after(state: State, decision: Decision, dice: Dice | None, now: datetime) -> Decision:
    """After a close (the last of ``decision``): what comes next."""
    if isinstance(decision, Refusal) or not decision:
        return decision
    last = decision[-1]
    if not isinstance(last, ChoicesRevealed | StepsRevealed):
        return decision
    after = fold(decision, state)
    if isinstance(last, ChoicesRevealed):  # G4, then Night 1 (never an icon Night, N8)
        return _chain(after, decision, _night_start(after, 1, dice, now))
    if after.phase is Phase.OPENING:  # N8: the Night's first roll comes after its opening
        return _chain(after, decision, _turn_start(after, after.night, 1, dice, now))
    if after.last_turn:  # E1: the game ends at once, no draft
        return [*decision, _ended(after)]
    active = after.active
    assert active is not None
    return _chain(after, decision, _draft_from(after, turn_order(active, after.players), dice, now))


def _chain(state: State, before: list[object], then: Decision) -> Decision:
    return then if isinstance(then, Refusal) else [*before, *then]


def _next_turn(state: State, dice: Dice | None, now: datetime) -> Decision:
    """N4, N10: the next turn of this Night, or the next Night."""
    if state.turn < state.players:
        return _turn_start(state, state.night, state.turn + 1, dice, now)
    return _night_start(state, state.night + 1, dice, now)


def _night_start(state: State, night: int, dice: Dice | None, now: datetime) -> Decision:
    """N8, X6: an icon Night opens with its Night-opening step; any other with a turn."""
    if night in state.opening_nights:
        deadline = kit.deadline_after(state.step_seconds, now)
        return [OpeningStarted(night, state.round_number + 1, deadline)]
    return _turn_start(state, night, 1, dice, now)


def _turn_start(state: State, night: int, turn: int, dice: Dice | None, now: datetime) -> Decision:
    """N4, N5, D2: the turn's active seat and the dice the command brought."""
    if dice is None:
        return Refusal(NO_DICE)
    active = active_seat(state.first_player, turn, state.players)
    deadline = kit.deadline_after(state.step_seconds, now)
    return [TurnStarted(night, turn, active, state.round_number + 1, dice, deadline)]


# -- the end (E1, E5, E6, S3) ---------------------------------------------------------------------


def winners(scores: Sequence[ScoreSheet]) -> tuple[int, ...]:
    """E5: the highest total; a tie goes to the fewest completed cards (Asterisms included);
    still tied, they share. S3: a solo game has no winner."""
    if len(scores) < 2:
        return ()
    best = max(sheet.total for sheet in scores)
    tied = [(seat, sheet) for seat, sheet in enumerate(scores, 1) if sheet.total == best]
    fewest = min(sheet.completed for _, sheet in tied)
    return tuple(seat for seat, sheet in tied if sheet.completed == fewest)


def _ended(state: State) -> GameEnded:
    return GameEnded(state.scores, winners(state.scores))


def card_counts(state: State) -> Counter[str]:
    """Every card once, wherever it is (a check for tests: 124 in all, none twice)."""
    places: list[str] = [*state.large, *state.small]
    places += [card for card in (*state.sky_large, *state.sky_small) if card is not None]
    if state.phase is Phase.CHOICE and not state.first_game:
        places += [card for hand in state.hands for card in hand]
    else:
        places += [card for sheet in state.sheets for card in (*sheet.goals, *sheet.completed)]
    return Counter(places)
