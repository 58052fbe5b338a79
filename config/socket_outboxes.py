"""This process's sockets take their channel-layer messages straight from the layer,
without a queue and a wake-up each.

channels gives every consumer a task that waits on two things at once (its browser's frames
and its channel's queue): a message put in the queue wakes that task, which makes a new
``receive`` task and a new ``asyncio.wait`` before it handles the message. For an action's
push to the six sockets of a room that was six wake-ups, six tasks and six waits on the
event loop: about 15 % of a scale-out daphne's Python under the bench
(docs/performance.md). A consumer that registers here is given its messages instead: the
layer appends each to the consumer's outbox, and one task
for all of an action's sockets has each of them handle its outbox, one after the other. So
an outbox takes only what is handled without waiting on anything but the socket's send (a
push of HTML): a message whose handling waits (a lobby change renders a view on a thread,
and a room's sockets must render theirs together to share it) goes to the queue.

Every push for a registered socket goes this way, whichever way the layer got it (this
process's action, or a message read for this process from the database or from Redis: the
clock's, another daphne's), so a socket's pushes reach it in the order the layer had them.
A consumer still handles one thing at a time, as channels has it do: its outbox is handled
only between its other messages (``take`` waits for nothing: a consumer that is busy takes
its outbox at the end of what it is doing), so a socket never gets a push in the middle of
sending its whole view. Messages the layer has for a consumer that is not registered (not
yet, or any more) go to its queue as before.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Iterable
from typing import Any, Protocol

log = logging.getLogger(__name__)


QUEUE, DUE, KEPT = "queue", "due", "kept"  # what a receiver did with a message


class Receiver(Protocol):
    def offer(self, message: dict[str, Any]) -> str:
        """``KEPT`` in the outbox; ``DUE`` if so and its outbox must now be handled (it was
        empty and the receiver is between messages); ``QUEUE`` if this kind of message
        goes to its queue, as channels has it."""
        ...

    async def take(self) -> None:
        """Handle the outbox now, unless the receiver is busy (it then does at the end of
        what it is doing). Never waits on anything but the sending of its messages."""
        ...


_receivers: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()
_running: set[asyncio.Task] = set()  # the hand-overs' tasks, kept until they end


def register(channel: str, receiver: Receiver) -> None:
    _receivers[channel] = receiver


def unregister(channel: str) -> None:
    _receivers.pop(channel, None)


def hand_over(deliveries: Iterable[tuple[str, dict[str, Any]]]) -> list[tuple[str, Any]]:
    """On the sockets' event loop: each message for a registered socket into its outbox,
    and one task to have every socket that needs it handle its outbox. Returns the
    deliveries for the others, for their queues."""
    rest: list[tuple[str, Any]] = []
    due: list[Receiver] = []
    for channel, message in deliveries:
        receiver: Receiver | None = _receivers.get(channel)
        if receiver is None:
            rest.append((channel, message))
            continue
        done = receiver.offer(message)
        if done == QUEUE:
            rest.append((channel, message))
        elif done == DUE:
            due.append(receiver)
    if due:
        task = asyncio.get_running_loop().create_task(_take_all(due))
        _running.add(task)
        task.add_done_callback(_running.discard)
    return rest


async def _take_all(receivers: list[Receiver]) -> None:
    for receiver in receivers:
        try:
            await receiver.take()
        except Exception:  # one socket's failure is not the others'
            log.exception("a socket could not be given its messages")
