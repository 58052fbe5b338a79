"""The designed deck of Observatory (deck.json, read by deck.py) is sound: every constraint of
X3 proved on the file, X4's difficulty and X2's points recomputed here independently, the
bonuses of B1 and the counts of G1, the cards the worked examples name, and the checking
function refusing bad data with a clear message.

The geometry here is exact integer arithmetic (M4: a star is the point at its space's centre,
a line the segment between two such points) and is written in this file on purpose, apart
from ``figures.py``, so the deck is checked by code that did not build it."""

from __future__ import annotations

import copy
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.observatory.rules import deck
from games.observatory.rules.deck import (
    ASTERISMS,
    CARDS,
    LARGE,
    SMALL,
    Bonus,
    BonusKind,
    Card,
    check_deck,
    difficulty_of,
    mirrored,
    points_for,
    rotations,
)
from games.observatory.rules.sheet_data import SPACES, sector_of

Point = tuple[int, int]
Segment = tuple[Point, Point]
SHARED = Path("/work/shared/observatory/deck.json")
RAW = json.loads(deck.DATA.read_text(encoding="utf-8"))
FEW = settings(max_examples=60, deadline=None)

# -- X3.7 as the page lists it -------------------------------------------------------------------

SAME_STAR_SETS = {
    frozenset(group.split())
    for group in (
        "L09 L10",
        "S01 A01",
        "S03 S10 A04",
        "S04 S05 A02",
        "S06 S07",
        "S18 S19",
        "S21 S28",
        "S23 A08",
        "S27 S29",
        "S33 S36",
        "S37 A13",
    )
}

# -- exact integer geometry (M4) -----------------------------------------------------------------


def cross(o: Point, a: Point, b: Point) -> int:
    """The cross product of ``a - o`` and ``b - o``: 0 when the three points are collinear."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def on_segment(p: Point, segment: Segment) -> bool:
    """M4, C5.1: ``p`` lies on the segment, ends included (collinear and in its box)."""
    a, b = segment
    return (
        cross(a, b, p) == 0
        and min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])
    )


def sign(n: int) -> int:
    return (n > 0) - (n < 0)


def segments_meet(s: Segment, t: Segment) -> bool:
    """M4, C5.2: the two segments have a point in common (crossing, even between grid
    points, touching at an end, or overlapping)."""
    (a, b), (c, d) = s, t
    d1, d2 = sign(cross(c, d, a)), sign(cross(c, d, b))
    d3, d4 = sign(cross(a, b, c)), sign(cross(a, b, d))
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return on_segment(a, t) or on_segment(b, t) or on_segment(c, s) or on_segment(d, s)


def segments(stars: Iterable[Point], lines: Iterable[tuple[int, int]]) -> list[Segment]:
    points = list(stars)
    return [(points[i], points[j]) for i, j in lines]


# The eight ways to turn and flip a pattern, written apart from deck.py's: the rotations turn
# the other way round (counter-clockwise), which makes no difference to the set of four.
TURNS: tuple[Callable[[Point], Point], ...] = (
    lambda p: (p[0], p[1]),
    lambda p: (-p[1], p[0]),
    lambda p: (-p[0], -p[1]),
    lambda p: (p[1], -p[0]),
)


def flipped_then(turn: Callable[[Point], Point]) -> Callable[[Point], Point]:
    """Mirror left to right, then ``turn``."""
    return lambda p: turn((p[0], -p[1]))


FLIPS: tuple[Callable[[Point], Point], ...] = tuple(flipped_then(turn) for turn in TURNS)


def moved_home(points: list[Point]) -> list[Point]:
    top = min(r for r, _ in points)
    left = min(c for _, c in points)
    return [(r - top, c - left) for r, c in points]


def star_set(card: Card, how: Callable[[Point], Point]) -> frozenset[Point]:
    return frozenset(moved_home([how(p) for p in card.stars]))


def drawn(
    card: Card, how: Callable[[Point], Point]
) -> tuple[frozenset[Point], frozenset[frozenset[Point]]]:
    """The pattern turned or flipped by ``how`` and moved home: its stars and its lines as
    sets of points (C1: a pattern is its stars and its lines, nothing else)."""
    points = moved_home([how(p) for p in card.stars])
    return frozenset(points), frozenset(
        frozenset(segment) for segment in segments(points, card.lines)
    )


def canonical(card: Card) -> str:
    """One name for a pattern and all its rotations and mirror images, stars and lines."""
    return min(
        repr((sorted(stars), sorted(sorted(line) for line in lines)))
        for stars, lines in (drawn(card, how) for how in TURNS + FLIPS)
    )


def star_canonical(card: Card) -> str:
    return min(repr(sorted(star_set(card, how))) for how in TURNS + FLIPS)


def chiral(card: Card) -> bool:
    """C4, X3.10: the mirror image of its stars is none of their rotations."""
    return star_set(card, FLIPS[0]) not in {star_set(card, turn) for turn in TURNS}


def measured_difficulty(card: Card) -> int:
    """X4 measured on the map itself: every rotation at every position where it fits, the
    sectors counted with sheet_data.sector_of; 3 x stars + the fewest."""
    fewest = len(card.stars)
    for turn in TURNS:
        shape = moved_home([turn(p) for p in card.stars])
        for top, left in SPACES:
            placed = [(top + r, left + c) for r, c in shape]
            if all(1 <= r <= 12 and 1 <= c <= 12 for r, c in placed):
                fewest = min(fewest, len({sector_of(space) for space in placed}))
    return 3 * len(card.stars) + fewest


def group(ids: tuple[str, ...]) -> list[Card]:
    return [CARDS[card_id] for card_id in ids]


NON_ASTERISM_SMALL = tuple(card_id for card_id in SMALL if not CARDS[card_id].asterism)
GROUPS = {"L": group(LARGE), "S": group(NON_ASTERISM_SMALL), "A": group(ASTERISMS)}
ALL = list(CARDS.values())


def test_m4_stars_are_points_and_lines_segments_in_integer_arithmetic() -> None:
    """M4: a star is the point (r, c) and a line the segment between two; a line of length 2
    passes the space between its ends; the two diagonals of a 2 x 2 block cross between grid
    points; neighbouring points and parallel lines one space apart do not meet."""
    assert on_segment((1, 1), ((0, 0), (2, 2)))
    assert on_segment((0, 1), ((0, 0), (0, 2)))
    assert not on_segment((1, 2), ((0, 0), (2, 2)))
    assert not on_segment((3, 3), ((0, 0), (2, 2)))  # beyond the end
    assert segments_meet(((0, 0), (1, 1)), ((0, 1), (1, 0)))  # an X
    assert segments_meet(((0, 0), (0, 2)), ((0, 1), (0, 3)))  # overlapping
    assert segments_meet(((0, 0), (0, 1)), ((0, 1), (1, 1)))  # at an end
    assert not segments_meet(((0, 0), (0, 2)), ((1, 0), (1, 2)))  # parallel, one apart
    assert not segments_meet(((0, 0), (1, 1)), ((0, 2), (1, 3)))
    # worked example 2: (2,2)-(4,3) crosses (2,3)-(3,2) at (2 2/3, 2 1/3), between grid points
    assert segments_meet(((2, 2), (4, 3)), ((2, 3), (3, 2)))
    assert not segments_meet(((2, 4), (4, 5)), ((2, 3), (3, 2)))


# -- X3.1, G1: counts, ids, names, sizes -----------------------------------------------------------


def test_x3_1_g1_124_cards_65_large_44_small_15_asterisms_ids_in_order() -> None:
    """X3.1, G1: 65 Large L01-L65, 59 Small of which 15 are Asterisms (S01-S44, A01-A15)."""
    assert RAW["counts"] == {"large": 65, "small": 59, "asterisms": 15}
    assert len(RAW["cards"]) == len(CARDS) == 124
    assert tuple(f"L{n:02d}" for n in range(1, 66)) == LARGE
    assert tuple(f"S{n:02d}" for n in range(1, 45)) == NON_ASTERISM_SMALL
    assert tuple(f"A{n:02d}" for n in range(1, 16)) == ASTERISMS
    assert SMALL == NON_ASTERISM_SMALL + ASTERISMS and len(SMALL) == 59
    assert [item["id"] for item in RAW["cards"]] == list(CARDS) == [*LARGE, *SMALL]
    assert all(card.id == card_id for card_id, card in CARDS.items())


def test_x3_1_names_unique_sizes_and_star_counts() -> None:
    """X3.1: names unique; Large 5-8 stars, Small and Asterisms 3-4, Asterisms Small."""
    assert len({card.name for card in ALL}) == 124
    assert all(card.size == "large" and not card.asterism for card in GROUPS["L"])
    assert all(card.size == "small" and not card.asterism for card in GROUPS["S"])
    assert all(card.size == "small" and card.asterism for card in GROUPS["A"])
    assert {len(card.stars) for card in GROUPS["L"]} <= {5, 6, 7, 8}
    assert {len(card.stars) for card in GROUPS["S"] + GROUPS["A"]} <= {3, 4}
    assert all(len(set(card.stars)) == len(card.stars) for card in ALL)


def test_x3_the_loaded_cards_are_the_file_s_cards() -> None:
    """X3: the deck is the file: each card's stars, lines and numbers as deck.json writes them."""
    for item in RAW["cards"]:
        card = CARDS[item["id"]]
        assert [list(star) for star in card.stars] == item["stars"]
        assert [list(line) for line in card.lines] == item["lines"]
        assert (card.name, card.size, card.asterism) == (
            item["name"],
            item["size"],
            item["asterism"],
        )
        assert (card.points, card.difficulty) == (item["points"], item["difficulty"])


@pytest.mark.skipif(not SHARED.exists(), reason="the shared design folder is not here")
def test_x3_the_package_s_deck_is_the_shared_file_byte_for_byte() -> None:
    """X3: ``games/observatory/data/deck.json`` is a copy of the page's deck, unchanged."""
    assert deck.DATA.read_bytes() == SHARED.read_bytes()


# -- X3.2-X3.4: lines ------------------------------------------------------------------------------


def test_x3_2_every_line_joins_two_different_stars_and_none_twice() -> None:
    """X3.2: a line joins two different stars of its card; no line twice (either way round)."""
    for card in ALL:
        assert card.lines, card.id
        for a, b in card.lines:
            assert 0 <= a < len(card.stars) and 0 <= b < len(card.stars) and a != b, card.id
        assert len({frozenset(line) for line in card.lines}) == len(card.lines), card.id


def test_x3_3_every_pattern_is_connected_by_its_lines() -> None:
    """X3.3: from star 0, following lines reaches every star."""
    for card in ALL:
        reached, frontier = {0}, [0]
        while frontier:
            here = frontier.pop()
            for a, b in card.lines:
                for there in {a, b} - {here} if here in (a, b) else set():
                    if there not in reached:
                        reached.add(there)
                        frontier.append(there)
        assert reached == set(range(len(card.stars))), card.id


def test_x3_4_no_line_passes_through_a_star_other_than_its_ends() -> None:
    """X3.4, M4: no star of the card lies on one of its lines except the line's two ends."""
    for card in ALL:
        for i, j in card.lines:
            segment = (card.stars[i], card.stars[j])
            others = [p for k, p in enumerate(card.stars) if k not in (i, j)]
            assert not any(on_segment(p, segment) for p in others), (card.id, i, j)


def test_x3_4_two_lines_meet_only_at_a_shared_end_and_never_overlap() -> None:
    """X3.4, M4: lines with no common star never meet (not even crossing between grid
    points); lines with a common star go off in different directions (no overlap)."""
    for card in ALL:
        for first, second in combinations(card.lines, 2):
            common = set(first) & set(second)
            if not common:
                s, t = segments(card.stars, [first, second])
                assert not segments_meet(s, t), (card.id, first, second)
                continue
            (shared,) = common
            o = card.stars[shared]
            u = card.stars[next(k for k in first if k != shared)]
            v = card.stars[next(k for k in second if k != shared)]
            same_way = (
                cross(o, u, v) == 0
                and (u[0] - o[0]) * (v[0] - o[0]) + (u[1] - o[1]) * (v[1] - o[1]) > 0
            )
            assert not same_way, (card.id, first, second)


def test_x3_4_the_geometry_helpers_catch_what_x3_4_forbids() -> None:
    """X3.4: the checks above would see a star on a line, a crossing and an overlap."""
    assert on_segment((0, 1), ((0, 0), (0, 2)))
    assert segments_meet(((0, 0), (1, 1)), ((1, 0), (0, 1)))
    o, u, v = (0, 0), (0, 1), (0, 2)
    assert cross(o, u, v) == 0 and (u[1] - o[1]) * (v[1] - o[1]) > 0


# -- X3.5, X3.6: fitting and symmetry --------------------------------------------------------------


def test_x3_5_every_rotation_fits_the_map_large_in_6_by_6_small_in_4_by_4() -> None:
    """X3.5: every pattern, in each of its four rotations, lies within 6 x 6 (Large) or 4 x 4
    (Small and Asterisms), so within the 12 x 12 map."""
    for card in ALL:
        box = 6 if card.size == "large" else 4
        for turn in TURNS:
            stars = star_set(card, turn)
            assert max(r for r, _ in stars) < box and max(c for _, c in stars) < box, card.id
            assert all(0 <= r < 12 and 0 <= c < 12 for r, c in stars), card.id


def test_x3_6_a_rotation_that_keeps_the_stars_keeps_the_lines() -> None:
    """X3.6, C6: when a rotation maps a card's stars onto themselves it maps its lines onto
    themselves too, so a set of stars fixes the lines."""
    symmetric = 0
    for card in ALL:
        home = drawn(card, TURNS[0])
        for turn in TURNS[1:]:
            stars, lines = drawn(card, turn)
            if stars == home[0]:
                symmetric += 1
                assert lines == home[1], card.id
    assert symmetric > 0  # the check is not empty: some patterns are symmetric


# -- X3.7: no two cards alike -------------------------------------------------------------------


def test_x3_7_no_two_cards_are_the_same_pattern_stars_and_lines_together() -> None:
    """X3.7, C1: no two cards are the same pattern under rotation or reflection, a pattern
    being its stars and its lines."""
    names = Counter(canonical(card) for card in ALL)
    assert [name for name, n in names.items() if n > 1] == []


def test_x3_7_star_sets_repeat_in_exactly_the_page_s_eleven_groups() -> None:
    """X3.7: star sets alone repeat, up to rotation or reflection, in exactly the 11 groups
    the page lists (S01 and A01 are the same three stars with different lines)."""
    by_stars: dict[str, set[str]] = defaultdict(set)
    for card in ALL:
        by_stars[star_canonical(card)].add(card.id)
    found = {frozenset(ids) for ids in by_stars.values() if len(ids) > 1}
    assert found == SAME_STAR_SETS
    assert star_canonical(CARDS["S01"]) == star_canonical(CARDS["A01"])
    assert canonical(CARDS["S01"]) != canonical(CARDS["A01"])


def test_x3_7_the_pattern_name_tells_lines_and_turns_apart() -> None:
    """X3.7: the comparison sees lines (same stars, other lines differ) and forgives turning
    and flipping (a card turned or mirrored is still the same pattern)."""
    card = CARDS["S05"]
    other_lines = replace(card, lines=((0, 1), (0, 2)))
    assert canonical(other_lines) != canonical(card)
    for how in TURNS + FLIPS:
        points = moved_home([how(p) for p in card.stars])
        moved = replace(card, stars=tuple(points))
        assert canonical(moved) == canonical(card)


# -- X3.8, X4, X2: difficulty and points ----------------------------------------------------------


def test_x3_8_x4_difficulty_is_3_per_star_plus_the_fewest_sectors_measured_on_the_map() -> None:
    """X3.8, X4: every card's difficulty is 3 x stars + the fewest sectors it can lie in over
    all rotations and positions on the map, measured here by placing it everywhere."""
    wrong = {
        card.id: (card.difficulty, measured_difficulty(card))
        for card in ALL
        if card.difficulty != measured_difficulty(card)
    }
    assert wrong == {}
    assert all(difficulty_of(card.stars) == card.difficulty for card in ALL)


def test_x4_examples_a_domino_an_l_and_a_diagonal() -> None:
    """X4: a 2 x 2 block fits one sector; three stars in a row need 2; a 3-long diagonal 3."""
    assert difficulty_of(((0, 0), (0, 1), (1, 0))) == 9 + 1
    assert difficulty_of(((0, 0), (0, 1), (0, 2))) == 9 + 2
    assert difficulty_of(((0, 0), (1, 1), (2, 2))) == 9 + 2  # (0,0),(1,1) share a sector
    assert difficulty_of(((0, 0), (0, 2), (0, 4))) == 9 + 3


@FEW
@given(
    st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=8),
    st.integers(0, 7),
)
def test_x4_turning_or_mirroring_a_pattern_keeps_its_difficulty(
    stars: set[tuple[int, int]], how: int
) -> None:
    """X4: K is taken over the four rotations, and a mirror image gives the same K."""
    pattern = deck.normalised(tuple(sorted(stars)))
    changed = tuple(moved_home([(TURNS + FLIPS)[how](p) for p in pattern]))
    assert difficulty_of(changed) == difficulty_of(pattern)
    assert difficulty_of(mirrored(pattern)) == difficulty_of(pattern)


def test_x2_x3_8_points_are_floor_d_over_3_large_and_minus_1_small_null_asterisms() -> None:
    """X2, X3.8: Large floor(d/3), Small floor(d/3) - 1, Asterisms no points."""
    for card in ALL:
        if card.asterism:
            expected = None
        elif card.size == "large":
            expected = card.difficulty // 3
        else:
            expected = card.difficulty // 3 - 1
        assert card.points == expected == points_for(card.size, card.asterism, card.difficulty)
    assert points_for("large", False, 17) == 5 and points_for("small", False, 16) == 4
    assert points_for("small", True, 15) is None


def test_x2_small_score_2_to_4_large_5_to_10_and_points_follow_difficulty() -> None:
    """X2: every Small d <= 16 and every Large d >= 17; Small score 2-4, Large 5-10; across the
    whole deck points never go down as difficulty goes up."""
    assert max(card.difficulty for card in GROUPS["S"] + GROUPS["A"]) <= 16
    assert min(card.difficulty for card in GROUPS["L"]) >= 17
    assert {card.points for card in GROUPS["S"]} <= {2, 3, 4}
    assert {card.points for card in GROUPS["L"]} <= set(range(5, 11))
    scored = sorted((card.difficulty, card.points or 0) for card in ALL if not card.asterism)
    assert [points for _, points in scored] == sorted(points for _, points in scored)


def test_x3_8_within_l_s_and_a_ids_run_in_non_decreasing_difficulty() -> None:
    """X3.8: within each group, in id order, difficulty never goes down; the Asterisms span
    the Small range d 10-15 (Data to design)."""
    for cards in GROUPS.values():
        difficulties = [card.difficulty for card in cards]
        assert difficulties == sorted(difficulties)
    assert (GROUPS["A"][0].difficulty, GROUPS["A"][-1].difficulty) == (10, 15)


# -- X3.9, B1: bonuses -----------------------------------------------------------------------------

BONUS_COUNTS = {
    "L": {
        BonusKind.NONE: 20,
        BonusKind.FREE_STAR: 15,
        BonusKind.RESEARCH: 15,
        BonusKind.SHOOTING_STAR: 15,
    },
    "S": {
        BonusKind.NONE: 20,
        BonusKind.FREE_STAR: 8,
        BonusKind.RESEARCH: 8,
        BonusKind.SHOOTING_STAR: 8,
    },
    "A": {
        BonusKind.NONE: 6,
        BonusKind.FREE_STAR: 3,
        BonusKind.RESEARCH: 3,
        BonusKind.SHOOTING_STAR: 3,
    },
}


def test_x3_9_b1_bonus_counts_per_group() -> None:
    """X3.9, B1: Large 20 none and 15 of each kind; Small 20 none and 8 of each; Asterisms 6
    none and 3 of each (Asterisms carry bonuses too)."""
    for name, cards in GROUPS.items():
        assert Counter(card.bonus.kind for card in cards) == BONUS_COUNTS[name], name


def test_x3_9_b1_only_a_shooting_star_has_a_value_and_it_is_2_to_6() -> None:
    """X3.9, B1, D6: a Shooting Star bonus prints a value 2-6; the other kinds none."""
    for card in ALL:
        if card.bonus.kind is BonusKind.SHOOTING_STAR:
            assert card.bonus.value in range(2, 7), card.id
        else:
            assert card.bonus.value is None, card.id
    values = {card.bonus.value for card in ALL if card.bonus.kind is BonusKind.SHOOTING_STAR}
    assert values == {2, 3, 4, 5, 6}


def test_x3_9_each_bonus_kind_in_both_halves_of_each_group() -> None:
    """X3.9: in id order, each bonus kind occurs among the first floor(n/2) cards of a group
    and among the rest."""
    for name, cards in GROUPS.items():
        half = len(cards) // 2
        for kind in BonusKind:
            assert any(card.bonus.kind is kind for card in cards[:half]), (name, kind)
            assert any(card.bonus.kind is kind for card in cards[half:]), (name, kind)


# -- X3.10, C4: chirality --------------------------------------------------------------------------


def test_x3_10_some_star_sets_are_chiral_most_are() -> None:
    """X3.10, C4: at least one card's stars are chiral (its mirror image is none of its
    rotations), so rule B can be tested; most are."""
    chiral_cards = [card.id for card in ALL if chiral(card)]
    assert "S05" in chiral_cards
    assert len(chiral_cards) > len(ALL) // 2
    assert not chiral(CARDS["S01"])  # three stars in an L: its mirror is a rotation


# -- deck.py's turning helpers --------------------------------------------------------------------


def test_c2_3_c4_rotations_are_four_quarter_turns_and_mirrored_flips_left_to_right() -> None:
    """C2.3, C4, worked example 2: Lacerta's four rotations as offsets are the page's
    {(0,0),(0,1),(2,1)}, {(0,2),(1,0),(1,2)}, {(0,0),(2,0),(2,1)}, {(0,0),(0,2),(1,0)}; its
    mirror image {(0,0),(0,1),(2,0)} is none of them."""
    lacerta = CARDS["S05"].stars
    assert {frozenset(r) for r in rotations(lacerta)} == {
        frozenset({(0, 0), (0, 1), (2, 1)}),
        frozenset({(0, 2), (1, 0), (1, 2)}),
        frozenset({(0, 0), (2, 0), (2, 1)}),
        frozenset({(0, 0), (0, 2), (1, 0)}),
    }
    assert rotations(lacerta)[0] == lacerta
    assert set(mirrored(lacerta)) == {(0, 0), (0, 1), (2, 0)}
    assert frozenset(mirrored(lacerta)) not in {frozenset(r) for r in rotations(lacerta)}
    for card in ALL:
        first, *rest = rotations(card.stars)
        assert rotations(rest[-1])[1] == first  # four quarter turns come back home
        assert {frozenset(r) for r in rotations(card.stars)} == {
            star_set(card, turn) for turn in TURNS
        }


# -- the worked examples' cards --------------------------------------------------------------------


def test_worked_example_2_sagitta_canes_venatici_and_lacerta_are_as_the_page_draws_them() -> None:
    """Worked example 2: Sagitta (S03) A(0,1) B(1,0) C(2,0), lines A-B and A-C; Canes
    Venatici (S10) A(0,0) B(1,1) C(2,1), lines A-C and B-C, bonus Shooting Star 3; Lacerta
    (S05) A(0,0) B(0,1) C(2,1), lines A-B and B-C."""
    sagitta, canes, lacerta = CARDS["S03"], CARDS["S10"], CARDS["S05"]
    assert (sagitta.name, sagitta.stars, sagitta.lines) == (
        "Sagitta",
        ((0, 1), (1, 0), (2, 0)),
        ((0, 1), (0, 2)),
    )
    assert (canes.name, canes.stars, canes.lines) == (
        "Canes Venatici",
        ((0, 0), (1, 1), (2, 1)),
        ((0, 2), (1, 2)),
    )
    assert canes.bonus == Bonus(BonusKind.SHOOTING_STAR, 3)
    assert (lacerta.name, lacerta.stars, lacerta.lines) == (
        "Lacerta",
        ((0, 0), (0, 1), (2, 1)),
        ((0, 1), (1, 2)),
    )


def test_worked_example_3_scorpius_6_sextans_3_and_the_three_asterisms() -> None:
    """Worked example 3: Scorpius (L04) 6 points and 5 stars, Sextans (S15) 3 points and 3
    stars, Asterisms A01, A05, A07 of 3, 3 and 4 stars: 5 + 3 + 3 + 3 + 4 = 18 stars."""
    scorpius, sextans = CARDS["L04"], CARDS["S15"]
    assert (scorpius.name, scorpius.points, len(scorpius.stars)) == ("Scorpius", 6, 5)
    assert (sextans.name, sextans.points, len(sextans.stars)) == ("Sextans", 3, 3)
    asterisms = [CARDS[card_id] for card_id in ("A01", "A05", "A07")]
    assert all(card.asterism and card.points is None for card in asterisms)
    assert [len(card.stars) for card in asterisms] == [3, 3, 4]
    used = sum(len(CARDS[card_id].stars) for card_id in ("L04", "S15", "A01", "A05", "A07"))
    assert used == 18


# -- the checking function -------------------------------------------------------------------------


def spoiled(change: Callable[[dict[str, object]], None]) -> dict[str, object]:
    raw: dict[str, object] = copy.deepcopy(RAW)
    change(raw)
    return raw


def card_item(raw: dict[str, object], index: int) -> dict[str, object]:
    cards = raw["cards"]
    assert isinstance(cards, list)
    item = cards[index]
    assert isinstance(item, dict)
    return item


def drop_last_card(raw: dict[str, object]) -> None:
    cards = raw["cards"]
    assert isinstance(cards, list)
    cards.pop()


def set_field(index: int, key: str, value: object) -> Callable[[dict[str, object]], None]:
    return lambda raw: card_item(raw, index).__setitem__(key, value)


def test_x3_the_checking_function_accepts_the_file_as_it_is() -> None:
    assert check_deck(copy.deepcopy(RAW)) == CARDS


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda raw: raw.__setitem__("counts", {"large": 64}), "counts"),
        (lambda raw: drop_last_card(raw), "ids"),
        (set_field(0, "difficulty", 18), r"L01.*difficulty is 18, X4 measures 17"),
        (set_field(0, "points", 6), r"L01.*points is 6, X2 gives 5"),
        (set_field(70, "points", None), r"S06.*points is None, X2 gives 2"),
        (set_field(0, "lines", [[0, 1], [1, 1]]), r"L01.*lines\[1\].*two different stars"),
        (set_field(0, "lines", [[0, 1], [1, 0]]), r"L01.*lines\[1\].*twice"),
        (set_field(0, "lines", [[0, 9]]), r"two different stars"),
        (
            set_field(0, "stars", [[0, 0], [0, 1], [1, 1]]),
            r"L01\) has 3 stars, a large card",
        ),
        (set_field(0, "stars", [[0, 0], [0, 0], [0, 3], [1, 1], [1, 2]]), "twice"),
        (set_field(0, "stars", [[1, 1], [1, 2], [1, 4], [2, 2], [2, 3]]), "row 0 and col 0"),
        (set_field(0, "bonus", {"kind": "shooting_star", "value": 7}), r"value 7 is not 2-6"),
        (set_field(0, "bonus", {"kind": "shooting_star"}), "no whole-number value"),
        (set_field(0, "bonus", {"kind": "comet"}), "'comet' is no bonus"),
        (set_field(0, "bonus", {"kind": "research", "value": 3}), "takes no value"),
        (set_field(0, "size", "small"), "L cards are large"),
        (set_field(0, "asterism", True), "only A cards are Asterisms"),
        (set_field(0, "name", "Ursa Major"), "names given to more than one card"),
        (set_field(0, "picture", ["A B . C", ". E D ."]), r"L01.*picture"),
    ],
)
def test_x3_the_checking_function_refuses_bad_data_saying_where_and_what(
    change: Callable[[dict[str, object]], None], message: str
) -> None:
    """X3: a malformed deck stops the import with a ValueError naming the card and the rule."""
    with pytest.raises(ValueError, match=message):
        check_deck(spoiled(change))


def test_x3_the_checking_function_refuses_what_is_not_a_deck() -> None:
    not_decks: list[object] = [None, [], {"counts": RAW["counts"], "cards": {}}]
    for raw in not_decks:
        with pytest.raises(ValueError, match="deck.json"):
            check_deck(raw)
