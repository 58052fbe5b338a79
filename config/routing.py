from typing import Any, cast

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from lobby import converters  # noqa: F401 (registers <room:code>)
from lobby.consumers import RoomConsumer


class NoSuchRoom(AsyncWebsocketConsumer):
    """A socket for a malformed room link: closed as the consumer closes an unknown room's
    (4404), without asking the database, and without the router's "No route" error."""

    async def connect(self) -> None:
        await self.accept()  # a close code reaches the browser only after the handshake
        await self.close(code=4404)


# Channels routes ASGI applications with Django's path(); the stubs know only views.
websocket_urlpatterns: list[Any] = [
    path("ws/r/<room:code>/", cast(Any, RoomConsumer.as_asgi())),
    re_path(r"^ws/", cast(Any, NoSuchRoom.as_asgi())),
]
