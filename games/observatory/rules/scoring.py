"""What a sheet scores (E2-E4, R11, R12, C7): at the end of the game and, the same way, as the
running score every seat sees (V1).

Decision: an unknown card id among the completed cards (never on a legal sheet) is a
programming error: ``CARDS[id]`` raises. The winner and the tie-break (E5) are the flow's.
"""

from __future__ import annotations

from dataclasses import dataclass

from .deck import CARDS
from .sheet import Sheet
from .sheet_data import FUNDING_POINT, Track, asterism_points

UNUSED_PER_POINT = 2  # E2.4: a point for every two unused stars


@dataclass(frozen=True)
class ScoreSheet:
    """One sheet's score in E2's four parts, all in points, with the counts behind them:
    ``asterism_count`` Asterisms completed, ``unused_stars`` stars in no constellation (E4),
    ``completed`` cards completed (Asterisms included, for E5's tie-break)."""

    cards: int
    asterisms: int
    funding: int
    unused: int
    total: int
    asterism_count: int
    unused_stars: int
    completed: int


def score(sheet: Sheet) -> ScoreSheet:
    """E2: completed cards' points + Asterisms by E3 + Funding + unused stars // 2."""
    completed = [CARDS[card] for card in sheet.completed]
    cards = sum(card.points or 0 for card in completed if not card.asterism)  # E2.1, X2
    asterism_count = sum(1 for card in completed if card.asterism)
    asterisms = asterism_points(asterism_count)  # E2.2, E3
    funding = FUNDING_POINT * sheet.count(Track.FUNDING)  # E2.3, R11
    unused_stars = len(sheet.stars - sheet.used_stars)  # E4; stars on a line count (C7)
    unused = unused_stars // UNUSED_PER_POINT  # E2.4
    return ScoreSheet(
        cards=cards,
        asterisms=asterisms,
        funding=funding,
        unused=unused,
        total=cards + asterisms + funding + unused,
        asterism_count=asterism_count,
        unused_stars=unused_stars,
        completed=len(completed),
    )
