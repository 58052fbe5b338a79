"""Who sees what (V1-V6): the public boards as of the last closed round, a seat's own accepted
submission for that seat only, and never a card of the night that is not yet revealed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import replace
from datetime import UTC, datetime

from games import kit
from games.kit import SeatStatus
from games.lookatthestars.rules import decide as rules
from games.lookatthestars.rules.board import Design, Power
from games.lookatthestars.rules.cards import NIGHT_DECK
from games.lookatthestars.rules.commands import Deal, Submit
from games.lookatthestars.rules.evolve import fold
from games.lookatthestars.rules.model import PASS, Drawing, State
from games.lookatthestars.rules.view import View, view_for
from tests.games.lookatthestars.play_helpers import S, lines

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
NIGHT = ("S01", "SS1", "S04", *(f"S{n:02d}" for n in range(5, 20)))
DESIGNS = tuple(Design(id=f"t{i}", name=f"Test {i}") for i in range(1, 4))


def dealt(players: int = 3, night: tuple[str, ...] = NIGHT) -> State:
    deal = Deal(players, DESIGNS[:players], night, "B7", Power.NOVA, 90)
    decision = rules.decide(State(), deal, NOW)
    assert isinstance(decision, list)
    return fold(decision)


def submit(state: State, seat: int, drawing: Drawing = PASS) -> State:
    decision = rules.decide(state, Submit(seat, state.round_number, drawing), NOW)
    assert isinstance(decision, list), decision
    return fold(decision, state)


def strings(value: object) -> Iterator[str]:
    """Every string a view holds, however deep (the ids a template could print)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings(getattr(value, field.name))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from strings(item)


def viewers(state: State) -> tuple[int | None, ...]:
    return (None, *state.seats)


# -- V1, V5: public from the deal --------------------------------------------------------------


def test_v1_v5_every_design_both_bonus_cards_the_clock_the_round_and_the_piles() -> None:
    """V1, V5: everyone sees each seat's design, the point and power cards face up, the clock
    setting, the round number and the cards left in each pile."""
    state = dealt()
    for viewer in viewers(state):
        shown = view_for(state, viewer)
        assert [b.design for b in shown.boards] == list(DESIGNS)
        assert (shown.point_card, shown.power, shown.step_seconds) == ("B7", Power.NOVA, 90)
        assert (shown.round, shown.pile, shown.cards_left) == (1, 1, (5, 6, 6))
        assert shown.card == "S01" and shown.revealed == ("S01",)


# -- V2: public when a round closes ------------------------------------------------------------


def test_v2_a_closed_round_shows_every_board_and_score_to_everyone_alike() -> None:
    """V2, S5: after the close, every seat and a spectator see the same boards and scores."""
    state = dealt()
    state = submit(state, 1, lines("c3-c4 c4-d4"))
    state = submit(state, 2, lines("e5-e6 e5-f5"))
    state = submit(state, 3)
    shown = [view_for(state, viewer) for viewer in viewers(state)]
    assert shown[0].boards[0].board.drawn == S("c3-c4 c4-d4")
    assert shown[0].boards[1].board.drawn == S("e5-e6 e5-f5")
    assert all(v.boards == shown[0].boards for v in shown)
    assert [b.score for b in shown[0].boards] == list(state.scores)


# -- V3: private during a round ----------------------------------------------------------------


def test_v3_an_accepted_submission_is_shown_to_its_seat_only() -> None:
    """V3, U10: seat 1 sees its own drawing (and its board with it); seat 2 and a spectator
    see only "done"; the public board is still the one of the last closed round."""
    state = submit(dealt(), 1, lines("c3-c4 c4-d4"))
    own = view_for(state, 1)
    assert own.status is not None and own.status.own == lines("c3-c4 c4-d4")
    assert own.own is not None and own.own.drawn == S("c3-c4 c4-d4")
    assert not own.can_submit and view_for(state, 2).can_submit
    for viewer in (None, 2, 3):
        other = view_for(state, viewer)
        assert other.status is not None and other.status.own is None and other.own is None
        assert other.boards[0].status is SeatStatus.DONE
        assert other.boards[1].status is SeatStatus.CHOOSING
        assert other.boards[0].board.drawn == frozenset()
        assert Drawing not in {type(x) for x in _walk(other)}


def _walk(value: object) -> Iterator[object]:
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _walk(getattr(value, field.name))
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _walk(item)


def twin(state: State, viewer: int | None) -> State:
    """The same game, but every open submission of another seat is something else."""
    if state.round is None or state.round.closed:
        return state
    others = {
        seat: drawing if seat == viewer else lines("h8-h9 h9-i9")
        for seat, drawing in state.round.submitted.items()
    }
    return replace(state, round=kit.with_changes(state.round, submitted=others))


def test_v3_no_view_depends_on_another_seat_s_open_submission() -> None:
    """V3: the views of every viewer are equal in a twin game where the other seats' open
    submissions differ."""
    state = submit(submit(dealt(), 1, lines("c3-c4 c4-d4")), 2)
    for viewer in viewers(state):
        assert view_for(twin(state, viewer), viewer) == view_for(state, viewer)


# -- V4: never an unrevealed card --------------------------------------------------------------


def test_v4_no_view_holds_a_card_not_yet_revealed() -> None:
    """V4: neither the night's later cards, their order, nor the 12 unused cards appear in
    any view; a twin night differing only after the revealed cards gives equal views."""
    state = submit(submit(submit(dealt(), 1), 2), 3)  # round 2 revealed
    hidden = set(NIGHT_DECK) - set(NIGHT[:2])
    other_night = (*NIGHT[:2], *reversed(NIGHT[2:]))
    other = submit(submit(submit(dealt(night=other_night), 1), 2), 3)
    for viewer in viewers(state):
        shown = view_for(state, viewer)
        assert not set(strings(shown)) & hidden
        assert view_for(other, viewer) == shown
    assert "night" not in {f.name for f in dataclasses.fields(View)}


def test_e7_at_the_end_everything_is_shown_and_the_unused_cards_never() -> None:
    """E7: the 18 cards of the night in order, every board and sheet, to everyone; the 12
    unused cards are never in a view."""
    state = dealt()
    while not state.ended:
        for seat in state.seats:
            state = submit(state, seat)
    unused = set(NIGHT_DECK) - set(NIGHT)
    for viewer in viewers(state):
        shown = view_for(state, viewer)
        assert shown.revealed == NIGHT and shown.ended and len(shown.closed) == 18
        assert [b.score for b in shown.boards] == list(state.scores)
        assert not set(strings(shown)) & unused


# -- V6: the history shows closed rounds only ----------------------------------------------------


def test_v6_the_history_holds_closed_rounds_only() -> None:
    """V6: the running round shows nothing of any seat's drawing in the history."""
    state = submit(submit(submit(dealt(), 1, lines("c3-c4 c4-d4")), 2), 3)
    state = submit(state, 1)  # round 2 open, seat 1 done
    shown = view_for(state, None)
    assert [c.number for c in shown.closed] == [1]
    assert shown.closed[0].drawings[0] == lines("c3-c4 c4-d4")
