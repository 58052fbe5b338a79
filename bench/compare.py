"""Old against new, side by side in one run on one machine: the same bench (this checkout's
``bench/load.py``, this checkout's venv) against a server started from an old commit checked
out in a temporary folder, then against this working tree, and the ratios new / old.

Machines of the same kind differ up to 3x in speed, so only ratios measured back to back
mean anything. ``--runs 2`` alternates old, new, old, new and reports the median of each.

    .venv/bin/python bench/compare.py                              # embedded, 50 rooms x 6
    .venv/bin/python bench/compare.py --config scale --web 2 --rooms 200
    .venv/bin/python bench/compare.py --capacity                   # actions/s at p95 <= 100 ms

The old commit defaults to ``df90ded`` (issue 16's baseline). Every run's JSON goes to
``bench/results/`` (gitignored); the table is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from load import kept_up

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "df90ded"

# What is compared, how it is read from a run's JSON, and which way is better.
Metric = tuple[str, Callable[[dict], float | None], str]


def at_pace(run: dict) -> dict:
    """The run's phase at its default pace (in a capacity run, one rung of the ladder)."""
    return next((p for p in run["phases"] if p.get("pace_s") == run["pace_s"]), run["phases"][0])


METRICS: list[Metric] = [
    ("actions/s", lambda r: at_pace(r)["actions_per_s"], "higher"),
    ("p50 ms", lambda r: at_pace(r)["p50_ms"], "lower"),
    ("p95 ms", lambda r: at_pace(r)["p95_ms"], "lower"),
    ("p99 ms", lambda r: at_pace(r)["p99_ms"], "lower"),
    ("server CPU ms/action", lambda r: at_pace(r)["cpu_ms_per_action"], "lower"),
    ("errors", lambda r: at_pace(r)["errors"], "lower"),
    ("timeouts", lambda r: at_pace(r)["timeouts"], "lower"),
    ("capacity actions/s", lambda r: r.get("capacity_actions_per_s"), "higher"),
    ("page load p50 ms", lambda r: r["page_load_ms"]["p50"], "lower"),
]


def checkout(commit: str) -> Path:
    """The commit, checked out (detached) in a temporary folder of its own."""
    folder = Path(tempfile.mkdtemp(prefix=f"bench-{commit}-"))
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--force", str(folder), commit],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return folder


def drop(folder: Path) -> None:
    subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False)


def bench(label: str, server_root: Path, args: argparse.Namespace, stamp: int, n: int) -> dict:
    out = ROOT / "bench" / "results" / f"compare-{stamp}-{label}-{n}.json"
    command = [
        sys.executable, str(ROOT / "bench" / "load.py"),
        "--config", args.config, "--web", str(args.web), "--rooms", str(args.rooms),
        "--players", str(args.players), "--route", args.route, "--pace", str(args.pace),
        "--seconds", str(args.seconds), "--seed", str(args.seed), "--json", str(out),
    ]  # fmt: skip
    if args.capacity:
        command += ["--capacity", "--capacity-p95", str(args.capacity_p95)]
    if args.paces:
        command += ["--paces", args.paces]
    print(f"== {label} ({server_root}) run {n}", flush=True)
    env = {**os.environ, "BENCH_SERVER_ROOT": str(server_root)}
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    return json.loads(out.read_text())


def median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def table(old: list[dict], new: list[dict], commit: str) -> str:
    lines = [f"{'':24} {commit:>12} {'working tree':>14} {'new / old':>10}"]
    for name, read, better in METRICS:
        a, b = median([read(r) for r in old]), median([read(r) for r in new])
        if a is None and b is None:
            continue
        ratio = f"{b / a:9.2f}x" if a and b is not None else "        -"
        arrow = "(higher is better)" if better == "higher" else ""
        lines.append(f"{name:24} {_num(a):>12} {_num(b):>14} {ratio:>10} {arrow}")
    for group in _groups(old + new):
        a, b = (median([_group_cpu(r, group) for r in runs]) for runs in (old, new))
        ratio = f"{b / a:9.2f}x" if a and b is not None else "        -"
        lines.append(f"{'  CPU ms/action ' + group:24} {_num(a):>12} {_num(b):>14} {ratio:>10}")
    return "\n".join(lines)


def _groups(runs: list[dict]) -> list[str]:
    """The server's process groups named in any run (web0, q2, tick, postgres, ...)."""
    names = (at_pace(r).get("cpu_ms_per_action_by_process", {}) for r in runs)
    return sorted({name for group in names for name in group})


def _group_cpu(run: dict, group: str) -> float | None:
    return at_pace(run).get("cpu_ms_per_action_by_process", {}).get(group)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def side_by_side_arguments(description: str) -> argparse.ArgumentParser:
    """The old commit and the server's shape, as every side-by-side bench takes them."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--commit", default=BASELINE, help=f"the old commit (default {BASELINE})")
    parser.add_argument("--config", choices=["default", "scale"], default="default")
    parser.add_argument("--web", type=int, default=1)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--route", choices=["spread", "room"], default="spread")
    return parser


def main() -> None:
    parser = side_by_side_arguments(__doc__.splitlines()[0])
    parser.add_argument("--pace", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--capacity", action="store_true")
    parser.add_argument("--capacity-p95", type=float, default=100.0)
    parser.add_argument("--paces", default=None, help="capacity: the ladder, as bench/load.py")
    parser.add_argument("--runs", type=int, default=1, help="old/new pairs, alternated")
    args = parser.parse_args()
    stamp = int(time.time())
    folder = checkout(args.commit)
    old: list[dict] = []
    new: list[dict] = []
    try:
        for n in range(1, args.runs + 1):
            old.append(bench("old", folder, args, stamp, n))
            new.append(bench("new", ROOT, args, stamp, n))
    finally:
        drop(folder)
    print()
    print(
        f"{args.config}, {args.web} web, {args.rooms} rooms x {args.players} "
        f"({args.route}), pace "
        f"{args.pace} s, {args.seconds} s a phase, {args.runs} run(s) each, medians:"
    )
    cores = new[0].get("server_cores") or []
    print(
        f"server on core(s) {cores}, clients on {new[0].get('client_cores')}"
        if cores
        else "server and clients sharing every core (BENCH_PIN=0 or one core)"
    )
    print(table(old, new, args.commit))
    if args.capacity:
        print()
        print(ladders(old, new, args.commit, args.rooms))


def ladders(old: list[dict], new: list[dict], commit: str, rooms: int) -> str:
    """Every capacity run's ladder: each phase's offered and served actions a second, its
    latencies, its CPU an action and whether the server kept up (the capacity is the best
    phase kept up with; where both kept up, their CPU an action compares servers not
    behind)."""
    head = ("run", "offered/s", "served/s", "p50 ms", "p95 ms", "timeouts", "CPU ms/action")
    lines = ["{:>16} {:>10} {:>9} {:>9} {:>9} {:>9} {:>14}  kept up".format(*head)]
    for label, runs in ((commit, old), ("working tree", new)):
        for n, run in enumerate(runs, 1):
            for p in run["phases"]:
                kept = kept_up(p, run.get("capacity_p95", 100.0))
                lines.append(
                    f"{label + ' ' + str(n):>16} {rooms / p.get('pace_s', 5.0):10.1f} "
                    f"{p['actions_per_s']:9.1f} {p['p50_ms']:9.1f} {p['p95_ms']:9.1f} "
                    f"{p['timeouts']:9d} {p['cpu_ms_per_action']:14.1f}  "
                    + ("yes" if kept else "no")
                )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
