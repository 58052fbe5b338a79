"""Pages are served through the real ASGI application on a few kept threads
(config/http_threads.py), not a new thread per request: many requests, one after another and
many at once, are all answered, each one's synchronous part on one of the kept threads, in
one call from the event loop; forms, errors and static files are answered as before."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from asgiref import sync
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import connections
from django.dispatch import Signal

from config.asgi import django_asgi_app
from config.http_threads import THREADS, KeptThreadsASGIHandler
from lobby.services import create_room

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def listening(signal: Signal, receiver: Callable[..., None]) -> Iterator[None]:
    signal.connect(receiver)
    try:
        yield
    finally:
        signal.disconnect(receiver)


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

    with listening(request_started, on_start):
        statuses = asyncio.run(scenario())
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
    with listening(request_finished, on_finish):
        response = answer("GET", "/")
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

    with listening(request_finished, on_finish):
        response = answer("GET", "/static/site.css")
    assert response["status"] == 200
    with open(Path(settings.BASE_DIR) / "static" / "site.css", "rb") as css:
        assert response["body"] == css.read()
    assert len(finished) == 1


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
    reason="SQLite's kept connections (PostgreSQL's come from psycopg's pool each request)",
)
def test_a_kept_thread_keeps_its_connection_and_reads_every_room_made_since(caplog) -> None:
    """A thread answers with the connection it opened for an earlier request, and sees what
    another connection committed after that. A connection that a past request left inside a
    transaction (its reads would show the database as it was then) is closed and reopened
    when the next request begins, with a warning, and the new room is found all the same."""
    handler = KeptThreadsASGIHandler(threads=1)  # every request on one thread
    drivers: list[object] = []
    leave_a_snapshot_open = False

    def on_finish(**_: object) -> None:
        drivers.append(connections["default"].connection)
        if leave_a_snapshot_open:
            with connections["default"].cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute("SELECT COUNT(*) FROM lobby_room")

    def made_elsewhere() -> str:
        try:
            return create_room("host-identity").code
        finally:
            connections.close_all()  # this helper thread's own connection

    async def status_of(code: str) -> int:
        answer = await HttpCommunicator(
            handler, "GET", f"/r/{code}/", headers=[(b"host", b"localhost")]
        ).get_response(timeout=20)
        return answer["status"]

    async def scenario() -> list[int]:
        nonlocal leave_a_snapshot_open
        statuses = [await status_of(await sync_to_async(made_elsewhere)())]
        statuses.append(await status_of(await sync_to_async(made_elsewhere)()))
        leave_a_snapshot_open = True
        statuses.append(await status_of(await sync_to_async(made_elsewhere)()))
        leave_a_snapshot_open = False
        statuses.append(await status_of(await sync_to_async(made_elsewhere)()))
        return statuses

    with listening(request_finished, on_finish):
        statuses = asyncio.run(scenario())
    assert statuses == [200, 200, 200, 200]
    assert drivers[0] is not None
    assert drivers[0] is drivers[1] is drivers[2]  # kept from one request to the next
    assert drivers[3] is not drivers[2]  # the one left in a transaction was not reused
    assert "inside a transaction: closed" in caplog.text
