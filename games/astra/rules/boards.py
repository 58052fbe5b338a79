"""Astra's printed tracks and boards as data: the Journal's Pouch size and Wisdom tracks
(J1-J4, M8), the Sphere boards per player count (M9, S1, S2, V2) and the six Final Scoring
cards with their spot values and column bonus (M10, F4, F5).

Nothing here decides a move: the rules apply these numbers. The functions only read a track
or a card as printed (the number over the rightmost mark, the value over the k-th spot).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Element

# -- J1, J2, J5, S4: the Journal at the start --------------------------------------------------

STARTING_STARDUST = 8  # J1, S4
STARTING_TELESCOPES = 0  # J2
STARTING_FAME = 0  # J5

# -- J3, M8: the Pouch size track ----------------------------------------------------------------

POUCH_SPOTS: tuple[int, ...] = (5, 6, 7, 8, 9, 10, 11, 12)  # the "5" spot marked at the start
POUCH_GAINS_TO_TOP = len(POUCH_SPOTS) - 1  # 7


def pouch_size(gains: int) -> int:
    """J3: the number over the rightmost mark after ``gains`` Pouch size gains; gains beyond
    the top are lost."""
    _check_gains(gains)
    return POUCH_SPOTS[min(gains, POUCH_GAINS_TO_TOP)]


# -- J4, M8: the Wisdom track --------------------------------------------------------------------

# The 12 spots as printed: spot 0 "2*" (marked at the start), then a number every other spot;
# None is a spot printed "–".
WISDOM_SPOTS: tuple[int | None, ...] = (2, 3, None, 4, None, 5, None, 6, None, 7, None, 8)
WISDOM_GAINS_TO_TOP = len(WISDOM_SPOTS) - 1  # 11


def card_limit(wisdom: int) -> int:
    """J4: the highest number with a mark below it after ``wisdom`` Wisdom gains; gains beyond
    the top are lost."""
    _check_gains(wisdom)
    marked = WISDOM_SPOTS[: min(wisdom, WISDOM_GAINS_TO_TOP) + 1]
    return max(number for number in marked if number is not None)


def card_slots_opened(spot: int) -> int:
    """M8: how many card slots marking Wisdom spot ``spot`` opens: the start spot opens the
    first two, each numbered spot one more, a "–" spot none."""
    if not 0 <= spot <= WISDOM_GAINS_TO_TOP:
        raise ValueError(f"{spot!r} is no Wisdom spot (0-{WISDOM_GAINS_TO_TOP})")
    number = WISDOM_SPOTS[spot]
    if number is None:
        return 0
    return number if spot == 0 else 1


def _check_gains(gains: int) -> None:
    if gains < 0:
        raise ValueError(f"{gains!r} gains: a track only gains")


# -- M9, S1, S2, V2: the Sphere boards -------------------------------------------------------------

PLAYER_COUNTS = range(2, 6)  # P1
SPHERES: tuple[Element, ...] = (Element.FIRE, Element.AIR, Element.WATER, Element.EARTH)
"""The Spheres clockwise from the top (M9), the marker's way round (R5)."""


@dataclass(frozen=True)
class SphereBoard:
    """One side of a Sphere board (M9). The discard icon lies between ``discard_after`` and
    the Sphere clockwise after it. ``numbers`` (the 2-player side only, V2) pairs a Sphere
    with the stars the dreamer marks when the marker stops there (V7); the other sides print
    none."""

    players: int
    slots: int
    spheres: tuple[Element, ...]
    discard_after: Element
    numbers: tuple[tuple[Element, int], ...]

    def number(self, sphere: Element) -> int | None:
        """V2: the number printed on ``sphere``, or None."""
        return dict(self.numbers).get(sphere)

    def next_sphere(self, sphere: Element) -> Element:
        """R5: the Sphere one step clockwise."""
        return self.spheres[(self.spheres.index(sphere) + 1) % len(self.spheres)]

    def passes_discard(self, sphere: Element) -> bool:
        """R5: whether the move on from ``sphere`` passes the discard icon."""
        return sphere is self.discard_after


DREAM_NUMBERS: tuple[tuple[Element, int], ...] = (
    (Element.FIRE, 1),
    (Element.AIR, 2),
    (Element.WATER, 3),
    (Element.EARTH, 4),
)  # V2

SPHERE_BOARDS: dict[int, SphereBoard] = {
    players: SphereBoard(
        players=players,
        slots=players + 1,  # S1
        spheres=SPHERES,
        discard_after=Element.EARTH,
        numbers=DREAM_NUMBERS if players == 2 else (),
    )
    for players in PLAYER_COUNTS
}

# S2: how many cards lie above the Game End card in the shuffled deck of 48, by player count;
# the rest lie below it.
ABOVE_GAME_END: dict[int, int] = {2: 19, 3: 23, 4: 30, 5: 37}

# -- M10, F4, F5: the Final Scoring cards ----------------------------------------------------------

ROWS: tuple[Element, ...] = (Element.FIRE, Element.WATER, Element.AIR, Element.EARTH)
SPOT_VALUES: tuple[int, ...] = (0, 2, 6, 11, 16, 21, 25, 29, 33)  # over spots 1-9
COLUMN_BONUS: dict[int, int] = {3: 3, 4: 6}  # F5: marks in a column -> Fame


@dataclass(frozen=True)
class FinalScoringCard:
    """One Final Scoring card (M10): the two rows whose first spot it pre-marks."""

    id: str
    premarked: frozenset[Element]


FINAL_SCORING_CARDS: tuple[FinalScoringCard, ...] = tuple(
    FinalScoringCard(f"FS{i}", frozenset(pair))
    for i, pair in enumerate(
        (
            (Element.FIRE, Element.WATER),
            (Element.FIRE, Element.AIR),
            (Element.FIRE, Element.EARTH),
            (Element.WATER, Element.AIR),
            (Element.WATER, Element.EARTH),
            (Element.AIR, Element.EARTH),
        ),
        start=1,
    )
)


def row_value(marks: int) -> int:
    """F4: the number over a row's ``marks``-th spot (0 for no mark)."""
    if not 0 <= marks <= len(SPOT_VALUES):
        raise ValueError(f"{marks!r} marks: a row has {len(SPOT_VALUES)} spots")
    return SPOT_VALUES[marks - 1] if marks else 0


def column_value(marks: int) -> int:
    """F5: a column with exactly 3 marks scores 3, with 4 marks 6, otherwise 0."""
    return COLUMN_BONUS.get(marks, 0)


def row_marks(card: FinalScoringCard, held: Iterable[Element]) -> dict[Element, int]:
    """F4: the marks in each row, top to bottom: the pre-mark, then one per held card of the
    row's Element."""
    marks = {row: int(row in card.premarked) for row in ROWS}
    for element in held:
        marks[element] += 1
    return marks


def elements_fame(card: FinalScoringCard, held: Iterable[Element]) -> int:
    """F4 + F5, the "Elements" line of the final scoring."""
    marks = row_marks(card, held)
    rows = sum(row_value(k) for k in marks.values())
    columns = sum(
        column_value(sum(k >= j for k in marks.values())) for j in range(1, len(SPOT_VALUES) + 1)
    )
    return rows + columns
