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
"""

from __future__ import annotations

import threading
from functools import cached_property
from typing import Any, ClassVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class SharedRedisCache(RedisCache):
    _clients: ClassVar[dict[tuple[tuple[str, ...], str], RedisCacheClient]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

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
