"""The platform's front end: the site has a name of its own, every page names the game being
played, the home page lists every registered game, and a room loads the platform's scripts
(static/platform/) and only its own game's board styles and scripts."""

from __future__ import annotations

import random
import re
from html import unescape
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from games.registry import all_game_types
from lobby.models import Room
from tests.web import rooms, uos_rooms

pytestmark = pytest.mark.django_db

SITE = "Starlit"
PLATFORM_SCRIPTS = (
    "platform/socket.js",
    "platform/countdown.js",
    "platform/announcer.js",
    "platform/share.js",
    "platform/taps.js",
)


def title(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html, re.S)
    assert found, html[:300]
    return unescape(found.group(1).strip())


def masthead(html: str) -> str:
    found = re.search(r'<header class="masthead">(.*?)</header>', html, re.S)
    assert found, html[:300]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def room_of(kind: str) -> tuple[Client, Room]:
    host = Client()
    response = host.post("/rooms", {"kind": kind})
    assert response.status_code == 302, response
    code = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    return host, Room.objects.get(code=code)


def static_files(html: str) -> set[str]:
    """Every script and stylesheet the page fetches, as paths under /static/."""
    return set(re.findall(r'(?:src|href)="/static/([^"]+\.(?:js|css))"', html))


def test_it_names_the_site_and_lists_every_registered_game_on_the_home_page():
    html = Client().get("/").content.decode()
    assert title(html) == SITE
    assert masthead(html) == f"✦ {SITE}"
    assert f"<h1>{SITE}</h1>" in html
    games = all_game_types()
    assert len(games) >= 2
    for game in games:
        assert f'name="kind" value="{game.slug}"' in html, game.slug
        assert f"<strong>{game.title}</strong>" in html, game.slug
    assert "Constellate" not in title(html) + masthead(html)


@pytest.mark.parametrize("kind", [game.slug for game in all_game_types()])
def test_a_room_names_its_game_in_the_title_and_the_header(kind):
    game = next(g for g in all_game_types() if g.slug == kind)
    host, room = room_of(kind)
    html = rooms.page(host, room)
    assert title(html) == f"{game.title} · room {room.code} · {SITE}"
    assert masthead(html) == f"✦ {SITE} {game.title}"


@pytest.mark.parametrize("kind", [game.slug for game in all_game_types()])
def test_a_room_loads_the_platform_scripts_and_only_its_own_games_board(kind):
    game = next(g for g in all_game_types() if g.slug == kind)
    host, room = room_of(kind)
    fetched = static_files(rooms.page(host, room))
    assert set(PLATFORM_SCRIPTS) <= fetched
    assert game.styles and set(game.styles) <= fetched  # every game ships its board's look
    assert set(game.scripts) <= fetched
    for other in all_game_types():
        if other.slug != kind:
            assert not (set(other.styles) | set(other.scripts)) & fetched, other.slug


def test_no_game_ships_the_platforms_scripts_or_the_sites_styles():
    for game in all_game_types():
        for path in (*game.styles, *game.scripts):
            assert path.startswith(f"{game.slug}/"), (game.slug, path)


def test_the_site_stylesheet_holds_no_games_board():
    """Constellate's sky, cards and letters are its board.css's, not the site's."""
    site = Path(finders.find("site.css")).read_text()
    for piece in (".sky", ".card", ".letters", ".clue-word", ".uos-board", "--comet"):
        assert piece not in site, piece


def test_a_constellate_replay_names_its_game():
    table = rooms.seat_table(2)
    table.light_every_own_star()
    html = table.host.get(f"/r/{table.room.code}/history/1/").content.decode()
    assert title(html) == f"Constellate · replay of game 1 · {SITE}"
    assert masthead(html) == f"✦ {SITE} Constellate"
    assert "constellate/board.css" in static_files(html)


def test_an_under_one_sky_replay_names_its_game():
    table = uos_rooms.seat_table()
    rng = random.Random(14)
    while not table.state().ended:
        table.play_a_turn(rng)
    html = table.host.get(f"/r/{table.room.code}/history/1/").content.decode()
    assert title(html) == f"Under One Sky · replay of game 1 · {SITE}"
    assert masthead(html) == f"✦ {SITE} Under One Sky"
    assert "underonesky/board.css" in static_files(html)


def test_error_pages_carry_the_sites_name():
    html = Client().get("/r/ZZZZZZ/").content.decode()
    assert title(html).endswith(f" · {SITE}")
    assert masthead(html) == f"✦ {SITE}"
