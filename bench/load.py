"""A party night on one machine: R rooms of P seated players, each a real client (an HTTP
session with cookies and CSRF, and a websocket), playing real Constellate turns.

    .venv/bin/python bench/load.py                        # embedded default, 50 rooms x 6
    .venv/bin/python bench/load.py --config scale --web 2 --rooms 200
    .venv/bin/python bench/load.py --config scale --web 2 --capacity

Each action is sent as the served tree's page sends it: a frame on the player's socket
(lobby/socket_actions.py), or a POST on a tree from before. For every action it measures the
time from sending it to the moment every websocket of that room holds the board carrying
the new version ("action-to-every-screen"), and
reports percentiles, actions/s, errors, the server's CPU per action and memory (from
/proc), memory per idle room, the game page's load time, and micro-figures (fold, render,
clue check). Results go to a JSON file (bench/results/, gitignored) and a table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.server import (  # noqa: E402
    ROOT,
    SERVER_ROOT,
    Server,
    cpu_seconds,
    pids_named,
    process_tree,
    rss_bytes,
    serve,
)

WORDS = (  # noqa: SIM905
    "ocean history freedom justice journey science garden winter summer music travel "
    "family friend energy silver golden forest desert island river market palace storm "
    "thunder shadow mirror dream memory wisdom courage danger mystery legend battle "
    "victory harvest village kingdom engine circuit planet galaxy spirit motion signal "
    "silence echo glory honor treasure pirate castle dragon knight magic wonder "
    "autumn spring morning evening harbor meadow valley canyon glacier volcano orbit "
    "lantern candle anchor voyage rhythm melody poem story riddle puzzle secret "
    "promise shelter bridge tower temple orchard prairie tundra jungle reef lagoon"
).split()
# The version a frame or an answer shows: a whole board's (its first mark), or the areas'
# of a change pushed as areas (each carries the version it shows).
VERSION = re.compile(rb'data-version="(\d+)"')
# The step and the crew: on the status area since the board's frame stays the same all game,
# on the board's frame in a checkout from before (compare.py runs this bench there too).
STEP = re.compile(r'class="(?:board|status) [^"]*step-(\w+) crew-(\w+)[^"]*"')
# A socket's answer to an action sent over it: a frame of the notice alone (the server's
# lobby/socket_actions.py), an error's with "notice error".
ANSWER = b'<p id="notice"'
REFUSAL = re.compile(rb'class="notice error"[^>]*>(.*?)</p>', re.S)
# What the server says when an action failed on its side, not the player's (an error, not a
# refusal): lobby/socket_actions.py and games/middleware.py.
FAILED = (b"That did not work", b"The table is busy", b"Something you sent cannot be stored")
# The served tree takes a seated player's actions over the room's socket, as its page sends
# them while the socket is open (static/platform/socket.js); a tree from before takes POSTs.
OVER_SOCKET = (SERVER_ROOT / "lobby" / "socket_actions.py").exists()
CARD = re.compile(r'name="card" value="(\d+)"[^>]*?class="card( lit)?(?: key-(\w+))?"')


@dataclass
class Player:
    seat: int
    http: httpx.AsyncClient
    name: str
    seen: dict[int, float] = field(default_factory=dict)  # board version -> first arrival
    board: str = ""  # the latest whole board this player's socket received
    step: tuple[str, str] | None = None  # the step and the active crew shown
    step_version: int = 0  # the version they were read from
    cards: dict[int, tuple[bool, str | None]] = field(default_factory=dict)  # lit, key
    can_stop: bool = False  # the panel offers "Stop and bank a touch"
    socket: object = None
    reader: asyncio.Task | None = None
    answers: asyncio.Queue = field(default_factory=asyncio.Queue)  # the socket's notices

    def take(self, data: bytes, now: float) -> int | None:
        """A frame from the socket: a whole board, or the areas of one change (the cards it
        lit, the panel); what the player shows now is updated from it. Its version, if any."""
        if data.startswith(ANSWER):  # the socket's answer to this player's action
            self.answers.put_nowait((now, data))
            return None
        found = VERSION.search(data)
        if not found:
            return None
        version = int(found.group(1))
        self.seen.setdefault(version, now)
        html = data.decode()
        if 'id="board"' in html:
            self.board, self.cards = html, {}
        found_step = STEP.search(html)
        if found_step and version >= self.step_version:  # not a frame overtaken by a newer one
            self.step, self.step_version = (found_step.group(1), found_step.group(2)), version
        for index, lit, key in CARD.findall(html):
            self.cards[int(index)] = (bool(lit), key or None)
        if 'id="board"' in html or 'id="panel"' in html:
            self.can_stop = 'class="stop"' in html
        return version

    def csrf(self) -> dict[str, str]:
        return {"X-CSRFToken": self.http.cookies.get("csrftoken", ""), "HX-Request": "true"}


@dataclass
class Room:
    code: str
    players: list[Player]
    bad_words: set[str] = field(default_factory=set)
    used_words: set[str] = field(default_factory=set)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    errors: int = 0
    timeouts: int = 0
    rematches: int = 0


# -- setting the party up ----------------------------------------------------------------------


async def post(player: Player, path: str, data: dict) -> httpx.Response:
    return await player.http.post(path, data=data, headers=player.csrf())


async def make_room(urls: list[str], size: int, index: int, route: str = "spread") -> Room:
    """A room of ``size`` players, started. With several processes, ``route`` says where
    each player's browser goes: ``spread``, the players of a room over every process (a
    proxy's round robin); ``room``, every player of a room to the same one (a proxy that
    routes by the room's link, as the README's nginx example does)."""
    players = []
    for seat in range(1, size + 1):
        at = index + seat if route == "spread" else index
        base = urls[at % len(urls)]
        client = httpx.AsyncClient(
            base_url=base, timeout=30, limits=httpx.Limits(max_connections=2)
        )
        players.append(Player(seat=seat, http=client, name=f"P{index}-{seat}"))
    host = players[0]
    await host.http.get("/")
    response = await host.http.post("/rooms", headers=host.csrf())
    code = response.headers["location"].strip("/").split("/")[-1]
    for player in players:
        if player is not host:
            await player.http.get(f"/r/{code}/")
        assert (await post(player, f"/r/{code}/join", {"name": player.name})).status_code == 200
        assert (await post(player, f"/r/{code}/sit", {"seat": player.seat})).status_code == 200
    started = await post(host, f"/r/{code}/start", {})
    assert started.status_code == 200, started.text[:300]
    room = Room(code=code, players=players)
    for player in players:
        await connect(room, player)
    return room


async def connect(room: Room, player: Player) -> None:
    ws_url = str(player.http.base_url).replace("http", "ws", 1) + f"/ws/r/{room.code}/"
    cookie = "; ".join(f"{k}={v}" for k, v in player.http.cookies.items())
    player.socket = await websockets.connect(
        ws_url,
        additional_headers={"Cookie": cookie, "Origin": str(player.http.base_url)},
        max_size=2**22,
        open_timeout=30,
        ping_interval=None,
    )
    player.reader = asyncio.create_task(read(player))


async def read(player: Player) -> None:
    try:
        async for frame in player.socket:
            now = time.perf_counter()
            player.take(frame.encode() if isinstance(frame, str) else frame, now)
    except websockets.ConnectionClosed:
        pass


# -- playing ---------------------------------------------------------------------------------


def sky_view(room: Room) -> tuple[str, str, list[tuple[int, bool, str | None]]] | None:
    """Step, active crew and cards as seat 1 sees them: a Stargazer, who sees the key (K4)."""
    seat_1 = room.players[0]
    if seat_1.step is None:
        return None
    step, crew = seat_1.step
    return step, crew, [(i, lit, key) for i, (lit, key) in sorted(seat_1.cards.items())]


def choose(room: Room, rng: random.Random) -> tuple[Player, str, dict] | None:
    view = sky_view(room)
    if view is None:
        return None
    step, crew, cards = view
    rivalry = len(room.players) >= 4
    team = [p for p in room.players if not rivalry or (p.seat % 2 == 1) == (crew == "gold")]
    gazer, spotters = team[0], team[1:]
    version = max(room.players[0].seen, default=0)
    if step == "naming":
        words = [w for w in WORDS if w not in room.bad_words and w not in room.used_words]
        if not words:  # a long game at a fast pace: a word refused for an earlier sky may do
            room.bad_words.clear()
            words = [w for w in WORDS if w not in room.used_words] or list(WORDS)
        word = rng.choice(words)
        room.used_words.add(word)
        dark_own = [c for c in cards if not c[1] and c[2] == crew]
        number = rng.randint(1, max(1, min(2, len(dark_own))))
        return gazer, "name", {"word": word, "number": number, "version": version}
    if step == "spotting":
        spotter = rng.choice(spotters)
        if spotter.can_stop and rng.random() < 0.25:
            return spotter, "stop", {"version": version}
        dark = [c for c in cards if not c[1]]
        own = [c for c in dark if c[2] == crew]
        pick = rng.choice(own) if own and rng.random() < 0.75 else rng.choice(dark)
        return spotter, "touch", {"card": pick[0], "version": version}
    return None


def action_path(player: Player, code: str, action: str) -> str:
    """Where the board posts an action: ``/r/<code>/play/<action>`` since the room serves
    every game's actions, ``/r/<code>/<action>`` on a checkout from before (compare.py
    runs this bench against an older commit too)."""
    prefix = "play/" if f"/r/{code}/play/" in player.board else ""
    return f"/r/{code}/{prefix}{action}"


async def act(room: Room, rng: random.Random, tally: Tally, timeout: float = 10.0) -> None:
    view = sky_view(room)
    if view is not None and view[0] == "ended":
        return await rematch(room, tally)
    choice = choose(room, rng)
    if choice is None:
        return
    player, action, data = choice
    start = time.perf_counter()
    deadline = start + timeout
    if OVER_SOCKET:
        version = await act_over_socket(room, player, action, data, tally, deadline)
    else:
        version = await act_over_http(room, player, action, data, tally)
    if version is None:
        return
    tally.actions += 1
    while True:
        arrivals = [
            min((t for v, t in p.seen.items() if v >= version), default=None) for p in room.players
        ]
        if all(a is not None for a in arrivals):
            tally.latencies.append(max(arrivals) - start)
            return
        if time.perf_counter() > deadline:
            tally.timeouts += 1
            return
        await asyncio.sleep(0.002)


async def act_over_http(
    room: Room, player: Player, action: str, data: dict, tally: Tally
) -> int | None:
    """The action as a POST: the version its answer shows, or None (refused, failed)."""
    try:
        response = await post(player, action_path(player, room.code, action), data)
    except httpx.HTTPError:
        tally.errors += 1
        return None
    if response.status_code == 422:
        room.bad_words.add(data.get("word", ""))
        tally.refused += 1
        return None
    if response.status_code != 200:
        tally.refused += 1 if response.status_code in (400, 403, 409) else 0
        tally.errors += 0 if response.status_code in (400, 403, 409) else 1
        return None
    found = VERSION.search(response.content)
    if not found:
        tally.errors += 1
        return None
    return int(found.group(1))


async def act_over_socket(
    room: Room, player: Player, action: str, data: dict, tally: Tally, deadline: float
) -> int | None:
    """The action over the player's socket, as the page sends it: the version it makes
    (the one it was sent from, plus one), or None (refused, failed, no answer)."""
    while not player.answers.empty():  # a late answer to an action that timed out
        player.answers.get_nowait()
    fields = [[name, str(value)] for name, value in data.items()]
    try:
        await player.socket.send(json.dumps({"act": action, "fields": fields}))
        _, answer = await asyncio.wait_for(player.answers.get(), deadline - time.perf_counter())
    except (websockets.ConnectionClosed, TimeoutError):
        tally.errors += 1
        return None
    refusal = REFUSAL.search(answer)
    if refusal is None:
        return int(data["version"]) + 1
    if any(failed in refusal.group(1) for failed in FAILED):
        tally.errors += 1
    else:
        tally.refused += 1
        if action == "name":  # a word refused (W1-W8), or a stale version: not again
            room.bad_words.add(data.get("word", ""))
    return None


async def rematch(room: Room, tally: Tally) -> None:
    response = await post(room.players[0], f"/r/{room.code}/start", {})
    if response.status_code == 200:
        tally.rematches += 1
        for player in room.players:
            player.seen.clear()
            player.step_version = 0
        room.used_words.clear()
        await asyncio.sleep(0.5)  # the new boards arrive through the lobby push


async def play(room: Room, pace: float, until: float, rng: random.Random, tally: Tally) -> None:
    while True:
        await asyncio.sleep(rng.expovariate(1 / pace))
        if time.perf_counter() >= until:
            return
        await act(room, rng, tally)


# -- measuring -------------------------------------------------------------------------------


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def server_pids(server: Server) -> dict[str, list[int]]:
    groups = {name: process_tree(pid) for name, pid in server.pids.items()}
    if server.config == "scale":
        groups["postgres"] = pids_named("postgres", "postmaster")
        groups["redis"] = pids_named("redis-server")
    return groups


def all_pids(groups: dict[str, list[int]]) -> list[int]:
    return [pid for pids in groups.values() for pid in pids]


async def page_load(room: Room, samples: int = 30) -> list[float]:
    player = room.players[-1]
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        response = await player.http.get(f"/r/{room.code}/")
        times.append(time.perf_counter() - start)
        assert response.status_code == 200
    return times


async def idle_room_cost(server: Server, rooms: int = 20, size: int = 8) -> float:
    """Server memory (all processes) per idle room of ``size`` with its sockets open, after
    a few warm-up rooms have paid the one-off costs (database pool connections, caches)."""
    await close([await make_room(server.urls, size, 20_000 + i) for i in range(4)])
    groups = server_pids(server)
    await asyncio.sleep(1)
    before = rss_bytes(all_pids(groups))
    made = [await make_room(server.urls, size, 10_000 + i) for i in range(rooms)]
    await asyncio.sleep(2)
    after = rss_bytes(all_pids(server_pids(server)))
    await close(made)
    return (after - before) / rooms


async def close(rooms: list[Room]) -> None:
    for room in rooms:
        for player in room.players:
            if player.socket is not None:
                await player.socket.close()
            await player.http.aclose()


async def phase(rooms: list[Room], pace: float, seconds: float, seed: int) -> Tally:
    tally = Tally()
    until = time.perf_counter() + seconds
    rngs = [random.Random(seed * 100_003 + i) for i in range(len(rooms))]
    await asyncio.gather(
        *(play(r, pace, until, g, tally) for r, g in zip(rooms, rngs, strict=True))
    )
    return tally


def summarize(tally: Tally, seconds: float, cpu: dict[str, float], label: str) -> dict:
    """One phase's figures; ``cpu`` is each server process group's CPU seconds in it."""
    ms = [x * 1000 for x in tally.latencies]
    total = sum(cpu.values())
    return {
        "label": label,
        "actions": tally.actions,
        "actions_per_s": tally.actions / seconds,
        "p50_ms": pct(ms, 50),
        "p95_ms": pct(ms, 95),
        "p99_ms": pct(ms, 99),
        "max_ms": max(ms, default=float("nan")),
        "refused": tally.refused,
        "errors": tally.errors,
        "timeouts": tally.timeouts,
        "rematches": tally.rematches,
        "server_cpu_s": total,
        "cpu_ms_per_action": total * 1000 / tally.actions if tally.actions else float("nan"),
        "cpu_ms_per_action_by_process": {
            name: seconds * 1000 / tally.actions if tally.actions else float("nan")
            for name, seconds in cpu.items()
        },
    }


def cpu_by_group(server: Server) -> dict[str, float]:
    """CPU seconds so far of each server process group: the web processes, q2, the tick,
    and in the scale-out configuration PostgreSQL and Redis."""
    return {name: cpu_seconds(pids) for name, pids in server_pids(server).items()}


async def run(args: argparse.Namespace) -> dict:
    result: dict = {
        "config": args.config,
        "web": args.web,
        "rooms": args.rooms,
        "players": args.players,
        "route": args.route,
        "pace_s": args.pace,
        "seconds": args.seconds,
    }
    with serve(args.config, web=args.web) as server:
        result["idle_room_of_8_kb"] = await idle_room_cost(server) / 1024
        result["memory_per_socket_kb"] = result["idle_room_of_8_kb"] / 8  # room rows included
        setup = time.perf_counter()
        rooms: list[Room] = []
        for batch in range(0, args.rooms, 20):
            rooms += await asyncio.gather(
                *(
                    make_room(server.urls, args.players, i, args.route)
                    for i in range(batch, min(batch + 20, args.rooms))
                )
            )
        result["setup_s"] = time.perf_counter() - setup
        result["server_cores"] = sorted(server.server_cores)  # empty: every core shared
        result["client_cores"] = sorted(server.client_cores)
        groups = server_pids(server)
        web_pids = [pid for name, pids in groups.items() if name.startswith("web") for pid in pids]
        result["sockets"] = sum(len(r.players) for r in rooms)
        result["web_rss_mb"] = rss_bytes(web_pids) / 2**20
        await asyncio.sleep(2)
        phases = []
        for i, pace in enumerate(ladder(args)):
            print(f"measuring: pace {pace}s for {args.seconds:g}s", flush=True)  # for a profiler
            cpu0 = cpu_by_group(server)
            tally = await phase(rooms, pace, args.seconds, seed=args.seed + i)
            cpu = {name: s - cpu0.get(name, 0.0) for name, s in cpu_by_group(server).items()}
            phases.append({**summarize(tally, args.seconds, cpu, f"pace {pace}s"), "pace_s": pace})
            print(table_row(phases[-1]), flush=True)
            if args.capacity and pace <= args.pace and not kept_up(phases[-1], args.capacity_p95):
                break  # a faster pace will not keep up either; the backlog would only grow
        result["phases"] = phases
        if args.capacity:
            result["capacity_p95"] = args.capacity_p95
            ok = [p for p in phases if kept_up(p, args.capacity_p95)]
            result["capacity_actions_per_s"] = max((p["actions_per_s"] for p in ok), default=0)
        result["page_load_ms"] = {
            "p50": statistics.median(t * 1000 for t in await page_load(rooms[0])),
        }
        result["server_rss_mb"] = {
            name: rss_bytes(pids) / 2**20 for name, pids in server_pids(server).items()
        }
        await close(rooms)
        result["micro"] = micro(server)
    return result


CAPACITY_PACES = (5.0, 2.5, 1.25, 0.8, 0.5, 0.3)


def ladder(args: argparse.Namespace) -> list[float]:
    """The phases' paces, slowest first: the default pace alone, or for ``--capacity`` the
    ladder (``--paces``) with the default pace always in it, so its figures are compared
    even where the server misses at a slower pace."""
    if not args.capacity:
        return [args.pace]
    return sorted({*(args.paces or CAPACITY_PACES), args.pace}, reverse=True)


def kept_up(p: dict, p95_ms: float) -> bool:
    """A phase the server kept up with: p95 within the limit, no error and no timeout."""
    return p["p95_ms"] <= p95_ms and p["errors"] == 0 and p["timeouts"] == 0


def micro(server: Server) -> dict:
    """Fold, render and clue check, timed in a process of their own on the bench database
    (the served checkout's own micro bench, if it has one)."""
    script = SERVER_ROOT / "bench" / "micro.py"
    if not script.exists():
        return {}
    out = subprocess.run(
        [sys.executable, str(script)], cwd=SERVER_ROOT, env=server.env, capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    if out.returncode != 0 or not out.stdout.strip():
        return {"failed": out.stderr.strip().splitlines()[-1:] or ["no output"]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def table_row(p: dict) -> str:
    return (
        f"{p['label']:>12} | {p['actions']:6d} actions {p['actions_per_s']:7.1f}/s | "
        f"p50 {p['p50_ms']:7.1f} ms  p95 {p['p95_ms']:7.1f} ms  p99 {p['p99_ms']:7.1f} ms | "
        f"errors {p['errors']} timeouts {p['timeouts']} refused {p['refused']} | "
        f"cpu/action {p['cpu_ms_per_action']:.1f} ms ("
        + ", ".join(f"{k} {v:.1f}" for k, v in p["cpu_ms_per_action_by_process"].items())
        + ")"
    )


def paces(text: str) -> list[float]:
    """``--paces``: positive seconds, comma-separated."""
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not seconds, comma-separated: {text!r}") from None
    if any(not v > 0 for v in values):  # NaN included
        raise argparse.ArgumentTypeError(f"every pace must be more than 0 s: {text!r}")
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", choices=["default", "scale"], default="default")
    parser.add_argument("--web", type=int, default=1, help="daphne processes")
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument(
        "--route",
        choices=["spread", "room"],
        default="spread",
        help="with several daphnes: a room's players spread over them, or all at one",
    )
    parser.add_argument(
        "--pace", type=float, default=5.0, help="mean seconds between a room's actions"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="length of a measured phase")
    parser.add_argument("--capacity", action="store_true", help="step the pace up to find capacity")
    parser.add_argument(
        "--capacity-p95",
        type=float,
        default=100.0,
        help="capacity: the most actions/s whose p95 stays within this many ms (default 100)",
    )
    parser.add_argument(
        "--paces",
        type=paces,
        default=None,
        help="capacity: the ladder's seconds between a room's actions, comma-separated "
        f"(default {','.join(f'{p:g}' for p in CAPACITY_PACES)}); from the default pace on, "
        "the ladder stops at the first phase that misses",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    out = args.json or ROOT / "bench" / "results" / (
        f"load-{args.config}-w{args.web}-r{args.rooms}x{args.players}-{int(time.time())}.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps({k: v for k, v in result.items() if k != "phases"}, indent=2))
    print(f"written to {out}")


if __name__ == "__main__":
    main()
