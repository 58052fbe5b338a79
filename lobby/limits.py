"""Caps on who a room holds: spectators (people in it without a seat) and websockets, per
room and per browser.

Sockets are counted across processes in Django's cache (Redis at scale; the local memory
of the one daphne in the embedded default). Each process keeps its own counts in memory
and publishes them under a slot of its own (``sockets:<name>:<slot>``) with keys that
expire after ``LEASE`` seconds unless the process refreshes them: a process that dies takes
its counts with it within a minute. A socket is admitted when this process's count plus
every other slot's is under the cap; two processes admitting at the same instant may
overshoot by a socket or two, which a cap against abuse can afford.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

from config.clients import scope_client
from config.redis_cache import CacheScript

from .models import Room
from .services import LobbyRefusal

log = logging.getLogger(__name__)

LEASE = 60  # seconds a process's published counts (and its slot) live without a refresh
REFRESH = 15  # how often a process with sockets refreshes them
SLOTS = 32  # the most processes counted together
CLOSE_OVER_CAP = 4429  # the close code of a socket over a cap (htmx-ext-ws does not retry it)

Cap = tuple[str, int]  # (what is counted, the most allowed)


# -- spectators --------------------------------------------------------------------------


def check_room_for_newcomer(room: Room, identity: str | None) -> None:
    """Refuse a join that would seat one spectator too many (someone already in the room
    may always change their name)."""
    if identity and room.players.filter(identity=identity).exists():
        return
    cap = settings.SPECTATORS_PER_ROOM
    if room.players.filter(seat=None).count() >= cap:
        raise LobbyRefusal(
            f"This room is full: {cap} people are watching already. Try again later.", 409
        )


# -- sockets -------------------------------------------------------------------------------


def socket_caps(room_id: int, scope: Mapping[str, Any]) -> list[Cap]:
    """What a socket counts against: its room, and its browser (its session; a socket
    without one, its client address)."""
    session = scope.get("session")
    key = session.session_key if session is not None else None
    if key:
        browser = "session:" + hashlib.sha256(key.encode()).hexdigest()[:24]
    else:
        browser = f"addr:{scope_client(scope)}"
    return [(f"room:{room_id}", settings.SOCKETS_PER_ROOM), (browser, settings.SOCKETS_PER_SESSION)]


class _Here:
    """This process's sockets, by what they count against."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.token = uuid.uuid4().hex
        self.slot: int | None = None
        self.refresher: asyncio.Task | None = None


_here = _Here()


def forget_local_counts() -> None:
    """Tests: start from no sockets in this process."""
    global _here
    _here = _Here()


async def admit(caps: Sequence[Cap]) -> bool:
    """Count one more socket against each cap, if none is full; say whether it was."""
    await _run(_claim_slot)
    others = await _run(_others, [name for name, _ in caps])
    if any(_here.counts[name] + others[name] >= cap for name, cap in caps):
        return False
    for name, _ in caps:
        _here.counts[name] += 1
    _keep_fresh()
    await _run(_publish, [name for name, _ in caps])
    return True


async def release(caps: Sequence[Cap]) -> None:
    for name, _ in caps:
        _here.counts[name] -= 1
        if _here.counts[name] <= 0:
            del _here.counts[name]
    await _run(_publish, [name for name, _ in caps])


async def _run(function: Callable[..., Any], *args: Any) -> Any:
    """A cache call off the event loop (Redis is a network trip), in any thread: the cache
    clients are thread-safe and need no database connection."""
    return await sync_to_async(function, thread_sensitive=False)(*args)


def _key(name: str, slot: int) -> str:
    return f"sockets:{name}:{slot}"


def _slot_key(slot: int) -> str:
    return f"sockets:slot:{slot}"


def _claim_slot() -> int | None:
    """This process's slot, claimed or kept (``cache.add`` is atomic: one owner a slot)."""
    here = _here
    if here.slot is not None and cache.get(_slot_key(here.slot)) == here.token:
        return here.slot
    for slot in range(SLOTS):
        if cache.add(_slot_key(slot), here.token, timeout=LEASE):
            if slot != here.slot:
                here.slot = slot
                _publish(list(here.counts))  # a new slot: publish everything again
            return slot
    if here.slot is not None:
        log.warning("more than %d processes hold sockets: counting this one alone", SLOTS)
    here.slot = None
    return None


def _others(names: list[str]) -> Counter[str]:
    """Every other process's count of each name."""
    mine = _here.slot
    keys = {_key(name, slot): name for name in names for slot in range(SLOTS) if slot != mine}
    counts: Counter[str] = Counter()
    for key, value in cache.get_many(list(keys)).items():
        counts[keys[key]] += int(value or 0)
    return counts


PUBLISH = CacheScript(
    """
local kept = tonumber(ARGV[1])
for i = 1, kept do
    redis.call('SET', KEYS[i], ARGV[i + 2], 'EX', ARGV[2])
end
for i = kept + 1, #KEYS do
    redis.call('DEL', KEYS[i])
end
return kept
"""
)


def _publish(names: list[str]) -> None:
    slot = _here.slot
    if slot is None:
        return
    values = {_key(name, slot): _here.counts[name] for name in names if _here.counts[name] > 0}
    gone = [_key(name, slot) for name in names if _here.counts[name] <= 0]
    redis_cache = caches["default"]  # ``cache`` is a proxy to it, not a RedisCache itself
    if isinstance(redis_cache, RedisCache):
        # One command for them all: Django's set_many is an MSET and an EXPIRE a key, and a
        # daphne holding hundreds of sockets refreshes hundreds of keys every REFRESH.
        if values or gone:
            PUBLISH(redis_cache, [*values, *gone], [len(values), LEASE, *values.values()])
        return
    if values:
        cache.set_many(values, timeout=LEASE)
    if gone:
        cache.delete_many(gone)


def _refresh() -> None:
    """Keep this process's slot and every count it publishes alive for another lease."""
    slot = _claim_slot()
    if slot is not None:
        cache.touch(_slot_key(slot), LEASE)
        _publish(list(_here.counts))


def _keep_fresh() -> None:
    """One refresher per process (per event loop), while it holds sockets."""
    here = _here
    loop = asyncio.get_running_loop()
    task = here.refresher
    if task is not None and not task.done() and task.get_loop() is loop:
        return
    here.refresher = loop.create_task(_refresh_while_counting(here))


async def _refresh_while_counting(here: _Here) -> None:
    while here is _here and here.counts:
        await asyncio.sleep(REFRESH)
        try:
            await _run(_refresh)
        except Exception:  # the cache is down: try again next time, keep serving
            log.exception("could not refresh the socket counts")
