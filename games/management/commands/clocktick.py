"""Run due django-q2 schedules within a few tens of ms of their time.

django-q2 1.11's cluster looks at schedules only every ~30 s: far too coarse for a step
clock. This loop calls django-q2's own scheduler whenever a schedule is due, and sleeps
until the next one or until a new schedule rings its doorbell (config/doorbell.py),
looking again at least every ``--interval`` seconds (every ``BELL_INTERVAL`` seconds when
it has a doorbell: a new schedule wakes it anyway). The cluster
(``manage.py qcluster``) still runs the tasks; ``manage.py play`` starts both.
"""

from __future__ import annotations

import signal
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connections

from config import doorbell
from games.clock import CLOCK_BELL

BELL_INTERVAL = 5.0  # with a doorbell, the tick still looks this often (a lost ring)


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
        bell = doorbell.Doorbell.open(getattr(settings, "DOORBELLS", None), CLOCK_BELL)
        if bell is not None:
            interval = max(interval, BELL_INTERVAL)
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
            _sleep(wait, lambda: stopping, bell)
        if bell is not None:
            bell.close()
        self.stdout.write("clocktick stopped")


def _sleep(seconds: float, stopped: Any, bell: doorbell.Doorbell | None) -> None:
    """Sleep, waking early once asked to stop or rung."""
    end = time.monotonic() + seconds
    while not stopped():
        left = end - time.monotonic()
        if left <= 0:
            return
        if bell is None:
            time.sleep(min(left, 0.1))
        elif bell.wait(min(left, 0.1)):
            return
