"""``manage.py play`` as an operator starts it (``make run``), against the test database,
with a state directory of its own (its secret key, its collected static files)::

    @pytest.fixture
    def served(transactional_db, tmp_path):
        with playing(tmp_path, "--host", "0.0.0.0") as server:
            yield server

    def test_something(served):
        ... served.url("127.0.0.1") ... served.output() ...

Only the web server (``--no-cluster``): these tests look at what it serves, not the clock.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from django.db import connection

from tests.support.cluster import ROOT, free_port

READY = "Listening on TCP address"


@dataclass
class Served:
    port: int
    log: Path
    popen: subprocess.Popen

    def url(self, address: str = "127.0.0.1") -> str:
        return f"http://{address}:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.contextmanager
def playing(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 90.0
) -> Iterator[Served]:
    """Start ``play --no-cluster --port <free> *args``, wait until daphne listens, and stop
    it (SIGTERM, as Ctrl-C would) after."""
    database = str(connection.settings_dict["NAME"])
    port = free_port()
    child_env = {
        **os.environ,
        "CONSTELLATE_VAR_DIR": str(tmp_path / "var"),
        "CONSTELLATE_SQLITE_PATH": database,
        "CONSTELLATE_DB_NAME": database,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONUNBUFFERED": "1",
        **(env or {}),
    }
    for name in ("DJANGO_ALLOWED_HOSTS", "CONSTELLATE_SHARE_ORIGIN", "CONSTELLATE_SITE_ORIGINS"):
        if name not in (env or {}):
            child_env.pop(name, None)  # as `make run` on a fresh machine
    log = tmp_path / "play.log"
    command = [sys.executable, "manage.py", "play", "--no-cluster", "--port", str(port), *args]
    with log.open("ab") as out:
        popen = subprocess.Popen(
            command, cwd=ROOT, env=child_env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    served = Served(port, log, popen)
    try:
        deadline = time.monotonic() + timeout
        while READY not in served.output():
            assert popen.poll() is None, f"play exited early\n{served.output()}"
            assert time.monotonic() < deadline, f"play not ready\n{served.output()}"
            time.sleep(0.1)
        yield served
    finally:
        _stop(popen)


def _stop(popen: subprocess.Popen) -> None:
    if popen.poll() is None:
        popen.send_signal(signal.SIGTERM)  # play stops its daphne
        try:
            popen.wait(timeout=20)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(popen.pid, signal.SIGKILL)  # anything left in its group
