"""Look at the Stars: a round of 8 seats closing, on the real server (issue 17).

    .venv/bin/python bench/lats_round.py                     # embedded default, 8 seats, 10 rounds
    .venv/bin/python bench/lats_round.py --config scale --rounds 20

Starts the real server (``bench/server.py``: daphne, the q2 cluster, the clock tick, a fresh
database), makes one room of Look at the Stars over HTTP (httpx: create, join, sit, start,
as ``bench/load.py`` does) with a websocket per seated player, then plays rounds: before each
round the bench reads the game's state (through Django, configured against the bench's
database as ``bench/micro.py`` is) and asks the computer player (``rules/robot.py:move``) for
every seat's drawing; then all the seats send it (``POST /r/<code>/play/submit`` with the
draft's fields, or ``play/pass``) spread evenly over ``--spread`` seconds (1 s), in a random
order. It measures:

* the server's CPU per submission: all server processes (daphne, q2 and its workers, the
  clock tick; PostgreSQL and Redis in the scale-out configuration), from the round's first
  POST to the moment its close reached every screen, divided by the round's submissions;
  the same less the idle CPU of the open room (measured for a few seconds before the rounds:
  the SQLite channel layer's polling);
* each submission's answer: from sending its POST to having the answer;
* the round's close to every screen: from sending the LAST submission of the round to the
  moment every one of the room's websockets holds a board whose ``data-version`` is at least
  the closing answer's (the next round's board, or the end of the night);
* in-process, like ``bench/action_cost.py`` (the Django test client, no websocket), the SQL
  statements, board renders and pushes of one ordinary submission and of the closing one.

A warm-up round (``--warmup``) is played first and not counted. After the night's 18th
round the host starts a rematch, so ``--rounds`` may exceed 18. Results: a table, and a
JSON file under ``bench/results/`` (gitignored).

The bench reads the state with this checkout's code, so it measures this checkout's server
only (``BENCH_SERVER_ROOT``, which ``bench/compare.py`` uses, is not supported here).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import report  # noqa: E402
from bench.load import all_pids, pct, server_pids  # noqa: E402
from bench.report import Row  # noqa: E402
from bench.server import ROOT, SERVER_ROOT, Server, cpu_seconds, serve  # noqa: E402

KIND = "lookatthestars"
VERSION = re.compile(rb'id="board"[^>]*data-version="(\d+)"')
BOARD = "board.html#board"


@dataclass
class Seat:
    number: int
    http: httpx.AsyncClient
    seen: dict[int, float] = field(default_factory=dict)  # board version -> first arrival
    frames: int = 0
    frame_bytes: int = 0
    socket: object = None
    reader: asyncio.Task | None = None

    def headers(self) -> dict[str, str]:
        return {"X-CSRFToken": self.http.cookies.get("csrftoken", ""), "HX-Request": "true"}


@dataclass
class Table:
    code: str
    seats: list[Seat]


# -- Django in the bench process, on the bench's database ----------------------------------


def use_bench_database(server: Server) -> None:
    """Configure Django as the server's processes are (their environment: the bench's
    SQLite file, or its PostgreSQL database and Redis), to read the game's state."""
    for key in ("DATABASE_URL", "REDIS_URL", "CONSTELLATE_REDIS_PREFIX"):
        if key not in server.env:
            os.environ.pop(key, None)
    os.environ.update(server.env)
    import django

    django.setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request


def game_id_of(code: str) -> int:
    from lobby.models import Room

    game_id = Room.objects.filter(code=code).values_list("game_id", flat=True).first()
    assert game_id is not None, f"room {code} has no game"
    return game_id


def draft_of(drawing):
    """The draft a browser would hold for this whole drawing (as the game's web tests do)."""
    from games.lookatthestars import drafting

    shooting: tuple = ()
    if drawing.shooting_star is not None:
        head = drawing.shooting_star.head
        stars = drawing.shooting_star.stars
        shooting = tuple(sorted(stars, key=lambda p: max(abs(p[0] - head[0]), abs(p[1] - head[1]))))
    return drafting.Draft(
        lines=tuple(sorted(drawing.lines)), shooting=shooting, resolutions=drawing.resolutions
    )


def robot_moves(code: str, seats: int) -> tuple[int, dict[int, tuple[str, dict]]] | None:
    """The running round's number and every seat's (action, form): the computer player's
    choice, as the browser would send it. None once the night has ended."""
    from django.db import close_old_connections

    from games.lookatthestars import drafting
    from games.lookatthestars.game import GAME
    from games.lookatthestars.rules import robot

    close_old_connections()
    state = GAME.current(game_id_of(code))
    if state.ended:
        return None
    number = state.round_number
    moves = {}
    for seat in range(1, seats + 1):
        drawing = robot.move(state, seat).drawing
        if drawing.passed:
            moves[seat] = ("pass", {"round": number})
        else:
            moves[seat] = ("submit", {"round": number, **drafting.fields(draft_of(drawing))})
    return number, moves


# -- the room, over HTTP and websockets --------------------------------------------------------


async def make_table(url: str, size: int, kind: str = KIND) -> Table:
    seats = [
        Seat(number=n, http=httpx.AsyncClient(base_url=url, timeout=120))
        for n in range(1, size + 1)
    ]
    host = seats[0]
    await host.http.get("/")
    response = await host.http.post("/rooms", data={"kind": kind}, headers=host.headers())
    code = response.headers["location"].strip("/").split("/")[-1]
    for seat in seats:
        if seat is not host:
            await seat.http.get(f"/r/{code}/")
        joined = await seat.http.post(
            f"/r/{code}/join", data={"name": f"Seat {seat.number}"}, headers=seat.headers()
        )
        assert joined.status_code == 200, joined.text[:300]
        sat = await seat.http.post(
            f"/r/{code}/sit", data={"seat": seat.number}, headers=seat.headers()
        )
        assert sat.status_code == 200, sat.text[:300]
    started = await host.http.post(f"/r/{code}/start", headers=host.headers())
    assert started.status_code == 200, started.text[:300]
    table = Table(code=code, seats=seats)
    for seat in seats:
        await connect(table, seat)
    return table


async def connect(table: Table, seat: Seat) -> None:
    ws_url = str(seat.http.base_url).replace("http", "ws", 1) + f"/ws/r/{table.code}/"
    cookie = "; ".join(f"{k}={v}" for k, v in seat.http.cookies.items())
    seat.socket = await websockets.connect(
        ws_url,
        additional_headers={"Cookie": cookie, "Origin": str(seat.http.base_url)},
        max_size=2**23,
        open_timeout=30,
        ping_interval=None,
    )
    seat.reader = asyncio.create_task(read(seat))


async def read(seat: Seat) -> None:
    try:
        async for frame in seat.socket:
            now = time.perf_counter()
            data = frame.encode() if isinstance(frame, str) else frame
            seat.frames += 1
            seat.frame_bytes += len(data)
            found = VERSION.search(data)
            if found:
                seat.seen.setdefault(int(found.group(1)), now)
    except websockets.ConnectionClosed:
        pass


async def close(table: Table) -> None:
    for seat in table.seats:
        if seat.socket is not None:
            await seat.socket.close()
        await seat.http.aclose()


# -- one round ---------------------------------------------------------------------------------


@dataclass
class Sent:
    seat: int
    action: str
    start: float
    answered: float
    status: int
    version: int | None


async def send_at(table: Table, seat: int, at: float, action: str, form: dict) -> Sent:
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    player = table.seats[seat - 1]
    start = time.perf_counter()
    response = await player.http.post(
        f"/r/{table.code}/play/{action}", data=form, headers=player.headers()
    )
    answered = time.perf_counter()
    found = VERSION.search(response.content)
    version = int(found.group(1)) if found else None
    return Sent(seat, action, start, answered, response.status_code, version)


async def every_screen(table: Table, version: int, timeout: float) -> float | None:
    """When the last of the room's sockets first held a board of ``version`` or later."""
    deadline = time.perf_counter() + timeout
    while True:
        arrivals = [
            min((t for v, t in s.seen.items() if v >= version), default=None) for s in table.seats
        ]
        if all(a is not None for a in arrivals):
            return max(arrivals)
        if time.perf_counter() > deadline:
            return None
        await asyncio.sleep(0.002)


async def play_round(
    table: Table,
    server: Server,
    spread: float,
    rng: random.Random,
    timeout: float,
    plan: Callable[[str, int], tuple[int, dict[int, tuple[str, dict]]] | None] = robot_moves,
) -> dict | None:
    """One round: ``plan(code, seats)`` (run in a thread) gives the round's number and every
    seat's (action, form), or None once the game has ended."""
    size = len(table.seats)
    planned = await asyncio.to_thread(plan, table.code, size)
    if planned is None:
        return None
    number, moves = planned
    order = list(moves)
    rng.shuffle(order)
    step = spread / (size - 1) if size > 1 else 0.0
    groups = server_pids(server)
    frames0 = sum(s.frames for s in table.seats), sum(s.frame_bytes for s in table.seats)
    cpu0 = {name: cpu_seconds(pids) for name, pids in groups.items()}
    t0 = time.perf_counter() + 0.01
    sent = await asyncio.gather(
        *(send_at(table, seat, t0 + i * step, *moves[seat]) for i, seat in enumerate(order))
    )
    errors = [s for s in sent if s.status != 200 or s.version is None]
    closing = max((s.version for s in sent if s.version is not None), default=0)
    last = max(s.start for s in sent)
    reached = await every_screen(table, closing, timeout) if not errors else None
    cpu = {name: cpu_seconds(pids) - cpu0[name] for name, pids in groups.items()}
    window = (reached or time.perf_counter()) - t0
    return {
        "round": number,
        "passes": sum(1 for s in sent if s.action == "pass"),
        "errors": [(s.seat, s.action, s.status) for s in errors],
        "answers_ms": [(s.answered - s.start) * 1000 for s in sent],
        "closing_answer_ms": next(
            ((s.answered - s.start) * 1000 for s in sent if s.version == closing), float("nan")
        ),
        "spread_ms": (last - min(s.start for s in sent)) * 1000,
        "close_to_every_screen_ms": None if reached is None else (reached - last) * 1000,
        "window_s": window,
        "cpu_s": sum(cpu.values()),
        "cpu_s_by_process": cpu,
        "frames": sum(s.frames for s in table.seats) - frames0[0],
        "frame_bytes": sum(s.frame_bytes for s in table.seats) - frames0[1],
    }


async def rematch(table: Table) -> None:
    host = table.seats[0]
    for seat in table.seats:
        seat.seen.clear()
    response = await host.http.post(f"/r/{table.code}/start", headers=host.headers())
    assert response.status_code == 200, response.text[:300]
    await asyncio.sleep(1.0)  # the new boards arrive through the lobby's push


async def idle_cpu(server: Server, seconds: float) -> float:
    """Server CPU seconds per second with the room open and nobody acting."""
    pids = all_pids(server_pids(server))
    before = cpu_seconds(pids)
    await asyncio.sleep(seconds)
    return (cpu_seconds(pids) - before) / seconds


async def play(server: Server, args: argparse.Namespace) -> dict:
    table = await make_table(server.urls[0], args.seats)
    await asyncio.sleep(1.0)
    idle = await idle_cpu(server, args.idle)
    rng = random.Random(args.seed)
    rounds: list[dict] = []
    played = 0
    while played < args.warmup + args.rounds:
        result = await play_round(table, server, args.spread, rng, args.timeout)
        if result is None:  # the night is over: a rematch
            await rematch(table)
            continue
        result["warmup"] = played < args.warmup
        rounds.append(result)
        played += 1
        print(round_row(result), flush=True)
        await asyncio.sleep(args.pause)
    await close(table)
    return {"idle_cpu_per_s": idle, "rounds": rounds}


# -- in-process: statements, renders and pushes of a submission ----------------------------------


def submission_cost(seats: int) -> dict:
    """One ordinary submission and the closing one of round 2, through ``django.test.Client``
    with ``bench/action_cost.py``'s probes (no websocket: each push is a group_send to an
    empty group). Runs in this thread, against the bench's database."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench import action_cost

    action_cost.install_probes()
    clients = [Client(HTTP_HOST="localhost") for _ in range(seats)]
    host = clients[0]
    response = host.post("/rooms", {"kind": KIND})
    code = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    for n, client in enumerate(clients, start=1):
        client.get(f"/r/{code}/")
        action_cost.post(client, f"/r/{code}/join", {"name": f"Seat {n}"})
        action_cost.post(client, f"/r/{code}/sit", {"seat": n})
    action_cost.post(host, f"/r/{code}/start", {})

    def submit(seat: int, action: str, form: dict) -> None:
        action_cost.post(clients[seat - 1], f"/r/{code}/play/{action}", form)

    def measured(seat: int, action: str, form: dict) -> dict:
        probe = action_cost.probe
        probe.renders.clear()
        probe.sends.clear()
        probe.tags.clear()
        with (
            CaptureQueriesContext(connection) as queries,
            connection.execute_wrapper(probe.tag_statement),
        ):
            probe.queries, probe.active = queries, True
            cpu = time.process_time()
            try:
                submit(seat, action, form)
            finally:
                cpu = time.process_time() - cpu
                probe.active = False
        phases = Counter(action_cost.phases_of(len(queries.captured_queries)))
        boards = Counter(phase for phase, name in probe.renders if name.endswith(BOARD))
        return {
            "action": action,
            "cpu_ms": cpu * 1000,  # queries captured and renders counted: a little above a server's
            "statements": len(queries.captured_queries),
            "statements_answer": phases["answer"],
            "statements_push": phases["push"] + phases["send"],
            "board_renders": sum(boards.values()),
            "board_renders_answer": boards["answer"],
            "board_renders_push": boards["push"] + boards["send"],
            "renders": len(probe.renders),
            "pushes": len(probe.sends),
            "push_bytes": sum(size for *_, size in probe.sends),
        }

    planned = robot_moves(code, seats)
    assert planned is not None
    for seat, (action, form) in planned[1].items():  # round 1, not measured
        submit(seat, action, form)
    planned = robot_moves(code, seats)
    assert planned is not None and planned[0] == 2
    moves = planned[1]
    result = {"round": 2, "first": measured(1, *moves[1])}
    for seat in range(2, seats):
        submit(seat, *moves[seat])
    result["closing"] = measured(seats, *moves[seats])
    return result


# -- the report ----------------------------------------------------------------------------------


def round_row(r: dict) -> str:
    close_ms = r["close_to_every_screen_ms"]
    return (
        f"round {r['round']:2d}{' (warm-up)' if r.get('warmup') else '':10} | "
        f"spread {r['spread_ms']:6.0f} ms | answers p50 {statistics.median(r['answers_ms']):6.1f} "
        f"max {max(r['answers_ms']):6.1f} ms | closing answer {r['closing_answer_ms']:6.1f} ms | "
        f"close to every screen {'timeout' if close_ms is None else f'{close_ms:6.1f} ms'} | "
        f"cpu {r['cpu_s'] * 1000:5.0f} ms | {r['frames']} frames {r['frame_bytes'] / 1024:.0f} KiB"
        f"{' | errors ' + str(r['errors']) if r['errors'] else ''}"
    )


def summarize(played: dict, seats: int) -> dict:
    rounds = [r for r in played["rounds"] if not r["warmup"]]
    answers = [ms for r in rounds for ms in r["answers_ms"]]
    closes = [r["close_to_every_screen_ms"] for r in rounds if r["close_to_every_screen_ms"]]
    submissions = seats * len(rounds)
    cpu = sum(r["cpu_s"] for r in rounds)
    window = sum(r["window_s"] for r in rounds)
    idle = played["idle_cpu_per_s"]
    by_process: Counter = Counter()
    for r in rounds:
        by_process.update(r["cpu_s_by_process"])
    return {
        "rounds": len(rounds),
        "submissions": submissions,
        "passes": sum(r["passes"] for r in rounds),
        "errors": sum(len(r["errors"]) for r in rounds),
        "timeouts": sum(1 for r in rounds if r["close_to_every_screen_ms"] is None),
        "cpu_ms_per_submission": cpu * 1000 / submissions if submissions else float("nan"),
        "cpu_ms_per_submission_less_idle": (cpu - idle * window) * 1000 / submissions
        if submissions
        else float("nan"),
        "cpu_ms_per_submission_by_process": {
            name: s * 1000 / submissions for name, s in by_process.items()
        },
        "idle_cpu_ms_per_s": idle * 1000,
        "answer_ms": {"p50": pct(answers, 50), "p95": pct(answers, 95), "max": max(answers)},
        "closing_answer_ms": {
            "p50": pct([r["closing_answer_ms"] for r in rounds], 50),
            "max": max(r["closing_answer_ms"] for r in rounds),
        },
        "close_to_every_screen_ms": {
            "p50": pct(closes, 50),
            "p95": pct(closes, 95),
            "max": max(closes, default=float("nan")),
        },
        "pushed_kib_per_round_all_sockets": statistics.fmean(r["frame_bytes"] for r in rounds)
        / 1024,
        "frames_per_round_all_sockets": statistics.fmean(r["frames"] for r in rounds),
    }


def cost_rows(result: dict) -> list[Row]:
    """The in-process counts of one ordinary submission and of the closing one, as rows."""
    rows: list[Row] = []
    for name, kind in (("one submission", "first"), ("the closing one", "closing")):
        c = result.get("cost", {}).get(kind)
        if c:
            rows.append(
                (
                    f"{name} (in-process)",
                    f"{c['statements']} SQL ({c['statements_answer']} answer, "
                    f"{c['statements_push']} push), {c['board_renders']} board renders "
                    f"({c['board_renders_answer']} answer, {c['board_renders_push']} push), "
                    f"{c['pushes']} pushes {c['push_bytes'] / 1024:.0f} KiB, "
                    f"{c['cpu_ms']:.0f} ms CPU",
                )
            )
    return rows


def print_table(result: dict) -> None:
    report.print_table("Look at the Stars", result, "round", after=cost_rows(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", choices=["default", "scale"], default="default")
    parser.add_argument("--rounds", type=int, default=10, help="measured rounds")
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=1, help="rounds played first, not counted")
    parser.add_argument(
        "--spread", type=float, default=1.0, help="seconds over which a round's seats submit"
    )
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between rounds")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of idle CPU measured")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds a round's close may take to arrive"
    )
    parser.add_argument("--no-cost", action="store_true", help="skip the in-process counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if SERVER_ROOT != ROOT:
        raise SystemExit("bench/lats_round.py measures this checkout only (BENCH_SERVER_ROOT)")
    result: dict = {
        "config": args.config,
        "seats": args.seats,
        "spread_s": args.spread,
        "loadavg_before": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    with serve(args.config) as server:
        use_bench_database(server)
        played = asyncio.run(play(server, args))
        result["loadavg_after"] = os.getloadavg()
        if not args.no_cost:
            result["cost"] = submission_cost(args.seats)
    result["summary"] = summarize(played, args.seats)
    result["rounds"] = played["rounds"]
    out = args.json or ROOT / "bench" / "results" / (
        f"lats-round-{args.config}-s{args.seats}-{int(time.time())}.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print_table(result)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
