"""Astra's 48 Constellation cards (M1-M11), read once from ``data/cards.json`` through one
checking function, with the measures the design rests on: Boon points (M5) and the Final
Scoring Fame formula (M4).

A card's star graph is its ``lines`` (adjacency, M3); ``positions`` only say where to draw each
star (x, y in 0..4). Star 0 is the Starting star, the stars in ``grand`` are Grand, every other
star is Common (M2, M4).

A malformed file stops the import with a ValueError naming the card and the problem: the game
never starts on bad data. What the check refuses: a card out of number order, an unknown
Element, Boon or Ability kind, a star count outside 4-9 or not matching the positions, a line
that is not two different stars of the card or is there twice, a Grand star that is star 0 or
no star, a Boon amount outside M5, a Windfall without its amount (or another kind with one),
and a Final Scoring Fame that is not M4's. The design's wider promises (distributions, groups,
connectivity, layout, chains, point bands) are proved on the file by
``tests/games/astra/test_data.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TypeVar

E = TypeVar("E", bound=StrEnum)

DATA = Path(__file__).resolve().parent.parent / "data" / "cards.json"

CARD_COUNT = 48  # M1
STAR_COUNTS = range(4, 10)  # M2: 4 to 9 stars
STARTING_STAR = 0  # M2
GRID = range(5)  # M3: x and y in 0..4
BOX_COUNT = 4  # B1, M5

Line = tuple[int, int]
Position = tuple[int, int]  # (x, y) on the card's 5 x 5 grid


class Element(StrEnum):
    """A card's Element and a Sphere (M6, M9), in the Final Scoring rows' order (M10)."""

    FIRE = "fire"
    WATER = "water"
    AIR = "air"
    EARTH = "earth"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class BoonKind(StrEnum):
    """The six Boon types (B2-B7)."""

    FAME = "fame"
    IMPROVEMENT = "improvement"
    STARDUST = "stardust"
    WISDOM = "wisdom"
    OBSERVATION = "observation"
    ACTIVATION = "activation"

    @property
    def label(self) -> str:
        return self.value.capitalize()


# M5: the amounts a Boon of each type may print, and what one unit is worth in points.
BOON_AMOUNTS: dict[BoonKind, range] = {
    BoonKind.FAME: range(2, 6),
    BoonKind.STARDUST: range(2, 5),
    BoonKind.OBSERVATION: range(1, 3),
    BoonKind.IMPROVEMENT: range(1, 2),
    BoonKind.WISDOM: range(1, 2),
    BoonKind.ACTIVATION: range(1, 3),
}
BOON_POINTS: dict[BoonKind, int] = {
    BoonKind.FAME: 2,
    BoonKind.STARDUST: 1,
    BoonKind.OBSERVATION: 4,
    BoonKind.IMPROVEMENT: 6,
    BoonKind.WISDOM: 4,
    BoonKind.ACTIVATION: 4,
}


@dataclass(frozen=True)
class Boon:
    """One Boon box: a type and an amount (B1)."""

    kind: BoonKind
    amount: int

    @property
    def points(self) -> int:
        """M5's measure of the box."""
        return BOON_POINTS[self.kind] * self.amount

    @property
    def label(self) -> str:
        """As the page writes it: "Fame 5"."""
        return f"{self.kind.label} {self.amount}"


class AbilityKind(StrEnum):
    """The 16 Ability effect kinds (K1-K16); ``rule`` is the K-rule that details each."""

    STAR_BURST = "star_burst"
    GRAND_SIEVE = "grand_sieve"
    WINDFALL = "windfall"
    FORGE = "forge"
    THREE_LIGHTS = "three_lights"
    FREE_SIGHT = "free_sight"
    GRAND_FAME = "grand_fame"
    INSIGHT = "insight"
    PRESENCE = "presence"
    SPARK = "spark"
    LENS = "lens"
    DEEP_POUCH = "deep_pouch"
    FULL_REST = "full_rest"
    TWIN_LIGHTS = "twin_lights"
    HARMONY = "harmony"
    COMMON_PATH = "common_path"

    @property
    def rule(self) -> str:
        """ "K1" for Star Burst ... "K16" for Common Path, in the page's order."""
        return f"K{list(AbilityKind).index(self) + 1}"

    @property
    def this_turn(self) -> bool:
        """A3, A4, C1-C48: a this-turn kind stays in force until the end of the turn (K2,
        K6, K7, K13, K16); every other kind is instant."""
        return self in THIS_TURN_KINDS


THIS_TURN_KINDS = frozenset(
    {
        AbilityKind.GRAND_SIEVE,
        AbilityKind.FREE_SIGHT,
        AbilityKind.GRAND_FAME,
        AbilityKind.FULL_REST,
        AbilityKind.COMMON_PATH,
    }
)


WINDFALL_AMOUNTS = range(2, 5)  # K3: 2, 3 or 4 Stardust by card

# M4's adjustment to a card's Final Scoring Fame by its Ability.
FAME_ADJUSTMENT: dict[str, int] = {
    "K1": -1,
    "K5": -1,
    "K13": -1,
    "K3(2)": 1,
    "K3(3)": 1,
    "K8": 1,
    "K11": 1,
}


@dataclass(frozen=True)
class Ability:
    """A card's Ability: its kind and, for a Windfall only, how much Stardust it gains."""

    kind: AbilityKind
    amount: int | None = None

    @property
    def group(self) -> str:
        """The Ability group of M2 and M6, as the block writes it: "K1", "K3(4)"..."""
        if self.amount is None:
            return self.kind.rule
        return f"{self.kind.rule}({self.amount})"


class StarType(StrEnum):
    """Every star is exactly one of the three (Words)."""

    STARTING = "starting"
    GRAND = "grand"
    COMMON = "common"


@dataclass(frozen=True)
class Card:
    """One Constellation card (M11). ``stars`` is the star count n, the stars being 0..n-1;
    ``final_fame`` is what the card scores Active at the end (F3)."""

    number: int
    name: str
    element: Element
    stars: int
    final_fame: int
    grand: tuple[int, ...]
    lines: tuple[Line, ...]
    positions: tuple[Position, ...]
    boons: tuple[Boon, Boon, Boon, Boon]
    ability: Ability

    def neighbours(self, star: int) -> frozenset[int]:
        """The stars joined to ``star`` by one line (Words: adjacent)."""
        self._check_star(star)
        return frozenset(b if a == star else a for a, b in self.lines if star in (a, b))

    def adjacent(self, one: int, other: int) -> bool:
        """Whether one line joins the two stars."""
        return other in self.neighbours(one)

    def star_type(self, star: int) -> StarType:
        """Starting (star 0), Grand (M4) or Common."""
        self._check_star(star)
        if star == STARTING_STAR:
            return StarType.STARTING
        return StarType.GRAND if star in self.grand else StarType.COMMON

    def _check_star(self, star: int) -> None:
        if not 0 <= star < self.stars:
            raise ValueError(f"{self.name} has no star {star!r} (stars 0-{self.stars - 1})")


def final_fame_for(stars: int, ability: Ability) -> int:
    """M4: ``max(1, n - 3 + adj)``, adj by the Ability group."""
    return max(1, stars - 3 + FAME_ADJUSTMENT.get(ability.group, 0))


# -- the one checking function -----------------------------------------------------------------


def check_cards(raw: object) -> tuple[Card, ...]:
    """The cards in ``raw`` (parsed JSON), in number order, or a ValueError saying where and
    what is wrong."""
    top = _object(raw, "cards.json")
    items = top.get("cards")
    if not isinstance(items, list) or len(items) != CARD_COUNT:
        raise ValueError(f"cards.json: cards is not a list of {CARD_COUNT} (M1)")
    cards = tuple(_card(item, f"cards[{i}]") for i, item in enumerate(items))
    numbers = [card.number for card in cards]
    if numbers != list(range(1, CARD_COUNT + 1)):
        raise ValueError(f"cards.json: the card numbers are {numbers}, expected 1-48 in order")
    names = [card.name for card in cards]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"cards.json: names given to more than one card: {twice} (M1)")
    return cards


def _card(raw: object, where: str) -> Card:
    item = _object(raw, where)
    name = _text(item, "name", where)
    where = f"{where} ({name})"
    stars = _int(item, "stars", where)
    if stars not in STAR_COUNTS:
        raise ValueError(f"cards.json: {where} has {stars} stars, a card has 4-9 (M2)")
    ability = _ability(item.get("ability"), where)
    final_fame = _int(item, "final_fame", where)
    if final_fame != final_fame_for(stars, ability):
        raise ValueError(
            f"cards.json: {where}.final_fame is {final_fame}, "
            f"M4 gives {final_fame_for(stars, ability)}"
        )
    return Card(
        number=_int(item, "number", where),
        name=name,
        element=_member(Element, item.get("element"), f"{where}.element"),
        stars=stars,
        final_fame=final_fame,
        grand=_grand(item.get("grand"), where, stars),
        lines=_lines(item.get("lines"), where, stars),
        positions=_positions(item.get("positions"), where, stars),
        boons=_boons(item.get("boons"), where),
        ability=ability,
    )


def _pairs(raw: object, where: str) -> list[tuple[int, int]]:
    if not isinstance(raw, list):
        raise ValueError(f"cards.json: {where} is not a list")
    pairs = []
    for i, pair in enumerate(raw):
        if not (isinstance(pair, list) and len(pair) == 2 and all(_is_int(n) for n in pair)):
            raise ValueError(f"cards.json: {where}[{i}] is not a pair of whole numbers")
        pairs.append((int(pair[0]), int(pair[1])))
    return pairs


def _lines(raw: object, where: str, stars: int) -> tuple[Line, ...]:
    lines: list[Line] = []
    for a, b in _pairs(raw, f"{where}.lines"):
        if not (0 <= a < stars and 0 <= b < stars) or a == b:
            raise ValueError(f"cards.json: {where} line {a}-{b} does not join two stars (M3)")
        if {a, b} in ({c, d} for c, d in lines):
            raise ValueError(f"cards.json: {where} line {a}-{b} is there twice (M3)")
        lines.append((a, b))
    return tuple(lines)


def _positions(raw: object, where: str, stars: int) -> tuple[Position, ...]:
    positions = _pairs(raw, f"{where}.positions")
    if len(positions) != stars:
        raise ValueError(f"cards.json: {where} has {len(positions)} positions for {stars} stars")
    if any(x not in GRID or y not in GRID for x, y in positions):
        raise ValueError(f"cards.json: {where} has a position outside 0..4 (M3)")
    return tuple(positions)


def _grand(raw: object, where: str, stars: int) -> tuple[int, ...]:
    if not (isinstance(raw, list) and raw and all(_is_int(n) for n in raw)):
        raise ValueError(f"cards.json: {where}.grand is not a list of stars")
    grand = tuple(int(n) for n in raw)
    if len(set(grand)) != len(grand) or any(not 0 < n < stars for n in grand):
        raise ValueError(f"cards.json: {where}.grand {list(grand)} is not distinct stars 1..n-1")
    return grand


def _boons(raw: object, where: str) -> tuple[Boon, Boon, Boon, Boon]:
    if not isinstance(raw, list) or len(raw) != BOX_COUNT:
        raise ValueError(f"cards.json: {where}.boons is not a list of {BOX_COUNT} (B1)")
    one, two, three, four = (_boon(box, f"{where}.boons[{i}]") for i, box in enumerate(raw))
    return (one, two, three, four)


def _boon(raw: object, where: str) -> Boon:
    item = _object(raw, where)
    kind = _member(BoonKind, item.get("kind"), f"{where}.kind")
    amount = _int(item, "amount", where)
    if amount not in BOON_AMOUNTS[kind] or set(item) != {"kind", "amount"}:
        raise ValueError(f"cards.json: {where} {kind.label} {amount} is not a Boon of M5")
    return Boon(kind, amount)


def _ability(raw: object, where: str) -> Ability:
    item = _object(raw, f"{where}.ability")
    kind = _member(AbilityKind, item.get("kind"), f"{where}.ability.kind")
    if kind is not AbilityKind.WINDFALL:
        if set(item) != {"kind"}:
            raise ValueError(f"cards.json: {where}.ability {kind.value} takes no amount")
        return Ability(kind)
    amount = item.get("amount")
    if (
        set(item) != {"kind", "amount"}
        or not isinstance(amount, int)
        or isinstance(amount, bool)
        or amount not in WINDFALL_AMOUNTS
    ):
        raise ValueError(f"cards.json: {where}.ability windfall needs an amount 2-4 (K3)")
    return Ability(kind, amount)


def _member(enum: type[E], raw: object, where: str) -> E:
    for member in enum:
        if member.value == raw:
            return member
    raise ValueError(f"cards.json: {where} {raw!r} is none of {[m.value for m in enum]}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(item: dict[str, object], key: str, where: str) -> int:
    value = item.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"cards.json: {where}.{key} is not a whole number")
    return value


def _object(raw: object, where: str) -> dict[str, object]:
    if not isinstance(raw, dict) or not all(isinstance(key, str) for key in raw):
        raise ValueError(f"cards.json: {where} is not an object")
    return {str(key): value for key, value in raw.items()}


def _text(item: dict[str, object], key: str, where: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"cards.json: {where}.{key} is not a text")
    return value


# -- the interface the other modules import ----------------------------------------------------

CARDS: tuple[Card, ...] = check_cards(json.loads(DATA.read_text(encoding="utf-8")))
BY_NUMBER: dict[int, Card] = {card.number: card for card in CARDS}
BY_NAME: dict[str, Card] = {card.name: card for card in CARDS}
