"""Pages are served through the real ASGI application on a few kept threads
(config/http_threads.py), not a new thread per request: many requests, one after another and
many at once, are all answered, each one's synchronous part on one of the kept threads."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_started

from config.asgi import django_asgi_app
from config.http_threads import THREADS

pytestmark = pytest.mark.django_db(transaction=True)


def served_threads(requests: int, at_once: int) -> tuple[list[int], list[str]]:
    """Each answer's status, and the thread each request's synchronous part began on."""
    started: list[str] = []

    def on_start(**_: object) -> None:
        started.append(threading.current_thread().name)

    async def get_home() -> int:
        answer = await HttpCommunicator(
            django_asgi_app, "GET", "/", headers=[(b"host", b"localhost")]
        ).get_response(timeout=20)
        return answer["status"]

    async def scenario() -> list[int]:
        statuses: list[int] = []
        for _ in range(requests // at_once):
            statuses += await asyncio.gather(*(get_home() for _ in range(at_once)))
        return statuses

    request_started.connect(on_start)
    try:
        statuses = asyncio.run(scenario())
    finally:
        request_started.disconnect(on_start)
    return statuses, started


def test_requests_one_after_another_reuse_the_kept_threads() -> None:
    statuses, started = served_threads(requests=30, at_once=1)
    assert statuses == [200] * 30
    assert len(started) == 30 and len(set(started)) <= THREADS
    assert all(name.startswith("http-") for name in started)


def test_more_requests_at_once_than_threads_are_all_answered() -> None:
    statuses, started = served_threads(requests=3 * THREADS, at_once=3 * THREADS)
    assert statuses == [200] * (3 * THREADS)
    assert len(set(started)) <= THREADS
    assert all(name.startswith("http-") for name in started)
