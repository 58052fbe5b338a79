"""Random legal games, both modes, to the end: the invariants hold at every step."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.constellate.rules import (
    CardTouched,
    CometLit,
    Expire,
    Key,
    Mode,
    State,
    Step,
    fold,
    key_counts,
    view_for,
)
from games.registry import game_type
from tests.support.games import play_out, random_deal

PLAYERS = st.integers(min_value=2, max_value=8)
SEEDS = st.integers(min_value=0, max_value=2**32)


def _random_choice(rng):
    return lambda moves: rng.choice(moves)


def _eager_choice(rng):
    """Players who never let the clock run out and always touch before stopping."""

    def choose(moves):
        acting = [m for m in moves if not isinstance(m, Expire)]
        return rng.choice(acting or moves)

    return choose


@settings(max_examples=150, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_the_key_has_the_right_counts_K2_K3(players, seed):
    rng = random.Random(seed)
    state, _, _ = play_out(random_deal(rng, players), _random_choice(rng), rng, limit=0)
    expected = key_counts(state.mode, state.first_crew)
    assert Counter(state.key) == Counter(expected)
    assert state.mode is (Mode.RIVALRY if players >= 4 else Mode.BEFORE_DAWN)


@settings(max_examples=150, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_no_card_is_ever_lit_twice_T7(players, seed):
    rng = random.Random(seed)
    _, batches, states = play_out(random_deal(rng, players), _random_choice(rng), rng)
    for before, events in zip(states, batches, strict=False):
        lit = set(before.lit)
        for event in events:
            cards = {event.card} if isinstance(event, CardTouched) else set()
            cards |= set(event.cards) if isinstance(event, CometLit) else set()
            assert not cards & lit
            lit |= cards


@settings(max_examples=100, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_a_game_where_nobody_acts_ends_by_forfeit_or_dawn_within_seven_turns_C4_C5(players, seed):
    rng = random.Random(seed)

    def idle(moves):
        return next(m for m in moves if isinstance(m, Expire))

    state, batches, _ = play_out(random_deal(rng, players), idle, rng)
    assert state.ended
    assert len(batches) <= (3 if players >= 4 else 7)


@settings(max_examples=150, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_a_game_of_eager_players_ends_within_bounded_turns_E1(players, seed):
    rng = random.Random(seed)
    state, _, _ = play_out(random_deal(rng, players), _eager_choice(rng), rng)
    assert state.ended
    # Every turn of eager players lights at least one card: at most 24 turns.
    assert len(state.constellations) <= 24


@settings(max_examples=100, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_folding_the_events_equals_the_live_state_at_every_step(players, seed):
    rng = random.Random(seed)
    deal_state, batches, states = play_out(random_deal(rng, players), _random_choice(rng), rng)
    codec = game_type("constellate").codec
    events = [e for batch in batches for e in batch]
    stored = [codec.decode(*codec.encode(e)) for e in events]
    assert stored == events
    replayed = states[0]
    for batch, live in zip(batches, states[1:], strict=True):
        replayed = fold([codec.decode(*codec.encode(e)) for e in batch], replayed)
        assert replayed == live
    assert states[-1].version == states[0].version + len(events)
    assert fold([], State()) == State()


@settings(max_examples=100, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_a_spotters_view_never_holds_a_dark_cards_key_before_the_end_K4(players, seed):
    rng = random.Random(seed)
    _, _, states = play_out(random_deal(rng, players), _random_choice(rng), rng)
    for state in states:
        for seat in [*range(1, players + 1), None]:
            view = view_for(state, seat)
            spotter = seat is None or not state.seat(seat).stargazer
            for card in view.cards:
                if spotter and not state.ended and not card.lit:
                    assert card.key is None
                if card.key is not None:
                    assert card.key is state.key[card.index]


@settings(max_examples=100, deadline=None)
@given(players=PLAYERS, seed=SEEDS)
def test_the_bank_and_the_hours_stay_within_the_rules_T6_D2(players, seed):
    rng = random.Random(seed)
    _, _, states = play_out(random_deal(rng, players), _random_choice(rng), rng)
    for state in states:
        assert state.banks <= set(state.crews())
        if state.step is Step.SPOTTING:
            current = state.current
            assert current.allowance in (current.count, current.count + 1)
            assert state.touches_left == current.allowance - state.touches_made
        if state.mode is Mode.BEFORE_DAWN:
            assert state.hours >= 7 - 3 * len(state.constellations) - 3 * 24
            if state.ended and state.winner is None:
                assert state.hours <= 0
        assert all(state.key[i] in set(Key) for i in state.lit)
