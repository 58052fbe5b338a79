"""A Constellation card drawn from its data (M11, U2): the star graph on a 5 x 5 grid in a
100-unit square, Grand stars larger, the Starting star ringed, every mark a filled dot in its
seat's colour with the seat's number on it (the dreamer pen: grey, "D"), so colour is never
the only cue (U9). Plain coordinates for the template's SVG; pure, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from .rules.cards import BY_NUMBER, STARTING_STAR, Boon, BoonKind, Card, Element, StarType
from .rules.model import DREAMER, Mark

CELL = 20  # SVG units between two grid points
EDGE = 10  # the margin around the grid
ELEMENT_ICONS = {
    Element.FIRE: "▲",
    Element.WATER: "▼",
    Element.AIR: "◇",
    Element.EARTH: "■",
}
BOON_WORDS = {
    BoonKind.FAME: "Fame",
    BoonKind.IMPROVEMENT: "Pouch",
    BoonKind.STARDUST: "Stardust",
    BoonKind.WISDOM: "Wisdom",
    BoonKind.OBSERVATION: "Telescope",
    BoonKind.ACTIVATION: "Activation",
}


def at(units: int) -> int:
    return EDGE + units * CELL


@dataclass(frozen=True)
class Line:
    x1: int
    y1: int
    x2: int
    y2: int


@dataclass(frozen=True)
class Star:
    number: int
    x: int
    y: int
    kind: str  # "start", "grand" or "common"
    mark: str  # "" unmarked, else the mark's letter: a seat number or "D"
    css: str  # the mark's colour class ("" unmarked)
    label: str  # for a screen reader
    tapped: int = 0  # its place in the chain being built on the marking strip (0: none)

    @property
    def radius(self) -> float:
        return 8.0 if self.kind == "grand" else 6.0


@dataclass(frozen=True)
class BoonBox:
    box: int
    text: str
    crossed: bool


@dataclass(frozen=True)
class CardFace:
    number: int
    name: str
    element: str
    icon: str
    stars: tuple[Star, ...]
    lines: tuple[Line, ...]
    boons: tuple[BoonBox, ...]
    fame: int  # M4: the Final Scoring Fame
    ability: str  # the Ability's name and what it does, in a few words
    summary: str  # the picture, in words


def boon_text(boon: Boon) -> str:
    return f"{BOON_WORDS[boon.kind]} {boon.amount}"


def mark_letter(mark: Mark) -> str:
    if mark is None:
        return ""
    return "D" if mark == DREAMER else str(mark)


def mark_css(mark: Mark) -> str:
    if mark is None:
        return ""
    return "m-dreamer" if mark == DREAMER else f"m-{mark}"


def _kind(card: Card, star: int) -> str:
    if star == STARTING_STAR:
        return "start"
    return "grand" if card.star_type(star) is StarType.GRAND else "common"


def _star(card: Card, star: int, mark: Mark) -> Star:
    x, y = card.positions[star]
    kind = _kind(card, star)
    words = {"start": "Starting star", "grand": "Grand star", "common": "star"}[kind]
    who = (
        ""
        if mark is None
        else (" marked by the dreamer" if mark == DREAMER else f" marked by seat {mark}")
    )
    return Star(star, at(x), at(y), kind, mark_letter(mark), mark_css(mark), f"{words} {star}{who}")


def card_face(
    number: int,
    marks: tuple[Mark, ...] = (),
    crossed: tuple[int, ...] = (),
    *,
    tapped: Mapping[int, int] | None = None,
) -> CardFace:
    """The card with its marks and crossed Boons; ``tapped``: the stars of the chain being
    built (star -> its place in the chain), drawn as numbered rings, not yet marks."""
    card = BY_NUMBER[number]
    marks = marks or (None,) * card.stars
    tapped = tapped or {}
    stars = tuple(
        replace(_star(card, n, marks[n]), tapped=tapped.get(n, 0)) for n in range(card.stars)
    )
    lines = tuple(
        Line(
            at(card.positions[a][0]),
            at(card.positions[a][1]),
            at(card.positions[b][0]),
            at(card.positions[b][1]),
        )
        for a, b in card.lines
    )
    boons = tuple(
        BoonBox(box, boon_text(boon), box in crossed) for box, boon in enumerate(card.boons, 1)
    )
    marked = sum(mark is not None for mark in marks)
    return CardFace(
        number=number,
        name=card.name,
        element=card.element.value.capitalize(),
        icon=ELEMENT_ICONS[card.element],
        stars=stars,
        lines=lines,
        boons=boons,
        fame=card.final_fame,
        ability=ability_text(card),
        summary=f"{card.name}: {card.stars} stars, {marked} marked",
    )


ABILITY_WORDS = {
    "star_burst": ("Star Burst", "mark a star and all its neighbours; no Action this turn"),
    "grand_sieve": ("Grand Sieve", "this turn: Stardust paid before a Grand star comes back"),
    "windfall": ("Windfall", "gain {n} Stardust"),
    "forge": ("Forge", "3 Stardust become 1 Telescope, as often as you like"),
    "three_lights": ("Three Lights", "one free star on each of three cards"),
    "free_sight": ("Free Sight", "this turn: an Observe may start on any Common star"),
    "grand_fame": ("Grand Fame", "this turn: 1 Fame per Grand star you mark"),
    "insight": ("Insight", "gain 1 Wisdom"),
    "presence": ("Presence", "1 Fame per undiscovered card bearing your mark"),
    "spark": ("Spark", "one free star anywhere"),
    "lens": ("Lens", "gain 1 Telescope"),
    "deep_pouch": ("Deep Pouch", "gain 1 Pouch size"),
    "full_rest": ("Full Rest", "this turn: a Rest gains your Pouch size in Stardust"),
    "twin_lights": ("Twin Lights", "two free stars, following the marking rules"),
    "harmony": ("Harmony", "1 Fame per card you hold of the active Sphere's Element"),
    "common_path": ("Common Path", "this turn: Stardust back if you mark only Common stars"),
}


def ability_name(card: Card) -> str:
    return ABILITY_WORDS[card.ability.kind.value][0]


def ability_text(card: Card) -> str:
    name, words = ABILITY_WORDS[card.ability.kind.value]
    return f"{name}: {words.format(n=card.ability.amount)}"
