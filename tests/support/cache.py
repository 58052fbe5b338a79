"""Emptying the cache between tests without touching anyone else's keys."""

from __future__ import annotations

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache


def clear_cache() -> None:
    """Empty the default cache (the rate-limit counters). On Redis only this run's keys go
    (``KEY_PREFIX``, from CONSTELLATE_REDIS_PREFIX): Django's ``clear()`` is a FLUSHDB, which
    would also wipe the channel layer's groups and the q2 queue, this run's and any other
    run's sharing the Redis."""
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        cache.clear()
        return
    client = cache._cache.get_client(None, write=True)
    keys = list(client.scan_iter(match=f"{cache.key_prefix}:*", count=500))
    for start in range(0, len(keys), 500):
        client.delete(*keys[start : start + 500])
