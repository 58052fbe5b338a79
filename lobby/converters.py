"""The room code in every URL (``<room:code>``): only the code alphabet's shape matches, so a
malformed link is a 404 from the URL resolver, before any view or the database sees it.

Importing this module registers the converter; every urls module with a room code (and the
websocket routes) imports it.
"""

from __future__ import annotations

import re

from django.urls import register_converter

from .services import CODE_ALPHABET, CODE_GROUPS

_GROUP = f"[{re.escape(CODE_ALPHABET)}]{{4}}"


class RoomCode:
    """``xxxx-xxxx-xxxx-xxxx`` in the code alphabet (``lobby.services.new_code``)."""

    regex = _GROUP + f"(?:-{_GROUP}){{{CODE_GROUPS - 1}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(RoomCode, "room")
