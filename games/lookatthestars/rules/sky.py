"""The sky's geometry (G1, G2, L1, L4, C1, L7, P2): points, lines, the dome's outline,
crossing, groups, and shapes moved and turned (never mirrored).

A point is ``(column, row)``: column 0..9 for ``a``..``j`` from the left, row 1..11 from the
horizon up, so ``e5`` is ``(4, 5)``. A line is the sorted pair of its two ends, so ``e5-f6``
and ``f6-e5`` are the same value. A shape is a set of lines in a card's local box (D3) or on
a board; it may be moved and turned by quarter turns, never mirrored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Point = tuple[int, int]
Line = tuple[Point, Point]
Shape = frozenset[Line]

COLUMNS = "abcdefghij"
ROWS = range(1, 12)
TOP = 11

# G2: the top corners are cut away, so the sky is a dome.
_ROW_SPAN = {11: ("d", "g"), 10: ("c", "h"), 9: ("b", "i"), 8: ("b", "i")}


def _row_points(row: int) -> Iterator[Point]:
    first, last = _ROW_SPAN.get(row, ("a", "j"))
    return ((column, row) for column in range(COLUMNS.index(first), COLUMNS.index(last) + 1))


OUTLINE: frozenset[Point] = frozenset(p for row in ROWS for p in _row_points(row))
AROUND = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def point(name: str) -> Point:
    """``"e5"`` → ``(4, 5)``; a name that is no point of the grid (G1) raises ValueError."""
    name = name.strip().lower()
    if len(name) < 2 or name[0] not in COLUMNS or not name[1:].isdigit():
        raise ValueError(f"{name!r} is not a point")
    row = int(name[1:])
    if row not in ROWS:
        raise ValueError(f"{name!r} is not a point")
    return (COLUMNS.index(name[0]), row)


def point_name(p: Point) -> str:
    return f"{COLUMNS[p[0]]}{p[1]}"


def in_outline(p: Point) -> bool:
    return p in OUTLINE


def are_neighbours(a: Point, b: Point) -> bool:
    """Columns and rows each differ by at most 1, and the points differ (L1)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def neighbours(p: Point) -> frozenset[Point]:
    """The up to 8 points of the outline around ``p``."""
    return frozenset(q for dc, dr in AROUND if (q := (p[0] + dc, p[1] + dr)) in OUTLINE)


def line(a: Point, b: Point) -> Line:
    """The line between two neighbouring points (L1); anything else raises ValueError."""
    if not are_neighbours(a, b):
        raise ValueError(f"{point_name(a)}-{point_name(b)} is not a line: not neighbours")
    return (a, b) if a < b else (b, a)


def parse_line(text: str) -> Line:
    """``"e5-f6"`` → the line; ValueError for anything else."""
    ends = text.strip().split("-")
    if len(ends) != 2:
        raise ValueError(f"{text!r} is not a line")
    return line(point(ends[0]), point(ends[1]))


def line_name(ln: Line) -> str:
    return f"{point_name(ln[0])}-{point_name(ln[1])}"


def parse_shape(text: str) -> Shape:
    """``"a1-a2 a1-b1"`` → its lines."""
    return frozenset(parse_line(part) for part in text.split())


def shape_name(shape: Iterable[Line]) -> str:
    return " ".join(line_name(ln) for ln in sorted(shape))


def is_diagonal(ln: Line) -> bool:
    (c1, r1), (c2, r2) = ln
    return c1 != c2 and r1 != r2


def crosses(a: Line, b: Line) -> bool:
    """The two diagonals of one unit square (L4): the only way two lines cross."""
    if not (is_diagonal(a) and is_diagonal(b)) or a == b:
        return False
    return _square(a) == _square(b)


def _square(ln: Line) -> Point:
    (c1, r1), (c2, r2) = ln
    return (min(c1, c2), min(r1, r2))


def touches(a: Line, b: Line) -> bool:
    """Connected (C1): the lines share an end or cross."""
    return bool(set(a) & set(b)) or crosses(a, b)


def ends(lines: Iterable[Line]) -> frozenset[Point]:
    """Every end of these lines: a group's stars (C2)."""
    return frozenset(p for ln in lines for p in ln)


def groups(lines: Iterable[Line]) -> list[frozenset[Line]]:
    """The largest sets of connected lines (C1), in board order (C6)."""
    pending = set(lines)
    by_end: dict[Point, set[Line]] = {}
    by_square: dict[Point, set[Line]] = {}
    for ln in pending:
        for p in ln:
            by_end.setdefault(p, set()).add(ln)
        if is_diagonal(ln):
            by_square.setdefault(_square(ln), set()).add(ln)
    found: list[frozenset[Line]] = []
    while pending:
        start = pending.pop()
        group = {start}
        frontier = [start]
        while frontier:
            current = frontier.pop()
            linked = set().union(*(by_end[p] for p in current))
            if is_diagonal(current):
                linked |= by_square[_square(current)]
            for other in linked - group:
                group.add(other)
                pending.discard(other)
                frontier.append(other)
        found.append(frozenset(group))
    return sorted(found, key=board_order)


def lowest(points: Iterable[Point]) -> Point:
    """The lowest point (lowest row; in that row the leftmost) (C6)."""
    return min(points, key=lambda p: (p[1], p[0]))


def board_order(lines: Iterable[Line]) -> tuple[tuple[int, int], ...]:
    """Sort key of board order (C6, U7): the stars from the lowest up, row first."""
    return tuple(sorted((p[1], p[0]) for p in ends(lines)))


# -- shapes: moved and turned, never mirrored (L7, P2) ----------------------------------------


def _map(shape: Iterable[Line], f: _PointMap) -> Shape:
    return frozenset(line(f(a), f(b)) for a, b in shape)


class _PointMap:
    def __init__(self, dc: int, dr: int, quarter: int = 0, mirrored: bool = False) -> None:
        self.dc, self.dr, self.quarter, self.mirrored = dc, dr, quarter % 4, mirrored

    def __call__(self, p: Point) -> Point:
        c, r = p
        if self.mirrored:
            c = -c
        for _ in range(self.quarter):
            c, r = r, -c  # a quarter turn clockwise
        return (c + self.dc, r + self.dr)


def moved(shape: Iterable[Line], dc: int, dr: int) -> Shape:
    return _map(shape, _PointMap(dc, dr))


def turned(shape: Iterable[Line], quarter: int, about: Point = (0, 1)) -> Shape:
    """The shape turned ``quarter`` quarter turns clockwise about ``about``."""
    c0, r0 = about
    centred = _map(shape, _PointMap(-c0, -r0))
    return _map(centred, _PointMap(c0, r0, quarter))


def mirrored(shape: Iterable[Line]) -> Shape:
    """Left and right swapped (L7 forbids drawing this unless it is also a turn)."""
    return normal(_map(shape, _PointMap(0, 0, 0, mirrored=True)))


def normal(shape: Iterable[Line]) -> Shape:
    """The shape moved so its leftmost column is ``a`` and its lowest row is 1."""
    lines = frozenset(shape)
    if not lines:
        return lines
    stars = ends(lines)
    return moved(lines, -min(c for c, _ in stars), 1 - min(r for _, r in stars))


def turns(shape: Iterable[Line]) -> frozenset[Shape]:
    """Its distinct quarter turns, each normalised: what a card may be drawn as (L7)."""
    lines = frozenset(shape)
    return frozenset(normal(turned(lines, q)) for q in range(4))


def same_shape(a: Iterable[Line], b: Iterable[Line]) -> bool:
    """Equal up to moving and turning (never mirroring)."""
    return normal(a) in turns(b)


def mirror_only(drawn: Iterable[Line], card: Iterable[Line]) -> bool:
    """The drawing is the card's mirror image and not a turn of it (L8's "mirror image")."""
    return not same_shape(drawn, card) and same_shape(mirrored(drawn), card)


def copies(lines: Iterable[Line], shape: Iterable[Line]) -> frozenset[Shape]:
    """Every set of ``lines`` that equals ``shape`` moved and turned (P2, W2): each copy
    once, however many turns of a symmetrical shape find it."""
    pool = frozenset(lines)
    found: set[Shape] = set()
    for variant in turns(shape):
        anchor = min(variant)
        for ln in pool:
            dc, dr = ln[0][0] - anchor[0][0], ln[0][1] - anchor[0][1]
            if (ln[1][0] - anchor[1][0], ln[1][1] - anchor[1][1]) != (dc, dr):
                continue
            placed = moved(variant, dc, dr)
            if placed <= pool:
                found.add(placed)
    return frozenset(found)


def placements(shape: Iterable[Line]) -> frozenset[Shape]:
    """Every place the shape fits inside the outline, moved and turned (L7)."""
    found: set[Shape] = set()
    for variant in turns(shape):
        stars = ends(variant)
        width = max(c for c, _ in stars)
        height = max(r for _, r in stars) - 1
        for dc in range(0, len(COLUMNS) - width):
            for dr in range(0, TOP - height):
                placed = moved(variant, dc, dr)
                if ends(placed) <= OUTLINE:
                    found.add(placed)
    return frozenset(found)


def day_rows(round_: int) -> int:
    """How many rows from the horizon the sun has taken in this round (R4): none in pile 1,
    rows 1-2 in pile 2 (rounds 7-12), rows 1-4 in pile 3 (rounds 13-18)."""
    return 0 if round_ <= 6 else 2 if round_ <= 12 else 4


def is_day(p: Point, day: int) -> bool:
    return p[1] <= day
