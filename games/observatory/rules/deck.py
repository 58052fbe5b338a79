"""The Constellation cards (X3, G1), read once from ``data/deck.json`` through one checking
function, with the measures the deck is built on: difficulty (X4) and points (X2).

A card's pattern is kept as the file writes it (C1): ``stars`` are 0-based ``(row, col)``
offsets, row counted down and col to the right, the smallest row and the smallest col being 0;
``lines`` join two stars by their index in ``stars``. Placing a pattern on a map (the four
rotations, the move, rule B's mirror) is ``figures.py``'s; this module only turns patterns as
far as the difficulty needs (``rotations``, ``mirrored``).

A malformed file stops the import with a ValueError naming the card and the problem: the game
never starts on bad data. What the check refuses: a count or id out of place (X3.1), a star
count outside its size, a star outside the map or twice, an offset not starting at 0, a line
that is not two different stars of the card or is there twice (X3.2), a bonus that is no bonus
(B1) or a Shooting Star value outside 2-6, a difficulty that is not X4's, points that are not
X2's, and a ``picture`` that does not draw the stars. The deck's geometry (connected patterns,
lines through no star, symmetry, no two cards alike: X3.3-X3.7, X3.9, X3.10) is proved on the
file by ``tests/games/observatory/test_deck.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from .sheet_data import MAP_SIZE, SECTOR_SIZE

DATA = Path(__file__).resolve().parent.parent / "data" / "deck.json"

Offset = tuple[int, int]  # (row, col) inside a pattern, 0-based
Pattern = tuple[Offset, ...]

LARGE_SIZE, SMALL_SIZE = "large", "small"
COUNTS = {"large": 65, "small": 59, "asterisms": 15}  # X3.1, G1 (small includes asterisms)
STAR_COUNTS = {LARGE_SIZE: range(5, 9), SMALL_SIZE: range(3, 5)}  # X3.1
SHOOTING_STAR_VALUES = range(2, 7)  # B1, X3.9
STAR_WEIGHT = 3  # X4: d = 3 x stars + K


class BonusKind(StrEnum):
    """A card's completion bonus (B1)."""

    NONE = "none"
    SHOOTING_STAR = "shooting_star"
    RESEARCH = "research"
    FREE_STAR = "free_star"


@dataclass(frozen=True)
class Bonus:
    """``kind`` and, for a Shooting Star only, its printed value 2-6 (B1, D6)."""

    kind: BonusKind
    value: int | None = None


NO_BONUS = Bonus(BonusKind.NONE)


@dataclass(frozen=True)
class Card:
    """One Constellation card (C1, X3). ``points`` is None for an Asterism (E3 scores them
    together); ``difficulty`` is X4's measure."""

    id: str
    name: str
    size: str  # "large" | "small" (an Asterism is small)
    asterism: bool
    points: int | None
    bonus: Bonus
    stars: Pattern
    lines: tuple[tuple[int, int], ...]
    difficulty: int


# -- turning patterns (X4) ---------------------------------------------------------------------


def normalised(stars: Pattern) -> Pattern:
    """``stars`` moved so that the smallest row and the smallest col are 0, order kept."""
    top = min(r for r, _ in stars)
    left = min(c for _, c in stars)
    return tuple((r - top, c - left) for r, c in stars)


def turned(stars: Pattern) -> Pattern:
    """``stars`` turned a quarter clockwise (row down, col right), normalised, order kept:
    star ``i`` of the result is star ``i`` turned, so the lines' indexes still hold."""
    return normalised(tuple((c, -r) for r, c in stars))


def rotations(stars: Pattern) -> tuple[Pattern, Pattern, Pattern, Pattern]:
    """The pattern turned by 0, 90, 180 and 270 degrees clockwise, each normalised, star
    order kept (C2.3)."""
    first = normalised(stars)
    second = turned(first)
    third = turned(second)
    return (first, second, third, turned(third))


def mirrored(stars: Pattern) -> Pattern:
    """The pattern flipped left to right, normalised, star order kept (C4)."""
    return normalised(tuple((r, -c) for r, c in stars))


def fewest_sectors(stars: Pattern) -> int:
    """X4's ``K``: the fewest 2 x 2 sectors the stars can lie in, over the four rotations and
    the four parities of the pattern's offset (0, 0) on the map: 16 cases. The map's edges
    never matter because every pattern fits inside 6 x 6 (X3.5)."""
    return min(
        len({((r + down) // SECTOR_SIZE, (c + right) // SECTOR_SIZE) for r, c in rotation})
        for rotation in rotations(stars)
        for down in range(SECTOR_SIZE)
        for right in range(SECTOR_SIZE)
    )


def difficulty_of(stars: Pattern) -> int:
    """X4: ``3 x stars + K``."""
    return STAR_WEIGHT * len(stars) + fewest_sectors(stars)


def points_for(size: str, asterism: bool, difficulty: int) -> int | None:
    """X2: ``floor(d/3)`` for a Large card, ``floor(d/3) - 1`` for a Small one, None for an
    Asterism (E3 scores Asterisms together)."""
    if asterism:
        return None
    if size == LARGE_SIZE:
        return difficulty // STAR_WEIGHT
    if size == SMALL_SIZE:
        return difficulty // STAR_WEIGHT - 1
    raise ValueError(f"{size!r} is no card size")


# -- the one checking function -----------------------------------------------------------------


def check_deck(raw: object) -> dict[str, Card]:
    """The cards in ``raw`` (parsed JSON) by id, in file order (L, S, A), or a ValueError
    saying where and what is wrong."""
    top = _object(raw, "deck.json")
    counts = top.get("counts")
    if counts != COUNTS:
        raise ValueError(f"deck.json: counts is {counts!r}, expected {COUNTS!r}")
    items = top.get("cards")
    if not isinstance(items, list):
        raise ValueError("deck.json: cards is not a list")
    cards = [_card(item, f"cards[{i}]") for i, item in enumerate(items)]
    expected = [
        *(f"L{n:02d}" for n in range(1, COUNTS["large"] + 1)),
        *(f"S{n:02d}" for n in range(1, COUNTS["small"] - COUNTS["asterisms"] + 1)),
        *(f"A{n:02d}" for n in range(1, COUNTS["asterisms"] + 1)),
    ]
    found = [card.id for card in cards]
    if found != expected:
        raise ValueError(
            f"deck.json: the card ids are {found}, expected L01-L65, S01-S44, A01-A15 in order"
        )
    names = [card.name for card in cards]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"deck.json: names given to more than one card: {twice}")
    return {card.id: card for card in cards}


def _card(raw: object, where: str) -> Card:
    item = _object(raw, where)
    card_id = _text(item, "id", where)
    where = f"{where} ({card_id})"
    size = _text(item, "size", where)
    asterism = item.get("asterism")
    if not isinstance(asterism, bool):
        raise ValueError(f"deck.json: {where}.asterism is not true or false")
    expected_size = LARGE_SIZE if card_id.startswith("L") else SMALL_SIZE
    if size != expected_size or asterism != card_id.startswith("A"):
        raise ValueError(
            f"deck.json: {where} is size {size!r}, asterism {asterism}: L cards are large, "
            "S and A cards small, and only A cards are Asterisms"
        )
    stars = _stars(item, where, STAR_COUNTS[size])
    lines = _lines(item, where, len(stars))
    _check_picture(item, where, stars)
    difficulty = _int(item, "difficulty", where)
    if difficulty != difficulty_of(stars):
        raise ValueError(
            f"deck.json: {where}.difficulty is {difficulty}, X4 measures {difficulty_of(stars)}"
        )
    points = item.get("points")
    if points != points_for(size, asterism, difficulty) or isinstance(points, bool):
        raise ValueError(
            f"deck.json: {where}.points is {points!r}, "
            f"X2 gives {points_for(size, asterism, difficulty)!r}"
        )
    return Card(
        id=card_id,
        name=_text(item, "name", where),
        size=size,
        asterism=asterism,
        points=points_for(size, asterism, difficulty),
        bonus=_bonus(item.get("bonus"), where),
        stars=stars,
        lines=lines,
        difficulty=difficulty,
    )


def _stars(item: dict[str, object], where: str, allowed: range) -> Pattern:
    raw = item.get("stars")
    if not isinstance(raw, list):
        raise ValueError(f"deck.json: {where}.stars is not a list")
    stars: list[Offset] = []
    for i, pair in enumerate(raw):
        if not (isinstance(pair, list) and len(pair) == 2 and all(_is_int(n) for n in pair)):
            raise ValueError(f"deck.json: {where}.stars[{i}] is not [row, col]")
        r, c = int(pair[0]), int(pair[1])
        if not (0 <= r < MAP_SIZE and 0 <= c < MAP_SIZE):
            raise ValueError(f"deck.json: {where}.stars[{i}] {pair} is outside the map")
        stars.append((r, c))
    if len(stars) not in allowed:
        raise ValueError(
            f"deck.json: {where} has {len(stars)} stars, a {item.get('size')} card has "
            f"{allowed.start}-{allowed.stop - 1}"
        )
    if len(set(stars)) != len(stars):
        raise ValueError(f"deck.json: {where}.stars holds a star twice")
    if tuple(stars) != normalised(tuple(stars)):
        raise ValueError(f"deck.json: {where}.stars do not start at row 0 and col 0")
    return tuple(stars)


def _lines(item: dict[str, object], where: str, star_count: int) -> tuple[tuple[int, int], ...]:
    raw = item.get("lines")
    if not isinstance(raw, list):
        raise ValueError(f"deck.json: {where}.lines is not a list")
    lines: list[tuple[int, int]] = []
    for i, pair in enumerate(raw):
        if not (isinstance(pair, list) and len(pair) == 2 and all(_is_int(n) for n in pair)):
            raise ValueError(f"deck.json: {where}.lines[{i}] is not [star, star]")
        a, b = int(pair[0]), int(pair[1])
        if not (0 <= a < star_count and 0 <= b < star_count) or a == b:
            raise ValueError(
                f"deck.json: {where}.lines[{i}] {pair} does not join two different stars (X3.2)"
            )
        if frozenset((a, b)) in (frozenset(line) for line in lines):
            raise ValueError(f"deck.json: {where}.lines[{i}] {pair} is there twice (X3.2)")
        lines.append((a, b))
    return tuple(lines)


def _check_picture(item: dict[str, object], where: str, stars: Pattern) -> None:
    """``picture`` draws the stars: letter A is stars[0], B stars[1]..., "." no star."""
    raw = item.get("picture")
    height = max(r for r, _ in stars) + 1
    width = max(c for _, c in stars) + 1
    letters = {star: chr(ord("A") + i) for i, star in enumerate(stars)}
    expected = [" ".join(letters.get((r, c), ".") for c in range(width)) for r in range(height)]
    if raw != expected:
        raise ValueError(f"deck.json: {where}.picture is {raw!r}, the stars draw {expected!r}")


def _bonus(raw: object, where: str) -> Bonus:
    if raw is None:
        return NO_BONUS
    item = _object(raw, f"{where}.bonus")
    kinds = {kind.value: kind for kind in BonusKind if kind is not BonusKind.NONE}
    kind = kinds.get(str(item.get("kind")))
    if kind is None:
        raise ValueError(f"deck.json: {where}.bonus.kind {item.get('kind')!r} is no bonus (B1)")
    if kind is not BonusKind.SHOOTING_STAR:
        if set(item) != {"kind"}:
            raise ValueError(f"deck.json: {where}.bonus {kind.value} takes no value")
        return Bonus(kind)
    value = item.get("value")
    if set(item) != {"kind", "value"} or not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"deck.json: {where}.bonus Shooting Star has no whole-number value")
    if value not in SHOOTING_STAR_VALUES:
        raise ValueError(f"deck.json: {where}.bonus Shooting Star value {value} is not 2-6 (B1)")
    return Bonus(kind, value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(item: dict[str, object], key: str, where: str) -> int:
    value = item.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"deck.json: {where}.{key} is not a whole number")
    return value


def _object(raw: object, where: str) -> dict[str, object]:
    if not isinstance(raw, dict) or not all(isinstance(key, str) for key in raw):
        raise ValueError(f"deck.json: {where} is not an object")
    return {str(key): value for key, value in raw.items()}


def _text(item: dict[str, object], key: str, where: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"deck.json: {where}.{key} is not a text")
    return value


# -- the interface the other modules import ----------------------------------------------------

CARDS: dict[str, Card] = check_deck(json.loads(DATA.read_text(encoding="utf-8")))
LARGE: tuple[str, ...] = tuple(card.id for card in CARDS.values() if card.size == LARGE_SIZE)
SMALL: tuple[str, ...] = tuple(card.id for card in CARDS.values() if card.size == SMALL_SIZE)
ASTERISMS: tuple[str, ...] = tuple(card.id for card in CARDS.values() if card.asterism)
