"""The cards (D3-D6), read once from ``data/cards.json`` through one checking function.

- The night deck (R1, D3): 27 shape cards of two lines each (``SHAPES``, S01-S27) and three
  shooting-star cards (``SHOOTING_STAR_CARDS``); ``NIGHT_DECK`` lists the 30 ids.
- The ten point-bonus cards (D4, ``POINT_CARDS``), each worth 3 per copy (P4).
- The nine power-bonus cards (D5, ``POWER_CARDS``), three lines each.
- The lobby's options (D6, S3): ``POINT_OPTIONS`` and ``POWER_OPTIONS``, and what a stored
  option yields at the deal (``point_card_for``, ``power_card_for``).

A card's lines are written in its local 4 x 4 box (columns ``a``-``d``, rows ``1``-``4``) in
the sky's own notation (``sky.parse_shape``), so a card's point ``a1`` is ``(0, 1)``.

Randomness stays out of the rules (R8): a random option names the cards it may yield
(``point_candidates``, ``power_candidates``), and ``point_card_for(option, draw)`` asks the
caller's ``draw`` to pick one of them — the server passes its ``random.choice`` (or a seeded
generator's) and records the result in the first event; a replay reads the event and never
calls this again. A fixed option never calls ``draw``.

A malformed file stops the import with a ValueError naming the place and the problem: the
game never starts on bad data. The soundness of the shapes themselves (distinct up to turning,
closed under mirroring, connected bonus shapes...) is proved by ``tests/.../test_data.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from . import sky
from .board import BASIC, Power
from .sky import Shape

DATA = Path(__file__).resolve().parent.parent / "data" / "cards.json"
BOX = 4  # a card's local box is 4 x 4 (D3)
SHAPE_LINES = 2  # D3
POWER_LINES = 3  # D5, W1
POINT_VALUE = 3  # P4: every point card, whatever the printed card says
T = TypeVar("T")


@dataclass(frozen=True)
class ShapeCard:
    """A card of the night deck with a shape to draw (D3)."""

    id: str
    lines: Shape
    text: str


@dataclass(frozen=True)
class PointCard:
    """A point-bonus card (D4): ``value`` points per copy that shares no line (P3, P4)."""

    id: str
    name: str
    lines: Shape
    text: str
    value: int = POINT_VALUE


@dataclass(frozen=True)
class PowerCard:
    """A power-bonus card (D5). ``text`` describes the shape, ``effect`` what the power does
    (W8-W16, in short); ``name`` is how a player calls it ("Luminous aura")."""

    power: Power
    lines: Shape
    text: str
    name: str = ""
    effect: str = ""


@dataclass(frozen=True)
class Cards:
    """Everything ``cards.json`` holds, once checked."""

    shapes: dict[str, ShapeCard]
    shooting_stars: dict[str, str]  # id -> text
    points: dict[str, PointCard]
    powers: dict[Power, PowerCard]
    beginner_point: str
    beginner_power: Power


# -- the one checking function -----------------------------------------------------------------


def check_cards(raw: object) -> Cards:
    """The cards in ``raw`` (parsed JSON), or a ValueError saying where and what is wrong."""
    top = _object(raw, "cards.json")
    shapes = {
        card.id: card
        for card in (
            _shape_card(item, f"shape_cards[{i}]")
            for i, item in enumerate(_list(top, "shape_cards"))
        )
    }
    _expect_ids(list(shapes), [f"S{n:02d}" for n in range(1, 28)], "shape_cards")
    shooting: dict[str, str] = {}
    for i, raw_item in enumerate(_list(top, "shooting_star_cards")):
        where = f"shooting_star_cards[{i}]"
        item = _object(raw_item, where)
        shooting[_text(item, "id", where)] = _text(item, "text", where)
    _expect_ids(list(shooting), ["SS1", "SS2", "SS3"], "shooting_star_cards")
    points = {
        card.id: card
        for card in (
            _point_card(item, f"point_cards[{i}]")
            for i, item in enumerate(_list(top, "point_cards"))
        )
    }
    _expect_ids(list(points), [f"B{n}" for n in range(1, 11)], "point_cards")
    powers = {
        card.power: card
        for card in (
            _power_card(item, f"power_cards[{i}]")
            for i, item in enumerate(_list(top, "power_cards"))
        )
    }
    _expect_ids([p.value for p in powers], [p.value for p in Power], "power_cards")
    beginner = _object(top.get("beginner"), "beginner")
    beginner_point = _text(beginner, "point_card", "beginner")
    if beginner_point not in points:
        raise ValueError(f"cards.json: beginner.point_card {beginner_point!r} is no point card")
    beginner_power = _power(_text(beginner, "power_card", "beginner"), "beginner.power_card")
    return Cards(shapes, shooting, points, powers, beginner_point, beginner_power)


def _shape_card(raw: object, where: str) -> ShapeCard:
    item = _object(raw, where)
    lines = _lines(item, where, count=SHAPE_LINES)
    return ShapeCard(id=_text(item, "id", where), lines=lines, text=_text(item, "text", where))


def _point_card(raw: object, where: str) -> PointCard:
    item = _object(raw, where)
    value = item.get("value")
    if value != POINT_VALUE or isinstance(value, bool):
        raise ValueError(f"cards.json: {where}.value is {value!r}, every point card is worth 3")
    return PointCard(
        id=_text(item, "id", where),
        name=_text(item, "name", where),
        lines=_lines(item, where),
        text=_text(item, "text", where),
    )


def _power_card(raw: object, where: str) -> PowerCard:
    item = _object(raw, where)
    return PowerCard(
        power=_power(_text(item, "power", where), f"{where}.power"),
        lines=_lines(item, where, count=POWER_LINES),
        text=_text(item, "text", where),
        name=_text(item, "name", where),
        effect=_text(item, "effect", where),
    )


def _lines(item: dict[str, object], where: str, count: int | None = None) -> Shape:
    """The card's lines: real lines (L1), none twice, inside the 4 x 4 box, ``count`` of them."""
    text = _text(item, "lines", where)
    parts = text.split()
    try:
        lines = sky.parse_shape(text)
    except ValueError as error:
        raise ValueError(f"cards.json: {where}.lines: {error}") from error
    if len(lines) != len(parts):
        raise ValueError(f"cards.json: {where}.lines {text!r} repeats a line")
    if count is not None and len(lines) != count:
        raise ValueError(f"cards.json: {where}.lines {text!r} has {len(lines)} lines, not {count}")
    outside = [sky.point_name(p) for p in sorted(sky.ends(lines)) if p[0] >= BOX or p[1] > BOX]
    if outside:
        raise ValueError(f"cards.json: {where}.lines: {', '.join(outside)} outside the 4 x 4 box")
    return lines


def _power(value: str, where: str) -> Power:
    try:
        return Power(value)
    except ValueError as error:
        raise ValueError(f"cards.json: {where} {value!r} is no power") from error


def _expect_ids(found: list[str], expected: list[str], where: str) -> None:
    if found != expected:
        raise ValueError(f"cards.json: {where} are {found}, expected {expected} in this order")


def _object(raw: object, where: str) -> dict[str, object]:
    if not isinstance(raw, dict) or not all(isinstance(key, str) for key in raw):
        raise ValueError(f"cards.json: {where} is not an object")
    return {str(key): value for key, value in raw.items()}


def _list(item: dict[str, object], key: str) -> list[object]:
    value = item.get(key)
    if not isinstance(value, list):
        raise ValueError(f"cards.json: {key} is not a list")
    return list(value)


def _text(item: dict[str, object], key: str, where: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"cards.json: {where}.{key} is not a text")
    return value


CARDS = check_cards(json.loads(DATA.read_text(encoding="utf-8")))

# -- the interface the other modules import ----------------------------------------------------

SHAPES: dict[str, ShapeCard] = CARDS.shapes
SHOOTING_STAR_CARDS: tuple[str, ...] = tuple(CARDS.shooting_stars)
NIGHT_DECK: tuple[str, ...] = (*SHAPES, *SHOOTING_STAR_CARDS)  # R1: 30 cards
POINT_CARDS: dict[str, PointCard] = CARDS.points
POWER_CARDS: dict[Power, PowerCard] = CARDS.powers
BEGINNER_POINT: str = CARDS.beginner_point  # "B3" (S3)
BEGINNER_POWER: Power = CARDS.beginner_power  # Power.LINE (S3)


def is_shooting_star(card_id: str) -> bool:
    return card_id in CARDS.shooting_stars


def card_text(card_id: str) -> str:
    """A night card's description (its accessible text, U-screens)."""
    if card_id in SHAPES:
        return SHAPES[card_id].text
    return CARDS.shooting_stars[card_id]


# -- the lobby's options (D6, S3) --------------------------------------------------------------

POINT_BEGINNER, POINT_RANDOM = "beginner", "random"
POWER_BEGINNER, POWER_RANDOM_BASIC, POWER_RANDOM_ANY = "beginner", "random-basic", "random-any"
POINT_OPTIONS: tuple[str, ...] = (POINT_BEGINNER, POINT_RANDOM, *POINT_CARDS)
POWER_OPTIONS: tuple[str, ...] = (
    POWER_BEGINNER,
    POWER_RANDOM_BASIC,
    POWER_RANDOM_ANY,
    *(power.value for power in Power),
)
DEFAULT_POINT_OPTION = POINT_BEGINNER  # D1: B3 by default
DEFAULT_POWER_OPTION = POWER_BEGINNER  # D1: Line by default


def point_candidates(option: str) -> tuple[str, ...]:
    """The point cards a stored option may yield: one for a fixed choice, ten for Random."""
    if option == POINT_BEGINNER:
        return (BEGINNER_POINT,)
    if option == POINT_RANDOM:
        return tuple(POINT_CARDS)
    if option in POINT_CARDS:
        return (option,)
    raise ValueError(f"{option!r} is not a point-card option")


def power_candidates(option: str) -> tuple[Power, ...]:
    """The powers a stored option may yield: Random basic draws among the five Basic powers,
    Random any among all nine (W1)."""
    if option == POWER_BEGINNER:
        return (BEGINNER_POWER,)
    if option == POWER_RANDOM_BASIC:
        return BASIC
    if option == POWER_RANDOM_ANY:
        return tuple(Power)
    if option in POWER_OPTIONS:
        return (Power(option),)
    raise ValueError(f"{option!r} is not a power-card option")


def point_card_for(option: str, draw: Callable[[Sequence[str]], str]) -> str:
    """The point card's id for a stored option; ``draw`` (the server's ``random.choice``)
    picks among the candidates only when there are several."""
    return _resolve(point_candidates(option), draw)


def power_card_for(option: str, draw: Callable[[Sequence[Power]], Power]) -> Power:
    """The power for a stored option; ``draw`` picks only for a random option."""
    return _resolve(power_candidates(option), draw)


def _resolve(candidates: tuple[T, ...], draw: Callable[[Sequence[T]], T]) -> T:
    if len(candidates) == 1:
        return candidates[0]
    picked = draw(candidates)
    if picked not in candidates:
        raise ValueError(f"the draw gave {picked!r}, not one of {candidates!r}")
    return picked
