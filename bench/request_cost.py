"""What the daphne spends on the way in and out of a request, apart from the game: one
seated player's HTTP POST that is refused before the game is asked (a touch without a
card: the room's read, the rate limit, the notice), against one websocket frame the
server reads and ignores. Both pass through everything an action's transport does; the
difference is what an action pays for coming over HTTP rather than over its socket.

    .venv/bin/python bench/request_cost.py [--requests 1000] [--rounds 3]

Figures are the daphne's CPU (from /proc) per request or frame, one at a time (no load):
each round's, then the median.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import close, make_room, post  # noqa: E402
from bench.server import cpu_seconds, serve  # noqa: E402


async def measure(urls: list[str], pid: int, requests: int, rounds: int) -> dict[str, list]:
    room = await make_room(urls, 6, 0)
    player = room.players[1]
    spent: dict[str, list[float]] = {"http_refused_touch": [], "ws_ignored_frame": []}
    try:
        for _ in range(rounds):
            before = cpu_seconds([pid])
            for _ in range(requests):
                answer = await post(player, f"/r/{room.code}/play/touch", {"version": "1"})
                assert answer.status_code == 400, answer.status_code
            spent["http_refused_touch"].append((cpu_seconds([pid]) - before) / requests)
            idle = cpu_seconds([pid])
            await asyncio.sleep(1.0)
            idle = cpu_seconds([pid]) - idle  # what the daphne spends doing nothing a second
            before = cpu_seconds([pid])
            for _ in range(requests):
                await player.socket.send("x" * 60)
            await asyncio.sleep(1.0)  # every frame read
            frames = cpu_seconds([pid]) - before - idle
            spent["ws_ignored_frame"].append(frames / requests)
    finally:
        await close([room])
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with serve("default") as server:
        spent = asyncio.run(measure(server.urls, server.pids["web1"], args.requests, args.rounds))
    for name, rounds in spent.items():
        each = ", ".join(f"{s * 1000:.2f}" for s in rounds)
        print(f"{name:20} {statistics.median(rounds) * 1000:6.2f} ms (rounds: {each})")


if __name__ == "__main__":
    main()
