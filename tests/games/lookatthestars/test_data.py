"""The data of Look at the Stars is sound (D1-D7): the cards of cards.json and the eight board
designs of boards.json, against RULES.md's tables (carried here as literals) and constraints."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import TypeVar

import pytest

from games.lookatthestars.rules import cards, designs, model, scoring, sky
from games.lookatthestars.rules.board import (
    BASIC,
    EXPERIENCED,
    TEST_DESIGN,
    Design,
    Power,
    StarBoard,
)
from games.lookatthestars.rules.cards import (
    BEGINNER_POINT,
    BEGINNER_POWER,
    NIGHT_DECK,
    POINT_CARDS,
    POINT_OPTIONS,
    POWER_CARDS,
    POWER_OPTIONS,
    SHAPES,
    SHOOTING_STAR_CARDS,
)
from games.lookatthestars.rules.designs import DESIGN_BY_ID, DESIGNS, check_design, patches
from games.lookatthestars.rules.sky import Line, Point, Shape, point, point_name

# -- RULES.md's tables, copied as the page writes them --------------------------------------

D3 = {
    "S01": "a1-a2 a1-b1",
    "S02": "a1-a2 a1-b1",
    "S03": "a1-a2 a2-a3",
    "S04": "a1-b2 b2-c3",
    "S05": "a1-a2 a2-b3",
    "S06": "a1-b1 b1-c2",
    "S07": "a1-a2 a1-b2",
    "S08": "a1-a2 a2-b1",
    "S09": "a1-b2 a4-b3",
    "S10": "a1-b2 a3-b2",
    "S11": "a1-a2 b1-b2",
    "S12": "a1-a2 c1-c2",
    "S13": "a1-a2 d1-d2",
    "S14": "a1-b2 c1-d2",
    "S15": "a1-b2 a3-b4",
    "S16": "a1-a2 a3-b3",
    "S17": "a1-a2 b2-c2",
    "S18": "a1-a2 b1-c2",
    "S19": "a1-a2 b2-c1",
    "S20": "a1-b1 c2-d2",
    "S21": "a1-a2 b3-b4",
    "S22": "a1-a2 b2-b3",
    "S23": "a1-b1 b2-c2",
    "S24": "a1-a2 a3-a4",
    "S25": "a1-b2 c3-d4",
    "S26": "a1-a2 a3-b4",
    "S27": "a1-b1 c1-d2",
}
D4 = {
    "B1": ("a1-b2 a3-b2 b2-c1 b2-c3", 3),
    "B2": ("a1-a2 a2-a3 a2-b2 b2-c2", 3),
    "B3": ("a2-b2 b1-b2 b2-b3 b2-c2", 3),
    "B4": ("a1-a2 a1-b1 a1-b2 b2-c3", 3),
    "B5": ("a2-b1 a2-b3 b1-c2 b3-c2", 3),
    "B6": ("a1-b2 a3-b2 b2-c2 c2-d2", 3),
    "B7": ("a1-b2 a3-b2 b2-c2 c2-d1 c2-d3", 3),
    "B8": ("a1-a2 a2-a3 a3-a4 a1-b2 b2-b3 b3-a4", 3),
    "B9": ("a1-a2 a1-b1 a2-b2 b1-b2 b2-c3 c3-d4", 3),
    "B10": ("a2-b2 b1-b2 b2-b3 b2-c2 b3-b4", 3),
}
D5 = {
    Power.PLANET: ("Planet", "a1-a2 a2-a3 a3-a4"),
    Power.LINE: ("Line", "a1-b2 b2-c3 c3-d4"),
    Power.NEW_STARS: ("New stars", "a1-a2 a1-b1 a2-b2"),
    Power.GALAXY: ("Galaxy", "a1-b2 a3-b2 b2-c2"),
    Power.TWINKLING_STAR: ("Twinkling star", "a1-b2 a3-b2 b2-c1"),
    Power.NOVA: ("Nova", "a2-b1 a2-b3 b1-c2"),
    Power.AURA: ("Luminous aura", "a1-a2 a2-a3 a2-b2"),
    Power.CRESCENT_MOON: ("Crescent moon", "a1-b2 b2-b3 b3-a4"),
    Power.BLACK_HOLE: ("Black hole", "a1-b2 a2-b2 a3-b2"),
}
CONNECTED_SHAPES = {"S01", "S02", "S03", "S04", "S05", "S06", "S07", "S08", "S10"}
NAMES = {"Lighthouse", "Windmill", "Pine hill", "Bell tower", "Barn", "Dunes", "Harbour"}
NAMES |= {"Observatory"}
ROUNDS_OF_EACH_PILE = (1, 7, 13)
BOX = {(c, r) for c in range(4) for r in range(1, 5)}
T = TypeVar("T")


def points(text: str) -> frozenset[Point]:
    return frozenset(point(p) for p in text.split())


def is_connected(shape: Shape) -> bool:
    return len(sky.groups(shape)) == 1


# -- D3, D4, D5: the tables ------------------------------------------------------------------


def test_d3_the_shape_cards_are_the_pages_table() -> None:
    """D3, R1: the data holds exactly the page's 27 shape cards, lines as written."""
    assert {card_id: card.lines for card_id, card in SHAPES.items()} == {
        card_id: sky.parse_shape(text) for card_id, text in D3.items()
    }
    assert list(SHAPES) == list(D3)
    assert all(card.id == card_id and card.text for card_id, card in SHAPES.items())


def test_d4_the_point_cards_are_the_pages_table() -> None:
    """D4, P4: ten point cards with the page's lines, each worth 3."""
    assert {card_id: (card.lines, card.value) for card_id, card in POINT_CARDS.items()} == {
        card_id: (sky.parse_shape(text), value) for card_id, (text, value) in D4.items()
    }
    assert all(card.name and card.text for card in POINT_CARDS.values())


def test_d5_the_power_cards_are_the_pages_table() -> None:
    """D5, W1: nine power cards with the page's names and lines."""
    assert {power: (card.name, card.lines) for power, card in POWER_CARDS.items()} == {
        power: (name, sky.parse_shape(text)) for power, (name, text) in D5.items()
    }
    assert all(card.power is power and card.text for power, card in POWER_CARDS.items())
    assert all(card.effect for card in POWER_CARDS.values())


def test_d3_shape_descriptions_are_the_pages_words_for_s01_and_s27() -> None:
    """D3: the description is the page's (the card's accessible text)."""
    assert SHAPES["S01"].text == "two orthogonal lines sharing an end at 90° (an L)"
    assert SHAPES["S27"].text == "mirror of S26: bent 45° to the left"
    assert cards.card_text("S10") == 'two diagonals sharing an end at 90° (a ">")'
    assert "shooting star" in cards.card_text("SS2")


# -- D3, D7: the deck is sound ---------------------------------------------------------------


def test_r1_the_night_deck_holds_27_shapes_and_3_shooting_stars() -> None:
    """R1, D1: 30 night cards, 27 shapes and 3 shooting stars, every id once."""
    assert len(NIGHT_DECK) == len(set(NIGHT_DECK)) == 30
    assert SHOOTING_STAR_CARDS == ("SS1", "SS2", "SS3")
    assert [c for c in NIGHT_DECK if cards.is_shooting_star(c)] == list(SHOOTING_STAR_CARDS)
    assert [c for c in NIGHT_DECK if not cards.is_shooting_star(c)] == list(SHAPES)


def test_d7_every_shape_card_has_two_lines_between_neighbours_inside_the_box() -> None:
    """D7, D3, L1: 2 lines each, every line joins neighbours, inside the 4 x 4 box."""
    for card in SHAPES.values():
        assert len(card.lines) == 2, card.id
        assert all(sky.are_neighbours(a, b) for a, b in card.lines), card.id
        assert sky.ends(card.lines) <= BOX, card.id


def test_d7_s01_and_s02_are_the_same_card() -> None:
    """D7: the deck holds the L twice."""
    assert SHAPES["S01"].lines == SHAPES["S02"].lines


def test_d7_the_deck_has_26_shapes_up_to_turning() -> None:
    """D7, L7: S01 = S02 and every other pair differs however it is turned."""
    pairs = combinations(SHAPES.values(), 2)
    same = [(a.id, b.id) for a, b in pairs if sky.same_shape(a.lines, b.lines)]
    assert same == [("S01", "S02")]
    assert len({min(sky.turns(card.lines)) for card in SHAPES.values()}) == 26


def test_d7_the_deck_is_closed_under_mirroring() -> None:
    """D7, D3: the mirror image of every card is, up to turning, a card of the deck, so
    refusing mirrors (L7) never leaves a one-handed shape without its partner."""
    for card in SHAPES.values():
        mirror = sky.mirrored(card.lines)
        assert any(sky.same_shape(mirror, other.lines) for other in SHAPES.values()), card.id


def test_d3_the_mirror_pairs_are_the_ones_the_page_names() -> None:
    """D3: S05/S06, S07/S08, S14/S15 ... S26/S27 are mirror images and not turns."""
    pairs = [("S05", "S06"), ("S07", "S08"), ("S14", "S15"), ("S16", "S17"), ("S18", "S19")]
    pairs += [("S20", "S21"), ("S22", "S23"), ("S26", "S27")]
    for left, right in pairs:
        assert sky.mirror_only(SHAPES[left].lines, SHAPES[right].lines), (left, right)


def test_d7_exactly_nine_shapes_are_connected() -> None:
    """D7, D3: S01-S08 and S10 are connected; the other 18 are two separate lines."""
    assert {c.id for c in SHAPES.values() if is_connected(c.lines)} == CONNECTED_SHAPES


# -- D4, D5, D7: bonus cards -----------------------------------------------------------------

BONUS_SHAPES = [(c.id, c.lines) for c in POINT_CARDS.values()]
BONUS_SHAPES += [(p.value, c.lines) for p, c in POWER_CARDS.items()]


def test_d7_ten_point_cards_and_nine_power_cards() -> None:
    """D7, P1, W1."""
    assert list(POINT_CARDS) == [f"B{n}" for n in range(1, 11)]
    assert list(POWER_CARDS) == list(Power)


@pytest.mark.parametrize(("card_id", "lines"), BONUS_SHAPES, ids=[i for i, _ in BONUS_SHAPES])
def test_d7_every_bonus_shape_is_connected_and_its_own_mirror_image(
    card_id: str, lines: Shape
) -> None:
    """D7, L7, P2: a bonus shape is connected and equals its own mirror image up to turning,
    so "never mirrored" never surprises anyone."""
    assert is_connected(lines)
    assert sky.same_shape(sky.mirrored(lines), lines)
    assert not sky.mirror_only(sky.mirrored(lines), lines)
    assert sky.ends(lines) <= BOX


def test_d7_the_bonus_shapes_are_all_different_up_to_turning() -> None:
    """D7: no two of the 19 bonus cards have one shape."""
    for (a, first), (b, second) in combinations(BONUS_SHAPES, 2):
        assert not sky.same_shape(first, second), (a, b)


def test_p4_every_point_card_is_worth_3() -> None:
    """P4: the seed's 3 points per copy, not the printed 5 or 6 of B7-B10."""
    assert {card.value for card in POINT_CARDS.values()} == {3}
    assert POINT_CARDS["B8"].value == POINT_CARDS["B9"].value == 3


def test_w1_every_power_shape_has_three_lines() -> None:
    """W1, D5."""
    assert {len(card.lines) for card in POWER_CARDS.values()} == {3}


# -- D6, S3: options -------------------------------------------------------------------------


def test_d6_the_lobby_options() -> None:
    """D6, S3: the point and power options the lobby stores, and the beginner choices."""
    assert ("beginner", "random", *(f"B{n}" for n in range(1, 11))) == POINT_OPTIONS
    assert POWER_OPTIONS == (
        "beginner",
        "random-basic",
        "random-any",
        "planet",
        "line",
        "new-stars",
        "galaxy",
        "twinkling-star",
        "nova",
        "aura",
        "crescent-moon",
        "black-hole",
    )
    assert (BEGINNER_POINT, BEGINNER_POWER) == ("B3", Power.LINE)
    assert (cards.DEFAULT_POINT_OPTION, cards.DEFAULT_POWER_OPTION) == ("beginner", "beginner")


def test_w1_basic_and_experienced_powers() -> None:
    """W1: five Basic powers, four Experienced."""
    assert BASIC == (
        Power.PLANET,
        Power.LINE,
        Power.NEW_STARS,
        Power.GALAXY,
        Power.TWINKLING_STAR,
    )
    assert EXPERIENCED == (Power.NOVA, Power.AURA, Power.CRESCENT_MOON, Power.BLACK_HOLE)


def no_point_draw(choices: Sequence[str]) -> str:
    raise AssertionError("a fixed option must not draw")


def no_power_draw(choices: Sequence[Power]) -> Power:
    raise AssertionError("a fixed option must not draw")


def test_s3_a_fixed_option_never_asks_the_draw() -> None:
    """S3, R8: Beginner and a named card are what they say; no random draw happens."""
    assert cards.point_card_for("beginner", no_point_draw) == "B3"
    assert cards.point_card_for("B7", no_point_draw) == "B7"
    assert cards.power_card_for("beginner", no_power_draw) is Power.LINE
    assert cards.power_card_for("black-hole", no_power_draw) is Power.BLACK_HOLE


def test_s3_a_random_option_takes_the_servers_draw_among_its_cards() -> None:
    """S3, R8, W1: Random draws among B1-B10; Random basic among the five Basic powers;
    Random any among all nine. The rules only pass the candidates to the server's draw."""
    seen: list[tuple[object, ...]] = []

    def last(choices: Sequence[T]) -> T:
        seen.append(tuple(choices))
        return choices[-1]

    assert cards.point_card_for("random", last) == "B10"
    assert cards.power_card_for("random-basic", last) is Power.TWINKLING_STAR
    assert cards.power_card_for("random-any", last) is Power.BLACK_HOLE
    assert seen == [tuple(POINT_CARDS), BASIC, tuple(Power)]
    assert cards.point_card_for("random", random.Random(7).choice) in POINT_CARDS


def test_s3_an_unknown_option_or_a_draw_outside_the_candidates_is_refused() -> None:
    """S3: only the D6 values are options, and a draw must pick one of the candidates."""
    with pytest.raises(ValueError, match="not a point-card option"):
        cards.point_candidates("B11")
    with pytest.raises(ValueError, match="not a power-card option"):
        cards.power_candidates("Line")
    with pytest.raises(ValueError, match="not one of"):
        cards.point_card_for("random", lambda _: "B11")


# -- the checking function refuses bad card data ---------------------------------------------


def raw_cards() -> dict[str, object]:
    loaded: dict[str, object] = json.loads(cards.DATA.read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize(
    ("section", "index", "key", "value", "message"),
    [
        ("shape_cards", 3, "lines", "a1-a3 a1-b1", "not neighbours"),
        ("shape_cards", 3, "lines", "a1-a2 a2-a3 a3-a4", "not 2"),
        ("shape_cards", 3, "lines", "a1-a2 d4-e4", "outside the 4 x 4 box"),
        ("shape_cards", 3, "id", "S99", "expected"),
        ("point_cards", 6, "value", 5, "worth 3"),
        ("power_cards", 0, "power", "comet", "no power"),
        ("power_cards", 0, "lines", "a1-a2 a2-a3", "not 3"),
        ("point_cards", 0, "text", "", "not a text"),
    ],
)
def test_d7_bad_card_data_is_refused_with_a_clear_message(
    section: str, index: int, key: str, value: object, message: str
) -> None:
    """D7: the one checking function refuses bad data, saying where and what."""
    raw = raw_cards()
    entries = raw[section]
    assert isinstance(entries, list)
    entries[index][key] = value
    with pytest.raises(ValueError, match=message):
        cards.check_cards(raw)


def test_d7_the_card_data_as_shipped_passes_its_check() -> None:
    assert cards.check_cards(raw_cards()) == cards.CARDS


# -- D2, D7: the board designs ---------------------------------------------------------------


def by_name(design: Design) -> str:
    return design.name


@pytest.fixture(params=DESIGNS, ids=by_name)
def design(request: pytest.FixtureRequest) -> Design:
    found: Design = request.param
    return found


def low_and_high(design: Design) -> tuple[frozenset[Point], frozenset[Point]]:
    found = patches(design.blanks)
    assert len(found) == 2
    low, high = found
    return low, high


def test_d2_eight_designs_with_our_landscape_names() -> None:
    """D2, S1: eight designs, the page's landscapes, different ids; 8 seats at most."""
    assert len(DESIGNS) == 8
    assert {d.name for d in DESIGNS} == NAMES
    assert len(DESIGN_BY_ID) == 8
    assert all(DESIGN_BY_ID[d.id] is d for d in DESIGNS)


def test_s1_the_seat_cap_is_the_number_of_designs() -> None:
    """S1, S2: every seat gets a different design, so 8 seats at most."""
    assert (1, len(DESIGNS)) == (model.LEAST, model.MOST)


def test_d2_every_design_passes_its_check(design: Design) -> None:
    assert check_design(design) == []


def test_d2_the_landscape_stands_on_the_ground(design: Design) -> None:
    """D2, G3: 6 landscape points in rows 1-2, columns d-g; each one in row 2 has one below."""
    assert len(design.landscape) == 6
    assert all(r in (1, 2) and 3 <= c <= 6 for c, r in design.landscape)
    assert all((c, 1) in design.landscape for c, r in design.landscape if r == 2)


def test_d2_the_blanks_are_a_low_patch_and_a_high_patch(design: Design) -> None:
    """D2, G3: 11 blanks: a low patch of 6 in rows 6-7 reaching column a or j, a high patch
    of 5 in rows 8-11 in the other half, each orthogonally connected, not touching."""
    assert len(design.blanks) == 11
    low, high = low_and_high(design)
    assert (len(low), len(high)) == (6, 5)
    assert all(r in (6, 7) for _, r in low)
    assert all(8 <= r <= 11 for _, r in high)
    low_columns = {c for c, _ in low}
    assert (0 in low_columns) != (9 in low_columns)
    other_half = range(5, 10) if 0 in low_columns else range(0, 5)
    assert all(c in other_half for c, _ in high)
    assert not any(sky.are_neighbours(p, q) for p in low for q in high)


def test_d2_the_planets_are_in_rows_3_6_and_9(design: Design) -> None:
    """D2, G3, G5: three printed planets, one per row 3, 6, 9, never on a blank or the
    landscape; on the board they are planets for every rule."""
    assert sorted(r for _, r in design.planets) == [3, 6, 9]
    assert not design.planets & (design.blanks | design.landscape)
    assert StarBoard(design).planets == design.planets


def test_d2_the_printed_lines_are_legal_and_apart(design: Design) -> None:
    """D2, G3, G4, L1: a low line (rows 2-3, one side) and a high line (rows 10-11, d-h),
    both between neighbouring stars, not connected; they are lines on the board."""
    low = [ln for ln in design.printed_lines if max(r for _, r in ln) <= 3]
    high = [ln for ln in design.printed_lines if min(r for _, r in ln) >= 10]
    assert len(design.printed_lines) == 2 and len(low) == len(high) == 1
    assert all(r in (2, 3) for _, r in low[0])
    assert all(c <= 2 for c, _ in low[0]) or all(c >= 7 for c, _ in low[0])
    assert all(3 <= c <= 7 for c, _ in high[0])
    for a, b in design.printed_lines:
        assert sky.are_neighbours(a, b)
    taken = design.planets | design.blanks | design.landscape
    assert not sky.ends(design.printed_lines) & taken
    assert not sky.touches(low[0], high[0])
    board = StarBoard(design)
    assert board.lines == design.printed_lines
    assert len(board.groups) == 2


def test_d2_everything_inside_the_outline_and_pairwise_disjoint(design: Design) -> None:
    """D2, G2, G3: landscape, blanks, planets and printed-line ends lie inside the dome and
    share no point."""
    parts = [design.landscape, design.blanks, design.planets, sky.ends(design.printed_lines)]
    for part in parts:
        assert part <= sky.OUTLINE
    for first, second in combinations(parts, 2):
        assert not first & second


def usable(board: StarBoard, p: Point, day: int) -> bool:
    """L2 on an empty board: a star, in a night row, not a planet."""
    return board.is_star(p) and not sky.is_day(p, day) and p not in board.planets


def test_g3_every_design_has_76_stars(design: Design) -> None:
    """G3, D1: 96 points less 6 landscape, 11 blanks and 3 planets: 76 stars."""
    board = StarBoard(design)
    assert len([p for p in sky.OUTLINE if usable(board, p, 0)]) == 76
    assert len(designs.stars(design)) == 76


def test_d2_no_two_designs_are_the_same_board() -> None:
    """D2: pairwise different."""
    for a, b in combinations(DESIGNS, 2):
        assert (a.landscape, a.blanks, a.planets, a.printed_lines) != (
            b.landscape,
            b.blanks,
            b.planets,
            b.printed_lines,
        ), (a.name, b.name)


def test_d2_at_least_three_low_patches_on_each_side() -> None:
    """D2: at least 3 designs reach column a with their low patch, and 3 reach column j."""
    sides = [designs.low_patch_side(d) for d in DESIGNS]
    assert sides.count("left") >= 3 and sides.count("right") >= 3
    assert sides.count("left") + sides.count("right") == 8


def shifted(design: Design, what: str, old: str, new: str) -> Design:
    value: frozenset[Point] = getattr(design, what)
    return replace(design, **{what: value - {point(old)} | {point(new)}})


@pytest.mark.parametrize(
    ("design_id", "what", "old", "new", "problem"),
    [
        ("lighthouse", "landscape", "e2", "c2", "landscape outside rows 1-2, columns d-g: c2"),
        ("barn", "landscape", "f2", "g2", "landscape with nothing below it: g2"),
        ("lighthouse", "blanks", "a6", "a5", "blank patches of [5, 5, 1] points"),
        ("lighthouse", "blanks", "h10", "e10", "not in the half away from the low one"),
        ("pine-hill", "blanks", "g9", "f8", "blank patches of [6, 4, 1] points"),
        ("lighthouse", "planets", "e6", "e5", "planets in rows [3, 5, 9]"),
        ("lighthouse", "planets", "e6", "a6", "blanks and planets share a6"),
    ],
)
def test_d2_check_design_says_every_problem_in_words(
    design_id: str, what: str, old: str, new: str, problem: str
) -> None:
    """D2: each broken constraint is named; loading refuses a design with any."""
    broken = shifted(DESIGN_BY_ID[design_id], what, old, new)
    assert any(problem in found for found in check_design(broken)), check_design(broken)


def test_d2_patches_that_touch_are_named() -> None:
    """D2: the high patch may not be a neighbour of the low one, even diagonally."""
    pine_hill = DESIGN_BY_ID["pine-hill"]
    touching = replace(pine_hill, blanks=points("a6 a7 b7 c7 d7 e7 f8 g8 h8 h9 i9"))
    assert check_design(touching) == ["the two blank patches touch"]


def test_d2_printed_line_problems_are_named() -> None:
    """D2, L1: a printed line on a blank, or two lines not one low and one high."""
    lighthouse = DESIGN_BY_ID["lighthouse"]
    moved = replace(lighthouse, printed_lines=sky.parse_shape("b2-c3 f10-g11"))
    assert "blanks and printed-line ends share f10 g11" in check_design(moved)
    two_low = replace(lighthouse, printed_lines=sky.parse_shape("b2-c3 i2-j2"))
    assert any("not one low line" in p for p in check_design(two_low))


def test_d2_loading_refuses_a_file_with_any_problem() -> None:
    """D2, D7: the loader refuses bad boards at start-up, listing the problems."""
    raw = json.loads(designs.DATA.read_text(encoding="utf-8"))
    raw["designs"][1]["planets"] = "c3 f6 g8"
    raw["designs"][2]["blanks"] = raw["designs"][1]["blanks"]
    with pytest.raises(ValueError, match="Windmill: planets in rows") as refused:
        designs.load_designs(raw)
    assert "Pine hill: blanks and planets share h6 d9" in str(refused.value)
    raw["designs"].pop()
    with pytest.raises(ValueError, match="7 designs, not 8"):
        designs.load_designs(raw)
    assert designs.load_designs(json.loads(designs.DATA.read_text("utf-8"))) == DESIGNS


# -- D7: every card fits every empty board in each pile ---------------------------------------


def legal_placements(board: StarBoard, shape: Shape, day: int) -> list[frozenset[Line]]:
    """L2, L3, L7 on an empty board: every star usable, no printed line repeated."""
    return [
        placed
        for placed in sky.placements(shape)
        if all(usable(board, p, day) for p in sky.ends(placed)) and not placed & board.lines
    ]


def shooting_star_places(board: StarBoard, day: int) -> list[Line]:
    """SS1, SS2: one diagonal between two usable stars touching no line (shared star or
    crossing)."""
    return [
        ln
        for placed in sky.placements(sky.parse_shape("a1-b2"))
        for ln in placed
        if all(usable(board, p, day) and p not in board.line_ends for p in ln)
        and not any(sky.crosses(ln, other) for other in board.lines)
    ]


@pytest.mark.parametrize("round_", ROUNDS_OF_EACH_PILE)
def test_d7_every_shape_card_fits_every_empty_board_in_each_pile(
    design: Design, round_: int
) -> None:
    """D7, R4, L7: in rounds 1, 7 and 13 (no day rows, rows 1-2, rows 1-4) each of the 27
    shapes can be drawn somewhere on every design."""
    board, day = StarBoard(design), sky.day_rows(round_)
    for card in SHAPES.values():
        assert legal_placements(board, card.lines, day), (design.name, round_, card.id)


@pytest.mark.parametrize("round_", ROUNDS_OF_EACH_PILE)
def test_d7_a_shooting_star_fits_every_empty_board_in_each_pile(
    design: Design, round_: int
) -> None:
    """D7, SS1, SS2, R4: a run of one diagonal between two usable stars exists."""
    assert shooting_star_places(StarBoard(design), sky.day_rows(round_))


def test_d7_a_shooting_star_place_is_refused_on_a_day_row_or_by_a_printed_line() -> None:
    """D7, R4, SS2: the placement check used above does refuse: in round 13 no shooting star
    starts in row 4, and none touches the printed lines."""
    board = StarBoard(DESIGN_BY_ID["lighthouse"])
    places = shooting_star_places(board, sky.day_rows(13))
    assert places and all(min(r for _, r in ln) >= 5 for ln in places)
    round_one = shooting_star_places(board, 0)
    assert sky.parse_line("a4-b5") in round_one
    assert sky.parse_line("a1-b2") not in round_one  # b2 ends the printed b2-c3
    assert sky.parse_line("c3-d4") not in round_one  # so does c3
    assert sky.parse_line("b3-c2") not in round_one  # it crosses b2-c3
    assert sky.parse_line("d5-e6") not in round_one  # e6 is a printed planet


# -- D1 and G: the numbers -------------------------------------------------------------------


def test_d1_the_numbers() -> None:
    """D1: grid, deck, rounds, piles, sunrise, seats, designs and scores as the page fixes."""
    assert len(sky.COLUMNS) == 10 and list(sky.ROWS) == list(range(1, 12))
    assert len(sky.OUTLINE) == 96
    assert (len(SHAPES), len(SHOOTING_STAR_CARDS)) == (27, 3)
    assert (model.ROUNDS, model.PILE, model.ROUNDS // model.PILE) == (18, 6, 3)
    assert [sky.day_rows(n) for n in (6, 7, 12, 13, 18)] == [0, 2, 2, 4, 4]
    assert (model.LEAST, model.MOST, len(DESIGNS)) == (1, 8, 8)
    assert (scoring.POINT_VALUE, cards.POINT_VALUE) == (3, 3)
    assert (scoring.GALAXY, scoring.AURA, scoring.TWINKLING_STAR) == (2, 2, 3)
    assert list(scoring.SIZES) == [3, 4, 5, 6, 7, 8, 9, 10]
    assert (BEGINNER_POINT, BEGINNER_POWER) == ("B3", Power.LINE)


def test_g1_the_grid_is_10_columns_by_11_rows() -> None:
    """G1: a1 to j11; k1 and a12 are no points."""
    assert point("a1") == (0, 1) and point("j11") == (9, 11)
    assert point_name((4, 5)) == "e5"
    for name in ("k1", "a12", "a0", "e"):
        with pytest.raises(ValueError):
            point(name)


def test_g3_a_board_knows_its_stars_blanks_and_landscape() -> None:
    """G3, W10: a blank is no star until a new star is drawn there; landscape never is."""
    barn = StarBoard(DESIGN_BY_ID["barn"])
    assert not barn.is_star(point("a6")) and barn.is_blank(point("a6"))
    assert not barn.is_star(point("d2")) and not barn.is_blank(point("d2"))
    assert barn.is_star(point("a5"))
    lit = barn.changed(new_stars=points("a6"))
    assert lit.is_star(point("a6")) and not lit.is_blank(point("a6"))


def test_g4_printed_lines_join_groups_like_any_line() -> None:
    """G4, C1: a drawn line ending on a printed line's end joins its group."""
    lighthouse = StarBoard(DESIGN_BY_ID["lighthouse"])
    board = lighthouse.changed(drawn=sky.parse_shape("c3-c4 c4-c5"))
    assert sky.parse_shape("b2-c3 c3-c4 c4-c5") in board.groups
    assert board.constellations == (sky.parse_shape("b2-c3 c3-c4 c4-c5"),)


def test_g5_printed_planets_are_planets_for_scoring() -> None:
    """G5, E3: a constellation beside a printed planet scores the planet."""
    lighthouse = StarBoard(DESIGN_BY_ID["lighthouse"])
    board = lighthouse.changed(drawn=sky.parse_shape("i3-i4 i4-i5 i5-j5"))  # beside h3
    assert scoring.score(board, POINT_CARDS["B3"].lines).planets == 1


def test_g6_a_test_board_is_the_outline_with_every_point_a_star() -> None:
    """G6: the rules take any design; the test board has 96 stars and nothing printed."""
    board = StarBoard(TEST_DESIGN)
    assert all(board.is_star(p) for p in sky.OUTLINE)
    assert not board.lines and not board.planets
    assert len([p for p in sky.OUTLINE if usable(board, p, 0)]) == 96
    assert check_design(TEST_DESIGN)  # a test board is no D2 design, and needs not be


def test_g2_cut_points_are_never_stars_on_any_design() -> None:
    """G2: the 14 cut corners do not exist on any board."""
    cut = {(c, r) for c in range(10) for r in range(1, 12)} - sky.OUTLINE
    assert len(cut) == 14
    for design in DESIGNS:
        assert not any(StarBoard(design).is_star(p) for p in cut)
