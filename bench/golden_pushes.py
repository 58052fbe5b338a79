"""Every push of the golden Constellate game, in one process: the push after each event to
every audience (``Screens.render_push``, the whole board or its areas), timed by the kind
of event. The board caches of one push are cleared before the next, as a new state would
miss them; the caches of values (cards, lines, skies) stay, as in a running server.

It imports the project from the current folder: to compare trees side by side, run this
script with this checkout's venv from each tree's folder (``git worktree add /tmp/old
<commit>``), alternating them, and compare the best passes::

    here=$PWD
    CONSTELLATE_VAR_DIR=/tmp/x .venv/bin/python bench/golden_pushes.py --passes 7
    cd /tmp/old && CONSTELLATE_VAR_DIR=/tmp/x $here/.venv/bin/python $here/bench/golden_pushes.py
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter

sys.path.insert(0, os.getcwd())
os.environ.setdefault("CONSTELLATE_VAR_DIR", tempfile.mkdtemp(prefix="golden-pushes-"))
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

import django  # noqa: E402

django.setup()

from games import definition  # noqa: E402
from games.registry import game_type  # noqa: E402
from tests.support.golden import ROOM_CODE, read_log  # noqa: E402


def one_pass(kind: str) -> tuple[Counter[str], Counter[str]]:
    log = read_log(kind)
    game = game_type(kind)
    events = [game.codec.decode(e["kind"], e["payload"], e["schema"]) for e in log.events]
    states = [game.initial()]
    for event in events:
        states.append(game.evolve(states[-1], event))
    seconds: Counter[str] = Counter()
    pushes: Counter[str] = Counter()
    screens = game.screens
    for version in range(2, len(states)):  # the deal's push is the lobby's: not a board's
        state, event = states[version], events[version - 1]
        name = type(event).__name__
        start = time.perf_counter()
        for audience in screens.audiences(state):
            screens.render_push(
                state, [event], audience, log.names, ROOM_CODE, game=1, since=version - 1
            )
        seconds[name] += time.perf_counter() - start
        pushes[name] += 1
        definition._recent.clear()  # the next state's boards are new
    return seconds, pushes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=7)
    args = parser.parse_args()
    passes = [one_pass("constellate") for _ in range(args.passes)]
    seconds, pushes = min(passes, key=lambda p: sum(p[0].values()))
    total = sum(seconds.values())
    print(f"best of {args.passes} passes: {total * 1000:.1f} ms for {sum(pushes.values())} pushes")
    for name, spent in seconds.most_common():
        each = spent * 1000 / pushes[name]
        print(f"  {name:20} {pushes[name]:3d} pushes {each:7.3f} ms each {spent / total:6.1%}")


if __name__ == "__main__":
    main()
