"""The scale-out configuration's cache: Django's Redis cache, with one client (and so one
pool of connections) per process.

Django keeps a cache object per async context (``caches`` is an asgiref ``Local``), and
each object makes its own client and connection pool on first use. Under daphne every
request runs in a context of its own, so every request that read a session or counted a
rate limit made a new pool, opened a new TCP connection to Redis for it and left it for
the garbage collector to close: under the bench, a tenth of a scale-out daphne's Python was
making and opening those connections (docs/performance.md), and Redis accepted one a
request. Django has an open pull request for it (django/django#18459). redis-py's pools
are thread-safe and make their connections again after a fork (django-q2's workers).

Django's client also made a new redis-py client object (``redis.Redis``, with its table of
reply parsers) for every cache call, on the one pool: a thirtieth of a scale-out daphne's
Python under the bench. ``OneClientPerPool`` makes one per pool and keeps it.

``CacheScript`` runs a Lua script on the cache's Redis in one round trip (EVALSHA, the
script loaded only when the server lacks it): the rate limit's count and the
socket counts' refresh, which Django's API takes a command a key for.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cached_property
from typing import Any, ClassVar

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.commands.core import Script
from redis.connection import ConnectionPool


class OneClientPerPool(RedisCacheClient):
    """Django's client, keeping one redis-py client per pool instead of one a call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis_clients: dict[ConnectionPool, redis.Redis] = {}  # pools compare by identity

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        django: Any = self  # RedisCacheClient's own attributes, which the stubs do not list
        pool = django._get_connection_pool(write)  # Django's pick (a replica at random to read)
        client = self._redis_clients.get(pool)
        if client is None:
            # Two threads racing here may each make one; one is kept, and both are clients
            # of the same pool.
            client = self._redis_clients.setdefault(pool, django._client(connection_pool=pool))
        return client


class SharedRedisCache(RedisCache):
    _clients: ClassVar[dict[tuple[tuple[str, ...], str], RedisCacheClient]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = OneClientPerPool

    @cached_property
    def _cache(self) -> Any:
        """The one client of this process for these servers and options."""
        django: Any = self  # RedisCache's own attributes, which the type stubs do not list
        key = (tuple(django._servers), repr(sorted(django._options.items())))
        with self._lock:
            client = self._clients.get(key)
            if client is None:
                client = django._class(django._servers, **django._options)
                client._get_connection_pool(write=True)  # its pool made here, not in a race
                self._clients[key] = client
        return client


class CacheScript:
    """A Lua script run on a Redis cache's server as redis-py's ``Script`` runs it (EVALSHA,
    the script loaded when the server lacks it; Redis must allow scripts, as the channel
    layer's need it too). Its keys are made as the cache makes them (prefix, version; not
    checked for memcached, which never holds them). The values it writes must be integers:
    redis-py sends them as plain numbers, as Django's serializer writes an int, and
    ``cache.get`` reads them back as ints."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._script: Script | None = None  # its SHA, worked out once; run on any client

    def __call__(self, cache: RedisCache, keys: Sequence[str], args: Sequence[Any]) -> Any:
        django: Any = cache  # RedisCache's own client, which the type stubs do not list
        client = django._cache.get_client(write=True)
        if self._script is None:  # two threads racing here make equal scripts: either serves
            self._script = client.register_script(self.source)
        return self._script(keys=[cache.make_key(key) for key in keys], args=args, client=client)
