"""Shared helpers of the play tests: boards, turns and drawings written in the page's notation."""

from __future__ import annotations

from games.kit import Refusal
from games.lookatthestars.rules import drawing
from games.lookatthestars.rules.board import TEST_DESIGN, Design, Power, ShootingStar, StarBoard
from games.lookatthestars.rules.cards import POWER_CARDS, SHAPES
from games.lookatthestars.rules.model import Drawing, Resolution, Turn
from games.lookatthestars.rules.sky import Point, Shape, moved, parse_line, parse_shape, point

S = parse_shape
P = point


def design(
    *, landscape: str = "", blanks: str = "", planets: str = "", printed: str = ""
) -> Design:
    """A test board (G6) with whatever the test lists."""

    def points(text: str) -> frozenset[Point]:
        return frozenset(point(p) for p in text.split())

    return Design(
        id="t",
        name="Test board",
        landscape=points(landscape),
        blanks=points(blanks),
        planets=points(planets),
        printed_lines=S(printed) if printed else frozenset(),
    )


def board(lines: str = "", *, on: Design = TEST_DESIGN, **fields: object) -> StarBoard:
    return StarBoard(on).changed(drawn=S(lines) if lines else frozenset(), **fields)


def turn(card: str | None = "S01", power: Power = Power.LINE, round: int = 1) -> Turn:
    """A round's ask: a card id (S01...), a shape in the page's notation, or None for a
    shooting-star card."""
    if card is None:
        shape = None
    elif card in SHAPES:
        shape = SHAPES[card].lines
    else:
        shape = S(card)
    return Turn(shape, power, POWER_CARDS[power].lines, round)


def lines(text: str, *resolutions: Resolution) -> Drawing:
    return Drawing(lines=S(text), resolutions=resolutions)


def shooting(text: str, head: str, *resolutions: Resolution) -> Drawing:
    run = tuple(parse_line(ln) for ln in text.split())
    return Drawing(shooting_star=ShootingStar(run, P(head)), resolutions=resolutions)


def passing(*resolutions: Resolution) -> Drawing:
    return Drawing(resolutions=resolutions)


def use(copy: Shape | str, *targets: str) -> Resolution:
    return Resolution(S(copy) if isinstance(copy, str) else copy, tuple(P(t) for t in targets))


def decline(copy: Shape | str) -> Resolution:
    return Resolution(S(copy) if isinstance(copy, str) else copy)


def copy_of(power: Power, at: str) -> Shape:
    """The power card's shape moved so its box's ``a1`` is at ``at``."""
    dc, dr = P(at)
    return moved(POWER_CARDS[power].lines, dc, dr - 1)


def accepted(b: StarBoard, d: Drawing, t: Turn) -> StarBoard:
    after = drawing.apply(b, d, t)
    assert not isinstance(after, Refusal), after
    return after


def reason(b: StarBoard, d: Drawing, t: Turn) -> str:
    after = drawing.apply(b, d, t)
    assert isinstance(after, Refusal), "accepted"
    assert after == drawing.refused(b, d, t)
    return after.reason
