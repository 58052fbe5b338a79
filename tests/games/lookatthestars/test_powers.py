"""Power copies and their powers (W2-W17): a copy is open until used or declined, every open
copy is resolved in the same submission, uses take effect in order, and each power goes only
where the page says."""

from __future__ import annotations

import pytest

from games.lookatthestars.rules import drawing, sky
from games.lookatthestars.rules.board import Mark, Placed, Power, ShootingStar, StarBoard
from games.lookatthestars.rules.scoring import score
from tests.games.lookatthestars.play_helpers import (
    P,
    S,
    accepted,
    board,
    copy_of,
    decline,
    design,
    lines,
    passing,
    reason,
    turn,
    use,
)

CROSS = S("a2-b2 b1-b2 b2-b3 b2-c2")
# Line power (D5): three diagonal lines straight. Drawing S04 at d4-e5 e5-f6 beside c3-d4
# completes the copy c3-d4 d4-e5 e5-f6.
LINE_COPY = S("c3-d4 d4-e5 e5-f6")


def before_line_copy() -> StarBoard:
    return board("c3-d4")


def with_copy(power: Power, at: str = "c3", extra: str = "") -> tuple[StarBoard, frozenset]:
    """A board holding one open copy of the power's shape (as if drawn this round) and its
    copy: the submission then only resolves it (a pass with resolutions)."""
    copy = copy_of(power, at)
    b = board(extra).changed(drawn=S(extra) | copy if extra else copy)
    return b, copy


# -- W2, W3: open copies are resolved in the same submission ----------------------------------


def test_w3_a_submission_leaving_an_open_copy_is_refused() -> None:
    """W3: drawing S04 completes a Line copy; without a resolution the submission is refused."""
    assert reason(before_line_copy(), lines("d4-e5 e5-f6"), turn("S04")) == drawing.OPEN_COPY


def test_w2_w5_declining_claims_the_copy_and_its_lines_still_count() -> None:
    """W2, W5: a declined copy's lines are claimed for good and still make a constellation."""
    after = accepted(before_line_copy(), lines("d4-e5 e5-f6", decline(LINE_COPY)), turn("S04"))
    assert after.claimed == LINE_COPY and after.powers_used == frozenset()
    assert drawing.open_copies(after, turn("S04")) == frozenset()
    assert score(after, CROSS).sizes == (3,)


def test_w3_a_resolution_naming_a_copy_that_is_not_open_is_refused() -> None:
    """W3: a copy not on the board, or sharing a claimed line, is refused."""
    why = "That Line copy is not open: it is not on the board, or a line is claimed."
    assert reason(board(), passing(decline("c3-d4 d4-e5 e5-f6")), turn("S04")) == why
    claimed = board("c3-d4 d4-e5 e5-f6 f6-g7").changed(claimed=S("c3-d4 d4-e5 e5-f6"))
    assert reason(claimed, passing(decline("d4-e5 e5-f6 f6-g7")), turn("S04")) == why


def test_w3_two_copies_sharing_a_line_give_one_power_not_two() -> None:
    """W3: a run of four diagonals holds two Line copies; resolving one closes the other."""
    b = board("b2-c3 f6-g7")
    both = S("b2-c3 c3-d4 d4-e5 e5-f6 f6-g7")
    assert len(drawing.open_copies(b.changed(drawn=both), turn("S04"))) == 3
    # Drawing c3-d4 d4-e5 makes the run b2..f6: two copies sharing two lines, one power.
    b = board("b2-c3 e5-f6")
    after = accepted(b, lines("c3-d4 d4-e5", decline("b2-c3 c3-d4 d4-e5")), turn("S04"))
    assert drawing.open_copies(after, turn("S04")) == frozenset()
    why = "That Line copy is not open: it is not on the board, or a line is claimed."
    second = lines("c3-d4 d4-e5", decline("b2-c3 c3-d4 d4-e5"), decline("c3-d4 d4-e5 e5-f6"))
    assert reason(b, second, turn("S04")) == why


def test_w3_the_seat_chooses_which_open_copy_to_resolve() -> None:
    """W3: either of two overlapping copies may be the one resolved."""
    b = board("b2-c3 e5-f6")
    for chosen in ("b2-c3 c3-d4 d4-e5", "c3-d4 d4-e5 e5-f6"):
        after = accepted(b, lines("c3-d4 d4-e5", decline(chosen)), turn("S04"))
        assert after.claimed == S(chosen)


def test_w4_a_line_use_that_opens_a_new_copy_must_resolve_it_too() -> None:
    """W4: uses take effect at once and in order; a Line that completes a second copy must
    be resolved in the same submission."""
    b = board("c3-d4 g7-h8 h8-i9")
    first = lines("d4-e5 e5-f6", use(LINE_COPY, "f6", "g7"))
    assert reason(b, first, turn("S04")) == drawing.OPEN_COPY
    both = lines("d4-e5 e5-f6", use(LINE_COPY, "f6", "g7"), decline("f6-g7 g7-h8 h8-i9"))
    after = accepted(b, both, turn("S04"))
    assert sky.parse_line("f6-g7") in after.drawn
    assert after.claimed == LINE_COPY | S("f6-g7 g7-h8 h8-i9")


def test_w4_an_aura_forbids_the_rest_of_the_submission_to_touch_its_group() -> None:
    """W4, W14: two aura copies in one group: once the first is used, the second may not put
    a second aura on that group in the same submission; declining it is fine."""
    first, second = copy_of(Power.AURA, "c3"), copy_of(Power.AURA, "f3")
    b = board().changed(drawn=first | second | S("d4-e4 e4-f4"))
    t = turn("S01", Power.AURA)
    refused = passing(use(first, "c3"), use(second, "f3"))
    assert reason(b, refused, t) == "That constellation already has a luminous aura."
    after = accepted(b, passing(use(first, "c3"), decline(second)), t)
    assert after.points_with(Mark.AURA) == {P("c3")}
    why = "Line c5-c6 touches a group with a luminous aura."
    assert drawing.line_refused(after, sky.parse_line("c5-c6"), 0) == why


# -- W5, W6: declining, no target, once per game ----------------------------------------------


def test_w5_a_power_with_no_legal_target_must_be_declined() -> None:
    """W5, W10: New stars on a board with no blank point left has no target: only a decline."""
    b, copy = with_copy(Power.NEW_STARS)
    t = turn("S01", Power.NEW_STARS)
    assert drawing.targets(b, copy, t) == ()
    assert reason(b, passing(use(copy, "a6")), t) == (
        "No blank point is left in a night row: decline this copy."
    )
    assert accepted(b, passing(decline(copy)), t).claimed == copy


@pytest.mark.parametrize("power", [Power.CRESCENT_MOON, Power.BLACK_HOLE])
def test_w6_a_once_per_game_power_gives_no_more_copies_once_used(power: Power) -> None:
    """W6: after a use, later copies ask nothing and naming one is refused; a decline is not
    a use."""
    b, copy = with_copy(power, "c3")
    t = turn("S01", power)
    used = accepted(b, passing(use(copy, "h9")), t)
    assert used.powers_used == {power}
    later = used.changed(drawn=used.drawn | copy_of(power, "g3"))
    assert drawing.open_copies(later, t) == frozenset()
    assert accepted(later, passing(), t) == later
    why = f"The {drawing.POWER_WORDS[power]} is used once per game: no copy gives it again."
    assert reason(later, passing(decline(copy_of(power, "g3"))), t) == why
    declined = accepted(b, passing(decline(copy)), t)
    again = declined.changed(drawn=declined.drawn | copy_of(power, "g3"))
    assert drawing.open_copies(again, t) == {copy_of(power, "g3")}


# -- W7-W12: the basic powers ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "mark"),
    [
        (Power.PLANET, Mark.PLANET),
        (Power.TWINKLING_STAR, Mark.TWINKLING_STAR),
        (Power.CRESCENT_MOON, Mark.CRESCENT_MOON),
        (Power.BLACK_HOLE, Mark.BLACK_HOLE),
    ],
)
def test_w7_w8_w12_w15_w16_an_object_goes_on_an_unused_star(power: Power, mark: Mark) -> None:
    """W7, W8, W12, W15, W16: on an unused star in a night row; a line end, a day row, a
    shooting star's star or a covered point is refused with its reason."""
    b, copy = with_copy(power, "c5")
    b = b.changed(
        shooting_stars=(ShootingStar((sky.parse_line("h8-i9"),), P("h8")),),
        objects=(Placed(Mark.PLANET, P("g9")),),
    )
    t = turn("S01", power, round=7)
    after = accepted(b, passing(use(copy, "f9")), t)
    assert after.mark_at(P("f9")) is mark and after.claimed == copy
    end = sorted(sky.ends(copy))[0]
    for target, why in (
        (sky.point_name(end), f"{sky.point_name(end)} ends a line: it is not an unused star."),
        ("e2", "e2 is in a day row."),
        ("h8", "h8 is a star of a shooting star."),
        ("g9", "g9 holds a planet."),
    ):
        assert reason(b, passing(use(copy, target)), t) == why
    assert len(drawing.targets(b, copy, t)) == sum(
        1 for p in sky.OUTLINE if b.is_unused_star(p, t.day)
    )


def test_w8_a_drawn_planet_scores_like_a_printed_one() -> None:
    """W8, E3: the drawn planet beside the copy's constellation scores 1."""
    b, copy = with_copy(Power.PLANET, "c3")
    after = accepted(b, passing(use(copy, "d4")), turn("S01", Power.PLANET))
    assert score(after, CROSS).planets == 1


def test_w9_l9_the_line_power_draws_one_line_obeying_l1_to_l6() -> None:
    """W9, L9: two neighbouring usable stars; a non-neighbour, a repeat or a day row is
    refused; the line joins groups like any other."""
    b = before_line_copy()
    t = turn("S04", round=7)
    after = accepted(b, lines("d4-e5 e5-f6", use(LINE_COPY, "f6", "f7")), t)
    assert after.groups == (LINE_COPY | S("f6-f7"),)
    for ends, why in (
        (("f6", "f8"), "f6-f8 is not a line: its ends are not neighbours."),
        (("d4", "e5"), "Line d4-e5 is already drawn."),
        (("c2", "c3"), "c2 is in a day row."),
        (("f6",), "The Line power takes two neighbouring stars."),
    ):
        assert reason(b, lines("d4-e5 e5-f6", use(LINE_COPY, *ends)), t) == why


def test_w10_new_stars_go_on_two_blank_points_in_night_rows_or_one_when_one_is_left() -> None:
    """W10: two blanks in night rows; one when only one is left; then they are stars (L2a)."""
    on = design(blanks="a6 a7 i10 h10", landscape="e1")
    b, copy = with_copy(Power.NEW_STARS, "c3")
    b = StarBoard(on).changed(drawn=b.drawn)
    t = turn("S01", Power.NEW_STARS)
    after = accepted(b, passing(use(copy, "a6", "h10")), t)
    assert after.new_stars == {P("a6"), P("h10")} and after.is_star(P("a6"))
    assert reason(b, passing(use(copy, "a6")), t) == (
        "The New stars power takes 2 different blank points."
    )
    assert reason(b, passing(use(copy, "a6", "a6")), t).startswith("The New stars power takes 2")
    assert reason(b, passing(use(copy, "a6", "e1")), t) == "e1 is landscape, not a star."
    assert reason(b, passing(use(copy, "a6", "b6")), t) == "b6 is not a blank point."
    one_left = b.changed(new_stars=frozenset({P("a6"), P("a7"), P("h10")}))
    assert accepted(one_left, passing(use(copy, "i10")), t).new_stars == {
        P("a6"),
        P("a7"),
        P("h10"),
        P("i10"),
    }
    assert drawing.targets(one_left, copy, t) == ((P("i10"),),)


def test_w10_new_stars_never_in_a_day_row() -> None:
    """W10, R4: a blank in a day row is no target."""
    on = design(blanks="a2 b2 i10")
    b, copy = with_copy(Power.NEW_STARS, "c5")
    b = StarBoard(on).changed(drawn=b.drawn)
    t = turn("S01", Power.NEW_STARS, round=7)
    assert drawing.targets(b, copy, t) == ((P("i10"),),)
    assert reason(b, passing(use(copy, "a2")), t) == "a2 is in a day row."


def test_w11_a_galaxy_covers_two_unused_horizontal_neighbours_beside_the_copy_s_group() -> None:
    """W11: two unused stars side by side, one of them a neighbour of the group that holds
    the copy; far away, or on a line end, is refused. It scores 2 (E5)."""
    b, copy = with_copy(Power.GALAXY, "c3", extra="h8-h9")
    t = turn("S01", Power.GALAXY)
    after = accepted(b, passing(use(copy, "f4")), t)  # f4 is beside e4, the copy's tail
    assert after.mark_at(P("f4")) is Mark.GALAXY and after.mark_at(P("g4")) is Mark.GALAXY
    assert score(after, CROSS).galaxies == 2
    assert reason(b, passing(use(copy, "f7")), t) == (
        "A galaxy goes beside the group whose copy earned it."
    )
    assert reason(b, passing(use(copy, "g8")), t) == "h8 ends a line: it is not an unused star."
    assert reason(b, passing(use(copy, "j5")), t) == "(10, 5) is outside the sky."


def test_w11_the_galaxy_s_group_is_the_group_as_it_stands_then() -> None:
    """W11, W4: lines drawn this round that join the copy's group count for "beside"."""
    b, copy = with_copy(Power.GALAXY, "c3", extra="d4-e5 e5-f6")  # e5-f6 joined through d4
    t = turn("S01", Power.GALAXY)
    assert accepted(b, passing(use(copy, "g7")), t).mark_at(P("g7")) is Mark.GALAXY


# -- W13, W14: nova and aura -------------------------------------------------------------------


@pytest.mark.parametrize("power", [Power.NOVA, Power.AURA])
def test_w13_w14_a_nova_or_an_aura_goes_on_a_star_of_a_constellation(power: Power) -> None:
    """W13, W14, C3: a group of 3-8 lines, day rows allowed; not a lone line or two, not a
    group of nine without a nova, not a point that ends no line."""
    nine = "b9-c9 c9-d9 d9-e9 e9-f9 f9-g9 g9-h9 h9-i9 c9-c10 h9-h10"
    b, copy = with_copy(power, "c1", extra=f"i2-j2 {nine}")
    b = b.changed(claimed=S(nine))  # its own T and diamond copies were resolved before
    t = turn("S01", power, round=13)
    stars = sorted(sky.ends(copy))
    on_day_row = next(p for p in stars if p[1] <= 4)
    after = accepted(b, passing(use(copy, sky.point_name(on_day_row))), t)
    assert after.mark_at(on_day_row) is (Mark.NOVA if power is Power.NOVA else Mark.AURA)
    word = drawing.MARK_WORDS[drawing.POWER_MARK[power]]
    assert reason(b, passing(use(copy, "i2")), t) == (
        "i2 is not in a constellation (3 to 8 lines, or up to 10 with a nova): "
        "its group has 1 line."
    )
    assert reason(b, passing(use(copy, "e9")), t).endswith("its group has 9 lines.")
    assert reason(b, passing(use(copy, "g6")), t) == (
        f"g6 ends no line: a {word} goes on a constellation."
    )
    assert {tg[0] for tg in drawing.targets(b, copy, t)} == set(stars)


def test_w13_a_nova_makes_its_group_a_constellation_up_to_ten_lines() -> None:
    """W13, C3: with a nova, a group grown to 9 or 10 lines still scores; one star holds at
    most one nova (Decision); a second nova elsewhere in the group is allowed."""
    b, copy = with_copy(Power.NOVA, "c3")
    t = turn("S01", Power.NOVA)
    star = sorted(sky.ends(copy))[0]
    after = accepted(b, passing(use(copy, sky.point_name(star))), t)
    grown = after.changed(drawn=after.drawn | S("d5-e5 e5-f5 f5-g5 g5-h5 h5-i5 i5-j5"))
    assert len(grown.groups[0]) == 9 and score(grown, CROSS).sizes == (9,)
    second, copy2 = grown, copy_of(Power.NOVA, "g7")
    second = second.changed(drawn=second.drawn | copy2)
    assert reason(second, passing(use(copy2, sky.point_name(star))), t) == (
        f"{sky.point_name(star)} already holds a nova."
    )


def test_w14_one_aura_per_constellation_and_nothing_touches_it_after() -> None:
    """W14: a second aura on the same group is refused; it scores 2 (E5)."""
    b, copy = with_copy(Power.AURA, "c3")
    t = turn("S01", Power.AURA)
    stars = sorted(sky.ends(copy))
    after = accepted(b, passing(use(copy, sky.point_name(stars[0]))), t)
    assert score(after, CROSS).auras == 2
    copy2 = copy_of(Power.AURA, "f3")
    joined = after.changed(drawn=after.drawn | copy2 | S("d4-e4 e4-f4"))
    assert len(joined.group_of(P("f3")) or ()) == 8
    assert reason(joined, passing(use(copy2, "f3")), t) == (
        "That constellation already has a luminous aura."
    )


# -- W17: what a resolution names ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "targets"),
    [(Power.PLANET, ("f9", "g9")), (Power.NOVA, ()), (Power.GALAXY, ("f9", "g9"))],
)
def test_w17_a_use_names_the_points_its_power_takes(power: Power, targets: tuple) -> None:
    """W17: one point (two for Line, one or two blanks for New stars); anything else is
    refused. An empty target list is a decline (W5)."""
    b, copy = with_copy(power, "c3")
    t = turn("S01", power)
    if not targets:
        assert accepted(b, passing(use(copy)), t).claimed == copy
        return
    assert reason(b, passing(use(copy, *targets)), t) == (
        f"The {drawing.POWER_WORDS[power]} power takes one point."
    )


def test_w17_the_server_checks_every_target_again_whatever_a_draft_said() -> None:
    """W17: every target ``targets`` offers is accepted, and nothing else is."""
    b, copy = with_copy(Power.TWINKLING_STAR, "c3", extra="h5-h6")
    t = turn("S01", Power.TWINKLING_STAR, round=7)
    offered = set(drawing.targets(b, copy, t))
    for p in sky.OUTLINE:
        ok = drawing.refused(b, passing(use(copy, sky.point_name(p))), t) is None
        assert ok == ((p,) in offered)
