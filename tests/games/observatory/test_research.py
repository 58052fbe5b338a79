"""The Research tracks (R1-R12): fills by the die and without it, track bonuses banked and
spent, abilities from the step that completes a track, the Drive number, Finder stars."""

from __future__ import annotations

import pytest

from games.observatory.rules import steps as st
from games.observatory.rules.scoring import score
from games.observatory.rules.sheet_data import POSITIONS, SPACES, TRACK_VALUES, Track
from tests.games.observatory.sheet_helpers import dice, full, offered, ok, sheet, slots, why

D = dice(2, 3, 4, 5)


def test_r1_a_track_space_is_named_by_track_and_position_and_shows_a_value() -> None:
    """R1: with research die 5, exactly the empty spaces showing 5 are offered: Lens 3 and 4,
    Finder 4, Filter 4, Funding 4; tracks fill in any order (Lens 4 before Lens 1)."""
    d = dice(5, 2, 2)
    found = offered(sheet(), [st.ResearchDie(0)], d).research_fills
    assert found == {
        (track, p) for track in Track for p in POSITIONS if TRACK_VALUES[track][p - 1] == 5
    }
    assert found == {
        (Track.LENS, 3),
        (Track.LENS, 4),
        (Track.FINDER, 4),
        (Track.FILTER, 4),
        (Track.FUNDING, 4),
    }
    assert ok(sheet(), [st.ResearchDie(0), st.ResearchFill(Track.LENS, 4)], d).filled(
        Track.LENS
    ) == {4}
    assert why(sheet(), [st.ResearchDie(0), st.ResearchFill(Track.LENS, 6)], d).endswith("(R1).")


def test_r2_the_research_die_fills_a_space_showing_its_value() -> None:
    """R2: a 4 fills a 4, not a 6; a filled space cannot be filled again."""
    d = dice(4, 2, 2)
    assert why(sheet(), [st.ResearchDie(0), st.ResearchFill(Track.DRIVE, 5)], d) == (
        "Step 2 (research Drive space 5): Drive space 5 shows 6; the research die is 4 (R2)."
    )
    s = sheet(research=slots(Track.DRIVE, 3))
    reason = why(s, [st.ResearchDie(0), st.ResearchFill(Track.DRIVE, 3)], d)
    assert reason.endswith("Drive space 3 is already filled (R1).")


def test_r2_a_wild_research_die_fills_any_empty_space() -> None:
    """R2, D4: a ? research die is offered every empty space."""
    s = sheet(research=slots(Track.FUNDING, 1))
    found = offered(s, [st.ResearchDie(1)], dice(2, 1, 2)).research_fills
    assert found == set(s.empty_slots()) and len(found) == 24


def test_r2_one_research_fill_with_the_die_and_never_with_the_orange_die() -> None:
    """R2, U6: one fill a turn; the Shooting Star die is never the research die."""
    plan = [st.ResearchDie(0), st.ResearchFill(Track.LENS, 1), st.ResearchFill(Track.LENS, 2)]
    assert "(U6, R2)" in why(sheet(), plan, D)
    assert "(R2, U5)" in why(sheet(), [st.ResearchDie(3)], D, active=True)


def test_r3_other_fills_take_any_empty_space_with_no_die() -> None:
    """R3: a track bonus fills a 6 whatever the dice (and in a Night opening there are none)."""
    s = sheet(banked=1)
    after = ok(s, [st.TrackBonus(track=Track.LENS, position=5)], dice(1, 1, 1))
    assert after.research == {(Track.LENS, 5)}
    after = ok(sheet(), [st.NightBonus(track=Track.DRIVE, position=5)], opening=True)
    assert after.research == {(Track.DRIVE, 5)}


@pytest.mark.parametrize("track", [Track.LENS, Track.DRIVE, Track.FINDER, Track.FILTER])
def test_r4_a_third_filled_space_banks_the_tracks_bonus(track: Track) -> None:
    """R4: the fill that makes 3 on a track banks one track bonus; the 4th does not."""
    s = sheet(research=slots(track, 1, 2), banked=0)
    value = TRACK_VALUES[track][2]
    after = ok(s, [st.ResearchDie(0), st.ResearchFill(track, 3)], dice(value, 2, 2))
    assert after.banked == 1 and track in after.gained
    fourth = ok(after, [st.ResearchDie(0), st.ResearchFill(track, 4)], dice(1, 2, 2))
    assert fourth.banked == 1


def test_r4_however_filled_and_funding_has_none() -> None:
    """R4: a Night bonus fill makes 3 and banks the bonus; 3 Funding spaces bank nothing."""
    s = sheet(research=slots(Track.FILTER, 1, 2) | slots(Track.FUNDING, 1, 2))
    after = ok(s, [st.NightBonus(track=Track.FILTER, position=5)], opening=True)
    assert after.banked == 1
    after = ok(s, [st.NightBonus(track=Track.FUNDING, position=5)], opening=True)
    assert after.banked == 0 and after.gained == frozenset()


def test_r5_a_banked_bonus_is_a_free_star_or_a_research_space_never_both() -> None:
    """R5: one of the two; both refused; with nothing banked, refused."""
    s = sheet(banked=1)
    assert ok(s, [st.TrackBonus(space=(1, 1))], D).banked == 0
    both = st.TrackBonus(space=(1, 1), track=Track.LENS, position=1)
    assert why(s, [both], D).endswith("never both (R5).")
    assert why(s, [st.TrackBonus()], D).endswith("(R5).")
    assert why(sheet(), [st.TrackBonus(space=(1, 1))], D).endswith("(R4, R5).")


def test_r5_a_bonus_gained_earlier_in_the_submission_is_spent_later_on_its_own_track() -> None:
    """R5: the research die makes Lens 3, banking a bonus, which then fills Lens 4."""
    s = sheet(research=slots(Track.LENS, 1, 2))
    plan = [
        st.ResearchDie(0),
        st.ResearchFill(Track.LENS, 3),
        st.TrackBonus(track=Track.LENS, position=4),
    ]
    after = ok(s, plan, dice(5, 2, 2))
    assert after.filled(Track.LENS) == {1, 2, 3, 4} and after.banked == 0


def test_r6_an_ability_is_the_seats_from_the_step_that_completes_its_track() -> None:
    """R6: a track bonus completes the Filter; the claim after it gives its bonus twice."""
    spaces = frozenset({(2, 3), (3, 2), (4, 2)})  # Sagitta: Research
    s = sheet(stars=spaces, goals=["S03"], research=slots(Track.FILTER, 1, 2, 3, 4), banked=1)
    plan: list[st.Step] = [
        st.TrackBonus(track=Track.FILTER, position=5),
        st.Claim("S03", spaces),
        st.CardBonus(track=Track.FUNDING, position=1),
        st.CardBonus(track=Track.FUNDING, position=2),
    ]
    assert ok(s, plan, D).filled(Track.FUNDING) == {1, 2}


def test_r7_the_lens_is_once_per_turn_and_before_the_dies_use() -> None:
    """R7: a Lens on a die already used by the pair plot is refused; on the research die after
    naming it (not a use) it is allowed; a Lens on a die never used still spends the Lens."""
    s = sheet(research=full(Track.LENS))
    d = dice(2, 3, 4)
    late = [st.ResearchDie(2), st.PairPlot((3, 5)), st.Lens(0, +1)]
    assert why(s, late, d).endswith(
        "the 1st blue die is already used: the Lens comes before its use (R7)."
    )
    named = [st.ResearchDie(2), st.Lens(2, +1), st.ResearchFill(Track.FUNDING, 4)]
    assert ok(s, named, d).research >= {(Track.FUNDING, 4)}
    unused = [st.Lens(0, +1), st.Lens(1, +1)]
    assert "(R7, U6)" in why(s, unused, d)
    assert ok(s, unused[:1], d) == s
    assert why(s, [st.Lens(0, 2)], d).endswith("(R7).")


def test_r8_the_fill_completing_the_drive_writes_its_number() -> None:
    """R8, U5.10: whatever position is last (here 2), its fill must carry 2-6, which is then
    the Drive number; without it, or out of range, the submission is refused."""
    s = sheet(research=slots(Track.DRIVE, 1, 3, 4, 5))
    d = dice(3, 2, 2)
    after = ok(s, [st.ResearchDie(0), st.ResearchFill(Track.DRIVE, 2, drive=6)], d)
    assert after.drive == 6 and after.has(Track.DRIVE)
    reason = why(s, [st.ResearchDie(0), st.ResearchFill(Track.DRIVE, 2)], d)
    assert reason.endswith("it must carry the Drive number, 2-6 (R8).")
    for bad in (1, 7):
        reason = why(s, [st.ResearchDie(0), st.ResearchFill(Track.DRIVE, 2, drive=bad)], d)
        assert reason.endswith("write 2 to 6 (R8).")


def test_r8_the_drive_number_never_changes() -> None:
    """R8: once written it stays; no later fill can carry one (the track is full)."""
    s = sheet(research=full(Track.DRIVE), drive=3, banked=1)
    assert why(s, [st.TrackBonus(track=Track.LENS, position=1, drive=5)], D).endswith("(U5.10).")
    assert ok(s, [st.TrackBonus(track=Track.LENS, position=1)], D).drive == 3


def test_r9_completing_the_finder_gives_four_stars_spent_any_time() -> None:
    """R9: the fill that completes the Finder gives 4 Finder stars, spendable in the same
    submission, any number at once, each on any empty space."""
    s = sheet(research=slots(Track.FINDER, 1, 2, 3, 4))
    plan: list[st.Step] = [st.ResearchDie(0), st.ResearchFill(Track.FINDER, 5)]
    plan += [st.FinderStar((1, c)) for c in (1, 4, 7, 10)]
    after = ok(s, plan, dice(6, 2, 2))
    assert after.finder_left == 0 and len(after.stars) == 4
    assert why(s, [*plan, st.FinderStar((12, 12))], dice(6, 2, 2)).endswith("(R9).")
    assert offered(after.__class__(finder_left=1), [], D).finder_spaces == frozenset(SPACES)


def test_r10_filter_gives_a_cards_bonus_twice() -> None:
    """R10: with Filter complete, Canes Venatici's Shooting Star 3 is used twice."""
    spaces = frozenset({(9, 9), (10, 10), (11, 10)})  # Canes Venatici unturned
    s = sheet(stars=spaces, goals=["S10"], research=full(Track.FILTER))
    plan: list[st.Step] = [
        st.Claim("S10", spaces),
        st.CardBonus(space=(5, 1)),
        st.CardBonus(space=(1, 6)),
    ]
    assert ok(s, plan, D).stars >= {(5, 1), (1, 6)}


def test_r11_each_funding_space_scores_a_point_full_or_not() -> None:
    """R11: 3 Funding spaces score 3; all 5, 5; Funding banks no bonus."""
    assert score(sheet(research=slots(Track.FUNDING, 1, 3, 5))).funding == 3
    assert score(sheet(research=full(Track.FUNDING))).funding == 5


def test_r12_banked_bonuses_and_finder_stars_left_are_worth_nothing() -> None:
    """R12: a sheet with 3 banked bonuses and 4 Finder stars scores 0."""
    assert score(sheet(banked=3, finder_left=4)).total == 0
