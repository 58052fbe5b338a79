"""Which drawings a seat may submit (L1-L9, SS1-SS5, R3, R4, R7), checked against its board as
it stood when the round began, whole: the new board, or a refusal a person can read."""

from __future__ import annotations

import pytest

from games.lookatthestars.rules import drawing, sky
from games.lookatthestars.rules.board import Mark, Placed, ShootingStar
from games.lookatthestars.rules.cards import SHAPES
from games.lookatthestars.rules.model import PASS, Drawing
from games.lookatthestars.rules.scoring import score
from tests.games.lookatthestars.play_helpers import (
    P,
    S,
    accepted,
    board,
    design,
    lines,
    reason,
    shooting,
    turn,
)

CROSS = S("a2-b2 b1-b2 b2-b3 b2-c2")


# -- L1: lines join neighbours ----------------------------------------------------------------


@pytest.mark.parametrize("ends", [("c3", "c5"), ("c3", "d5"), ("c3", "c3")])
def test_l1_only_neighbouring_stars_make_a_line(ends: tuple[str, str]) -> None:
    """L1: c3-c5 and c3-d5 are never lines; a drawing holding one is refused and says so."""
    a, b = P(ends[0]), P(ends[1])
    bad = Drawing(lines=frozenset({(a, b), (P("a1"), P("a2"))}))
    assert reason(board(), bad, turn("S01")) == (
        f"{ends[0]}-{ends[1]} is not a line: its ends are not neighbours."
    )


def test_l1_orthogonal_and_diagonal_neighbours_are_lines() -> None:
    """L1: same row next column, same column next row, or next row and next column."""
    after = accepted(board(), lines("c3-d4 d4-e4"), turn("a1-b2 b2-c2"))
    assert after.drawn == S("c3-d4 d4-e4")
    after = accepted(board(), lines("c3-c4 c4-d4"), turn("S01"))
    assert after.drawn == S("c3-c4 c4-d4")


# -- L2: usable ends ---------------------------------------------------------------------------

BOARD_WITH_EVERYTHING = design(landscape="d1 e1", blanks="a6 a7", planets="e6", printed="h2-i3")


@pytest.mark.parametrize(
    ("line", "why", "round"),
    [
        ("d1-d2", "d1 is landscape, not a star.", 1),  # L2a
        ("a5-a6", "a6 is a blank point: there is no star there.", 1),  # L2a
        ("c2-c3", "c2 is in a day row.", 7),  # L2b, R4
        ("c4-c5", "c4 is in a day row.", 13),  # L2b, R4
        ("e5-e6", "e6 holds a planet.", 1),  # L2c (a printed planet, G5)
        ("g6-g7", "g7 holds a planet.", 1),  # L2c (a drawn planet)
        ("c9-d9", "c9 holds a galaxy.", 1),  # L2c: the galaxy's right point
        ("i5-j5", "j5 holds a twinkling star.", 1),  # L2c
        ("f9-f10", "f10 holds a crescent moon.", 1),  # L2c
        ("b3-b4", "b3 is beside a black hole.", 1),  # L2d
        ("i1-i2", "Line i1-i2 touches a shooting star.", 1),  # L2e, L5
    ],
)
def test_l2_both_ends_of_a_new_line_are_usable(line: str, why: str, round: int) -> None:
    """L2: a star, in a night row, no planet or covering object, not beside a black hole, not
    a shooting star's star; the reason names the point."""
    b = board(
        on=BOARD_WITH_EVERYTHING,
        objects=(
            Placed(Mark.PLANET, P("g7")),
            Placed(Mark.GALAXY, P("b9")),
            Placed(Mark.TWINKLING_STAR, P("j5")),
            Placed(Mark.CRESCENT_MOON, P("f10")),
            Placed(Mark.BLACK_HOLE, P("a2")),
        ),
        shooting_stars=(ShootingStar((sky.parse_line("i2-j3"),), P("i2")),),
    )
    assert drawing.line_refused(b, sky.parse_line(line), sky.day_rows(round)) == why
    far = {"d1-d2": "f9-g9", "a5-a6": "f9-g9"}.get(line, "h8-i8")
    assert reason(b, lines(f"{line} {far}"), turn(f"{line} {far}", round=round)) == why


def test_l2_a_new_star_on_a_blank_is_usable() -> None:
    """L2a, W10: a blank point with a new star on it is a star like any other."""
    b = board(on=design(blanks="a6 a7"), new_stars=frozenset({P("a6")}))
    assert accepted(b, lines("a5-a6 a6-b6"), turn("S01")).drawn == S("a5-a6 a6-b6")
    assert reason(b, lines("a7-b7 a7-a8"), turn("S01")).startswith("a7 is a blank point")


def test_l2_a_nova_or_an_aura_does_not_block_its_star() -> None:
    """L2c, W13: a nova marks a star but does not cover it: lines may still end there."""
    b = board("c3-c4 c4-c5 c5-c6", objects=(Placed(Mark.NOVA, P("c6")),))
    assert accepted(b, lines("c6-c7 c7-d7"), turn("S01")).groups[0] == S(
        "c3-c4 c4-c5 c5-c6 c6-c7 c7-d7"
    )


# -- L3, L4: no repeats; touching and crossing allowed ----------------------------------------


def test_l3_a_line_already_on_the_board_is_never_drawn_again() -> None:
    """L3, G4: drawn or printed, the same two ends make the same line."""
    b = board("c3-c4", on=design(printed="e5-f5"))
    assert reason(b, lines("c3-c4 c4-d4"), turn("S01")) == "Line c3-c4 is already drawn."
    assert reason(b, lines("e5-f5 e5-e6"), turn("S01")) == "Line e5-f5 is already drawn."


def test_l4_lines_may_share_ends_and_diagonals_may_cross_linking_one_group() -> None:
    """L4, C1: c3-d4 crossing c4-d3 is allowed and links the two into one group."""
    b = board("c4-d3")
    after = accepted(b, lines("c3-d4 d4-e5"), turn("S04"))
    assert after.groups == (S("c4-d3 c3-d4 d4-e5"),)
    after = accepted(board("c3-c4"), lines("c4-c5 c5-d5"), turn("S01"))
    assert after.groups == (S("c3-c4 c4-c5 c5-d5"),)


# -- L5, L6: shooting stars and auras keep their distance --------------------------------------


def test_l5_no_new_line_touches_a_shooting_star_by_an_end_or_by_crossing() -> None:
    """L5: sharing a shooting-star star, or crossing one of its lines, is refused."""
    b = board(shooting_stars=(ShootingStar((sky.parse_line("c3-d4"),), P("c3")),))
    assert reason(b, lines("d4-e4 e4-e5"), turn("S01")) == "Line d4-e4 touches a shooting star."
    assert reason(b, lines("c4-d3 c4-c5"), turn("c4-d3 c4-c5")) == (
        "Line c4-d3 touches a shooting star."
    )
    assert accepted(b, lines("e4-e5 e4-f4"), turn("S01"))


def test_l6_no_new_line_touches_a_group_with_a_luminous_aura() -> None:
    """L6, W14: sharing an end with a line of the aura's group, or crossing one, is refused;
    the group never changes again."""
    b = board("c3-c4 c4-c5 c5-d6", objects=(Placed(Mark.AURA, P("c3")),))
    why = "Line c5-c6 touches a group with a luminous aura."
    assert reason(b, lines("c5-c6 c6-c7"), turn("S03")) == why
    why = "Line c6-d5 touches a group with a luminous aura."
    assert reason(b, lines("c6-d5 d5-e5"), turn("c6-d5 d5-e5")) == why
    assert accepted(b, lines("e6-e7 e7-e8"), turn("S03"))


# -- L7, L8: the whole shape, moved and turned, never mirrored ---------------------------------


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
def test_l7_a_shape_is_drawn_moved_and_turned_by_any_quarter(quarter: int) -> None:
    """L7: each of the four turns of S05, moved anywhere, is accepted."""
    card = SHAPES["S05"].lines
    placed = sky.moved(sky.normal(sky.turned(card, quarter)), 3, 3)
    assert accepted(board(), Drawing(lines=placed), turn("S05")).drawn == placed


def test_l7_l8_a_mirror_image_is_refused_as_a_mirror_image() -> None:
    """L7, L8: S06 is S05's mirror image: drawn on an S05 card it is refused, "mirror image"."""
    mirror = sky.moved(SHAPES["S06"].lines, 3, 3)
    assert reason(board(), Drawing(lines=mirror), turn("S05")) == drawing.MIRROR
    assert reason(board(), lines("c3-c4 e3-f4"), turn("S05")) == drawing.NOT_THIS_SHAPE


def test_l7_all_or_nothing_a_partial_shape_is_refused() -> None:
    """L7: one line of a two-line card is refused, and so is a third line."""
    assert reason(board(), lines("c3-c4"), turn("S01")) == (
        "A shape card is drawn whole: 2 lines, not 1."
    )
    assert reason(board(), lines("c3-c4 c3-d3 d3-d4"), turn("S01")).startswith(
        "A shape card is drawn whole"
    )


def test_l7_one_bad_line_refuses_the_whole_shape_and_changes_nothing() -> None:
    """L7, R6: the legal line of a half-legal placement is not drawn either."""
    b = board("c4-c5")
    refused = drawing.apply(b, lines("c4-c5 d4-d5"), turn("S11"))
    assert refused == drawing.refused(b, lines("c4-c5 d4-d5"), turn("S11"))
    assert b.drawn == S("c4-c5")


def test_l7_the_lines_of_a_shape_keep_the_card_s_spacing() -> None:
    """L7: S12's two lines are two columns apart; one column apart is another shape."""
    assert accepted(board(), lines("c3-c4 e3-e4"), turn("S12"))
    assert reason(board(), lines("c3-c4 d3-d4"), turn("S12")) == drawing.NOT_THIS_SHAPE


def test_l8_the_order_and_direction_of_the_strokes_do_not_matter() -> None:
    """L8: a drawing is a set of lines; f6-e5 is e5-f6."""
    stroked = frozenset({(P("d4"), P("c3")), (P("e5"), P("d4"))})
    after = accepted(board(), Drawing(lines=stroked), turn("S04"))
    assert after.drawn == S("c3-d4 d4-e5")


# -- R3, R4, R7: the round's drawing, the sunrise, the pass -----------------------------------


def test_r4_sunrise_takes_rows_one_two_from_round_seven_and_one_to_four_from_thirteen() -> None:
    """R4: row 2 is a day row from round 7, row 4 from round 13; row 3 is night in 7-12."""
    shape = lines("c2-c3 c3-d3")
    assert accepted(board(), shape, turn("S01", round=6))
    assert reason(board(), shape, turn("S01", round=7)) == "c2 is in a day row."
    assert accepted(board(), lines("c3-c4 c4-d4"), turn("S01", round=12))
    assert reason(board(), lines("c4-c5 c5-d5"), turn("S01", round=13)) == "c4 is in a day row."


def test_r4_what_is_drawn_in_a_day_row_stays_and_scores() -> None:
    """R4: lines drawn in rows 1-2 before sunrise still link to new lines above them."""
    b = board("c1-c2 c2-c3")
    after = accepted(b, lines("c3-c4 c4-d4"), turn("S01", round=7))
    assert after.groups == (S("c1-c2 c2-c3 c3-c4 c4-d4"),)
    assert score(after, CROSS).sizes == (4,)


@pytest.mark.parametrize("card", ["S01", None])
def test_r7_a_seat_may_pass_any_round_and_a_pass_draws_nothing(card: str | None) -> None:
    """R7: a pass is accepted on a shape card and on a shooting-star card; nothing changes."""
    b = board("c3-c4")
    assert drawing.apply(b, PASS, turn(card)) == b


def test_r7_with_no_legal_drawing_passing_is_the_only_choice() -> None:
    """R7: on a board holding every line, no placement is legal and a pass is."""
    every = frozenset(sky.line(a, b) for a in sky.OUTLINE for b in sky.neighbours(a) if a < b)
    full = board().changed(drawn=every, claimed=every)
    assert drawing.options(full, turn("S11")) == ()
    assert drawing.apply(full, PASS, turn("S11")) == full


def test_r3_a_submission_is_the_card_s_drawing_then_its_resolutions() -> None:
    """R3: shape and shooting star together are refused: one or the other, or a pass."""
    both = Drawing(
        lines=S("c3-c4 c4-d4"), shooting_star=ShootingStar((sky.parse_line("g6-h7"),), P("g6"))
    )
    assert reason(board(), both, turn("S01")) == (
        "Draw the card's shape or a shooting star, not both."
    )


# -- SS1-SS5: shooting stars -------------------------------------------------------------------


@pytest.mark.parametrize("run", ["c3-d4", "c3-d4 d4-e5", "c3-d4 d4-e5 e5-f6", "c6-d5 d5-e4"])
def test_ss1_a_shooting_star_is_a_straight_diagonal_run_of_one_to_three(run: str) -> None:
    """SS1: 1, 2 or 3 diagonal lines, one way, either diagonal direction."""
    head = run.split("-")[0]
    after = accepted(board(), shooting(run, head), turn(None))
    assert set(after.shooting_stars[0].lines) == S(run)


@pytest.mark.parametrize(
    "run",
    ["c3-d4 d4-e5 e5-f6 f6-g7", "c3-c4", "c3-d4 d4-e3", "c3-d4 e5-f6", "c3-d4 c3-d4"],
)
def test_ss1_anything_else_is_no_shooting_star(run: str) -> None:
    """SS1: four lines, an orthogonal line, a bend, a gap or a repeat is refused."""
    star = ShootingStar(tuple(sky.parse_line(ln) for ln in run.split()), P("c3"))
    why = reason(board(), Drawing(shooting_star=star), turn(None))
    assert why.startswith("A shooting star")


def test_ss1_tapped_in_any_order_the_run_is_stored_from_its_left() -> None:
    """SS1, SS3: the lines may come in any order; the head stays where the seat put it."""
    after = accepted(board(), shooting("e5-f6 c3-d4 d4-e5", "f6"), turn(None))
    assert after.shooting_stars == (
        ShootingStar(tuple(sky.parse_line(x) for x in ("c3-d4", "d4-e5", "e5-f6")), P("f6")),
    )


@pytest.mark.parametrize(
    ("run", "why"),
    [
        ("b4-c5", "c5 ends a line: a shooting star touches nothing."),  # a star of a line
        ("d5-e6", "The shooting star crosses line d6-e5: it touches nothing."),
        ("g2-h3", "g2 is in a day row."),  # usable (L2b)
        ("g7-h8", "g7 holds a planet."),  # usable (L2c)
        (
            "h7-i8 i8-j7",
            "A shooting star is one straight run of diagonal lines, all going the same way.",
        ),
        ("h5-i6", "h5 is a star of a shooting star."),  # another shooting star
    ],
)
def test_ss2_every_star_usable_touching_nothing(run: str, why: str) -> None:
    """SS2: usable stars (middle ones too), no star of a line or shooting star, no crossing."""
    b = board(
        "c5-c6 d6-e5",
        on=design(planets="g7"),
        shooting_stars=(ShootingStar((sky.parse_line("g4-h5"),), P("g4")),),
    )
    head = run.split("-")[0]
    assert reason(b, shooting(run, head), turn(None, round=7)) == why


def test_ss3_the_head_is_at_one_end_of_the_run() -> None:
    """SS3: the head at either end is accepted; the middle star or elsewhere is refused."""
    assert accepted(board(), shooting("c3-d4 d4-e5", "e5"), turn(None))
    why = "A shooting star's head is at one of its two ends."
    assert reason(board(), shooting("c3-d4 d4-e5", "d4"), turn(None)) == why
    assert reason(board(), shooting("c3-d4 d4-e5", "h8"), turn(None)) == why


def test_ss4_a_shooting_star_is_no_line_and_later_lines_never_touch_it() -> None:
    """SS4: its lines join no group, make no copy; a later line at its star is refused."""
    b = accepted(board("a1-b1"), shooting("b2-c3 c3-d4", "b2"), turn(None))
    assert b.lines == S("a1-b1") and b.groups == (S("a1-b1"),)
    assert reason(b, lines("d4-d5 d5-e5"), turn("S01")) == "Line d4-d5 touches a shooting star."
    assert not b.is_unused_star(P("c3"), 0)


def test_ss5_a_shooting_star_only_on_its_card_and_a_shape_only_on_a_shape_card() -> None:
    """SS5: each card asks for its own kind; a shooting star scores 1 point per line."""
    assert reason(board(), shooting("c3-d4", "c3"), turn("S01")) == (
        "A shooting star is drawn only on a shooting-star card."
    )
    assert reason(board(), lines("c3-c4 c4-d4"), turn(None)) == (
        "This is a shooting-star card: draw a shooting star, or pass."
    )
    after = accepted(board(), shooting("c3-d4 d4-e5 e5-f6", "c3"), turn(None))
    assert score(after, CROSS).shooting_stars == 3


# -- the options the screens and the robot read -----------------------------------------------


@pytest.mark.parametrize("card", ["S05", "S13", "S25", None])
def test_l7_ss1_the_options_are_exactly_the_accepted_drawings(card: str | None) -> None:
    """L7, SS1: every option is accepted, and every accepted placement is an option."""
    b = board(
        "c3-c4 c4-d5 f7-g7",
        on=BOARD_WITH_EVERYTHING,
        shooting_stars=(ShootingStar((sky.parse_line("h5-i6"),), P("h5")),),
        objects=(Placed(Mark.BLACK_HOLE, P("b9")), Placed(Mark.AURA, P("c3"))),
    )
    t = turn(card, round=7)
    found = drawing.options(b, t)
    assert found and all(drawing.refused(b, d, t) is None for d in found)
    if card is not None:
        every = sky.placements(SHAPES[card].lines)
        legal = {p for p in every if drawing.refused(b, Drawing(lines=p), t) is None}
        assert {d.lines for d in found} == legal
    else:
        runs = {
            frozenset(ln)
            for ln in (
                tuple(sky.line((c + k, r + k * d), (c + k + 1, r + (k + 1) * d)) for k in range(n))
                for c in range(10)
                for r in range(1, 12)
                for d in (1, -1)
                for n in (1, 2, 3)
                if all((c + k, r + k * d) in sky.OUTLINE for k in range(n + 1))
            )
        }
        legal = {
            run
            for run in runs
            if drawing.refused(
                b, Drawing(shooting_star=ShootingStar(tuple(sorted(run)), min(sky.ends(run)))), t
            )
            is None
        }
        assert {frozenset(d.shooting_star.lines) for d in found if d.shooting_star} == legal


def test_w7_l2_the_fast_and_the_worded_checks_agree_on_every_point() -> None:
    """L2, W7: ``unused_refused`` is None exactly where the board calls a star unused."""
    b = board(
        "c3-c4 c4-d5",
        on=BOARD_WITH_EVERYTHING,
        new_stars=frozenset({P("a6")}),
        objects=(Placed(Mark.BLACK_HOLE, P("h9")), Placed(Mark.GALAXY, P("e8"))),
        shooting_stars=(ShootingStar((sky.parse_line("h5-i6"),), P("h5")),),
    )
    for day in (0, 2, 4):
        for p in sky.OUTLINE:
            assert (drawing.unused_refused(b, p, day) is None) == b.is_unused_star(p, day)
