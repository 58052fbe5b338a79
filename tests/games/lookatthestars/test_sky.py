"""The sky's geometry (sky.py): the dome, lines, crossing, groups, shapes turned and never
mirrored, and copies (G2, L1, L4, C1, C6, L7, L8, P2, R4)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.lookatthestars.rules import sky
from games.lookatthestars.rules.cards import POINT_CARDS, POWER_CARDS, SHAPES
from games.lookatthestars.rules.sky import Line, Shape, line, parse_line, parse_shape, point

ALL_LINES: tuple[Line, ...] = tuple(
    sorted({line(p, q) for p in sky.OUTLINE for q in sky.neighbours(p)})
)
CARD_SHAPES: tuple[Shape, ...] = (
    *(card.lines for card in SHAPES.values()),
    *(card.lines for card in POINT_CARDS.values()),
    *(card.lines for card in POWER_CARDS.values()),
)
S05, S06 = SHAPES["S05"].lines, SHAPES["S06"].lines
CROSS = POINT_CARDS["B3"].lines

lines_on_the_sky = st.frozensets(st.sampled_from(ALL_LINES), max_size=40)
card_shapes = st.sampled_from(CARD_SHAPES)
# A loaded machine (CI runs beside us) must not fail a property on its timing.
relaxed = settings(deadline=None, max_examples=60)
quarters = st.integers(min_value=0, max_value=3)
shifts = st.integers(min_value=-12, max_value=12)


def row(r: int) -> str:
    return "".join(sky.COLUMNS[c] for c, rr in sorted(sky.OUTLINE) if rr == r)


def segment_points(ln: Line) -> set[tuple[float, float]]:
    """The line's points sampled finely (both ends and the half-steps between)."""
    (c1, r1), (c2, r2) = ln
    return {(c1 + (c2 - c1) * k / 4, r1 + (r2 - r1) * k / 4) for k in range(5)}


# -- G2: the dome ----------------------------------------------------------------------------


def test_g2_the_outline_is_a_dome_of_96_points() -> None:
    """G2: row 11 d-g, row 10 c-h, rows 9 and 8 b-i, rows 1-7 a-j; 14 cut points."""
    assert [row(r) for r in range(11, 0, -1)] == [
        "defg",
        "cdefgh",
        "bcdefghi",
        "bcdefghi",
        *["abcdefghij"] * 7,
    ]
    assert len(sky.OUTLINE) == 96
    assert not sky.in_outline(point("a8")) and not sky.in_outline(point("c11"))
    assert sky.in_outline(point("a7")) and sky.in_outline(point("d11"))


def test_g2_neighbours_stay_inside_the_dome() -> None:
    """G2, L1: a point has up to 8 neighbours, never a cut point."""
    assert len(sky.neighbours(point("e5"))) == 8
    assert sky.neighbours(point("a1")) == {point("a2"), point("b1"), point("b2")}
    assert sky.neighbours(point("d11")) == {point("c10"), point("d10"), point("e10"), point("e11")}


# -- L1: lines join neighbours only ----------------------------------------------------------


def test_l1_only_neighbours_make_lines() -> None:
    """L1: c3-c5 and c3-d5 are never lines; c3-c4, c3-d3 and c3-d4 are."""
    for text in ("c3-c5", "c3-d5", "c3-c3", "a1-j11"):
        with pytest.raises(ValueError, match="not a line"):
            parse_line(text)
    assert {parse_line(t) for t in ("c3-c4", "c3-d3", "c3-d4", "c3-b2")} <= set(ALL_LINES)


def test_l1_a_line_is_the_same_whichever_way_it_is_written() -> None:
    """L1, L8: e5-f6 and f6-e5 are one line."""
    assert parse_line("e5-f6") == parse_line("f6-e5") == line(point("f6"), point("e5"))
    assert sky.line_name(parse_line("f6-e5")) == "e5-f6"
    assert sky.shape_name(parse_shape("b2-a1 a1-a2")) == "a1-a2 a1-b2"


def test_l1_the_dome_holds_every_line_between_neighbours() -> None:
    """L1: each line's ends are neighbours; each point's lines reach its 8 neighbours."""
    assert all(sky.are_neighbours(a, b) for a, b in ALL_LINES)
    assert len([ln for ln in ALL_LINES if point("e5") in ln]) == 8


# -- L4: crossing ----------------------------------------------------------------------------


def test_l4_the_two_diagonals_of_a_unit_square_cross() -> None:
    """L4: c3-d4 crosses c4-d3."""
    assert sky.crosses(parse_line("c3-d4"), parse_line("c4-d3"))
    assert sky.crosses(parse_line("d3-c4"), parse_line("d4-c3"))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("c3-d4", "d3-e4"),  # parallel diagonals
        ("c3-d4", "d4-e3"),  # they share an end: touching, not crossing
        ("c3-d4", "c3-d4"),  # the same line
        ("c3-c4", "c4-d3"),  # orthogonal
        ("c3-d3", "c4-d4"),  # the sides of a square
        ("c3-d4", "d3-d4"),
    ],
)
def test_l4_no_other_pair_of_lines_crosses(first: str, second: str) -> None:
    """L4: crossing is only the two diagonals of one unit square."""
    assert not sky.crosses(parse_line(first), parse_line(second))


def test_l4_crossing_diagonals_are_the_only_lines_that_meet_away_from_their_ends() -> None:
    """L4: of all pairs of lines on the dome that share no end, exactly the crossing ones
    meet (their middles coincide); everything else is apart."""
    for a, b in combinations(ALL_LINES, 2):
        if set(a) & set(b):
            assert not sky.crosses(a, b)
            continue
        meet = bool(segment_points(a) & segment_points(b))
        assert meet == sky.crosses(a, b), (sky.line_name(a), sky.line_name(b))


# -- C1, C6: groups --------------------------------------------------------------------------


def test_c1_lines_sharing_an_end_or_crossing_make_one_group() -> None:
    """C1: b2-c3 and b3-c2 cross, c3-c4 shares c3: one group of 3; i2-j2 stays apart."""
    found = sky.groups(parse_shape("b2-c3 b3-c2 c3-c4 i2-j2"))
    assert found == [parse_shape("b2-c3 b3-c2 c3-c4"), parse_shape("i2-j2")]


def test_c1_lines_side_by_side_are_not_connected() -> None:
    """C1: parallel neighbours (a1-a2, b1-b2) share no end and cross nothing."""
    assert len(sky.groups(parse_shape("a1-a2 b1-b2"))) == 2
    assert len(sky.groups(parse_shape("a1-b2 b1-c2"))) == 2


def test_c6_groups_come_in_board_order() -> None:
    """C6: the group whose lowest star is in the lower row first; in one row, the left one."""
    found = sky.groups(parse_shape("h5-h6 c5-c6 a9-b9 e2-e3"))
    assert [sky.shape_name(g) for g in found] == ["e2-e3", "c5-c6", "h5-h6", "a9-b9"]
    assert sky.lowest(sky.ends(parse_shape("d4-c5 c5-b4"))) == point("b4")


@relaxed
@given(lines_on_the_sky)
def test_c1_groups_partition_the_lines(lines: frozenset[Line]) -> None:
    """C1: every line is in exactly one group; lines of two groups never touch; a group is
    linked through a chain of touching lines."""
    found = sky.groups(lines)
    assert sum(len(g) for g in found) == len(lines)
    assert frozenset().union(*found) == lines
    for g, h in combinations(found, 2):
        assert not any(sky.touches(a, b) for a in g for b in h)
        assert not sky.ends(g) & sky.ends(h)  # two groups never share a star (C6)
    for g in found:
        reached = {min(g)}
        grown = True
        while grown:
            more = {b for b in g if any(sky.touches(a, b) for a in reached)} - reached
            reached |= more
            grown = bool(more)
        assert reached == g


@relaxed
@given(lines_on_the_sky)
def test_c6_groups_do_not_depend_on_the_order_of_the_lines(lines: frozenset[Line]) -> None:
    """C4, C6: the same lines give the same groups in the same order, however listed."""
    assert sky.groups(lines) == sky.groups(sorted(lines, reverse=True))


# -- L7, L8: turning yes, mirroring no -------------------------------------------------------


def test_l7_a_shape_may_be_turned_and_moved() -> None:
    """L7: the L of S01 drawn at e5 turned a quarter, a half and three quarters is the card."""
    card = SHAPES["S01"].lines
    for drawn in ("e5-e6 e5-f5", "e5-f5 e5-e4", "e5-e4 e5-d5", "e5-d5 e5-e6"):
        assert sky.same_shape(parse_shape(drawn), card), drawn


def test_l7_a_shape_is_turned_never_mirrored() -> None:
    """L7, L8: S05 drawn as S06's mirror image is not S06, and mirror_only says it is a
    mirror image (the screen's "mirror image" reason)."""
    drawn = sky.moved(S05, 3, 4)
    assert not sky.same_shape(drawn, S06)
    assert sky.mirror_only(drawn, S06)
    assert sky.same_shape(sky.mirrored(drawn), S06)


def test_l8_a_turned_shape_is_not_called_a_mirror_image() -> None:
    """L8: a turn of the card is the card; an unrelated shape is not a mirror image."""
    assert not sky.mirror_only(sky.turned(S06, 1), S06)
    assert not sky.mirror_only(SHAPES["S12"].lines, S06)


def test_l8_a_symmetrical_shape_is_never_a_mirror_image() -> None:
    """L8, D7: a shape equal to its own mirror (the L, the cross) is always accepted."""
    for card in (SHAPES["S01"].lines, CROSS):
        assert sky.same_shape(sky.mirrored(card), card)
        assert not sky.mirror_only(sky.mirrored(card), card)


def test_l7_turns_count_the_distinct_quarter_turns() -> None:
    """L7: a straight pair has 2 distinct turns, the cross 1, S05 4."""
    assert len(sky.turns(SHAPES["S03"].lines)) == 2
    assert len(sky.turns(CROSS)) == 1
    assert len(sky.turns(S05)) == 4


@relaxed
@given(card_shapes, shifts, shifts, quarters)
def test_l7_same_shape_holds_under_moving_and_turning(
    shape: Shape, dc: int, dr: int, quarter: int
) -> None:
    """L7: moving and turning never change the shape, and the relation is symmetric."""
    other = sky.moved(sky.turned(shape, quarter), dc, dr)
    assert sky.same_shape(other, shape)
    assert sky.same_shape(shape, other)
    assert not sky.mirror_only(other, shape)
    assert sky.normal(sky.mirrored(sky.mirrored(other))) == sky.normal(other)


@relaxed
@given(card_shapes, quarters)
def test_l7_a_mirror_image_is_a_turn_exactly_when_the_shape_is_symmetrical(
    shape: Shape, quarter: int
) -> None:
    """L7, L8: the mirror image is either the same shape or a "mirror image", never both."""
    image = sky.turned(sky.mirrored(shape), quarter)
    assert sky.same_shape(image, shape) != sky.mirror_only(image, shape)


@pytest.mark.parametrize("shape", CARD_SHAPES, ids=sky.shape_name)
def test_l7_every_placement_is_the_shape_inside_the_dome(shape: Shape) -> None:
    """L7, G2: the placements are the shape moved and turned, all inside the outline."""
    found = sky.placements(shape)
    assert found
    for placed in found:
        assert sky.ends(placed) <= sky.OUTLINE
        assert sky.same_shape(placed, shape)


# -- P2: copies ------------------------------------------------------------------------------


def test_p2_a_symmetrical_shape_is_one_copy_however_many_turns_find_it() -> None:
    """P2: the cross looks the same in all four turns, and is still one copy."""
    drawn = sky.moved(CROSS, 3, 3)
    assert sky.copies(drawn, CROSS) == {drawn}
    straight = parse_shape("c5-c6 c6-c7")  # S03 has two turns that both find a vertical copy
    assert len(sky.copies(straight, SHAPES["S03"].lines)) == 1


def test_p2_copies_may_share_lines_and_sit_in_a_bigger_group() -> None:
    """P2 (X2): three crosses side by side are three copies, overlapping."""
    lines = parse_shape("c4-d4 d4-e4 e4-f4 f4-g4 d3-d4 d4-d5 e3-e4 e4-e5 f3-f4 f4-f5")
    found = sky.copies(lines, CROSS)
    assert len(found) == 3
    assert {sky.lowest(sky.ends(c)) for c in found} == {point("d3"), point("e3"), point("f3")}


def test_p2_a_mirror_image_is_no_copy() -> None:
    """P2: copies are turned, never mirrored: S05's mirror drawn is no copy of S05."""
    drawn = sky.moved(sky.mirrored(S05), 4, 4)
    assert not sky.copies(drawn, S05)
    assert sky.copies(drawn, S06)


@relaxed
@given(card_shapes, st.data(), lines_on_the_sky)
def test_p2_a_copy_placed_anywhere_is_found(
    shape: Shape, data: st.DataObject, noise: frozenset[Line]
) -> None:
    """P2: a card's shape drawn anywhere (moved, turned) among any other lines is a copy,
    and every copy found is the shape on those lines."""
    placed = data.draw(st.sampled_from(sorted(sky.placements(shape), key=sorted)))
    lines = noise | placed
    found = sky.copies(lines, shape)
    assert placed in found
    for copy in found:
        assert copy <= lines and sky.same_shape(copy, shape)


# -- R4: day rows ----------------------------------------------------------------------------


@pytest.mark.parametrize(("round_", "day"), [(1, 0), (6, 0), (7, 2), (12, 2), (13, 4), (18, 4)])
def test_r4_the_sun_takes_two_rows_after_each_pile(round_: int, day: int) -> None:
    """R4: rows 1-2 are day from round 7, rows 1-4 from round 13."""
    assert sky.day_rows(round_) == day
    assert sky.is_day(point("a2"), sky.day_rows(7)) and not sky.is_day(point("a3"), 2)
