"""Start the real server for a benchmark: a fresh database, N daphne processes, the q2
cluster and its clock tick, in the embedded default or on PostgreSQL + Redis.

On a machine of two or more cores the server and the bench's clients are kept apart
(``taskset``'s ``sched_setaffinity``): every server process (daphne, q2 and its workers, the
clock tick, and PostgreSQL and Redis in the scale-out configuration) on the first core, the
process that started it (the clients) on the others. Their CPU figures then separate: the
server's CPU per action is not inflated by the clients competing for the same core, and a
server that saturates shows it as its own core's time. ``BENCH_PIN=0`` shares every core."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The checkout whose server is started: this one, or another one (bench/compare.py runs the
# same bench against an old commit checked out elsewhere, with this checkout's venv).
SERVER_ROOT = Path(os.environ.get("BENCH_SERVER_ROOT") or ROOT).resolve()
PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres:postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
PIN = os.environ.get("BENCH_PIN", "1") != "0" and len(os.sched_getaffinity(0)) >= 2
_STARTED = itertools.count()  # servers started by this process
READY = {"qcluster": b"running.", "clocktick": b"clocktick running", "web": b"Listening on TCP"}


@dataclass
class Server:
    config: str
    env: dict[str, str]
    urls: list[str] = field(default_factory=list)
    pids: dict[str, int] = field(default_factory=dict)  # name -> pid
    server_cores: set[int] = field(default_factory=set)  # empty: not pinned
    client_cores: set[int] = field(default_factory=set)
    logdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-")))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _fresh_database(config: str, workdir: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
        "CONSTELLATE_VAR_DIR": str(workdir),
        "CONSTELLATE_RATE_ACTIONS": "100000",
        "CONSTELLATE_RATE_ROOMS_IP": "100000",  # every bench player comes from 127.0.0.1
        "CONSTELLATE_RATE_JOINS_IP": "100000",
        "CONSTELLATE_RATE_TICKS_IP": "100000",
        "CONSTELLATE_LOG_LEVEL": "INFO",  # each process says it is ready at INFO
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    if config == "scale":
        name = f"bench_{os.getpid()}_{next(_STARTED)}"  # two servers may run at once
        admin = PG_URL.rsplit("/", 1)[0] + "/postgres"
        _psql(admin, f'DROP DATABASE IF EXISTS "{name}"')
        _psql(admin, f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = PG_URL.rsplit("/", 1)[0] + f"/{name}"
        env["REDIS_URL"] = REDIS_URL
        env["CONSTELLATE_REDIS_PREFIX"] = name.replace("_", "")
    else:
        env["CONSTELLATE_SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=SERVER_ROOT,
        env=env,
        check=True,
    )
    return env


def _psql(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


@contextlib.contextmanager
def serve(config: str = "default", web: int = 1, ping: int = 20) -> Iterator[Server]:
    workdir = Path(tempfile.mkdtemp(prefix="bench-var-"))
    env = _fresh_database(config, workdir)
    server = Server(config=config, env=env)
    python = sys.executable
    commands = {
        "qcluster": [python, "manage.py", "qcluster"],
        "clocktick": [python, "manage.py", "clocktick"],
    }
    for n in range(web):
        port = _free_port()
        commands[f"web{n + 1}"] = [
            python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
            "--ping-interval", str(ping), "--ping-timeout", str(ping * 2),
            "--access-log", os.devnull, "config.asgi:application",
        ]  # fmt: skip
        server.urls.append(f"http://127.0.0.1:{port}")
    popens: dict[str, subprocess.Popen] = {}
    everywhere = os.sched_getaffinity(0)
    services: dict[int, set[int]] = {}  # PostgreSQL's and Redis's processes, as they were
    if PIN:
        server.server_cores = {min(everywhere)}
        server.client_cores = everywhere - server.server_cores
    try:
        for name, command in commands.items():
            log = (server.logdir / f"{name}.log").open("wb")
            popens[name] = subprocess.Popen(
                command,
                cwd=SERVER_ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=_pinned(server.server_cores),
            )
            server.pids[name] = popens[name].pid
        if config == "scale" and PIN:
            services = _pin_services(server.server_cores)
        if PIN:
            os.sched_setaffinity(0, server.client_cores)
        _wait_ready(server, popens)
        yield server
    finally:
        os.sched_setaffinity(0, everywhere)
        for pid, cores in services.items():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, cores)
        for popen in popens.values():
            if popen.poll() is None:
                popen.send_signal(signal.SIGTERM)
        for popen in popens.values():
            try:
                popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                popen.kill()
        if config == "scale":
            name = env["DATABASE_URL"].rsplit("/", 1)[1]
            with contextlib.suppress(Exception):
                _psql(PG_URL.rsplit("/", 1)[0] + "/postgres", f'DROP DATABASE IF EXISTS "{name}"')


def _pinned(cores: set[int]) -> Callable[[], None] | None:
    """What a server process runs before it starts: keep to ``cores`` (none: anywhere)."""
    if not cores:
        return None
    return lambda: os.sched_setaffinity(0, cores)


def _pin_services(cores: set[int]) -> dict[int, set[int]]:
    """PostgreSQL's and Redis's processes (the postmaster's new backends inherit it) kept to
    ``cores``; returns what each had, to put back when the bench ends."""
    before = {}
    for pid in pids_named("postgres", "postmaster", "redis-server"):
        with contextlib.suppress(OSError):
            before[pid] = os.sched_getaffinity(pid)
            os.sched_setaffinity(pid, cores)
    return before


def _wait_ready(server: Server, popens: dict[str, subprocess.Popen]) -> None:
    deadline = time.monotonic() + 60
    waiting = set(popens)
    while waiting:
        for name in list(waiting):
            if popens[name].poll() is not None:
                raise RuntimeError(f"{name} exited: {(server.logdir / f'{name}.log').read_text()}")
            key = "web" if name.startswith("web") else name
            if READY[key] in (server.logdir / f"{name}.log").read_bytes():
                waiting.discard(name)
        if time.monotonic() > deadline:
            raise RuntimeError(f"not ready: {waiting}")
        time.sleep(0.05)


def process_tree(pid: int) -> list[int]:
    """A process and all its descendants (the q2 cluster forks workers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def pids_named(*names: str) -> list[int]:
    """Every process whose command name is one of ``names`` (postgres, redis-server)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                comm = Path(f"/proc/{entry}/comm").read_text().strip()
            except OSError:
                continue
            if comm in names or any(comm.startswith(n) for n in names):
                found.append(int(entry))
    return found


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total
