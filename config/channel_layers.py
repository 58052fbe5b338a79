"""The embedded default's channel layer: channels-lite's SQLite layer, reading in batches.

channels-lite delivers one message per two queries, each through daphne's single sync
thread (shared with every view), and counts each member's pending messages before a
group send. Under a party's load that queueing, not the polling interval, was most of
the push latency. Here a poll takes every pending message of the process in one SELECT
and one UPDATE; the capacity check stays in memory (channels-lite's bounded per-channel
queues drop the oldest message of a socket that stops reading).
"""

from __future__ import annotations

from collections import defaultdict, deque

from asgiref.sync import sync_to_async
from channels_lite.layers import ChannelEmpty
from channels_lite.layers.core import SQLiteChannelLayer
from channels_lite.models import Event
from django.db import transaction
from django.utils import timezone

BATCH = 200


class BatchedSQLiteChannelLayer(SQLiteChannelLayer):
    def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("enforce_capacity", False)
        super().__init__(**kwargs)
        self._fetched: dict[str, deque] = defaultdict(deque)

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
        return [row[1] for row in rows]
