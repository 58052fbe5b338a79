"""What a page posts for a command reads back as that very command: ``games.astra.forms``
(which the web tests and the bench send) is the inverse of the game's readers (``game.py``),
for every kind of command a whole game brings: Observe, Dream, every Ability with its stars
and numbers, Rest, Done, Boon picks with targets, and the card limit's discards (O1-O10,
U3, U5, U6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.astra.forms import form_of
from games.astra.game import GAME
from games.astra.rules.commands import Command, Expire
from tests.games.astra.flow_helpers import act, shuffled
from tests.games.astra.test_whole_game import next_command


def read_back(state, command: Command) -> Command:
    action, fields = form_of(state, command)
    return GAME.actions[action].build(fields, command.seat)


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**16))
def test_every_command_of_a_whole_game_reads_back_from_its_form(players: int, seed: int):
    state, rng = shuffled(players, seed)
    kinds = set()
    while not state.ended:
        command, now = next_command(state, rng)
        if not isinstance(command, Expire):  # the clock's, never a page's
            assert read_back(state, command) == command
            kinds.add(type(command).__name__)
        state, _ = act(state, command, now)
    assert {"Observe", "PickBoon"} <= kinds, kinds


def test_an_expiry_has_no_form():
    state, _ = shuffled(3, 1)
    with pytest.raises(ValueError, match="no form sends"):
        form_of(state, Expire(0, (1, 2)))
