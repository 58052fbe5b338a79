"""Django's HTTP requests served by kept threads instead of a new thread each.

Django's ASGI handler runs each request's synchronous part (middleware, the view, the
session's save) in a ``ThreadSensitiveContext`` of its own, and asgiref starts a thread for
every such context and stops it after: a thread started and joined per request, 5 % of the
daphne's CPU under the bench (docs/performance.md, the py-spy profile). Here a request
borrows one of a few kept single-thread executors for its context (asgiref's
``ThreadSensitiveContext(executor=...)``) and gives it back when its answer is sent. A
request's synchronous code still runs on one thread from start to end, and no two requests
share a thread at once; when every thread is busy, a request waits for the first free one.

A request crosses from the event loop to its thread once, and back once. Django's own ASGI
path crossed a dozen times: the request-started signal, the middleware chain (all of it
synchronous), back to the loop for the view's part of the handler, into the thread for the
CSRF check and again for the view, back out through the middleware, and once more to close
the answer. Here the middleware is loaded synchronously, as under WSGI, and everything from
the request-started signal to the closed answer (request-finished) runs in one call on the
request's thread; the loop only reads the body and sends the answer. A streaming answer (a
file over a mebibyte) is sent from the loop as Django sends it, and closed after; a smaller
file (WhiteNoise's static files) is read whole on the thread.
Nothing listens for the client leaving meanwhile: the views are synchronous, so Django's
own handler could not stop them either; an answer to a client gone is dropped by daphne.

Database connections are kept with the threads (SQLite's ``CONN_MAX_AGE``; Django's
connections are per thread, asgiref's ``Local(thread_critical=True)``). A kept connection
reads the newest commit as long as it is in autocommit between requests, which Django's
atomic blocks and closed cursors ensure; ``fresh_connections`` closes one that is not, when
the next request begins, rather than let it answer from an old snapshot.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.db import connections
from django.http import FileResponse, HttpResponse, HttpResponseBase
from django.urls import set_script_prefix

log = logging.getLogger(__name__)
THREADS = 8  # SQLite serializes writes anyway; PostgreSQL gets as many connections a daphne


class KeptThreadsASGIHandler(ASGIHandler):
    def __init__(self, threads: int = THREADS) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)  # one synchronous chain, as under WSGI
        self._threads = threads
        self._free: asyncio.Queue[ThreadPoolExecutor] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _pool(self) -> asyncio.Queue[ThreadPoolExecutor]:
        """The free threads, made at the first request on the server's event loop (a queue
        belongs to one loop: the tests' successive loops each get their own threads)."""
        loop = asyncio.get_running_loop()
        if self._free is None or self._loop is not loop:
            if self._free is not None:
                while not self._free.empty():
                    self._free.get_nowait().shutdown(wait=False)
            self._loop = loop
            self._free = asyncio.Queue()
            for n in range(self._threads):
                self._free.put_nowait(
                    ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"http-{n}")
                )
        return self._free

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        free = self._pool()
        executor = await free.get()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            free.put_nowait(executor)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Read the body, answer it on the request's thread in one call, send the answer."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._answer, thread_sensitive=True)(scope, body_file)
            try:
                await self.send_response(response, send)
            finally:  # a stream that failed or whose client left is closed all the same
                if response.streaming:
                    await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _answer(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """Everything Django does for one request, on its thread: the request-started
        signal, the middleware and the view, and (unless it streams) the closed answer."""
        fresh_connections()
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response = error_response if request is None else self.get_response(request)
        assert response is not None  # create_request gives a request or an error answer
        response._handler_class = self.__class__  # type: ignore[attr-defined]
        if isinstance(response, FileResponse) and _small(response):
            response = _read_whole(response)  # a static file: read here, not a hop a block
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size  # the server chunks it
        if not response.streaming:
            response.close()  # request_finished: the connection is closed before the send
        return response


def fresh_connections() -> None:
    """Close this thread's kept connections that a past request left inside a transaction
    (a read in one sees the database as it was when the transaction began). Django's own
    check at the request-started signal closes one left out of autocommit, not one whose
    driver began a transaction on its own (SQLite's ``in_transaction``)."""
    for connection in connections.all(initialized_only=True):
        driver = connection.connection
        if driver is not None and (
            connection.in_atomic_block or getattr(driver, "in_transaction", False)
        ):
            log.warning("a kept %s connection was inside a transaction: closed", connection.alias)
            connection.in_atomic_block = False  # closed, not committed: nothing half-done lands
            connection.close()


WHOLE_FILE = 1 << 20  # a file answer up to this size is read on the request's thread at once


def _small(response: FileResponse) -> bool:
    length = response.headers.get("Content-Length")
    return length is not None and length.isdigit() and int(length) <= WHOLE_FILE


def _read_whole(response: FileResponse) -> HttpResponse:
    """A file's answer as one body, with its status, headers and cookies (WhiteNoise's static
    files: Django would otherwise read a synchronous file from the event loop, a thread
    hand-over per block, with a warning each time)."""
    whole = HttpResponse(
        b"".join(response), status=response.status_code, reason=response.reason_phrase
    )
    for header, value in response.headers.items():
        whole.headers[header] = value
    whole.cookies = response.cookies
    whole._handler_class = response._handler_class  # type: ignore[attr-defined]
    # The file and the request are closed once, with the whole answer (request_finished).
    whole._resource_closers = response._resource_closers  # type: ignore[attr-defined]
    return whole
