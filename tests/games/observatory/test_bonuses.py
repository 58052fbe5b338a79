"""Claims inside a submission (C2.1, C2-C5 through ``figures``, C8, C9) and the completion
bonuses that follow them (B1-B5), with worked example 2 played through ``apply``."""

from __future__ import annotations

from games.observatory.rules import figures
from games.observatory.rules import steps as st
from games.observatory.rules.deck import CARDS, BonusKind
from games.observatory.rules.sheet import Slot
from games.observatory.rules.sheet_data import Track, line_spaces
from tests.games.observatory.sheet_helpers import dice, full, offered, ok, placed, sheet, slots, why

D = dice(2, 3, 4, 5)
SAGITTA = placed("S03", (2, 2))  # Research
TRIANGULUM = placed("S02", (10, 1))  # Free Star: (10, 1) (10, 2) (10, 3)
ARIES = placed("S01", (6, 9))  # no bonus: (6, 9) (7, 9) (7, 10)
ALL_SLOTS: frozenset[Slot] = full(*Track)


# -- C2.1, C2-C5, C8, C9 ----------------------------------------------------------------------


def test_c2_1_only_a_current_goal_may_be_claimed() -> None:
    """C2.1: Sagitta's stars are there but it is not a goal; an unknown id is no goal."""
    s = sheet(stars=SAGITTA, goals=["S01"])
    assert why(s, [st.Claim("S03", SAGITTA)], D) == (
        "Step 1 (claim Sagitta): Sagitta is not one of your goals (C2.1)."
    )
    assert why(s, [st.Claim("Z99", SAGITTA)], D).endswith("Z99 is not one of your goals (C2.1).")


def test_c2_a_claim_is_checked_by_figures_and_its_reason_names_the_rule() -> None:
    """C2.2, C2.3: a missing star, a set that is not the pattern, too few stars."""
    s = sheet(stars=SAGITTA | ARIES, goals=["S03", "S01"])
    missing = frozenset({(2, 3), (3, 2), (5, 2)})
    assert why(s, [st.Claim("S03", missing)], D).endswith("(5, 2) holds no star (C2.2).")
    wrong = frozenset({(2, 3), (3, 2), (7, 9)})
    assert why(s, [st.Claim("S03", wrong)], D).endswith("(C2.3).")
    short = frozenset({(2, 3), (3, 2)})
    assert why(s, [st.Claim("S03", short)], D).endswith("Sagitta has 3 stars, not 2 (C2.2).")


def test_worked_example_2_through_apply() -> None:
    """Worked example 2: with Sagitta completed on (2,3) (3,2) (4,2), Canes Venatici on
    (2,2) (3,3) (4,3) is refused by rule C (C5); on (2,4) (3,5) (4,5) it is accepted and its
    Shooting Star 3 comes next, in rows 5-6 or columns 5-6; Lacerta on (6,6) (6,7) (8,6) is
    refused as flipped (C4)."""
    sagitta = figures.place(CARDS["S03"], frozenset({(2, 3), (3, 2), (4, 2)}))
    assert sagitta is not None
    stars = {(2, 3), (3, 2), (4, 2), (2, 2), (3, 3), (4, 3), (2, 4), (3, 5), (4, 5)}
    stars |= {(6, 6), (6, 7), (8, 6)}
    s = sheet(stars=stars, goals=["S10", "S05"], figures=[sagitta])
    touching = st.Claim("S10", frozenset({(2, 2), (3, 3), (4, 3)}))
    assert why(s, [touching], D).endswith("(C5).")
    apart = st.Claim("S10", frozenset({(2, 4), (3, 5), (4, 5)}))
    assert offered(s, [apart], D).card_bonus_spaces == line_spaces(3) - stars
    after = ok(s, [apart, st.CardBonus(space=(6, 12))], D)
    assert after.completed == ("S03", "S10") and (6, 12) in after.stars
    flipped = st.Claim("S05", frozenset({(6, 6), (6, 7), (8, 6)}))
    assert why(s, [flipped], D) == (f"Step 1 (claim Lacerta): {figures.FLIPPED.rstrip('.')} (C4).")


def test_c3_a_claim_sharing_a_star_with_a_completed_constellation_is_refused() -> None:
    """C3: Aries cannot reuse Sagitta's star (3, 2)."""
    sagitta = figures.place(CARDS["S03"], SAGITTA)
    assert sagitta is not None
    aries = placed("S01", (3, 2))  # (3, 2) (4, 2) (4, 3)
    s = sheet(stars=SAGITTA | aries, goals=["S01"], figures=[sagitta])
    assert why(s, [st.Claim("S01", aries)], D).endswith("(C3).")


def test_c8_a_completed_card_leaves_the_goals_and_its_stars_are_used() -> None:
    """C8: Aries moves from the goals to the completed pile; its figure stays on the map."""
    s = sheet(stars=ARIES | {(1, 1)}, goals=["S03", "S01", "S05"])
    after = ok(s, [st.Claim("S01", ARIES)], D)
    assert after.goals == ("S03", "S05")
    assert after.completed == ("S01",)
    assert after.used_stars == ARIES and after.stars == s.stars
    assert why(after, [st.Claim("S01", ARIES)], D).endswith("(C2.1).")


def test_c9_several_claims_in_one_submission_with_stars_plotted_in_it() -> None:
    """C9: the pair plot puts Aries's last star; Aries and Lacerta are claimed in the same
    submission."""
    lacerta = placed("S05", (1, 1))
    s = sheet(stars=(ARIES - {(7, 10)}) | lacerta, goals=["S01", "S05"])
    plan: list[st.Step] = [
        st.ResearchDie(0),
        st.PairPlot((7, 10)),  # sector (4, 5): the pair (4, 5)
        st.Claim("S01", ARIES),
        st.Claim("S05", lacerta),
    ]
    after = ok(s, plan, dice(2, 4, 5))
    assert after.completed == ("S01", "S05") and after.goals == ()


# -- B: completion bonuses --------------------------------------------------------------------


def test_b1_bonuses_are_none_shooting_star_research_or_free_star_asterisms_too() -> None:
    """B1: the four kinds, a Shooting Star's value 2-6; an Asterism with a bonus (Sickle)."""
    kinds = {card.bonus.kind for card in CARDS.values()}
    assert kinds == set(BonusKind)
    assert {
        card.bonus.value for card in CARDS.values() if card.bonus.kind is BonusKind.SHOOTING_STAR
    } == {2, 3, 4, 5, 6}
    sickle = CARDS["A07"]
    assert sickle.asterism and sickle.bonus.kind is BonusKind.FREE_STAR
    spaces = placed("A07", (5, 5))
    s = sheet(stars=spaces, goals=["A07"])
    assert ok(s, [st.Claim("A07", spaces), st.CardBonus(space=(1, 1))], D).stars >= {(1, 1)}


def test_b2_each_bonus_is_used_right_after_its_claim() -> None:
    """B2: Research fills any empty space (no die); Free Star plots anywhere; a star is not
    a research space and a research space is not a star."""
    s = sheet(stars=SAGITTA | TRIANGULUM, goals=["S03", "S02"])
    plan: list[st.Step] = [
        st.Claim("S03", SAGITTA),
        st.CardBonus(track=Track.DRIVE, position=5),
        st.Claim("S02", TRIANGULUM),
        st.CardBonus(space=(12, 12)),
    ]
    after = ok(s, plan, D)
    assert after.research == {(Track.DRIVE, 5)} and (12, 12) in after.stars
    research_as_star = [st.Claim("S03", SAGITTA), st.CardBonus(space=(1, 1))]
    assert why(s, research_as_star, D).endswith("a research space, not a star (B2).")
    star_as_research = [st.Claim("S02", TRIANGULUM), st.CardBonus(track=Track.LENS, position=1)]
    assert why(s, star_as_research, D).endswith("a star, not a research space (B2).")
    assert offered(s, [st.Claim("S03", SAGITTA)]).card_bonus_fills == ALL_SLOTS


def test_b3_filter_gives_the_bonus_twice_both_directly_after_the_claim() -> None:
    """B3: with Filter complete, two bonus steps; a third is refused."""
    s = sheet(stars=TRIANGULUM, goals=["S02"], research=full(Track.FILTER))
    plan: list[st.Step] = [
        st.Claim("S02", TRIANGULUM),
        st.CardBonus(space=(1, 1)),
        st.CardBonus(space=(1, 12)),
    ]
    assert ok(s, plan, D).stars >= {(1, 1), (1, 12)}
    assert why(s, plan[:2], D).endswith("(1 still due) (U8).")
    assert "(U8)" in why(s, [*plan, st.CardBonus()], D)


def test_b3_a_first_use_completing_the_filter_gives_no_second_but_later_claims_get_two() -> None:
    """B3: Sagitta's Research completes the Filter: no second use for Sagitta; Triangulum,
    claimed after, gives two."""
    s = sheet(
        stars=SAGITTA | TRIANGULUM, goals=["S03", "S02"], research=slots(Track.FILTER, 1, 2, 3, 4)
    )
    first = [st.Claim("S03", SAGITTA), st.CardBonus(track=Track.FILTER, position=5)]
    assert "no card bonus is due" in why(s, [*first, st.CardBonus()], D)
    plan = [
        *first,
        st.Claim("S02", TRIANGULUM),
        st.CardBonus(space=(12, 1)),
        st.CardBonus(space=(12, 12)),
    ]
    assert ok(s, plan, D).stars >= {(12, 1), (12, 12)}


def test_b4_a_bonus_may_be_forgone_and_one_that_cannot_be_used_must_be() -> None:
    """B4: forgo is a step; with every research space filled, Sagitta's Research offers only
    forgo; with sector-row 4 and column 4 full, Sextans's offers only forgo."""
    s = sheet(stars=SAGITTA, goals=["S03"])
    assert ok(s, [st.Claim("S03", SAGITTA), st.FORGO], D).research == frozenset()
    full_sheet = sheet(stars=SAGITTA, goals=["S03"], research=ALL_SLOTS)
    due = offered(full_sheet, [st.Claim("S03", SAGITTA)])
    assert due.steps() == (st.FORGO,)
    sextans = placed("S15", (1, 9))  # (1, 9) (1, 11) (3, 10): no star in row/column 4
    crowded = sheet(stars=sextans | line_spaces(4), goals=["S15"])
    assert offered(crowded, [st.Claim("S15", sextans)]).steps() == (st.FORGO,)


def test_b5_a_bonus_fill_can_bank_a_track_bonus_spent_after_the_second_filter_use() -> None:
    """B5: Sagitta with Filter: the first Research use makes Lens 3 (a banked bonus); spending
    it before the second use is refused; after it, accepted."""
    s = sheet(stars=SAGITTA, goals=["S03"], research=full(Track.FILTER) | slots(Track.LENS, 1, 2))
    first = [st.Claim("S03", SAGITTA), st.CardBonus(track=Track.LENS, position=3)]
    early = [*first, st.TrackBonus(space=(9, 9)), st.CardBonus()]
    assert why(s, early, D).startswith("Step 3 (track bonus: star at (9, 9)): Sagitta's bonus")
    after = ok(s, [*first, st.CardBonus(), st.TrackBonus(space=(9, 9))], D)
    assert after.banked == 0 and (9, 9) in after.stars


def test_b5_a_research_bonus_completing_the_drive_carries_the_drive_number() -> None:
    """B5, U5.10: the card bonus's fill completes the Drive and writes 5."""
    s = sheet(stars=SAGITTA, goals=["S03"], research=slots(Track.DRIVE, 1, 2, 3, 4))
    plan = [st.Claim("S03", SAGITTA), st.CardBonus(track=Track.DRIVE, position=5, drive=5)]
    assert ok(s, plan, D).drive == 5
    bare = [st.Claim("S03", SAGITTA), st.CardBonus(track=Track.DRIVE, position=5)]
    assert why(s, bare, D).endswith("(R8).")


def test_b5_a_bonus_star_may_let_a_later_step_claim_another_card() -> None:
    """B5: Triangulum's Free Star is Aries's last star; Aries is claimed next."""
    s = sheet(stars=TRIANGULUM | (ARIES - {(7, 10)}), goals=["S02", "S01"])
    plan: list[st.Step] = [
        st.Claim("S02", TRIANGULUM),
        st.CardBonus(space=(7, 10)),
        st.Claim("S01", ARIES),
    ]
    assert ok(s, plan, D).completed == ("S02", "S01")
    assert st.Claim("S01", ARIES) in offered(s, plan[:2], D).claims
