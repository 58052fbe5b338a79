"""Hostile input at every form field of every Astra endpoint (T5, O10, K18): Observe, Dream,
Ability, Rest, Done, the Boon pick, the card limit's discard and every tap of the marking
strip (GET preview/mark, U3), sent in each phase a game goes through (a fresh turn, a turn
after an Observe, a Boon pick step) by a seat, the spectator or a stranger.

Arbitrary text, values that are nearly right (chains, slots, cards, boxes written slightly
wrong), several values for one field, fields missing or unknown: never a 500; every refusal
is a 4xx with a short, readable notice and appends nothing; an event is appended only when
the rules' own check, made here independently from the same form, accepts the command; a
tap of the strip appends nothing and never adds a star the rules would not take next.

The rooms are set up once; every example runs inside a savepoint that is rolled back (and
the process's cache of folded states forgotten), so each starts from the same game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.astra import chain, game, markings
from games.astra.forms import form_of
from games.astra.rules import robot
from games.astra.rules.model import Phase
from tests.games.astra.web_helpers import AstraRoom, hidden
from tests.support import fuzzing
from tests.support.fuzzing import judged, query, readable, rules_accept, send, undone
from tests.web.rooms import notice
from tests.web.test_fuzz import FUZZ

pytestmark = pytest.mark.django_db
loose_limits = fuzzing.loose_limits  # the rate limits lifted (an autouse fixture)

ACTIONS = ("observe", "dream", "ability", "rest", "done", "pick", "discard")
ENDPOINTS = (*(f"play/{a}" for a in ACTIONS), "preview/mark")
FIELDS: tuple[str, ...] = ("version", chain.FIELD, "mode", "open", "add", "undo", "clear", "to")
FIELDS += ("card", "k", "step", "box", "target-1", "target-2", "held", "keep-1", "keep-12")
JUNK_FIELDS = ("", "seat", "x" * 300, "chain[]", "version\x00", "stars")
NEAR = (
    "1.0",
    "1.0-1.1",
    "1.0-1.1-1.2-1.3",
    "2.0",
    "6.8",
    "7.0",
    "1.9",
    "0.0",
    "1.0-",
    "-1.0",
    "1.0--1.1",
    "1,0",
    "10.0",
    "1.0-2.0",
    "observe",
    "dream",
    "ability-12",
    "ability-1",
    "ability-99",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "48",
    "49",
    "-1",
    "١",
    "12-17",
    "3-3",
    "yes",
)
VALUE = fuzzing.value(NEAR)
OVERLAY = fuzzing.overlay(VALUE, FIELDS, JUNK_FIELDS)
PHASES = ("turn", "observing", "picking")
AT = (
    *((phase, endpoint) for phase in PHASES for endpoint in ENDPOINTS),
    *(("turn", "play/observe"), ("observing", "play/done"), ("picking", "play/pick")) * 3,
)
WHO = (1, 1, 2, 2, 3, "spectator", "stranger")


def _observing(state) -> bool:
    return state.phase is Phase.OBSERVING


def _picking(state) -> bool:
    return state.phase is Phase.PICKING


@pytest.fixture
def rooms() -> dict[str, AstraRoom]:
    """A room in each phase: a fresh turn; a turn after an Observe with a Telescope left (or
    the first room that gets there); a Boon pick step open."""
    turn = AstraRoom(3)
    found: dict[str, AstraRoom] = {"turn": turn}
    for name, wanted in (("observing", _observing), ("picking", _picking)):
        for seed in range(8):
            table = AstraRoom(3)
            state = table.play_until(
                lambda s, wanted=wanted: s.ended or wanted(s), random.Random(seed), 600
            )
            if wanted(state):
                found[name] = table
                break
        else:  # pragma: no cover - the seeds above reach both
            found[name] = turn
    return found


def base_form(table: AstraRoom, seat: int, endpoint: str, base: str) -> dict[str, object]:
    """Nothing; the computer's own move for this seat (where it is of this endpoint's kind);
    or a form that is nearly right."""
    state = table.state()
    if base == "nothing":
        return {}
    if base == "legal" and robot.waiting(state, seat):
        name, form = form_of(state, robot.move(state, seat, random.Random(1)))
        if f"play/{name}" == endpoint:
            return form
    version = state.version
    step = state.picks.number if state.picks is not None else version
    return {
        "play/observe": {"version": version, chain.FIELD: "1.0"},
        "play/dream": {"version": version, chain.FIELD: "1.0-1.1"},
        "play/ability": {"version": version, "card": "12"},
        "play/rest": {"version": version},
        "play/done": {"version": version},
        "play/pick": {"step": step, "box": "1"},
        "play/discard": {"version": version, "held": "3-17", "keep-3": "1"},
        "preview/mark": {"version": version, "mode": "observe", "add": "1.0"},
    }[endpoint]


def check_tap(form: dict[str, object], html: str, table: AstraRoom, seat: int) -> None:
    """U3: the strip's answer holds the chain sent, one star back (Undo), nothing (Clear or
    a new mode), or the chain with one star added, which the strip offered as legal."""
    sent = query(form)
    taps = chain.read(sent.get(chain.FIELD))
    now = chain.read(hidden(html, chain.FIELD))
    if sent.get("to") or sent.get("clear"):
        assert now == ()
    elif sent.get("undo"):
        assert now == taps[:-1]
    elif sent.get("add") and now != taps:
        added = chain.read(sent.get("add"))
        assert now == (*taps, *added) and len(added) == 1
        mode = hidden(html, "mode") or ""
        legal = markings.targets(table.state(), seat, mode, taps)
        assert added[0][1] in legal.get(added[0][0], frozenset())
    else:
        assert now == taps


@settings(FUZZ, max_examples=120)
@given(
    at=st.sampled_from(AT),
    who=st.sampled_from(WHO),
    base=st.sampled_from(("nothing", "legal", "near")),
    overlay=OVERLAY,
    dropped=st.sets(st.sampled_from(FIELDS), max_size=3),
)
def test_t5_o10_k18_hostile_forms_never_break_or_change_the_game_unless_legal(
    rooms: dict[str, AstraRoom],
    at: tuple[str, str],
    who: object,
    base: str,
    overlay: dict,
    dropped: set,
):
    """T5, O10, K18, U3: whatever a browser sends to any endpoint in any phase, the answer
    is never a 500; a refusal is a 4xx with a readable notice and appends nothing; an event
    is appended only for a command the rules accept; a tap appends nothing."""
    phase, endpoint = at
    table = rooms[phase]
    seat = who if isinstance(who, int) else 1
    with undone():
        form = {**base_form(table, seat, endpoint, base), **overlay}
        for key in dropped:
            form.pop(key, None)
        judged(
            game.GAME,
            table,
            endpoint,
            who,
            form,
            label=phase,
            on_tap=lambda html: check_tap(form, html, table, seat),
            on_stored=lambda state: None,  # the rules accepted it: appended, checked above
        )


def test_t5_the_fuzz_s_legal_forms_are_stored_and_refused_when_sent_again(
    rooms: dict[str, AstraRoom],
):
    """The fuzz's positive control: the computer's move in each phase, sent as the fuzz
    sends it, is accepted and appended; sent again it is refused with a readable notice and
    nothing more is appended (T4: the version moved on); the savepoint rolls it all back."""
    for phase in PHASES:
        table = rooms[phase]
        state = table.state()
        seat = next(s for s in (1, 2, 3) if robot.waiting(state, s))
        name, form = form_of(state, robot.move(state, seat, random.Random(1)))
        kept = table.stored()
        with undone():
            assert rules_accept(game.GAME, table, f"play/{name}", seat, form), phase
            response = send(table.seats[seat], table, f"play/{name}", form)
            assert response.status_code == 200, notice(response)
            count = len(table.stored())
            assert count > len(kept)
            again = send(table.seats[seat], table, f"play/{name}", form)
            assert 400 <= again.status_code < 500 and readable(again)
            assert len(table.stored()) == count
        assert table.stored() == kept
