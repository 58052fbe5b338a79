"""Hostile input at every form field of every Observatory endpoint: the setup choice (POST
play/choose, G3), Submit (POST play/submit, U1), the draft (POST play/pick, G5, G6) and every
tap of the plan strip (GET preview/plan, U9), sent in each phase a game goes through (the
choice, a turn, a draft) by a seat, the spectator or a stranger.

Arbitrary text (control characters, huge strings, other scripts' digits, markup), values
that are nearly right (plan words, card ids, slots, rounds written slightly wrong), several
values for one field, fields missing or unknown: never a 500; every refusal is a 4xx with a
short, readable notice; nothing is appended unless the rules' own check, made here
independently from the same form, says the command is legal, and then exactly that command
is stored (U1: accepted whole or refused whole); a tap of the plan strip appends nothing and
never adds a step the rules refuse (U9, U2).

The three rooms are set up once; every example runs inside a savepoint that is rolled back
(and the process's cache of folded states forgotten), so each starts from the same game.
Modelled on ``tests/games/lookatthestars/test_fuzz.py`` (whose hostile values it reuses).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kit import Refusal
from games.observatory import game, plan, planner
from games.observatory.rules import robot
from games.observatory.rules.commands import Choose, Pick, Submit
from games.observatory.rules.decide import taken
from games.observatory.rules.model import Phase, Source
from games.observatory.rules.sheet import Dice
from games.observatory.rules.steps import follow
from tests.games.observatory.web_helpers import (
    WILD,
    ObsRoom,
    as_form,
    fixed_dice,
    hidden,
    rig_deal,
)
from tests.support import fuzzing
from tests.support.fuzzing import judged, query, readable, rules_accept, send, undone
from tests.web.rooms import notice
from tests.web.test_fuzz import FUZZ

pytestmark = pytest.mark.django_db
loose_limits = fuzzing.loose_limits  # the rate limits lifted (an autouse fixture)

ENDPOINTS = ("play/choose", "play/submit", "play/pick", "preview/plan")
KEEPS = tuple(f"keep-{n}" for n in range(1, game.DEALT + 1))
# Every field a page of this game sends, and a few it never does.
FIELDS: tuple[str, ...] = ("round", "version", plan.FIELD, "add", "undo", "clear", "to", "mode")
FIELDS += ("take", "slot", *KEEPS)
JUNK_FIELDS = ("", "seat", "keep-0", "keep-7", "x" * 300, "plan[]", "round\x00", "dice")
# Values that are nearly right: plan words, cards, sources, slots and rounds as the pages
# write them, and the same slightly wrong.
NEAR = (
    "die:0",
    "die:2",
    "die:3",
    "die:-1",
    "lens:0:+1",
    "lens:3:-1",
    "lens:1:+2",
    "pair:7-9",
    "pair:5-9",
    "pair:13-1",
    "pair:0-0",
    "pair:7-9-1",
    "shoot:12-1",
    "shoot:1-12",
    "fill:funding:2",
    "fill:drive:3",
    "fill:drive:5:4",
    "fill:drive:1:7",
    "fill:?:2",
    "fill:warp:2",
    "claim:S01:1-1,1-2,2-1",
    "claim:S01:1-1,1-1,2-1",
    "claim:Z99:1-1",
    "bonus:forgo",
    "bonus:forgo:1",
    "bonus:star:4-4",
    "bonus:fill:lens:2",
    "track:star:9-9",
    "track:forgo",
    "finder:3-12",
    "night:star:6-6",
    "night:fill:funding:1",
    "die:0 pair:7-9",
    "die:0 pair:7-9 fill:funding:2 shoot:12-1",
    "die:1 pair:5-9 fill:drive:3 shoot:1-12",
    "die:0  pair:7-9",
    " die:0",
    "die:0 ",
    ":",
    "::",
    "large_row",
    "small_row",
    "large_deck",
    "small_deck",
    "LARGE_ROW",
    "moon",
    "0",
    "1",
    "2",
    "3",
    "4",
    "-1",
    "1.0",
    "١",
    "L01",
    "S01",
    "A01",
    "L65",
    "Z99",
    "l01",
    "yes",
    *planner.BY_KEY,
    "warp",
)
VALUE = fuzzing.value(NEAR)
OVERLAY = fuzzing.overlay(VALUE, FIELDS, JUNK_FIELDS)
PHASES = ("choice", "turn", "draft")
# Every phase at every endpoint, and more often the endpoint each phase waits for.
AT = (
    *((phase, endpoint) for phase in PHASES for endpoint in ENDPOINTS),
    *(("choice", "play/choose"), ("turn", "play/submit"), ("draft", "play/pick")) * 3,
)
BASES = ("nothing", "legal", "near")
WHO = (1, 1, 2, 2, "spectator", "stranger")  # seats weighted: they reach the rules


@pytest.fixture
def rooms(monkeypatch: pytest.MonkeyPatch) -> dict[str, ObsRoom]:
    """A room in each phase, Ada the first player: the setup choice open; Night 1's first
    turn open (dice 3 4 5, orange 6); a draft open (every die "?", the computer's moves)."""
    rig_deal(monkeypatch, seed=1, first_player=2)
    fixed_dice(monkeypatch, Dice((3, 4, 5), 6))
    choice = ObsRoom(2)
    turn = ObsRoom(2)
    turn.play_until(lambda s: s.phase is Phase.TURN)
    fixed_dice(monkeypatch, WILD)
    draft = ObsRoom(2)
    draft.play_until(lambda s: s.phase is Phase.DRAFT, most=30)
    return {"choice": choice, "turn": turn, "draft": draft}


def base_form(table: ObsRoom, seat: int, endpoint: str, base: str) -> dict[str, object]:
    """What the fuzz starts from before its overlay: nothing, the round alone, the
    computer's own move for this seat where it has one of this endpoint's kind (else a
    well-formed one), or a form that is nearly right."""
    state = table.state()
    number, version = state.round_number, state.version
    hand = state.hands[seat - 1] if state.hands else ()
    if base == "nothing":
        return {}
    if base == "round":  # a form of the page's, holding only its round
        return {"round": number}
    if base == "near":
        return {
            "play/choose": {"round": 1, **{k: c for k, c in zip(KEEPS, hand[:3], strict=False)}},
            "play/submit": {"round": number, plan.FIELD: "die:0 pair:7-9"},
            "play/pick": {"version": version, "take": "small_row"},
            "preview/plan": {"round": number, plan.FIELD: "die:0", "add": "pair:7-9"},
        }[endpoint]
    action = endpoint.removeprefix("play/")
    if robot.waiting(state, seat):
        name, form = as_form(state, robot.move(state, seat))
        if name == action:
            return form
        if name == "submit" and endpoint == "preview/plan":
            return {**form, "undo": "1"}
    return {
        "play/choose": {"round": 1, **{k: c for k, c in zip(KEEPS, hand[:4], strict=False)}},
        "play/submit": {"round": number, plan.FIELD: ""},
        "play/pick": {"version": version, "take": Source.SMALL_DECK.value},
        "preview/plan": {"round": number, plan.FIELD: ""},
    }[endpoint]


def check_stored(table: ObsRoom, endpoint: str, seat: int, form: dict[str, object], before):
    """U1, G3, G6: the command accepted is exactly the one the form says."""
    command = game.GAME.actions[endpoint.removeprefix("play/")].build(query(form), seat)
    after = table.state()
    if isinstance(command, Choose):
        assert after.choice is not None
        assert after.choice.submitted[seat].cards == command.keep
    elif isinstance(command, Submit):
        assert after.round is not None
        assert after.round.submitted[seat].steps == command.steps
    else:
        assert isinstance(command, Pick)
        card = taken(before, command.take)
        assert card in after.sheet(seat).goals and card not in before.sheet(seat).goals


def check_tap(form: dict[str, object], html: str, table: ObsRoom, seat: int) -> None:
    """U9, U2: the strip's answer holds the plan sent, one step back (Undo), nothing
    (Clear), or the plan with the one step added, and then the rules accept it."""
    sent = query(form)
    steps = plan.read(sent.get(plan.FIELD))
    now = plan.read(hidden(html, plan.FIELD))
    if sent.get("undo"):
        assert now == steps[:-1]
    elif sent.get("clear"):
        assert now == ()
    elif sent.get("add") and now != steps:
        added = plan.read(sent.get("add"))
        assert now == (*steps, *added) and len(added) == 1
        state = table.state()
        roll = planner.roll_of(state, seat)
        trial = follow(
            state.sheet(seat), now, dice=roll.dice, active=roll.active, opening=roll.opening
        )
        assert not isinstance(trial, Refusal), trial
    else:
        assert now == steps


@settings(FUZZ, max_examples=100)
@given(
    at=st.sampled_from(AT),
    who=st.sampled_from(WHO),
    base=st.sampled_from(BASES),
    overlay=OVERLAY,
    dropped=st.sets(st.sampled_from(FIELDS), max_size=3),
)
def test_u1_u2_u9_g3_g6_hostile_forms_never_break_or_change_the_game_unless_legal(
    rooms: dict[str, ObsRoom],
    at: tuple[str, str],
    who: object,
    base: str,
    overlay: dict,
    dropped: set,
):
    """U1, U2, G3, G6: whatever a browser sends to choose, submit, pick or tap the plan
    strip, in any phase, the answer is never a 500; a refusal is a 4xx with a readable
    notice and appends nothing; an event is appended only for a seat's command the rules
    accept, and then it is exactly that command."""
    phase, endpoint = at
    fuzzed(rooms[phase], phase, endpoint, who, base, overlay, dropped)


WORDS = tuple(word for word in NEAR if ":" in word and not word.startswith(":"))
PLANS = st.sampled_from(("", "die:0", "die:1", "die:2", "die:0 pair:7-9", "die:1 lens:0:+1"))
MODES = st.sampled_from(tuple(planner.BY_KEY))
TAP = st.fixed_dictionaries(
    {},
    optional={
        # mostly what the page could send, sometimes anything
        plan.FIELD: st.one_of(PLANS, PLANS, PLANS, VALUE),
        "add": st.one_of(*[st.sampled_from(WORDS)] * 3, VALUE),
        "to": st.one_of(MODES, MODES, MODES, VALUE),
        "undo": st.sampled_from(("1", "", "0")),
        "clear": st.sampled_from(("1", "")),
    },
)


@settings(FUZZ, max_examples=60)
@given(
    phase=st.sampled_from(("turn",) * 6 + ("choice", "draft")),
    who=st.sampled_from((1, 1, 1, 2, 2, 2, "spectator", "stranger")),
    base=st.sampled_from(("round", "round", "legal", "near")),
    tap=TAP,
    overlay=st.one_of(st.just({}), OVERLAY),
    dropped=st.sets(st.sampled_from(FIELDS), max_size=1),
)
def test_u9_u2_hostile_taps_of_the_plan_strip_record_nothing_and_add_only_legal_steps(
    rooms: dict[str, ObsRoom],
    phase: str,
    who: object,
    base: str,
    tap: dict,
    overlay: dict,
    dropped: set,
):
    """U9, U2: whatever a tap of the plan strip carries (any step word added to any plan,
    Undo, Clear, any kind of step shown), the answer is never a 500, a refusal is a
    readable 4xx, nothing is ever appended, and the plan it answers with is the one sent,
    one step back (Undo), empty (Clear) or the one sent with exactly the step added, which
    the rules then accept."""
    fuzzed(rooms[phase], phase, "preview/plan", who, base, {**tap, **overlay}, dropped)


def fuzzed(
    table: ObsRoom,
    phase: str,
    endpoint: str,
    who: object,
    base: str,
    overlay: dict,
    dropped: set,
) -> None:
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
            on_stored=lambda state: check_stored(table, endpoint, seat, form, state),
        )


def test_u1_g3_g6_the_fuzz_s_legal_forms_are_stored_exactly_once(rooms: dict[str, ObsRoom]):
    """The fuzz's positive control: in each phase, the computer's move, sent as the fuzz
    sends it, is legal, accepted and stored exactly; sent again it is refused with a
    readable notice and nothing more is appended (U3: final; G6: the version moved on);
    and the savepoint the fuzz relies on rolls it all back."""
    for phase, endpoint in (
        ("choice", "play/choose"),
        ("turn", "play/submit"),
        ("draft", "play/pick"),
    ):
        table = rooms[phase]
        seat = table.state().drafter if phase == "draft" else 2
        assert seat is not None
        kept = table.stored()
        with undone():
            form = base_form(table, seat, endpoint, "legal")
            assert rules_accept(game.GAME, table, endpoint, seat, form), phase
            before, state = table.stored(), table.state()
            response = send(table.seats[seat], table, endpoint, form)
            assert response.status_code == 200, notice(response)
            check_stored(table, endpoint, seat, form, state)
            count = len(table.stored())
            again = send(table.seats[seat], table, endpoint, form)
            assert 400 <= again.status_code < 500 and readable(again)
            assert len(table.stored()) == count > len(before)
        assert table.stored() == kept
