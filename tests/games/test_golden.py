"""Golden games: a whole recorded game of each game, stored as events by an older version of
the code, must replay to the same final state and the same replay screens for ever.

Each log (``tests/games/golden/<kind>.events.json``: kind, schema, payload and actor seat of
every event) is inserted as rows and replayed by ``store.replay`` (the codec's read path,
upcasts included); the final state, every step's sentence (``screens.describe``) and a
digest of every step's board (``screens.history_board``) must equal
``<kind>.expected.json``. A failure means old games in players' databases would no
longer replay as they were played: keep reading the old events (an upcaster in the game's
``game.py``), never re-record the log.

When what a replay shows changes on purpose (a UI change), regenerate the expectations from
the same logs and read the diff (one line per step) before committing it:

    .venv/bin/python scripts/record_golden.py
"""

import pytest

from games import store
from tests.support import golden

pytestmark = pytest.mark.django_db

# What a step that ran out of time stored, in each game.
TIMED_OUT = {
    "constellate": lambda event: (
        event["payload"].get("reason") in ("naming_expired", "spotting_expired")
    ),
    "underonesky": lambda event: event["payload"].get("by_clock") is True,
}


@pytest.mark.parametrize("kind", golden.GAMES)
def test_it_replays_a_recorded_whole_game_as_it_was_played(kind):
    log = golden.read_log(kind)
    game = golden.stored(log)
    expected = golden.read_expectation(kind)
    replayed = golden.expectation(game, log.names)
    assert replayed["final_state"] == expected["final_state"]
    for step, want in zip(replayed["steps"], expected["steps"], strict=True):
        assert step == want, f"step {want['step']} of {len(expected['steps'])} differs"


@pytest.mark.parametrize("kind", golden.GAMES)
def test_the_recorded_game_is_whole_and_its_fold_equals_its_replay(kind):
    log = golden.read_log(kind)
    game = golden.stored(log)
    final = store.replay(game)[-1]
    assert final.ended and final.version == len(log.events)
    assert store.state_of(game) == final
    assert any(TIMED_OUT[kind](event) for event in log.events), "a step ran out of time"
