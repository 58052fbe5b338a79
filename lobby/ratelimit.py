"""Per-browser rate limits on Django's cache: a fixed window counted with an atomic incr.

With the embedded default (one web process) the local-memory cache is shared by every
request; the scale-out configuration points the cache at Redis so all processes count
together.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

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
    limit, window = settings.RATE_LIMITS[scope]
    bucket = int(time.time() // window)
    key = f"rate:{scope}:{_who(request, per)}:{bucket}"
    cache.add(key, 0, timeout=window * 2)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between add and incr
        cache.set(key, 1, timeout=window * 2)
        count = 1
    return count > limit
