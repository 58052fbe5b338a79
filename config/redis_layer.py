"""The scale-out configuration's channel layer: channels-redis, sending an action's pushes
in one go.

An action pushes one message to each audience group of its room (five in a Constellate
game). channels-redis sends each group on its own: two round trips to find the members,
one to drop expired messages, and one Lua script sent in full, so four trips a group and
twenty an action. ``group_send_all`` finds every group's members in one pipeline, and
writes every message in one more per Redis connection (the same Lua script, all keys at
once). As channels-redis does, one message goes to each process's key per group, listing
that process's sockets in it (the process fans it out); the messages of one call keep their
order (each a microsecond after the one before).
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from typing import Any

from asgiref.sync import sync_to_async
from channels_redis.core import RedisChannelLayer

log = logging.getLogger(__name__)

SEND = """
local over_capacity = 0
local n = #KEYS
local now = tonumber(ARGV[2 * n + 1])
local expiry = ARGV[2 * n + 2]
for i = 1, n do
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + n]) then
        redis.call('ZADD', KEYS[i], now + i * 0.000001, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


class BatchedRedisChannelLayer(RedisChannelLayer):
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
        # connection index -> [(channel key, serialized message, capacity)], in order
        sends: dict[int, list[tuple[str, bytes, int]]] = defaultdict(list)
        for group, message in messages:
            by_connection, serialized, capacity = self._map_channel_keys_to_connection(
                members[group], message
            )
            for index, keys in by_connection.items():
                sends[index] += [(key, serialized[key], capacity[key]) for key in keys]
        now = time.time()
        for index, entries in sends.items():
            keys = [key for key, _, _ in entries]
            pipe = self.connection(index).pipeline()
            for key in dict.fromkeys(keys):  # drop expired messages, as channels-redis does
                pipe.zremrangebyscore(key, min=0, max=int(now) - int(self.expiry))
            payloads: list[Any] = [payload for _, payload, _ in entries]
            capacities: list[Any] = [capacity for _, _, capacity in entries]
            pipe.eval(SEND, len(keys), *keys, *payloads, *capacities, now, self.expiry)
            over = (await pipe.execute())[-1]
            if over:
                log.info("%s of %s messages over capacity", over, len(entries))

    async def _members(self, groups: list[str]) -> dict[str, list[str]]:
        """Each group's channels, found in one pipeline per Redis connection."""
        by_connection: dict[int, list[str]] = defaultdict(list)
        for group in dict.fromkeys(groups):
            assert self.require_valid_group_name(group), "Group name not valid"
            by_connection[self.consistent_hash(group)].append(group)
        stale = int(time.time()) - self.group_expiry
        members: dict[str, list[str]] = {}
        for index, named in by_connection.items():
            pipe = self.connection(index).pipeline()
            for group in named:
                key = self._group_key(group)
                pipe.zremrangebyscore(key, min=0, max=stale)
                pipe.zrange(key, 0, -1)
            found = await pipe.execute()
            for group, names in zip(named, found[1::2], strict=True):
                members[group] = [name.decode("utf8") for name in names]
        return members
