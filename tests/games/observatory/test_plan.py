"""The plan field (games/observatory/plan.py): a submission's steps as the page sends them
(U1, U5, U7), read by one strict parser. Every step written is read back as itself; what a
person could type instead is refused with a message naming the step, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.inputs import BadInput
from games.observatory import plan
from games.observatory.rules import steps
from games.observatory.rules.deck import CARDS
from games.observatory.rules.sheet_data import DRIVE_NUMBERS, POSITIONS, Track

spaces = st.tuples(st.integers(1, 12), st.integers(1, 12))
tracks = st.sampled_from(list(Track))
positions = st.sampled_from(POSITIONS)
drives = st.none() | st.sampled_from(DRIVE_NUMBERS)


def free_uses(make):  # a star, or a research space (with or without a Drive number)
    return st.builds(lambda at: make(space=at), spaces) | st.builds(
        lambda t, p, d: make(track=t, position=p, drive=d), tracks, positions, drives
    )


# A strategy for each kind of step the plan field holds, by the word it begins with; every
# kind the parser reads (``plan.KINDS``) is written and read back.
BY_KIND = {
    "die": st.builds(steps.ResearchDie, st.sampled_from(steps.STANDARD_DICE)),
    "lens": st.builds(
        steps.Lens, st.sampled_from(steps.ALL_DICE), st.sampled_from(steps.LENS_DELTAS)
    ),
    "pair": st.builds(steps.PairPlot, spaces),
    "shoot": st.builds(steps.ShootingPlot, spaces),
    "fill": st.builds(steps.ResearchFill, tracks, positions, drives),
    "claim": st.builds(
        steps.Claim, st.sampled_from(sorted(CARDS)), st.frozensets(spaces, min_size=3, max_size=8)
    ),
    "bonus": st.just(steps.FORGO) | free_uses(steps.CardBonus),
    "track": free_uses(steps.TrackBonus),
    "finder": st.builds(steps.FinderStar, spaces),
    "night": free_uses(steps.NightBonus),
}
any_step = st.one_of(*(BY_KIND[kind] for kind in plan.KINDS))


@settings(max_examples=300, deadline=None)
@given(st.lists(any_step, max_size=12))
def test_u1_u5_every_plan_written_is_read_back_as_the_same_steps_in_order(written) -> None:
    assert plan.read(plan.write(written)) == tuple(written)


def test_u4_an_empty_plan_is_a_pass() -> None:
    assert plan.read("") == () and plan.read(None) == ()


def test_u5_the_words_the_page_writes() -> None:
    read = plan.read("die:1 lens:3:+1 pair:5-10 fill:drive:5:4 claim:L07:1-1,2-3,3-3 bonus:forgo")
    assert read == (
        steps.ResearchDie(1),
        steps.Lens(3, 1),
        steps.PairPlot((5, 10)),
        steps.ResearchFill(Track.DRIVE, 5, 4),
        steps.Claim("L07", frozenset({(1, 1), (2, 3), (3, 3)})),
        steps.FORGO,
    )
    assert plan.read("track:star:9-9 finder:3-12 night:fill:lens:2") == (
        steps.TrackBonus(space=(9, 9)),
        steps.FinderStar((3, 12)),
        steps.NightBonus(track=Track.LENS, position=2),
    )


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("jump:1-1", "Step 1 is not a step of a turn."),
        ("pair:1-1 pair:13-1", "Step 2: The row must be from 1 to 12."),
        ("pair:1", "Step 1: a space is written row-column, like 5-10."),
        ("pair:１-1", "Step 1: The row must be a whole number written with the digits 0 to 9."),
        ("die:3", "Step 1: The die must be from 0 to 2."),
        ("lens:0:+2", "Step 1: the Lens takes a die +1 or -1."),
        ("fill:warp:1", "Step 1: there is no such Research track."),
        ("fill:drive:5:7", "Step 1: The Drive number must be from 2 to 6."),
        ("claim:X99:1-1,1-2,1-3", "Step 1: there is no such constellation card."),
        ("claim:L01:1-1,1-1,1-2", "Step 1: a claim names each star once."),
        ("track:forgo", "Step 1: a bonus is a star or a research space."),
        ("bonus", "Step 1: say where the bonus goes."),
        ("pair:1-1:2", "Step 1: it is not written the way the page writes it."),
        ("pair:1-1  pair:2-2", "Step 2 is not a step of a turn."),
    ],
)
def test_u2_what_cannot_be_read_is_refused_naming_the_step(raw: str, says: str) -> None:
    with pytest.raises(BadInput) as refused:
        plan.read(raw)
    assert refused.value.message == says


def test_u6_a_plan_far_longer_than_a_turn_is_not_read() -> None:
    with pytest.raises(BadInput, match="far more steps"):
        plan.read(" ".join(["finder:1-1"] * (plan.MOST_STEPS + 1)))
    with pytest.raises(BadInput, match="far too long"):
        plan.read("claim:L01:" + ",".join(["1-1"] * 500))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_read_or_refused_with_a_message(raw: str) -> None:
    try:
        plan.read(raw)
    except BadInput as refused:
        assert refused.message
