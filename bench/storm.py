"""A reconnect storm: R rooms of S seated players and W spectators, every one a real client
(an HTTP session and a websocket), all holding their board; then the daphne process is
restarted on the same port (a deploy), and, in a second phase, it closes every socket
while it stays up. Every client reconnects as the page does (static/platform/socket.js):
after ``min(1000 * 2 ** min(retries, 6), 4000) * random()`` ms, a failed handshake
counting as one more retry, the count reset when a socket opens; 4404 and 4429 are not
retried.

    .venv/bin/python bench/storm.py                      # embedded default, 50 rooms x (4 + 2)
    .venv/bin/python bench/storm.py --rooms 20 --seats 6 --spectators 0 --timeout 30

Measured per phase, from the moment of the restart (or of the close): each client's
recovery (its socket dropped, reopened, and a board at least as new as the one it held
received: p50 / p95 / max), the time until every client is back, and until every client
holds the room's current board (each room acts once during the storm: the board every
client must end on is that action's); handshakes that failed and were retried, by cause;
clients never back within ``--timeout`` s; server CPU during the storm; and viewer renders
per reconnect, read from ``lobby.renders.renders`` in the daphne process. It exits 1 if
any client of either phase is not on its room's current board within the timeout.

The restarted daphne runs the same daphne command line through this file
(``--daphne-child``), which adds two signal handlers and nothing else: SIGUSR1 writes the
process's ``lobby.renders.renders`` to a file, SIGUSR2 closes every open websocket with
1000 (autobahn sends no other code below 3000; socket.js reopens 1000 with the same
backoff as 1006). The first daphne is the
plain one started by bench/server.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CHILD = "--daphne-child"


# -- the daphne child: the same command line, two signal handlers ---------------------------


def daphne_child(argv: list[str]) -> None:
    sys.path[0] = os.getcwd()  # the served checkout, not bench/ (daphne adds "." too)
    import daphne.server
    from daphne.cli import CommandLineInterface

    servers: list = []
    original = daphne.server.Server.__init__

    def init(self, *args, **kwargs) -> None:
        original(self, *args, **kwargs)
        servers.append(self)

    daphne.server.Server.__init__ = init
    counter = Path(os.environ["STORM_RENDERS_FILE"])

    def dump(signum, frame) -> None:
        module = sys.modules.get("lobby.renders")
        counter.write_text(str(getattr(module, "renders", -1)))

    def close_all(signum, frame) -> None:
        from twisted.internet import reactor

        reactor.callFromThread(_close_all, servers)

    signal.signal(signal.SIGUSR1, dump)
    signal.signal(signal.SIGUSR2, close_all)
    sys.argv = ["daphne", *argv]
    CommandLineInterface.entrypoint()


def _close_all(servers: list) -> None:
    from daphne.ws_protocol import WebSocketProtocol

    for server in servers:
        for protocol in list(server.connections):
            if isinstance(protocol, WebSocketProtocol) and protocol.state == protocol.STATE_OPEN:
                protocol.serverClose(code=1000)


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == CHILD:
    daphne_child(sys.argv[2:])
    sys.exit(0)


# -- the bench ------------------------------------------------------------------------------

import httpx  # noqa: E402
import websockets  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import VERSION, Player, Room, action_path, choose, pct, post  # noqa: E402
from bench.server import (  # noqa: E402
    READY,
    ROOT,
    SERVER_ROOT,
    Server,
    cpu_seconds,
    process_tree,
    serve,
)

REFUSED = (4404, 4429)  # the server's deliberate refusals: the page does not retry them


def reconnect_delay(retries: int) -> float:
    """static/platform/socket.js's wsReconnectDelay, in seconds."""
    return min(1000 * 2 ** min(retries, 6), 4000) * random.random() / 1000


@dataclass
class Client:
    player: Player
    room: Room
    seated: bool
    generation: int = 0  # sockets opened so far
    frames: list[tuple[float, int, int]] = field(default_factory=list)  # (time, gen, version)
    drops: list[float] = field(default_factory=list)
    failed: Counter = field(default_factory=Counter)  # failed handshakes by cause
    failed_at: list[float] = field(default_factory=list)
    refused: int | None = None  # a close code the page does not retry
    task: asyncio.Task | None = None

    def version(self) -> int:
        return max((v for _, _, v in self.frames), default=0)


async def keep_connected(client: Client, url: str, open_timeout: float) -> None:
    """One page's socket: open, read boards, and reopen with the page's backoff."""
    player = client.player
    cookie = "; ".join(f"{k}={v}" for k, v in player.http.cookies.items())
    headers = {"Cookie": cookie, "Origin": str(player.http.base_url)}
    retries = 0
    while True:
        try:
            socket = await websockets.connect(
                url,
                additional_headers=headers,
                max_size=2**22,
                open_timeout=open_timeout,
                ping_interval=None,
            )
        except (
            OSError,
            TimeoutError,
            websockets.InvalidHandshake,
            websockets.ConnectionClosed,
        ) as e:
            cause = type(e).__name__
            if isinstance(e, websockets.InvalidStatus):
                cause = f"HTTP {e.response.status_code}"
            client.failed[cause] += 1
            client.failed_at.append(time.perf_counter())
            await asyncio.sleep(reconnect_delay(retries))
            retries += 1
            continue
        retries = 0  # htmx:wsOpen resets the count
        client.generation += 1
        generation = client.generation
        player.socket = socket
        try:
            async for frame in socket:
                now = time.perf_counter()
                version = player.take(frame.encode() if isinstance(frame, str) else frame, now)
                if version is not None:
                    client.frames.append((now, generation, version))
        except websockets.ConnectionClosed:
            pass
        client.drops.append(time.perf_counter())
        code = socket.close_code if socket.close_code is not None else 1006
        if code in REFUSED:
            client.refused = code
            return
        await asyncio.sleep(reconnect_delay(retries))
        retries += 1


def ws_url(player: Player, code: str) -> str:
    return str(player.http.base_url).replace("http", "ws", 1) + f"/ws/r/{code}/"


async def make_room(url: str, seats: int, spectators: int, index: int) -> tuple[Room, list]:
    """A started Constellate game: ``seats`` seated players and ``spectators`` who joined by
    name without a seat (a session each, as a browser has)."""
    people = []
    for n in range(1, seats + spectators + 1):
        client = httpx.AsyncClient(base_url=url, timeout=30, limits=httpx.Limits(max_connections=2))
        people.append(Player(seat=n, http=client, name=f"P{index}-{n}"))
    host = people[0]
    await host.http.get("/")
    response = await host.http.post("/rooms", headers=host.csrf())
    code = response.headers["location"].strip("/").split("/")[-1]
    for n, person in enumerate(people):
        if person is not host:
            await person.http.get(f"/r/{code}/")
        joined = await post(person, f"/r/{code}/join", {"name": person.name})
        assert joined.status_code == 200, joined.text[:300]
        if n < seats:
            sat = await post(person, f"/r/{code}/sit", {"seat": person.seat})
            assert sat.status_code == 200, sat.text[:300]
    started = await post(host, f"/r/{code}/start", {})
    assert started.status_code == 200, started.text[:300]
    room = Room(code=code, players=people[:seats])  # the seated: bench.load.choose plays them
    return room, people


async def act_once(room: Room, rng: random.Random) -> tuple[int | None, float, str]:
    """One action in the room (the move bench.load would make), retried while the server
    is not answering; returns the answer's board version, when it was sent, and how it
    went."""
    deadline = time.perf_counter() + 20
    last = "no answer"
    while time.perf_counter() < deadline:
        choice = choose(room, rng)
        if choice is None:
            return None, time.perf_counter(), "nothing to do"
        player, action, data = choice
        sent = time.perf_counter()
        try:
            response = await post(player, action_path(player, room.code, action), data)
        except httpx.HTTPError as e:
            await asyncio.sleep(0.5)
            last = type(e).__name__
            continue
        found = VERSION.search(response.content)
        if response.status_code == 200 and found:
            return int(found.group(1)), sent, "ok"
        if response.status_code == 422:  # a word the game refuses: another one
            continue
        return None, sent, f"HTTP {response.status_code}"
    return None, time.perf_counter(), f"gave up ({last})"


def web_command(port: int, ping: int = 20) -> list[str]:
    """bench/server.py's daphne command line, run through this file's child mode."""
    return [
        sys.executable, str(Path(__file__).resolve()), CHILD,
        "-b", "127.0.0.1", "-p", str(port),
        "--ping-interval", str(ping), "--ping-timeout", str(ping * 2),
        "--access-log", os.devnull, "config.asgi:application",
    ]  # fmt: skip


@dataclass
class Web:
    """The daphne this bench restarted (bench/server.py stops the one it started)."""

    popen: subprocess.Popen | None = None
    renders_file: Path = field(
        default_factory=lambda: Path(tempfile.mkdtemp(prefix="storm-")) / "renders"
    )

    def renders(self) -> int | None:
        if self.popen is None or self.popen.poll() is not None:
            return None
        self.renders_file.unlink(missing_ok=True)
        self.popen.send_signal(signal.SIGUSR1)
        for _ in range(100):
            with contextlib.suppress(FileNotFoundError, ValueError):
                return int(self.renders_file.read_text())
            time.sleep(0.02)
        return None

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.popen.kill()


async def restart(server: Server, web: Web, port: int) -> dict:
    """Stop the running daphne as a deploy does (SIGTERM, SIGKILL after 15 s) and start it
    again on the same port; figures of the gap."""
    pid = web.popen.pid if web.popen is not None else server.pids["web1"]
    stopped = time.perf_counter()
    os.kill(pid, signal.SIGTERM)
    killed = False
    while _alive(pid):
        await asyncio.sleep(0.02)
        if time.perf_counter() - stopped > 15 and not killed:
            os.kill(pid, signal.SIGKILL)
            killed = True
    if web.popen is not None:
        web.popen.wait()
    gone = time.perf_counter()
    log = server.logdir / "web-storm.log"
    env = {**server.env, "STORM_RENDERS_FILE": str(web.renders_file)}
    web.popen = subprocess.Popen(
        web_command(port), cwd=SERVER_ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT
    )
    while READY["web"] not in log.read_bytes():
        if web.popen.poll() is not None:
            raise RuntimeError(f"the restarted daphne exited: {log.read_text()}")
        await asyncio.sleep(0.02)
    ready = time.perf_counter()
    return {
        "stop_s": gone - stopped,
        "stop_needed_sigkill": killed,
        "start_s": ready - gone,
        "down_s": ready - stopped,
        "ready_at": ready,
        "boot_cpu_s": cpu_seconds([web.popen.pid]),
    }


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie has exited: its parent reaps it later)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def storm(
    label: str,
    clients: list[Client],
    rooms: list[Room],
    server: Server,
    web: Web,
    port: int,
    timeout: float,
    rng: random.Random,
    room_version: dict[int, int],
) -> dict:
    before = {id(c): (c.generation, c.version()) for c in clients}
    failed_before = sum(sum(c.failed.values()) for c in clients)
    causes_before = sum((c.failed for c in clients), Counter())
    others = [p for name, pid in server.pids.items() if name != "web1" for p in process_tree(pid)]
    web_pid = web.popen.pid if web.popen is not None else server.pids["web1"]
    renders0 = web.renders() if label == "close" else 0
    cpu0 = cpu_seconds(others) + (cpu_seconds([web_pid]) if label == "close" else 0)
    start = time.perf_counter()
    result: dict = {"phase": label}
    if label == "restart":
        gap = await restart(server, web, port)
        ready = gap.pop("ready_at")
        result.update(gap)
        web_cpu0 = gap["boot_cpu_s"]  # the new process's own start is not storm work
    else:
        web.popen.send_signal(signal.SIGUSR2)
        ready = start
        web_cpu0 = 0.0
    acted = await asyncio.gather(*(act_once(room, rng) for room in rooms))
    for room, (version, _, _) in zip(rooms, acted, strict=True):
        if version is not None:
            room_version[id(room)] = max(room_version.get(id(room), 0), version)
    # the board every client must end on: the room's newest answer (a room whose storm
    # action was refused stays at the newest version any of its clients held or was told)
    target = {
        id(room): max(
            room_version.get(id(room), 0), *(before[id(c)][1] for c in clients if c.room is room)
        )
        for room in rooms
    }
    result["storm_actions"] = Counter(how for _, _, how in acted)
    deadline = start + timeout

    def back(c: Client) -> float | None:
        generation, version = before[id(c)]
        return min(
            (t for t, g, v in c.frames if g > generation and v >= version and t >= start),
            default=None,
        )

    def current(c: Client) -> float | None:
        version = target[id(c.room)]
        return min((t for t, _, v in c.frames if v >= version and t >= start), default=None)

    while time.perf_counter() < deadline:
        if all(current(c) is not None and back(c) is not None for c in clients):
            break
        if all(c.refused for c in clients if back(c) is None):
            break
        await asyncio.sleep(0.05)
    end = time.perf_counter()
    web_pids = process_tree(web.popen.pid)
    result["server_cpu_s"] = cpu_seconds(others) + cpu_seconds(web_pids) - web_cpu0 - cpu0
    renders1 = web.renders()
    backs = {id(c): back(c) for c in clients}
    currents = {id(c): current(c) for c in clients}
    recovery = []
    for c in clients:
        t = backs[id(c)]
        if t is not None:
            dropped = min((d for d in c.drops if d >= start), default=start)
            recovery.append(t - dropped)
    reconnects = sum(c.generation - before[id(c)][0] for c in clients)
    lost = [c for c in clients if backs[id(c)] is None or currents[id(c)] is None]
    causes = sum((c.failed for c in clients), Counter()) - causes_before
    result.update(
        {
            "clients": len(clients),
            "reconnects": reconnects,
            "recovery_ms": {
                "p50": pct(recovery, 50) * 1000,
                "p95": pct(recovery, 95) * 1000,
                "max": max(recovery, default=float("nan")) * 1000,
            },
            "all_back_s": max(backs.values()) - start if None not in backs.values() else None,
            "all_current_s": (
                max(currents.values()) - start if None not in currents.values() else None
            ),
            "after_ready_all_back_s": (
                max(backs.values()) - ready if None not in backs.values() else None
            ),
            "handshakes_failed": sum(sum(c.failed.values()) for c in clients) - failed_before,
            "handshakes_failed_after_ready": sum(
                1 for c in clients for t in c.failed_at if t >= ready
            ),
            "failed_by_cause": dict(causes),
            "clients_retrying_2plus": sum(
                1 for c in clients if sum(1 for t in c.failed_at if t >= start) >= 2
            ),
            "lost": len(lost),
            "lost_detail": [
                {
                    "room": c.room.code,
                    "name": c.player.name,
                    "seated": c.seated,
                    "refused": c.refused,
                    "back": backs[id(c)] is not None,
                    "version": c.version(),
                    "target": target[id(c.room)],
                    "failed": dict(c.failed),
                }
                for c in lost[:20]
            ],
            "measured_s": end - start,
            "renders": None if renders1 is None or renders0 is None else renders1 - renders0,
        }
    )
    result["renders_per_reconnect"] = (
        result["renders"] / reconnects if result["renders"] is not None and reconnects else None
    )
    result["server_cpu_ms_per_reconnect"] = (
        result["server_cpu_s"] * 1000 / reconnects if reconnects else None
    )
    return result


async def run(args: argparse.Namespace) -> dict:
    result: dict = {
        "rooms": args.rooms,
        "seats": args.seats,
        "spectators": args.spectators,
        "timeout_s": args.timeout,
        "load_average_before": os.getloadavg(),
    }
    rng = random.Random(args.seed)
    random.seed(args.seed)
    web = Web()
    clients: list[Client] = []
    with serve("default", web=1) as server:
        try:
            url = server.urls[0]
            port = int(url.rsplit(":", 1)[1])
            setup = time.perf_counter()
            for batch in range(0, args.rooms, 10):
                made = await asyncio.gather(
                    *(
                        make_room(url, args.seats, args.spectators, i)
                        for i in range(batch, min(batch + 10, args.rooms))
                    )
                )
                for room, people in made:
                    for n, person in enumerate(people):
                        client = Client(player=person, room=room, seated=n < args.seats)
                        client.task = asyncio.create_task(
                            keep_connected(client, ws_url(person, room.code), args.open_timeout)
                        )
                        clients.append(client)
            rooms = list({id(c.room): c.room for c in clients}.values())
            while not all(c.frames for c in clients):
                if time.perf_counter() - setup > 120:
                    raise RuntimeError(
                        f"{sum(not c.frames for c in clients)} clients never got a board"
                    )
                await asyncio.sleep(0.05)
            result["setup_s"] = time.perf_counter() - setup
            result["sockets"] = len(clients)
            result["setup_handshakes_failed"] = dict(sum((c.failed for c in clients), Counter()))
            await asyncio.sleep(2)
            phases = []
            room_version: dict[int, int] = {}  # room -> the newest version an action answered
            for label in ("restart", "close"):
                phase = await storm(
                    label, clients, rooms, server, web, port, args.timeout, rng, room_version
                )
                phase["load_average"] = os.getloadavg()
                phases.append(phase)
                print(row(phase), flush=True)
                await asyncio.sleep(2)
            result["phases"] = phases
        finally:
            for client in clients:
                if client.task is not None:
                    client.task.cancel()
            await asyncio.gather(*(c.task for c in clients if c.task), return_exceptions=True)
            for client in clients:
                if client.player.socket is not None:
                    with contextlib.suppress(Exception):
                        await client.player.socket.close()
                await client.player.http.aclose()
            web.stop()
    return result


def row(p: dict) -> str:
    r = p["recovery_ms"]
    back = p["all_back_s"]
    current = p["all_current_s"]
    return (
        f"{p['phase']:>8} | {p['clients']} clients, {p['reconnects']} reconnects | recovery "
        f"p50 {r['p50']:.0f} ms p95 {r['p95']:.0f} ms max {r['max']:.0f} ms | all back "
        f"{'never' if back is None else f'{back:.2f} s'}, all current "
        f"{'never' if current is None else f'{current:.2f} s'} | handshakes failed "
        f"{p['handshakes_failed']} ({p['handshakes_failed_after_ready']} after ready) | "
        f"lost {p['lost']} | cpu {p['server_cpu_s']:.2f} s | renders {p['renders']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4, help="seated players per room")
    parser.add_argument("--spectators", type=int, default=2, help="per room, joined unseated")
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds a client has to be back"
    )
    parser.add_argument(
        "--open-timeout", type=float, default=10.0, help="seconds a handshake may take"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    out = args.json or ROOT / "bench" / "results" / (
        f"storm-r{args.rooms}x{args.seats}+{args.spectators}-{int(time.time())}.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    print(f"written to {out}")
    verdicts = [verdict(p, args.timeout) for p in result["phases"]]
    print("\n".join(text for _, text in verdicts))
    if not all(ok for ok, _ in verdicts):
        sys.exit(1)


def verdict(p: dict, timeout: float) -> tuple[bool, str]:
    """Whether a phase's storm was survived: every client back on a new socket and on its
    room's current board within the timeout (a handshake that failed and was retried is not
    lost; a client still without its board at the end is)."""
    if p["lost"] == 0:
        return True, (
            f"{p['phase']}: survived, all {p['clients']} clients on the current board in "
            f"{p['all_current_s']:.1f} s (of {timeout:g} s)"
        )
    return False, f"{p['phase']}: NOT survived, {p['lost']} of {p['clients']} clients lost"


if __name__ == "__main__":
    main()
