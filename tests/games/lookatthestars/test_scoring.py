"""What a board scores (E2-E6): constellations (C2-C6), point copies (P2-P5) and the power
bonus (W11-W16), rule by rule, and properties that hold for any board."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.lookatthestars.rules import sky
from games.lookatthestars.rules.board import (
    TEST_DESIGN,
    Design,
    Mark,
    Placed,
    ShootingStar,
    StarBoard,
)
from games.lookatthestars.rules.scoring import (
    ScoreSheet,
    most_disjoint_copies,
    score,
    scoring_constellations,
    winners,
)
from games.lookatthestars.rules.sky import Line, parse_line, parse_shape, point

S = parse_shape
CROSS = S("a2-b2 b1-b2 b2-b3 b2-c2")  # B3
TALL_CROSS = S("a2-b2 b1-b2 b2-b3 b2-c2 b3-b4")  # B10, printed as 5
BRANCH = S("a1-a2 a2-a3 a2-b2 b2-c2")  # B2
HOOK = S("a1-a2 a2-a3 a1-b1")  # a one-handed shape (every point card is symmetrical)
SALTIRE = S("a1-b2 a3-b2 b2-c1 b2-c3")  # B1
DIAMOND = S("a2-b1 a2-b3 b1-c2 b3-c2")  # B5


def board(
    lines: str = "",
    *,
    planets: str = "",
    blanks: str = "",
    landscape: str = "",
    printed: str = "",
    objects: tuple[tuple[Mark, str], ...] = (),
    shooting: tuple[str, ...] = (),
    claimed: str = "",
) -> StarBoard:
    """A board on the test design (G6) with only what is listed; a shooting star's head is its
    first star."""

    def points(text: str) -> frozenset[sky.Point]:
        return frozenset(point(p) for p in text.split())

    design = Design(
        id="t",
        name="Test board",
        landscape=points(landscape),
        blanks=points(blanks),
        planets=points(planets),
        printed_lines=S(printed),
    )
    return StarBoard(
        design=design,
        drawn=S(lines),
        shooting_stars=tuple(
            ShootingStar(tuple(parse_line(ln) for ln in run.split()), point(run.split("-")[0]))
            for run in shooting
        ),
        objects=tuple(Placed(mark, point(p)) for mark, p in objects),
        claimed=S(claimed),
    )


def run(start: str, end: str) -> str:
    """The straight run of lines from ``start`` to ``end`` along a row or column."""
    a, b = point(start), point(end)
    step = ((b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1]))
    names, p = [], a
    while p != b:
        q = (p[0] + step[0], p[1] + step[1])
        names.append(sky.line_name(sky.line(p, q)))
        p = q
    return " ".join(names)


def parts(sheet: ScoreSheet) -> int:
    return (
        sheet.constellations
        + sheet.planets
        + sheet.shooting_stars
        + sheet.point_bonus
        + sheet.power_bonus
    )


# -- C2-C6: constellations --------------------------------------------------------------------


def test_c2_a_planet_counts_a_group_with_a_star_among_its_neighbours() -> None:
    """C2: a star diagonally beside the planet makes the group adjacent; one two points away
    does not."""
    assert score(board("f7-g7 g7-h7 h7-h8", planets="e6"), CROSS).planets == 1
    assert score(board("g7-h7 h7-i7 i7-i8", planets="e6"), CROSS).planets == 0


@pytest.mark.parametrize(
    ("lines", "sizes"),
    [
        ("c3-d3", ()),
        ("c3-d3 d3-e3", ()),
        (run("a3", "d3"), (3,)),
        (run("a3", "i3"), (8,)),
        (run("a3", "j3"), ()),
        (run("a3", "j3") + " j3-j4", ()),
    ],
)
def test_c3_a_constellation_has_3_to_8_lines(lines: str, sizes: tuple[int, ...]) -> None:
    """C3: one line, two linked lines and a group of 9 or 10 without a nova score nothing."""
    sheet = score(board(lines), CROSS)
    assert sheet.sizes == sizes
    assert sheet.constellations == sum(sizes)


def test_c3_a_nova_group_of_11_lines_is_no_constellation() -> None:
    """C3: with a nova a group is a constellation up to 10 lines, never 11."""
    eleven = run("a3", "j3") + " j3-j4 j4-j5"
    assert score(board(eleven, objects=((Mark.NOVA, "a3"),)), CROSS).sizes == ()


def test_c4_only_the_number_of_lines_matters_and_a_group_is_judged_as_it_stands() -> None:
    """C4: a straight 3 and a bent 3 are both a 3 (scoring once); when a line joins one of
    them it becomes a 4, and the board scores 3 + 4."""
    straight, bent = "a1-b1 b1-c1 c1-d1", "a5-b6 b6-b7 b7-c7"
    assert score(board(f"{straight} {bent}"), CROSS).sizes == (3,)
    grown = score(board(f"{straight} {bent} c7-d8"), CROSS)
    assert grown.sizes == (3, 4)
    assert grown.constellations == 7


def test_c5_each_size_scores_once() -> None:
    """C5: three constellations of 3 lines and one of 5 score 3 + 5."""
    lines = f"{run('a1', 'd1')} {run('a3', 'd3')} {run('a5', 'd5')} {run('a7', 'f7')}"
    sheet = score(board(lines), CROSS)
    assert sheet.sizes == (3, 5)
    assert sheet.constellations == 8


def test_c5_every_size_makes_33_and_with_novas_52() -> None:
    """C5: sizes 3 to 8 make 33; with nova constellations of 9 and 10 too, 52."""
    lines = " ".join(
        [
            run("a1", "f1"),  # 5
            run("a2", "g2"),  # 6
            run("a3", "i3"),  # 8
            run("a4", "e4"),  # 4
            run("b9", "i9"),  # 7
            run("d11", "g11"),  # 3
        ]
    )
    assert score(board(lines), CROSS).constellations == 33
    with_novas = f"{lines} {run('a5', 'j5')} {run('a7', 'j7')} b7-b8"  # 9 and 10
    sheet = score(board(with_novas, objects=((Mark.NOVA, "c5"), (Mark.NOVA, "b8"))), CROSS)
    assert sheet.sizes == (3, 4, 5, 6, 7, 8, 9, 10)
    assert sheet.constellations == 52
    assert sheet.total == 52


def test_c6_the_ticked_constellation_is_the_first_in_board_order() -> None:
    """C6: of two 3s, the one with the lower lowest star is ticked; in the same row, the one
    further left. Sizes that do not score tick nothing."""
    higher, lower = "c5-c6 c6-c7 c7-d8", "h4-h5 h5-h6 h6-h7"
    assert scoring_constellations(board(f"{higher} {lower}")) == {3: S(lower)}
    leftmost, other = "b2-c3 c3-d4 d4-e5", "f2-f3 f3-f4 f4-f5"
    assert scoring_constellations(board(f"{other} {leftmost} b9-c9")) == {3: S(leftmost)}
    assert scoring_constellations(board("b9-c9 c9-d9")) == {}
    low = "h1-h2 h2-h3 h3-h4"
    nova = board(f"{run('a5', 'j5')} {low}", objects=((Mark.NOVA, "a5"),))
    assert scoring_constellations(nova) == {3: S(low), 9: S(run("a5", "j5"))}


# -- P2-P5: the point-bonus card --------------------------------------------------------------


def test_p2_a_copy_may_be_moved_and_turned_and_be_part_of_a_bigger_group() -> None:
    """P2: the hook (up 2, right 1) turned a quarter (right 2, down 1), moved to e5, inside a
    group of 4 lines, is one copy."""
    sheet = score(board("e5-f5 f5-g5 e4-e5 d4-e4"), HOOK)
    assert sheet.point_copies == 1
    assert sheet.sizes == (4,)


def test_p2_a_mirror_image_is_no_copy() -> None:
    """P2: the one-handed hook's mirror image (right 2, up 1) is not a copy."""
    mirror = S("e5-f5 f5-g5 e5-e6")
    assert sky.mirror_only(mirror, HOOK)
    assert score(board("e5-f5 f5-g5 e5-e6"), HOOK).point_copies == 0


def test_p2_printed_lines_count_and_shooting_stars_do_not() -> None:
    """P2: a cross finished by a printed line is a copy; a saltire made partly of a shooting
    star's line is not."""
    assert score(board("d4-e4 e3-e4 e4-e5", printed="e4-f4"), CROSS).point_copies == 1
    with_shooting = board("c5-d4 d4-e5 c3-d4", shooting=("d4-e3",))
    assert score(with_shooting, SALTIRE).point_copies == 0


def test_p2_a_symmetrical_shape_is_one_copy() -> None:
    """P2: a cross found in all four turns is still one copy (3 points, not 12)."""
    sheet = score(board("d4-e4 e4-f4 e3-e4 e4-e5"), CROSS)
    assert (sheet.point_copies, sheet.point_bonus) == (1, 3)


def test_p3_the_largest_set_of_disjoint_copies_not_a_scan() -> None:
    """P3: the first cross in board order (centre e4) shares a line with the crosses at e5
    and f4, which share none with each other: taking the first would give 1; the best is 2."""
    lines = S("d4-e4 e4-f4 e3-e4 e4-e5") | S("d5-e5 e5-f5 e5-e6") | S("f4-g4 f3-f4 f4-f5")
    b = StarBoard(design=TEST_DESIGN, drawn=lines)
    first = min(sky.copies(lines, CROSS), key=sky.board_order)
    assert first == S("d4-e4 e4-f4 e3-e4 e4-e5")
    assert len(sky.copies(lines, CROSS)) == 3
    assert most_disjoint_copies(lines, CROSS) == 2
    assert score(b, CROSS).point_bonus == 6


def test_p4_every_point_card_is_worth_3_per_copy_whatever_its_size() -> None:
    """P4: the tall cross (printed as 5) scores 3 per copy by default."""
    sheet = score(board("b3-c3 c3-d3 c2-c3 c3-c4 c4-c5"), TALL_CROSS)
    assert (sheet.point_copies, sheet.point_value, sheet.point_bonus) == (1, 3, 3)


def test_p5_claimed_lines_still_count_for_point_copies() -> None:
    """P5, W2: a line in a used power copy may also be in a point copy, and still counts for
    the constellation."""
    cross = "d4-e4 e4-f4 e3-e4 e4-e5"
    sheet = score(board(cross, claimed="d4-e4 e4-f4 e4-e5"), CROSS)
    assert sheet.point_copies == 1
    assert sheet.sizes == (4,)
    assert sheet.total == 7


# -- E2-E6 ------------------------------------------------------------------------------------


def everything() -> StarBoard:
    return board(
        "a2-b2 b2-c2 c2-d2 d4-e4 e4-f4 e3-e4 e4-e5 h8-h9 h9-i9 i9-h10",
        planets="e2",
        objects=(
            (Mark.PLANET, "g6"),
            (Mark.GALAXY, "b6"),
            (Mark.TWINKLING_STAR, "d3"),
            (Mark.AURA, "a2"),
            (Mark.CRESCENT_MOON, "j2"),
            (Mark.BLACK_HOLE, "f8"),
        ),
        shooting=("g2-h3 h3-i4",),
    )


def test_e2_the_total_is_the_sum_of_the_parts() -> None:
    """E2: constellations 3 + 4 (the two 3s score once) + planets + shooting star + point
    bonus + power bonus = 30."""
    sheet = score(everything(), CROSS)
    assert sheet.sizes == (3, 4)
    assert sheet.constellations == 7
    assert sheet.planets == 2  # e2: the row-2 3 (d2) and the cross (e3); g6: nothing
    assert sheet.shooting_stars == 2
    assert (sheet.point_copies, sheet.point_bonus) == (1, 3)
    assert sheet.galaxies == 2
    assert sheet.twinkling_stars == 3  # d3: the row-2 3 and the cross
    assert sheet.auras == 2
    assert sheet.crescent_moon == 1  # j2: the row-2 3
    assert sheet.black_hole == 8
    assert sheet.power_bonus == 2 + 3 + 2 + 1 + 8
    assert sheet.total == 7 + 2 + 2 + 3 + 16 == parts(sheet) == 30


def test_e3_a_planet_counts_every_adjacent_constellation_even_of_one_size() -> None:
    """E3: two 3s beside the planet count 2 (their size scores once); a 2-line group and a
    9-line group without a nova count nothing; a drawn planet scores like a printed one."""
    two_threes = "d5-d6 d6-d7 d7-d8 f4-f5 f5-g5 g5-h5"
    sheet = score(board(two_threes, planets="e6"), CROSS)
    assert (sheet.planets, sheet.constellations) == (2, 3)
    drawn = score(board(two_threes, objects=((Mark.PLANET, "e6"),)), CROSS)
    assert drawn.planets == 2
    assert drawn.power_bonus == 0
    assert score(board("d6-d7 d7-d8", planets="e6"), CROSS).planets == 0
    assert score(board(run("a7", "j7"), planets="e6"), CROSS).planets == 0


def test_e4_a_shooting_star_scores_one_per_line_and_makes_no_constellation() -> None:
    """E4, SS4: shooting stars of 1, 2 and 3 lines score 6, and none is a constellation."""
    sheet = score(board(shooting=("a1-b2", "d1-e2 e2-f3", "a5-b6 b6-c7 c7-d8")), CROSS)
    assert sheet.shooting_stars == 6
    assert sheet.sizes == ()
    assert sheet.total == 6


def test_e5_planet_line_new_stars_and_nova_score_no_power_points() -> None:
    """E5: a drawn planet, a nova and a new star add nothing of their own."""
    b = board(
        "a1-b1 b1-c1 c1-d1",
        blanks="a6",
        objects=((Mark.PLANET, "h9"), (Mark.NOVA, "a1")),
    ).changed(new_stars=frozenset({point("a6")}))
    sheet = score(b, CROSS)
    assert sheet.power_bonus == 0
    assert sheet.total == 3


@pytest.mark.parametrize(
    ("totals", "won"),
    [
        ([10, 12, 9], (2,)),
        ([12, 10, 12], (1, 3)),
        ([7, 7], (1, 2)),
        ([40], ()),
        ({1: 5, 2: 8, 3: 8}, (2, 3)),
        ({1: 30}, ()),
    ],
)
def test_e6_the_highest_total_wins_and_ties_share(
    totals: list[int] | dict[int, int], won: tuple[int, ...]
) -> None:
    """E6: equal highest totals share the win; a solo game has no winner."""
    assert winners(totals) == won


# -- W11-W16: the power bonus -----------------------------------------------------------------


def test_w11_a_galaxy_is_worth_2() -> None:
    """W11: each galaxy 2 points (two galaxies, 4)."""
    sheet = score(board(objects=((Mark.GALAXY, "c5"), (Mark.GALAXY, "f9"))), CROSS)
    assert (sheet.galaxies, sheet.power_bonus, sheet.total) == (4, 4, 4)


def test_w12_a_twinkling_star_needs_exactly_two_adjacent_constellations() -> None:
    """W12: 3 points beside exactly two constellations (even of the same size); nothing
    beside one, three, or a constellation and a 2-line group."""
    twinkle = ((Mark.TWINKLING_STAR, "e6"),)
    near = "c4-c5 c5-c6 c6-d7"  # d7 is beside e6
    also_near = "f4-f5 f5-f6 f6-f7"  # f5, f6, f7 too
    two = score(board(f"{near} {also_near}", objects=twinkle), CROSS)
    assert (two.twinkling_stars, two.constellations, two.total) == (3, 3, 6)
    three = score(board(f"{near} {also_near} e7-e8 d8-e8 e8-f8", objects=twinkle), CROSS)
    assert three.twinkling_stars == 0
    assert score(board(near, objects=twinkle), CROSS).twinkling_stars == 0
    a_pair = score(board(f"{near} f6-g6 g6-g7", objects=twinkle), CROSS)
    assert a_pair.twinkling_stars == 0
    far = score(board("a1-b1 b1-c1 c1-d1 h9-h10 h10-g11 g11-f11", objects=twinkle), CROSS)
    assert far.twinkling_stars == 0


def test_w13_a_nova_group_scores_up_to_10_and_a_second_nova_adds_nothing() -> None:
    """W13: a 10-line group with a nova scores 10; a second nova in it changes nothing."""
    ten = f"{run('a5', 'j5')} j5-j6"
    one = score(board(ten, objects=((Mark.NOVA, "a5"),)), CROSS)
    two = score(board(ten, objects=((Mark.NOVA, "a5"), (Mark.NOVA, "j6"))), CROSS)
    assert one.sizes == two.sizes == (10,)
    assert one.total == two.total == 10
    assert score(board(ten), CROSS).total == 0


def test_w14_an_aura_is_worth_2() -> None:
    """W14: each aura 2 points, on top of its constellation."""
    sheet = score(board("c4-c5 c5-c6 c6-c7", objects=((Mark.AURA, "c4"),)), CROSS)
    assert (sheet.auras, sheet.power_bonus, sheet.total) == (2, 2, 5)


def test_w15_a_moon_counts_each_constellation_in_its_row_or_column_once() -> None:
    """W15: at any distance, once per constellation however many stars align; a group that
    is no constellation, or one off the row and column, adds nothing."""
    in_column = "e1-f1 f1-g1 g1-g2"  # e1: column e, far below
    in_row_twice = "a6-b6 b6-c6 c6-c7"  # a6, b6, c6 all in row 6
    off = "g8-h9 h9-i9 i9-i8"
    pair = "h6-i6 i6-j6"  # in row 6, two lines
    b = board(f"{in_column} {in_row_twice} {off} {pair}", objects=((Mark.CRESCENT_MOON, "e6"),))
    sheet = score(b, CROSS)
    assert sheet.crescent_moon == 2
    assert sheet.total == 3 + 2


def test_w16_a_black_hole_counts_its_unused_neighbours() -> None:
    """W16: 1 per neighbour that is still an unused star: not a line end, a shooting star's
    star, a planet, an object, a blank, a landscape point or a cut point. The hole's own ban
    does not make them used."""
    hole = ((Mark.BLACK_HOLE, "e5"),)
    assert score(board(objects=hole), CROSS).black_hole == 8
    crowded = board(
        "d6-c7",
        planets="e6",
        blanks="f6",
        objects=(*hole, (Mark.TWINKLING_STAR, "d5"), (Mark.GALAXY, "f4")),
        shooting=("f5-g6",),
    )
    # d6 line end, e6 planet, f6 blank, d5 twinkling star, f4 and g4 galaxy, f5 shooting
    # star: d4 and e4 are left.
    assert score(crowded, CROSS).black_hole == 2


def test_w16_at_most_8_and_never_outside_the_outline_or_on_landscape() -> None:
    """W16: a hole in a corner of the dome counts only the points that exist; landscape is
    never a star. Day rows (R4) do not matter for the count."""
    assert score(board(objects=((Mark.BLACK_HOLE, "a1"),)), CROSS).black_hole == 3
    assert score(board(objects=((Mark.BLACK_HOLE, "d11"),)), CROSS).black_hole == 4
    low = board(landscape="d1 e1", objects=((Mark.BLACK_HOLE, "e2"),))
    assert score(low, CROSS).black_hole == 6
    new_star = board(blanks="f6", objects=((Mark.BLACK_HOLE, "e5"),)).changed(
        new_stars=frozenset({point("f6")})
    )
    assert score(new_star, CROSS).black_hole == 8


# -- properties -------------------------------------------------------------------------------

ALL_LINES = sorted(sky.line(a, b) for a in sky.OUTLINE for b in sky.neighbours(a) if a < b)
relaxed = settings(deadline=None, max_examples=60)


def small_block_lines(width: int, height: int) -> list[Line]:
    block = {(c, r) for c in range(width) for r in range(1, height + 1)}
    return [ln for ln in ALL_LINES if ln[0] in block and ln[1] in block]


BLOCK = small_block_lines(4, 4)  # dense enough that copies often overlap
CARDS = (CROSS, SALTIRE, DIAMOND, BRANCH, TALL_CROSS)


@st.composite
def boards(draw: st.DrawFn) -> StarBoard:
    lines = draw(st.lists(st.sampled_from(ALL_LINES), max_size=45, unique=True))
    points = sorted(sky.OUTLINE)
    objects = draw(
        st.lists(
            st.builds(Placed, st.sampled_from(list(Mark)), st.sampled_from(points)), max_size=6
        )
    )
    planets = draw(st.frozensets(st.sampled_from(points), max_size=3))
    design = Design(id="p", name="Property board", planets=planets)
    return StarBoard(design=design, drawn=frozenset(lines), objects=tuple(objects))


@relaxed
@given(boards(), st.sampled_from(CARDS), st.randoms(use_true_random=False))
def test_e2_the_score_does_not_depend_on_the_order_lines_were_added(
    b: StarBoard, card: sky.Shape, rng: random.Random
) -> None:
    """E2, C4, P3: a board built line by line in any order scores the same."""
    shuffled = sorted(b.drawn)
    rng.shuffle(shuffled)
    built = b.changed(drawn=frozenset())
    for ln in shuffled:
        built = built.changed(drawn=built.drawn | {ln})
    assert score(built, card) == score(b, card)


@relaxed
@given(boards(), st.sampled_from(CARDS))
def test_e2_total_is_the_sum_of_the_parts_and_constellations_stay_within_52(
    b: StarBoard, card: sky.Shape
) -> None:
    """E2, C5, E5: total = the five parts; the power bonus is its five parts; constellation
    points never pass 52, nor 33 without a nova."""
    sheet = score(b, card)
    assert sheet.total == parts(sheet)
    power = (sheet.galaxies, sheet.twinkling_stars, sheet.auras, sheet.crescent_moon)
    assert sheet.power_bonus == sum(power) + sheet.black_hole
    assert sheet.constellations == sum(sheet.sizes) <= 52
    if not b.points_with(Mark.NOVA):
        assert sheet.constellations <= 33
    assert sheet.point_bonus == sheet.point_copies * sheet.point_value


def brute_force(copies: list[sky.Shape]) -> int:
    for k in range(len(copies), 0, -1):
        for chosen in itertools.combinations(copies, k):
            if all(not (a & b) for a, b in itertools.combinations(chosen, 2)):
                return k
    return 0


@settings(deadline=None, max_examples=150)
@given(
    st.lists(st.sampled_from(BLOCK), min_size=4, max_size=42, unique=True),
    st.sampled_from((*CARDS, S("a1-a2 a1-b1"), S("a1-a2 a2-b3 b3-c3"))),
)
def test_p3_most_disjoint_copies_is_the_exact_maximum(lines: list[Line], card: sky.Shape) -> None:
    """P3: never more than the copies found, and the same as trying every choice."""
    found = sorted(sky.copies(lines, card), key=sorted)
    best = most_disjoint_copies(lines, card)
    assert best <= len(found)
    if len(found) <= 14:
        assert best == brute_force(found)
