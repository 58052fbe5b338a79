"""A phone that loses the network while the others play, then comes back, shows the board as
it is now, without a reload.

Chromium's offline mode holds an open websocket's frames and delivers them when the network
returns; a longer outage (or a switch from Wi-Fi to mobile data) drops the connection
instead, and htmx-ext-ws opens a new one, on which the server sends the whole current view.
Both are played here: first offline only, then offline with the connection dropped (the
page's websocket is routed through Playwright to be able to drop it)."""

from __future__ import annotations

import pytest

from tests.e2e.browser import SHOWN_WITHIN, Person, Table, dark

pytestmark = pytest.mark.e2e

RECONNECT_AT_MOST = 4.0  # static/platform/socket.js caps htmx-ext-ws's reconnect delay at 4 s


class Line:
    """Cy's connection to the server, which the test can cut."""

    def __init__(self) -> None:
        self.down = False
        self.opened = 0
        self.live: list[tuple[object, object]] = []

    def route(self, person: Person) -> None:
        if person.name == "Cy":
            person.page.route_web_socket("**/ws/r/**", self._connect)

    def _connect(self, page_side) -> None:  # a WebSocketRoute
        if self.down:
            page_side.close(code=1006, reason="offline")  # as a failed connection looks
            return
        self.opened += 1
        self.live.append((page_side, page_side.connect_to_server()))

    def cut(self) -> None:
        self.down = True
        for page_side, server_side in self.live:
            page_side.close(code=1006, reason="connection lost")
            server_side.close()
        self.live.clear()


def _offline(table: Table, person: Person, offline: bool) -> None:
    person.context.set_offline(offline)
    if offline:
        table.away.add(person.name)
    else:
        table.away.discard(person.name)


def test_a_phone_offline_while_two_touches_land_shows_the_current_board_when_back(tables):
    line = Line()
    table: Table = tables(3, setup=line.route)
    table.join_and_sit()
    table.start()
    gazer, spotter, away = table.seat(1), table.seat(2), table.seat(3)
    stars = dark(table.sky(gazer.page), "gold")
    table.name(gazer, 3)
    assert line.opened == 1

    # 1. Offline: two touches land on the others' screens, not on Cy's.
    seen = table.version(away.page)
    _offline(table, away, True)
    table.touch(spotter, stars[0])
    now = table.touch(spotter, stars[1])
    assert table.version(away.page) == seen
    _offline(table, away, False)
    table.at_version(now)  # the held frames arrive: every screen is current again
    table.everyone(lambda p: p.locator("#sky .card.lit").count() == 2)

    # 2. Offline, and the connection drops: the others stop, name again and touch.
    _offline(table, away, True)
    line.cut()
    table.stop(spotter)
    table.name(gazer, 1)
    now = table.touch(spotter, stars[2])
    assert table.version(away.page) < now
    _offline(table, away, False)
    line.down = False
    # A new websocket within the capped delay; the server sends the whole current board.
    table.at_version(now, within=RECONNECT_AT_MOST + SHOWN_WITHIN)
    assert line.opened == 2
    assert table.sky(away.page) == table.sky(spotter.page)
    assert table.page_text(away) == table.page_text(spotter)
    table.no_reloads()
