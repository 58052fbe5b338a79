"""What a command does: events, or a refusal with a reason a person can read.

``decide`` never changes anything; the service appends the events it returns. It takes
``now`` so that a turn's deadline is judged by the caller's clock; every random choice
comes in the command, drawn by the server.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from games import kit
from games.kit import Decision

from .charts import CHARTS
from .commands import Command, Deal, Expire, Move, Place, Problem, Refusal
from .events import (
    ActionSkipped,
    BoardRotated,
    GameDealt,
    GameEnded,
    TileMoved,
    TilePlaced,
    TurnStarted,
)
from .evolve import fold
from .geometry import find, label, legal_moves, oriented
from .model import (
    COLOURS,
    FACE_UP,
    PLAYERS,
    SPACES,
    TILES_PER_COLOUR,
    Finish,
    State,
    Step,
    Tile,
)

STALE = "The board changed a moment ago: here it is as it is now."


def decide(state: State, command: Command, now: datetime) -> Decision:
    match command:
        case Deal():
            return _deal(state, command, now)
        case Place():
            return _place(state, command, now)
        case Move():
            return _move(state, command, now)
        case Expire():
            return _expire(state, command, now)
    return Refusal("That is not something this game knows how to do.")


def due_expiry(state: State, now: datetime, picks: tuple[int, ...] = ()) -> list[object]:
    """If the turn's deadline has passed, the events that expire it (else none): the
    service applies these before any action, so a late clock job changes nothing."""
    expire = Expire(step=state.step_started, picks=picks)
    return kit.expire_if_due(state, now, lambda due: _expire(due, expire, now))


# -- setting the table -----------------------------------------------------------------------


def _deal(state: State, command: Deal, now: datetime) -> Decision:
    if state.dealt:
        return Refusal("The table is already set.", Problem.CONFLICT)
    chart = CHARTS.get(command.chart)
    if chart is None:
        return Refusal("Choose the blue, orange or yellow star chart.")
    dealt = [*command.cards, command.face_down]
    if len(command.cards) != PLAYERS or sorted(c.id for c in dealt) != sorted(
        c.id for c in chart.cards
    ):
        return Refusal("Each player holds one card of the chart's set; the third stays down.")
    if Counter(command.stack) != {colour: TILES_PER_COLOUR for colour in COLOURS}:
        return Refusal("The stack is 9 blue, 9 orange and 9 yellow tiles.")
    if command.first_seat not in (1, 2):
        return Refusal("Seat 1 or seat 2 starts.")
    if command.step_seconds is not None and command.step_seconds <= 0:
        return Refusal("A turn's clock must be a positive number of seconds.")
    dealt_event = GameDealt(
        chart=command.chart,
        compass=command.compass,
        cards=tuple(command.cards),
        face_down=command.face_down,
        stack=tuple(command.stack),
        first_seat=command.first_seat,
        step_seconds=command.step_seconds,
    )
    after = fold([dealt_event], state)
    return [dealt_event, _turn_started(after, command.first_seat, now)]


def _turn_started(state: State, seat: int, now: datetime) -> TurnStarted:
    """Step 1 of a turn: fewer than three tiles beside the board? Draw up to three."""
    missing = max(0, FACE_UP - len(state.face_up))
    return TurnStarted(
        seat=seat,
        turn=state.turn + 1,
        drawn=state.stack[:missing],
        deadline=kit.deadline_after(state.step_seconds, now),
    )


# -- guards shared by the players' commands ----------------------------------------------


def _in_turn(state: State, seat: int, version: int, now: datetime) -> Refusal | None:
    refusal = (
        kit.in_play(state, now, undealt="The game has not started.", called="turn")
        or kit.stale(version, state.version, STALE)
        or kit.seat_refused(state, seat)
    )
    if refusal:
        return refusal
    if seat != state.seat:
        return Refusal("It is the other player's turn.", Problem.FORBIDDEN)
    return None


# -- placing ------------------------------------------------------------------------------


def _place(state: State, command: Place, now: datetime) -> Decision:
    if refusal := _in_turn(state, command.seat, command.version, now):
        return refusal
    if state.step is not Step.PLACING:
        return Refusal("You placed your tile: now do its action.", Problem.CONFLICT)
    if command.face_up is None:
        if not state.stack:
            return Refusal("The stack is empty: pick a tile beside the board.", Problem.CONFLICT)
        tile = state.stack[0]
    elif 0 <= command.face_up < len(state.face_up):
        tile = state.face_up[command.face_up]
    else:
        return Refusal("Pick one of the tiles beside the board, or the blind tile.")
    if not 0 <= command.space < SPACES:
        return Refusal("There is no such space on the board.")
    if state.board[command.space] is not None:
        return Refusal("Two tiles can never share a space: pick an empty one.", Problem.CONFLICT)
    placed = TilePlaced(seat=command.seat, tile=tile, face_up=command.face_up, space=command.space)
    return [placed, *_action(fold([placed], state), now)]


def _action(state: State, now: datetime) -> list[object]:
    """Step 3: the placed tile's colour acts. Yellow always turns the board; blue and
    orange wait for the player's move, or are skipped when no move exists."""
    tile = state.placed_tile
    if tile is Tile.YELLOW:
        rotated = BoardRotated(seat=state.seat)
        return [rotated, *_end_turn(fold([rotated], state), now)]
    assert tile is not None, "a tile was just placed"
    if legal_moves(state.board, state.placed):
        return []  # the player chooses the move
    skipped = ActionSkipped(seat=state.seat, tile=tile)
    return [skipped, *_end_turn(fold([skipped], state), now)]


# -- moving -------------------------------------------------------------------------------


def _move(state: State, command: Move, now: datetime) -> Decision:
    if refusal := _in_turn(state, command.seat, command.version, now):
        return refusal
    if state.step is not Step.ACTING:
        return Refusal("Place a tile first.", Problem.CONFLICT)
    moves = legal_moves(state.board, state.placed)
    if command.origin is None:
        origins = [o for o, t in moves if t == command.target]
        if len(origins) != 1:
            reason = (
                "Choose which tile to move first."
                if origins
                else "No surrounding tile can move there."
            )
            return Refusal(reason)
        origin = origins[0]
    else:
        origin = command.origin
    if (origin, command.target) not in moves:
        return Refusal(_why_not(state, origin, command.target))
    moved = TileMoved(seat=command.seat, origin=origin, target=command.target)
    return [moved, *_end_turn(fold([moved], state), now)]


def _why_not(state: State, origin: int, target: int) -> str:
    tile, placed = state.placed_tile, state.placed
    assert tile is not None and placed is not None, "only asked while acting"
    way = "up, down, left or right" if tile is Tile.BLUE else "diagonally"
    if not (0 <= origin < SPACES and 0 <= target < SPACES):
        return "There is no such space on the board."
    if state.board[origin] is Tile.NORTH:
        return "The North Star never moves."
    return (
        f"That move is not allowed: move one tile next to the {tile.value} star on "
        f"{label(placed)} one space {way}, into an empty space."
    )


# -- the end of a turn --------------------------------------------------------------------


def completed(state: State, seat: int) -> tuple[int, ...] | None:
    """The spaces of this seat's constellation if it lies on the board, turned to the chart."""
    card = state.card_of(seat)
    if card is None:
        return None
    return find(state.board, oriented(card.cells, state.compass))


def _end_turn(state: State, now: datetime) -> list[object]:
    """After every mandatory action: a constellation wins, both at once draw, a full board
    with neither draws; otherwise the other player's turn starts."""
    done = {seat: spaces for seat in (1, 2) if (spaces := completed(state, seat))}
    if len(done) == 2:
        spaces = tuple(sorted(set(done[1]) | set(done[2])))
        return [GameEnded(winner=None, finish=Finish.BOTH, spaces=spaces)]
    for seat, spaces in done.items():
        return [GameEnded(winner=seat, finish=Finish.CONSTELLATION, spaces=spaces)]
    if state.full:
        return [GameEnded(winner=None, finish=Finish.FULL, spaces=())]
    return [_turn_started(state, State.other(state.seat), now)]


# -- the clock -------------------------------------------------------------------------


def _expire(state: State, command: Expire, now: datetime) -> Decision:
    """An expired turn: the blind top tile goes to a random empty space (if the player had
    not placed yet), then a random legal move is made if the colour calls for one."""
    if refusal := kit.expiry_refused(state, command.step, now, called="turn"):
        return refusal
    picks = (*command.picks, 0, 0)
    events: list[object] = []
    if state.step is Step.PLACING:
        empty = state.empty_spaces()
        blind = bool(state.stack)
        placed = TilePlaced(
            seat=state.seat,
            tile=state.stack[0] if blind else state.face_up[0],
            face_up=None if blind else 0,
            space=empty[picks[0] % len(empty)],
            by_clock=True,
        )
        events.append(placed)
        state = fold([placed], state)
        action = _action(state, now)
        if action:
            return [*events, *action]
    moves = legal_moves(state.board, state.placed)
    origin, target = moves[picks[1] % len(moves)]
    moved = TileMoved(seat=state.seat, origin=origin, target=target, by_clock=True)
    return [*events, moved, *_end_turn(fold([moved], state), now)]
