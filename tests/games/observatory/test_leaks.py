"""Observatory keeps its secrets (V2, V3): two twin rooms that differ ONLY in a secret send
every seat that may not know it, the spectator and a stranger the same bytes, once what
legitimately differs between any two rooms is masked (the room's code, its QR code, the
CSRF token: ``tests.support.highest.rooms.normal``). Both rooms run on one stopped clock
(``frozen_clock``) with a 60-second step, and every command's dice are the same (the seam
``game._dice``), so deadlines, countdowns and dice are alike too.

Three secrets:

* A seat's six dealt cards during the setup choice (V2, G3): seat 1 is dealt six other
  cards in one room (the decks' tops and bottoms swapped); seat 2's cards and the Night
  Sky to come are the same. Seat 2, the spectator and a stranger receive the same bytes,
  before and after seat 1 chooses; no card id or name of seat 1's hand reaches them, not
  even when seat 2 sends those ids itself. Seat 1's own page differs (the control), and
  once the choice closes its goals are public, so everyone's differ.
* A seat's accepted submission before the step closes (U3, V2): seat 1 submits plan A in
  one room and plan B in the other. The others receive the same bytes, and no star.
* The order of the decks (V2, G1): both rooms deal the same hands and Night Sky, but the
  rest of each deck in another order. Every seat (the drafting one included), the
  spectator and a stranger receive the same bytes through the choice, the turns and the
  draft's opening, and no card still in a deck is ever named; the first card taken from
  the Night Sky is refilled from the deck, which is the control.

Each audience's "everything" is its page, the plan strip's answers (GET preview/plan, legal
taps and refused ones), refused choices, submissions and picks, the countdown's tick, the
replay's refusal, and every websocket frame (snapshot, pushes and a reconnect).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import pytest
from django.test import Client

from games.observatory.rules import robot
from games.observatory.rules.decide import decide
from games.observatory.rules.deck import LARGE, SMALL
from games.observatory.rules.evolve import fold
from games.observatory.rules.model import Phase, State
from games.observatory.rules.sheet import Dice
from tests.games.observatory.web_helpers import (
    WILD,
    ObsRoom,
    as_form,
    fixed_dice,
    mentions,
    named_cards,
    rig_deal,
)
from tests.support import fuzzing
from tests.support.highest import fixtures
from tests.support.highest.fixtures import Clock
from tests.support.highest.rooms import normal, room_link
from tests.support.leaks import answers, first_difference, recorded, refused, same_frames, text_of
from tests.web.rooms import post

pytestmark = pytest.mark.django_db
frozen_clock = fixtures.frozen_clock  # one stopped clock for both rooms (a fixture)
loose_limits = fuzzing.loose_limits  # the rate limits lifted (an autouse fixture)

HX = {"HX-Request": "true"}  # the header htmx sends with every request
ROLL = Dice((3, 4, 5), 6)
PLAYERS = 2
DEALT = 3 * PLAYERS  # G2: each deck's cards dealt to the seats
SKY = 3  # G4: then each deck's next three are turned face up
OTHERS = (2, None, "stranger")  # everyone but seat 1
EVERYONE = (1, 2, None, "stranger")

# (a) seat 1's hand: its three cards of each deck swapped with the deck's last three.
HAND_X = (LARGE, SMALL)
HAND_Y = (
    (*LARGE[-3:], *LARGE[3:-3], *LARGE[:3]),
    (*SMALL[-3:], *SMALL[3:-3], *SMALL[:3]),
)
# (c) the decks' order: the same dealt cards and Night Sky, the rest reversed.
KEEP = DEALT + SKY
STAR = re.compile(r'class="obs-star[" ]')  # a star drawn on a map (not the stars' group)
DECK_Y = (
    (*LARGE[:KEEP], *reversed(LARGE[KEEP:])),
    (*SMALL[:KEEP], *reversed(SMALL[KEEP:])),
)


def test_the_twin_decks_differ_only_where_the_test_says():
    """G1, G2, G4: each twin deal holds every card once; (a) differs in seat 1's dealt
    cards (and the bottoms), (c) only below the dealt cards and the Night Sky."""
    for large, small in (HAND_X, HAND_Y, DECK_Y):
        assert sorted(large) == sorted(LARGE) and sorted(small) == sorted(SMALL)
    for x, y in zip(HAND_X, HAND_Y, strict=True):
        assert not set(x[:3]) & set(y[:3]) and x[3:KEEP] == y[3:KEEP]
    for x, y in zip(HAND_X, DECK_Y, strict=True):
        assert x[:KEEP] == y[:KEEP] and x[KEEP] != y[KEEP]


def twin_rooms(
    monkeypatch: pytest.MonkeyPatch,
    decks: tuple[tuple[Sequence[str], Sequence[str]], tuple[Sequence[str], Sequence[str]]],
    roll: Dice = ROLL,
) -> tuple[ObsRoom, ObsRoom]:
    """Two rooms of two seats and a spectator, a 60 s clock, started at the same (stopped)
    instant, Ada the first player, each dealt its own decks; every command rolls ``roll``."""
    fixed_dice(monkeypatch, roll)
    rooms = []
    for large, small in decks:
        rig_deal(monkeypatch, seed=11, large=large, small=small, first_player=1)
        rooms.append(ObsRoom(PLAYERS, step="60"))
    first, second = rooms
    a, b = first.state(), second.state()
    for state, (large, small) in zip((a, b), decks, strict=True):  # G2: dealt from the tops
        assert (*(c for hand in state.hands for c in hand[:3]), *state.large) == tuple(large)
        assert (*(c for hand in state.hands for c in hand[3:]), *state.small) == tuple(small)
    assert a.deadline == b.deadline and a.phase is Phase.CHOICE
    return first, second


# -- everything a browser can get without changing the game -----------------------------------


def client_of(room: ObsRoom, who: int | str | None) -> Client:
    return room.client(who)


def taps(room: ObsRoom, client: Client, number: int) -> list[str]:
    """U9: the plan strip's answers to taps, legal or not, and to taps of another round."""
    url = f"/r/{room.code}/preview/plan"
    base: dict[str, Any] = {"round": number, "plan": ""}
    forms: list[dict[str, Any]] = [
        base,
        {**base, "add": "die:0"},
        {**base, "plan": "die:0", "add": "pair:7-9"},
        {**base, "plan": "die:0", "to": "fill"},
        {**base, "plan": "die:0", "to": "shoot"},
        {**base, "plan": "die:0 pair:7-9", "undo": "1"},
        {**base, "plan": "die:0", "clear": "1"},
        {**base, "add": "finder:1-1"},
        {**base, "add": "claim:S01:1-1,1-2,2-1"},
        {**base, "to": "warp"},
        {**base, "plan": "hop:1"},
        {"round": number + 1, "plan": ""},
        {"round": "x"},
    ]
    return answers(client, url, forms)


def refusals(room: ObsRoom, client: Client, probes: Sequence[str]) -> list[str]:
    """U2, G3, G6: choices, submissions and picks that must be refused whole, whoever
    sends them now; ``probes`` are card ids the sender does not hold (another seat's, or
    cards still in a deck), sent four at a time as a choice."""
    state = room.state()
    number, version = state.round_number, state.version
    choice = state.choice.number if state.choice is not None else 1
    forms: list[tuple[str, dict[str, object]]] = [
        *(
            ("play/choose", {"round": choice, **keeping(probes[i : i + 4])})
            for i in range(0, len(probes), 4)
        ),
        ("play/choose", {"round": choice, "keep-1": probes[0]}),
        ("play/choose", {"round": choice + 1}),
        ("play/submit", {"round": number, "plan": "die:0 finder:1-1"}),
        ("play/submit", {"round": number + 1, "plan": "die:0"}),
        ("play/submit", {"round": number, "plan": "hop:1"}),
        ("play/submit", {"round": "x"}),
        ("play/pick", {"version": version - 1, "take": "large_deck"}),
        ("play/pick", {"version": version, "take": "moon"}),
        ("play/pick", {"version": version, "take": "small_row", "slot": 4}),
    ]
    return refused(client, room.room, forms)


def keeping(cards: Sequence[str]) -> dict[str, object]:
    return {f"keep-{n}": card for n, card in enumerate(cards, start=1)}


def received(room: ObsRoom, who: int | str | None, probes: Sequence[str]) -> list[str]:
    """Everything ``who`` can get from the room now, masked."""
    client = client_of(room, who)
    code = room.code
    number = room.state().round_number
    out = [text_of(client.get(f"/r/{code}/"))]
    out += taps(room, client, number)
    out += refusals(room, client, probes)
    out.append(text_of(client.post(f"/r/{code}/tick", headers=HX)))
    out.append(text_of(client.get(f"/r/{code}/history/1/")))
    return [normal(html, room.room, room_link(room.room)) for html in out]


def unnamed(texts: Sequence[str], secret: Sequence[str], who: object) -> None:
    """No card of ``secret`` is named, by id or by name, in anything ``who`` received."""
    for i, text in enumerate(texts):
        assert not named_cards(text) & set(secret), (who, i, named_cards(text) & set(secret))


def compare(
    first: ObsRoom,
    second: ObsRoom,
    audiences: Sequence[int | str | None],
    probes: Sequence[str],
    secret: Sequence[str],
) -> None:
    """Every audience receives the same bytes from both rooms, none of them names a secret
    card, and asking changed nothing in either room."""
    before = [(r.stored(), r.state()) for r in (first, second)]
    for who in audiences:
        a, b = received(first, who, probes), received(second, who, probes)
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert x == y, (who, i, first_difference(x, y))
        unnamed(a, secret, who)
    assert [(r.stored(), r.state()) for r in (first, second)] == before


def masked_page(room: ObsRoom, who: int | str | None) -> str:
    return normal(room.page(who), room.room, room_link(room.room))


def robot_form(first: ObsRoom, second: ObsRoom, seat: int) -> tuple[str, dict[str, object]]:
    """The computer's move for ``seat`` as its form: the same in both rooms (it reads only
    what the seat may see)."""
    form = first.robot_form(seat)
    assert second.robot_form(seat) == form
    return form


def send(room: ObsRoom, seat: int, form: tuple[str, dict[str, object]]) -> None:
    action, fields = form
    response = post(room.seats[seat], room.room, f"play/{action}", **fields)
    assert response.status_code == 200, response.content[-300:]


# -- (a) a seat's six dealt cards ------------------------------------------------------------------


def seat_one_hand(room: ObsRoom) -> tuple[str, ...]:
    return room.state().hands[0]


def test_v2_v3_g3_a_seat_s_dealt_cards_reach_nobody_else(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V2, V3, G3: seat 1's six dealt cards differ between the rooms. Seat 2, the spectator
    and a stranger receive the same bytes (pages, taps, refusals, ticks, the replay's
    refusal) before and after seat 1 chooses, and never an id or a name of seat 1's cards,
    even when seat 2 sends those ids as its own choice (the refusal does not tell whether
    another seat holds them). The controls: seat 1's own pages differ, and once the choice
    closes seat 1's kept cards are public goals."""
    first, second = twin_rooms(monkeypatch, (HAND_X, HAND_Y))
    hands = seat_one_hand(first), seat_one_hand(second)
    assert not set(hands[0]) & set(hands[1])
    secret = (*hands[0], *hands[1])
    compare(first, second, OTHERS, probes=(*hands[0][:4], *hands[1][:4]), secret=secret)
    own = [masked_page(r, 1) for r in (first, second)]
    assert own[0] != own[1]
    assert all(mentions(own[i], card) for i in (0, 1) for card in hands[i])
    for room in (first, second):
        send(room, 1, as_form(room.state(), robot.move(room.state(), 1)))
    compare(first, second, OTHERS, probes=hands[0][2:6], secret=secret)
    form = robot_form(first, second, 2)
    for room in (first, second):
        send(room, 2, form)
    after = [masked_page(r, 2) for r in (first, second)]
    assert after[0] != after[1]  # G4: the goals kept are public now
    goals = first.state().sheet(1).goals
    assert all(mentions(after[0], card) for card in goals)
    returned = [card for card in hands[0] if card not in goals]
    assert len(returned) == 2
    unnamed([after[0], masked_page(first, None)], returned, "after the choice")  # V2


# -- (b) a seat's open submission ------------------------------------------------------------------

PLAN_A = "die:0 pair:7-9 fill:funding:2 shoot:12-1"  # research 3, pair (4, 5), orange 6
PLAN_B = "die:1 pair:5-9 fill:drive:3 shoot:1-12"  # research 4, pair (3, 5), orange 6


def chosen(monkeypatch: pytest.MonkeyPatch) -> tuple[ObsRoom, ObsRoom]:
    """Twin rooms dealt alike, both seats having kept their first four: turn 1 is open."""
    first, second = twin_rooms(monkeypatch, (HAND_X, HAND_X))
    for room in (first, second):
        for seat in (1, 2):
            assert room.choose(seat, room.state().hands[seat - 1][:4]).status_code == 200
        assert room.state().phase is Phase.TURN
    return first, second


def probes_of(room: ObsRoom) -> tuple[str, ...]:
    """Four cards still in the Large deck (nobody holds them)."""
    return room.state().large[:4]


def test_v2_u3_a_seat_s_accepted_submission_reaches_nobody_else_before_the_close(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V2, V3, U3: seat 1 submits plan A in one room and plan B in the other, both
    accepted. Until the turn closes seat 2, the spectator and a stranger receive the same
    bytes, and no star on any map; seat 1's own page shows its own plan (the control); when
    seat 2's submission closes the turn, everyone sees both (V1), so the rooms differ."""
    first, second = chosen(monkeypatch)
    assert first.submit(1, PLAN_A).status_code == 200
    assert second.submit(1, PLAN_B).status_code == 200
    probes = probes_of(first)
    compare(first, second, OTHERS, probes=probes, secret=())
    for room in (first, second):
        for who in OTHERS:
            html = room.page(who)
            assert not STAR.search(html) and "pair plot" not in html, who
            assert "Funding space 2, value 3, filled" not in html
            assert "Drive space 3, value 4, filled" not in html
    own = [masked_page(r, 1) for r in (first, second)]
    assert "pair plot (7, 9)" in own[0] and "pair plot (5, 9)" in own[1]
    assert second.submit(2, "").status_code == 200 and first.submit(2, "").status_code == 200
    compare_after = [masked_page(r, None) for r in (first, second)]
    assert compare_after[0] != compare_after[1]
    assert len(STAR.findall(compare_after[0])) == 2  # Ada's two stars, public now


# -- (c) the order of the decks --------------------------------------------------------------------


def in_the_decks(first: ObsRoom, second: ObsRoom) -> tuple[str, ...]:
    """Every card still in either room's decks (the cards no one may see), except the
    cards returned under them at the choice (seen by their seat while it chose)."""
    states = first.state(), second.state()
    hands = {card for s in states for hand in s.hands for card in hand}
    deck = {c for s in states for c in (*s.large, *s.small)} - hands
    return tuple(sorted(deck))


def test_v2_g1_the_order_of_the_decks_reaches_nobody_until_a_card_comes_out(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V2, G1, G6: two rooms deal the same hands and Night Sky from decks whose rest is in
    another order. Once the choice and the turns have led to a draft, every seat (the
    drafting one with its prompt), the spectator and a stranger receive the same bytes (the
    socket test below sees every step before), and no card still in a deck is named;
    the computer's moves, read from each room, are the same. The control: the first
    face-up card taken is refilled from the deck's top, which differs."""
    first, second = twin_rooms(monkeypatch, (HAND_X, DECK_Y), roll=WILD)
    probes = probes_of(first)[-4:]
    for _ in range(30):
        state = first.state()
        if state.phase is Phase.DRAFT:
            break
        seat = next(s for s in (1, 2) if robot.waiting(state, s))
        form = robot_form(first, second, seat)
        for room in (first, second):
            send(room, seat, form)
    assert first.state().phase is Phase.DRAFT
    compare(first, second, EVERYONE, probes=probes, secret=in_the_decks(first, second))
    drafter = first.state().drafter
    assert drafter is not None
    form = robot_form(first, second, drafter)
    assert form[1]["take"] in ("large_row", "small_row")
    for room in (first, second):
        send(room, drafter, form)
    after = [masked_page(r, None) for r in (first, second)]
    assert after[0] != after[1]


# -- the websocket -----------------------------------------------------------------------------


Step = Callable[[ObsRoom], None]


def robot_sends(seat: int) -> Step:
    def step(room: ObsRoom) -> None:
        send(room, seat, room.robot_form(seat))

    return step


def next_robot(room: ObsRoom) -> None:
    """The first seat the game waits for plays the computer's move, as its form."""
    send(room, room.waiting()[0], room.robot_form(room.waiting()[0]))


def moves_to_the_first_pick(state: State, now: datetime) -> int:
    """How many moves the computer makes from ``state`` up to the draft's first pick
    included, every die "?" (the rules alone, so the sockets see every one of them)."""
    for count in range(1, 40):
        seat = next(s for s in state.seats if robot.waiting(state, s))
        decision = decide(state, robot.move(state, seat, WILD), now)
        assert isinstance(decision, list), decision
        if state.phase is Phase.DRAFT:
            return count
        state = fold(decision, state)
    raise AssertionError("no draft")


def submits(seat: int, written: str) -> Step:
    def step(room: ObsRoom) -> None:
        assert room.submit(seat, written).status_code == 200

    return step


@pytest.mark.django_db(transaction=True)
def test_v3_no_socket_but_the_seat_s_own_carries_its_dealt_cards_or_its_choice(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V3, G3: while seat 1's six dealt cards differ and seat 1 chooses, every frame seat
    2, the spectator and a stranger receive (the snapshot, the push of seat 1's choice, a
    reconnect) is the same and names none of them; seat 1's own frames differ (the
    control)."""
    first, second = twin_rooms(monkeypatch, (HAND_X, HAND_Y))
    secret = (*seat_one_hand(first), *seat_one_hand(second))
    a = recorded(first, [robot_sends(1)], EVERYONE)
    b = recorded(second, [robot_sends(1)], EVERYONE)
    for who in map(str, OTHERS):
        for key in (who, f"reconnect {who}"):
            same_frames(a[key], b[key], key)
            unnamed([f for frames in a[key] for f in frames], secret, key)
    assert a["1"][0] != b["1"][0] and a["reconnect 1"] != b["reconnect 1"]
    assert "✓ you keep it" in a["reconnect 1"][0][0]


@pytest.mark.django_db(transaction=True)
def test_v3_u3_no_socket_but_the_seat_s_own_carries_its_open_submission(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V3, U3: after seat 1 submits plan A in one room and B in the other, the frames seat
    2, the spectator and a stranger receive (and the whole view on reconnect) are the same;
    seat 1's own differ (the control)."""
    first, second = chosen(monkeypatch)
    a = recorded(first, [submits(1, PLAN_A)], EVERYONE)
    b = recorded(second, [submits(1, PLAN_B)], EVERYONE)
    for who in map(str, OTHERS):
        same_frames(a[who], b[who], who)
        same_frames(a[f"reconnect {who}"], b[f"reconnect {who}"], f"reconnect {who}")
    assert a["1"][-1] != b["1"][-1] and a["reconnect 1"] != b["reconnect 1"]
    assert not STAR.search(a["None"][-1][-1])


@pytest.mark.django_db(transaction=True)
def test_v2_g1_every_socket_frame_is_the_same_whatever_the_decks_order(
    frozen_clock: Clock, monkeypatch: pytest.MonkeyPatch
):
    """V2, G1: every frame every audience's socket receives through the choice and the
    turns up to the draft (the seats' own included) is byte for byte the same in two rooms
    whose decks' rest is in another order; the draft's first pick from the Night Sky, whose
    slot is refilled from the deck, reaches every socket and differs (the control)."""
    first, second = twin_rooms(monkeypatch, (HAND_X, DECK_Y), roll=WILD)
    steps = [next_robot] * moves_to_the_first_pick(first.state(), frozen_clock.at)
    a = recorded(first, steps, EVERYONE)
    b = recorded(second, steps, EVERYONE)
    last = len(steps)  # [0] is the snapshot, [i] what step i brought: the last is the pick
    for who in map(str, EVERYONE):
        same_frames(a[who][:last], b[who][:last], who)
        assert a[who][last] != b[who][last], who
