"""No piece of a template's own source reaches a player's screen.

Django's ``{# #}`` comment is one line only: spread over two, it is printed as text. It
once put five lines of a developer's note into every game's status box."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web import uos_rooms
from tests.web.rooms import page, seat_table

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = [
    *ROOT.glob("templates/**/*.html"),
    *ROOT.glob("*/templates/**/*.html"),
    *ROOT.glob("games/*/templates/**/*.html"),
]
TEMPLATE_TEXT = re.compile(r"\{#|#\}|\{%|%\}|\{\{|\}\}")


def test_every_short_comment_closes_on_its_own_line():
    assert len(TEMPLATES) >= 8
    open_comments = [
        f"{template.relative_to(ROOT)}:{number}"
        for template in TEMPLATES
        for number, line in enumerate(template.read_text().splitlines(), 1)
        if line.count("{#") != line.count("#}")
    ]
    assert open_comments == []


@pytest.mark.django_db
def test_no_screen_of_either_game_shows_template_source():
    table = seat_table(4, step="60")  # the clock on: the countdown partial renders in full
    screens = [page(client, table.room) for client in (*table.seats.values(), table.spectator)]
    uos = uos_rooms.seat_table()
    screens += [uos.page(1), uos.page(2), uos.page(None)]
    for screen in screens:
        assert 'id="countdown"' in screen or 'id="notice"' in screen
        assert TEMPLATE_TEXT.findall(screen) == []
