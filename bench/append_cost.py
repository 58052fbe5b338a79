"""What one append costs in one process: a Constellate touch's event appended to a game in
its own transaction (``store.append``: the version's conditional UPDATE and the INSERT, one
statement on PostgreSQL since 0c52f85, then the commit), 1,000 a round after 300 to warm
up, five rounds; prints each round's mean and the best, in microseconds. (An action
decided at its row's version writes with no transaction around it: ``games.service.act``.)

Run from a checkout's folder (it imports the project from the current directory, so it
also measures an old checkout: ``git worktree add /tmp/old <commit>``, then run it from
``/tmp/old`` with this checkout's venv), on a throwaway database::

    CONSTELLATE_VAR_DIR=/tmp/x .venv/bin/python bench/append_cost.py
    DATABASE_URL=postgres://.../scratch REDIS_URL=redis://.../6 \\
        .venv/bin/python bench/append_cost.py
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from games import store  # noqa: E402
from games.constellate.rules.events import CardTouched  # noqa: E402


def main() -> None:
    call_command("migrate", verbosity=0)
    game = store.create_game("constellate")
    version = 0

    def append_one() -> None:
        nonlocal version
        event = CardTouched(seat=3, card=version % 25)
        with transaction.atomic():
            version = store.append(game, [event], expected_version=version, actor_seat=3)

    for _ in range(300):
        append_one()
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(1000):
            append_one()
        rounds.append((time.perf_counter() - start) / 1000 * 1e6)
    print(f"{os.getcwd()}: append {[round(r) for r in rounds]} us, best {min(rounds):.0f} us")


if __name__ == "__main__":
    main()
