"""The board's geometry: neighbours, the colours' moves, the quarter turn, and finding a
constellation on the board."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .model import CENTRE, SIZE, Cell, Compass, Tile

ORTHOGONAL = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left
DIAGONAL = ((-1, -1), (-1, 1), (1, 1), (1, -1))
AROUND = ORTHOGONAL + DIAGONAL
STEPS = {Tile.BLUE: ORTHOGONAL, Tile.ORANGE: DIAGONAL}  # which colours move, and how

Board = Sequence[Tile | None]
Move = tuple[int, int]  # (origin space, target space)


def space(row: int, column: int) -> int:
    return row * SIZE + column


def cell(space_: int) -> Cell:
    return divmod(space_, SIZE)


def on_board(row: int, column: int) -> bool:
    return 0 <= row < SIZE and 0 <= column < SIZE


def label(space_: int) -> str:
    """How a person names a space: columns A-E from the left, rows 1-5 from the top."""
    row, column = cell(space_)
    return f"{'ABCDE'[column]}{row + 1}"


def surrounding(space_: int) -> list[int]:
    """The up to eight spaces touching this one, orthogonally or diagonally."""
    row, column = cell(space_)
    return [space(row + dr, column + dc) for dr, dc in AROUND if on_board(row + dr, column + dc)]


def legal_moves(board: Board, placed: int | None) -> list[Move]:
    """The moves the tile on ``placed`` allows: a surrounding tile (never the North Star)
    one space in one of its colour's directions, into an empty space. None for yellow, and
    none while no tile is placed."""
    tile = board[placed] if placed is not None else None
    directions = STEPS.get(tile) if tile is not None else None
    if placed is None or directions is None:
        return []
    moves = []
    for origin in surrounding(placed):
        if board[origin] is None or board[origin] is Tile.NORTH:
            continue
        row, column = cell(origin)
        for dr, dc in directions:
            if on_board(row + dr, column + dc) and board[space(row + dr, column + dc)] is None:
                moves.append((origin, space(row + dr, column + dc)))
    return moves


def move(board: Board, origin: int, target: int) -> tuple[Tile | None, ...]:
    after = list(board)
    after[target], after[origin] = after[origin], None
    return tuple(after)


def rotate_space(space_: int) -> int:
    """Where a space goes when the board turns 90 degrees clockwise."""
    row, column = cell(space_)
    return space(column, SIZE - 1 - row)


def rotate_board(board: Board) -> tuple[Tile | None, ...]:
    """The board turned 90 degrees clockwise about its centre: the North Star's space maps
    to itself, so it stays where it is while every other tile turns."""
    after: list[Tile | None] = [None] * len(board)
    for i, tile in enumerate(board):
        after[rotate_space(i)] = tile
    assert after[CENTRE] is board[CENTRE]
    return tuple(after)


def normal(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The shape moved to touch the top and left edges, in reading order."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def turned(cells: Iterable[Cell], quarter_turns: int) -> tuple[Cell, ...]:
    """The shape turned clockwise by this many quarter turns."""
    shape = list(cells)
    for _ in range(quarter_turns % 4):
        shape = [(c, -r) for r, c in shape]
    return normal(shape)


def oriented(cells: Iterable[Cell], compass: Compass) -> tuple[Cell, ...]:
    """A card's shape as it lies on the table when the chart's north points ``compass``."""
    return turned(cells, compass.quarter_turns)


def extent(cells: Iterable[Cell]) -> tuple[int, int]:
    """(rows, columns) of the shape's bounding box."""
    cells = list(cells)
    rows = max(r for r, _ in cells) - min(r for r, _ in cells) + 1
    columns = max(c for _, c in cells) - min(c for _, c in cells) + 1
    return rows, columns


def placements(cells: Iterable[Cell]) -> list[tuple[int, ...]]:
    """Every way the shape (as it is, not turned) lies on the board: the spaces it covers."""
    shape = normal(cells)
    rows, columns = extent(shape)
    return [
        tuple(space(top + r, left + c) for r, c in shape)
        for top in range(SIZE - rows + 1)
        for left in range(SIZE - columns + 1)
    ]


def one_colour(tiles: Iterable[Tile | None]) -> bool:
    """Five tiles that are all one colour, the North Star standing in for any of them."""
    tiles = list(tiles)
    if any(tile is None for tile in tiles):
        return False
    return len({tile for tile in tiles if tile is not Tile.NORTH}) <= 1


def find(board: Board, cells: Iterable[Cell]) -> tuple[int, ...] | None:
    """The spaces where this shape (already turned to the chart) is complete, or None."""
    for spaces in placements(cells):
        if one_colour(board[i] for i in spaces):
            return spaces
    return None
