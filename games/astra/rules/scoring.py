"""Astra's final scoring (F1-F9) as a pure function over plain values: what one player brings
to the end (``Holdings``) in, each line of the score out (``ScoreSheet``), and who wins.

It reads no game state: the game gives each seat's Fame, Final Scoring card, held cards, marks
on the undiscovered cards still on the Sphere, track gains and tokens, and the numbers come from
the printed tracks and cards in ``boards`` (J3, J4, M10) and the cards' Final Scoring Fame (M4).

Decisions (the page is silent or loose here):

- ``Holdings`` refuses, with a ValueError naming the rule, what no game can reach: a negative
  count (J1-J5), more held cards than the card limit (L3), a card twice or both held and on the
  Sphere (M1), and a card on the Sphere with as many of the player's marks as it has stars (an
  undiscovered card has an unmarked star, O12). A player's marks on a card may be 0.
- Pouch size and card limit come in as gains (``pouch_gains``, ``wisdom``), the tracks'
  marks beyond the first spot; gains past the top are lost (J3, J4).
- ``winners`` gives the seats with the highest total, sharing a tie (F9); with no sheet, none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .boards import (
    ROWS,
    SPOT_VALUES,
    FinalScoringCard,
    card_limit,
    column_value,
    pouch_size,
    row_marks,
    row_value,
)
from .cards import Card, Element

STARS_PER_FAME = 2  # F2: 1 Fame for every second star marked
STARDUST_PER_FAME = 3  # F8: 1 Fame for every third Stardust left
COLUMNS = range(1, len(SPOT_VALUES) + 1)  # F5: columns 1-9


@dataclass(frozen=True)
class HeldCard:
    """A card the player holds at the end, Active or Exhausted (Words: held cards)."""

    card: Card
    active: bool


@dataclass(frozen=True)
class MarkedCard:
    """An undiscovered card still on the Sphere and how many of its stars the player marked
    (F2). Dreamer marks and other seats' marks are not the player's."""

    card: Card
    stars: int


@dataclass(frozen=True, kw_only=True)
class Holdings:
    """What one player brings to the final scoring: ``fame`` gained during play (J5), the
    Final Scoring card (M10), the held cards, the marks on undiscovered cards, the Pouch size
    and Wisdom gains (J3, J4), and the Stardust and Telescopes left (J1, J2)."""

    fame: int
    scoring_card: FinalScoringCard
    held: tuple[HeldCard, ...] = ()
    marked: tuple[MarkedCard, ...] = ()
    pouch_gains: int = 0
    wisdom: int = 0
    stardust: int = 0
    telescopes: int = 0

    def __post_init__(self) -> None:
        counts = {
            "fame (J5)": self.fame,
            "pouch_gains (J3)": self.pouch_gains,
            "wisdom (J4)": self.wisdom,
            "stardust (J1)": self.stardust,
            "telescopes (J2)": self.telescopes,
        }
        for name, value in counts.items():
            if value < 0:
                raise ValueError(f"{name} is {value}: a Journal count is never negative")
        limit = card_limit(self.wisdom)
        if len(self.held) > limit:
            raise ValueError(f"{len(self.held)} cards held over the card limit {limit} (L3)")
        names = [held.card.name for held in self.held] + [m.card.name for m in self.marked]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"{twice} held or on the Sphere more than once (M1)")
        for marks in self.marked:
            if not 0 <= marks.stars < marks.card.stars:
                raise ValueError(
                    f"{marks.stars} marks on {marks.card.name} ({marks.card.stars} stars): "
                    "an undiscovered card has an unmarked star (O12)"
                )


@dataclass(frozen=True)
class ScoreSheet:
    """One player's final score, line by line (F1-F8), every line in Fame; ``rows`` is the
    marks in each row of the Final Scoring card, Fire to Earth (F4, U8)."""

    fame_in_play: int  # J5
    marked_stars: int  # F2
    active_cards: int  # F3
    element_rows: int  # F4
    element_columns: int  # F5
    pouch_size: int  # F6
    card_limit: int  # F7
    leftover_stardust: int  # F8
    total: int  # F1
    rows: tuple[tuple[Element, int], ...]

    @property
    def elements(self) -> int:
        """F4 + F5, the source's "Elements" line (worked example 3's 28)."""
        return self.element_rows + self.element_columns

    @property
    def lines(self) -> dict[str, int]:
        """Every line of F1 by its rule, in the page's order: Fame in play, then F2-F8."""
        return {
            "J5": self.fame_in_play,
            "F2": self.marked_stars,
            "F3": self.active_cards,
            "F4": self.element_rows,
            "F5": self.element_columns,
            "F6": self.pouch_size,
            "F7": self.card_limit,
            "F8": self.leftover_stardust,
        }


def score(holdings: Holdings) -> ScoreSheet:
    """F1: Fame gained in play + F2 + F3 + F4 + F5 + F6 + F7 + F8. Telescopes score nothing."""
    marks = row_marks(holdings.scoring_card, (held.card.element for held in holdings.held))
    marked_stars = marked_stars_fame(m.stars for m in holdings.marked)
    active_cards = sum(held.card.final_fame for held in holdings.held if held.active)
    element_rows = sum(row_value(k) for k in marks.values())
    element_columns = columns_fame(marks)
    pouch = pouch_size(holdings.pouch_gains)
    limit = card_limit(holdings.wisdom)
    leftover_stardust = holdings.stardust // STARDUST_PER_FAME
    return ScoreSheet(
        fame_in_play=holdings.fame,
        marked_stars=marked_stars,
        active_cards=active_cards,
        element_rows=element_rows,
        element_columns=element_columns,
        pouch_size=pouch,
        card_limit=limit,
        leftover_stardust=leftover_stardust,
        total=holdings.fame
        + marked_stars
        + active_cards
        + element_rows
        + element_columns
        + pouch
        + limit
        + leftover_stardust,
        rows=tuple((row, marks[row]) for row in ROWS),
    )


def marked_stars_fame(marked: Iterable[int]) -> int:
    """F2: the player's marks summed over the undiscovered cards, then halved, rounded down."""
    return sum(marked) // STARS_PER_FAME


def columns_fame(marks: Mapping[Element, int]) -> int:
    """F5: column j has a mark in each row with at least j marks; 3 marks score 3, 4 score 6."""
    return sum(column_value(sum(k >= j for k in marks.values())) for j in COLUMNS)


def winners(sheets: Mapping[int, ScoreSheet] | Sequence[ScoreSheet]) -> tuple[int, ...]:
    """F9: the seats with the highest total; equal highest share the victory, with no
    tie-break. ``sheets`` maps seat to sheet, or lists the sheets from seat 1 on."""
    by_seat = dict(sheets) if isinstance(sheets, Mapping) else dict(enumerate(sheets, start=1))
    if not by_seat:
        return ()
    best = max(sheet.total for sheet in by_seat.values())
    return tuple(sorted(seat for seat, sheet in by_seat.items() if sheet.total == best))
