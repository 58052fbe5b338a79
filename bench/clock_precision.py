"""Measure the step clock and the embedded default's channel layer.

    .venv/bin/python bench/clock_precision.py [--games 3] [--step 2] [--messages 60]
                                              [--idle 10] [--json out.json]

1. Clock precision: on a fresh SQLite database under a temporary folder, starts the real
   background processes (``manage.py qcluster`` and ``manage.py clocktick``, as ``play``
   does), starts ``--games`` Before Dawn games with ``--step``-second steps, a third of a
   step apart, and lets nobody play: each naming step expires (C2) until dawn (D5), 7
   expiries a game. Reports deadline -> expiry event appended (p50/p95/max; target
   p95 <= 1.5 s), and deadline -> worker started the task.
2. Channel layer (channels-lite SQLiteChannelLayer): a group_send in one process, received
   in another (this one), at several polling intervals: p50/p95/max. Then the real path:
   a group_send in one process, through daphne (a probe consumer using this layer), to
   ``--sockets`` websockets; and how fast daphne exits on SIGTERM with them open.
3. Idle CPU: of one process holding a receiving channel (its poll loop) per interval, and
   of the idle cluster + tick, over ``--idle`` seconds, as % of one core.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORKDIR = Path(tempfile.mkdtemp(prefix="constellate-bench-clock-"))
DATABASE = WORKDIR / "bench.sqlite3"
os.environ["CONSTELLATE_SQLITE_PATH"] = str(DATABASE)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("CONSTELLATE_LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

POLLS = (0.02, 0.05, 0.1, 0.2)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50_ms": round(statistics.median(values) * 1000, 1),
        "p95_ms": round(pct(values, 95) * 1000, 1),
        "max_ms": round(max(values) * 1000, 1),
        "min_ms": round(min(values) * 1000, 1),
    }


# -- 1. clock precision ------------------------------------------------------------------


def clock_precision(games: int, step: float, stagger: float) -> dict:
    from django_q.models import Task

    from games import clock, store
    from games.constellate import rules
    from games.constellate.game import GAME
    from games.models import Event, Game
    from tests.support.cluster import run_cluster

    with run_cluster(database=str(DATABASE)) as cluster:
        started = []
        for _ in range(games):
            game, _ = GAME.start(players=2, step_seconds=step)
            started.append(game)
            time.sleep(stagger)
        end = time.monotonic() + 8 * step * 1.5 + 30
        while time.monotonic() < end:
            if all(Game.objects.get(pk=g.pk).ended_at for g in started):
                break
            cluster.check_alive()
            time.sleep(0.2)
        else:
            raise SystemExit(f"games did not end in time\n{cluster.logs()}")

    appended, queued = [], []
    tasks = {tuple(t.args): t for t in Task.objects.filter(func=clock.TASK)}
    for game in started:
        stamps = list(Event.objects.filter(game=game).order_by("seq").values_list("created_at"))
        state = rules.State()
        for event, (created_at,) in zip(store.read_events(game), stamps, strict=True):
            if isinstance(event, rules.TurnEnded):
                appended.append((created_at - state.deadline).total_seconds())
                task = tasks.get((game.pk, state.step_started))
                if task is not None:
                    # django-q2 stamps "started" when the task is queued (by the tick)
                    queued.append((task.started - state.deadline).total_seconds())
            state = rules.evolve(state, event)
    return {
        "games": games,
        "step_seconds": step,
        "deadline_to_expiry_appended": summary(appended),
        "deadline_to_task_queued": summary(queued) if queued else None,
    }


# -- 2. channel layer latency across processes ---------------------------------------------

SENDER = """
import asyncio, os, random, sys, time
import django
django.setup()
from channels.layers import get_channel_layer
group, count = sys.argv[1], int(sys.argv[2])
layer = get_channel_layer()
async def main():
    for i in range(count):
        await asyncio.sleep(random.uniform(0.05, 0.25))
        await layer.group_send(group, {"type": "bench", "i": i, "sent": time.time()})
asyncio.run(main())
"""


def layer_latency(poll: float, messages: int) -> dict:
    from channels_lite.layers.core import SQLiteChannelLayer

    async def scenario() -> list[float]:
        layer = SQLiteChannelLayer(database="default", polling_interval=poll)
        group = f"bench-{poll}"
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        sender = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SENDER, group, str(messages), cwd=ROOT
        )
        latencies = []
        try:
            for _ in range(messages):
                message = await asyncio.wait_for(layer.receive(channel), timeout=30)
                latencies.append(time.time() - message["sent"])
        finally:
            await sender.wait()
            await layer.group_discard(group, channel)
            await layer.close()
        return latencies

    return {"polling_interval": poll, **summary(asyncio.run(scenario()))}


# -- 2b. the same through daphne, to real websockets ---------------------------------------

PROBE_ASGI = """
import json
import os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

class Probe(AsyncWebsocketConsumer):
    async def connect(self):
        await self.channel_layer.group_add("bench-probe", self.channel_name)
        await self.accept()
    async def disconnect(self, code):
        await self.channel_layer.group_discard("bench-probe", self.channel_name)
    async def bench(self, event):
        await self.send(text_data=json.dumps(event))

application = URLRouter([path("ws", Probe.as_asgi())])
"""


def _ws_connect(port: int) -> socket.socket:
    """A bare websocket handshake (stdlib only); frames from the server are unmasked."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(head.decode(errors="replace"))
    return sock


def _ws_text(sock: socket.socket) -> str:
    def exact(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    _, size = exact(2)
    size &= 0x7F
    if size == 126:
        size = struct.unpack("!H", exact(2))[0]
    elif size == 127:
        size = struct.unpack("!Q", exact(8))[0]
    return exact(size).decode()


def websocket_latency(poll: float, sockets: int, messages: int) -> dict:
    """group_send in another process -> daphne (this layer) -> ``sockets`` websockets."""
    from tests.support.cluster import free_port

    (WORKDIR / "bench_probe_asgi.py").write_text(PROBE_ASGI)
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT}{os.pathsep}{WORKDIR}",
        "CONSTELLATE_CHANNELS_POLL": str(poll),
    }
    log = (WORKDIR / "daphne.log").open("wb")
    daphne = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["bench_probe_asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    latencies: list[float] = []
    clients: list[socket.socket] = []
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        clients += [_ws_connect(port) for _ in range(sockets)]
        time.sleep(0.5)  # every consumer has joined the group
        lock = threading.Lock()

        def read(sock: socket.socket) -> None:
            for _ in range(messages):
                sent = json.loads(_ws_text(sock))["sent"]
                with lock:
                    latencies.append(time.time() - sent)

        readers = [threading.Thread(target=read, args=(c,)) for c in clients]
        for reader in readers:
            reader.start()
        subprocess.run(
            [sys.executable, "-c", SENDER, "bench-probe", str(messages)],
            cwd=ROOT,
            env=env,
            check=True,
        )
        for reader in readers:
            reader.join(timeout=30)
    finally:
        started = time.monotonic()  # the websockets are still open
        daphne.terminate()
        try:
            daphne.wait(timeout=15)
            stopped = round(time.monotonic() - started, 2)
        except subprocess.TimeoutExpired:
            daphne.kill()
            stopped = None
        for client in clients:
            client.close()
        log.close()
    return {
        "polling_interval": poll,
        "sockets": sockets,
        **summary(latencies),
        "daphne_sigterm_exit_s": stopped,
    }


# -- 3. idle CPU -----------------------------------------------------------------------------

IDLE_RECEIVER = """
import asyncio, sys, time
import django
django.setup()
from channels_lite.layers.core import SQLiteChannelLayer
poll, seconds = float(sys.argv[1]), float(sys.argv[2])
async def main():
    layer = SQLiteChannelLayer(database="default", polling_interval=poll)
    if poll > 0:
        channel = await layer.new_channel()
        task = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(1)  # warm up
    cpu = time.process_time()
    await asyncio.sleep(seconds)
    print(time.process_time() - cpu)
asyncio.run(main())
"""


def idle_receiver_cpu(poll: float, seconds: float) -> float:
    """% of one core used by a process whose only work is one idle receive loop."""
    out = subprocess.run(
        [sys.executable, "-c", IDLE_RECEIVER, str(poll), str(seconds)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return round(float(out.strip().splitlines()[-1]) / seconds * 100, 2)


def _tree_cpu(root_pids: list[int]) -> float:
    """utime + stime (seconds) of these processes and all their descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    wanted, total, grew = set(root_pids), 0, True
    while grew:
        grew = False
        for pid, (ppid, _) in stats.items():
            if ppid in wanted and pid not in wanted:
                wanted.add(pid)
                grew = True
    for pid in wanted:
        if pid in stats:
            total += stats[pid][1]
    return total / tick


def idle_cluster_cpu(seconds: float) -> dict:
    from tests.support.cluster import run_cluster

    with run_cluster(database=str(DATABASE)) as cluster:
        time.sleep(2)
        by_name = {p.name: p.popen.pid for p in cluster.processes}
        before = {name: _tree_cpu([pid]) for name, pid in by_name.items()}
        time.sleep(seconds)
        after = {name: _tree_cpu([pid]) for name, pid in by_name.items()}
    return {
        f"{name}_cpu_pct": round((after[name] - before[name]) / seconds * 100, 2)
        for name in by_name
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--step", type=float, default=2.0)
    parser.add_argument(
        "--stagger", type=float, help="seconds between game starts (default: a third of --step)"
    )
    parser.add_argument("--clock-only", action="store_true", help="skip the layer and idle parts")
    parser.add_argument("--messages", type=int, default=60)
    parser.add_argument("--idle", type=float, default=10.0)
    parser.add_argument("--sockets", type=int, default=8, help="websockets in the push part")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    report: dict = {"database": str(DATABASE)}

    stagger = args.step / 3 if args.stagger is None else args.stagger
    report["clock"] = clock_precision(args.games, args.step, stagger)
    c = report["clock"]["deadline_to_expiry_appended"]
    print(
        f"clock: deadline -> expiry appended over {c['n']} steps of {args.step:g} s: "
        f"p50 {c['p50_ms']} ms, p95 {c['p95_ms']} ms, max {c['max_ms']} ms "
        f"(min {c['min_ms']} ms; target p95 <= 1500 ms)"
    )
    if w := report["clock"]["deadline_to_task_queued"]:
        print(f"       deadline -> the tick queued the task: p50 {w['p50_ms']} ms, "
              f"p95 {w['p95_ms']} ms, max {w['max_ms']} ms")  # fmt: skip

    if not args.clock_only:
        layer_and_idle(report, args)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str))
        print(f"wrote {args.json}")


def layer_and_idle(report: dict, args: argparse.Namespace) -> None:
    report["layer"] = []
    for poll in POLLS:
        row = layer_latency(poll, args.messages)
        row["idle_receiver_cpu_pct"] = idle_receiver_cpu(poll, args.idle)
        report["layer"].append(row)
        print(
            f"layer: polling {poll:>4} s: group_send -> receive across processes "
            f"p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms, max {row['max_ms']} ms; "
            f"idle receiver CPU {row['idle_receiver_cpu_pct']} % of a core"
        )
    report["websocket"] = []
    for poll in POLLS:
        row = websocket_latency(poll, args.sockets, args.messages)
        report["websocket"].append(row)
        print(
            f"push:  polling {poll:>4} s: group_send in another process -> daphne -> "
            f"{row['sockets']} websockets: p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms, "
            f"max {row['max_ms']} ms (n={row['n']}; daphne exits on SIGTERM in "
            f"{row['daphne_sigterm_exit_s']} s)"
        )
    baseline = idle_receiver_cpu(0, args.idle)
    report["idle_process_baseline_cpu_pct"] = baseline
    print(f"       (a process with no receive loop: {baseline} % of a core)")

    report["idle_cluster"] = idle_cluster_cpu(args.idle)
    print(
        "idle: "
        + ", ".join(
            f"{k.removesuffix('_cpu_pct')} {v} %" for k, v in report["idle_cluster"].items()
        )
        + " of a core"
    )


if __name__ == "__main__":
    main()
