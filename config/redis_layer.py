"""The scale-out configuration's channel layer: channels-redis, sending an action's pushes
in one go.

An action pushes one message to each audience group of its room (five in a Constellate
game). channels-redis sends each group on its own: two round trips to find the members,
one to drop expired messages, and one Lua script sent in full, so four trips a group and
twenty an action. ``group_send_all`` finds every group's members in one script call, and
writes every message in one more per Redis connection (the same Lua script, all keys at
once, its expired messages dropped first). As channels-redis does, one message goes to
each process's key per group, listing that process's sockets in it (the process fans it
out); the messages of one call keep their order (each a microsecond after the one before).
A socket of the sending process itself, listening on its event loop, is not sent its
message through Redis at all: it goes straight into the socket's queue. A room's players
usually reach the same daphne (a proxy that routes by the room's link makes it so), and
then an action's pushes never leave the process. An action's thread sends its pushes
itself (``send_to_groups``, redis-py's blocking client): the members, the boards and the
writes on that thread, and one wake-up of the event loop for this process's sockets;
``group_send_all`` is the same for a caller on the event loop (and channels' ``group_send``).

A process reads its sockets' messages with one reader (``receive``), as the embedded
layer does: it waits for the process's key with BZPOPMIN, then takes whatever else is
waiting in one ZPOPMIN, and puts each message in its socket's queue. channels-redis had
every socket's ``receive`` take turns holding a lock to read one message at a time, four
round trips each (restore the backup, BZPOPMIN, write the backup, clear it), with two tasks
made for each of the hundreds of waiting sockets at every message: a third of a scale-out
daphne's Python under the bench. Its backup queue kept a message popped by a ``receive``
cancelled mid-read (its socket closing); the reader is not a socket's, and no socket's
closing cancels it. A message popped is in its sockets' queues before the next read; what
a process that dies holds is lost with its sockets.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter, defaultdict
from typing import Any

import redis
import redis.sentinel
from asgiref.sync import sync_to_async
from channels_redis.core import RedisChannelLayer

log = logging.getLogger(__name__)

SEND = """
local over_capacity = 0
local n = #KEYS
local now = tonumber(ARGV[2 * n + 1])
local expiry = ARGV[2 * n + 2]
local expired = tonumber(ARGV[2 * n + 3])
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, expired)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + n]) then
        redis.call('ZADD', KEYS[i], now + i * 0.000001, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""

MEMBERS = """
local found = {}
for i = 1, #KEYS do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, ARGV[1])
    found[i] = redis.call('ZRANGE', KEYS[i], 0, -1)
end
return found
"""


Entry = tuple[str, bytes, int]  # a message for Redis: its channel key, serialized, capacity

BLOCKING_TIMEOUT = 5.0  # seconds: the most an action's thread waits on a push's reply

TAKE = 200  # the most messages one read takes after the first


class BatchedRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # (event loop, process channel) -> its reader, and how many sockets wait on it
        self._readers: dict[tuple[asyncio.AbstractEventLoop, str], asyncio.Task[None]] = {}
        self._waiting: Counter[tuple[asyncio.AbstractEventLoop, str]] = Counter()
        # connection index -> redis-py's blocking client, for pushes sent from a thread
        self._blocking: dict[int, redis.Redis] = {}
        self._blocking_scripts: dict[tuple[int, str], Any] = {}
        self._blocking_lock = threading.Lock()

    # -- a process's sockets' messages, read by one reader ---------------------------------

    async def receive(self, channel: str) -> dict[str, Any]:
        """A message for one of this process's sockets, from its queue; any other channel
        is channels-redis's own."""
        if "!" not in channel:
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        process = self.non_local_name(channel)
        assert process.endswith(self.client_prefix + "!"), "another process's channel"
        reader = (asyncio.get_running_loop(), process)
        self._start_reader(reader)
        queue = self.receive_buffer[channel]
        self._waiting[reader] += 1
        try:
            return await queue.get()
        except asyncio.CancelledError:
            if queue.empty():  # its socket is gone (channels cancels a closed consumer's)
                self.receive_buffer.pop(channel, None)
            raise
        finally:
            self._waiting[reader] -= 1

    def _start_reader(self, reader: tuple[asyncio.AbstractEventLoop, str]) -> None:
        task = self._readers.get(reader)
        if task is None or task.done():
            self._readers[reader] = reader[0].create_task(self._read(reader))

    async def _read(self, reader: tuple[asyncio.AbstractEventLoop, str]) -> None:
        """Wait for the process's key, then take everything waiting there; stop once no
        socket has waited for a whole timeout (a test's loop, a process winding down)."""
        _, process = reader
        key = self.prefix + process
        index = self.consistent_hash(process)
        while True:
            try:
                connection = self.connection(index)
                first = await connection.bzpopmin(key, timeout=self.brpop_timeout)
                if first is None:
                    if self._waiting[reader] <= 0:
                        self._readers.pop(reader, None)
                        return
                    continue
                self._deliver(process, first[1])  # delivered before anything else can fail
                rest = await connection.zpopmin(key, TAKE)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away for a moment: read again after a pause
                log.exception("reading %s's messages failed", process)
                await asyncio.sleep(1)
                continue
            for content, _ in rest:
                self._deliver(process, content)

    def _deliver(self, process: str, content: bytes) -> None:
        """One message into the queue of each of its sockets (channels-redis lists them in
        ``__asgi_channel__``: one message to a process for each group). One that cannot be
        read is logged and skipped: the others still arrive."""
        try:
            message = self.deserialize(content)
            to = message.pop("__asgi_channel__", process)
        except Exception:
            log.exception("a message for %s could not be read: skipped", process)
            return
        for channel in to if isinstance(to, list) else [to]:
            self.receive_buffer[channel].put_nowait(message)  # full: drops its oldest

    async def close_pools(self) -> None:
        """channels-redis's, after stopping this loop's readers."""
        loop = asyncio.get_running_loop()
        mine = [reader for reader in self._readers if reader[0] is loop]
        stopping = [self._readers.pop(reader) for reader in mine]
        for reader in mine:
            self._waiting.pop(reader, None)
        for task in stopping:
            task.cancel()
        await asyncio.gather(*stopping, return_exceptions=True)
        await super().close_pools()

    # -- an action's pushes, sent at once --------------------------------------------------

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """One group's message from the event loop (channels' own API), sent as an
        action's are: this process's listening sockets get it straight into their queues."""
        await self.group_send_all([(group, message)])

    async def group_send_all(self, messages: list[tuple[str, Any]]) -> None:
        """Every (group, message) at once: see the module's docstring. A message may be
        given as what makes it (a callable, synchronous: an audience's board): it is made
        only if its group has a member, all of them in one hop to the caller's thread."""
        members = await self._members([group for group, _ in messages])
        messages = [(group, message) for group, message in messages if members[group]]
        makers = [message for _, message in messages if callable(message)]
        if makers:
            made = iter(await sync_to_async(lambda: [make() for make in makers])())
            messages = [
                (group, next(made) if callable(message) else message) for group, message in messages
            ]
        routed = [
            (message, self._deliver_here(members[group], message)) for group, message in messages
        ]
        for index, entries in self._sends(routed).items():
            send = self._script(index, SEND)
            over = await send(keys=_keys(entries), args=self._send_args(entries))
            if over:
                log.info("%s of %s messages over capacity", over, len(entries))

    def _sends(self, routed: list[tuple[dict[str, Any], list[str]]]) -> dict[int, list[Entry]]:
        """Connection index -> [(channel key, serialized message, capacity)], in order, for
        every (message, the channels it goes to through Redis) given."""
        sends: dict[int, list[Entry]] = defaultdict(list)
        for message, elsewhere in routed:
            if not elsewhere:
                continue
            by_connection, serialized, capacity = self._map_channel_keys_to_connection(
                elsewhere, message
            )
            for index, keys in by_connection.items():
                sends[index] += [(key, serialized[key], capacity[key]) for key in keys]
        return sends

    def _send_args(self, entries: list[Entry]) -> list[Any]:
        """SEND's arguments: every message, every capacity, then the time, the expiry, and
        the age past which a waiting message is dropped first (as channels-redis does)."""
        now = time.time()
        payloads: list[Any] = [payload for _, payload, _ in entries]
        capacities: list[Any] = [capacity for _, _, capacity in entries]
        return [*payloads, *capacities, now, self.expiry, int(now) - int(self.expiry)]

    # -- an action's pushes, sent from its own thread --------------------------------------

    def send_to_groups(self, messages: list[tuple[str, Any]]) -> None:
        """Every (group, message) at once from synchronous code (an action's thread; never
        the event loop): as ``group_send_all``, with redis-py's blocking client. The
        action's thread finds the members, makes the messages and writes them to Redis
        itself, and this process's listening sockets get theirs in one wake-up of their
        event loop: no hop to the loop and back for the members, none back to the thread to
        make the boards (the async way cost an action three hand-overs)."""
        groups = [group for group, _ in messages]
        members = self._members_blocking(groups)
        listening = self._listening_processes()
        here: dict[asyncio.AbstractEventLoop, list[tuple[str, Any]]] = defaultdict(list)
        routed: list[tuple[dict[str, Any], list[str]]] = []
        for group, message in messages:
            if not members[group]:
                continue  # made only for a group with a socket
            made = message() if callable(message) else message
            elsewhere = []
            for channel in members[group]:
                loop = self._loop_listening(channel, listening)
                if loop is None:
                    elsewhere.append(channel)
                else:
                    here[loop].append((channel, made))
            routed.append((made, elsewhere))
        for loop, deliveries in here.items():
            try:
                loop.call_soon_threadsafe(self._put_all, deliveries)
            except RuntimeError:  # its loop closed meanwhile (the process winding down)
                log.info("%d pushes to closing sockets dropped", len(deliveries))
        for index, entries in self._sends(routed).items():
            send = self._blocking_script(index, SEND)
            over = send(keys=_keys(entries), args=self._send_args(entries))
            if over:
                log.info("%s of %s messages over capacity", over, len(entries))

    def _members_blocking(self, groups: list[str]) -> dict[str, list[str]]:
        """``_members``, from a thread."""
        members: dict[str, list[str]] = {}
        stale = self._stale()
        for index, named in self._groups_by_connection(groups).items():
            keys = [self._group_key(group) for group in named]
            found = self._blocking_script(index, MEMBERS)(keys=keys, args=[stale])
            members.update(_named_members(named, found))
        return members

    def _listening_processes(self) -> dict[str, asyncio.AbstractEventLoop]:
        """This process's channels' prefixes whose reader runs, each with its loop (read
        from another thread: a copy of the readers taken at once)."""
        return {
            process: loop
            for (loop, process), task in list(self._readers.items())
            if not task.done() and not loop.is_closed()
        }

    def _loop_listening(
        self, channel: str, listening: dict[str, asyncio.AbstractEventLoop]
    ) -> asyncio.AbstractEventLoop | None:
        """The loop of a socket of this process that waits for its messages, or None."""
        if "!" not in channel or channel not in self.receive_buffer:
            return None
        return listening.get(self.non_local_name(channel))

    def _put_all(self, deliveries: list[tuple[str, Any]]) -> None:
        """On the sockets' loop: each message into its socket's queue (a socket that closed
        meanwhile has none: skipped)."""
        for channel, message in deliveries:
            queue = self.receive_buffer.get(channel)
            if queue is not None:
                queue.put_nowait(message)  # full: drops its oldest

    def _blocking_script(self, index: int, source: str) -> Any:
        """A Lua script on redis-py's blocking client for a connection (EVALSHA once Redis
        knows it); the client and its pool are made once, and are safe across threads."""
        script = self._blocking_scripts.get((index, source))
        if script is None:
            with self._blocking_lock:
                client = self._blocking.get(index)
                if client is None:
                    client = self._blocking[index] = redis.Redis(
                        connection_pool=_blocking_pool(self.hosts[index])
                    )
                script = self._blocking_scripts.setdefault(
                    (index, source), client.register_script(source)
                )
        return script

    def _deliver_here(self, channels: list[str], message: dict[str, Any]) -> list[str]:
        """Put the message straight into the queue of each of the channels that are sockets
        of this process listening on this event loop (a room's players usually share a
        process: a push then never leaves it, no Redis write and no read); return the
        others, which go through Redis. A socket of this process on another loop, or one
        not listening yet, is sent to the usual way."""
        loop = asyncio.get_running_loop()
        elsewhere: list[str] = []
        for channel in channels:
            if self._listening_here(channel, loop):
                self.receive_buffer[channel].put_nowait(message)  # full: drops its oldest
            else:
                elsewhere.append(channel)
        return elsewhere

    def _listening_here(self, channel: str, loop: asyncio.AbstractEventLoop) -> bool:
        if "!" not in channel or channel not in self.receive_buffer:
            return False
        process = self.non_local_name(channel)
        if not process.endswith(self.client_prefix + "!"):
            return False
        reader = self._readers.get((loop, process))
        return reader is not None and not reader.done()

    async def _members(self, groups: list[str]) -> dict[str, list[str]]:
        """Each group's channels (its stale members dropped first), in one call per Redis
        connection."""
        members: dict[str, list[str]] = {}
        stale = self._stale()
        for index, named in self._groups_by_connection(groups).items():
            keys = [self._group_key(group) for group in named]
            found = await self._script(index, MEMBERS)(keys=keys, args=[stale])
            members.update(_named_members(named, found))
        return members

    def _stale(self) -> int:
        """The time before which a group's member has expired (MEMBERS drops it first)."""
        return int(time.time()) - self.group_expiry

    def _groups_by_connection(self, groups: list[str]) -> dict[int, list[str]]:
        by_connection: dict[int, list[str]] = defaultdict(list)
        for group in dict.fromkeys(groups):
            if not self.require_valid_group_name(group):
                raise ValueError(f"not a group name: {group!r}")
            by_connection[self.consistent_hash(group)].append(group)
        return by_connection

    def _script(self, index: int, source: str) -> Any:
        """A Lua script on a connection, sent by its digest (EVALSHA) once Redis knows it."""
        return self.connection(index).register_script(source)


def _named_members(named: list[str], found: list[list[bytes]]) -> dict[str, list[str]]:
    """MEMBERS' answer for the groups ``named``: each group's channels."""
    return {
        group: [name.decode("utf8") for name in names]
        for group, names in zip(named, found, strict=True)
    }


def _keys(entries: list[Entry]) -> list[str]:
    return [key for key, _, _ in entries]


def _blocking_pool(host: dict[str, Any]) -> redis.ConnectionPool:
    """redis-py's blocking pool for one of the layer's hosts, as channels-redis makes its
    own (``channels_redis.utils.create_pool``): by address, by sentinel, or by arguments.

    Its replies come at once (two short scripts), so a reply waits at most
    ``BLOCKING_TIMEOUT``: the host's ``socket_timeout`` of None is for the event loop's
    readers, which wait on BZPOPMIN; here a connection dropped without a word would hold
    the action's thread until TCP keepalive gave up on it."""
    host = {**host, "socket_timeout": BLOCKING_TIMEOUT, "socket_connect_timeout": BLOCKING_TIMEOUT}
    if "address" in host:
        return redis.ConnectionPool.from_url(host.pop("address"), **host)
    master = host.pop("master_name", None)
    if master is not None:
        sentinels = redis.sentinel.Sentinel(
            host.pop("sentinels"), sentinel_kwargs=host.pop("sentinel_kwargs", None)
        )
        return redis.sentinel.SentinelConnectionPool(master, sentinels, **host)
    return redis.ConnectionPool(**host)
