"""Run the real background processes against a test database: the django-q2 cluster
(``manage.py qcluster``), the clock's tick (``manage.py clocktick``) and, if asked, daphne.

The processes reach the test's database through ``CONSTELLATE_SQLITE_PATH``, so use it
from a ``transaction=True`` test (its writes are committed, so they see them)::

    @pytest.fixture
    def cluster(transactional_db):
        with run_cluster(web=True) as running:
            yield running

    def test_something(cluster):
        ... cluster.url ...  # daphne's base URL, when web=True
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
READY = {
    "qcluster": "running.",  # django-q2: "Q Cluster <name> [<cluster>] running."
    "clocktick": "clocktick running",
    "daphne": "Listening on TCP address",
}


@dataclass
class Process:
    name: str
    popen: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@dataclass
class Cluster:
    database: str
    processes: list[Process] = field(default_factory=list)
    url: str | None = None  # daphne's base URL (web=True), e.g. "http://127.0.0.1:8123"
    ws_url: str | None = None  # the same for websockets, e.g. "ws://127.0.0.1:8123"

    def logs(self) -> str:
        """Every process's output, for an assertion message."""
        return "\n".join(f"--- {p.name} ---\n{p.output()[-4000:]}" for p in self.processes)

    def check_alive(self) -> None:
        dead = [p.name for p in self.processes if p.popen.poll() is not None]
        assert not dead, f"{', '.join(dead)} exited early\n{self.logs()}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def run_cluster(
    *,
    database: str | None = None,
    web: bool = False,
    tick: bool = True,
    env: dict[str, str] | None = None,
    ready_timeout: float = 30.0,
) -> Iterator[Cluster]:
    """Start the processes, wait until each says it is ready, and stop them all after."""
    database = database or str(connection.settings_dict["NAME"])
    child_env = {
        **os.environ,
        "CONSTELLATE_SQLITE_PATH": database,
        "CONSTELLATE_DB_NAME": database,  # PostgreSQL: the test database, by name
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CONSTELLATE_LOG_LEVEL": "INFO",  # readiness is read from the INFO lines
        **(env or {}),
    }
    python = sys.executable
    commands = {"qcluster": [python, "manage.py", "qcluster"]}
    if tick:
        commands["clocktick"] = [python, "manage.py", "clocktick"]
    cluster = Cluster(database=database)
    if web:
        port = free_port()
        commands["daphne"] = [
            python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"
        ]  # fmt: skip
        cluster.url = f"http://127.0.0.1:{port}"
        cluster.ws_url = f"ws://127.0.0.1:{port}"
    logdir = Path(tempfile.mkdtemp(prefix="constellate-cluster-"))
    try:
        for name, command in commands.items():
            log = logdir / f"{name}.log"
            with log.open("wb") as out:
                popen = subprocess.Popen(
                    command, cwd=ROOT, env=child_env, stdout=out, stderr=subprocess.STDOUT
                )
            cluster.processes.append(Process(name, popen, log))
        _wait_ready(cluster, ready_timeout)
        yield cluster
    finally:
        _stop(cluster.processes)


def _wait_ready(cluster: Cluster, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    waiting = {p.name: p for p in cluster.processes}
    while waiting:
        for name, process in list(waiting.items()):
            if READY[name] in process.output():
                del waiting[name]
        cluster.check_alive()
        if time.monotonic() > deadline:
            raise AssertionError(f"not ready: {', '.join(waiting)}\n{cluster.logs()}")
        time.sleep(0.05)


def _stop(processes: list[Process]) -> None:
    for process in processes:
        if process.popen.poll() is None:
            process.popen.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 15
    for process in processes:
        try:
            process.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.popen.kill()
            process.popen.wait()
