"""Astra keeps its secrets (H1, H2, H6, U9): two twin rooms that differ ONLY in a secret send
every audience that may not know it the same bytes, once what legitimately differs between
any two rooms is masked (the room's code, its QR code, the CSRF token:
``tests.support.highest.rooms.normal``). Both rooms run on one stopped clock with a 60-second
step.

Two secrets:

* The Final Scoring deal (H1): seats 2 and 3 hold each other's card in the twin room. Seat 1,
  the spectator and a stranger receive the same bytes (pages, the marking strip's answers,
  refused forms, every websocket frame); seats 2 and 3's own pages differ (the control).
* The order of the Draw deck (H2): the twin's deck differs only below the Game End card.
  Every seat and the spectator receive the same bytes through several turns.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.astra.rules.boards import ABOVE_GAME_END
from tests.games.astra.web_helpers import REAL_DEAL, AstraRoom, rig_deal
from tests.support import fuzzing
from tests.support.highest import fixtures
from tests.support.highest.fixtures import Clock
from tests.support.highest.rooms import normal, room_link
from tests.support.leaks import answers, first_difference, recorded, refused, same_frames

pytestmark = pytest.mark.django_db
loose_limits = fuzzing.loose_limits
frozen_clock = fixtures.frozen_clock
SEED = 5


def twin_rooms(
    monkeypatch: pytest.MonkeyPatch, *, swap_scoring: bool = False, shuffle_bottom: bool = False
) -> tuple[AstraRoom, AstraRoom]:
    real = REAL_DEAL(players=3, step_seconds=60, rng=random.Random(SEED))
    rig_deal(monkeypatch, seed=SEED, first_player=1)
    a = AstraRoom(3, step="60")
    scoring = list(real.scoring)
    if swap_scoring:
        scoring[1], scoring[2] = scoring[2], scoring[1]
    deck = list(real.deck)
    if shuffle_bottom:
        cut = ABOVE_GAME_END[3]
        bottom = deck[cut:]
        random.Random(99).shuffle(bottom)
        deck = deck[:cut] + bottom
    rig_deal(monkeypatch, seed=SEED, first_player=1, scoring=tuple(scoring), deck=tuple(deck))
    b = AstraRoom(3, step="60")
    return a, b


def pages(table: AstraRoom, who: int | str | None) -> str:
    return normal(table.page(who), table.room, room_link(table.room))


def strip_taps(table: AstraRoom) -> list[str]:
    seat = table.state().active
    assert seat is not None
    url = f"/r/{table.code}/preview/mark"
    version = table.state().version
    forms: list[dict[str, Any]] = [
        {"version": version, "mode": "observe", "open": "1"},
        {"version": version, "mode": "observe", "open": "1", "add": "1.0"},
        {"version": version, "mode": "observe", "chain": "1.0", "add": "1.3"},
        {"version": version - 1, "mode": "observe"},
    ]
    return [normal(text, table.room) for text in answers(table.seats[seat], url, forms)]


def rest(table: AstraRoom) -> None:
    seat = table.state().active
    assert seat is not None
    response = table.send(seat, "rest", version=table.state().version)
    assert response.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_h1_h6_u9_a_final_scoring_card_reaches_its_own_seat_only(
    monkeypatch: pytest.MonkeyPatch,
    frozen_clock: Clock,
):
    """H1, H6, U9: seats 2 and 3's Final Scoring cards swapped: seat 1, the spectator and a
    stranger get the same pages, strip answers, refusals and frames, turn after turn; seats
    2 and 3 each see their own card (the control)."""
    a, b = twin_rooms(monkeypatch, swap_scoring=True)
    assert a.state().scoring[1] == b.state().scoring[2]
    for who in (1, None, "stranger"):
        x, y = pages(a, who), pages(b, who)
        assert x == y, (who, first_difference(x, y))
    for who in (2, 3):
        assert pages(a, who) != pages(b, who)
    assert strip_taps(a) == strip_taps(b)
    wrong = [("play/observe", {"version": 0, "chain": "1.5"}), ("play/pick", {"step": 1, "box": 9})]
    assert [normal(t, a.room) for t in refused(a.seats[1], a.room, wrong)] == [
        normal(t, b.room) for t in refused(b.seats[1], b.room, wrong)
    ]
    frames_a = recorded(a, [rest, rest, rest], (1, None, "stranger"))
    frames_b = recorded(b, [rest, rest, rest], (1, None, "stranger"))
    for who in frames_a:
        same_frames(frames_a[who], frames_b[who], who)


def test_h2_h6_the_deck_order_reaches_nobody(
    monkeypatch: pytest.MonkeyPatch,
    frozen_clock: Clock,
):
    """H2, H6: the decks differ only below the Game End card: every seat and the spectator
    get the same bytes before and after several Rests (which discard from the top, R5)."""
    a, b = twin_rooms(monkeypatch, shuffle_bottom=True)
    assert a.state().deck != b.state().deck
    for step in range(5):
        for who in (1, 2, 3, None):
            x, y = pages(a, who), pages(b, who)
            assert x == y, (step, who, first_difference(x, y))
        rest(a)
        rest(b)
