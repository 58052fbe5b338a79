"""Hostile input at every form field of every Look at the Stars endpoint: Confirm (POST
play/submit, R6), Pass (POST play/pass, R7), every tap's preview (GET preview/draft, U1-U8)
and the lobby's options (POST options: point_card, power_card, S3, D6).

Arbitrary text (NUL and other control characters, huge strings, other scripts' digits,
markup), several values for one field, fields missing or unknown, sent by a seat, the
spectator or a stranger: never a 500; every refusal is a 4xx with a short, readable notice;
and nothing is appended (the event count and the room's options unchanged) unless the input
was a legal submission (R6: accepted whole, or refused whole), which the rules' own check,
made independently here from the same form, says it is.

Each example plays in a fresh room, so an accepted submission never changes what the next
one is sent to. Modelled on ``tests/web/test_fuzz.py`` (whose hostile values it reuses).
"""

from __future__ import annotations

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from games.inputs import BadInput
from games.lookatthestars import drafting, options
from games.lookatthestars.game import GAME
from games.lookatthestars.rules import cards
from games.lookatthestars.rules.commands import Submit
from games.models import Event
from lobby.models import Room
from tests.games.lookatthestars.test_web import Room3, draft_of
from tests.support import fuzzing
from tests.support.fuzzing import client_of, query, readable, rules_accept, send
from tests.web.test_fuzz import FUZZ

pytestmark = pytest.mark.django_db
loose_limits = fuzzing.loose_limits  # the rate limits lifted (an autouse fixture)

ENDPOINTS = ("play/submit", "play/pass", "preview/draft")
# Every field a page of this game sends, and a few it never does.
FIELDS = ("round", "do", "at", *drafting.FIELD_NAMES, options.POINT, options.POWER)
JUNK_FIELDS = ("", "seat", "version", "x" * 300, "draft-lines[]", "round\x00")
# Values that are nearly right: points, lines, copies, rounds and actions as the draft writes
# them, and the same slightly wrong.
NEAR = (
    "e5",
    "a1",
    "j11",
    "d11",
    "k1",
    "e0",
    "E5",
    " e5",
    "e5 ",
    "e5-f5",
    "e5-f6 f6-g7",
    "e5-e5",
    "e5-g7",
    "f5-e5",
    "e5-f5  e6-f6",
    "e5-f5 e5-f5",
    "e5-f5\x00",
    "a1-b2 b2-c3 c3-d4",
    "a1-b2 b2-c3 c3-d4/e5 f6",
    "a1-b2 b2-c3 c3-d4/;a1-b2 b2-c3 c3-d4/",
    "/",
    ";",
    "e5 f6 g7 h8 i9",
    "0",
    "1",
    "2",
    "3",
    "4",
    "18",
    "19",
    "yes",
    "no",
    *drafting.ACTIONS,
    "use:a1-b2 b2-c3 c3-d4",
    "decline:",
    "tap:",
    *cards.POINT_OPTIONS,
    *cards.POWER_OPTIONS,
)
VALUE = fuzzing.value(NEAR)
OVERLAY = fuzzing.overlay(VALUE, FIELDS, JUNK_FIELDS)
BASES = ("nothing", "legal", "legal pass", "tap")
WHO = (1, 1, 2, 2, "spectator", "stranger")  # seats weighted: they reach the rules


def base_form(table: Room3, seat: int, base: str) -> dict[str, object]:
    """What the fuzz starts from before its overlay: nothing, the computer's legal drawing
    (with Undo, for the preview), a legal pass, or a tap on an empty draft."""
    number = table.state().round_number
    if base == "nothing":
        return {}
    if base == "legal pass":
        return {"round": number}
    if base == "tap":
        return {"round": number, "do": "tap", "at": "e5"}
    drawing = table.robot_drawing(seat)
    return {"round": number, "do": "undo", **drafting.fields(draft_of(drawing))}


def stored(table: Room3) -> list[tuple]:
    rows = Event.objects.filter(game_id=table.game_id).order_by("seq")
    return list(rows.values_list("seq", "kind", "payload"))


@FUZZ
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    who=st.sampled_from(WHO),
    base=st.sampled_from(BASES),
    overlay=OVERLAY,
    dropped=st.sets(st.sampled_from(FIELDS), max_size=3),
)
def test_r6_u1_hostile_forms_at_every_endpoint_never_break_or_change_the_game_unless_legal(
    endpoint: str, who: object, base: str, overlay: dict, dropped: set
):
    """R6, R7, U1, W17: whatever a browser sends to submit, pass or the draft's preview, the
    answer is never a 500; a refusal is a 4xx with a readable notice and appends nothing;
    an event is appended only for a seat's submission the rules accept, and then it is
    exactly that submission; a preview never appends anything."""
    table = Room3(2)
    seat = who if isinstance(who, int) else 1
    form = {**base_form(table, seat, base), **overlay}
    for key in dropped:
        form.pop(key, None)
    before, state = stored(table), table.state()
    legal = (
        isinstance(who, int)
        and endpoint != "preview/draft"
        and rules_accept(GAME, table, endpoint, seat, form)
    )
    response = send(client_of(table, who), table, endpoint, form)
    assert response.status_code < 500, response.content[:500]
    after = stored(table)
    event(f"{endpoint} {response.status_code}{' legal' if legal else ''}")
    if response.status_code >= 400:
        readable(response)
        assert after == before
        assert table.state() == state
        return
    assert response.status_code == 200
    if not legal:
        assert after == before, (endpoint, who, form)
        assert endpoint == "preview/draft", (endpoint, who, form)
        return
    kinds = [kind for _, kind, _ in after[len(before) :]]
    assert after[: len(before)] == before and kinds[0] == "DrawingSubmitted"
    submitted = table.state()
    number = state.round_number
    drawing = (
        submitted.round.submitted[seat]
        if submitted.round is not None and submitted.round_number == number
        else submitted.closed[number - 1].drawings[seat - 1]
    )
    command = GAME.actions[endpoint.removeprefix("play/")].build(query(form), seat)
    assert isinstance(command, Submit) and drawing == command.drawing


@FUZZ
@given(who=st.sampled_from(WHO), overlay=OVERLAY, started=st.booleans())
def test_s3_d6_hostile_options_are_refused_whole_or_set_exactly(
    who: object, overlay: dict, started: bool
):
    """S3, D6: the host's point_card and power_card are set only to one of D6's values (a
    missing one is its default); anything else is a 4xx with a readable notice and leaves the
    room's options as they were; only the host may set them, and only between games."""
    table = Room3(2, start=started)
    room = Room.objects.get(pk=table.room.pk)
    before, events = room.options, Event.objects.count()
    response = send(client_of(table, who), table, "options", overlay)
    assert response.status_code < 500, response.content[:500]
    room.refresh_from_db()
    event(f"options {response.status_code}")
    assert Event.objects.count() == events
    try:
        last = {k: str(v[-1] if isinstance(v, list) else v) for k, v in overlay.items()}
        expected: dict[str, str] | None = options.clean(last)  # as the view reads the form
    except BadInput:
        expected = None
    if who == 1 and not started and expected is not None:
        assert response.status_code == 200, response.content[:500]
        assert room.options == expected
        return
    assert 400 <= response.status_code < 500, (who, started, overlay)
    readable(response)
    assert room.options == before


def test_r6_a_legal_submission_sent_as_the_fuzz_sends_it_is_appended_once():
    """The fuzz's positive control: the computer's drawing, sent as its form, is accepted
    and stored exactly (R6); the same form again is refused with 409 (final, R6)."""
    table = Room3(2)
    form = base_form(table, 1, "legal")
    assert rules_accept(GAME, table, "play/submit", 1, form)
    before = len(stored(table))
    response = send(table.seats[1], table, "play/submit", form)
    assert response.status_code == 200
    assert len(stored(table)) == before + 1
    again = send(table.seats[1], table, "play/submit", form)
    assert again.status_code == 409 and "already" in readable(again).lower()
    assert len(stored(table)) == before + 1


def test_u8_an_empty_confirm_is_refused_pass_is_its_own_button():
    """U8, R7: Confirm with an empty draft is refused with a reason and changes nothing; a
    pass is the Pass button's (it asks first), never an empty Confirm."""
    table = Room3(2)
    before = stored(table)
    response = send(table.seats[2], table, "play/submit", {"round": 1})
    assert response.status_code == 400
    assert "Nothing is drawn yet" in response.content.decode()
    assert stored(table) == before
    response = send(table.seats[2], table, "play/pass", {"round": 1})
    assert response.status_code == 200
    running = table.state().round
    assert running is not None and running.submitted[2].passed
