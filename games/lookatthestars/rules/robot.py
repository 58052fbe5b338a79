"""A computer player (issue 17): a simple greedy seat that plays through ``Submit`` like a
person, reading only what its own seat may see (its board as of the last closed round, the
revealed card and the two bonus cards, V3, V4).

Its rule: score every legal drawing of the card (and the pass) by the provisional score it
would make (E8), then whether it opens a power copy, then how many lines it leaves in groups
that may still grow (a pass only when nothing else is as good); take the few best, resolve
each one's open power copies one at a time (U7's board order) by the use or decline that
scores best then (ties: decline, so a once-per-game power waits for a better moment); submit
the best whole submission. Well under a second a turn: a shape has at most a few hundred
placements, each scored once.
"""

from __future__ import annotations

from collections.abc import Callable

from .board import StarBoard
from .cards import POINT_CARDS
from .commands import Submit
from .drawing import apply, in_board_order, open_copies, options, resolve, targets
from .evolve import turn_of
from .model import PASS, Drawing, Resolution, State, Turn
from .scoring import score
from .sky import Shape

SHORTLIST = 4  # the best drawings, by their score before powers, that get their powers tried
GROWING = 8  # a group up to this size may still grow into a bigger constellation (C3)

Value = tuple[int, int]
Judge = Callable[[StarBoard], Value]


def waiting(state: State, seat: int) -> bool:
    """The seat owes a submission in the running round."""
    running = state.round is not None and not state.round.closed and not state.ended
    return bool(running and state.round is not None and seat in state.round.waiting)


def move(state: State, seat: int) -> Submit:
    """The robot's submission for ``seat`` in the running round."""
    card = POINT_CARDS[state.point_card]
    chosen = choose(state.boards[seat - 1], turn_of(state), card.lines, card.value)
    return Submit(seat, state.round_number, chosen)


def choose(board: StarBoard, turn: Turn, point_lines: Shape, point_value: int = 3) -> Drawing:
    """The greedy choice: a legal whole submission for ``board`` this round (R3, W3)."""

    def value(b: StarBoard) -> Value:
        growing = sum(len(g) for g in b.groups if len(g) <= GROWING)
        return score(b, point_lines, point_value).total, growing

    def promise(d: Drawing) -> tuple[int, bool, int]:
        after = _drawn(board, d)
        total, growing = value(after)
        return total, bool(open_copies(after, turn)), growing

    ranked = sorted(
        ((promise(d), i, d) for i, d in enumerate(options(board, turn))),
        key=lambda entry: (tuple(-x for x in entry[0]), entry[1]),
    )
    shortlist = [d for _, _, d in ranked[:SHORTLIST]] + [PASS]
    best, best_value = PASS, value(board)
    for candidate in shortlist:
        whole, after = _with_powers(_drawn(board, candidate), candidate, turn, value)
        if value(after) > best_value and not _refused(board, whole, turn):
            best, best_value = whole, value(after)
    return best


def _drawn(board: StarBoard, drawing: Drawing) -> StarBoard:
    """The board with a legal drawing's card part (options are legal: no check needed)."""
    if drawing.shooting_star is not None:
        return board.changed(shooting_stars=(*board.shooting_stars, drawing.shooting_star))
    return board.changed(drawn=board.drawn | drawing.lines)


def _with_powers(
    board: StarBoard, drawing: Drawing, turn: Turn, value: Judge
) -> tuple[Drawing, StarBoard]:
    """Resolve every open copy in board order, each by its best-scoring use or a decline."""
    resolutions: list[Resolution] = []
    while True:
        opened = in_board_order(open_copies(board, turn))
        if not opened:
            break
        copy = opened[0]
        declined = Resolution(copy)
        best_resolution, best_board = declined, resolve(board, declined, turn)
        assert isinstance(best_board, StarBoard), "declining an open copy is always allowed"
        best_value = value(best_board)
        for target in targets(board, copy, turn):
            use = Resolution(copy, target)
            used = resolve(board, use, turn)
            if isinstance(used, StarBoard) and value(used) > best_value:
                best_resolution, best_board, best_value = use, used, value(used)
        resolutions.append(best_resolution)
        board = best_board
    whole = Drawing(drawing.lines, drawing.shooting_star, tuple(resolutions))
    return whole, board


def _refused(board: StarBoard, drawing: Drawing, turn: Turn) -> bool:
    return not isinstance(apply(board, drawing, turn), StarBoard)
