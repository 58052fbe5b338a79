"""What a server costs while nobody acts: its CPU per second with rooms open and every
socket connected, per process, old against new side by side.

An idle server's CPU is paid under load too, by every action's share of it (at ten actions a
second, 80 ms/s of idle CPU is 8 ms of each action's). The same checkout's venv runs both;
the old commit is checked out as bench/compare.py does.

    .venv/bin/python bench/idle.py                      # df90ded against this working tree
    .venv/bin/python bench/idle.py --commit HEAD~3 --rooms 50 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import server as server_module  # noqa: E402
from compare import checkout, drop, side_by_side_arguments  # noqa: E402
from load import close, make_room, server_pids  # noqa: E402
from server import cpu_seconds  # noqa: E402


async def measure(config: str, web: int, rooms: int, players: int, seconds: float) -> dict:
    with server_module.serve(config, web=web) as server:
        made = [await make_room(server.urls, players, i) for i in range(rooms)]  # one by one
        await asyncio.sleep(5)  # the connects' work done, the sockets listening
        groups = server_pids(server)
        before = {name: cpu_seconds(pids) for name, pids in groups.items()}
        started = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - started
        after = {name: cpu_seconds(pids) for name, pids in groups.items()}
        await close(made)
    return {name: 1000 * (after[name] - before[name]) / elapsed for name in groups}


def run(root: Path, args: argparse.Namespace) -> dict:
    server_module.SERVER_ROOT = root
    return asyncio.run(measure(args.config, args.web, args.rooms, args.players, args.seconds))


def main() -> None:
    parser = side_by_side_arguments(__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    old_root = checkout(args.commit)
    try:
        old = run(old_root, args)
        new = run(server_module.ROOT, args)
    finally:
        drop(old_root)
    print(
        f"\nidle CPU, ms per second: {args.config}, {args.web} web, "
        f"{args.rooms} rooms x {args.players} sockets open, {args.seconds:.0f} s"
    )
    print(f"{'process':<12}{args.commit:>12}{'working tree':>15}")
    for name in sorted(set(old) | set(new)):
        print(f"{name:<12}{old.get(name, 0):>12.1f}{new.get(name, 0):>15.1f}")
    total_old, total_new = sum(old.values()), sum(new.values())
    ratio = f"{total_new / total_old:.2f}x" if total_old else "-"
    print(f"{'all':<12}{total_old:>12.1f}{total_new:>15.1f}   {ratio}")


if __name__ == "__main__":
    os.chdir(server_module.ROOT)
    main()
