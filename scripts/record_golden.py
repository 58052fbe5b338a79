"""Record the golden games and regenerate what replaying them must show.

``tests/games/golden/<kind>.events.json`` is a whole game of each game as its events were
stored; ``tests/games/test_golden.py`` replays it through the store and codec and compares
the final state and every replay screen with ``<kind>.expected.json``.

    .venv/bin/python scripts/record_golden.py           # rewrite the expectations
    .venv/bin/python scripts/record_golden.py --record  # record logs that do not exist yet

Rewrite the expectations only for a deliberate change of what a replay shows (a UI
change), and read the diff: each step is one line. The logs are recorded once and never
re-recorded: they stand for games already in players' databases, and a change to an
event must keep reading them (an upcaster in its ``game.py``). ``--record``
refuses to overwrite a log.

Plays through the services with fixed randomness and a fixed clock, on a throwaway
SQLite database in a temporary folder (never var/, DATABASE_URL or REDIS_URL).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
BREATH = timedelta(seconds=5)  # between two actions: always well inside a step's clock
STEP_SECONDS = 60
WORDS = ("ocean", "winter", "music", "travel", "garden", "light", "speed", "party", "metal")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="record missing event logs")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as var:
        _setup_django(var)
        from tests.support import golden

        for kind in golden.GAMES:
            if args.record and not golden.log_path(kind).exists():
                golden.write_log(RECORDERS[kind]())
                print(f"recorded {golden.log_path(kind).relative_to(ROOT)}")
            log = golden.read_log(kind)
            golden.write_expectation(kind, golden.expectation(golden.stored(log), log.names))
            print(f"wrote {golden.expectation_path(kind).relative_to(ROOT)}")


def _setup_django(var: str) -> None:
    for name in ("DATABASE_URL", "REDIS_URL", "CONSTELLATE_SQLITE_PATH"):
        os.environ.pop(name, None)
    os.environ["CONSTELLATE_VAR_DIR"] = var
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


# -- Constellate: a Rivalry of four to its end, with a naming and a spotting timed out -----


def record_constellate() -> Any:
    from games.constellate import rules
    from games.constellate.game import GAME, comet_order
    from tests.support import golden

    rng = random.Random(2026)
    game, outcome = GAME.start(players=4, step_seconds=STEP_SECONDS, rng=rng, now=START)
    state, now = outcome.state, START
    while not state.ended:
        now += BREATH
        if _times_out(rules, state):
            now = state.deadline
            outcome = GAME.expire_step(game.pk, state.step_started, now=now)
        elif state.step is rules.Step.NAMING:
            outcome = _name(GAME, rules, game.pk, state, rng, now)
        else:
            outcome = GAME.act(game.pk, _spot(comet_order, rules, state, rng), now=now)
        assert outcome.ok, outcome.refusal
        state = outcome.state
    return golden.log_of(game, {1: "alice", 2: "bob", 3: "charlie", 4: "dana"})


def _times_out(rules: Any, state: Any) -> bool:
    """The first naming runs out of time (C2), and the third constellation's spotting
    after a touch (C3)."""
    if state.step is rules.Step.NAMING:
        return state.step_started == 1  # the deal's
    return len(state.constellations) == 3 and state.touches_made == 1


def _name(
    constellate: Any, rules: Any, game_id: int, state: Any, rng: random.Random, now: datetime
) -> Any:
    """The Stargazer names a word the clue check accepts (a refused one stores nothing)."""
    gazer = next(s for s in map(state.seat, range(1, 5)) if s.crew is state.crew and s.stargazer)
    count = rng.randint(1, min(3, len(state.dark_stars(state.crew))))
    turn = len(state.constellations)
    for word in WORDS[turn:] + WORDS[:turn]:  # a new word each time, if the sky allows it
        outcome = constellate.act(
            game_id, rules.Name(gazer.number, word, count, state.version), now=now
        )
        if outcome.ok:
            return outcome
    raise AssertionError("no word was accepted")


def _spot(comet_order: Any, rules: Any, state: Any, rng: random.Random) -> Any:
    """A Spotter mostly finds their own crew's stars, sometimes not; stops now and then."""
    spotter = next(
        s for s in map(state.seat, range(1, 5)) if s.crew is state.crew and not s.stargazer
    )
    if state.touches_made and rng.random() < 0.3:
        return rules.Stop(spotter.number, state.version)
    dark = [i for i in range(rules.SKY_SIZE) if i not in state.lit]
    own = state.dark_stars(state.crew)
    card = rng.choice(own) if own and rng.random() < 0.75 else rng.choice(dark)
    return rules.TouchCard(spotter.number, card, state.version, comet_order(rng))


# -- Under One Sky: two players to a win or a draw, with a turn that runs out of time -----


def record_underonesky() -> Any:
    from games.underonesky import rules
    from games.underonesky.game import GAME
    from tests.support import golden
    from tests.support.uos import legal_commands

    rng = random.Random(2026)
    game, outcome = GAME.start(step_seconds=STEP_SECONDS, rng=rng, now=START)
    state, now = outcome.state, START
    while not state.ended:
        now += BREATH
        moves = legal_commands(state, rng)
        expiry = [m for m in moves if isinstance(m, rules.Expire)]
        if state.step is rules.Step.PLACING and state.version in (2, 20) and expiry:
            now = state.deadline
            outcome = GAME.act(game.pk, expiry[0], now=now)
        else:
            others = [m for m in moves if not isinstance(m, rules.Expire)]
            outcome = GAME.act(game.pk, rng.choice(others), now=now)
        assert outcome.ok, outcome.refusal
        state = outcome.state
    return golden.log_of(game, {1: "alice", 2: "bob"})


RECORDERS = {"constellate": record_constellate, "underonesky": record_underonesky}

if __name__ == "__main__":
    main()
