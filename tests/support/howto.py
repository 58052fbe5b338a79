"""What the rules-page tests of the games share (Look at the Stars' and Observatory's
``test_how_to_play.py``): the page as served, its words as a player reads them, and a room
of the game with its host seated (to see the room link to the page)."""

from __future__ import annotations

import html
import re

from django.test import Client

from lobby.models import Room
from tests.web.rooms import create_room, join, sit


def words(text: str) -> str:
    """The text of a page as read: tags dropped, entities unescaped, spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def rules_page(url: str) -> str:
    """The rules page at ``url``, served to a browser with no session."""
    response = Client().get(url)
    assert response.status_code == 200
    return response.content.decode()


def seated_host(slug: str) -> tuple[Client, Room]:
    """A new room of the game ``slug``, its host (Ada) seated in seat 1."""
    host = Client()
    room = create_room(host, slug)
    assert join(host, room, "Ada").status_code == 200
    assert sit(host, room, 1).status_code == 200
    return host, room
