"""What a lobby change costs when one browser holds many sockets in the room: before (each
socket read and rendered its own view, as lobby/consumers.py did until issue 13) and now
(lobby/renders.py: one render per viewer per pass, debounced per room), side by side in
one run on a fresh SQLite database.

    .venv/bin/python bench/lobby_renders.py --sockets 100 --joins 10

For each way: S sockets of one session connect, then J newcomers join one after another
(each join announces a lobby change); it reports the lobby renders, the server CPU time and
the wall time from the first join until every socket shows the last one, and the ratios.
The CPU time runs until the
sockets have nothing more to receive. Prints one JSON line at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["CONSTELLATE_VAR_DIR"] = tempfile.mkdtemp(prefix="bench-renders-")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from asgiref.sync import sync_to_async  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from channels.testing import WebsocketCommunicator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.urls import path  # noqa: E402

from config.socket_sessions import socket_session_stack  # noqa: E402
from lobby import renders, views  # noqa: E402
from lobby.consumers import RoomConsumer  # noqa: E402
from lobby.models import Room  # noqa: E402


class PerSocketConsumer(RoomConsumer):
    """The consumer as it was: every socket placed and rendered itself on a lobby change."""

    async def lobby_changed(self, event: dict) -> None:
        ctx = await self._alone()
        await self.join_audience(await database_sync_to_async(views.audience_of_viewer)(ctx))
        await self._send_view()

    async def _send_view(self) -> None:
        html, audience = await self._render_alone()
        await self.join_audience(audience)
        await self.send(text_data=html)

    @database_sync_to_async
    def _alone(self) -> views.RoomContext:
        room = Room.objects.select_related("game").get(pk=self.room_id)
        return views.context_for(room, renders.identity_of_session(self.session_key))

    @database_sync_to_async
    def _render_alone(self) -> tuple[str, str]:
        room = Room.objects.select_related("game").get(pk=self.room_id)
        ctx = views.context_for(room, renders.identity_of_session(self.session_key))
        board, audience = views.board_html(ctx, oob=True)
        return views.render_lobby(ctx, oob=True) + board, audience or "public"


def application(consumer: type[RoomConsumer]):
    return socket_session_stack(URLRouter([path("ws/r/<str:code>/", consumer.as_asgi())]))


class Counter:
    """Counts lobby renders (the panel every view includes)."""

    def __init__(self) -> None:
        self.count = 0
        self._real = views.render_lobby

    def __enter__(self) -> Counter:
        def counted(*args, **kwargs):
            self.count += 1
            return self._real(*args, **kwargs)

        views.render_lobby = counted
        return self

    def __exit__(self, *exc: object) -> None:
        views.render_lobby = self._real


async def measure(consumer: type[RoomConsumer], sockets: int, joins: int) -> dict:
    host = Client()
    code = (await sync_to_async(host.post)("/rooms"))["Location"].rstrip("/").rsplit("/", 1)[-1]
    await sync_to_async(host.post)(f"/r/{code}/join", {"name": "Host"})
    cookie = f"sessionid={host.cookies['sessionid'].value}".encode()
    app = application(consumer)
    screens = []
    for _ in range(sockets):
        socket = WebsocketCommunicator(app, f"/ws/r/{code}/", headers=[(b"cookie", cookie)])
        assert (await socket.connect(timeout=10))[0]
        await socket.receive_from(timeout=10)
        screens.append(socket)
    last = f"{joins + 1} watching"  # the host watches too
    with Counter() as counter:
        cpu, wall = time.process_time(), time.perf_counter()
        for n in range(joins):
            response = await sync_to_async(Client().post)(f"/r/{code}/join", {"name": f"G{n}"})
            assert response.status_code in (200, 302), response.status_code
        frames = 0
        for socket in screens:
            frames += 1
            while last not in await socket.receive_from(timeout=30):
                frames += 1
        wall = time.perf_counter() - wall  # until every screen shows the last join
        seen = -1
        while counter.count != seen:  # and the renders still queued (idle costs no CPU)
            seen = counter.count
            await asyncio.sleep(0.5)
        cpu = time.process_time() - cpu
        for socket in screens:
            while not await socket.receive_nothing(timeout=0.01):
                await socket.receive_from()
                frames += 1
    for socket in screens:
        await socket.disconnect()
    return {
        "lobby_renders": counter.count - joins,  # less each join's own answer
        "frames": frames,
        "cpu_s": round(cpu, 3),
        "wall_s": round(wall, 3),
    }


async def both(sockets: int, joins: int) -> dict:
    before = await measure(PerSocketConsumer, sockets, joins)
    now = await measure(RoomConsumer, sockets, joins)
    return {
        "sockets": sockets,
        "joins": joins,
        "debounce_s": settings.LOBBY_PUSH_DEBOUNCE,
        "before": before,
        "now": now,
        "ratios_before_over_now": {
            key: round(before[key] / now[key], 1) if now[key] else None for key in before
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=100)
    parser.add_argument("--joins", type=int, default=10)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    loose = {scope: (10**6, window) for scope, (_, window) in settings.RATE_LIMITS.items()}
    with override_settings(
        ALLOWED_HOSTS=["testserver"],
        RATE_LIMITS=loose,
        SOCKETS_PER_SESSION=10**6,
        SOCKETS_PER_ROOM=10**6,
        CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}},
    ):
        result = asyncio.run(both(args.sockets, args.joins))
    for way in ("before", "now"):
        figures = result[way]
        print(
            f"{way:>6}: {figures['lobby_renders']:5d} lobby renders, "
            f"{figures['frames']:5d} frames, "
            f"{figures['cpu_s']:.3f} s CPU, {figures['wall_s']:.3f} s wall"
        )
    print(f"ratios (before / now): {result['ratios_before_over_now']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
