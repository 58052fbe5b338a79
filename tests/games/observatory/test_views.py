"""Who sees what (V1-V3): public sheets, dice and ready dots; a seat's six dealt cards to
itself only while the choice runs; returned cards never marked; open submissions hidden;
deck orders in no view."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping

from games import kit
from games.kit import SeatStatus
from games.observatory.rules.commands import Choose
from games.observatory.rules.model import Phase, State
from games.observatory.rules.steps import PairPlot, ResearchDie
from games.observatory.rules.view import View, view_for
from tests.games.observatory.flow_helpers import (
    ROLL,
    act,
    choose_all,
    deal,
    pass_all,
    started,
    submit,
)


def strings(value: object) -> Iterator[str]:
    """Every text anywhere in a view (card ids included)."""
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


def cards_in(view: View) -> set[str]:
    return set(strings(view))


def test_v2_each_seat_sees_its_own_six_dealt_cards_and_nobody_else_does() -> None:
    state = deal(3)
    for seat in (1, 2, 3):
        seen = view_for(state, seat)
        assert seen.hand == state.hands[seat - 1] and seen.can_choose
        others = {card for s, hand in enumerate(state.hands, 1) if s != seat for card in hand}
        assert not cards_in(seen) & others
    spectator = view_for(state, None)
    assert spectator.hand == () and not cards_in(spectator) & set(sum(state.hands, ()))


def test_v2_returned_cards_are_never_shown_or_marked_not_even_at_the_end() -> None:
    state = deal(2)
    returned = {state.hands[0][4], state.hands[0][5], state.hands[1][4], state.hands[1][5]}
    state = choose_all(state)
    for viewer in (None, 1, 2):
        seen = view_for(state, viewer)
        assert seen.hand == () and not cards_in(seen) & returned
    while not state.ended:
        state = pass_all(state)
    assert not any(cards_in(view_for(state, viewer)) & returned for viewer in (None, 1, 2))
    assert not {"returned", "kept"} & {f.name for f in dataclasses.fields(View)}


def test_v2_no_view_holds_a_card_still_in_a_deck() -> None:
    state = started(4)
    in_decks = set(state.large) | set(state.small)
    for viewer in (None, 1, 2, 3, 4):
        seen = view_for(state, viewer)
        assert not cards_in(seen) & in_decks
        assert (seen.large_left, seen.small_left) == (len(state.large), len(state.small))


def test_v2_u3_an_open_submission_is_the_seats_own_others_see_ready() -> None:
    state = started(2)
    state, _ = submit(state, 1, [ResearchDie(0), PairPlot((7, 9))])
    mine, theirs, spectator = view_for(state, 1), view_for(state, 2), view_for(state, None)
    assert mine.round is not None and mine.round.own is not None and not mine.can_submit
    assert mine.own is not None and (7, 9) in mine.own.stars
    for seen in (theirs, spectator):
        assert seen.round is not None and seen.round.own is None and seen.own is None
        assert dict(seen.round.seats) == {1: SeatStatus.DONE, 2: SeatStatus.CHOOSING}
        assert all((7, 9) not in s.sheet.stars for s in seen.seats)
    assert theirs.can_submit and not spectator.can_submit
    # the others' views do not depend on what seat 1 submitted
    assert state.round is not None
    twin = kit.with_changes(state, round=kit.with_changes(state.round, submitted={1: ()}))
    assert view_for(twin, 2) == theirs and view_for(twin, None) == spectator


def test_v2_an_open_choice_is_hidden_and_the_others_see_ready() -> None:
    state = deal(2)
    state, _ = act(state, Choose(1, 1, state.hands[0][:4]))
    theirs = view_for(state, 2)
    assert theirs.choice is not None and theirs.choice.own is None
    assert theirs.choice.seats[1] is SeatStatus.DONE
    mine = view_for(state, 1)
    assert mine.choice is not None and mine.choice.own is not None and not mine.can_choose


def test_v1_the_turn_the_dice_the_active_seat_and_every_sheet_are_public() -> None:
    state = started(3, first_player=2)
    for viewer in (None, 1, 2, 3):
        seen = view_for(state, viewer)
        assert (seen.night, seen.nights, seen.turn, seen.turns) == (1, 4, 1, 3)
        assert seen.dice == ROLL and seen.active == 2 and seen.phase is Phase.TURN
        assert seen.opening_nights == (2, 3, 4)
        assert [s.sheet for s in seen.seats] == list(state.sheets)
        assert [s.score for s in seen.seats] == list(state.scores)


def test_v3_views_carry_no_secret_field() -> None:
    """V3: a view is built with only what its audience may see: no deck, no other hand."""
    names = {f.name for f in dataclasses.fields(View)}
    assert not names & {"large", "small", "hands"}
    assert "large=<hidden>" in repr(State()) and "hands=<hidden>" in repr(State())
