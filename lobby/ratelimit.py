"""Rate limits on Django's cache: a fixed window counted with an atomic incr, per browser
(its identity) or per client address.

The address is ``REMOTE_ADDR`` as ``config.clients.RealClientMiddleware`` left it: the real
client behind a trusted proxy, never an address the client wrote itself. With the embedded
default (one web process) the local-memory cache is shared by every request; the
scale-out configuration points the cache at Redis so all processes count together.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest

from config.redis_cache import CacheScript

IDENTITY = "identity"


def _who(request: HttpRequest, per: str) -> str:
    if per == "session":
        identity = request.session.get(IDENTITY)
        if identity:
            return f"s:{identity}"
    return f"ip:{request.META.get('REMOTE_ADDR', '?')}"


def limited(request: HttpRequest, scope: str, *, per: str = "session") -> bool:
    """Count this request against ``scope``'s limit (settings.RATE_LIMITS) and say whether
    it is over: ``(count, seconds)`` requests per window."""
    return _over(scope, _who(request, per))


def limited_identity(identity: str, scope: str) -> bool:
    """The same count for a browser known by its identity (a room's socket's session): one
    allowance whichever way its requests come."""
    return _over(scope, f"s:{identity}")


def _over(scope: str, who: str) -> bool:
    limit, window = settings.RATE_LIMITS[scope]
    bucket = int(time.time() // window)
    key = f"rate:{scope}:{who}:{bucket}"
    return _count(key, timeout=window * 2) > limit


COUNT = CacheScript(
    """
redis.call('SET', KEYS[1], 0, 'EX', ARGV[1], 'NX')
return redis.call('INCR', KEYS[1])
"""
)


def _count(key: str, *, timeout: int) -> int:
    """Add one to ``key``'s count and say the new count. On Redis (scale-out) one command,
    the same two steps as Django's (the key made at 0 with its expiry if it is not there,
    then INCR), which ``add`` and ``incr`` take three round trips for (SET NX, EXISTS,
    INCRBY). Elsewhere, Django's own."""
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        return int(COUNT(cache, [key], [timeout]))
    cache.add(key, 0, timeout=timeout)
    try:
        return int(cache.incr(key))
    except ValueError:  # evicted between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1


def limited_both(request: HttpRequest, scope: str) -> bool:
    """Count against ``scope`` per browser and ``scope_ip`` per address: over either is over
    (both are counted, so a browser cannot spend its address's allowance unseen)."""
    per_browser = limited(request, scope)
    per_address = limited(request, f"{scope}_ip", per="ip")
    return per_browser or per_address
