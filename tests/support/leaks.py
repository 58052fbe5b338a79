"""What the twin-room secrecy tests of a game played by seats at once share (Look at the
Stars' and Observatory's ``test_leaks.py``): a response as text, the answers to taps and to
refused forms, where two texts first differ, and what each audience's websocket receives
while steps run, masked (``tests.support.highest.rooms.normal``), compared frame by frame.

A ``room`` is a test's room of the game (a ``tests.support.fuzzing.Table``). An audience is
a seat number, ``None`` (the spectator) or ``"stranger"`` (a socket with no session).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from asgiref.sync import sync_to_async
from django.test import Client

from lobby.models import Room
from tests.realtime.test_pushes import WAIT, open_socket, run
from tests.support.fuzzing import HX, Table
from tests.support.highest.rooms import normal, room_link
from tests.web.rooms import post


def text_of(response: Any) -> str:
    return f"{response.status_code} {response.content.decode()}"


def answers(client: Client, url: str, forms: Sequence[dict[str, Any]]) -> list[str]:
    """The answers to ``forms`` sent to ``url`` as htmx sends a tap (a GET), as text."""
    return [text_of(client.get(url, form, headers=HX)) for form in forms]


def refused(
    client: Client, room: Room, forms: Sequence[tuple[str, dict[str, object]]]
) -> list[str]:
    """The answers to ``forms`` (an action and its fields) posted as the page posts them,
    each refused whole (a 4xx), as text."""
    out = []
    for action, form in forms:
        response = post(client, room, action, **form)
        assert 400 <= response.status_code < 500, (action, form, text_of(response)[:300])
        out.append(text_of(response))
    return out


def first_difference(x: str, y: str) -> str:
    at = next(
        (i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y))
    )
    return f"...{x[max(0, at - 200) : at + 200]!r}\n   vs ...{y[max(0, at - 200) : at + 200]!r}"


async def frames_until(socket: Any, version: int) -> list[str]:
    """Every frame up to and including the one carrying the board, or the areas of it that
    changed for this socket (a push by area), at ``version``."""
    got = []
    while True:
        frame = await socket.receive_from(timeout=WAIT)
        got.append(frame)
        pushed = 'id="board"' in frame or "data-area" in frame
        if pushed and f'data-version="{version}"' in frame:
            return got


def recorded(
    room: Table,
    steps: Sequence[Callable[[Any], None]],
    audiences: Sequence[int | str | None],
    reconnect_after: int | None = None,
) -> dict[str, list[list[str]]]:
    """What each audience's socket receives while ``steps`` run, masked: the snapshot on
    connect, then the frames each step brings (one list per step); and the whole view a
    socket opened just after step ``reconnect_after`` (by default the last) is sent
    ("reconnect <who>"). No socket receives anything more after the last step (one push
    per change)."""

    def client(who: int | str | None) -> Client | None:
        if who == "stranger":
            return None
        return room.seats[who] if isinstance(who, int) else room.spectator

    async def scenario() -> dict[str, list[list[str]]]:
        code = room.room.code
        sockets = {who: await open_socket(client(who), code) for who in audiences}
        got = {str(who): [[snapshot]] for who, (_, snapshot) in sockets.items()}

        async def reconnect() -> None:
            for who in audiences:
                socket, snapshot = await open_socket(client(who), code)
                got[f"reconnect {who}"] = [[snapshot]]
                await socket.disconnect()

        for i, step in enumerate(steps):
            await sync_to_async(step)(room)
            version = (await sync_to_async(room.state)()).version
            for who, (socket, _) in sockets.items():
                got[str(who)].append(await frames_until(socket, version))
            if i == reconnect_after:
                await reconnect()
        if reconnect_after is None:
            await reconnect()
        quiet = await asyncio.gather(
            *(socket.receive_nothing(timeout=0.3) for socket, _ in sockets.values())
        )
        assert all(quiet), dict(zip(sockets, quiet, strict=True))  # one push per change
        for socket, _ in sockets.values():
            await socket.disconnect()
        return got

    found: dict[str, list[list[str]]] = {}

    async def capture() -> None:
        found.update(await scenario())

    run(capture)
    link = room_link(room.room)
    return {
        who: [[normal(f, room.room, link) for f in frames] for frames in steps_frames]
        for who, steps_frames in found.items()
    }


def same_frames(a: list[list[str]], b: list[list[str]], who: str) -> None:
    assert [len(frames) for frames in a] == [len(frames) for frames in b], who
    for step, (xs, ys) in enumerate(zip(a, b, strict=True)):
        for x, y in zip(xs, ys, strict=True):
            assert x == y, (who, step, first_difference(x, y))
