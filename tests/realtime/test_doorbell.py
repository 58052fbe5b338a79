"""The embedded default's processes wake each other by doorbell (config/doorbell.py): a
socket's push from another process (the q2 worker's expiry, a second daphne's action) and a
queued task reach their reader at once, without the reader polling its table."""

from __future__ import annotations

import asyncio
import itertools
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django_q.brokers import get_broker
from django_q.models import OrmQ

from config import doorbell
from config.channel_layers import BatchedSQLiteChannelLayer
from config.q_broker import RungORM

EMBEDDED = settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("BatchedSQLiteChannelLayer")


@pytest.fixture
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="bells") as name:  # short: AF_UNIX paths are
        yield Path(name)


@pytest.fixture
def no_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Readers never look on their own: only a ring can wake one in time."""
    monkeypatch.setattr(doorbell, "FALLBACK", 60.0)


def test_a_ring_wakes_the_reader_waiting_under_its_name(folder: Path) -> None:
    bell = doorbell.Doorbell(folder, "specific.abc!")
    other = doorbell.Doorbell(folder, "specific.xyz!")
    try:
        assert doorbell.ring(folder, "specific.abc!") == 1
        started = time.monotonic()
        assert bell.wait(5.0) is True
        assert time.monotonic() - started < 1.0
        assert other.wait(0.05) is False  # a bell of another name stays quiet
        assert bell.wait(0.05) is False  # the ring was used up
    finally:
        bell.close()
        other.close()
    assert list(folder.iterdir()) == []


def test_rings_while_the_reader_is_busy_wake_it_once(folder: Path) -> None:
    bell = doorbell.Doorbell(folder, "q2:constellate")
    try:
        for _ in range(50):
            doorbell.ring(folder, "q2:constellate")
        assert bell.wait(1.0) is True
        assert bell.wait(0.05) is False
    finally:
        bell.close()


def test_a_ring_nobody_waits_for_costs_nothing_and_clears_a_dead_readers_bell(
    folder: Path,
) -> None:
    assert doorbell.ring(folder, "nobody") == 0
    assert doorbell.ring(folder / "missing", "nobody") == 0
    dead = doorbell.Doorbell(folder, "gone")
    dead._socket.close()  # its process died without closing it: the file stays behind
    assert dead.path.exists()
    assert doorbell.ring(folder, "gone") == 0
    assert not dead.path.exists()


def test_a_dead_processs_bell_is_swept_and_its_name_can_be_bound_again(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dead = folder / "abcdef012345-999999999-0.sock"  # no process has that pid
    dead.touch()
    mine = doorbell.Doorbell(folder, "q2:constellate")
    mine._socket.close()  # this process "dies" without closing its bell...
    number = int(mine.path.stem.rsplit("-", 1)[1])
    monkeypatch.setattr(doorbell, "_counter", itertools.count(number))
    again = doorbell.Doorbell(folder, "q2:constellate")  # ...and, back with the same pid,
    try:  # binds the same name again (no EADDRINUSE)
        assert again.path == mine.path
        assert not dead.exists()
        assert doorbell.ring(folder, "q2:constellate") == 1
        assert again.wait(1.0) is True
    finally:
        again.close()


def test_no_bell_where_none_can_be_bound_so_the_reader_polls(folder: Path) -> None:
    too_long = folder / ("x" * 120)
    assert doorbell.Doorbell.open(too_long, "specific.abc!") is None
    assert doorbell.Doorbell.open(None, "specific.abc!") is None


def test_an_event_loop_waits_on_its_bell_without_blocking(folder: Path) -> None:
    bell = doorbell.Doorbell(folder, "specific.loop!")

    async def scenario() -> tuple[bool, bool, float]:
        ticks = 0

        async def ticking() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.ensure_future(ticking())
        quiet = await bell.wait_async(0.1)
        threading.Timer(0.1, doorbell.ring, (folder, "specific.loop!")).start()
        started = time.monotonic()
        rung = await bell.wait_async(10.0)
        elapsed = time.monotonic() - started
        ticker.cancel()
        assert ticks > 5  # the loop ran on while waiting
        return quiet, rung, elapsed

    try:
        quiet, rung, elapsed = asyncio.run(scenario())
    finally:
        bell.close()
    assert quiet is False and rung is True
    assert elapsed < 2.0


@pytest.mark.skipif(not EMBEDDED, reason="the embedded default's layer (scale-out: Redis)")
@pytest.mark.django_db(transaction=True)
def test_another_processs_socket_gets_its_push_at_once(no_fallback: None) -> None:
    """A second daphne (its own layer, its own prefix) holds the socket; this process's
    action reaches it by its bell, though its polling interval is a minute."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"] | {"polling_interval": 60.0}
    elsewhere = BatchedSQLiteChannelLayer(**config)
    here = get_channel_layer()

    async def scenario() -> tuple[dict, float]:
        channel = await elsewhere.new_channel()
        await elsewhere.group_add("room-3-public", channel)
        receiving = asyncio.ensure_future(elsewhere.receive(channel))
        await asyncio.sleep(0.3)  # its reader has looked, found nothing, and waits
        started = time.monotonic()
        await asyncio.to_thread(
            here.send_to_groups, [("room-3-public", {"type": "board.push", "version": 5})]
        )
        message = await asyncio.wait_for(receiving, timeout=5)
        elapsed = time.monotonic() - started
        await elsewhere.close()
        return message, elapsed

    message, elapsed = async_to_sync(scenario)()
    assert message["version"] == 5
    assert elapsed < 2.0


@pytest.mark.skipif(not EMBEDDED, reason="the embedded default's q2 broker (scale-out: Redis)")
@pytest.mark.django_db(transaction=True)
def test_a_queued_task_wakes_the_idle_pusher(monkeypatch: pytest.MonkeyPatch) -> None:
    pusher_side = get_broker()
    assert isinstance(pusher_side, RungORM)
    monkeypatch.setattr(doorbell, "FALLBACK", 0.05)
    assert pusher_side.dequeue() is None  # binds its bell, looks, finds nothing
    monkeypatch.setattr(doorbell, "FALLBACK", 60.0)  # from now on, an empty look waits...
    taken: list[tuple[object, object]] = []

    def pusher() -> None:  # ...as django-q2's pusher loop does, until a task comes
        while not taken:
            taken.extend(pusher_side.dequeue() or [])

    thread = threading.Thread(target=pusher, daemon=True)
    try:
        thread.start()
        time.sleep(0.2)
        get_broker().enqueue("a signed task")
        thread.join(5.0)
        assert not thread.is_alive(), "the pusher slept through the enqueue"
        assert taken == [(OrmQ.objects.get().pk, "a signed task")]
    finally:
        assert pusher_side._bell is not None
        pusher_side._bell.close()


@pytest.mark.skipif(not EMBEDDED, reason="the embedded default's layer (scale-out: Redis)")
@pytest.mark.django_db(transaction=True)
def test_a_message_sent_to_another_processs_socket_rings_too(no_fallback: None) -> None:
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"] | {"polling_interval": 60.0}
    elsewhere = BatchedSQLiteChannelLayer(**config)
    here = get_channel_layer()

    async def scenario() -> dict:
        channel = await elsewhere.new_channel()
        receiving = asyncio.ensure_future(elsewhere.receive(channel))
        await asyncio.sleep(0.3)  # its reader has looked, found nothing, and waits
        await here.send(channel, {"type": "lobby.changed"})
        message = await asyncio.wait_for(receiving, timeout=5)
        await elsewhere.close()
        return message

    assert async_to_sync(scenario)()["type"] == "lobby.changed"
