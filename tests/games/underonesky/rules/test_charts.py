"""The three star charts and their nine constellation cards (the data in charts.json)."""

import pytest

from games.underonesky.rules import CARDS, CHARTS, COLOURS, RECOMMENDED, Compass, difficulty
from games.underonesky.rules.charts import loose_stars, parse_pattern
from games.underonesky.rules.geometry import extent, oriented, placements, turned

ALL_CARDS = [card for chart in CHARTS.values() for card in chart.cards]


def shapes_under_rotation(cells):
    return {turned(cells, q) for q in range(4)}


def test_there_are_three_charts_of_three_cards_each_of_five_stars():
    assert set(CHARTS) == set(COLOURS)
    for colour, chart in CHARTS.items():
        assert len(chart.cards) == 3
        assert all(card.chart is colour for card in chart.cards)
        assert all(len(set(card.cells)) == 5 for card in chart.cards)
    assert len(CARDS) == 9


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda c: c.id)
@pytest.mark.parametrize("compass", list(Compass))
def test_each_card_fits_the_5x5_board_in_every_orientation(card, compass):
    shape = oriented(card.cells, compass)
    rows, columns = extent(shape)
    assert rows <= 5 and columns <= 5
    assert placements(shape), f"{card.name} does not fit facing {compass}"
    assert all(0 <= space < 25 for spaces in placements(shape) for space in spaces)


@pytest.mark.parametrize("chart", list(CHARTS.values()), ids=lambda c: c.colour.value)
def test_the_cards_of_a_set_differ_in_difficulty_easiest_first(chart):
    scores = [difficulty(card) for card in chart.cards]
    assert scores == sorted(set(scores)), (chart.colour, scores)


def test_difficulty_is_the_spaces_a_shape_cannot_start_on_plus_its_lone_stars():
    corner = parse_pattern(["**.", "***"])  # 2x3: fits 4x3 = 12 places, no lone star
    assert len(placements(corner)) == 12 and loose_stars(corner) == 0
    assert difficulty(CARDS["orange-1"]) == 25 - 12 + 0
    w = parse_pattern(["*.*.*", ".*.*."])  # 2x5: fits 4 places, every star alone
    assert len(placements(w)) == 4 and loose_stars(w) == 5


def test_the_orange_chart_recommended_for_a_first_game_is_the_easiest_set():
    assert RECOMMENDED in CHARTS
    totals = {colour: sum(difficulty(c) for c in chart.cards) for colour, chart in CHARTS.items()}
    assert totals[RECOMMENDED] == min(totals.values())
    assert len(set(totals.values())) == 3


def test_no_two_cards_are_the_same_shape_even_turned():
    for i, card in enumerate(ALL_CARDS):
        for other in ALL_CARDS[i + 1 :]:
            assert not shapes_under_rotation(card.cells) & shapes_under_rotation(other.cells), (
                card.name,
                other.name,
            )


@pytest.mark.parametrize("card", ALL_CARDS, ids=lambda c: c.id)
def test_the_compass_matters_for_every_card(card):
    """No shape looks the same after a quarter turn, so the chart's orientation counts."""
    assert turned(card.cells, 1) != turned(card.cells, 0)


def test_a_pattern_reads_as_drawn_north_at_the_top():
    assert parse_pattern(["*.", "**", ".*", ".*"]) == ((0, 0), (1, 0), (1, 1), (2, 1), (3, 1))
    assert CARDS["orange-3"].cells == ((0, 0), (1, 0), (1, 1), (2, 1), (3, 1))
