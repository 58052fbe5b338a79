"""Properties of submissions on random sheets and dice (U1, U2, U9, M5): a random submission is
refused whole, leaving the sheet as it was, or accepted; and ``options`` offers exactly the
next steps ``apply``'s checks accept, for every kind of plot, fill and bonus."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.kit import Refusal
from games.observatory.rules import figures
from games.observatory.rules import steps as st
from games.observatory.rules.deck import CARDS, SMALL
from games.observatory.rules.sheet import Dice, Sheet, Slot
from games.observatory.rules.sheet_data import POSITIONS, SPACES, Track
from tests.games.observatory.sheet_helpers import full

SLOTS: tuple[Slot, ...] = tuple(full(*Track))
FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

faces = hs.integers(1, 6)
spaces = hs.sampled_from(SPACES)
odd_spaces = hs.one_of(spaces, hs.tuples(hs.integers(-1, 14), hs.integers(-1, 14)))
tracks = hs.sampled_from(list(Track))
positions = hs.integers(0, 6)
drives = hs.one_of(hs.none(), hs.integers(1, 7))


@hs.composite
def dice_rolls(draw: hs.DrawFn) -> Dice:
    return Dice((draw(faces), draw(faces), draw(faces)), draw(faces))


@hs.composite
def sheets(draw: hs.DrawFn) -> Sheet:
    """A random sheet: stars, research, banked bonuses, Finder stars, a Drive number when the
    Drive is full, and goals whose stars are sometimes on the map (so claims are possible)."""
    research = frozenset(draw(hs.sets(hs.sampled_from(SLOTS), max_size=20)))
    goals = draw(hs.lists(hs.sampled_from(SMALL), max_size=4, unique=True))
    stars = set(draw(hs.sets(spaces, max_size=30)))
    for goal in goals:
        if draw(hs.booleans()):
            r, c = draw(hs.integers(1, 9)), draw(hs.integers(1, 9))
            stars |= {(r + dr, c + dc) for dr, dc in CARDS[goal].stars}
    drive_full = all((Track.DRIVE, p) in research for p in POSITIONS)
    return Sheet(
        stars=frozenset(stars),
        research=research,
        banked=draw(hs.integers(0, 2)),
        finder_left=draw(hs.integers(0, 4)),
        drive=draw(hs.integers(2, 6)) if drive_full else None,
        goals=tuple(goals),
    )


def free_uses(
    make: type[st.CardBonus | st.TrackBonus | st.NightBonus],
) -> hs.SearchStrategy[st.Step]:
    return hs.one_of(
        hs.builds(make, space=odd_spaces, drive=hs.one_of(hs.none(), hs.just(3))),
        hs.builds(make, track=tracks, position=positions, drive=drives),
        hs.builds(make, space=spaces, track=tracks, position=positions),
        hs.just(make()),
    )


any_step: hs.SearchStrategy[st.Step] = hs.one_of(
    hs.builds(st.ResearchDie, hs.integers(-1, 4)),
    hs.builds(st.Lens, hs.integers(-1, 4), hs.sampled_from([-2, -1, 1, 2])),
    hs.builds(st.PairPlot, odd_spaces),
    hs.builds(st.ShootingPlot, odd_spaces),
    hs.builds(st.ResearchFill, tracks, positions, drives),
    hs.builds(st.Claim, hs.sampled_from([*SMALL[:10], "Z99"]), hs.frozensets(spaces, max_size=4)),
    free_uses(st.CardBonus),
    free_uses(st.TrackBonus),
    hs.builds(st.FinderStar, odd_spaces),
    free_uses(st.NightBonus),
)


@FEW
@given(
    sheets(),
    hs.lists(any_step, max_size=8),
    dice_rolls(),
    hs.booleans(),
    hs.booleans(),
)
def test_u2_a_random_submission_is_refused_whole_or_accepted(
    sheet: Sheet, plan: list[st.Step], d: Dice, active: bool, opening: bool
) -> None:
    """U1, U2, M5: refused, the sheet is the same value as before; accepted, it only grew
    (stars and research are never erased) and it is what the steps give one at a time."""
    before = replace(sheet)
    after = st.apply(sheet, plan, dice=None if opening else d, active=active, opening=opening)
    assert sheet == before
    if isinstance(after, Refusal):
        assert after.reason.startswith("Step ")
        assert after.reason.rstrip(".").endswith(")")
        return
    assert after.stars >= sheet.stars and after.research >= sheet.research
    assert set(after.completed[: len(sheet.completed)]) == set(sheet.completed)
    followed = st.follow(sheet, plan, dice=None if opening else d, active=active, opening=opening)
    assert not isinstance(followed, Refusal) and followed.sheet == after and followed.due is None


def candidates() -> set[st.Step]:
    """Every step options could offer except claims, with wrong Drive numbers and forgo too."""
    found: set[st.Step] = {st.ResearchDie(i) for i in range(-1, 5)}
    found |= {st.Lens(die, delta) for die in range(-1, 5) for delta in (-2, -1, 1, 2)}
    found |= {
        kind(space) for kind in (st.PairPlot, st.ShootingPlot, st.FinderStar) for space in SPACES
    }
    for make in (st.CardBonus, st.TrackBonus, st.NightBonus):
        found |= {make(space=space) for space in SPACES}
        for track, position in SLOTS:
            for drive in (None, *range(1, 8)):
                found.add(make(track=track, position=position, drive=drive))
    for track, position in SLOTS:
        for drive in (None, *range(1, 8)):
            found.add(st.ResearchFill(track, position, drive))
    found.add(st.FORGO)
    return found


@hs.composite
def plans(draw: hs.DrawFn) -> tuple[Sheet, list[st.Step], Dice | None, bool, bool]:
    """A random sheet and a legal partial plan, built step by step from ``options``."""
    sheet = draw(sheets())
    opening = draw(hs.booleans())
    active = draw(hs.booleans())
    d = None if opening else draw(dice_rolls())
    plan: list[st.Step] = []
    for _ in range(draw(hs.integers(0, 5))):
        found = st.options(sheet, plan, dice=d, active=active, opening=opening)
        assert not isinstance(found, Refusal)
        choices = found.steps()
        if not choices:
            break
        plan.append(draw(hs.sampled_from(choices)))
    return sheet, plan, d, active, opening


@FEW
@given(plans())
def test_u9_options_offer_exactly_the_next_steps_apply_accepts(
    case: tuple[Sheet, list[st.Step], Dice | None, bool, bool],
) -> None:
    """U9: on a random sheet, dice and legal partial plan, the steps offered (plots, fills,
    Lens uses, research dice, card, track and Night bonuses, Finder stars) are exactly the
    candidates that the plan followed by the step accepts."""
    sheet, plan, d, active, opening = case
    found = st.options(sheet, plan, dice=d, active=active, opening=opening)
    assert not isinstance(found, Refusal)
    offered = set(found.steps()) - set(found.claims)
    accepted = {
        step
        for step in candidates()
        if not isinstance(
            st.follow(sheet, [*plan, step], dice=d, active=active, opening=opening), Refusal
        )
    }
    assert offered == accepted


@FEW
@given(plans())
def test_u9_claims_offered_are_exactly_the_legal_placements_of_the_goals(
    case: tuple[Sheet, list[st.Step], Dice | None, bool, bool],
) -> None:
    """U9, C2: each claim offered is accepted next; every placement of a goal among the
    seat's stars that the plan accepts is offered."""
    sheet, plan, d, active, opening = case
    followed = st.follow(sheet, plan, dice=d, active=active, opening=opening)
    found = st.options(sheet, plan, dice=d, active=active, opening=opening)
    assert not isinstance(followed, Refusal) and not isinstance(found, Refusal)
    accepted: set[st.Claim] = set()
    for goal in followed.sheet.goals:
        for placement in figures.placements_on(CARDS[goal], followed.sheet.stars):
            claim = st.Claim(goal, frozenset(placement.stars))
            after = st.follow(sheet, [*plan, claim], dice=d, active=active, opening=opening)
            if not isinstance(after, Refusal):
                accepted.add(claim)
    assert set(found.claims) == accepted
