"""Who sees what (H1-H6, H4 with D6): every mark, Journal, held card, the Sphere, the discard
pile, crossed Boons and the deck's counts are public (H3, H2); a seat's Final Scoring card is
its own until the end, then every dealt one shows and the undealt never (H1); a sealed Boon pick
is its picker's until the group completes (H4, D6); the deck's order is in no view (H2, H6)."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings

from games import kit
from games.astra.rules.events import BoonsCrossed
from games.astra.rules.evolve import fold
from games.astra.rules.model import Phase, Pick, State
from games.astra.rules.view import View, view_for
from games.kit import SeatStatus
from tests.games.astra.flow_helpers import (
    BEN,
    CLEO,
    SCORING,
    deal,
    played_out,
    playing,
    random_tables,
    rest,
    shuffled,
    sky,
)
from tests.games.astra.test_discovery import SLOT, ana_discovers, example_2, pick
from tests.games.astra.test_whole_game import next_command

SEAT_ONLY = {"seat", "scoring", "picks", "can_pick"}  # the fields a viewer's view may differ in


def public(view: View) -> View:
    """The view with its viewer-only fields blanked: what every viewer must share (H3)."""
    return dataclasses.replace(view, seat=None, scoring=None, picks=None, can_pick=False)


def played_to_the_end(players: int, seed: int) -> State:
    return played_out(*shuffled(players, seed), next_command)


def secret_twin(state: State, viewer: int | None) -> State:
    """The same table with every secret ``viewer`` may not know changed: the deck's order
    (H2), every other seat's Final Scoring card (H1, before the end) and every other
    member's sealed pick (H4)."""
    changes: dict[str, object] = {"deck": tuple(reversed(state.deck))}
    if not state.ended:
        changes["scoring"] = tuple(
            card if seat == viewer else f"other-{card}"
            for seat, card in enumerate(state.scoring, 1)
        )
    if state.picks is not None:
        submitted = {
            seat: pick if seat == viewer else Pick(99, (98, 97))
            for seat, pick in state.picks.submitted.items()
        }
        changes["picks"] = kit.with_changes(state.picks, submitted=submitted)
    return kit.with_changes(state, **changes)


def check_views(state: State) -> None:
    """H1, H2, H4, H6: no view holds a secret its viewer may not know."""
    views = {viewer: view_for(state, viewer) for viewer in (None, *state.seats)}
    for viewer, seen in views.items():
        assert view_for(secret_twin(state, viewer), viewer) == seen  # H1, H2, H4
        assert public(seen) == public(views[None])  # H3: the rest is the same for all
        shown = repr(seen)
        if not state.ended:
            others = [c for s, c in enumerate(state.scoring, 1) if s != viewer]
            assert not any(f"'{card}'" in shown for card in others)  # H1, H6
        assert seen.above_game_end + seen.below_game_end == len(state.deck)  # H2


def test_h1_each_seat_sees_its_own_final_scoring_card_and_no_other() -> None:
    state = deal(4)
    assert state.scoring == SCORING[:4]
    for seat in state.seats:
        seen = view_for(state, seat)
        assert seen.scoring == SCORING[seat - 1] and seen.scorings == () and seen.final is None
        others = set(SCORING) - {SCORING[seat - 1]}
        assert not any(f"'{card}'" in repr(seen) for card in others)
    spectator = view_for(state, None)
    assert spectator.seat is None and spectator.scoring is None
    assert not any(f"'{card}'" in repr(spectator) for card in SCORING)
    assert view_for(state, 7).seat is None and view_for(state, 7).scoring is None  # not seated


def test_h1_after_the_end_every_dealt_card_shows_and_the_undealt_never() -> None:
    state = played_to_the_end(3, seed=7)
    assert state.phase is Phase.ENDED
    for viewer in (None, 1, 2, 3):
        seen = view_for(state, viewer)
        assert seen.scorings == SCORING[:3]
        assert seen.final is not None and [s.scoring_card for s in seen.final.scores] == list(
            SCORING[:3]
        )
        assert not any(f"'{card}'" in repr(seen) for card in SCORING[3:])  # FS4-FS6 undealt


def test_h2_the_deck_counts_show_and_its_order_is_in_no_view() -> None:
    state = sky()
    # S2, S3, S6: 23 of 48 above the Game End card (3 players); 1 discarded and 4 laid out
    # from the top leave 18 above it and 25 below
    assert len(state.deck) == 43
    reordered = kit.with_changes(state, deck=tuple(reversed(state.deck)))
    for viewer in (None, 1, 2, 3):
        seen = view_for(state, viewer)
        assert (seen.above_game_end, seen.below_game_end) == (18, 25)
        assert view_for(reordered, viewer) == seen  # H2: the order changes nothing seen
    assert not {"deck", "draw"} & {field.name for field in dataclasses.fields(View)}
    in_deck = set(state.deck)
    for view in (view_for(state, viewer) for viewer in (None, 1)):
        laid = {slot.card for slot in view.slots} | set(view.discard)
        held = {h.card for journal in view.journals for h in journal.held}
        assert not (laid | held) & in_deck  # H6: no card still in the deck is named


def test_h3_marks_journals_held_cards_sphere_and_discard_are_public() -> None:
    before = deal(3)
    state, _ = rest(before)  # R2, R5: seat 1 rests, the Sphere marker moves on
    views = [view_for(state, viewer) for viewer in (None, 1, 2, 3)]
    for seen in views:
        assert seen.journals == state.journals and seen.slots == state.slots
        assert seen.discard == state.discard == before.discard + state.discard[1:]
        assert seen.sphere == state.sphere != before.sphere and seen.active == state.active == 2
        assert seen.turn == 1 and seen.phase is state.phase
        assert public(seen) == public(views[0])
    assert {f.name for f in dataclasses.fields(View)} >= SEAT_ONLY


def test_h4_d6_a_sealed_pick_is_its_pickers_until_the_group_completes() -> None:
    """Example 2: Ben and Cleo tie on Cetus and pick at once (D6). Ben picks box 1: he sees
    his pick; Cleo, Ana and a spectator see him "done" and nothing of what (H4). Once Cleo
    picks, both picks show at once: box 1 and box 3 crossed for everyone, the Fame gained."""
    state, _ = ana_discovers(example_2(), 3, 5, 6)
    state, _ = pick(state, BEN, 1)
    assert state.picks is not None
    ben = view_for(state, BEN)
    assert ben.picks is not None and ben.picks.own == Pick(1) and not ben.can_pick
    statuses = {BEN: SeatStatus.DONE, CLEO: SeatStatus.CHOOSING}
    assert state.picks is not None
    other = kit.with_changes(state.picks, submitted={BEN: Pick(4)})
    twin = kit.with_changes(state, picks=other)  # Ben's sealed pick changed to box 4
    for viewer in (None, 1, CLEO, 4):
        seen = view_for(state, viewer)
        assert seen.picks is not None and seen.picks.own is None
        assert dict(seen.picks.seats) == statuses
        assert seen.can_pick == (viewer == CLEO)
        assert seen.slots[SLOT - 1].crossed == () and seen.journals[BEN - 1].fame == 0
        assert view_for(twin, viewer) == seen
        assert "Pick(" not in repr(seen)
    assert view_for(twin, BEN) != ben  # his own pick is his

    before = state
    _, events = pick(state, CLEO, 3)
    crossed = events[1]
    assert isinstance(crossed, BoonsCrossed) and crossed.by_seat() == {BEN: Pick(1), CLEO: Pick(3)}
    state = fold(events[:2], before)  # the group completed, before Ana takes Cetus (D10)
    for viewer in (None, 1, BEN, CLEO, 4):
        seen = view_for(state, viewer)
        assert seen.picks is None and seen.slots[SLOT - 1].crossed == (1, 3)
        assert seen.journals[BEN - 1].fame == 5  # B2: box 1's 5 Fame


def test_h5_h6_the_state_repr_hides_its_secrets_and_so_do_views() -> None:
    state = deal(2)
    assert "deck=<hidden>" in repr(state) and "scoring=<hidden>" in repr(state)
    check_views(state)


@settings(max_examples=10, deadline=None)
@given(table=random_tables())
def test_h1_h2_h4_h6_no_view_in_a_random_game_holds_another_seats_secret_or_the_deck_order(
    table: tuple[State, random.Random],
) -> None:
    """At every step of a random legal game (test_whole_game's chooser), each seat's and a
    spectator's view equals the view of a twin table whose other secrets differ (H1, H2,
    H4), the public part is the same for all (H3), and at the end every dealt card shows."""
    start, rng = table
    check_views(start)
    state = start
    for state, _ in playing(start, rng, next_command):
        check_views(state)
    assert state.ended
    assert all(
        view_for(state, v).scorings == SCORING[: state.players] for v in (None, *state.seats)
    )
