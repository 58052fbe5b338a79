"""A seat's submission as a whole (U1-U9) and the Night opening's limits (N8): steps checked in
order, all or nothing, readable refusals naming the first failed step and its rule."""

from __future__ import annotations

import pytest

from games.kit import Problem, Refusal, Round, SeatStatus, Submitted, submit, with_submission
from games.observatory.rules import steps as st
from games.observatory.rules.sheet_data import SPACES, Track, line_spaces
from tests.games.observatory.sheet_helpers import dice, full, offered, ok, placed, sheet, slots, why

LENS = full(Track.LENS)
D = dice(2, 3, 4, 5)


# -- U1, U2: in order, all or nothing ---------------------------------------------------------


def test_u1_each_step_is_checked_against_the_sheet_the_earlier_steps_left() -> None:
    """U1: a star plotted by step 2 is there for step 3 (a Finder star on it is refused) and
    a track filled by step 3 for step 4."""
    s = sheet(finder_left=2)
    after = ok(s, [st.ResearchDie(2), st.PairPlot((3, 5)), st.FinderStar((3, 6))], D)
    assert after.stars == {(3, 5), (3, 6)}
    assert after.finder_left == 1
    reason = why(s, [st.ResearchDie(2), st.PairPlot((3, 5)), st.FinderStar((3, 5))], D)
    assert reason == "Step 3 (Finder star at (3, 5)): (3, 5) already holds a star (P1)."


def test_u1_a_submission_is_accepted_or_refused_whole() -> None:
    """U1: when the last step fails, the plots of the earlier ones are not kept either."""
    s = sheet()
    plan = [st.ResearchDie(2), st.PairPlot((3, 5)), st.ResearchFill(Track.LENS, 1)]
    assert isinstance(st.apply(s, plan, dice=D, active=False, opening=False), Refusal)
    assert s == sheet() and s.stars == frozenset()


def test_u2_a_refusal_names_the_first_failing_step_and_its_rule() -> None:
    """U2: two bad steps: the reason names the first (step 2, P2), with the INVALID kind;
    the sheet passed in is untouched."""
    s = sheet()
    plan = [st.ResearchDie(2), st.PairPlot((1, 1)), st.FinderStar((2, 2))]
    refused = st.apply(s, plan, dice=D, active=False, opening=False)
    assert isinstance(refused, Refusal)
    assert refused.problem is Problem.INVALID
    assert refused.reason == (
        "Step 2 (pair plot (1, 1)): (1, 1) is in sector (1, 1): 2 and 3 miss it (P2)."
    )
    assert s == sheet()


# -- U3: an accepted submission is final (the round's part, with apply as the check) ----------


def test_u3_an_accepted_submission_is_final_for_the_step() -> None:
    """U3: through the kit's simultaneous round, with ``apply`` as the legality check: seat 1's
    accepted submission cannot be followed by another in the same turn, even a legal one;
    the other seat only sees "done"."""
    s = sheet()

    def refuse(plan: tuple[st.Step, ...]) -> Refusal | None:
        after = st.apply(s, plan, dice=D, active=False, opening=False)
        return after if isinstance(after, Refusal) else None

    turn: Round[tuple[st.Step, ...]] = Round(number=1, seats=frozenset({1, 2}), started=0)
    bad = (st.ResearchDie(0), st.PairPlot((1, 1)))
    assert isinstance(submit(turn, 1, bad, refuse=refuse), Refusal)  # refused: may send again
    good = (st.ResearchDie(0), st.PairPlot((5, 7)))
    decided = submit(turn, 1, good, refuse=refuse)
    assert not isinstance(decided, Refusal)
    (accepted,) = decided
    assert isinstance(accepted, Submitted)
    turn = with_submission(turn, accepted)
    again = submit(turn, 1, (st.ResearchDie(1),), refuse=refuse)
    assert isinstance(again, Refusal) and "final" in again.reason
    assert turn.status_for(2).seats[1] is SeatStatus.DONE
    assert turn.status_for(2).own is None


# -- U4, U5: passes and the kinds of steps ----------------------------------------------------


def test_u4_an_empty_submission_is_a_pass() -> None:
    """U4: nothing plotted, nothing researched, in a turn and in a Night opening."""
    s = sheet(stars=[(4, 4)], goals=["S01"])
    assert ok(s, [], D) == s
    assert ok(s, [], opening=True) == s


def test_u4_plotting_and_researching_are_each_optional() -> None:
    """U4: a seat may research and not plot, or plot and not research."""
    assert ok(sheet(), [st.ResearchDie(0), st.ResearchFill(Track.LENS, 1)], D).stars == set()
    assert ok(sheet(), [st.ResearchDie(0), st.PairPlot((7, 5))], D).research == set()


@pytest.mark.parametrize(
    "step", [st.PairPlot((3, 5)), st.ResearchFill(Track.LENS, 1)], ids=["pair", "fill"]
)
def test_u5_the_research_die_comes_before_a_pair_plot_or_a_research_fill(step: st.Step) -> None:
    """U5.1: a pair plot or a research fill with no research die named is refused."""
    assert why(sheet(), [step], D).endswith("(U5).")


def test_u5_the_shooting_star_die_is_never_the_research_die() -> None:
    """U5.1, R2: the research die is one of the three blue dice."""
    assert why(sheet(), [st.ResearchDie(3)], D).endswith("(R2, U5).")


def test_u5_a_drive_number_on_a_fill_that_does_not_complete_the_drive_is_refused() -> None:
    """U5.10: only the fill of the Drive's last empty space carries the number."""
    reason = why(sheet(), [st.ResearchDie(0), st.ResearchFill(Track.LENS, 1, drive=3)], D)
    assert reason.endswith("(U5.10).")
    s = sheet(research=slots(Track.DRIVE, 1, 2, 3), banked=1)
    reason = why(s, [st.TrackBonus(track=Track.DRIVE, position=4, drive=3)], D)
    assert reason.endswith("(U5.10).")
    assert why(s, [st.TrackBonus(space=(1, 1), drive=3)], D).endswith("(U5.10).")


# -- U6: per-turn limits ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "plan",
    [
        [st.ResearchDie(0), st.ResearchDie(1)],
        [st.Lens(0, +1), st.Lens(1, +1)],
        [st.ResearchDie(0), st.PairPlot((5, 7)), st.PairPlot((5, 8))],
        [st.ResearchDie(0), st.ResearchFill(Track.LENS, 1), st.ResearchFill(Track.LENS, 2)],
        [st.ShootingPlot((9, 1)), st.ShootingPlot((9, 2))],
    ],
    ids=["research-die", "lens", "pair-plot", "research-fill", "shooting-plot"],
)
def test_u6_one_of_each_dice_step_per_turn(plan: list[st.Step]) -> None:
    """U6: a second research die, Lens, pair plot, research fill or Shooting Star plot is
    refused, naming the second one."""
    s = sheet(research=LENS) if isinstance(plan[0], st.Lens) else sheet()
    reason = why(s, plan, dice(2, 3, 4, 5), active=True)
    assert reason.startswith(f"Step {len(plan)} ")
    assert "U6" in reason


def test_u6_claims_track_bonuses_and_finder_stars_come_as_often_as_the_seat_has_them() -> None:
    """U6: two claims, two track bonuses and three Finder stars in one submission."""
    first, second = placed("S01", (1, 1)), placed("S05", (8, 8))
    s = sheet(stars=first | second, goals=["S01", "S05"], banked=2, finder_left=3)
    plan: list[st.Step] = [
        st.Claim("S01", first),
        st.Claim("S05", second),
        st.TrackBonus(space=(12, 1)),
        st.TrackBonus(track=Track.FUNDING, position=1),
        st.FinderStar((12, 3)),
        st.FinderStar((12, 5)),
        st.FinderStar((12, 7)),
    ]
    after = ok(s, plan, D)
    assert after.completed == ("S01", "S05")
    assert after.banked == 0 and after.finder_left == 0
    assert {(12, 1), (12, 3), (12, 5), (12, 7)} <= after.stars
    assert "(R9)" in why(s, [*plan, st.FinderStar((12, 9))], D)


def test_u6_one_night_bonus_per_night_opening() -> None:
    """U6, N8: a second Night bonus is refused."""
    plan = [st.NightBonus(space=(1, 1)), st.NightBonus(track=Track.LENS, position=1)]
    assert why(sheet(), plan, opening=True).endswith("(U6, N8).")


# -- U7: abilities from the step that unlocks them --------------------------------------------


def test_u7_fill_the_last_lens_space_then_use_the_lens_for_the_plot() -> None:
    """U7 (the seed's example): the research die fills the Lens's last space, then the Lens
    moves a pair die: (4, 6) becomes (4, 5), reaching sector (4, 5)."""
    s = sheet(research=slots(Track.LENS, 1, 2, 3, 4))
    d = dice(6, 4, 6)
    plan = [st.ResearchDie(0), st.ResearchFill(Track.LENS, 5), st.Lens(2, -1), st.PairPlot((7, 9))]
    after = ok(s, plan, d)
    assert (7, 9) in after.stars and after.has(Track.LENS)


def test_u7_a_step_needing_an_ability_not_yet_there_is_refused() -> None:
    """U7: the Lens before the fill that completes it is refused."""
    s = sheet(research=slots(Track.LENS, 1, 2, 3, 4))
    plan = [st.ResearchDie(0), st.Lens(2, -1), st.ResearchFill(Track.LENS, 5)]
    assert why(s, plan, dice(6, 4, 6)) == (
        "Step 2 (Lens on the 3rd blue die −1): the Lens track is not complete: no Lens yet "
        "(R6, U7)."
    )


# -- U8: a card's bonus directly after its claim ----------------------------------------------

SAGITTA = placed("S03", (2, 2))  # Research bonus
ARIES = placed("S01", (8, 8))  # no bonus


def test_u8_a_card_bonus_step_comes_directly_after_its_claim() -> None:
    """U8: claim, bonus: accepted."""
    s = sheet(stars=SAGITTA, goals=["S03"])
    after = ok(s, [st.Claim("S03", SAGITTA), st.CardBonus(track=Track.FUNDING, position=2)], D)
    assert after.research == {(Track.FUNDING, 2)}


def test_u8_another_step_between_a_claim_and_its_bonus_is_refused() -> None:
    """U8: a Finder star between the claim and its bonus is refused."""
    s = sheet(stars=SAGITTA, goals=["S03"], finder_left=1)
    plan = [st.Claim("S03", SAGITTA), st.FinderStar((9, 9)), st.CardBonus()]
    assert why(s, plan, D) == (
        "Step 2 (Finder star at (9, 9)): Sagitta's bonus comes directly after its claim: use "
        "it or forgo it first (U8)."
    )


def test_u8_a_submission_ending_with_a_bonus_due_is_refused_at_the_claim() -> None:
    """U8: the bonus is missing: the claim is the step named."""
    s = sheet(stars=SAGITTA, goals=["S03"])
    assert why(s, [st.Claim("S03", SAGITTA)], D) == (
        "Step 1 (claim Sagitta): Sagitta's bonus must follow at once, used or forgone "
        "(1 still due) (U8)."
    )


def test_u8_a_second_bonus_step_without_filter_is_refused() -> None:
    """U8: one bonus use without Filter; a second card-bonus step is refused."""
    s = sheet(stars=SAGITTA, goals=["S03"])
    plan = [st.Claim("S03", SAGITTA), st.CardBonus(), st.CardBonus()]
    assert why(s, plan, D).startswith("Step 3 (card bonus: forgo): no card bonus is due")


def test_u8_a_card_with_no_bonus_takes_no_bonus_step() -> None:
    """U8: Aries has no bonus: its claim stands alone, and a bonus step after it is refused."""
    s = sheet(stars=ARIES, goals=["S01"])
    assert ok(s, [st.Claim("S01", ARIES)], D).completed == ("S01",)
    assert "(U8)" in why(s, [st.Claim("S01", ARIES), st.CardBonus()], D)


# -- U9: options ------------------------------------------------------------------------------


def test_u9_options_record_nothing() -> None:
    """U9: asking twice gives the same answer and the sheet is untouched."""
    s = sheet(stars=ARIES, goals=["S01"], banked=1)
    first = offered(s, [st.ResearchDie(0)], D)
    assert first == offered(s, [st.ResearchDie(0)], D)
    assert s == sheet(stars=ARIES, goals=["S01"], banked=1)


def test_u9_options_list_the_legal_next_choices() -> None:
    """U9: before the research die, only the research dice (and claims, bonuses) are open;
    after it, the pair's spaces and the fills of the research die's value."""
    s = sheet(stars=ARIES, goals=["S01"], banked=1)
    first = offered(s, [], D)
    assert first.research_dice == {0, 1, 2}
    assert first.pair_plots == frozenset() and first.research_fills == frozenset()
    assert first.claims == (st.Claim("S01", ARIES),)
    assert first.track_bonus_spaces == frozenset(SPACES) - ARIES
    assert len(first.track_bonus_fills) == 25
    after = offered(s, [st.ResearchDie(2)], D)  # research die 4, pair (2, 3)
    assert after.research_dice == frozenset()
    assert len(after.pair_plots) == 8
    assert after.research_fills == {
        (Track.DRIVE, 3),
        (Track.DRIVE, 4),
        (Track.FILTER, 2),
        (Track.FILTER, 3),
        (Track.FUNDING, 3),
    }


def test_u9_options_when_a_bonus_is_due_offer_only_that_bonus() -> None:
    """U9, U8: after Sextans's claim, only its Shooting Star 4 spaces and forgo."""
    sextans = placed("S15", (1, 1))
    s = sheet(stars=sextans, goals=["S15"], banked=1, finder_left=1)
    due = offered(s, [st.Claim("S15", sextans)], D)
    assert due.card_bonus_spaces == line_spaces(4) and due.forgo
    assert due.steps()[-1] == st.FORGO
    assert {type(step) for step in due.steps()} == {st.CardBonus}


def test_u9_options_spell_out_the_drive_number_on_the_completing_fill() -> None:
    """U9, U5.10: the Drive's last space is offered with each number 2-6."""
    s = sheet(research=slots(Track.DRIVE, 1, 2, 3, 4), banked=1)
    found = offered(s, [], D)
    assert found.drive_slot == (Track.DRIVE, 5)
    drives = [
        step.drive
        for step in found.steps()
        if isinstance(step, st.TrackBonus) and step.track is Track.DRIVE
    ]
    assert drives == [2, 3, 4, 5, 6]


def test_u9_options_of_a_refused_plan_are_its_refusal() -> None:
    """U9: a plan that is refused so far has no options, only its reason."""
    found = st.options(sheet(), [st.PairPlot((1, 1))], dice=D, active=False, opening=False)
    assert isinstance(found, Refusal) and found.reason.endswith("(U5).")


# -- N8: the Night opening --------------------------------------------------------------------


@pytest.mark.parametrize(
    "step",
    [
        st.ResearchDie(0),
        st.Lens(0, 1),
        st.PairPlot((1, 1)),
        st.ShootingPlot((1, 1)),
        st.ResearchFill(Track.LENS, 1),
    ],
)
def test_n8_a_night_opening_has_no_dice_steps(step: st.Step) -> None:
    """N8: no research die, Lens, pair plot, Shooting Star plot or research fill."""
    assert why(sheet(research=LENS), [step], opening=True, active=True).endswith("(N8).")


def test_n8_the_night_bonus_is_a_free_star_or_one_research_space() -> None:
    """N8: a star anywhere, or any research space with no die; never both; only in a Night
    opening."""
    assert ok(sheet(), [st.NightBonus(space=(12, 12))], opening=True).stars == {(12, 12)}
    after = ok(sheet(), [st.NightBonus(track=Track.FILTER, position=5)], opening=True)
    assert after.research == {(Track.FILTER, 5)}
    both = st.NightBonus(space=(1, 1), track=Track.FILTER, position=5)
    assert why(sheet(), [both], opening=True).endswith("never both (N8).")
    assert why(sheet(), [st.NightBonus(space=(1, 1))], D).endswith("(N8).")


def test_n8_a_night_opening_may_hold_claims_card_and_track_bonuses_and_finder_stars() -> None:
    """N8, C9: the Night bonus star completes Sagitta, whose bonus comes next; a track bonus
    and a Finder star follow."""
    stars = SAGITTA - {(2, 3)}
    s = sheet(stars=stars, goals=["S03"], banked=1, finder_left=1)
    plan: list[st.Step] = [
        st.NightBonus(space=(2, 3)),
        st.Claim("S03", SAGITTA),
        st.CardBonus(track=Track.FUNDING, position=1),
        st.TrackBonus(space=(10, 10)),
        st.FinderStar((11, 11)),
    ]
    after = ok(s, plan, opening=True)
    assert after.completed == ("S03",)
    assert {(2, 3), (10, 10), (11, 11)} <= after.stars
