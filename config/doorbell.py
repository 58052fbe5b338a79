"""Doorbells between the embedded default's processes, so nobody polls a table to find out.

In the embedded default the database is the only thing daphne, the q2 cluster and the clock
share: the channel layer's messages for another process's sockets and q2's queued tasks are
rows, and each reader looked for new rows many times a second (the layer every 0.05 s, q2's
pusher every 0.1 s): most of an idle server's CPU, and a share of every action's.

Now a reader binds a Unix datagram socket in ``settings.DOORBELLS`` (a ``Doorbell``) and
waits on it, and a writer rings it (``ring``) once its rows are committed. A ring is one
small datagram to each process waiting under that name; a ring nobody waits for, or one
that finds a reader's buffer full (it has wake-ups pending already), costs nothing. Readers
still look at least every ``FALLBACK`` seconds, so a lost ring delays, never loses, a
message. Where a socket cannot be bound (a folder path too long for ``AF_UNIX``, a system
without it), the reader polls at its old interval.

Only one machine shares the embedded default's SQLite file, so a folder is enough; the
scale-out configuration's Redis blocks its readers itself and has no use for these.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import os
import select
import socket
import threading
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)

FALLBACK = 1.0  # a reader looks at least this often even if nobody rings
_counter = itertools.count()
_sender: socket.socket | None = None
_sender_lock = threading.Lock()


def _key(name: str) -> str:
    return hashlib.blake2b(name.encode(), digest_size=6).hexdigest()


class Doorbell:
    """One reader's bell: bound under ``name`` until closed."""

    def __init__(self, folder: Path, name: str) -> None:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _sweep(folder)
        self.path = folder / f"{_key(name)}-{os.getpid()}-{next(_counter)}.sock"
        # A file of this name can only be a dead process's (its pid is ours now, say after
        # a restart in a container): no live process binds another's pid.
        self.path.unlink(missing_ok=True)
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            self._socket.bind(str(self.path))
        except OSError:
            self._socket.close()
            raise
        self._socket.setblocking(False)

    @classmethod
    def open(cls, folder: Path | str | None, name: str) -> Doorbell | None:
        """A bound bell, or None where none can be bound (the reader then polls)."""
        if folder is None or not hasattr(socket, "AF_UNIX"):
            return None
        try:
            return cls(Path(folder), name)
        except OSError as error:
            log.warning("no doorbell for %s in %s (%s): polling instead", name, folder, error)
            return None

    def _drain(self) -> bool:
        rung = False
        while True:
            try:
                self._socket.recv(64)
            except (BlockingIOError, InterruptedError):
                return rung
            rung = True

    def wait(self, timeout: float) -> bool:
        """Block until rung or ``timeout`` seconds pass; True if it was rung."""
        readable, _, _ = select.select([self._socket], [], [], timeout)
        return self._drain() if readable else False

    async def wait_async(self, timeout: float) -> bool:
        """The same, from an event loop."""
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        fd = self._socket.fileno()
        loop.add_reader(fd, wake)
        timer = loop.call_later(timeout, wake)
        try:
            await woken
        finally:
            timer.cancel()
            loop.remove_reader(fd)
        return self._drain()

    def close(self) -> None:
        self._socket.close()
        self.path.unlink(missing_ok=True)


def _sweep(folder: Path) -> None:
    """Remove the bells of processes that died without closing them (a daphne's bell has a
    name nobody rings once it is gone)."""
    for entry in os.scandir(folder):
        try:
            pid = int(entry.name.split("-")[1])
            os.kill(pid, 0)
        except (IndexError, ValueError, PermissionError):
            continue  # not a bell, or another user's live process
        except ProcessLookupError:
            Path(entry.path).unlink(missing_ok=True)


def _sending_socket() -> socket.socket:
    global _sender
    with _sender_lock:
        if _sender is None:
            _sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            _sender.setblocking(False)
        return _sender


def ring(folder: Path | str | None, name: str) -> int:
    """Wake every reader waiting under ``name``; how many were rung. Never raises: a ring
    that cannot be made only leaves the readers to their own next look."""
    if folder is None or not hasattr(socket, "AF_UNIX"):
        return 0
    prefix = _key(name) + "-"
    rung = 0
    try:
        entries = [entry for entry in os.scandir(folder) if entry.name.startswith(prefix)]
        sender = _sending_socket()
    except OSError:  # no folder yet (nobody has bound a bell), or no socket to be had
        return 0
    for entry in entries:
        try:
            sender.sendto(b"!", entry.path)
            rung += 1
        except BlockingIOError:  # its buffer is full of rings it has yet to read
            rung += 1
        except (ConnectionRefusedError, FileNotFoundError):  # its process is gone
            Path(entry.path).unlink(missing_ok=True)
        except OSError as error:
            log.warning("ringing %s failed: %s", entry.path, error)
    return rung


def ring_after_commit(folder: Path | str | None, names: Iterable[str], using: str) -> None:
    """Ring ``names`` once the current transaction on ``using`` commits (at once outside
    one): a reader woken earlier would look before the rows it is rung for are visible."""
    names = tuple(names)
    if folder is None or not names:
        return
    from django.db import transaction

    def ring_all() -> None:
        for name in names:
            ring(folder, name)

    transaction.on_commit(ring_all, using=using)
