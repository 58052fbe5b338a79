"""The dice and plotting (D1-D6, P1-P7) and worked example 1: which spaces a seat reaches,
with wilds, the Lens and the Drive, judged step by step on the sheet as it stands."""

from __future__ import annotations

import pytest

from games.observatory.rules import steps as st
from games.observatory.rules.deck import CARDS, BonusKind
from games.observatory.rules.sheet import SHOOTING_STAR_DIE, Dice
from games.observatory.rules.sheet_data import (
    SPACES,
    Track,
    line_spaces,
    sector_of,
    sector_spaces,
)
from tests.games.observatory.sheet_helpers import dice, full, offered, ok, placed, sheet, slots, why

ALL = frozenset(SPACES)
LENS = full(Track.LENS)
DRIVE_4 = full(Track.DRIVE)


def pair_reach(s: st.Sheet, d: Dice, research: int, *lens: st.Step) -> frozenset[tuple[int, int]]:
    return offered(s, [st.ResearchDie(research), *lens], d).pair_plots


# -- worked example 1 -----------------------------------------------------------------------

EXAMPLE_1 = dice(1, 4, 6, 3)  # blue (?, 4, 6), orange 3


def test_example_1_seat_2_with_nothing_researched_cannot_reach_5_10() -> None:
    """Worked example 1, seat 2: research die 6 leaves (?, 4): sector-row 4 and sector-column
    4; research die 4 leaves (?, 6): rows 11-12 and columns 11-12; research die ? leaves (4, 6):
    sectors (4, 6) and (6, 4). (5, 10), in sector (3, 5), is in none of them (D4, P2, P3)."""
    seat_2 = sheet()
    assert sector_of((5, 10)) == (3, 5)
    assert pair_reach(seat_2, EXAMPLE_1, 2) == line_spaces(4)
    assert pair_reach(seat_2, EXAMPLE_1, 1) == line_spaces(6)
    assert pair_reach(seat_2, EXAMPLE_1, 0) == sector_spaces((4, 6)) | sector_spaces((6, 4))
    for research in (0, 1, 2):
        assert (5, 10) not in pair_reach(seat_2, EXAMPLE_1, research)
        reason = why(seat_2, [st.ResearchDie(research), st.PairPlot((5, 10))], EXAMPLE_1)
        assert reason.startswith("Step 2 (pair plot (5, 10)): (5, 10) is in sector (3, 5)")
        assert reason.endswith("(P2).")


def test_example_1_seat_2_plots_7_2_and_fills_the_6_of_funding() -> None:
    """Worked example 1, seat 2: (7, 2) with (?, 4), and Funding's 6 with the research die."""
    after = ok(
        sheet(),
        [st.ResearchDie(2), st.PairPlot((7, 2)), st.ResearchFill(Track.FUNDING, 5)],
        EXAMPLE_1,
    )
    assert after.stars == {(7, 2)}
    assert after.research == {(Track.FUNDING, 5)}


def test_example_1_seat_3_with_the_lens_reaches_5_10_two_ways() -> None:
    """Worked example 1, seat 3 (Lens complete): research die 6, the 4 taken to 3: (?, 3)
    reaches sector-row 3; or research die 4, the 6 taken to 5: (?, 5) reaches sector-column
    5 (columns 9-10). (5, 10) is legal both ways (D3, R7)."""
    seat_3 = sheet(research=LENS)
    first = pair_reach(seat_3, EXAMPLE_1, 2, st.Lens(1, -1))
    second = pair_reach(seat_3, EXAMPLE_1, 1, st.Lens(2, -1))
    assert first == line_spaces(3)
    assert second == line_spaces(5)
    assert (5, 10) in first and (5, 10) in second
    for plan in (
        [st.ResearchDie(2), st.Lens(1, -1), st.PairPlot((5, 10))],
        [st.ResearchDie(1), st.Lens(2, -1), st.PairPlot((5, 10))],
    ):
        assert ok(seat_3, plan, EXAMPLE_1).stars == {(5, 10)}


def test_example_1_seat_1_with_drive_4_reaches_every_empty_space() -> None:
    """Worked example 1, seat 1 (active, Drive 4): the ? and the 4 are both wild, so research
    die 6 and the pair (?, 4) reach every empty space (D4, P3)."""
    seat_1 = sheet(research=DRIVE_4, drive=4, stars=[(2, 2)])
    assert pair_reach(seat_1, EXAMPLE_1, 2) == ALL - {(2, 2)}
    assert ok(seat_1, [st.ResearchDie(2), st.PairPlot((5, 10))], EXAMPLE_1, active=True)


def test_example_1_seat_1_plots_with_the_orange_3() -> None:
    """Worked example 1: the active seat plots with the orange 3 in rows 5-6 or columns 5-6,
    say (6, 1); no other seat may use it (P4, N7)."""
    seat_1 = sheet(research=DRIVE_4, drive=4)
    options = offered(seat_1, [], EXAMPLE_1, active=True)
    assert options.shooting_plots == line_spaces(3)
    assert ok(seat_1, [st.ShootingPlot((6, 1))], EXAMPLE_1, active=True).stars == {(6, 1)}
    assert offered(sheet(), [], EXAMPLE_1, active=False).shooting_plots == frozenset()
    assert "(P4, N7)" in why(sheet(), [st.ShootingPlot((6, 1))], EXAMPLE_1)


# -- D: dice and wilds ----------------------------------------------------------------------


def test_d1_a_die_has_the_faces_1_to_6_and_the_question_mark_is_1() -> None:
    """D1: faces 1-6; "?" is 1 (shown as "?"); anything else is no face."""
    assert str(dice(1, 4, 6, 3)) == "blue (?, 4, 6), orange 3"
    for bad in (0, 7):
        with pytest.raises(ValueError):
            Dice((bad, 2, 3), 4)
        with pytest.raises(ValueError):
            Dice((2, 2, 3), bad)


def test_d2_apply_rolls_nothing_the_same_dice_give_the_same_sheet() -> None:
    """D2: the dice come in with the turn; applying the same submission twice (a replay)
    gives the same sheet and never rolls."""
    plan = [st.ResearchDie(0), st.PairPlot((5, 7)), st.ResearchFill(Track.LENS, 1)]
    d = dice(2, 3, 4)
    assert ok(sheet(), plan, d) == ok(sheet(), plan, d)


def test_d3_the_lens_moves_a_die_by_one_within_1_to_6_no_wrap() -> None:
    """D3: the Lens gives the seat's effective value ±1; a 6 cannot go to 7 (nor wrap to ?),
    a ? cannot go to 0 (nor wrap to 6)."""
    s = sheet(research=LENS)
    d = dice(6, 1, 3)
    assert "no wrap-around (D3)" in why(s, [st.Lens(0, +1)], d)
    assert "no wrap-around (D3)" in why(s, [st.Lens(1, -1)], d)
    # the 6 taken to 5 pairs with the 3 (research die ?): sectors (5, 3) and (3, 5) only
    assert pair_reach(s, d, 1, st.Lens(0, -1)) == sector_spaces((5, 3)) | sector_spaces((3, 5))


def test_d4_a_die_is_wild_at_1_or_at_the_drive_number() -> None:
    """D4: an effective 1 is wild; so is the Drive number; a wild stands for any value, the
    space picked shows it."""
    assert pair_reach(sheet(), dice(1, 5, 2), 2) == line_spaces(5)
    driven = sheet(research=DRIVE_4, drive=5)
    assert pair_reach(driven, dice(3, 5, 2), 2) == line_spaces(3)


def test_d4_a_drive_number_set_by_an_earlier_step_makes_later_dice_wild() -> None:
    """D4, U7: the research fill completing the Drive writes 4; the pair plot after it finds
    the 4 wild, so (1, 3), in sector (1, 2), is reached
    with (4, 2)."""
    s = sheet(research=slots(Track.DRIVE, 1, 2, 3, 4))
    d = dice(4, 2, 6)
    assert (1, 3) not in pair_reach(s, d, 2)
    plan = [st.ResearchDie(2), st.ResearchFill(Track.DRIVE, 5, drive=4), st.PairPlot((1, 3))]
    after = ok(s, plan, d)
    assert after.drive == 4 and (1, 3) in after.stars
    # the same plot before the fill is refused: wildness is judged at each step
    early = [st.ResearchDie(2), st.PairPlot((1, 3)), st.ResearchFill(Track.DRIVE, 5, drive=4)]
    assert "(P2)" in why(s, early, d)


def test_d4_a_drive_die_moved_off_by_the_lens_is_not_wild() -> None:
    """D4: the Drive number rolled and moved by the Lens is its effective value, not wild."""
    s = sheet(research=LENS | DRIVE_4, drive=4)
    d = dice(4, 3, 6)
    assert pair_reach(s, d, 2) == line_spaces(3)
    assert pair_reach(s, d, 2, st.Lens(0, +1)) == sector_spaces((5, 3)) | sector_spaces((3, 5))


def test_d4_a_question_mark_moved_to_2_is_wild_only_if_2_is_the_drive() -> None:
    """D4, R7: a ? taken to 2 is not wild; unless the Drive number is 2. A 2 taken to 1 is."""
    d = dice(1, 3, 6)
    lensed = sheet(research=LENS)
    assert pair_reach(lensed, d, 2, st.Lens(0, +1)) == sector_spaces((2, 3)) | sector_spaces((3, 2))
    driven = sheet(research=LENS | DRIVE_4, drive=2)
    assert pair_reach(driven, d, 2, st.Lens(0, +1)) == line_spaces(3)
    assert pair_reach(lensed, dice(2, 3, 6), 2, st.Lens(0, -1)) == line_spaces(3)


def test_d5_one_seats_lens_and_drive_never_change_the_dice_for_another() -> None:
    """D5: seat A's Lens and Drive are its own; seat B, with the same dice, reaches what the
    faces give it."""
    d = dice(4, 3, 6)
    a = sheet(research=LENS | DRIVE_4, drive=3)
    ok(a, [st.ResearchDie(2), st.Lens(0, -1), st.PairPlot((1, 1))], d)
    assert d == dice(4, 3, 6)
    assert pair_reach(sheet(), d, 2) == sector_spaces((4, 3)) | sector_spaces((3, 4))


def test_d6_a_shooting_star_bonus_value_is_never_wild() -> None:
    """D6, P6: Canes Venatici's printed 3 reaches sector-row 3 and sector-column 3 only, even
    for a seat whose Drive number is 3 (the Drive does not apply to a printed value)."""
    card = CARDS["S10"]
    assert card.bonus.kind is BonusKind.SHOOTING_STAR and card.bonus.value == 3
    spaces = placed("S10", (9, 9))
    s = sheet(stars=spaces, goals=["S10"], research=DRIVE_4, drive=3)
    options = offered(s, [st.Claim("S10", spaces)])
    assert options.card_bonus_spaces == line_spaces(3)
    assert "(P6, D6)" in why(s, [st.Claim("S10", spaces), st.CardBonus(space=(1, 1))])


# -- P: plotting ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "plan",
    [
        [st.ResearchDie(0), st.PairPlot((5, 5))],
        [st.ShootingPlot((5, 5))],
        [st.FinderStar((5, 5))],
        [st.TrackBonus(space=(5, 5))],
    ],
)
def test_p1_a_space_never_holds_two_stars(plan: list[st.Step]) -> None:
    """P1: every kind of plot aimed at a full space is refused."""
    s = sheet(stars=[(5, 5)], finder_left=4, banked=1)
    assert f"Step {len(plan)}" in (reason := why(s, plan, dice(1, 1, 3, 1), active=True))
    assert reason.endswith("(5, 5) already holds a star (P1).")


def test_p1_a_night_bonus_star_needs_an_empty_space() -> None:
    """P1: the Night bonus star too."""
    reason = why(sheet(stars=[(5, 5)]), [st.NightBonus(space=(5, 5))], opening=True)
    assert reason.endswith("(P1).")


def test_p2_the_pair_matches_the_sector_either_way_round() -> None:
    """P2: dice (x, y) = (2, 5) reach sector (2, 5) (x the row) and (5, 2) (x the column)."""
    d = dice(2, 5, 6)
    assert ok(sheet(), [st.ResearchDie(2), st.PairPlot((3, 10))], d).stars == {(3, 10)}
    assert ok(sheet(), [st.ResearchDie(2), st.PairPlot((10, 3))], d).stars == {(10, 3)}
    assert "(P2)" in why(sheet(), [st.ResearchDie(2), st.PairPlot((3, 3))], d)


def test_p3_two_different_values_give_the_8_spaces_of_two_sectors() -> None:
    """P3: (3, 5) gives sectors (3, 5) and (5, 3), 8 spaces."""
    reach = pair_reach(sheet(), dice(3, 6, 5), 1)
    assert reach == sector_spaces((3, 5)) | sector_spaces((5, 3))
    assert len(reach) == 8


def test_p3_a_double_gives_the_4_spaces_of_one_sector() -> None:
    """P3: (4, 4) gives sector (4, 4) only."""
    assert pair_reach(sheet(), dice(4, 2, 4), 1) == sector_spaces((4, 4))


def test_p3_a_wild_with_a_value_gives_44_spaces_and_two_wilds_every_empty_space() -> None:
    """P3: (?, 6) gives sector-row 6 and sector-column 6 (44 spaces); (?, ?) every empty
    space."""
    reach = pair_reach(sheet(), dice(1, 3, 6), 1)
    assert reach == line_spaces(6) and len(reach) == 44
    assert pair_reach(sheet(stars=[(1, 1), (7, 7)]), dice(1, 1, 3), 2) == ALL - {(1, 1), (7, 7)}


def test_p3_sector_row_1_and_column_1_are_only_reached_through_a_wild() -> None:
    """P3: without a wild, no pair reaches a space in sector-row 1 or sector-column 1."""
    edge = line_spaces(1)
    for x in range(2, 7):
        for y in range(2, 7):
            assert not pair_reach(sheet(), dice(x, y, 6), 2) & edge
    assert pair_reach(sheet(), dice(1, 3, 6), 2) & edge


def test_p4_the_shooting_star_reaches_its_row_or_column_or_anywhere_when_wild() -> None:
    """P4: the orange v reaches sector-row v or sector-column v; a wild orange, any empty
    space; only the active seat plots with it, once."""
    assert offered(sheet(), [], dice(2, 3, 4, 5), active=True).shooting_plots == line_spaces(5)
    assert offered(sheet(), [], dice(2, 3, 4, 1), active=True).shooting_plots == ALL
    driven = sheet(research=DRIVE_4, drive=5, stars=[(3, 3)])
    assert offered(driven, [], dice(2, 3, 4, 5), active=True).shooting_plots == ALL - {(3, 3)}
    assert "(P4)" in why(sheet(), [st.ShootingPlot((1, 1))], dice(2, 3, 4, 5), active=True)
    twice = [st.ShootingPlot((9, 9)), st.ShootingPlot((9, 10))]
    assert "(U6)" in why(sheet(), twice, dice(2, 3, 4, 5), active=True)


def test_p4_the_lens_moves_the_orange_die_for_the_active_seat_only() -> None:
    """P4, R7: the active seat may take the orange 5 to 6; a non-active seat may not touch it."""
    s = sheet(research=LENS)
    d = dice(2, 3, 4, 5)
    after = ok(s, [st.Lens(SHOOTING_STAR_DIE, +1), st.ShootingPlot((12, 1))], d, active=True)
    assert after.stars == {(12, 1)}
    assert "(N7, R7)" in why(s, [st.Lens(SHOOTING_STAR_DIE, +1)], d)


def test_p5_a_free_star_goes_in_any_empty_space() -> None:
    """P5: the Night bonus, a track bonus, a Finder star and a Free Star bonus go anywhere,
    sector-row 1 included."""
    s = sheet(banked=1, finder_left=1)
    assert ok(s, [st.NightBonus(space=(1, 1))], opening=True).stars == {(1, 1)}
    assert ok(s, [st.TrackBonus(space=(1, 2))], dice(2, 2, 2)).stars == {(1, 2)}
    assert ok(s, [st.FinderStar((12, 12))], dice(2, 2, 2)).stars == {(12, 12)}
    spaces = placed("S02", (5, 5))  # Triangulum: Free Star
    s2 = sheet(stars=spaces, goals=["S02"])
    options = offered(s2, [st.Claim("S02", spaces)])
    assert options.card_bonus_spaces == ALL - spaces


def test_p6_a_shooting_star_bonus_goes_in_its_printed_row_or_column() -> None:
    """P6: Sextans (Shooting Star 4): a star in sector-row 4 or sector-column 4."""
    spaces = placed("S15", (1, 1))
    s = sheet(stars=spaces, goals=["S15"])
    after = ok(s, [st.Claim("S15", spaces), st.CardBonus(space=(12, 8))])
    assert (12, 8) in after.stars
    assert "(P6, D6)" in why(s, [st.Claim("S15", spaces), st.CardBonus(space=(12, 9))])


def test_p7_a_plotted_star_is_unused_until_it_is_in_a_completed_constellation() -> None:
    """P7, C8: stars plotted are unused; once claimed they are used."""
    spaces = placed("S01", (3, 3))
    s = sheet(stars=spaces | {(10, 10)}, goals=["S01"])
    assert s.used_stars == frozenset()
    after = ok(s, [st.Claim("S01", spaces)])
    assert after.used_stars == spaces
