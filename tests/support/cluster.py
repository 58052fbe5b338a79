"""Run the real background processes against a test database: the django-q2 cluster
(``manage.py qcluster``), the clock's tick (``manage.py clocktick``) and, if asked, one or
more daphne processes.

The processes reach the test's database through ``CONSTELLATE_SQLITE_PATH`` (SQLite) or
``CONSTELLATE_DB_NAME`` (PostgreSQL), so use it from a ``transaction=True`` test (its writes
are committed, so they see them)::

    @pytest.fixture
    def cluster(transactional_db):
        with run_cluster(web=True) as running:
            yield running

    def test_something(cluster):
        ... cluster.url ...  # daphne's base URL, when web=True

``web=2`` starts two daphne processes on two ports (``cluster.urls``, ``cluster.ws_urls``;
``cluster.url`` is the first). For fault tests a process can be killed (SIGKILL, with its
whole process group: qcluster's workers too), stopped gracefully, and started again (a
daphne on the same port)::

    cluster.kill("daphne")      # or cluster.webs[1], "qcluster", ...
    cluster.start("daphne")     # the same command again; waits until it is ready
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
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
    command: list[str]
    log: Path
    ready: str  # the line that says it is ready (in this run's output)
    popen: subprocess.Popen | None = None
    port: int | None = None  # daphne's
    runs: int = 0  # how many times it was started
    down: bool = False  # killed or stopped on purpose (Cluster.kill/stop), not a crash
    _offset: int = 0  # where this run's output starts in the log

    @property
    def url(self) -> str | None:
        return None if self.port is None else f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str | None:
        return None if self.port is None else f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.popen is not None, f"{self.name} was never started"
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def output(self) -> str:
        """Everything it printed, over all its runs."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def run_output(self) -> str:
        """What this run printed (after a restart, not the earlier runs)."""
        if not self.log.exists():
            return ""
        with self.log.open("rb") as log:
            log.seek(self._offset)
            return log.read().decode(errors="replace")

    def rss_kb(self) -> int:
        """Resident memory of the process (not its children), in kB."""
        status = Path(f"/proc/{self.pid}/status").read_text()
        line = next(x for x in status.splitlines() if x.startswith("VmRSS:"))
        return int(line.split()[1])


@dataclass
class Cluster:
    database: str
    env: dict[str, str] = field(default_factory=dict)
    processes: list[Process] = field(default_factory=list)
    ready_timeout: float = 30.0

    # -- the web processes ---------------------------------------------------------------
    @property
    def webs(self) -> list[Process]:
        return [p for p in self.processes if p.port is not None]

    @property
    def urls(self) -> list[str]:
        return [str(p.url) for p in self.webs]

    @property
    def ws_urls(self) -> list[str]:
        return [str(p.ws_url) for p in self.webs]

    @property
    def url(self) -> str | None:
        """The first daphne's base URL (web=True), e.g. "http://127.0.0.1:8123"."""
        return self.urls[0] if self.webs else None

    @property
    def ws_url(self) -> str | None:
        """The same for websockets, e.g. "ws://127.0.0.1:8123"."""
        return self.ws_urls[0] if self.webs else None

    # -- looking ---------------------------------------------------------------------------
    def process(self, which: str | Process) -> Process:
        if isinstance(which, Process):
            return which
        for process in self.processes:
            if process.name == which:
                return process
        raise KeyError(f"no process {which!r} (have {[p.name for p in self.processes]})")

    def logs(self) -> str:
        """Every process's output, for an assertion message."""
        return "\n".join(f"--- {p.name} ---\n{p.output()[-4000:]}" for p in self.processes)

    def check_alive(self) -> None:
        dead = [p.name for p in self.processes if p.popen and not p.down and not p.alive()]
        assert not dead, f"{', '.join(dead)} exited early\n{self.logs()}"

    # -- faults ----------------------------------------------------------------------------
    def kill(self, which: str | Process) -> None:
        """SIGKILL the process and everything it started (its process group): a crash."""
        process = self.process(which)
        if process.popen is None:
            return
        process.down = True
        _kill_group(process.popen)
        process.popen.wait(timeout=15)

    def stop(self, which: str | Process) -> None:
        """Stop the process as an operator would (SIGTERM), and wait until it is gone."""
        process = self.process(which)
        if process.popen is not None:
            process.down = True
            _stop([process])

    def start(self, which: str | Process) -> Process:
        """Start a stopped or killed process again, with the same command (a daphne on the
        same port), and wait until it says it is ready."""
        process = self.process(which)
        assert not process.alive(), f"{process.name} is still running"
        _launch(process, self.env)
        _wait_ready(self, [process], self.ready_timeout)
        return process

    def restart(self, which: str | Process) -> Process:
        self.kill(which)
        return self.start(which)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def run_cluster(
    *,
    database: str | None = None,
    web: bool | int = False,
    tick: bool = True,
    qcluster: bool = True,
    daphne_args: Sequence[str] = (),
    env: dict[str, str] | None = None,
    ready_timeout: float = 30.0,
) -> Iterator[Cluster]:
    """Start the processes, wait until each says it is ready, and stop them all after.

    ``web``: how many daphne processes (True is one, named "daphne"; two or more are named
    "daphne-1", "daphne-2", ...). ``daphne_args`` are added to each daphne's command line
    (e.g. ``["--ping-interval", "1", "--ping-timeout", "2"]``)."""
    database = database or str(connection.settings_dict["NAME"])
    child_env = {
        **os.environ,
        "CONSTELLATE_SQLITE_PATH": database,
        "CONSTELLATE_DB_NAME": database,  # PostgreSQL: the test database, by name
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CONSTELLATE_LOG_LEVEL": "INFO",  # readiness is read from the INFO lines
        # Every test browser comes from 127.0.0.1: the per-address limits would count a
        # whole suite's players as one household (tests/web/test_limits.py tests them).
        "CONSTELLATE_RATE_ROOMS_IP": "100000",
        "CONSTELLATE_RATE_JOINS_IP": "100000",
        "CONSTELLATE_RATE_TICKS_IP": "100000",
        # A test's player taps a draft as fast as the answers come (ten a second and more on
        # a quick machine, through a whole solo night), far past a person's pace: the
        # per-browser preview limit (60 per 10 s) refused its taps. tests/web/test_limits.py
        # tests that limit itself.
        "CONSTELLATE_RATE_PREVIEWS": "100000",
        **(env or {}),
    }
    python = sys.executable
    logdir = Path(tempfile.mkdtemp(prefix="constellate-cluster-"))
    cluster = Cluster(database=database, env=child_env, ready_timeout=ready_timeout)

    def add(name: str, kind: str, command: list[str], port: int | None = None) -> None:
        cluster.processes.append(
            Process(name, command, logdir / f"{name}.log", READY[kind], port=port)
        )

    if qcluster:
        add("qcluster", "qcluster", [python, "manage.py", "qcluster"])
    if tick:
        add("clocktick", "clocktick", [python, "manage.py", "clocktick"])
    count = int(web)
    for n in range(1, count + 1):
        port = free_port()
        command = [python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), *daphne_args]
        name = "daphne" if count == 1 else f"daphne-{n}"
        add(name, "daphne", [*command, "config.asgi:application"], port)
    try:
        for process in cluster.processes:
            _launch(process, child_env)
        _wait_ready(cluster, cluster.processes, ready_timeout)
        yield cluster
    finally:
        _stop(cluster.processes)
    shutil.rmtree(logdir, ignore_errors=True)  # kept when the test failed, for a look


def _launch(process: Process, env: dict[str, str]) -> None:
    process._offset = process.log.stat().st_size if process.log.exists() else 0
    with process.log.open("ab") as out:
        # Its own session (process group), so a kill takes its children with it.
        process.popen = subprocess.Popen(
            process.command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    process.runs += 1
    process.down = False


def _wait_ready(cluster: Cluster, processes: list[Process], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    waiting = {p.name: p for p in processes}
    while waiting:
        for name, process in list(waiting.items()):
            if process.ready in process.run_output():
                del waiting[name]
        cluster.check_alive()
        if time.monotonic() > deadline:
            raise AssertionError(f"not ready: {', '.join(waiting)}\n{cluster.logs()}")
        time.sleep(0.05)


def _kill_group(popen: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)  # the group's id is the leader's pid


def _stop(processes: list[Process]) -> None:
    started = [p for p in processes if p.popen is not None]
    for process in started:
        if process.alive():
            process.popen.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 15
    for process in started:
        try:
            process.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.popen.kill()
            process.popen.wait()
        _kill_group(process.popen)  # anything it left behind (e.g. a killed qcluster's workers)
