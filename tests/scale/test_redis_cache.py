"""The scale-out cache keeps one pool of Redis connections a process (config/redis_cache.py):
Django made a cache object, and with it a new connection to Redis, for every request
daphne ran in a context of its own.

Only meaningful on Redis: skipped otherwise (``make test SCALE=1`` runs it)."""

from __future__ import annotations

import asyncio
import contextvars
import uuid
from collections.abc import Iterator

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from redis.connection import Connection

from lobby import limits, ratelimit
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


def test_cache_calls_share_one_redis_client_instead_of_making_one_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = caches["default"]
    cache.get("test-one-client")  # the first makes this process's client
    made: list[redis.Redis] = []
    make = redis.Redis.__init__

    def counted(client: redis.Redis, *args: object, **kwargs: object) -> None:
        made.append(client)
        make(client, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counted)
    for n in range(20):
        cache.set(f"test-one-client-{n}", n, timeout=5)
        assert cache.get(f"test-one-client-{n}") == n
    cache.delete_many([f"test-one-client-{n}" for n in range(20)])
    assert made == []  # Django's client made one a call: 41


def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


@pytest.fixture
def commands(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The commands the cache's own redis-py client sends, by name."""
    sent: list[str] = []
    client = caches["default"]._cache.get_client(write=True)  # type: ignore[attr-defined]
    for script in (ratelimit.COUNT, limits.PUBLISH):  # on the server, as after a first call
        client.script_load(script.source)
    send = client.execute_command

    def counted(*args: object, **options: object) -> object:
        sent.append(str(args[0]).upper())
        return send(*args, **options)

    monkeypatch.setattr(client, "execute_command", counted)
    return sent


def test_the_rate_limit_counts_in_one_command_with_its_window_s_expiry(
    commands: list[str],
) -> None:
    cache = caches["default"]
    key = f"test-rate-{uuid.uuid4().hex}"
    assert [ratelimit._count(key, timeout=20) for _ in range(3)] == [1, 2, 3]
    assert commands == ["EVALSHA"] * 3  # one round trip a count, no pipeline
    assert cache.get(key) == 3  # the cache reads the count the script wrote
    ttl = _redis().ttl(cache.make_key(key))
    assert 0 < ttl <= 20  # it expires with its window: a count is never kept for good
    # Redis restarted, or its scripts flushed (every client of this Redis sends its scripts
    # again, once): the count goes on.
    _redis().script_flush()
    assert ratelimit._count(key, timeout=20) == 4
    assert 0 < _redis().ttl(cache.make_key(key)) <= 20


def test_over_the_limit_is_refused_and_the_next_window_starts_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limit, window = settings.RATE_LIMITS["action"]
    now = 1_800_000_000.0 // window * window  # the start of a window: every call within it
    monkeypatch.setattr(ratelimit.time, "time", lambda: now)
    identity = uuid.uuid4().hex
    verdicts = [ratelimit.limited_identity(identity, "action") for _ in range(limit + 1)]
    assert verdicts == [False] * limit + [True]
    now += window
    assert not ratelimit.limited_identity(identity, "action")


@pytest.fixture
def slot_31() -> Iterator[limits._Here]:
    limits.forget_local_counts()
    here = limits._here
    here.slot = 31
    yield here
    limits.forget_local_counts()


def test_socket_counts_are_published_in_one_command_with_their_lease_and_withdrawn(
    slot_31: limits._Here, commands: list[str]
) -> None:
    cache = caches["default"]
    names = [f"room:test-{uuid.uuid4().hex}", f"session:test-{uuid.uuid4().hex}", "gone"]
    keys = [f"sockets:{name}:31" for name in names]
    slot_31.counts.update({names[0]: 3, names[1]: 1})
    cache.set(keys[2], 2, timeout=60)
    commands.clear()
    try:
        limits._publish(names)
        assert commands == ["EVALSHA"]  # Django's set_many: an MSET and an EXPIRE a key
        assert cache.get_many(keys) == {keys[0]: 3, keys[1]: 1}  # "gone": withdrawn
        for key in keys[:2]:
            assert 0 < _redis().ttl(cache.make_key(key)) <= limits.LEASE
        slot_31.slot = 30  # another process, counting the same room
        assert limits._others([names[0]]) == {names[0]: 3}
        slot_31.slot = 31
        slot_31.counts.clear()  # every socket closed: every count withdrawn
        limits._publish(names)
        assert cache.get_many(keys) == {}
    finally:
        cache.delete_many(keys)
