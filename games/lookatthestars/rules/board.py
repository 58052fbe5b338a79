"""A seat's star board as a value (G3-G7, W7, L2): its design and everything drawn on it.

Nothing here decides whether a drawing is allowed or what a board scores; it answers the
questions both of those ask: is this point a star, is it used, which lines and groups are
there, where are the planets and objects. Every answer depends on this board alone (G7).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from . import sky
from .sky import Line, Point


class Power(StrEnum):
    """The nine power cards (W1, D5). The first five are Basic, the rest Experienced."""

    PLANET = "planet"
    LINE = "line"
    NEW_STARS = "new-stars"
    GALAXY = "galaxy"
    TWINKLING_STAR = "twinkling-star"
    NOVA = "nova"
    AURA = "aura"
    CRESCENT_MOON = "crescent-moon"
    BLACK_HOLE = "black-hole"

    @property
    def basic(self) -> bool:
        return self in BASIC


BASIC = (Power.PLANET, Power.LINE, Power.NEW_STARS, Power.GALAXY, Power.TWINKLING_STAR)
EXPERIENCED = (Power.NOVA, Power.AURA, Power.CRESCENT_MOON, Power.BLACK_HOLE)
ONCE_PER_GAME = (Power.CRESCENT_MOON, Power.BLACK_HOLE)  # W6


class Mark(StrEnum):
    """An object a power draws on a point (the page's *Object*)."""

    PLANET = "planet"
    GALAXY = "galaxy"  # covers its point and the point to its right (W11)
    TWINKLING_STAR = "twinkling-star"
    NOVA = "nova"
    AURA = "aura"
    CRESCENT_MOON = "crescent-moon"
    BLACK_HOLE = "black-hole"


# Objects that cover their point: no line may end there and it is a used star (L2c, W7).
COVERING = frozenset(
    {Mark.PLANET, Mark.GALAXY, Mark.TWINKLING_STAR, Mark.CRESCENT_MOON, Mark.BLACK_HOLE}
)


@dataclass(frozen=True)
class Design:
    """One of the eight board designs (D2), or a test board (G6)."""

    id: str
    name: str
    landscape: frozenset[Point] = frozenset()
    blanks: frozenset[Point] = frozenset()
    planets: frozenset[Point] = frozenset()
    printed_lines: frozenset[Line] = frozenset()


TEST_DESIGN = Design(id="test", name="Test board")  # G6: every point a star, nothing printed


@dataclass(frozen=True)
class Placed:
    """An object on a point. A galaxy's point is its left one."""

    mark: Mark
    point: Point

    @property
    def points(self) -> tuple[Point, ...]:
        if self.mark is Mark.GALAXY:
            return (self.point, (self.point[0] + 1, self.point[1]))
        return (self.point,)


@dataclass(frozen=True)
class ShootingStar:
    """A straight run of 1-3 diagonal lines, one way, with its head at one end (SS1, SS3)."""

    lines: tuple[Line, ...]
    head: Point

    @property
    def stars(self) -> frozenset[Point]:
        return sky.ends(self.lines)


@dataclass(frozen=True)
class StarBoard:
    """A seat's board: its design and what has been drawn on it, as of some moment."""

    design: Design
    drawn: frozenset[Line] = frozenset()  # lines drawn by the seat: shapes and the Line power
    shooting_stars: tuple[ShootingStar, ...] = ()
    objects: tuple[Placed, ...] = ()
    new_stars: frozenset[Point] = frozenset()  # blanks turned into stars (W10)
    claimed: frozenset[Line] = frozenset()  # lines of used or declined power copies (W2)
    powers_used: frozenset[Power] = field(default=frozenset())  # uses, for W6

    # -- lines and groups ------------------------------------------------------------------

    @cached_property
    def lines(self) -> frozenset[Line]:
        """Every line for the rules: printed and drawn (G4). Not shooting stars (SS4)."""
        return self.design.printed_lines | self.drawn

    @cached_property
    def shooting_lines(self) -> frozenset[Line]:
        return frozenset(ln for star in self.shooting_stars for ln in star.lines)

    @cached_property
    def groups(self) -> tuple[frozenset[Line], ...]:
        """The groups (C1), in board order (C6)."""
        return tuple(sky.groups(self.lines))

    def group_of(self, p: Point) -> frozenset[Line] | None:
        """The group with a star at ``p``, if any (two groups never share a star)."""
        return next((g for g in self.groups if p in sky.ends(g)), None)

    def has_nova(self, group: frozenset[Line]) -> bool:
        return bool(self.points_with(Mark.NOVA) & sky.ends(group))

    def has_aura(self, group: frozenset[Line]) -> bool:
        return bool(self.points_with(Mark.AURA) & sky.ends(group))

    def is_constellation(self, group: frozenset[Line]) -> bool:
        """3-8 lines, or 3-10 with a nova on one of its stars (C3)."""
        most = 10 if self.has_nova(group) else 8
        return 3 <= len(group) <= most

    @cached_property
    def constellations(self) -> tuple[frozenset[Line], ...]:
        return tuple(g for g in self.groups if self.is_constellation(g))

    # -- points ----------------------------------------------------------------------------

    def is_star(self, p: Point) -> bool:
        """In the outline, not landscape, and not a blank unless a new star is there (G3)."""
        if p not in sky.OUTLINE or p in self.design.landscape:
            return False
        return p not in self.design.blanks or p in self.new_stars

    def is_blank(self, p: Point) -> bool:
        """A blank point still without a star (W10's targets, by row aside)."""
        return p in self.design.blanks and p not in self.new_stars

    @cached_property
    def _marks(self) -> dict[Point, Mark]:
        return {p: placed.mark for placed in self.objects for p in placed.points}

    def mark_at(self, p: Point) -> Mark | None:
        return self._marks.get(p)

    def points_with(self, mark: Mark) -> frozenset[Point]:
        return frozenset(p for p, m in self._marks.items() if m is mark)

    @cached_property
    def planets(self) -> frozenset[Point]:
        """Printed and drawn planets (G5, W8)."""
        return self.design.planets | self.points_with(Mark.PLANET)

    @cached_property
    def covered(self) -> frozenset[Point]:
        """Points no line may end on: planets, galaxies, twinkling stars, moons, black holes."""
        marked = frozenset(p for p, m in self._marks.items() if m in COVERING)
        return marked | self.design.planets

    @cached_property
    def near_black_hole(self) -> frozenset[Point]:
        """The 8 neighbours of every black hole: not usable (W16)."""
        return frozenset(q for p in self.points_with(Mark.BLACK_HOLE) for q in sky.neighbours(p))

    @cached_property
    def line_ends(self) -> frozenset[Point]:
        return sky.ends(self.lines)

    @cached_property
    def shooting_star_points(self) -> frozenset[Point]:
        return frozenset(p for star in self.shooting_stars for p in star.stars)

    def is_unused_star(self, p: Point, day: int, *, black_holes_ban: bool = True) -> bool:
        """W7: a star in a night row, no end of a line or shooting-star line, holding no
        planet or covering object, and not beside a black hole. W16's end count passes
        ``day=0`` and ``black_holes_ban=False``."""
        if not self.is_star(p) or sky.is_day(p, day):
            return False
        if p in self.line_ends or p in self.shooting_star_points or p in self.covered:
            return False
        return not (black_holes_ban and p in self.near_black_hole)

    def changed(self, **changes: Any) -> StarBoard:
        """A copy with some fields replaced. Always change a board this way, never with the
        kit's ``with_changes``: that copies the cached answers above, which would go stale."""
        return replace(self, **changes)
