"""What one action over the room's socket costs the daphne, old against new, side by side:
both servers up at once (each its own database), rooms of six with every socket open, and
actions sent one at a time, each waiting until every screen of its room has the change.
Nothing else runs, so a round's figures are the action's own path: the daphne's CPU (from
/proc) per action and the time from the action sent to its last screen. The servers are
measured in turns (old, new, new, old, ...), so a machine that slows down meanwhile slows
both alike.

    .venv/bin/python bench/socket_action_cost.py --old /tmp/old [--actions 300 --rounds 6]

``--old`` is a checkout of the commit to compare against (``git worktree add /tmp/old
<commit>``); the new one is this checkout. Every server process is pinned to the first core
and the clients to the others, as bench/load.py does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import server as bench_server  # noqa: E402
from bench.load import Room, Tally, act, close, make_room, pct  # noqa: E402
from bench.server import Server, cpu_seconds, process_tree, serve  # noqa: E402

ALL_CORES = os.sched_getaffinity(0)
ROOMS = 30  # actions go round them: a game seldom ends (a rematch) within the measure


@contextlib.contextmanager
def serving(root: Path, config: str):
    """A server started from ``root``'s checkout (on the first core, as the first one: a
    server started while the clients are kept off that core would take theirs)."""
    bench_server.SERVER_ROOT = root.resolve()
    os.sched_setaffinity(0, ALL_CORES)
    with serve(config) as started:
        yield started


async def one_round(server: Server, rooms: list[Room], actions: int, seed: int) -> dict:
    web = process_tree(server.pids["web1"])
    rng = random.Random(seed)
    tally = Tally()
    before = cpu_seconds(web)
    for n in range(actions):
        await act(rooms[n % len(rooms)], rng, tally)
    spent = cpu_seconds(web) - before
    return {
        "cpu_ms": spent * 1000 / max(tally.actions, 1),
        "p50_ms": pct(tally.latencies, 50) * 1000,
        "p95_ms": pct(tally.latencies, 95) * 1000,
        "actions": tally.actions,
        "errors": tally.errors + tally.timeouts,
    }


async def measure(old: Path, new: Path, config: str, actions: int, rounds: int) -> dict:
    figures: dict[str, list[dict]] = {"old": [], "new": []}
    with serving(old, config) as old_server, serving(new, config) as new_server:
        servers = {"old": old_server, "new": new_server}
        rooms = {
            name: [await make_room(s.urls, 6, i) for i in range(ROOMS)]
            for name, s in servers.items()
        }
        for name in servers:  # warm: connections, caches, compiled templates
            await one_round(servers[name], rooms[name], ROOMS * 3, seed=0)
        for r in range(rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for name in order:
                got = await one_round(servers[name], rooms[name], actions, seed=r + 1)
                figures[name].append(got)
                print(f"round {r + 1} {name}: {got}", flush=True)
        for name in servers:
            await close(rooms[name])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="a checkout to compare against")
    parser.add_argument("--config", choices=["default", "scale"], default="default")
    parser.add_argument("--actions", type=int, default=300, help="actions a round")
    parser.add_argument("--rounds", type=int, default=6, help="rounds a server")
    args = parser.parse_args()
    new = Path(__file__).resolve().parents[1]
    figures = asyncio.run(measure(args.old, new, args.config, args.actions, args.rounds))
    print(f"\n{args.config}, {ROOMS} rooms of 6, one action at a time; medians of {args.rounds}")
    print(f"{'':24}{'old':>10}{'new':>10}{'new / old':>12}")
    for key in ("cpu_ms", "p50_ms", "p95_ms"):
        old_value = statistics.median(f[key] for f in figures["old"])
        new_value = statistics.median(f[key] for f in figures["new"])
        print(f"{key:24}{old_value:10.2f}{new_value:10.2f}{new_value / old_value:11.2f}x")
    pairs = [n["cpu_ms"] / o["cpu_ms"] for o, n in zip(figures["old"], figures["new"], strict=True)]
    print(f"cpu ratio round by round: {', '.join(f'{p:.2f}' for p in pairs)}")
    errors = {name: sum(f["errors"] for f in figures[name]) for name in figures}
    print(f"errors and timeouts: old {errors['old']}, new {errors['new']}")


if __name__ == "__main__":
    main()
