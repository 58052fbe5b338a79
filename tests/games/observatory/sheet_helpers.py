"""Small builders for the sheet and submission tests: sheets with tracks filled, dice, a
card's stars placed on the map, and ``ok``/``why`` that apply a submission and insist it was
accepted or refused."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.kit import Refusal
from games.observatory.rules import steps as st
from games.observatory.rules.deck import CARDS
from games.observatory.rules.figures import Figure
from games.observatory.rules.sheet import Dice, Sheet, Slot
from games.observatory.rules.sheet_data import POSITIONS, Space, Track

BLUE = (0, 1, 2)


def dice(b1: int, b2: int, b3: int, orange: int = 2) -> Dice:
    return Dice((b1, b2, b3), orange)


def full(*tracks: Track) -> frozenset[Slot]:
    """Every space of these tracks."""
    return frozenset((track, p) for track in tracks for p in POSITIONS)


def slots(track: Track, *positions: int) -> frozenset[Slot]:
    return frozenset((track, p) for p in positions)


def sheet(
    *,
    stars: Iterable[Space] = (),
    research: Iterable[Slot] = (),
    goals: Sequence[str] = (),
    banked: int = 0,
    finder_left: int = 0,
    drive: int | None = None,
    figures: Sequence[Figure] = (),
) -> Sheet:
    return Sheet(
        stars=frozenset(stars),
        research=frozenset(research),
        banked=banked,
        finder_left=finder_left,
        drive=drive,
        goals=tuple(goals),
        figures=tuple(figures),
    )


def placed(card_id: str, at: Space) -> frozenset[Space]:
    """The card's stars unturned, its offset (0, 0) on ``at``."""
    r, c = at
    return frozenset((r + dr, c + dc) for dr, dc in CARDS[card_id].stars)


def ok(
    before: Sheet,
    plan: Sequence[st.Step],
    d: Dice | None = None,
    *,
    active: bool = False,
    opening: bool = False,
) -> Sheet:
    after = st.apply(before, plan, dice=d, active=active, opening=opening)
    assert not isinstance(after, Refusal), after.reason
    return after


def why(
    before: Sheet,
    plan: Sequence[st.Step],
    d: Dice | None = None,
    *,
    active: bool = False,
    opening: bool = False,
) -> str:
    after = st.apply(before, plan, dice=d, active=active, opening=opening)
    assert isinstance(after, Refusal), "accepted"
    return after.reason


def offered(
    before: Sheet,
    plan: Sequence[st.Step],
    d: Dice | None = None,
    *,
    active: bool = False,
    opening: bool = False,
) -> st.Options:
    found = st.options(before, plan, dice=d, active=active, opening=opening)
    assert not isinstance(found, Refusal), found.reason
    return found
