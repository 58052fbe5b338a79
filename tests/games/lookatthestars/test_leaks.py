"""Look at the Stars keeps its secrets: two twin rooms that differ ONLY in a secret send every
seat, the spectator and a stranger the same bytes, once what legitimately differs between any
two rooms is masked (the room's code, its QR code, the CSRF token:
``tests.support.highest.rooms.normal``). Both rooms run on one stopped clock
(``tests.support.highest.fixtures.frozen_clock``), so deadlines and "now" are the same too.

Two secrets:

* The unrevealed night (V4, V5, R8): both rooms are dealt the same designs, point and power
  cards and the same first ``SHARED`` cards, but a different rest of the night (other cards,
  another count of shooting stars, another set of unused cards). Until round ``SHARED + 1``
  is revealed, nothing anyone receives may differ: pages, tap answers (preview/draft),
  refusals, ticks, the replay's refusal, and every websocket frame.
* Another seat's open submission (V3, R6): seat 1 submits drawing A in one room and drawing B
  in the other (both legal). Seats 2 and 3, the spectator and a stranger receive the same
  bytes until the round closes (V2: then they may differ, and do).

The deal is rigged at the one seam the server draws it: ``game.deal_command`` (R8), wrapped so
that it draws with a seeded generator and then takes the night the test gives.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client

from games.lookatthestars import drafting
from games.lookatthestars import game as lats
from games.lookatthestars.rules import cards
from games.lookatthestars.rules.board import StarBoard
from games.lookatthestars.rules.drawing import apply, options
from games.lookatthestars.rules.evolve import turn_of
from games.lookatthestars.rules.model import ROUNDS, Drawing
from tests.games.lookatthestars.test_web import Room3, draft_of
from tests.support import fuzzing
from tests.support.highest import fixtures
from tests.support.highest.fixtures import Clock
from tests.support.highest.rooms import normal, room_link
from tests.support.leaks import answers, first_difference, recorded, refused, same_frames, text_of

pytestmark = pytest.mark.django_db
frozen_clock = fixtures.frozen_clock  # one stopped clock for both rooms (a fixture)
loose_limits = fuzzing.loose_limits  # the rate limits lifted (an autouse fixture)

SEED = 17
SHARED = 3  # rounds dealt alike in both rooms: a shape, a shooting star, a shape
COMMON = ("S07", "SS1", "S13")
SHAPES = tuple(c for c in cards.NIGHT_DECK if not cards.is_shooting_star(c) and c not in COMMON)
# The rest of the night: one room holds the two other shooting stars early, the other none,
# and the two rests share no card in the same place (so the unused twelve differ as well).
NIGHT_X = (*COMMON, "SS2", "SS3", *SHAPES[:13])
NIGHT_Y = (*COMMON, *SHAPES[12:], *SHAPES[:2])
HX = {"HX-Request": "true"}  # the header htmx sends with every request
REAL_DEAL = lats.deal_command
WHO = (1, 2, 3, None)  # the seats and the spectator; a stranger is added where it applies


def test_the_twin_nights_share_only_their_first_cards():
    """R1, R8: both nights are legal deals; they agree on rounds 1..SHARED only."""
    for night in (NIGHT_X, NIGHT_Y):
        assert len(night) == len(set(night)) == ROUNDS and set(night) <= set(cards.NIGHT_DECK)
    assert NIGHT_X[:SHARED] == NIGHT_Y[:SHARED]
    assert all(a != b for a, b in zip(NIGHT_X[SHARED:], NIGHT_Y[SHARED:], strict=True))
    unused = [set(cards.NIGHT_DECK) - set(n) for n in (NIGHT_X, NIGHT_Y)]
    assert unused[0] != unused[1]
    shooting = [sum(map(cards.is_shooting_star, n)) for n in (NIGHT_X, NIGHT_Y)]
    assert shooting == [3, 1]


# -- the rigged deal ---------------------------------------------------------------------------


def rig(monkeypatch: pytest.MonkeyPatch, night: tuple[str, ...]) -> None:
    """The next deal draws designs and bonus cards from a seeded generator (the same in
    every room) and takes ``night`` as the 18 cards, in order (R8)."""

    def deal(**kwargs):  # the keyword call game._deal makes
        kwargs["rng"] = random.Random(SEED)
        return replace(REAL_DEAL(**kwargs), night=night)

    monkeypatch.setattr(lats, "deal_command", deal)


def twin_rooms(
    monkeypatch: pytest.MonkeyPatch, nights: tuple[tuple[str, ...], tuple[str, ...]]
) -> tuple[Room3, Room3]:
    """Two rooms of three seats and a spectator, with a 60 s clock, started at the same
    (stopped) instant, each dealt its own night."""
    rooms = []
    for night in nights:
        rig(monkeypatch, night)
        rooms.append(Room3(3, step="60"))
    monkeypatch.setattr(lats, "deal_command", REAL_DEAL)
    first, second = rooms
    a, b = first.state(), second.state()
    assert a.night == nights[0] and b.night == nights[1]
    assert (a.designs, a.point_card, a.power, a.deadline) == (
        b.designs,
        b.point_card,
        b.power,
        b.deadline,
    )
    return first, second


# -- everything a browser can get without changing the game -----------------------------------


def client_of(room: Room3, who: int | str | None) -> Client:
    if who == "stranger":
        return Client()  # no session: a fresh browser that opened the link
    return room.seats[who] if isinstance(who, int) else room.spectator


def taps(room: Room3, client: Client, number: int) -> list[str]:
    """U1-U7: the answers to taps a draft may send (legal and not), and taps for a round
    that is not the open one."""
    url = f"/r/{room.room.code}/preview/draft"
    base = {"round": number}
    forms: list[dict[str, Any]] = [
        {**base, "at": "e5"},
        {**base, "at": "a1"},
        {**base, "at": "d11"},
        {**base, "at": "e5", drafting.SELECTED: "e4"},
        {**base, "at": "f6", drafting.SHOOTING: "e5"},
        {**base, "do": "place"},
        {**base, "do": "turn", drafting.GHOST: "e5"},
        {**base, "do": "use-ghost", drafting.GHOST: "e5", drafting.GHOST_TURN: "1"},
        {**base, "do": "undo", drafting.LINES: "e5-f5 e6-f6"},
        {**base, "do": "clear"},
        {**base, "at": "z99"},
        {**base, "do": "fly"},
        {"round": number + 1, "at": "e5"},
        {"round": "x"},
    ]
    return answers(client, url, forms)


def refusals(room: Room3, client: Client, number: int, waiting: bool) -> list[str]:
    """R6, R7, L7: submissions that must be refused whole. A seat still drawing sends no
    legal pass here (it would change the game); one that is done may try again (409)."""
    forms: list[tuple[str, dict[str, object]]] = [
        ("play/submit", {"round": number, drafting.LINES: "e5-f5"}),  # a partial shape
        ("play/submit", {"round": number, drafting.USING: "a1-b2 b2-c3 c3-d4"}),
        ("play/submit", {"round": number + 1, drafting.LINES: "e5-f5 e6-f6"}),
        ("play/submit", {"round": "x"}),
        ("play/pass", {"round": number + 1}),
        ("play/pass", {"round": number - 1}),
        ("play/pass", {}),
    ]
    if not waiting:
        forms.append(("play/pass", {"round": number}))
    return refused(client, room.room, forms)


def received(room: Room3, who: int | str | None) -> list[str]:
    """Everything ``who`` can get from the room now, masked: the page, the tap answers, the
    refusals, the tick, the replay (refused while the game runs), normalised."""
    client = client_of(room, who)
    state = room.state()
    number = state.round_number
    waiting = isinstance(who, int) and state.round is not None and who in state.round.waiting
    code = room.room.code
    out = [text_of(client.get(f"/r/{code}/"))]
    out += taps(room, client, number)
    out += refusals(room, client, number, waiting)
    out.append(text_of(client.post(f"/r/{code}/tick", headers=HX)))
    out.append(text_of(client.get(f"/r/{code}/history/1/")))
    return [normal(html, room.room, room_link(room.room)) for html in out]


def compare(first: Room3, second: Room3, audiences=(*WHO, "stranger")) -> None:
    before = [(r.events(), r.state()) for r in (first, second)]
    for who in audiences:
        a, b = received(first, who), received(second, who)
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert x == y, (who, i, first_difference(x, y))
    assert [(r.events(), r.state()) for r in (first, second)] == before  # nothing changed


def robot_drawings(first: Room3, second: Room3, seat: int) -> Drawing:
    """The computer's drawing for ``seat``: the same in both rooms (it reads only what the
    seat may see, V3, V4)."""
    drawing = first.robot_drawing(seat)
    assert second.robot_drawing(seat) == drawing
    return drawing


# -- (a) the unrevealed night ------------------------------------------------------------------


def test_v4_v5_r8_nobody_receives_anything_of_the_night_not_yet_revealed(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V4, V5, R8 (and V1: only the round and the piles' counts are public): at every round
    before the nights part, at the reveal and after each submission, every seat, the
    spectator and a stranger get the same pages, tap answers, refusals, ticks and replay
    refusals in two rooms whose unrevealed nights differ."""
    first, second = twin_rooms(monkeypatch, (NIGHT_X, NIGHT_Y))
    for number in range(1, SHARED + 1):
        assert first.state().round_number == second.state().round_number == number
        compare(first, second)  # the reveal: nobody has drawn yet
        for seat in (1, 2, 3):
            drawing = robot_drawings(first, second, seat)
            for room in (first, second):
                assert room.submit(seat, drawing).status_code == 200
            if seat < 3:
                compare(first, second)  # seats done and still drawing
    # The positive control: round SHARED + 1 is revealed, and it is not the same card.
    pages = [normal(r.page(None), r.room, room_link(r.room)) for r in (first, second)]
    assert pages[0] != pages[1]
    assert "draw a shooting star" in first.page(1)
    assert "draw the card&#x27;s shape" in second.page(1)


# -- (b) another seat's open submission --------------------------------------------------------


def two_legal_drawings(room: Room3, seat: int) -> tuple[Drawing, Drawing]:
    """Two different whole submissions the rules accept for ``seat`` now, with no power
    copy left open (R6, L7)."""
    state = room.state()
    board, turn = state.boards[seat - 1], turn_of(state)
    legal = [d for d in options(board, turn) if isinstance(apply(board, d, turn), StarBoard)]
    assert len(legal) >= 2
    return legal[0], legal[-1]


def test_v3_r6_another_seat_s_open_submission_reaches_nobody_else_before_the_close(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V3, R6, U10: seat 1 submits drawing A in one room and B in the other. Until the round
    closes, seats 2 and 3, the spectator and a stranger receive identical bytes (pages, tap
    answers, refusals, ticks); seat 1's own page shows its own drawing (the control); once the
    round closes everyone sees both (V2), so the rooms differ."""
    first, second = twin_rooms(monkeypatch, (NIGHT_X, NIGHT_X))
    one, other = two_legal_drawings(first, 1)
    assert one != other
    assert first.submit(1, one).status_code == 200
    assert second.submit(1, other).status_code == 200
    onlookers = (2, 3, None, "stranger")
    compare(first, second, onlookers)
    own = [normal(r.page(1), r.room, room_link(r.room)) for r in (first, second)]
    assert own[0] != own[1]  # seat 1 sees its own drawing (U10)
    drawing = robot_drawings(first, second, 2)
    for room in (first, second):
        assert room.submit(2, drawing).status_code == 200
    compare(first, second, onlookers)
    drawing = robot_drawings(first, second, 3)
    for room in (first, second):
        assert room.submit(3, drawing).status_code == 200
    after = [normal(r.page(3), r.room, room_link(r.room)) for r in (first, second)]
    assert after[0] != after[1]  # V2: the close shows every board


# -- the websocket -----------------------------------------------------------------------------


Step = Callable[[Room3], None]


def submits(seat: int, drawing: Drawing) -> Step:
    def step(room: Room3) -> None:
        assert room.submit(seat, drawing).status_code == 200

    return step


def robot_submits(seat: int) -> Step:
    def step(room: Room3) -> None:
        assert room.submit(seat, room.robot_drawing(seat)).status_code == 200

    return step


@pytest.mark.django_db(transaction=True)
def test_v4_v3_every_socket_frame_is_the_same_whatever_the_unrevealed_night(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V4 (not in websocket frames either), V3: every frame each audience's socket receives
    over SHARED rounds (the seats' own included: their drafts start empty, their boards are
    alike) is byte for byte the same in two rooms whose unrevealed nights differ."""
    first, second = twin_rooms(monkeypatch, (NIGHT_X, NIGHT_Y))
    # Each seat submits the computer's drawing for it, read from its own room: the same in
    # both rooms unless the computer read the night (which the frames would show).
    steps = [robot_submits(seat) for _ in range(SHARED) for seat in (1, 2, 3)]
    audiences = (*WHO, "stranger")
    last = len(steps) - 1  # round SHARED's close, which reveals round SHARED + 1
    a = recorded(first, steps, audiences, reconnect_after=last - 1)
    b = recorded(second, steps, audiences, reconnect_after=last - 1)
    assert a.keys() == b.keys()
    for who in a:  # [0] is the snapshot on connect, [1 + i] what step i brought
        same_frames(a[who][: last + 1], b[who][: last + 1], who)
    assert first.state().round_number == SHARED + 1
    # The control: the reveal of round SHARED + 1 reached every socket, and differs.
    for who in map(str, audiences):
        assert a[who][last + 1] != b[who][last + 1], who


@pytest.mark.django_db(transaction=True)
def test_v3_no_socket_but_the_seat_s_own_carries_its_open_submission(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V3, R6: after seat 1 submits A in one room and B in the other, the frames seats 2 and
    3, the spectator and a stranger receive (and the whole view on reconnect) are the same;
    seat 1's own differ (U10, the control)."""
    first, second = twin_rooms(monkeypatch, (NIGHT_X, NIGHT_X))
    one, other = two_legal_drawings(first, 1)
    audiences = (1, 2, 3, None, "stranger")
    a = recorded(first, [submits(1, one)], audiences, reconnect_after=0)
    b = recorded(second, [submits(1, other)], audiences, reconnect_after=0)
    for who in ("2", "3", "None", "stranger"):
        same_frames(a[who], b[who], who)
        same_frames(a[f"reconnect {who}"], b[f"reconnect {who}"], f"reconnect {who}")
    assert a["1"][-1] != b["1"][-1] and a["reconnect 1"] != b["reconnect 1"]  # the control
    assert "✓ done" in a["None"][-1][-1]


def test_the_drafts_fields_of_a_drawing_read_back():
    """The helper this file submits with: a drawing's draft carries exactly it (R6)."""
    drawing = Drawing(lines=frozenset({((4, 5), (5, 5)), ((4, 6), (5, 6))}))
    assert lats.drawing_of(drafting.read(drafting.fields(draft_of(drawing)))) == drawing
