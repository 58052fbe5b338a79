"""A page whose websocket the server closes cleanly (a restart during a deploy) opens a new one
by itself and shows the board as it is now, without a reload; a page the server refused
(4404: no such room, 4429: over a socket cap) does not ask again.

htmx-ext-ws reopens a socket only after abnormal closes (1006, 1011, 1012, 1013); the
platform's static/platform/socket.js reopens it after the others too, except the refusals.
A test plays the server's side of the close through Playwright's websocket routing, and
one restarts the real daphne process of the test cluster."""

from __future__ import annotations

import time

import pytest

from tests.e2e.browser import SHOWN_WITHIN, Person, Table, dark

pytestmark = pytest.mark.e2e

RECONNECT_AT_MOST = 4.0  # socket.js caps the reconnect delay at 4 s, as for a dropped line
CLOSES = """() => {
  window.e2eCloses = [];
  document.addEventListener("htmx:wsClose", (e) => window.e2eCloses.push(e.detail.event.code));
}"""


class Server:
    """What Cy's page reaches as the server: the real one through a route that can close
    the page's socket with a chosen code, or answer new sockets with that close at once."""

    def __init__(self, who: str = "Cy") -> None:
        self.who = who
        self.refusing: int | None = None  # while set, every new socket is closed so
        self.attempts = 0  # sockets the page opened
        self.live: list[tuple[object, object]] = []

    def route(self, person: Person) -> None:
        if person.name == self.who:
            person.page.route_web_socket("**/ws/r/**", self._connect)

    def _connect(self, page_side) -> None:  # a WebSocketRoute
        self.attempts += 1
        if self.refusing is not None:
            page_side.close(code=self.refusing, reason="closed by the test's server")
            return
        self.live.append((page_side, page_side.connect_to_server()))

    def close(self, code: int, *, then_refuse: bool = False) -> None:
        """Close every open socket of the page with ``code``, as the server does."""
        if then_refuse:
            self.refusing = code
        for page_side, server_side in self.live:
            server_side.close()
            page_side.close(code=code, reason="closed by the test's server")
        self.live.clear()


def _wait(page, until, within: float, what: str) -> None:
    """Poll through Playwright's own wait: the routes' handlers run only while it is called
    (a time.sleep would hold them, and the page's sockets with them)."""
    deadline = time.monotonic() + within
    while not until():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not within {within} s")
        page.wait_for_timeout(50)


@pytest.mark.parametrize("code", [1000, 1001])
def test_a_clean_close_reopens_the_socket_and_shows_the_current_board(tables, code):
    server = Server()
    table: Table = tables(3, setup=server.route)
    table.join_and_sit()
    table.start()
    gazer, spotter, cy = table.seat(1), table.seat(2), table.seat(3)
    cy.page.evaluate(CLOSES)
    stars = dark(table.sky(gazer.page), "gold")
    table.name(gazer, 2)
    assert server.attempts == 1

    # The server goes away cleanly and, while it restarts, closes new sockets cleanly too:
    # the page keeps asking (htmx-ext-ws alone would have stopped at the first close).
    table.away.add(cy.name)
    server.close(code, then_refuse=True)
    _wait(cy.page, lambda: server.attempts >= 3, 2 * RECONNECT_AT_MOST, "two more sockets")
    now = table.touch(spotter, stars[0])
    assert table.version(cy.page) < now

    # Back up: the next socket gets the whole current board.
    server.refusing = None
    table.away.discard(cy.name)
    table.at_version(now, within=RECONNECT_AT_MOST + SHOWN_WITHIN)
    assert set(cy.page.evaluate("window.e2eCloses")) == {code}
    assert table.sky(cy.page) == table.sky(spotter.page)
    assert table.page_text(cy) == table.page_text(spotter)
    table.no_reloads()


@pytest.mark.parametrize("code", [4404, 4429])
def test_a_refused_socket_is_not_asked_again(tables, code):
    server = Server(who="Ada")
    table: Table = tables(1, setup=server.route)
    page = table.host.page
    page.evaluate(CLOSES)
    _wait(page, lambda: server.live, SHOWN_WITHIN, "the first socket")

    server.close(code)
    _wait(page, lambda: page.evaluate("window.e2eCloses.length") == 1, SHOWN_WITHIN, "the close")
    page.wait_for_timeout((RECONNECT_AT_MOST + 1) * 1000)  # longer than any reconnect delay
    assert server.attempts == 1
    assert page.evaluate("window.e2eCloses") == [code]


def test_a_restarted_server_is_reached_again_without_a_reload(tables, live):
    """The deploy itself: daphne stopped as an operator does (SIGTERM) and started again on
    the same port; every page's socket comes back and shows what happens next. (daphne
    drops its sockets on SIGTERM, so the pages see 1006 here; the clean codes a server or a
    proxy in front of it may send are played through the route above.)"""
    table: Table = tables(2)
    table.join_and_sit()
    table.start()
    gazer, spotter = table.seat(1), table.seat(2)
    for page in table.pages:
        page.evaluate(CLOSES)
        page.evaluate(
            """() => { window.e2eOpens = 0;
                document.addEventListener("htmx:wsOpen", () => { window.e2eOpens += 1; }); }"""
        )
    live.stop("daphne")
    table.everyone(lambda p: p.evaluate("window.e2eCloses.length") >= 1)
    live.start("daphne")
    table.everyone(lambda p: p.evaluate("window.e2eOpens") >= 1, within=2 * RECONNECT_AT_MOST)

    stars = dark(table.sky(gazer.page), "gold")
    table.name(gazer, 1)
    table.touch(spotter, stars[0])
    table.no_reloads()
