"""What a star board scores (E2-E6, C3-C6, P3-P4, W11-W16), at the end of the game and, the
same way, as the provisional score after each closed round (E8).

Decisions (RULES.md is silent or loose here):

- Every power field of a ``ScoreSheet`` is in **points**, not in objects: ``galaxies`` is 2 per
  galaxy, ``auras`` 2 per aura, ``twinkling_stars`` 3 per twinkling star that qualifies, so
  ``power_bonus`` is their sum with ``crescent_moon`` and ``black_hole``.
- Crescent moon (W15): a constellation is aligned when one of its stars shares the moon's
  column or row, at any distance. The moon's own point is in its own row and column, but it
  never decides anything: the moon covers its point (L2c), so no line, and no constellation,
  ever ends there. More than one moon (never on a legal board, W6) would each score.
- Black hole (W16): the count reads ``is_unused_star(p, 0, black_holes_ban=False)`` for each
  of the hole's neighbours in the outline, so it is never more than 8. A second black hole
  (never on a legal board, W6) would score on its own, and each hole's point is covered, so
  it is not an unused star for the other.
- Twinkling star (W12) and planets (E3): a constellation is adjacent when one of its stars
  is a neighbour of the object's point (C2); the point itself is covered, so it is no star of
  any group.
- An aura (W14) and a galaxy (W11) score 2 each wherever they stand; whether it was placed
  legally is the play rules' question, not the scorer's.
- ``winners`` takes each seat's total and gives the seats with the highest total; equal highest
  share the win, and a solo game has none (E6).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from . import sky
from .board import Mark, StarBoard
from .sky import Line, Point, Shape

POINT_VALUE = 3  # P4: every point-bonus card, whatever its size
GALAXY = 2  # W11
TWINKLING_STAR = 3  # W12
AURA = 2  # W14
SIZES = range(3, 11)  # C5: 3..8, and 9..10 with a nova (C3, W13)


@dataclass(frozen=True)
class ScoreSheet:
    """One board's score, part by part (E2). Every number is points except ``sizes`` (the
    constellation sizes that score, C5), ``point_copies`` (P3) and ``point_value`` (P4)."""

    sizes: tuple[int, ...]
    constellations: int
    planets: int
    shooting_stars: int
    point_copies: int
    point_value: int
    point_bonus: int
    galaxies: int
    twinkling_stars: int
    auras: int
    crescent_moon: int
    black_hole: int
    power_bonus: int
    total: int


def score(board: StarBoard, point_lines: Shape, point_value: int = POINT_VALUE) -> ScoreSheet:
    """E2: constellations + planets + shooting stars + point bonus + power bonus."""
    constellations = board.constellations
    owner = _owner(constellations)
    sizes = tuple(size for size in SIZES if any(len(c) == size for c in constellations))
    planets = sum(len(_adjacent(p, owner)) for p in board.planets)
    shooting = sum(len(star.lines) for star in board.shooting_stars)
    point_copies = most_disjoint_copies(board.lines, point_lines)
    galaxies = GALAXY * len(_placed(board, Mark.GALAXY))
    twinkling = TWINKLING_STAR * sum(
        1 for p in _placed(board, Mark.TWINKLING_STAR) if len(_adjacent(p, owner)) == 2
    )
    auras = AURA * len(_placed(board, Mark.AURA))
    moon = sum(_aligned(p, constellations) for p in _placed(board, Mark.CRESCENT_MOON))
    black_hole = sum(_unused_around(board, p) for p in _placed(board, Mark.BLACK_HOLE))
    power = galaxies + twinkling + auras + moon + black_hole
    parts = sum(sizes) + planets + shooting + point_copies * point_value + power
    return ScoreSheet(
        sizes=sizes,
        constellations=sum(sizes),
        planets=planets,
        shooting_stars=shooting,
        point_copies=point_copies,
        point_value=point_value,
        point_bonus=point_copies * point_value,
        galaxies=galaxies,
        twinkling_stars=twinkling,
        auras=auras,
        crescent_moon=moon,
        black_hole=black_hole,
        power_bonus=power,
        total=parts,
    )


def scoring_constellations(board: StarBoard) -> dict[int, frozenset[Line]]:
    """C6: for each size that scores, the constellation the end screen ticks: the first of
    that size in board order (its lowest star in the lowest row, then leftmost)."""
    ticked: dict[int, frozenset[Line]] = {}
    for constellation in board.constellations:  # already in board order
        ticked.setdefault(len(constellation), constellation)
    return dict(sorted(ticked.items()))


def most_disjoint_copies(lines: Iterable[Line], shape: Iterable[Line]) -> int:
    """P3: the largest number of copies of ``shape`` among ``lines`` (P2) that share no line
    with each other, the exact maximum over every choice (never a scan in some order)."""
    found = sky.copies(lines, shape)
    if not found:
        return 0
    index: dict[Line, int] = {}
    masks = []
    for copy in sorted(found, key=sorted):
        mask = 0
        for ln in copy:
            mask |= 1 << index.setdefault(ln, len(index))
        masks.append(mask)
    return _largest_packing(masks)


def winners(totals: Mapping[int, int] | Sequence[int]) -> tuple[int, ...]:
    """E6: the seats with the highest total; equal highest share the win. A solo game has no
    winner. ``totals`` maps seat to total, or lists the totals from seat 1 on."""
    by_seat = dict(totals) if isinstance(totals, Mapping) else dict(enumerate(totals, start=1))
    if len(by_seat) < 2:
        return ()
    best = max(by_seat.values())
    return tuple(sorted(seat for seat, total in by_seat.items() if total == best))


# -- the parts --------------------------------------------------------------------------------


def _owner(constellations: Iterable[frozenset[Line]]) -> dict[Point, int]:
    """Each constellation's stars, mapped to its index (two groups never share a star)."""
    return {p: i for i, c in enumerate(constellations) for ln in c for p in ln}


def _adjacent(p: Point, owner: Mapping[Point, int]) -> set[int]:
    """The constellations with a star among the point's neighbours (C2)."""
    return {owner[q] for q in sky.neighbours(p) if q in owner}


def _placed(board: StarBoard, mark: Mark) -> list[Point]:
    """Each object of this kind once, by its point (a galaxy by its left point)."""
    return [placed.point for placed in board.objects if placed.mark is mark]


def _aligned(moon: Point, constellations: Iterable[frozenset[Line]]) -> int:
    """W15: the constellations with a star in the moon's column or row."""
    return sum(
        1 for c in constellations if any(p[0] == moon[0] or p[1] == moon[1] for p in sky.ends(c))
    )


def _unused_around(board: StarBoard, hole: Point) -> int:
    """W16: the hole's neighbours that are still unused stars, day rows and the hole's own
    ban left out; at most 8."""
    return sum(1 for q in sky.neighbours(hole) if board.is_unused_star(q, 0, black_holes_ban=False))


def _largest_packing(masks: Sequence[int]) -> int:
    """The most copies (line bitmasks) that pairwise share no line: a maximum independent set
    of the copies' conflict graph, exact, by branch and bound. Each connected part is solved
    on its own; a copy with at most one live rival is taken at once (always safe); otherwise
    the search branches on the copy with the most rivals (take it, or not) and gives up a
    branch that cannot beat the best found. The bound: the copies holding one line pairwise
    conflict, so at most one of them counts; cover the live copies by such lines, greedily."""
    n = len(masks)
    conflicts = [sum(1 << j for j in range(n) if j != i and masks[i] & masks[j]) for i in range(n)]
    holders = [sum(1 << i for i in range(n) if masks[i] >> bit & 1) for bit in _bits(_union(masks))]

    def bound(alive: int) -> int:
        count = 0
        while alive:
            alive &= ~max((h & alive for h in holders), key=int.bit_count)
            count += 1
        return count

    def part(alive: int) -> int:
        """The connected part of ``alive`` around its lowest copy."""
        seen = frontier = alive & -alive
        while frontier:
            reach = 0
            for i in _bits(frontier):
                reach |= conflicts[i]
            frontier = reach & alive & ~seen
            seen |= frontier
        return seen

    def solve(component: int) -> int:
        best = 0

        def search(alive: int, taken: int) -> None:
            nonlocal best
            while alive:
                live = _bits(alive)
                easy = next((i for i in live if (conflicts[i] & alive).bit_count() <= 1), None)
                if easy is None:
                    break
                taken += 1
                alive &= ~(1 << easy) & ~conflicts[easy]
            if not alive:
                best = max(best, taken)
                return
            if taken + bound(alive) <= best:
                return
            pivot = max(live, key=lambda i: (conflicts[i] & alive).bit_count())
            without = alive & ~(1 << pivot)
            search(without & ~conflicts[pivot], taken + 1)
            search(without, taken)

        search(component, 0)
        return best

    total, rest = 0, (1 << n) - 1
    while rest:
        component = part(rest)
        total += solve(component)
        rest &= ~component
    return total


def _union(masks: Iterable[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
