"""The embedded default's channel layer: channels-lite's SQLite layer, reading in batches.

channels-lite delivers one message per two queries, each through daphne's single sync
thread (shared with every view), and counts each member's pending messages before a
group send. Under a party's load that queueing, not the polling interval, was most of
the push latency. Here a poll takes every pending message of the process in one SELECT
and one UPDATE; the capacity check stays in memory (channels-lite's bounded per-channel
queues drop the oldest message of a socket that stops reading).

A group send also hands messages for this process's own sockets straight to their queues:
an action handled by the daphne that holds the room's websockets reaches them at once,
without waiting for a poll. Only messages for other processes (and those sent by the q2
worker) go through the database.

An action's pushes (one message per audience group) are sent by ``send_to_groups`` from the
thread that handled the action, in one go: one SELECT finds the members of every group, this
process's sockets get theirs through the event loop's thread-safe hand-over, and the others'
messages are written in one INSERT. Sent one group at a time through ``async_to_sync`` they
cost a trip to the event loop and back into the sync thread per group (a third of an
action's CPU in-process, bench/action_cost.py).

A process's poll waits on a doorbell (config/doorbell.py) instead of sleeping: whoever
writes messages for it rings once they are committed, so an idle server no longer looks
for rows twenty times a second, and a message from the q2 worker arrives at once instead
of within the polling interval.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict, deque
from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from asgiref.sync import sync_to_async
from channels_lite.layers import BoundedQueue, ChannelEmpty
from channels_lite.layers.core import SQLiteChannelLayer
from channels_lite.models import Event, GroupMembership
from django.db import connections, transaction
from django.utils import timezone

from config import doorbell

BATCH = 200
TRIM_EVERY = 10.0  # seconds between deletions of expired rows (channels-lite: ~5 s, by chance)
log = logging.getLogger(__name__)


@lru_cache(maxsize=16)
def _members_sql(table: str, groups: int) -> str:
    """The look-up of ``groups`` groups' members in ``table`` (its name quoted)."""
    marks = ", ".join(["%s"] * groups)
    return (
        f"SELECT group_name, channel_name FROM {table} "  # noqa: S608 (no value is written in)
        f"WHERE group_name IN ({marks}) AND expires_at >= %s"
    )


class BatchedSQLiteChannelLayer(SQLiteChannelLayer):
    def __init__(self, *, doorbells: str | Path | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("enforce_capacity", False)
        super().__init__(**kwargs)
        self._fetched: dict[str, deque] = defaultdict(deque)
        self.doorbells = doorbells  # the folder of the processes' bells; None: plain polling
        self._trimmed_at = time.monotonic()

    # -- a process's sockets' messages, read when rung -----------------------------------

    async def _poll_and_distribute(self, prefix: str) -> None:
        """channels-lite's poll of one process's messages, waiting on its doorbell rather
        than sleeping between empty looks (and without its idle shutdown: daphne's
        sockets read as long as the process lives)."""
        bell = doorbell.Doorbell.open(self.doorbells, prefix)
        try:
            while True:
                try:
                    channel, message = await self._execute_with_retry(
                        lambda: self._receive_single_from_db(prefix)
                    )
                except ChannelEmpty:
                    await self._doze(bell)
                    continue
                except Exception:  # keep reading: a failed look is retried after a pause
                    log.exception("reading %s's messages failed", prefix)
                    await asyncio.sleep(self.polling_interval)
                    continue
                buffer = self.receive_buffer.get(channel)
                if buffer is None:
                    buffer = BoundedQueue(maxsize=self.get_capacity(channel))
                    self.receive_buffer[channel] = buffer
                buffer.put_nowait(message)  # a full queue drops its oldest message
        finally:
            self._polling_tasks.pop(prefix, None)
            if bell is not None:
                bell.close()

    async def _doze(self, bell: doorbell.Doorbell | None) -> None:
        if self.auto_trim and time.monotonic() - self._trimmed_at > TRIM_EVERY:
            self._trimmed_at = time.monotonic()
            try:
                await self.clean_expired()
            except Exception:  # a locked database: trimmed next time, and keep reading
                log.exception("deleting expired channel rows failed")
        if bell is None:
            await asyncio.sleep(self.polling_interval)
        else:
            await bell.wait_async(doorbell.FALLBACK)

    async def send(self, channel: str, message: dict, expiry: Any = None) -> None:
        """channels-lite's send (its own autocommit INSERT, already committed when it
        returns), then a ring for the process whose socket it is."""
        await super().send(channel, message, expiry)
        if "!" in channel and self.doorbells is not None:
            doorbell.ring(self.doorbells, self.non_local_name(channel))

    async def _receive_single_from_db(self, channel: str) -> tuple[str, dict]:
        pending = self._fetched[channel]
        if not pending:
            for data in await self._take_batch(channel):
                message = self.deserialize(data)
                pending.append((self._extract_message_channel(message, channel), message))
        if not pending:
            raise ChannelEmpty()
        return pending.popleft()

    @sync_to_async
    def _take_batch(self, channel: str) -> list[bytes]:
        with transaction.atomic(using=self.database):
            rows = list(
                Event.objects.using(self.database)
                .filter(channel_name=channel, delivered=False, expires_at__gte=timezone.now())
                .order_by("id")
                .values_list("id", "data")[:BATCH]
            )
            if rows:
                Event.objects.using(self.database).filter(
                    id__in=[row[0] for row in rows], delivered=False
                ).update(delivered=True)
        return [bytes(row[1]) for row in rows]

    # -- straight to this process's own sockets ------------------------------------------

    def _local(self, channel: str) -> bool:
        return "!" in channel and self.non_local_name(channel).endswith(self.client_prefix + "!")

    async def group_send(self, group: str, message: dict) -> None:
        """One group's message, from the event loop: the same send as an action's."""
        await sync_to_async(self.send_to_groups)([(group, message)])

    def send_to_groups(self, messages: list[tuple[str, Any]]) -> None:
        """Every (group, message) at once, from synchronous code (never from the event
        loop): see the module's docstring. A message may be given as what makes it (a
        callable): it is made only if its group has a member."""
        groups = {group for group, _ in messages}
        for group in groups:
            self.require_valid_group_name(group)
        members: dict[str, list[str]] = defaultdict(list)
        for group, channel in self._members(sorted(groups)):
            members[group].append(channel)
        loop = self.receive_event_loop
        if loop is not None and loop.is_closed():
            loop = None
        expiry = timezone.now() + timedelta(seconds=self.expiry)
        events = []
        here: list[tuple[str, dict]] = []
        for group, message in messages:
            if not members[group]:
                continue
            if callable(message):
                message = message()
            for channel in members[group]:
                if loop is not None and self._local(channel):
                    here.append((channel, dict(message)))
                    continue
                name, data = channel, message
                if "!" in channel:  # another process's socket: its queue is by its prefix
                    name, data = (
                        self.non_local_name(channel),
                        {**message, "__asgi_channel__": channel},
                    )
                events.append(
                    Event(channel_name=name, data=self.serialize(data), expires_at=expiry)
                )
        if here and loop is not None:  # one wake-up of the loop for them all
            loop.call_soon_threadsafe(self._put_all, here)
        if events:
            Event.objects.using(self.database).bulk_create(events)
            doorbell.ring_after_commit(  # wake the processes whose messages these are
                self.doorbells,
                {event.channel_name for event in events if "!" in event.channel_name},
                using=self.database,
            )

    def _members(self, groups: list[str]) -> list[tuple[str, str]]:
        """Every (group, channel) of these groups that has not expired: the query the ORM
        would build, written once per number of groups (an action's 2 to 6), since building
        and compiling it was most of its cost on every push (docs/performance.md)."""
        if not groups:
            return []
        connection = connections[self.database]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            table = connection.ops.quote_name(GroupMembership._meta.db_table)
            cursor.execute(_members_sql(table, len(groups)), [*groups, now])
            return cursor.fetchall()

    def _put_all(self, deliveries: list[tuple[str, dict]]) -> None:
        """On the receiving loop: each message into its socket's queue."""
        for channel, message in deliveries:
            buffer = self.receive_buffer.get(channel)
            if buffer is None:
                buffer = BoundedQueue(maxsize=self.get_capacity(channel))
                self.receive_buffer[channel] = buffer
            buffer.put_nowait(message)  # a full queue drops its oldest message
