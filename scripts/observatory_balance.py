"""Observatory balance by simulation (RULES.md, "Data to design", Open): play whole games of
robot seats (``games.observatory.rules.robot``, a greedy seat that targets its cheapest goal
placement) and report, for one player count:

* mean completed cards per seat (the page's aim: 5-8), with their spread;
* mean score per seat and its spread (standard deviation across seats and games), and the
  mean winning margin;
* the share of all points by source: Large cards, Small cards, Asterisms, Funding, unused
  stars;
* how often a deck runs out (the Large or the Small deck is empty by the end of the game),
  and how often a draft found no card at all.

    .venv/bin/python scripts/observatory_balance.py --games 200 --players 3 [--seed 1]

Everything random (deck orders, first player, every roll) comes from one seeded generator,
so a run is repeatable. The rules are pure: this only drives ``decide`` and ``fold`` the way
the server would. Not run by the tests or CI; stdlib only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.observatory.rules import robot  # noqa: E402
from games.observatory.rules.commands import Deal  # noqa: E402
from games.observatory.rules.decide import decide  # noqa: E402
from games.observatory.rules.deck import CARDS, LARGE, LARGE_SIZE, SMALL  # noqa: E402
from games.observatory.rules.evolve import fold  # noqa: E402
from games.observatory.rules.model import State  # noqa: E402
from games.observatory.rules.sheet import Dice  # noqa: E402

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SOURCES = ("Large", "Small", "Asterisms", "Funding", "unused")


@dataclass
class Tally:
    completed: list[int] = field(default_factory=list)  # per seat
    scores: list[int] = field(default_factory=list)  # per seat
    margins: list[int] = field(default_factory=list)  # per game (2+ players)
    large_completed: list[int] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0))
    large_out: int = 0
    small_out: int = 0
    any_out: int = 0
    short_drafts: int = 0
    games: int = 0
    seconds: float = 0.0


def roll(rng: random.Random) -> Dice:
    return Dice((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)), rng.randint(1, 6))


def play(players: int, rng: random.Random, tally: Tally) -> None:
    large, small = list(LARGE), list(SMALL)
    rng.shuffle(large)
    rng.shuffle(small)
    deal = Deal(players, tuple(large), tuple(small), rng.randint(1, players), dice=roll(rng))
    decision = decide(State(), deal, NOW)
    assert isinstance(decision, list), decision
    state = fold(decision)
    while not state.ended:
        for seat in state.seats:
            if robot.waiting(state, seat):
                decision = decide(state, robot.move(state, seat, roll(rng)), NOW)
                assert isinstance(decision, list), decision
                state = fold(decision, state)
                break
        else:  # nobody owes anything: a bug
            raise RuntimeError(f"the game is stuck in {state.phase}")
    tally.games += 1
    for sheet, sheet_score in zip(state.sheets, state.scores, strict=True):
        tally.completed.append(sheet_score.completed)
        tally.scores.append(sheet_score.total)
        cards = [CARDS[card] for card in sheet.completed]
        large_points = sum(c.points or 0 for c in cards if c.size == LARGE_SIZE)
        tally.large_completed.append(sum(1 for c in cards if c.size == LARGE_SIZE))
        tally.points["Large"] += large_points
        tally.points["Small"] += sheet_score.cards - large_points
        tally.points["Asterisms"] += sheet_score.asterisms
        tally.points["Funding"] += sheet_score.funding
        tally.points["unused"] += sheet_score.unused
    totals = sorted((s.total for s in state.scores), reverse=True)
    if players > 1:
        tally.margins.append(totals[0] - totals[1])
    tally.large_out += not state.large
    tally.small_out += not state.small
    tally.any_out += not state.large or not state.small
    # a seat ends with fewer than 4 goals only if a draft found no card (G7); the last turn
    # has no draft (E1), so its completions do not count here
    last = state.closed[-1].completed
    tally.short_drafts += any(
        len(sheet.goals) + len(done) < 4 for sheet, done in zip(state.sheets, last, strict=True)
    )


def report(players: int, tally: Tally) -> str:
    n = tally.games
    total_points = sum(tally.points.values()) or 1
    shares = ", ".join(
        f"{source} {100 * points / total_points:.1f}%" for source, points in tally.points.items()
    )
    margin = f"{statistics.mean(tally.margins):.1f}" if tally.margins else "-"
    lines = [
        f"players {players}: {n} games, {tally.seconds:.0f} s CPU "
        f"({1000 * tally.seconds / max(n, 1):.0f} ms a game)",
        f"  completed cards per seat: mean {statistics.mean(tally.completed):.2f}, "
        f"sd {statistics.pstdev(tally.completed):.2f}, "
        f"min {min(tally.completed)}, max {max(tally.completed)} "
        f"(Large {statistics.mean(tally.large_completed):.2f})",
        f"  score per seat: mean {statistics.mean(tally.scores):.1f}, "
        f"sd {statistics.pstdev(tally.scores):.1f}, min {min(tally.scores)}, "
        f"max {max(tally.scores)}; winning margin mean {margin}",
        f"  points by source: {shares}",
        f"  a deck ran out: {100 * tally.any_out / n:.0f}% of games "
        f"(Large {100 * tally.large_out / n:.0f}%, Small {100 * tally.small_out / n:.0f}%); "
        f"a draft came up short: {100 * tally.short_drafts / n:.0f}%",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=3, choices=range(1, 6))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tally = Tally()
    start = time.process_time()
    for _ in range(args.games):
        play(args.players, rng, tally)
    tally.seconds = time.process_time() - start
    print(report(args.players, tally))


if __name__ == "__main__":
    main()
