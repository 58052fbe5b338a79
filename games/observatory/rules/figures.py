"""Constellations on a Star Map (C1-C8, C10, M4): a card's pattern placed by turning and moving,
never mirroring, and whether two placed constellations touch, in integer geometry.

A pattern (C1) is a card's stars as 0-based ``(row, col)`` offsets (row counted down, like the
map's rows, M1) and its lines as pairs of star indexes. A *figure* is a constellation as it
lies on one seat's map: its stars as spaces ``(r, c)`` and its lines as pairs of spaces (M4: a
star is the point at its space's centre, a line the segment between two such points).

- ``place`` finds the rotation and move that put a pattern exactly on a set of spaces (C2.3)
  and returns the figure with the card's lines carried by it (C6); ``flipped`` says that only
  a mirror image fits (C4).
- ``touches`` is C5 exactly, with orientation tests on integers: no floating point.
- ``claim_refused`` checks a claim in the order C2 decides and returns the figure or a reason
  a person can read; ``placements_on`` and ``claimable`` list every placement among a set of
  stars, for the options call (U9) and the robot.
- ``unused`` is C7/E4: the stars in no figure, a star lying on a line included.

Claims look at one map only (C10): every function here takes one seat's stars and figures.
C2.1 (the card is one of the seat's goals) is the sheet's check, not this module's.

Decisions (RULES.md leaves them open):

- A figure is stored in a canonical form: its stars sorted, each line as its two ends sorted,
  the lines sorted. So the same constellation is the same value whichever of the rotations
  that fix a symmetric pattern found it (X3.6 makes the lines the same set either way).
- A rotation turns offsets a quarter clockwise, ``(row, col) -> (col, -row)``, then moves them
  back to row 0 and col 0; a mirror swaps left and right, ``(row, col) -> (row, -col)``. Which
  way counts as "clockwise" does not matter: all four turns are tried.
- The refusal of rule C names the first contact found, against the earlier constellations in
  the order they were completed: a star of the claim on a line of the other, then a star of
  the other on a line of the claim, then two lines meeting. A shared star is rule A (C3),
  checked against every earlier constellation before rule C is checked against any (C2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from .deck import CARDS
from .sheet_data import Space

Offset = tuple[int, int]
Segment = tuple[Space, Space]

FLIPPED = "Flipped: a constellation may be turned but never mirrored."


class Pattern(Protocol):
    """What placing needs of a card (``deck.Card`` is one): its id, name, stars and lines."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def stars(self) -> tuple[Offset, ...]: ...

    @property
    def lines(self) -> tuple[tuple[int, int], ...]: ...


@dataclass(frozen=True)
class Figure:
    """A completed (or proposed) constellation on one map: the card's id, its stars and its
    lines (the card's lines carried onto the map, C6), in canonical order."""

    card: str
    stars: tuple[Space, ...]
    lines: tuple[Segment, ...]


# -- turning and moving a pattern (C2.3, C4) --------------------------------------------------


@dataclass(frozen=True)
class _Turn:
    """One rotation of a pattern, moved back to offset row 0 and col 0: ``offsets[i]`` is
    where star ``i`` went, ``shape`` the same offsets as a set."""

    offsets: tuple[Offset, ...]
    shape: frozenset[Offset]
    steps: tuple[Offset, ...]  # from the first star to each of the others


def _normal(offsets: Iterable[Offset]) -> tuple[Offset, ...]:
    points = tuple(offsets)
    top = min(r for r, _ in points)
    left = min(c for _, c in points)
    return tuple((r - top, c - left) for r, c in points)


def _quarter(offsets: Iterable[Offset]) -> tuple[Offset, ...]:
    return _normal((c, -r) for r, c in offsets)


@cache
def _turns(stars: tuple[Offset, ...]) -> tuple[_Turn, ...]:
    """The pattern's distinct rotations (0, 90, 180, 270 degrees; a symmetric pattern has
    fewer), in that order."""
    found: list[_Turn] = []
    offsets = _normal(stars)
    for _ in range(4):
        shape = frozenset(offsets)
        if all(turn.shape != shape for turn in found):
            (r0, c0), rest = offsets[0], offsets[1:]
            found.append(_Turn(offsets, shape, tuple((r - r0, c - c0) for r, c in rest)))
        offsets = _quarter(offsets)
    return tuple(found)


@cache
def _mirror_shapes(stars: tuple[Offset, ...]) -> frozenset[frozenset[Offset]]:
    """The shapes of the pattern's mirror image in its four rotations (C4)."""
    mirrored = _normal((r, -c) for r, c in stars)
    return frozenset(turn.shape for turn in _turns(mirrored))


def _at_origin(spaces: frozenset[Space]) -> tuple[frozenset[Offset], Space]:
    """The spaces moved so their top row and left column are 0, and that move's size."""
    top = min(r for r, _ in spaces)
    left = min(c for _, c in spaces)
    return frozenset((r - top, c - left) for r, c in spaces), (top, left)


def _segment(a: Space, b: Space) -> Segment:
    return (a, b) if a <= b else (b, a)


def _figure(card: Pattern, turn: _Turn, move: Space) -> Figure:
    dr, dc = move
    at = tuple((r + dr, c + dc) for r, c in turn.offsets)
    lines = tuple(sorted(_segment(at[i], at[j]) for i, j in card.lines))
    return Figure(card.id, tuple(sorted(at)), lines)


def place(card: Pattern, spaces: frozenset[Space]) -> Figure | None:
    """C2.3, C6: the figure if some rotation of the pattern, moved without turning, puts its
    stars exactly on ``spaces`` (none missing, none extra), with the card's lines carried by
    that rotation; None if no rotation fits (a mirror image only included, C4)."""
    if not spaces or len(spaces) != len(card.stars):
        return None
    shape, move = _at_origin(spaces)
    for turn in _turns(card.stars):
        if turn.shape == shape:
            return _figure(card, turn, move)
    return None


def flipped(card: Pattern, spaces: frozenset[Space]) -> bool:
    """C4: only a mirror image of the pattern fits ``spaces``, no rotation of it. False for
    a pattern whose mirror image is one of its rotations: that one is simply placed."""
    if not spaces or len(spaces) != len(card.stars) or place(card, spaces) is not None:
        return False
    shape, _ = _at_origin(spaces)
    return shape in _mirror_shapes(card.stars)


def placements_on(card: Pattern, stars: frozenset[Space]) -> list[Figure]:
    """Every placement of the card (C2.3) whose stars are all among ``stars``, each once, in
    the order of their stars. Each rotation is anchored on every star at once, and the
    anchors whose other stars are missing are dropped one star of the pattern at a time."""
    found: list[Figure] = []
    for turn in _turns(card.stars):
        anchor_r, anchor_c = turn.offsets[0]
        anchors: Iterable[Space] = stars
        for dr, dc in turn.steps:
            anchors = [(r, c) for r, c in anchors if (r + dr, c + dc) in stars]
        found.extend(_figure(card, turn, (r - anchor_r, c - anchor_c)) for r, c in anchors)
    return sorted(found, key=lambda figure: figure.stars)


# -- integer geometry (M4, C5) ----------------------------------------------------------------


def _orientation(o: Space, a: Space, b: Space) -> int:
    """The sign of the cross product of ``a - o`` and ``b - o``: 0 when the three points lie
    on one straight line, else which side of ``o``->``a`` the point ``b`` is on."""
    cross = (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    return (cross > 0) - (cross < 0)


def _within_box(p: Space, line: Segment) -> bool:
    (r1, c1), (r2, c2) = line
    return min(r1, r2) <= p[0] <= max(r1, r2) and min(c1, c2) <= p[1] <= max(c1, c2)


def on_line(p: Space, line: Segment) -> bool:
    """C5.1: the point lies on the segment, its ends included (collinear, within its box)."""
    return _orientation(line[0], line[1], p) == 0 and _within_box(p, line)


def lines_meet(a: Segment, b: Segment) -> bool:
    """C5.2: the segments have a point in common: they cross (between grid points too), one
    ends on the other, they share an end, or they overlap along a common stretch."""
    (p, q), (r, s) = a, b
    o1, o2 = _orientation(p, q, r), _orientation(p, q, s)
    o3, o4 = _orientation(r, s, p), _orientation(r, s, q)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and _within_box(r, a))
        or (o2 == 0 and _within_box(s, a))
        or (o3 == 0 and _within_box(p, b))
        or (o4 == 0 and _within_box(q, b))
    )


def _box(figure: Figure) -> tuple[int, int, int, int]:
    rows = [r for r, _ in figure.stars]
    cols = [c for _, c in figure.stars]
    return min(rows), max(rows), min(cols), max(cols)


def _boxes_apart(a: Figure, b: Figure) -> bool:
    """Their bounding boxes share no point, so nothing of them can touch (every line lies in
    the box of its figure's stars)."""
    top_a, bottom_a, left_a, right_a = _box(a)
    top_b, bottom_b, left_b, right_b = _box(b)
    return bottom_a < top_b or bottom_b < top_a or right_a < left_b or right_b < left_a


def _space(p: Space) -> str:
    return f"({p[0]}, {p[1]})"


def _line(line: Segment) -> str:
    (r1, c1), (r2, c2) = line
    return f"({r1},{c1})-({r2},{c2})"


def _contact(new: Figure, old: Figure, old_name: str) -> str | None:
    """How ``new`` touches ``old`` (C5), said from ``new``'s side, or None if it does not."""
    if _boxes_apart(new, old):
        return None
    shared = sorted(set(new.stars) & set(old.stars))
    if shared:
        return f"its star {_space(shared[0])} is a star of {old_name}"
    for p in new.stars:
        for line in old.lines:
            if on_line(p, line):
                return f"its star {_space(p)} lies on {_line(line)}"
    for p in old.stars:
        for line in new.lines:
            if on_line(p, line):
                return f"its line {_line(line)} passes through {old_name}'s star {_space(p)}"
    for line in new.lines:
        for other in old.lines:
            if lines_meet(line, other):
                return f"its line {_line(line)} crosses {_line(other)}"
    return None


def touches(a: Figure, b: Figure) -> bool:
    """C5: the two figures have a point in common: a shared star, a star of one on a line of
    the other, or two lines that meet anywhere."""
    return _contact(a, b, b.card) is not None


# -- claims (C2-C5) ---------------------------------------------------------------------------


def card_name(card_id: str) -> str:
    """The card's name for a reason (its id if the deck does not hold it)."""
    card = CARDS.get(card_id)
    return card.name if card is not None else card_id


def claim_refused(
    card: Pattern,
    spaces: frozenset[Space],
    stars: frozenset[Space],
    completed: Sequence[Figure],
) -> Figure | str:
    """C2.2-C5 in the order C2 decides: the figure of an accepted claim of ``card`` on
    ``spaces``, or the first reason it is refused. ``stars`` are the seat's stars at this
    point of the submission, ``completed`` its earlier constellations in the order made."""
    if len(spaces) != len(card.stars):
        return f"{card.name} has {len(card.stars)} stars, not {len(spaces)}."
    missing = sorted(spaces - stars)
    if missing:
        return f"{_space(missing[0])} holds no star."
    figure = place(card, spaces)
    if figure is None:
        if flipped(card, spaces):
            return FLIPPED
        return f"These stars are not {card.name}: its pattern, turned and moved, must fit exactly."
    for old in completed:
        shared = sorted(spaces & set(old.stars))
        if shared:
            return f"{_space(shared[0])} is already a star of {card_name(old.card)}."
    for old in completed:
        name = card_name(old.card)
        contact = _contact(figure, old, name)
        if contact is not None:
            return f"It would touch {name}: {contact}."
    return figure


def claimable(card: Pattern, stars: frozenset[Space], completed: Sequence[Figure]) -> list[Figure]:
    """Every placement of the card that a claim would have accepted (C2.2-C5): among the
    seat's stars, sharing none with its constellations and touching none of them."""
    used = frozenset(p for figure in completed for p in figure.stars)
    return [
        figure
        for figure in placements_on(card, stars - used)
        if not any(touches(figure, old) for old in completed)
    ]


def unused(stars: Iterable[Space], figures: Iterable[Figure]) -> frozenset[Space]:
    """C7, E4: the stars that are not a star of any figure (a star lying on a line included)."""
    used = frozenset(p for figure in figures for p in figure.stars)
    return frozenset(stars) - used
