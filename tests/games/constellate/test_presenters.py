"""An audience's board is the same whether it is presented first or after the others of a
push (games/constellate/presenters.py shares each state's seat views and each set of cards
between audiences): a Spotter or a spectator never gets the key a Stargazer's board was
built with a moment before (K4), and a Spotter of the crew touching gets touchable cards
however the audiences are ordered."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from games.constellate import presenters
from games.constellate.deck import draw_sky
from games.constellate.rules import Step
from tests.support.games import play_out, random_deal

NAMES = {n: f"Player {n}" for n in range(1, 9)}
NOW = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)


def _fresh(state, audience):
    """The board built with nothing shared: the caches emptied first."""
    presenters._views.clear()
    presenters._cards.cache_clear()
    presenters._logs.clear()
    presenters._lines.clear()
    board = presenters.present(state, audience, NAMES, "abcd-efgh-jkmn-pqrs", NOW)
    board.shown()  # what is built when first read is built now, with nothing shared
    return board


@settings(max_examples=60, deadline=None)
@given(players=st.integers(min_value=2, max_value=8), seed=st.integers(0, 2**32))
def test_every_audience_sees_its_own_board_in_any_order_K4(players, seed):
    rng = random.Random(seed)
    deal = dataclasses.replace(random_deal(rng, players), sky=draw_sky(rng))
    _, _, states = play_out(deal, lambda moves: rng.choice(moves), rng)
    for state in states[1:]:
        audiences = presenters.audiences(state)
        alone = {audience: _fresh(state, audience) for audience in audiences}
        rng.shuffle(audiences)
        for audience in audiences:  # one push: every audience of the same state in turn
            board = presenters.present(state, audience, NAMES, "abcd-efgh-jkmn-pqrs", NOW)
            assert board == alone[audience]
            if not audience.startswith("stargazer") and not state.ended:
                assert all(card.key is None for card in board.cards if not card.lit)
            ours = audience == f"spotter-{state.crew.value}" and state.step is Step.SPOTTING
            assert any(card.touchable for card in board.cards) == ours
