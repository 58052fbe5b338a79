"""What a sheet scores (E2-E4, C7, R11, R12) and worked example 3's two sheets of 24."""

from __future__ import annotations

from dataclasses import replace

from games.observatory.rules import steps as st
from games.observatory.rules.deck import CARDS, BonusKind
from games.observatory.rules.figures import Figure
from games.observatory.rules.scoring import ScoreSheet, score
from games.observatory.rules.sheet import Sheet
from games.observatory.rules.sheet_data import Space, Track
from tests.games.observatory.sheet_helpers import ok, placed, sheet, slots


def claimed(spots: dict[str, Space], extra: set[Space], funding: int) -> Sheet:
    """A sheet whose cards are claimed through ``apply`` (bonuses forgone), with ``extra``
    unused stars and ``funding`` Funding spaces."""
    stars = set(extra)
    for card, at in spots.items():
        stars |= placed(card, at)
    s = sheet(
        stars=stars,
        goals=list(spots),
        research=slots(Track.FUNDING, *range(1, funding + 1)),
    )
    plan: list[st.Step] = []
    for card, at in spots.items():
        plan.append(st.Claim(card, placed(card, at)))
        if CARDS[card].bonus.kind is not BonusKind.NONE:
            plan.append(st.FORGO)
    return ok(s, plan, opening=True)


def test_worked_example_3_seat_1_scores_24_with_5_cards() -> None:
    """Worked example 3, seat 1: Scorpius 6 + Sextans 3 (cards) + 6 (three Asterisms) + 3
    (Funding) + floor(12 / 2) = 6 (unused: 30 stars, 5+3+3+3+4 = 18 in constellations)
    = 24, with 5 completed cards."""
    spots = {"L04": (1, 1), "S15": (1, 7), "A01": (7, 1), "A05": (7, 5), "A07": (7, 10)}
    assert [len(CARDS[c].stars) for c in spots] == [5, 3, 3, 3, 4]
    extra = {(12, c) for c in range(1, 13)}
    seat_1 = claimed(spots, extra, funding=3)
    assert len(seat_1.stars) == 30 and len(seat_1.used_stars) == 18
    assert score(seat_1) == ScoreSheet(
        cards=9,
        asterisms=6,
        funding=3,
        unused=6,
        total=24,
        asterism_count=3,
        unused_stars=12,
        completed=5,
    )


def test_worked_example_3_seat_2_also_scores_24_with_6_cards() -> None:
    """Worked example 3, seat 2: 24 with 6 completed cards (here six Asterisms, 21, and 3
    Funding, no unused star): E5's tie-break, the flow's, then favours seat 1's 5 cards."""
    spots = {
        "A01": (1, 1),
        "A02": (1, 5),
        "A03": (1, 9),
        "A04": (6, 1),
        "A05": (6, 5),
        "A06": (6, 9),
    }
    seat_2 = claimed(spots, set(), funding=3)
    result = score(seat_2)
    assert (result.total, result.completed) == (24, 6)
    assert (result.cards, result.asterisms, result.funding, result.unused) == (0, 21, 3, 0)


def test_e2_the_four_parts_and_incomplete_goals_cost_nothing() -> None:
    """E2: Sextans (3 points), one Asterism (1), 2 Funding, 5 unused stars (2 points); a goal
    still held costs nothing."""
    s = claimed({"S15": (1, 1), "A01": (8, 8)}, {(5, 5), (5, 7), (6, 1), (12, 12), (10, 1)}, 2)
    s = replace(s, goals=("L01", "L02"))
    result = score(s)
    assert (result.cards, result.asterisms, result.funding, result.unused) == (3, 1, 2, 2)
    assert result.total == 8


def test_e3_asterisms_score_together_by_the_table() -> None:
    """E3: 0, 1, 3, 6, 10, 15, 21 for 0-6 Asterisms, and 21 for more than six."""
    asterisms = [card for card in CARDS.values() if card.asterism]
    found = []
    for n in range(9):
        figures = tuple(
            Figure(card.id, ((n + 1, i + 1),), ()) for i, card in enumerate(asterisms[:n])
        )
        found.append(score(Sheet(figures=figures)).asterisms)
    assert found == [0, 1, 3, 6, 10, 15, 21, 21, 21]


def test_e4_unused_stars_are_plotted_less_constellation_stars_a_star_on_a_line_included() -> None:
    """E4, C7: Sextans's line (1,1)-(1,3) passes (1, 2), which holds a star: it is unused and
    counts; 4 unused stars score 2, 5 still 2."""
    sextans = placed("S15", (1, 1))
    assert sextans == {(1, 1), (1, 3), (3, 2)}
    s = claimed({"S15": (1, 1)}, {(1, 2), (9, 9), (9, 11), (11, 9)}, 0)
    result = score(s)
    assert result.unused_stars == 4 and result.unused == 2
    s5 = replace(s, stars=s.stars | {(12, 12)})
    assert (score(s5).unused_stars, score(s5).unused) == (5, 2)
