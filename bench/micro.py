"""Micro-figures on the bench database: fold a 150-event game from the store, render each
board for each audience, check a clue. Prints one JSON line (bench/load.py reads it)."""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import django  # noqa: E402

django.setup()

from games import store  # noqa: E402
from games.constellate import rules  # noqa: E402
from games.constellate.clues import check_clue, warm_up  # noqa: E402
from games.constellate.deck import pictured_names  # noqa: E402
from games.constellate.game import GAME  # noqa: E402
from games.models import Game  # noqa: E402


def timed(fn, repeat: int) -> dict[str, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {"mean_ms": statistics.fmean(times), "p95_ms": times[int(0.95 * (len(times) - 1))]}


def long_game(events: int = 150) -> Game:
    """A Rivalry of namings whose spotting runs out: it never ends, so it grows to 150+."""
    game, outcome = GAME.start(players=8, step_seconds=60, rng=random.Random(7))
    state = outcome.state
    while state.version < events:
        if state.step is rules.Step.NAMING:
            gazer = 1 if state.crew is rules.Crew.GOLD else 2
            for word in ("ocean", "history", "freedom", "justice"):
                result = GAME.act(game.pk, rules.Name(gazer, word, 1, state.version))
                if result.ok:
                    break
        else:
            result = GAME.act(game.pk, rules.Expire(state.step_started), now=state.deadline)
        state = result.state
    game.refresh_from_db()
    return game


def main() -> None:
    game = long_game()
    kind = store.game_type(game.kind)
    events = store.read_events(game)[:150]
    state = kind.fold(events)

    def fold_from_store() -> None:
        store.forget_cached_states()
        store.state_of(game)

    names = {n: f"Player {n}" for n in range(1, 9)}
    code = "bnch-bnch-bnch-bnch"  # a room code the URLs accept
    renders = {
        audience: timed(
            lambda a=audience: GAME.screens.render_board(state, a, names, code, game=1), 50
        )
        for audience in GAME.screens.audiences(state)
    }
    warm_up()
    pictured = pictured_names(state.sky)
    words = ["ocean", "history", "freedom", "mountain", "planet", "winter", "dragon", "justice"]
    clue = timed(lambda: [check_clue(w, pictured) for w in words], 200)
    print(
        json.dumps(
            {
                "events": len(events),
                "fold_150_pure": timed(lambda: kind.fold(events), 200),
                "fold_150_from_store": timed(fold_from_store, 50),
                "render_board": renders,
                "check_clue_per_word": {k: v / len(words) for k, v in clue.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
