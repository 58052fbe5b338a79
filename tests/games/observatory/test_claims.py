"""Constellations placed and claimed (figures.py): patterns turned and moved but never mirrored,
the lines carried by the rotation, touching in integer geometry, and claims checked in the
order C2 decides (C1-C8, C10, M4, and the page's worked example 2)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.observatory.rules.deck import CARDS
from games.observatory.rules.figures import (
    FLIPPED,
    Figure,
    Segment,
    claim_refused,
    claimable,
    flipped,
    lines_meet,
    on_line,
    place,
    placements_on,
    touches,
    unused,
)
from games.observatory.rules.sheet_data import SPACES, Space

relaxed = settings(deadline=None, max_examples=80)

SAGITTA, CANES_VENATICI, LACERTA = CARDS["S03"], CARDS["S10"], CARDS["S05"]
SEXTANS, ARIES, ORION = CARDS["S15"], CARDS["S01"], CARDS["L01"]
WHOLE_MAP = frozenset(SPACES)


@dataclass(frozen=True)
class Shape:
    """A pattern built in a test (anything with an id, a name, stars and lines places)."""

    id: str
    name: str
    stars: tuple[tuple[int, int], ...]
    lines: tuple[tuple[int, int], ...]


def spaces(*points: Space) -> frozenset[Space]:
    return frozenset(points)


def segment(a: Space, b: Space) -> Segment:
    return (a, b) if a <= b else (b, a)


def figure(*lines: Segment, card: str = "X", stars: Iterable[Space] = ()) -> Figure:
    """A figure drawn by hand: its lines, and its stars (the lines' ends and any others)."""
    ends = {p for line in lines for p in line} | set(stars)
    return Figure(card, tuple(sorted(ends)), tuple(sorted(segment(*ln) for ln in lines)))


def normal(points: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    pts = list(points)
    top, left = min(r for r, _ in pts), min(c for _, c in pts)
    return frozenset((r - top, c - left) for r, c in pts)


def turned(points: Iterable[tuple[int, int]], quarters: int) -> list[tuple[int, int]]:
    """Quarter turns the other way round from figures.py's (the four turns are the same)."""
    pts = list(points)
    for _ in range(quarters % 4):
        pts = [(-c, r) for r, c in pts]
    return pts


def mirrored(points: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(-r, c) for r, c in points]  # top and bottom swapped: also a mirror image


def is_chiral(stars: Iterable[tuple[int, int]]) -> bool:
    pts = list(stars)
    return normal(mirrored(pts)) not in {normal(turned(pts, q)) for q in range(4)}


def moved_onto_map(points: list[tuple[int, int]], dr: int, dc: int) -> list[Space]:
    top, left = min(r for r, _ in points), min(c for _, c in points)
    return [(r - top + dr, c - left + dc) for r, c in points]


# -- worked example 2: a claim accepted, and claims refused -----------------------------------

EXAMPLE_STARS = spaces(
    (2, 3), (3, 2), (4, 2),  # Sagitta, completed
    (2, 2), (3, 3), (4, 3), (2, 4), (3, 5), (4, 5), (6, 6), (6, 7), (8, 6),
)  # fmt: skip


def sagitta_on_the_example() -> Figure:
    completed = place(SAGITTA, spaces((2, 3), (3, 2), (4, 2)))
    assert completed is not None
    return completed


def test_worked_example_2_sagitta_is_drawn_with_its_two_lines() -> None:
    """Worked example 2, C6: Sagitta (S03) on (2,3), (3,2), (4,2) has the lines
    (2,3)-(3,2) and (2,3)-(4,2)."""
    assert sagitta_on_the_example() == Figure(
        "S03", ((2, 3), (3, 2), (4, 2)), (((2, 3), (3, 2)), ((2, 3), (4, 2)))
    )


def test_worked_example_2_canes_venatici_crossing_between_grid_points_is_refused() -> None:
    """Worked example 2, C5: Canes Venatici (S10) on {(2,2), (3,3), (4,3)} fits unturned
    with lines (2,2)-(4,3) and (3,3)-(4,3), and is refused by rule C: (2,2)-(4,3) crosses
    Sagitta's (2,3)-(3,2) at (2 2/3, 2 1/3), between grid points."""
    claim = spaces((2, 2), (3, 3), (4, 3))
    assert place(CANES_VENATICI, claim) == Figure(
        "S10", ((2, 2), (3, 3), (4, 3)), (((2, 2), (4, 3)), ((3, 3), (4, 3)))
    )
    assert (
        claim_refused(CANES_VENATICI, claim, EXAMPLE_STARS, [sagitta_on_the_example()])
        == "It would touch Sagitta: its line (2,2)-(4,3) crosses (2,3)-(3,2)."
    )


def test_worked_example_2_canes_venatici_one_space_right_is_accepted() -> None:
    """Worked example 2, C5: on {(2,4), (3,5), (4,5)}, lines (2,4)-(4,5) and (3,5)-(4,5);
    its star (2,4) is the right-hand neighbour of Sagitta's (2,3), which is not touching."""
    assert claim_refused(
        CANES_VENATICI, spaces((2, 4), (3, 5), (4, 5)), EXAMPLE_STARS, [sagitta_on_the_example()]
    ) == Figure("S10", ((2, 4), (3, 5), (4, 5)), (((2, 4), (4, 5)), ((3, 5), (4, 5))))


def test_worked_example_2_lacerta_flipped_is_refused_by_rule_b() -> None:
    """Worked example 2, C4: Lacerta's four rotations are the offsets given on the page;
    {(6,6), (6,7), (8,6)} is {(0,0), (0,1), (2,0)}, Lacerta flipped left to right."""
    rotations = {
        frozenset({(0, 0), (0, 1), (2, 1)}),
        frozenset({(0, 2), (1, 0), (1, 2)}),
        frozenset({(0, 0), (2, 0), (2, 1)}),
        frozenset({(0, 0), (0, 2), (1, 0)}),
    }
    for offsets in rotations:
        assert place(LACERTA, frozenset((r + 6, c + 6) for r, c in offsets)) is not None
    claim = spaces((6, 6), (6, 7), (8, 6))
    assert normal(claim) == {(0, 0), (0, 1), (2, 0)} and normal(claim) not in rotations
    assert place(LACERTA, claim) is None and flipped(LACERTA, claim)
    assert claim_refused(LACERTA, claim, EXAMPLE_STARS, [sagitta_on_the_example()]) == FLIPPED


# -- C1: a pattern is its stars and lines ------------------------------------------------------


def test_c1_a_pattern_is_only_its_stars_the_spaces_around_do_not_matter() -> None:
    """C1: Sagitta is found among stars packed all around it, and on a map with nothing
    else; the empty spaces of its box are no part of it."""
    exact = spaces((5, 6), (6, 5), (7, 5))
    crowded = exact | {(5, 5), (6, 6), (7, 6), (4, 5), (8, 5), (6, 4)}
    assert place(SAGITTA, exact) is not None
    assert any(f.stars == tuple(sorted(exact)) for f in placements_on(SAGITTA, crowded))
    assert place(SAGITTA, crowded) is None  # a claim names exactly the pattern's stars


def test_c1_the_figure_holds_the_card_lines_and_no_others() -> None:
    """C1, C6: Orion (L01: A(0,0) B(0,1) C(0,3) D(1,1) E(1,2), lines A-B, B-D, C-D, C-E)
    placed unturned at (3, 4) has exactly its card's four lines."""
    at = frozenset((r + 3, c + 4) for r, c in ORION.stars)
    placed = place(ORION, at)
    assert placed is not None
    assert placed.lines == (((3, 4), (3, 5)), ((3, 5), (4, 5)), ((3, 7), (4, 5)), ((3, 7), (4, 6)))


# -- C2: a claim, checked in order ------------------------------------------------------------


def test_c2_2_a_claim_must_name_as_many_spaces_as_the_card_has_stars() -> None:
    """C2.2: two spaces for Sagitta's three stars are refused, and so are four."""
    assert (
        claim_refused(SAGITTA, spaces((2, 3), (3, 2)), EXAMPLE_STARS, [])
        == "Sagitta has 3 stars, not 2."
    )
    assert (
        claim_refused(SAGITTA, spaces((2, 3), (3, 2), (4, 2), (2, 2)), EXAMPLE_STARS, [])
        == "Sagitta has 3 stars, not 4."
    )


def test_c2_2_every_space_of_a_claim_must_hold_a_star() -> None:
    """C2.2: the right shape on a space with no star is refused, naming the space."""
    assert (
        claim_refused(SAGITTA, spaces((2, 9), (3, 8), (4, 8)), spaces((2, 9), (4, 8)), [])
        == "(3, 8) holds no star."
    )


def test_c2_3_every_rotation_moved_anywhere_is_accepted() -> None:
    """C2.3: Sagitta turned by 0, 90, 180 and 270 degrees and moved is accepted each time."""
    for quarters in range(4):
        claim = frozenset(moved_onto_map(turned(SAGITTA.stars, quarters), 7, 9))
        assert isinstance(claim_refused(SAGITTA, claim, claim, []), Figure)


def test_c2_3_stars_that_are_not_the_pattern_are_refused() -> None:
    """C2.3: three stars in a row are no Sagitta, and no mirror image of it either."""
    claim = spaces((5, 5), (5, 6), (5, 7))
    assert place(SAGITTA, claim) is None and not flipped(SAGITTA, claim)
    assert (
        claim_refused(SAGITTA, claim, claim, [])
        == "These stars are not Sagitta: its pattern, turned and moved, must fit exactly."
    )


def test_c2_the_first_check_that_fails_is_the_reason() -> None:
    """C2: the order is C2.2, C2.3 (C4), C3, C5. A flipped Lacerta with a missing star is
    reported as the missing star; a flipped Lacerta on a Sagitta star as flipped; a Canes
    Venatici sharing Sagitta's star (3,2) and so touching it too (C5.3) as the shared star."""
    sagitta = sagitta_on_the_example()
    flipped_lacerta = spaces((2, 3), (2, 4), (4, 3))
    assert claim_refused(LACERTA, flipped_lacerta, spaces((2, 3), (2, 4)), [sagitta]) == (
        "(4, 3) holds no star."
    )
    everything = flipped_lacerta | EXAMPLE_STARS | {(5, 3)}
    assert claim_refused(LACERTA, flipped_lacerta, everything, [sagitta]) == FLIPPED
    sharing = spaces((3, 2), (4, 3), (5, 3))
    assert place(CANES_VENATICI, sharing) is not None
    assert claim_refused(CANES_VENATICI, sharing, everything, [sagitta]) == (
        "(3, 2) is already a star of Sagitta."
    )


# -- C3: rule A -------------------------------------------------------------------------------


def test_c3_rule_a_a_claim_may_not_use_a_star_of_an_earlier_constellation() -> None:
    """C3: Sagitta on (3,3), (4,2), (5,2) shares (4,2) with the completed Sagitta and is
    refused by rule A, naming the star and the constellation."""
    sagitta = sagitta_on_the_example()
    claim = spaces((3, 3), (4, 2), (5, 2))
    assert place(SAGITTA, claim) is not None
    assert claim_refused(SAGITTA, claim, EXAMPLE_STARS | claim, [sagitta]) == (
        "(4, 2) is already a star of Sagitta."
    )


def test_c3_rule_a_is_checked_against_every_constellation_before_rule_c() -> None:
    """C3 before C5: a claim touching the first constellation and sharing a star with the
    second is refused for the shared star."""
    first = sagitta_on_the_example()
    second = place(LACERTA, spaces((4, 3), (4, 4), (6, 4)))
    assert second is not None and not touches(first, second)
    canes = spaces((2, 2), (3, 3), (4, 3))  # crosses Sagitta (worked example 2)
    stars = EXAMPLE_STARS | set(second.stars)
    alone = claim_refused(CANES_VENATICI, canes, stars, [first])
    assert isinstance(alone, str) and alone.startswith("It would touch Sagitta")
    assert claim_refused(CANES_VENATICI, canes, stars, [first, second]) == (
        "(4, 3) is already a star of Lacerta."
    )


# -- C4: rule B -------------------------------------------------------------------------------


def test_c4_rule_b_a_mirror_image_of_a_chiral_pattern_is_flipped() -> None:
    """C4: Sagitta's mirror images, in every rotation, are refused as flipped."""
    assert is_chiral(SAGITTA.stars)
    for quarters in range(4):
        claim = frozenset(moved_onto_map(turned(mirrored(SAGITTA.stars), quarters), 6, 6))
        assert place(SAGITTA, claim) is None and flipped(SAGITTA, claim)
        assert claim_refused(SAGITTA, claim, claim, []) == FLIPPED


def test_c4_a_pattern_equal_to_its_mirror_image_is_placed_with_the_card_lines() -> None:
    """C4, C6: Sextans (S15: A(0,0) B(0,2) C(2,1), lines A-B and A-C) is its own mirror
    image. Its mirror image is placed, and the lines drawn are the card's (from (0,0)), not
    the mirrored lines (from (0,2))."""
    assert not is_chiral(SEXTANS.stars)
    claim = spaces((5, 5), (5, 7), (7, 6))
    assert not flipped(SEXTANS, claim)
    assert claim_refused(SEXTANS, claim, claim, []) == Figure(
        "S15", ((5, 5), (5, 7), (7, 6)), (((5, 5), (5, 7)), ((5, 5), (7, 6)))
    )


# -- C5: rule C, case by case -----------------------------------------------------------------


def test_c5_stars_in_neighbouring_spaces_do_not_touch() -> None:
    """C5: a star beside, above or diagonally next to a star of the other does not touch;
    nor does a line's end star next to the end of the other's line, straight or diagonal."""
    one = figure(stars=[(5, 5)])
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) != (0, 0):
                assert not touches(one, figure(stars=[(5 + dr, 5 + dc)])), (dr, dc)
    assert not touches(figure(((5, 5), (5, 6))), figure(((5, 7), (5, 9))))
    assert not touches(figure(((5, 5), (6, 6))), figure(((7, 7), (8, 8))))


def test_c5_parallel_lines_one_space_apart_do_not_touch() -> None:
    """C5: (5,5)-(5,8) and (6,5)-(6,8); (5,5)-(7,7) and (5,6)-(7,8) (diagonals one apart)."""
    assert not touches(figure(((5, 5), (5, 8))), figure(((6, 5), (6, 8))))
    assert not touches(figure(((5, 5), (7, 7))), figure(((5, 6), (7, 8))))
    assert not lines_meet(((5, 5), (7, 7)), ((5, 6), (7, 8)))


def test_c5_the_two_diagonals_of_one_block_touch() -> None:
    """C5.2: (3,3)-(4,4) and (3,4)-(4,3) form an X and touch at (3½, 3½)."""
    assert touches(figure(((3, 3), (4, 4))), figure(((3, 4), (4, 3))))


def test_c5_a_crossing_between_grid_points_of_long_lines_touches() -> None:
    """C5.2: a knight's-move line crossing a diagonal off the grid points touches."""
    assert lines_meet(((2, 2), (4, 3)), ((2, 3), (3, 2)))
    assert touches(figure(((2, 2), (4, 3))), figure(((2, 3), (3, 2))))


def test_c5_collinear_lines_overlapping_along_a_stretch_touch() -> None:
    """C5.2: (5,2)-(5,4) and (5,3)-(5,5) overlap on (5,3)-(5,4)."""
    assert lines_meet(((5, 2), (5, 4)), ((5, 3), (5, 5)))
    assert touches(figure(((5, 2), (5, 4))), figure(((5, 3), (5, 5))))


def test_c5_collinear_lines_with_a_gap_do_not_touch() -> None:
    """C5.2: (5,2)-(5,4) and (5,5)-(5,7) lie on one line with a space between."""
    assert not lines_meet(((5, 2), (5, 4)), ((5, 5), (5, 7)))
    assert not touches(figure(((5, 2), (5, 4))), figure(((5, 5), (5, 7))))


def test_c5_lines_meeting_end_to_end_touch() -> None:
    """C5.2: two lines meeting at an end touch (the shared end is also a shared star,
    C5.3), and so does a line ending in the middle of another, at a grid point or not."""
    assert lines_meet(((5, 2), (5, 4)), ((5, 4), (7, 5)))
    assert touches(figure(((5, 2), (5, 4))), figure(((5, 4), (7, 5))))
    assert lines_meet(((5, 2), (5, 4)), ((5, 3), (7, 4)))  # T at a grid point


def test_c5_1_a_star_on_a_line_of_the_other_touches_ends_included() -> None:
    """C5.1: (5,3) lies on (5,2)-(5,4); (6,4) lies on the diagonal (5,3)-(7,5); a star
    beyond the end of a collinear line does not lie on it."""
    assert on_line((5, 3), ((5, 2), (5, 4))) and on_line((5, 4), ((5, 2), (5, 4)))
    assert on_line((6, 4), ((5, 3), (7, 5)))
    assert not on_line((5, 5), ((5, 2), (5, 4))) and not on_line((6, 3), ((5, 2), (7, 3)))
    lone = figure(stars=[(5, 3)], card="lone")
    assert touches(lone, figure(((5, 2), (5, 4))))
    assert not touches(figure(stars=[(5, 5)], card="lone"), figure(((5, 2), (5, 4))))


def test_c5_1_a_claim_with_a_star_on_an_earlier_line_is_refused() -> None:
    """C5.1, C7: a Lacerta whose star is the middle of a length-2 line of an earlier Lacerta
    is refused by rule C, naming the star and the line."""
    earlier = place(LACERTA, spaces((2, 2), (2, 3), (4, 3)))  # line (2,3)-(4,3)
    assert earlier is not None and ((2, 3), (4, 3)) in earlier.lines
    claim = spaces((3, 3), (3, 4), (5, 4))  # (3,3) lies on (2,3)-(4,3)
    assert claim_refused(LACERTA, claim, claim | set(earlier.stars), [earlier]) == (
        "It would touch Lacerta: its star (3, 3) lies on (2,3)-(4,3)."
    )


def test_c5_1_an_earlier_star_on_a_line_of_the_claim_is_refused() -> None:
    """C5.1 the other way round: Lacerta's line (5,5)-(7,5) would pass through the star
    (6,5) of an earlier Sagitta; none of Lacerta's own stars lies on a Sagitta line."""
    earlier = place(SAGITTA, spaces((6, 5), (6, 6), (7, 7)))
    assert earlier is not None
    claim = spaces((5, 4), (5, 5), (7, 5))
    assert claim_refused(LACERTA, claim, claim | set(earlier.stars), [earlier]) == (
        "It would touch Sagitta: its line (5,5)-(7,5) passes through Sagitta's star (6, 5)."
    )


def test_c5_3_a_shared_star_touches() -> None:
    """C5.3: two figures with one star in common touch (a claim reports it as rule A)."""
    assert touches(figure(((1, 1), (1, 2))), figure(((1, 2), (3, 3))))


def test_c5_far_apart_figures_do_not_touch() -> None:
    """C5: constellations in different corners of the map do not touch."""
    a = place(ORION, frozenset((r + 1, c + 1) for r, c in ORION.stars))
    b = place(ORION, frozenset((r + 10, c + 8) for r, c in ORION.stars))
    assert a is not None and b is not None and not touches(a, b)


# -- C6: the lines are carried by the rotation ------------------------------------------------


def test_c6_the_lines_turn_with_the_stars() -> None:
    """C6: Sagitta turned a quarter, {(0,0),(0,1),(1,2)} moved to (5,5), is drawn with the
    card's lines A-B and A-C where A, B, C went: (6,7)-(5,6) and (6,7)-(5,5)."""
    claim = spaces((5, 5), (5, 6), (6, 7))
    assert place(SAGITTA, claim) == Figure(
        "S03", ((5, 5), (5, 6), (6, 7)), (((5, 5), (6, 7)), ((5, 6), (6, 7)))
    )


# -- C7, C8: unused stars, used stars ---------------------------------------------------------


def test_c7_a_star_lying_on_a_line_stays_unused() -> None:
    """C7, E4: Lacerta's line (2,3)-(4,3) passes (3,3); the star there is no star of the
    constellation, so it stays unused (and, by C5, can never be claimed)."""
    lacerta = place(LACERTA, spaces((2, 2), (2, 3), (4, 3)))
    assert lacerta is not None
    stars = spaces((2, 2), (2, 3), (4, 3), (3, 3), (9, 9))
    assert unused(stars, [lacerta]) == {(3, 3), (9, 9)}
    assert all((3, 3) not in f.stars for f in claimable(SAGITTA, stars, [lacerta]))


def test_c8_stars_of_a_completed_constellation_are_used() -> None:
    """C8: the completed Sagitta's stars are used: not unused, and no placement offered by
    ``claimable`` takes one, while ``placements_on`` (geometry only) still sees them."""
    sagitta = sagitta_on_the_example()
    assert unused(EXAMPLE_STARS, [sagitta]) == EXAMPLE_STARS - set(sagitta.stars)
    assert any(f.stars == sagitta.stars for f in placements_on(SAGITTA, EXAMPLE_STARS))
    assert all(
        not set(f.stars) & set(sagitta.stars) for f in claimable(SAGITTA, EXAMPLE_STARS, [sagitta])
    )


def test_c10_claims_look_only_at_the_seat_own_map() -> None:
    """C10: a seat whose own map has no constellation claims freely, whatever other seats
    drew on the same spaces: only the seat's own figures are passed in."""
    claim = spaces((2, 2), (3, 3), (4, 3))
    assert isinstance(claim_refused(CANES_VENATICI, claim, EXAMPLE_STARS, []), Figure)


# -- placements: options and the robot --------------------------------------------------------


def test_placements_on_the_full_map_count_every_rotation_and_move() -> None:
    """U9: Sagitta (3 x 2 in two rotations, 2 x 3 in the other two) fits 4 x 10 x 11 = 440
    times on a full map; Triangulum (three in a row, two distinct rotations) 2 x 12 x 10
    times, each placement once although four turns find it."""
    assert len(placements_on(SAGITTA, WHOLE_MAP)) == 440
    triangulum = CARDS["S02"]  # three in a row: two distinct rotations
    assert len(placements_on(triangulum, WHOLE_MAP)) == 2 * 12 * 10
    assert len({f.stars for f in placements_on(triangulum, WHOLE_MAP)}) == 240


def test_claimable_is_exactly_the_placements_a_claim_accepts() -> None:
    """C2-C5, U9: on the worked example's map, ``claimable`` lists exactly the placements
    that ``claim_refused`` accepts."""
    sagitta = sagitta_on_the_example()
    for card in CARDS.values():
        accepted = [
            f
            for f in placements_on(card, EXAMPLE_STARS)
            if isinstance(claim_refused(card, frozenset(f.stars), EXAMPLE_STARS, [sagitta]), Figure)
        ]
        assert claimable(card, EXAMPLE_STARS, [sagitta]) == accepted, card.id
    canes = claimable(CANES_VENATICI, EXAMPLE_STARS, [sagitta])
    assert [f.stars for f in canes] == [((2, 4), (3, 5), (4, 5))]


# -- properties -------------------------------------------------------------------------------

cards = st.sampled_from(sorted(CARDS))
chiral_cards = st.sampled_from(sorted(i for i, c in CARDS.items() if is_chiral(c.stars)))
quarters = st.integers(min_value=0, max_value=3)


def on_the_map(data: st.DataObject, points: list[tuple[int, int]]) -> list[Space]:
    shape = normal(points)
    height = max(r for r, _ in shape) + 1
    width = max(c for _, c in shape) + 1
    dr = data.draw(st.integers(min_value=1, max_value=13 - height))
    dc = data.draw(st.integers(min_value=1, max_value=13 - width))
    return moved_onto_map(points, dr, dc)


@relaxed
@given(card_id=cards, quarter=quarters, data=st.data())
def test_c2_3_c6_place_finds_any_rotation_moved_with_its_lines_turned(
    card_id: str, quarter: int, data: st.DataObject
) -> None:
    """C2.3, C6: the card's stars turned and moved anywhere on the map are placed, and the
    figure's lines are the card's lines turned and moved the same way."""
    card = CARDS[card_id]
    at = on_the_map(data, turned(card.stars, quarter))
    placed = place(card, frozenset(at))
    assert placed is not None and placed.card == card.id
    assert set(placed.stars) == set(at)
    assert set(placed.lines) == {tuple(sorted((at[i], at[j]))) for i, j in card.lines}
    assert placed in placements_on(card, frozenset(at))


@relaxed
@given(card_id=chiral_cards, quarter=quarters, data=st.data())
def test_c4_a_mirrored_chiral_pattern_is_flipped_and_never_placed(
    card_id: str, quarter: int, data: st.DataObject
) -> None:
    """C4: a chiral card's mirror image, turned and moved anywhere, is never placed, is
    reported flipped, and is never among the placements of the card."""
    card = CARDS[card_id]
    at = frozenset(on_the_map(data, turned(mirrored(card.stars), quarter)))
    assert place(card, at) is None and flipped(card, at)
    assert claim_refused(card, at, at, []) == FLIPPED
    assert placements_on(card, at) == []


@relaxed
@given(card_id=cards, stars=st.frozensets(st.sampled_from(SPACES), max_size=50))
def test_placements_on_finds_exactly_the_placed_subsets(
    card_id: str, stars: frozenset[Space]
) -> None:
    """U9: every placement listed is a placement of exactly its stars, all among ``stars``;
    and every subset of the right size that ``place`` accepts is listed (checked on the
    small star sets where trying every subset is cheap)."""
    card = CARDS[card_id]
    found = placements_on(card, stars)
    for f in found:
        assert set(f.stars) <= stars and place(card, frozenset(f.stars)) == f
    if len(stars) <= 12:
        subsets = [frozenset(s) for s in combinations(sorted(stars), len(card.stars))]
        expected = {p.stars for s in subsets if (p := place(card, s)) is not None}
        assert {f.stars for f in found} == expected and len(found) == len(expected)


# -- integer geometry against a Fraction reference --------------------------------------------

small = st.tuples(st.integers(min_value=1, max_value=6), st.integers(min_value=1, max_value=6))
segments = st.tuples(small, small).filter(lambda s: s[0] != s[1])


def cross(a: tuple[int, int], b: tuple[int, int]) -> int:
    return a[0] * b[1] - a[1] * b[0]


def minus(a: Space, b: Space) -> tuple[int, int]:
    return (a[0] - b[0], a[1] - b[1])


def reference_on_line(p: Space, line: Segment) -> bool:
    """The point is ``a + t (b - a)`` for one ``t`` in [0, 1], solved in fractions."""
    a, b = line
    d, e = minus(b, a), minus(p, a)
    if cross(d, e) != 0:
        return False
    t = Fraction(d[0] * e[0] + d[1] * e[1], d[0] * d[0] + d[1] * d[1])
    return 0 <= t <= 1


def reference_meet(one: Segment, two: Segment) -> bool:
    """``p + t r = q + u s`` solved in fractions; parallel lines compared by projection."""
    p, q = one[0], two[0]
    r, s = minus(one[1], p), minus(two[1], q)
    qp = minus(q, p)
    denominator = cross(r, s)
    if denominator != 0:
        t = Fraction(cross(qp, s), denominator)
        u = Fraction(cross(qp, r), denominator)
        return 0 <= t <= 1 and 0 <= u <= 1
    if cross(qp, r) != 0:
        return False  # parallel, apart
    rr = r[0] * r[0] + r[1] * r[1]
    t0 = Fraction(qp[0] * r[0] + qp[1] * r[1], rr)
    t1 = t0 + Fraction(s[0] * r[0] + s[1] * r[1], rr)
    return max(t0, t1) >= 0 and min(t0, t1) <= 1


def reference_touches(a: Figure, b: Figure) -> bool:
    return (
        bool(set(a.stars) & set(b.stars))
        or any(reference_on_line(p, ln) for p in a.stars for ln in b.lines)
        or any(reference_on_line(p, ln) for p in b.stars for ln in a.lines)
        or any(reference_meet(x, y) for x in a.lines for y in b.lines)
    )


figures = st.lists(segments, min_size=1, max_size=3).map(lambda lines: figure(*lines))


@settings(deadline=None, max_examples=400)
@given(one=segments, two=segments, p=small)
def test_m4_c5_integer_geometry_agrees_with_fractions(one: Segment, two: Segment, p: Space) -> None:
    """M4, C5: the orientation tests agree with solving the crossing exactly in fractions,
    for lines of every direction and length on a small grid (many touch, cross or overlap)."""
    assert lines_meet(one, two) == reference_meet(one, two) == lines_meet(two, one)
    assert on_line(p, one) == reference_on_line(p, one)


@relaxed
@given(a=figures, b=figures)
def test_c5_touches_is_symmetric_and_agrees_with_fractions(a: Figure, b: Figure) -> None:
    """C5: touching is symmetric and is exactly the Fraction reference's answer."""
    assert touches(a, b) == touches(b, a) == reference_touches(a, b)


@relaxed
@given(card_id=cards, quarter=quarters, data=st.data())
def test_c5_a_figure_touches_itself(card_id: str, quarter: int, data: st.DataObject) -> None:
    """C5: any placed figure touches itself (every star is shared)."""
    card = CARDS[card_id]
    placed = place(card, frozenset(on_the_map(data, turned(card.stars, quarter))))
    assert placed is not None and touches(placed, placed)


@pytest.mark.parametrize("card_id", ["S03", "S15", "L01", "A09"])
def test_c4_flipped_is_false_for_a_placed_pattern(card_id: str) -> None:
    """C4: a set a rotation fits is never reported flipped, whether the card is chiral
    (Sagitta, Orion, Coathanger) or its own mirror image (Sextans)."""
    card = CARDS[card_id]
    at = frozenset((r + 2, c + 2) for r, c in card.stars)
    assert place(card, at) is not None and not flipped(card, at)
