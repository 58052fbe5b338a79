"""Astra: a 5-seat discovery with its Boon picks, on the real server (issue 19).

    .venv/bin/python bench/astra_discovery.py                 # embedded default, 1 room, seed 6
    .venv/bin/python bench/astra_discovery.py --rooms 3 --discoveries 4 --config scale

The same measurement as ``bench/lats_round.py`` and ``bench/observatory_turn.py`` (whose
functions it uses), for a game played a seat at a time: it starts the real server
(``bench/server.py``), makes a room of Astra over HTTP (create, join, sit) with 5 people in
seats 1-5 and a spectator who joined without sitting, and opens a websocket for each of the
6. The room is dealt reproducibly: the server draws a deal with ``SystemRandom``, so the
bench starts the game itself (``lobby.services.start``, through Django on the bench's
database) with ``game.deal_command`` drawing from ``random.Random(seed)``; room ``i`` uses
``--seed + i``. Then every waiting seat plays what the computer player would
(``rules/robot.py``: ``robot.move(state, seat, random.Random(seed))``, the state read
through Django before each step), each as an HTTP request from that seat's own client
(``POST play/observe``, ``rest``, ``done``, ``ability``, ``pick``, ``discard``, with the
page's fields). A step is one action; a tied group's Boon picks (D6) are one step whose
picks are sent at once. Each step is waited for on every screen before the next, after a
``--pause``.

A room is played from the deal until ``--discoveries`` discovered cards were resolved with
at least one Boon pick step sent by a player, and (unless ``--no-tie``) a tied group picked
at once, at most ``--most`` actions. The first ``--warmup`` actions of the first room are
not counted. Per action it measures:

* the server's CPU: all server processes (daphne, q2 and its workers, the clock tick;
  PostgreSQL and Redis in the scale-out configuration), from the step's first POST until
  it reached every screen, divided among the step's actions; also less the idle CPU of the
  open room (measured for a few seconds before the first action);
* the answer: from sending the POST to having the answer;
* the action to every screen: from sending its POST to the moment all 6 of the room's
  websockets (5 seats and the spectator) hold a board whose ``data-version`` is at least
  the answer's.

By kind of action too (Observe, Rest, Done, PickBoon, the rest). Results: a table
(``bench/report.py``) and a JSON file under ``bench/results/`` (gitignored). It measures
this checkout's server only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from unittest import mock

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import report  # noqa: E402
from bench.lats_round import (  # noqa: E402
    Seat,
    Table,
    close,
    connect,
    every_screen,
    game_id_of,
    idle_cpu,
    send_at,
    use_bench_database,
)
from bench.load import pct, server_pids  # noqa: E402
from bench.report import Row  # noqa: E402
from bench.server import ROOT, SERVER_ROOT, Server, cpu_seconds, serve  # noqa: E402

KIND = "astra"
SEATS = 5
KINDS = ("observe", "rest", "done", "pick", "ability", "discard")
LABELS = {
    "observe": "Observe",
    "rest": "Rest",
    "done": "Done",
    "pick": "PickBoon",
    "ability": "UseAbility",
    "discard": "DiscardCards",
}


# -- the game's state and the computer's moves, in the bench process ---------------------------


def current(code: str):
    from django.db import close_old_connections

    from games.astra.game import GAME

    close_old_connections()
    return GAME.current(game_id_of(code))


def start_seeded(code: str, seed: int) -> None:
    """Start the room's game as its host would, the deal drawn from ``random.Random(seed)``
    (the server draws it with ``SystemRandom``: only this makes the room reproducible)."""
    from django.db import close_old_connections

    from games.astra import game
    from lobby import services
    from lobby.models import Room

    close_old_connections()
    real = game.deal_command

    def seeded(**kwargs):
        kwargs["rng"] = random.Random(seed)
        return real(**kwargs)

    room = Room.objects.get(code=code)
    with mock.patch.object(game, "deal_command", seeded):
        services.start(room, room.host)


def plan_step(code: str, rng: random.Random) -> dict | None:
    """What the state asks for now: every waiting seat's (action, form), the computer's
    choice, and where the game stands. None once the game has ended."""
    from games.astra.forms import form_of
    from games.astra.rules import robot
    from games.astra.rules.decide import resolving
    from games.astra.rules.model import Phase

    state = current(code)
    if state.ended:
        return None
    waiting = robot.seats_waiting(state)
    assert waiting, f"nobody owes a move in {state.phase}"
    picking = state.phase is Phase.PICKING
    return {
        "version": state.version,
        "phase": state.phase.value,
        "turn": state.turn,
        "active": state.active,
        "resolving": resolving(state) if picking else None,
        # The computer's move, as the fields a page posts for it (games.astra.forms).
        "moves": {seat: form_of(state, robot.move(state, seat, rng)) for seat in waiting},
    }


# -- the room ---------------------------------------------------------------------------------


async def make_room(url: str, seed: int) -> Table:
    """5 people seated, a spectator, the game dealt from ``seed``, a websocket each; the
    spectator is the table's last ``Seat`` (number 0)."""
    people = [
        Seat(number=n, http=httpx.AsyncClient(base_url=url, timeout=120))
        for n in range(1, SEATS + 1)
    ]
    watcher = Seat(number=0, http=httpx.AsyncClient(base_url=url, timeout=120))
    host = people[0]
    await host.http.get("/")
    response = await host.http.post("/rooms", data={"kind": KIND}, headers=host.headers())
    code = response.headers["location"].strip("/").split("/")[-1]
    for seat in [*people, watcher]:
        if seat is not host:
            await seat.http.get(f"/r/{code}/")
        name = f"Seat {seat.number}" if seat.number else "Watcher"
        joined = await seat.http.post(
            f"/r/{code}/join", data={"name": name}, headers=seat.headers()
        )
        assert joined.status_code == 200, joined.text[:300]
        if seat.number:
            sat = await seat.http.post(
                f"/r/{code}/sit", data={"seat": seat.number}, headers=seat.headers()
            )
            assert sat.status_code == 200, sat.text[:300]
    await asyncio.to_thread(start_seeded, code, seed)
    table = Table(code=code, seats=[*people, watcher])
    for seat in table.seats:
        await connect(table, seat)
    return table


async def play_step(
    table: Table, server: Server, moves: dict[int, tuple[str, dict]], timeout: float
) -> dict:
    """Send the step's actions at once (one, or a tied group's picks), each from its seat's
    client; wait until every screen holds each answer's board."""
    groups = server_pids(server)
    frames0 = sum(s.frames for s in table.seats), sum(s.frame_bytes for s in table.seats)
    cpu0 = {name: cpu_seconds(pids) for name, pids in groups.items()}
    t0 = time.perf_counter()
    sent = await asyncio.gather(*(send_at(table, seat, t0, *move) for seat, move in moves.items()))
    errors = [s for s in sent if s.status != 200 or s.version is None]
    reached: dict[int, float | None] = {}
    for s in sent:
        if s.version is not None and not errors:
            reached[s.seat] = await every_screen(table, s.version, timeout)
    cpu = {name: cpu_seconds(pids) - cpu0[name] for name, pids in groups.items()}
    done = max((t for t in reached.values() if t is not None), default=time.perf_counter())
    closing = max(sent, key=lambda s: s.version or 0)
    actions = []
    for s in sent:
        arrived = reached.get(s.seat)
        actions.append(
            {
                "seat": s.seat,
                "kind": s.action,
                "answer_ms": (s.answered - s.start) * 1000,
                "version": s.version,
                "to_every_screen_ms": None if arrived is None else (arrived - s.start) * 1000,
            }
        )
    return {
        "actions": actions,
        "errors": [(s.seat, s.action, s.status) for s in errors],
        "closing_answer_ms": (closing.answered - closing.start) * 1000,
        "window_s": done - t0,
        "cpu_s": sum(cpu.values()),
        "cpu_s_by_process": cpu,
        "frames": sum(s.frames for s in table.seats) - frames0[0],
        "frame_bytes": sum(s.frame_bytes for s in table.seats) - frames0[1],
    }


async def play_room(
    server: Server, args: argparse.Namespace, number: int, counted_from: int, idle: list[float]
) -> list[dict]:
    """One room, from its deal until its discoveries (see the module's docstring). The
    first room's idle CPU (6 sockets open, nobody acting) is appended to ``idle``."""
    seed = args.seed + number
    table = await make_room(server.urls[0], seed)
    await asyncio.sleep(1.0)
    if not idle:
        idle.append(await idle_cpu(server, args.idle))
    rng = random.Random(seed)
    steps: list[dict] = []
    cards: set[tuple[int, int | None]] = set()  # (turn, slot): resolved with a player's pick
    tie = False
    actions = 0
    while actions < args.most:
        planned = await asyncio.to_thread(plan_step, table.code, rng)
        if planned is None:
            break
        picking = planned["phase"] == "picking"
        if not picking and len(cards) >= args.discoveries and (tie or args.no_tie):
            break
        moves = planned.pop("moves")
        if picking:
            cards.add((planned["turn"], planned["resolving"]))
            tie = tie or len(moves) > 1
        result = await play_step(table, server, moves, args.timeout)
        result.update(planned, room=number, seed=seed, discoveries=len(cards))
        result["warmup"] = counted_from + actions < args.warmup
        actions += len(moves)
        steps.append(result)
        print(step_row(result), flush=True)
        if result["errors"]:
            break
        await asyncio.sleep(args.pause)
    await close(table)
    print(
        f"room {number} (seed {seed}): {actions} actions, {len(cards)} discoveries with a "
        f"player's Boon pick{', a tied group picked at once' if tie else ', no tie'}",
        flush=True,
    )
    return steps


async def play(server: Server, args: argparse.Namespace) -> dict:
    steps: list[dict] = []
    idle: list[float] = []
    for number in range(args.rooms):
        counted_from = sum(len(s["actions"]) for s in steps)
        steps += await play_room(server, args, number, counted_from, idle)
    return {"idle_cpu_per_s": idle[0], "steps": steps}


# -- the report ---------------------------------------------------------------------------------


def step_row(r: dict) -> str:
    kinds = Counter(a["kind"] for a in r["actions"])
    what = " + ".join(f"{n} {LABELS[k]}" if n > 1 else LABELS[k] for k, n in kinds.items())
    seats = ",".join(str(a["seat"]) for a in r["actions"])
    to_screens = [a["to_every_screen_ms"] for a in r["actions"]]
    screens = (
        "timeout"
        if any(ms is None for ms in to_screens)
        else " ".join(f"{ms:6.1f}" for ms in to_screens) + " ms"
    )
    answers = " ".join(f"{a['answer_ms']:6.1f}" for a in r["actions"])
    return (
        f"room {r['room']} v{r['version']:<4} turn {r['turn']:<3} {r['phase']:<8} "
        f"{what:<16} seat {seats:<5}{' (warm-up)' if r['warmup'] else '':10} | "
        f"answer {answers} ms | "
        f"to every screen {screens} | cpu {r['cpu_s'] * 1000:5.0f} ms | "
        f"{r['frames']} frames {r['frame_bytes'] / 1024:.0f} KiB"
        f"{' | errors ' + str(r['errors']) if r['errors'] else ''}"
    )


def per_action(steps: list[dict]) -> list[dict]:
    """Every counted action with its share of its step's CPU."""
    out = []
    for r in steps:
        if r["warmup"]:
            continue
        share = r["cpu_s"] / len(r["actions"])
        for a in r["actions"]:
            out.append({**a, "cpu_s": share, "tied": len(r["actions"]) > 1})
    return out


def summarize(played: dict) -> dict:
    """``bench/report.py``'s summary, counted in actions."""
    steps = [r for r in played["steps"] if not r["warmup"]]
    actions = per_action(played["steps"])
    n = len(actions)
    cpu = sum(r["cpu_s"] for r in steps)
    window = sum(r["window_s"] for r in steps)
    idle = played["idle_cpu_per_s"]
    by_process: Counter = Counter()
    for r in steps:
        by_process.update(r["cpu_s_by_process"])
    answers = [a["answer_ms"] for a in actions]
    reached = [a["to_every_screen_ms"] for a in actions if a["to_every_screen_ms"] is not None]
    by_kind = {}
    for kind in [*KINDS, "tied pick"]:
        these = [
            a
            for a in actions
            if (a["kind"] == kind and not a["tied"]) or (kind == "tied pick" and a["tied"])
        ]
        if these:
            times = [a["to_every_screen_ms"] for a in these if a["to_every_screen_ms"]]
            by_kind[kind] = {
                "actions": len(these),
                "cpu_ms": statistics.fmean(a["cpu_s"] for a in these) * 1000,
                "to_every_screen_ms": {
                    "p50": pct(times, 50),
                    "p95": pct(times, 95),
                    "max": max(times, default=float("nan")),
                },
            }
    return {
        "actions": n,
        "steps": len(steps),
        "submissions": n,
        "passes": 0,
        "errors": sum(len(r["errors"]) for r in played["steps"]),
        "timeouts": sum(1 for a in actions if a["to_every_screen_ms"] is None),
        "discoveries": sum(
            max((r["discoveries"] for r in played["steps"] if r["room"] == room), default=0)
            for room in {r["room"] for r in played["steps"]}
        ),
        "tied_steps": sum(1 for r in steps if len(r["actions"]) > 1),
        "cpu_ms_per_submission": cpu * 1000 / n if n else float("nan"),
        "cpu_ms_per_submission_less_idle": (cpu - idle * window) * 1000 / n if n else float("nan"),
        "cpu_ms_per_submission_by_process": {name: s * 1000 / n for name, s in by_process.items()},
        "cpu_ms_per_action_p50_max": (
            pct([a["cpu_s"] * 1000 for a in actions], 50),
            max(a["cpu_s"] * 1000 for a in actions),
        ),
        "idle_cpu_ms_per_s": idle * 1000,
        "answer_ms": {"p50": pct(answers, 50), "p95": pct(answers, 95), "max": max(answers)},
        "closing_answer_ms": {
            "p50": pct([r["closing_answer_ms"] for r in steps], 50),
            "max": max(r["closing_answer_ms"] for r in steps),
        },
        "close_to_every_screen_ms": {
            "p50": pct(reached, 50),
            "p95": pct(reached, 95),
            "max": max(reached, default=float("nan")),
        },
        "pushed_kib_per_action_all_sockets": sum(r["frame_bytes"] for r in steps) / 1024 / n,
        "frames_per_action_all_sockets": sum(r["frames"] for r in steps) / n,
        "by_kind": by_kind,
    }


def kind_rows(s: dict) -> list[Row]:
    rows: list[Row] = []
    for kind, k in s["by_kind"].items():
        label = "PickBoon, a tied group at once" if kind == "tied pick" else LABELS[kind]
        t = k["to_every_screen_ms"]
        rows.append(
            (
                f"  {label} ({k['actions']})",
                f"CPU {k['cpu_ms']:.0f} ms; to every screen p50 / p95 / max "
                f"{t['p50']:.0f} / {t['p95']:.0f} / {t['max']:.0f} ms",
            )
        )
    return rows


def print_table(result: dict) -> None:
    s = result["summary"]
    report.print_table(
        "Astra",
        result,
        "action",
        note=(
            f"; {s['steps']} steps, {s['tied_steps']} of them a tied group's picks sent at "
            f"once; {s['discoveries']} discoveries with a player's Boon pick"
        ),
        before=[
            (
                "server CPU per action p50 / max",
                f"{s['cpu_ms_per_action_p50_max'][0]:.0f} / "
                f"{s['cpu_ms_per_action_p50_max'][1]:.0f} ms",
            )
        ],
        after=[("by kind (6 screens: 5 seats, a spectator)", ""), *kind_rows(s)],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", choices=["default", "scale"], default="default")
    parser.add_argument("--rooms", type=int, default=1, help="rooms played one after another")
    parser.add_argument(
        "--discoveries",
        type=int,
        default=3,
        help="a room plays until this many cards were resolved with a player's Boon pick",
    )
    parser.add_argument(
        "--no-tie", action="store_true", help="do not also wait for a tied group's picks"
    )
    parser.add_argument("--most", type=int, default=200, help="most actions a room plays")
    parser.add_argument("--warmup", type=int, default=2, help="first actions, not counted")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between steps")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of idle CPU measured")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds an action may take to arrive"
    )
    parser.add_argument(
        "--seed", type=int, default=6, help="room i is dealt and played from seed + i"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if SERVER_ROOT != ROOT:
        raise SystemExit("bench/astra_discovery.py measures this checkout only (BENCH_SERVER_ROOT)")
    result: dict = {
        "config": args.config,
        "seats": SEATS,
        "rooms": args.rooms,
        "seed": args.seed,
        "loadavg_before": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    started = time.perf_counter()
    with serve(args.config) as server:
        use_bench_database(server)
        played = asyncio.run(play(server, args))
        result["loadavg_after"] = os.getloadavg()
    result["wall_s"] = time.perf_counter() - started
    result["summary"] = summarize(played)
    result["steps"] = played["steps"]
    out = args.json or ROOT / "bench" / "results" / (
        f"astra-discovery-{args.config}-seed{args.seed}-{int(time.time())}.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print_table(result)
    print(f"written to {out} ({result['wall_s']:.0f} s)")


if __name__ == "__main__":
    main()
