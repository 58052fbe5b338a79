"""The scale-out cache keeps one pool of Redis connections a process (config/redis_cache.py):
Django made a cache object, and with it a new connection to Redis, for every request
daphne ran in a context of its own.

Only meaningful on Redis: skipped otherwise (``make test SCALE=1`` runs it)."""

from __future__ import annotations

import asyncio
import contextvars

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from redis.connection import Connection

from tests.scale.players import NOT_SCALE_OUT, SCALE_OUT

pytestmark = pytest.mark.skipif(not SCALE_OUT, reason=NOT_SCALE_OUT)


def _a_request_s_cache_read(n: int) -> object:
    """What a request does with the cache: read a session, count a rate limit."""
    cache = caches["default"]
    cache.get(f"test-shared-pool-{n}")
    return cache


def test_requests_each_in_a_context_of_their_own_share_one_connection_pool(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[Connection] = []
    open_socket = Connection._connect  # a TCP connection to Redis, opened

    def counted(connection: Connection) -> object:
        opened.append(connection)
        return open_socket(connection)

    async def requests() -> set[int]:
        # As daphne runs each request: a task, with a context of its own copied from the
        # server's, which never touches the cache itself.
        loop = asyncio.get_running_loop()

        async def request(n: int) -> object:
            return await loop.create_task(sync_to_async(_a_request_s_cache_read)(n))

        await request(0)  # the first opens this process's connection
        monkeypatch.setattr(Connection, "_connect", counted)
        client = redis.Redis.from_url(settings.REDIS_URL)  # the count sees a new one...
        client.ping()
        client.close()
        assert len(opened) == 1
        opened.clear()
        caches_seen = [await request(n) for n in range(1, 21)]
        return {id(c._cache) for c in caches_seen}  # type: ignore[attr-defined]

    # A context of nothing, as daphne's server starts from: this test's own set-up read the
    # cache in the test's context, which every task would have copied.
    assert len(contextvars.Context().run(asyncio.run, requests())) == 1
    assert opened == []  # ...and none here: Django's own cache opened one for each of the 20
