"""Run due django-q2 schedules within a few tens of ms of their time.

django-q2 1.11's cluster looks at schedules only every ~30 s: far too coarse for a step
clock. This loop calls django-q2's own scheduler whenever a schedule is due, and sleeps
until the next one (looking again at least every ``--interval`` seconds). The cluster
(``manage.py qcluster``) still runs the tasks; ``manage.py play`` starts both.
"""

from __future__ import annotations

import signal
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connections


class Command(BaseCommand):
    help = "Tick django-q2's scheduler as often as the step clocks need (run with qcluster)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=0.5,
            help="look for new schedules at least this often, in seconds (default 0.5)",
        )

    def handle(self, *args: Any, interval: float, **options: Any) -> None:
        from django_q.brokers import get_broker

        from games.clock import tick

        if interval <= 0:
            raise SystemExit("--interval must be positive")
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        broker = get_broker()
        self.stdout.write(f"clocktick running (interval {interval}s)", ending="\n")
        self.stdout.flush()
        while not stopping:
            try:
                wait = tick(broker, interval=interval)
            except Exception as error:  # a locked or lost database: try again shortly
                self.stderr.write(f"clocktick: {error!r}")
                for conn in connections.all():
                    conn.close()
                wait = interval
            _sleep(wait, lambda: stopping)
        self.stdout.write("clocktick stopped")


def _sleep(seconds: float, stopped: Any) -> None:
    """Sleep, waking early once asked to stop."""
    end = time.monotonic() + seconds
    while not stopped():
        left = end - time.monotonic()
        if left <= 0:
            return
        time.sleep(min(left, 0.1))
