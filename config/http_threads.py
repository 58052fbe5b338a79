"""Django's HTTP requests served by kept threads instead of a new thread each.

Django's ASGI handler runs each request's synchronous part (middleware, the view, the
session's save) in a ``ThreadSensitiveContext`` of its own, and asgiref starts a thread for
every such context and stops it after: a thread started and joined per request, 5 % of the
daphne's CPU under the bench (docs/performance.md, the py-spy profile). Here a request
borrows one of a few kept single-thread executors for its context (asgiref's
``ThreadSensitiveContext(executor=...)``) and gives it back when its answer is sent. A
request's synchronous code still runs on one thread from start to end, and no two requests
share a thread at once; when every thread is busy, a request waits for the first free one.

Database connections are not kept with the threads: Django still opens and closes one per
request (``CONN_MAX_AGE`` 0). Keeping SQLite's served stale reads once (docs/performance.md).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

THREADS = 8  # SQLite serializes writes anyway; PostgreSQL gets as many connections a daphne


class KeptThreadsASGIHandler(ASGIHandler):
    def __init__(self, threads: int = THREADS) -> None:
        super().__init__()
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
