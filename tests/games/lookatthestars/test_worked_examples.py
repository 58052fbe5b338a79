"""The worked examples X1-X6 of RULES.md, scored with their exact numbers.

Each board is the end state the page lists, built directly (the power copy that earned an
object is left out, as the page says), on the test board (G6) or a design with just the
listed planet. Point card B3 (the cross, worth 3) throughout.
"""

from __future__ import annotations

from games.lookatthestars.rules.board import (
    TEST_DESIGN,
    Design,
    Mark,
    Placed,
    ShootingStar,
    StarBoard,
)
from games.lookatthestars.rules.scoring import score, scoring_constellations
from games.lookatthestars.rules.sky import parse_line, parse_shape, point

CROSS = parse_shape("a2-b2 b1-b2 b2-b3 b2-c2")  # B3


def board(
    lines: str,
    *,
    planets: str = "",
    objects: tuple[tuple[Mark, str], ...] = (),
    shooting: tuple[tuple[str, str], ...] = (),
) -> StarBoard:
    design = TEST_DESIGN
    if planets:
        design = Design(
            id="x", name="Test board", planets=frozenset(point(p) for p in planets.split())
        )
    return StarBoard(
        design=design,
        drawn=parse_shape(lines),
        shooting_stars=tuple(
            ShootingStar(tuple(parse_line(ln) for ln in run.split()), point(head))
            for run, head in shooting
        ),
        objects=tuple(Placed(mark, point(p)) for mark, p in objects),
    )


def test_x1_sizes_crossing_a_planet_a_shooting_star() -> None:
    """X1 (C1, C3, C5, E3, E4): 3 + 4 for constellations, 2 for the planet, 2 for the
    shooting star: 11."""
    sheet = score(
        board(
            "b2-c3 b3-c2 c3-c4 d5-d6 d6-d7 d7-d8 f5-g5 g5-h5 h5-h6 h6-h7 i2-j2 j2-j3 "
            "b9-c9 c9-d9 d9-e9 e9-f9 f9-g9 g9-h9 h9-i9 c9-c10 h9-h10",
            planets="e6",
            shooting=(("a5-b6 b6-c7", "a5"),),
        ),
        CROSS,
    )
    assert sheet.sizes == (3, 4)
    assert sheet.constellations == 7
    assert sheet.planets == 2
    assert sheet.shooting_stars == 2
    assert (sheet.point_copies, sheet.point_bonus) == (0, 0)
    assert sheet.power_bonus == 0
    assert sheet.total == 11


def test_x1_the_ticked_three_is_the_first_in_board_order() -> None:
    """X1 with C6: of the two groups of 3, the one whose lowest star is lower (b2) is ticked."""
    ticked = scoring_constellations(
        board("b2-c3 b3-c2 c3-c4 d5-d6 d6-d7 d7-d8 f5-g5 g5-h5 h5-h6 h6-h7", planets="e6")
    )
    assert ticked == {
        3: parse_shape("b2-c3 b3-c2 c3-c4"),
        4: parse_shape("f5-g5 g5-h5 h5-h6 h6-h7"),
    }


X2 = "c4-d4 d4-e4 e4-f4 f4-g4 d3-d4 d4-d5 e3-e4 e4-e5 f3-f4 f4-f5"


def test_x2_overlapping_point_copies_score_the_largest_disjoint_set() -> None:
    """X2 (P3): three crosses, the middle one sharing a line with each neighbour; two share
    none, 2 x 3 = 6. The ten lines are one group of 10 without a nova: no constellation."""
    sheet = score(board(X2), CROSS)
    assert sheet.point_copies == 2
    assert sheet.point_value == 3
    assert sheet.point_bonus == 6
    assert sheet.sizes == ()
    assert sheet.constellations == 0
    assert sheet.total == 6


def test_x2_without_the_middle_uprights_the_group_of_8_scores_too() -> None:
    """X2's variant (C3, P3): without e3-e4 and e4-e5 the group has 8 lines (8 points) and
    the point bonus is still 2 x 3: 14."""
    lines = " ".join(ln for ln in X2.split() if ln not in ("e3-e4", "e4-e5"))
    sheet = score(board(lines), CROSS)
    assert sheet.sizes == (8,)
    assert sheet.constellations == 8
    assert sheet.point_copies == 2
    assert sheet.point_bonus == 6
    assert sheet.total == 14


def test_x3_a_twinkling_star_needs_exactly_two_adjacent_constellations() -> None:
    """X3 (W12): e5 touches the 3 and the 4 (and a 2 that is no constellation): 3 points;
    h6 touches only the 4: nothing. Constellations 3 + 4: total 10."""
    sheet = score(
        board(
            "d4-d3 d3-c3 c3-c2 f5-g5 g5-g6 g6-g7 g7-f8 d6-e7 e7-e8",
            objects=((Mark.TWINKLING_STAR, "e5"), (Mark.TWINKLING_STAR, "h6")),
        ),
        CROSS,
    )
    assert sheet.twinkling_stars == 3
    assert sheet.constellations == 7
    assert sheet.power_bonus == 3
    assert sheet.total == 10


def test_x4_novas_let_groups_of_9_and_10_score() -> None:
    """X4 (W13, C3, C5): 3 + 9 (nova on c2) + 10 (nova on e8) = 22; the row-5 group of 9 has no
    nova and is no constellation. Novas score no power points of their own (E5)."""
    sheet = score(
        board(
            "a2-b2 b2-c2 c2-d2 d2-e2 e2-f2 f2-g2 g2-h2 h2-i2 i2-j2 "
            "a5-b5 b5-c5 c5-d5 d5-e5 e5-f5 f5-g5 g5-h5 h5-i5 i5-j5 "
            "b8-c8 c8-d8 d8-e8 e8-f8 f8-g8 g8-h8 h8-i8 b8-b9 c8-c9 i8-i9 "
            "d11-e11 e11-f11 f11-g11",
            objects=((Mark.NOVA, "c2"), (Mark.NOVA, "e8")),
        ),
        CROSS,
    )
    assert sheet.sizes == (3, 9, 10)
    assert sheet.constellations == 22
    assert sheet.power_bonus == 0
    assert sheet.total == 22


def test_x5_a_black_hole_counts_its_unused_neighbours_day_rows_or_not() -> None:
    """X5 (W16): around c3, b2 and d4 end lines; the other six are unused stars, though rows
    1-4 are day rows by round 18: 6. Constellation 3: total 9."""
    sheet = score(
        board("d4-e5 b2-a1 g7-h7 h7-h8 h8-g9", objects=((Mark.BLACK_HOLE, "c3"),)),
        CROSS,
    )
    assert sheet.black_hole == 6
    assert sheet.power_bonus == 6
    assert sheet.constellations == 3
    assert sheet.total == 9


def test_x6_a_crescent_moon_counts_constellations_in_its_row_or_column() -> None:
    """X6 (W15): moon on e8; the 3 with e2 (column e) and the 4 with h8 (row 8) are aligned,
    the other 3 is not, and b8-c8-c9 is in row 8 but no constellation: 2. Total 9."""
    sheet = score(
        board(
            "e2-f2 f2-g2 g2-g3 h5-h6 h6-h7 h7-h8 h8-i9 a3-b4 b4-c5 c5-c6 b8-c8 c8-c9",
            objects=((Mark.CRESCENT_MOON, "e8"),),
        ),
        CROSS,
    )
    assert sheet.crescent_moon == 2
    assert sheet.constellations == 7
    assert sheet.power_bonus == 2
    assert sheet.total == 9
