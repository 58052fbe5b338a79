"""One command runs it all: daphne serving the ASGI app, the django-q2 cluster that runs
the step clocks, and the tick that hands it due schedules on time. Ctrl-C (or SIGTERM)
stops them all.

Before they start it collects the static files (hashed names, gzip copies; not in DEBUG),
and on a non-loopback address (``--host 0.0.0.0``) it lets the machine's own addresses in
and makes the room links point at one that phones on the network can open."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.contrib.staticfiles.management.commands.collectstatic import Command as Collect
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils.module_loading import import_string

from config.network import WILDCARDS, is_loopback, lan_addresses, url_host

COLLECTED_STORAGE = "whitenoise.storage.CompressedManifestStaticFilesStorage"


class Command(BaseCommand):
    help = "Serve Constellate (daphne) and run its clock (django-q2 cluster) together."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-cluster", action="store_true", help="serve only")
        # A websocket that stops reading (a frozen tab, a dead link) misses daphne's ping and
        # is closed, so its unsent pushes cannot pile up in the server's memory.
        parser.add_argument(
            "--ping-interval",
            type=int,
            default=20,
            help="ping a websocket idle this many seconds (default 20)",
        )
        parser.add_argument(
            "--ping-timeout",
            type=int,
            default=30,
            help="close a websocket that has not answered a ping in this many seconds (default 30)",
        )

    def handle(
        self,
        *args: Any,
        host: str,
        port: int,
        no_cluster: bool,
        ping_interval: int,
        ping_timeout: int,
        **options: Any,
    ) -> None:
        if settings.DEBUG and not is_loopback(host):
            raise CommandError(
                f"DEBUG is on (DJANGO_DEBUG=1) and --host {host} is not a loopback address: "
                "DEBUG's error pages show the games' secrets to whoever can reach them. "
                "Serve on 127.0.0.1, or unset DJANGO_DEBUG."
            )
        environ: dict[str, str] = {}  # for the processes started below
        if not settings.DEBUG:  # DEBUG serves the files as they are edited
            collect_static()
            environ["CONSTELLATE_STATIC_COLLECTED"] = "1"
        phones: list[str] = []
        if not is_loopback(host):
            phones = self._open_to_the_network(host, port, environ)
        python = sys.executable
        pings = ["--ping-interval", str(ping_interval), "--ping-timeout", str(ping_timeout)]
        commands = [
            [python, "-m", "daphne", "-b", host, "-p", str(port), *pings, "config.asgi:application"]
        ]
        if not no_cluster:
            # The cluster runs the clock's tasks; clocktick hands it due schedules within
            # tens of ms (django-q2's own scheduler looks only every ~30 s).
            commands.append([python, "manage.py", "qcluster"])
            commands.append([python, "manage.py", "clocktick"])
        with _environment(environ):
            children = [subprocess.Popen(c) for c in commands]
        here = "127.0.0.1" if host in WILDCARDS else url_host(host)
        self.stdout.write(f"Constellate is up at http://{here}:{port}/  (Ctrl-C stops it)")
        for url in phones:
            self.stdout.write(f"Phones on this network: {url}")
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping and all(c.poll() is None for c in children):
                time.sleep(0.2)
        except KeyboardInterrupt:
            pass
        finally:
            _stop_all(children)
        failed = [c.returncode for c in children if c.returncode not in (0, None, -15, -2)]
        if failed and not stopping:
            raise SystemExit(1)

    def _open_to_the_network(self, host: str, port: int, environ: dict[str, str]) -> list[str]:
        """Let the machine's addresses (and names) in as hosts, and share the first one in
        room links; return the addresses to print for phones."""
        if host in WILDCARDS:
            addresses = [url_host(a) for a in lan_addresses()]
            name = socket.gethostname()
            names = [name, f"{name}.local"] if name and "." not in name else [name]
        else:
            addresses, names = [url_host(host)], []
        if not addresses:
            self.stderr.write(
                "This machine has no address on a network (only loopback): "
                "other devices cannot reach it."
            )
        allowed = list(settings.ALLOWED_HOSTS)
        added = [h for h in dict.fromkeys([*addresses, *names]) if h and h not in allowed]
        if added and "*" not in allowed:
            environ["DJANGO_ALLOWED_HOSTS"] = ",".join([*allowed, *added])
            if os.environ.get("DJANGO_ALLOWED_HOSTS"):  # the operator's list: say what grew
                self.stdout.write(f"DJANGO_ALLOWED_HOSTS, for this run, also: {', '.join(added)}")
        urls = [f"http://{address}:{port}/" for address in addresses]
        if settings.SHARE_ORIGIN:
            self.stdout.write(f"Room links and QR codes use {settings.SHARE_ORIGIN}")
        elif urls:
            environ["CONSTELLATE_SHARE_ORIGIN"] = urls[0].rstrip("/")
        if settings.SITE_ORIGINS:
            refused = [u for u in urls if u.rstrip("/") not in settings.SITE_ORIGINS]
            if refused:
                self.stderr.write(
                    f"CONSTELLATE_SITE_ORIGINS does not list {', '.join(refused)}: "
                    "the live updates of pages opened there will be refused."
                )
        return urls


@contextlib.contextmanager
def _environment(extra: dict[str, str]) -> Iterator[None]:
    """``extra`` in os.environ while the children start (they inherit it), then as before:
    `play` run inside another process (a test) leaves that process's environment alone."""
    saved = {name: os.environ.get(name) for name in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def collect_static() -> bool:
    """Collect the static files into STATIC_ROOT with the storage the children will serve
    (hashed names, gzip copies), unless the apps' files are as they were at the last
    collection. Two `play` starting together take turns; the second finds it done.
    Return whether it collected."""
    root = Path(settings.STATIC_ROOT)
    root.parent.mkdir(parents=True, exist_ok=True)
    stamp = root.parent / f"{root.name}.collected"
    with open(root.parent / f"{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        sources = _sources_fingerprint()
        manifest = root / "staticfiles.json"
        if manifest.exists() and stamp.exists() and stamp.read_text() == sources:
            return False
        collect = Collect()
        collect.storage = import_string(COLLECTED_STORAGE)(location=str(root))
        call_command(collect, interactive=False, verbosity=0)
        stamp.write_text(sources)
        return True


def _sources_fingerprint() -> str:
    """Every file the finders would collect: its name, size and time of change."""
    digest = hashlib.sha256(COLLECTED_STORAGE.encode())
    found = []
    for finder in get_finders():
        for name, storage in finder.list(["CVS", ".*", "*~"]):
            path = Path(storage.path(name))
            info = path.stat()
            found.append(f"{name}\0{path}\0{info.st_size}\0{info.st_mtime_ns}")
    for line in sorted(found):
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def _stop_all(children: list[subprocess.Popen]) -> None:
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
