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
script sent in full only the first time a server sees it): the rate limit's count and the
socket counts' refresh, which Django's API takes a command a key for.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from functools import cached_property
from typing import Any, ClassVar

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import NoScriptError


class OneClientPerPool(RedisCacheClient):
    """Django's client, keeping one redis-py client per pool instead of one a call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis_clients: dict[int, redis.Redis] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        django: Any = self  # RedisCacheClient's own attributes, which the stubs do not list
        index = django._get_connection_pool_index(write)  # random among replicas for a read
        client = self._redis_clients.get(index)
        if client is None:
            # Two threads racing here may each make one; one is kept, and both are clients
            # of the same pool (the write pool is made with the cache, under its lock).
            pool = self._pool(index)
            client = self._redis_clients.setdefault(index, django._client(connection_pool=pool))
        return client

    def _pool(self, index: int) -> Any:
        """The pool of server ``index``, as Django's ``_get_connection_pool`` makes it (which
        picks its own index, a random one for a read from replicas)."""
        django: Any = self
        pools = django._pools
        if index not in pools:
            pools[index] = django._pool_class.from_url(
                django._servers[index], **django._pool_options
            )
        return pools[index]


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
    """A Lua script run on a Redis cache's server (Redis must allow scripts, as the channel
    layer's need it too), its keys made as the cache makes them (prefix, version; not
    checked for memcached, which never holds them). The values it writes must be integers:
    redis-py sends them as plain numbers, as Django's serializer writes an int, and
    ``cache.get`` reads them back as ints."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode(), usedforsecurity=False).hexdigest()

    def __call__(self, cache: RedisCache, keys: Sequence[str], args: Sequence[Any]) -> Any:
        django: Any = cache  # RedisCache's own client, which the type stubs do not list
        client = django._cache.get_client(write=True)
        full = [cache.make_key(key) for key in keys]
        try:
            return client.evalsha(self.sha, len(full), *full, *args)
        except NoScriptError:  # the server's first call, or its scripts were flushed
            return client.eval(self.source, len(full), *full, *args)
