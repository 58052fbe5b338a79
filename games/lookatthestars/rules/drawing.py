"""Is a seat's submission legal, and what does its board become (L1-L9, SS1-SS5, W2-W17,
R3, R4, R7)?

``apply(board, drawing, turn)`` takes the seat's board as it stood when the round began and
the whole submission (R6): the card's shape, a shooting star or a pass, then the power
resolutions in order (W3, W4: each use takes effect at once, later checks see it). It returns
the new board, or a ``Refusal`` whose reason a person can read ("Mirror image: mirroring is not
allowed.", "Line e5-f6 touches a shooting star.", "c2 is in a day row.", "A power copy is
still open: use it or decline it."). All or nothing: a refused submission changes nothing.

``options`` and ``targets`` list what is legal, for the screens' hints and the robot: every
legal placement of the card's shape, every legal shooting star, every legal target of a power.
They run the very checks ``apply`` runs.

Decisions (RULES.md leaves them open):

- A refusal names the first problem found: the shape before its lines, a line's ends in
  order, a resolution before the next one.
- A shooting star's lines are stored in run order from its leftmost star, whatever order
  the seat tapped them in; its head stays where the seat put it (SS3).
- A nova or an aura needs a star that holds no object yet: a star holds one object.
- New stars (W10) with no blank point left in a night row has no legal target: the copy
  must be declined (W5).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations

from games.kit import Problem, Refusal

from . import sky
from .board import COVERING, ONCE_PER_GAME, Mark, Placed, Power, ShootingStar, StarBoard
from .model import Drawing, Resolution, Turn
from .sky import Line, Point, Shape

OPEN_COPY = "A power copy is still open: use it or decline it."
MIRROR = "Mirror image: mirroring is not allowed."
NOT_THIS_SHAPE = "Not this card's shape: draw it moved and turned, exactly as the card shows it."
MOST_SHOOTING_LINES = 3  # SS1

MARK_WORDS = {
    Mark.PLANET: "planet",
    Mark.GALAXY: "galaxy",
    Mark.TWINKLING_STAR: "twinkling star",
    Mark.NOVA: "nova",
    Mark.AURA: "luminous aura",
    Mark.CRESCENT_MOON: "crescent moon",
    Mark.BLACK_HOLE: "black hole",
}
POWER_WORDS = {
    Power.PLANET: "Planet",
    Power.LINE: "Line",
    Power.NEW_STARS: "New stars",
    Power.GALAXY: "Galaxy",
    Power.TWINKLING_STAR: "Twinkling star",
    Power.NOVA: "Nova",
    Power.AURA: "Luminous aura",
    Power.CRESCENT_MOON: "Crescent moon",
    Power.BLACK_HOLE: "Black hole",
}
POWER_MARK = {
    Power.PLANET: Mark.PLANET,
    Power.TWINKLING_STAR: Mark.TWINKLING_STAR,
    Power.CRESCENT_MOON: Mark.CRESCENT_MOON,
    Power.BLACK_HOLE: Mark.BLACK_HOLE,
    Power.NOVA: Mark.NOVA,
    Power.AURA: Mark.AURA,
}


def name(p: Point) -> str:
    """A point's name, safe for any pair of numbers a command may carry."""
    if 0 <= p[0] < len(sky.COLUMNS) and p[1] in sky.ROWS:
        return sky.point_name(p)
    return f"({p[0]}, {p[1]})"


def line_text(ln: Line) -> str:
    return f"{name(ln[0])}-{name(ln[1])}"


# -- points and lines (L1-L6, W7) -------------------------------------------------------------


def star_refused(board: StarBoard, p: Point, day: int) -> str | None:
    """Why nothing new may be drawn at ``p`` at all: no star there, or a day row (G3, R4)."""
    if p not in sky.OUTLINE:
        return f"{name(p)} is outside the sky."
    if p in board.design.landscape:
        return f"{name(p)} is landscape, not a star."
    if board.is_blank(p):
        return f"{name(p)} is a blank point: there is no star there."
    if sky.is_day(p, day):
        return f"{name(p)} is in a day row."
    return None


def _covered_refused(board: StarBoard, p: Point) -> str | None:
    if p in board.design.planets:
        return f"{name(p)} holds a planet."
    mark = board.mark_at(p)
    if mark is not None and mark in COVERING:
        return f"{name(p)} holds a {MARK_WORDS[mark]}."
    if p in board.near_black_hole:
        return f"{name(p)} is beside a black hole."
    return None


def point_refused(board: StarBoard, p: Point, day: int) -> str | None:
    """L2: why a new line may not end at ``p`` (None: it is usable)."""
    refusal = star_refused(board, p, day) or _covered_refused(board, p)
    if refusal is None and p in board.shooting_star_points:
        return f"{name(p)} is a star of a shooting star."
    return refusal


def unused_refused(board: StarBoard, p: Point, day: int) -> str | None:
    """W7: why ``p`` is not an unused star (None: it is one, and an object may go there)."""
    refusal = star_refused(board, p, day)
    if refusal is None and p in board.line_ends:
        return f"{name(p)} ends a line: it is not an unused star."
    if refusal is None and p in board.shooting_star_points:
        return f"{name(p)} is a star of a shooting star."
    return refusal or _covered_refused(board, p)


def _canonical(ln: Line) -> Line | str:
    """L1: the line between two neighbouring points, or why it is no line."""
    a, b = ln
    if not sky.are_neighbours(a, b):
        return f"{name(a)}-{name(b)} is not a line: its ends are not neighbours."
    return sky.line(a, b)


def line_refused(board: StarBoard, ln: Line, day: int) -> str | None:
    """L1-L6 (and L9 for the Line power): why this new line may not be drawn."""
    checked = _canonical(ln)
    if isinstance(checked, str):
        return checked
    if _touches_shooting_star(board, checked):
        return f"Line {line_text(checked)} touches a shooting star."  # L5
    for p in checked:
        refusal = point_refused(board, p, day)
        if refusal is not None:
            return refusal  # L2
    if checked in board.lines:
        return f"Line {line_text(checked)} is already drawn."  # L3
    if any(sky.touches(checked, other) for other in _aura_lines(board)):
        return f"Line {line_text(checked)} touches a group with a luminous aura."  # L6
    return None


def _touches_shooting_star(board: StarBoard, ln: Line) -> bool:
    if set(ln) & board.shooting_star_points:
        return True
    return any(sky.crosses(ln, other) for other in board.shooting_lines)


def _aura_lines(board: StarBoard) -> frozenset[Line]:
    auras = board.points_with(Mark.AURA)
    if not auras:
        return frozenset()
    return frozenset(ln for g in board.groups if sky.ends(g) & auras for ln in g)


# -- shapes (L7, L8) and shooting stars (SS1-SS3) -------------------------------------------


def shape_refused(lines: frozenset[Line], card: Shape) -> str | None:
    """L7, L8: the drawing is the card's lines moved and turned, never mirrored."""
    if len(lines) != len(card):
        return f"A shape card is drawn whole: {len(card)} lines, not {len(lines)}."
    if sky.same_shape(lines, card):
        return None
    return MIRROR if sky.mirror_only(lines, card) else NOT_THIS_SHAPE


def _run(lines: tuple[Line, ...]) -> tuple[Point, ...] | None:
    """SS1: the stars of a straight run of diagonal lines going one way, from the left, or
    None when the lines are no such run."""
    stars = sorted(sky.ends(lines))
    if len(stars) != len(lines) + 1 or len(stars) < 2:
        return None
    step = (stars[1][0] - stars[0][0], stars[1][1] - stars[0][1])
    if step not in ((1, 1), (1, -1)):
        return None
    for a, b in zip(stars, stars[1:], strict=False):
        if (b[0] - a[0], b[1] - a[1]) != step:
            return None
    run_lines = {sky.line(a, b) for a, b in zip(stars, stars[1:], strict=False)}
    return tuple(stars) if run_lines == set(lines) else None


def shooting_star_refused(board: StarBoard, star: ShootingStar, day: int) -> str | None:
    """SS1-SS3: a straight diagonal run of 1-3 lines, its head at an end, on usable stars,
    touching nothing."""
    if not 1 <= len(star.lines) <= MOST_SHOOTING_LINES:
        return "A shooting star has 1 to 3 lines."
    checked = [_canonical(ln) for ln in star.lines]
    lines = tuple(ln for ln in checked if not isinstance(ln, str))
    if len(lines) != len(checked) or len(set(lines)) != len(lines):
        return "A shooting star is a straight run of 1 to 3 different diagonal lines."
    run = _run(lines)
    if run is None:
        return "A shooting star is one straight run of diagonal lines, all going the same way."
    if star.head not in (run[0], run[-1]):
        return "A shooting star's head is at one of its two ends."  # SS3
    for p in run:
        refusal = point_refused(board, p, day)
        if refusal is not None:
            return refusal
        if p in board.line_ends:
            return f"{name(p)} ends a line: a shooting star touches nothing."
    for ln in lines:
        for other in board.lines | board.shooting_lines:
            if sky.crosses(ln, other):
                return f"The shooting star crosses line {line_text(other)}: it touches nothing."
    return None


def _stored(star: ShootingStar) -> ShootingStar:
    run = _run(tuple(sky.line(*ln) for ln in star.lines))
    assert run is not None, "checked before"
    lines = tuple(sky.line(a, b) for a, b in zip(run, run[1:], strict=False))
    return ShootingStar(lines, star.head)


# -- power copies (W2-W6) --------------------------------------------------------------------


def open_copies(board: StarBoard, turn: Turn) -> frozenset[Shape]:
    """W2, W6: the copies of the power card's shape none of whose lines is claimed; none at
    all once a once-per-game power has been used."""
    if turn.power in ONCE_PER_GAME and turn.power in board.powers_used:
        return frozenset()
    found = sky.copies(board.lines, turn.power_lines)
    return frozenset(copy for copy in found if not copy & board.claimed)


def in_board_order(copies: Iterable[Shape]) -> tuple[Shape, ...]:
    """U7: copies by their lowest star, then the next, in board order (C6)."""
    return tuple(sorted(copies, key=sky.board_order))


def resolve(board: StarBoard, resolution: Resolution, turn: Turn) -> StarBoard | str:
    """W3-W17: one resolution, on the board as it stands at that point of the submission."""
    checked = [_canonical(ln) for ln in resolution.copy]
    copy = frozenset(ln for ln in checked if not isinstance(ln, str))
    power = POWER_WORDS[turn.power]
    if len(copy) != len(checked) or copy not in open_copies(board, turn):
        if turn.power in ONCE_PER_GAME and turn.power in board.powers_used:
            return f"The {power} is used once per game: no copy gives it again."  # W6
        return f"That {power} copy is not open: it is not on the board, or a line is claimed."
    claimed = board.changed(claimed=board.claimed | copy)
    if resolution.declined:
        return claimed  # W5
    used = use_power(claimed, turn.power, copy, resolution.targets, turn.day)
    if isinstance(used, str):
        return used
    return used.changed(powers_used=used.powers_used | {turn.power})


def use_power(
    board: StarBoard, power: Power, copy: Shape, targets: tuple[Point, ...], day: int
) -> StarBoard | str:
    """W8-W16: the power used on ``targets``; the board after it, or why not."""
    if power is Power.LINE:
        return _line(board, targets, day)
    if power is Power.NEW_STARS:
        return _new_stars(board, targets, day)
    if len(targets) != 1:
        return f"The {POWER_WORDS[power]} power takes one point."
    (p,) = targets
    if power is Power.GALAXY:
        return _galaxy(board, copy, p, day)
    if power in (Power.NOVA, Power.AURA):
        return _on_constellation(board, power, p)
    refusal = unused_refused(board, p, day)  # W8, W12, W15, W16
    if refusal is not None:
        return refusal
    return board.changed(objects=(*board.objects, Placed(POWER_MARK[power], p)))


def _line(board: StarBoard, targets: tuple[Point, ...], day: int) -> StarBoard | str:
    """W9: one line between two neighbouring stars, obeying L1-L6 (L9)."""
    if len(targets) != 2:
        return "The Line power takes two neighbouring stars."
    ln = (targets[0], targets[1])
    refusal = line_refused(board, ln, day)
    if refusal is not None:
        return refusal
    return board.changed(drawn=board.drawn | {sky.line(*ln)})


def blanks_left(board: StarBoard, day: int) -> tuple[Point, ...]:
    """W10: the blank points still without a star, in night rows."""
    found = (p for p in board.design.blanks if board.is_blank(p) and not sky.is_day(p, day))
    return tuple(sorted(found))


def _new_stars(board: StarBoard, targets: tuple[Point, ...], day: int) -> StarBoard | str:
    """W10: two new stars on blank points in night rows, or one when one is left."""
    left = blanks_left(board, day)
    wanted = min(2, len(left))
    if wanted == 0:
        return "No blank point is left in a night row: decline this copy."
    if len(set(targets)) != len(targets) or len(targets) != wanted:
        return f"The New stars power takes {wanted} different blank point{'s' * (wanted > 1)}."
    for p in targets:
        if p not in left and board.is_blank(p):
            return f"{name(p)} is in a day row."
        if p not in left:
            return star_refused(board, p, day) or f"{name(p)} is not a blank point."
    return board.changed(new_stars=board.new_stars | set(targets))


def _galaxy(board: StarBoard, copy: Shape, left: Point, day: int) -> StarBoard | str:
    """W11: two unused horizontal neighbours, one of them beside the copy's group."""
    right = (left[0] + 1, left[1])
    for p in (left, right):
        refusal = unused_refused(board, p, day)
        if refusal is not None:
            return refusal
    group = board.group_of(next(iter(copy))[0]) or copy
    beside = {q for s in sky.ends(group) for q in sky.neighbours(s)}
    if left not in beside and right not in beside:
        return "A galaxy goes beside the group whose copy earned it."
    return board.changed(objects=(*board.objects, Placed(Mark.GALAXY, left)))


def _on_constellation(board: StarBoard, power: Power, p: Point) -> StarBoard | str:
    """W13, W14: a nova or an aura on a star of a constellation (C3), day rows allowed."""
    group = board.group_of(p)
    if group is None:
        return f"{name(p)} ends no line: a {MARK_WORDS[POWER_MARK[power]]} goes on a constellation."
    if not board.is_constellation(group):
        return (
            f"{name(p)} is not in a constellation (3 to 8 lines, or up to 10 with a nova): "
            f"its group has {len(group)} line{'s' * (len(group) != 1)}."
        )
    mark = board.mark_at(p)
    if mark is not None:
        return f"{name(p)} already holds a {MARK_WORDS[mark]}."
    if power is Power.AURA and board.has_aura(group):
        return "That constellation already has a luminous aura."
    return board.changed(objects=(*board.objects, Placed(POWER_MARK[power], p)))


# -- a whole submission (R3, R6, R7, W3) -------------------------------------------------------


def apply(board: StarBoard, drawing: Drawing, turn: Turn) -> StarBoard | Refusal:
    """The seat's board after its whole submission, or why the submission is refused."""
    drawn = _draw(board, drawing, turn)
    if isinstance(drawn, str):
        return Refusal(drawn, Problem.INVALID)
    for resolution in drawing.resolutions:
        resolved = resolve(drawn, resolution, turn)
        if isinstance(resolved, str):
            return Refusal(resolved, Problem.INVALID)
        drawn = resolved
    if open_copies(drawn, turn):
        return Refusal(OPEN_COPY, Problem.INVALID)  # W3
    return drawn


def sketch(board: StarBoard, drawing: Drawing, turn: Turn) -> StarBoard:
    """U1, U7: the board with as much of a draft as is legal: its card part if legal, then
    its resolutions in order up to the first refused one. A preview shows this board, its
    open copies and its score; ``apply`` says whether the whole draft would be accepted."""
    drawn = _draw(board, drawing, turn)
    if isinstance(drawn, str):
        return board
    for resolution in drawing.resolutions:
        resolved = resolve(drawn, resolution, turn)
        if isinstance(resolved, str):
            break
        drawn = resolved
    return drawn


def refused(board: StarBoard, drawing: Drawing, turn: Turn) -> Refusal | None:
    after = apply(board, drawing, turn)
    return after if isinstance(after, Refusal) else None


def _draw(board: StarBoard, drawing: Drawing, turn: Turn) -> StarBoard | str:
    """The card's part of the submission: the shape, a shooting star or a pass (R3, R7)."""
    if drawing.lines and drawing.shooting_star is not None:
        return "Draw the card's shape or a shooting star, not both."
    if drawing.shooting_star is not None:
        if turn.card is not None:
            return "A shooting star is drawn only on a shooting-star card."  # SS5
        refusal = shooting_star_refused(board, drawing.shooting_star, turn.day)
        if refusal is not None:
            return refusal
        stars = (*board.shooting_stars, _stored(drawing.shooting_star))
        return board.changed(shooting_stars=stars)
    if not drawing.lines:
        return board  # R7: a pass
    if turn.card is None:
        return "This is a shooting-star card: draw a shooting star, or pass."  # SS5
    checked = [_canonical(ln) for ln in drawing.lines]
    for ln in checked:
        if isinstance(ln, str):
            return ln
    lines = frozenset(ln for ln in checked if not isinstance(ln, str))
    refusal = shape_refused(lines, turn.card) or next(
        (r for ln in sorted(lines) if (r := line_refused(board, ln, turn.day))), None
    )
    if refusal is not None:
        return refusal
    return board.changed(drawn=board.drawn | lines)


# -- what is legal: the screens' hints and the robot -----------------------------------------


@cache
def _placements(card: Shape) -> tuple[Shape, ...]:
    return tuple(sorted(sky.placements(card), key=sky.board_order))


@dataclass(frozen=True)
class Legal:
    """What a board allows this round, computed once (``usable``: the points a new line
    may end at, L2)."""

    board: StarBoard
    day: int

    @cached_property
    def usable(self) -> frozenset[Point]:
        return frozenset(p for p in sky.OUTLINE if point_refused(self.board, p, self.day) is None)

    @cached_property
    def aura_lines(self) -> frozenset[Line]:
        return _aura_lines(self.board)

    def line_ok(self, ln: Line) -> bool:
        """L1-L6 for a line known to join neighbours; the same answer as ``line_refused``."""
        if ln[0] not in self.usable or ln[1] not in self.usable or ln in self.board.lines:
            return False
        if any(sky.crosses(ln, other) for other in self.board.shooting_lines):
            return False
        return not any(sky.touches(ln, other) for other in self.aura_lines)

    def placements(self, card: Shape) -> tuple[Shape, ...]:
        """L7: every legal placement of the card's shape, moved and turned, board order."""
        return tuple(p for p in _placements(card) if all(self.line_ok(ln) for ln in p))

    def shooting_stars(self) -> tuple[ShootingStar, ...]:
        """SS1, SS2: every legal shooting star, its head at its leftmost star."""
        free = self.usable - self.board.line_ends
        crossable = self.board.lines | self.board.shooting_lines
        found = []
        for start in sorted(free, key=lambda p: (p[1], p[0])):
            for dr in (1, -1):
                stars = [start]
                for _ in range(MOST_SHOOTING_LINES):
                    nxt = (stars[-1][0] + 1, stars[-1][1] + dr)
                    ln = sky.line(stars[-1], nxt) if nxt in sky.OUTLINE else None
                    if ln is None or nxt not in free:
                        break
                    if any(sky.crosses(ln, other) for other in crossable):
                        break
                    stars.append(nxt)
                    lines = tuple(sky.line(a, b) for a, b in zip(stars, stars[1:], strict=False))
                    found.append(ShootingStar(lines, start))
        return tuple(found)


def options(board: StarBoard, turn: Turn) -> tuple[Drawing, ...]:
    """Every legal drawing of the card this round, before any power (R3, R7): each legal
    placement of the shape (or each legal shooting star). A pass is always legal too."""
    legal = Legal(board, turn.day)
    if turn.card is None:
        return tuple(Drawing(shooting_star=star) for star in legal.shooting_stars())
    return tuple(Drawing(lines=placed) for placed in legal.placements(turn.card))


def targets(board: StarBoard, copy: Shape, turn: Turn) -> tuple[tuple[Point, ...], ...]:
    """W5, W8-W16: every legal target of the power on this open copy (empty: it must be
    declined). Each is checked by ``use_power`` itself."""
    return tuple(
        t
        for t in _candidates(board, turn)
        if not isinstance(use_power(board, turn.power, copy, t, turn.day), str)
    )


def _candidates(board: StarBoard, turn: Turn) -> Iterator[tuple[Point, ...]]:
    points = sorted(sky.OUTLINE, key=lambda p: (p[1], p[0]))
    if turn.power is Power.LINE:
        usable = Legal(board, turn.day).usable
        for a in points:
            for b in sorted(sky.neighbours(a)):
                if a < b and a in usable and b in usable:
                    yield (a, b)
    elif turn.power is Power.NEW_STARS:
        left = blanks_left(board, turn.day)
        yield from combinations(left, min(2, len(left))) if left else ()
    elif turn.power in (Power.NOVA, Power.AURA):
        yield from ((p,) for p in points if p in board.line_ends)
    else:
        yield from ((p,) for p in points)
