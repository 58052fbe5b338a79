"""Random legal games to the end: a game always ends, the fold equals the live state, the
tiles are conserved, and the North Star never leaves the centre."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.registry import game_type
from games.underonesky.rules import (
    CENTRE,
    COLOURS,
    SPACES,
    Expire,
    Finish,
    State,
    Tile,
    completed,
    fold,
    view_for,
)
from tests.support.uos import decided, play_out, random_deal

SEEDS = st.integers(min_value=0, max_value=2**32)
CLOCK = st.sampled_from([None, 60])


def _random(rng):
    return lambda moves: rng.choice(moves)


def _eager(rng):
    """Players who never let the clock run out."""
    return lambda moves: rng.choice([m for m in moves if not isinstance(m, Expire)] or moves)


def _all_tiles(state: State) -> Counter:
    return (
        Counter(t for t in state.board if t is not None)
        + Counter(state.face_up)
        + Counter(state.stack)
    )


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, clock=CLOCK)
def test_a_game_always_ends_within_24_placements(seed, clock):
    rng = random.Random(seed)
    state, batches, _ = play_out(random_deal(rng, clock), _random(rng), rng)
    assert state.ended, "the game did not end"
    assert len(state.turns) <= SPACES - 1
    if state.finish is Finish.FULL:
        assert state.full and len(state.turns) == SPACES - 1


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, clock=CLOCK)
def test_the_fold_of_the_events_equals_the_live_state_at_every_step(seed, clock):
    rng = random.Random(seed)
    first = random_deal(rng, clock)
    state, batches, states = play_out(first, _eager(rng) if clock else _random(rng), rng)
    events = decided(State(), first)
    kind = game_type("underonesky")
    for batch, live in zip(batches, states[1:], strict=True):
        events += batch
        assert fold(events) == live
        assert kind.fold(events) == live  # the registry's fold (the store's replay) agrees
        assert kind.codec.decode(*kind.codec.encode(batch[0])) == batch[0]


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, clock=CLOCK)
def test_tiles_are_conserved_and_two_never_share_a_space(seed, clock):
    rng = random.Random(seed)
    _, _, states = play_out(random_deal(rng, clock), _random(rng), rng)
    for state in states:
        assert _all_tiles(state) == {Tile.NORTH: 1, **{c: 9 for c in COLOURS}}
        assert len(state.board) == SPACES  # one tile per space, by construction
        assert state.board[CENTRE] is Tile.NORTH
        assert len(state.face_up) <= 3


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_the_result_matches_the_board(seed):
    rng = random.Random(seed)
    state, _, states = play_out(random_deal(rng, None), _random(rng), rng)
    done = {seat: completed(state, seat) for seat in (1, 2)}
    if state.finish is Finish.CONSTELLATION:
        assert done[state.winner] and not done[3 - state.winner]
    elif state.finish is Finish.BOTH:
        assert done[1] and done[2]
    else:
        assert not done[1] and not done[2] and state.full
    for before in states[:-1]:  # nobody had won before the last turn
        assert not (
            completed(before, 1) and completed(before, 2) and before.step.value == "placing"
        )


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_no_view_ever_holds_the_other_players_card_before_the_end(seed):
    rng = random.Random(seed)
    _, _, states = play_out(random_deal(rng, None), _random(rng), rng)
    for state in states:
        for seat in (1, 2, None):
            ids = {c.card.id for c in view_for(state, seat).cards}
            if state.ended:
                assert len(ids) == 3
            else:
                assert ids == ({state.card_of(seat).id} if seat else set())
