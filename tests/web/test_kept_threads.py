"""Pages are served through the real ASGI application on a few kept threads
(config/http_threads.py), not a new thread per request: many requests, one after another and
many at once, are all answered, each one's synchronous part on one of the kept threads, in
one call from the event loop; forms, errors and static files are answered as before."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from asgiref import sync
from channels.testing import HttpCommunicator
from django.conf import settings
from django.core.signals import request_finished, request_started

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


def answer(method: str, path: str, body: bytes = b"", headers: tuple = ()) -> Any:
    async def ask() -> Any:
        return await HttpCommunicator(
            django_asgi_app,
            method,
            path,
            body=body,
            headers=[(b"host", b"localhost"), *headers],
        ).get_response(timeout=20)

    return asyncio.run(ask())


def test_a_request_crosses_from_the_event_loop_to_its_thread_once(monkeypatch) -> None:
    """Django's own ASGI path crossed for the request-started signal, the middleware, the
    CSRF check, the view and the close: each crossing costs the event loop and a thread
    hand-over. Now the whole request, signals included, is one call on its thread."""
    answer("GET", "/")  # the first request makes the threads
    crossings: list[str] = []
    cross = sync.SyncToAsync.__call__

    async def counted(self: sync.SyncToAsync, *args: Any, **kwargs: Any) -> Any:
        crossings.append(self.func.__qualname__)
        return await cross(self, *args, **kwargs)

    finished: list[str] = []

    def on_finish(**_: object) -> None:
        finished.append(threading.current_thread().name)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    request_finished.connect(on_finish)
    try:
        response = answer("GET", "/")
    finally:
        request_finished.disconnect(on_finish)
    assert response["status"] == 200 and b"<html" in response["body"]
    assert crossings == ["KeptThreadsASGIHandler._answer"]
    assert len(finished) == 1 and finished[0].startswith("http-")  # closed on its thread


def test_a_post_without_its_csrf_token_is_refused_and_a_missing_page_is_a_404() -> None:
    refused = answer(
        "POST",
        "/rooms",
        b"",
        ((b"content-type", b"application/x-www-form-urlencoded"),),
    )
    assert refused["status"] == 403
    missing = answer("GET", "/no-such-page")
    assert missing["status"] == 404
    assert b"Traceback" not in missing["body"]


def test_a_static_file_streams_whole_and_is_closed_after() -> None:
    finished: list[str] = []

    def on_finish(**_: object) -> None:
        finished.append(threading.current_thread().name)

    request_finished.connect(on_finish)
    try:
        response = answer("GET", "/static/site.css")
    finally:
        request_finished.disconnect(on_finish)
    assert response["status"] == 200
    with open(Path(settings.BASE_DIR) / "static" / "site.css", "rb") as css:
        assert response["body"] == css.read()
    assert len(finished) == 1
