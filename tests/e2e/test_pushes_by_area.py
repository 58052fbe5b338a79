"""Pushes by area in a real browser (static/platform/socket.js): a page keeps the newest of
each area whatever order frames arrive in, a whole board arriving after a newer area keeps
that area, and a page that missed a change asks its socket for the whole board ("resync")
and shows it. Bo's websocket runs through Playwright's router, so the test sees what the
page sends and can put frames of its own among the server's (made from the page's own HTML,
as the server would write them). An area that arrives before the change it follows waits
a moment for it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.e2e.browser import SHOWN_WITHIN, Person, Table, dark

pytestmark = pytest.mark.e2e

WAIT = SHOWN_WITHIN * 1000  # ms


def status_html(page: Page, *, version: int, since: int, turn: str) -> str:
    """The page's own top bar as the server pushes it alone: out of band, at ``version``
    changed from ``since``, saying ``turn``."""
    return page.evaluate(
        """([version, since, turn]) => {
             const status = document.querySelector('#status').cloneNode(true);
             status.dataset.version = version;
             status.dataset.since = since;
             status.setAttribute('hx-swap-oob', 'true');
             status.querySelector('.turn').textContent = turn;
             return status.outerHTML;
           }""",
        [version, since, turn],
    )


def board_html(page: Page, *, hint: str) -> str:
    """The page's whole board at its version, as the server would have drawn it then: its
    areas at the board's version, its top bar saying "The board's top bar", its card hint
    saying ``hint``."""
    return page.evaluate(
        """hint => {
             const board = document.querySelector('#board').cloneNode(true);
             for (const area of board.querySelectorAll('[data-area]')) {
               area.dataset.version = board.dataset.version;
             }
             board.querySelector('#status .turn').textContent = "The board's top bar";
             board.querySelector('.lats-card-hint').textContent = hint;
             return board.outerHTML;
           }""",
        hint,
    )


def placeless_html(element: str, *, version: int, since: int, game: str | None, text: str) -> str:
    """An area pushed alone whose element the page does not have."""
    return (
        f'<p id="{element}" data-area data-version="{version}" data-since="{since}" '
        f'data-game="{game}" hx-swap-oob="true">{text}</p>'
    )


def board_bringing(page: Page, element: str, *, version: int) -> str:
    """The page's whole board at ``version``, with an empty element ``element`` in it."""
    return page.evaluate(
        """([element, version]) => {
             const board = document.querySelector('#board').cloneNode(true);
             board.dataset.version = version;
             for (const area of board.querySelectorAll('[data-area]')) {
               area.dataset.version = version;
             }
             const place = document.createElement('p');
             place.id = element;
             place.dataset.area = '';
             board.append(place);
             board.setAttribute('hx-swap-oob', 'true');
             return board.outerHTML;
           }""",
        [element, version],
    )


def version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or 0)


def test_a_page_keeps_the_newest_area_and_recovers_a_missed_change(tables):
    sent: list[str] = []  # what Bo's page said on its socket
    sockets: list[WebSocketRoute] = []

    def route(person: Person) -> None:
        if person.name != "Bo":
            return

        def through(ws: WebSocketRoute) -> None:
            server = ws.connect_to_server()
            ws.on_message(lambda message: (sent.append(str(message)), server.send(message)))
            sockets.append(ws)

        person.page.route_web_socket(re.compile(r".*/ws/r/.*"), through)

    table: Table = tables(2, game="Look at the Stars", setup=route)
    table.join_and_sit()
    table.host.page.get_by_role("button", name="Start the game").click()
    bo = table.people[1].page
    expect(bo.locator("#status .turn")).to_contain_text("Your turn", timeout=WAIT)
    at = version(bo)
    push = sockets[-1].send

    # A change from a version the page never got (at + 1 missed): not shown, and the page
    # asks for the whole board, which the server sends as it is now (a fresh #board).
    bo.evaluate("document.querySelector('#board').dataset.e2eOld = 'yes'")
    push(status_html(bo, version=at + 2, since=at + 1, turn="After a missed change"))
    expect(bo.locator("#board[data-e2e-old]")).to_have_count(0, timeout=WAIT)
    assert sent == ["resync"]
    expect(bo.locator("#status .turn")).to_contain_text("Your turn")
    assert version(bo) == at

    # A real change arrives as areas: Ada passes, Bo's page shows her done, with no board
    # sent again and nothing asked.
    ada = table.host.page
    ada.once("dialog", lambda dialog: dialog.accept())
    ada.get_by_role("button", name="Pass").click()
    expect(bo.locator(".lats-scores")).to_contain_text("✓ done", timeout=WAIT)
    expect(bo.locator("#status")).to_have_attribute("data-version", str(at + 1))
    assert version(bo) == at
    assert sent == ["resync"]

    # A change pushed as the top bar alone, the next version: shown.
    push(status_html(bo, version=at + 2, since=at + 1, turn="Newer top bar"))
    expect(bo.locator("#status .turn")).to_have_text("Newer top bar", timeout=WAIT)
    # An older one arriving late: dropped.
    push(status_html(bo, version=at + 1, since=at, turn="Older top bar"))
    # The whole board at an older version arriving after the newer area (an action's
    # answer overtaken by the next push): swapped in, but the newer top bar stays.
    push(board_html(bo, hint="The board arrived"))
    expect(bo.locator(".lats-card-hint")).to_have_text("The board arrived", timeout=WAIT)
    expect(bo.locator("#status .turn")).to_have_text("Newer top bar")
    assert sent == ["resync"]  # nothing more was missed

    # Two changes whose pushes overtake each other: the later one waits for the earlier,
    # then shows, with nothing asked.
    push(status_html(bo, version=at + 4, since=at + 3, turn="The fourth"))
    push(status_html(bo, version=at + 3, since=at + 2, turn="The third"))
    expect(bo.locator("#status .turn")).to_have_text("The fourth", timeout=WAIT)
    expect(bo.locator("#status")).to_have_attribute("data-version", str(at + 4))
    bo.wait_for_timeout(1600)  # past the page's wait between two asks
    assert sent == ["resync"]

    # An area with no place on the page yet (a Spotter's panel, a new log line), changed
    # from a version not got: it waits for the board that brings its place, then shows...
    game = bo.locator("#board").get_attribute("data-game")
    push(placeless_html("e2e-later", version=at + 6, since=at + 5, game=game, text="Held"))
    push(board_bringing(bo, "e2e-later", version=at + 5))
    expect(bo.locator("#e2e-later")).to_have_text("Held", timeout=WAIT)
    # ...and when that board never comes, the page asks for the whole board.
    push(placeless_html("e2e-nowhere", version=at + 8, since=at + 7, game=game, text="Lost"))
    expect(bo.locator("#e2e-nowhere")).to_have_count(0)
    for _ in range(int(WAIT / 100)):
        if sent == ["resync", "resync"]:
            break
        bo.wait_for_timeout(100)
    assert sent == ["resync", "resync"]


def test_a_constellate_touch_changes_its_areas_and_the_next_touch_is_taken(tables):
    """A touch that leaves the turn going reaches the other screens as its areas (the card it
    lit, the top bar, the log's line, the sky's version field): the board around them is
    the same element, not swapped; and the next touch is made against the new version, so
    it is taken, not refused as stale (T7)."""
    table: Table = tables(2)
    table.join_and_sit()
    table.start()
    gazer, spotter = table.seat(1), table.seat(2)
    key = table.sky(gazer.page)
    table.name(gazer, 3)
    for page in table.pages:
        page.evaluate("() => { window.e2eBoard = document.querySelector('#board'); }")
    stars = dark(key, "gold")
    first = table.touch(spotter, stars[0])
    for page in table.pages:
        assert page.evaluate("() => document.querySelector('#board') === window.e2eBoard")
        assert page.locator("#sky-version").get_attribute("value") == str(first)
        expect(page.locator("#status .clue")).to_contain_text("2 touches left")
        expect(page.locator("#log li").first).to_contain_text(table.sky(gazer.page)[stars[0]].name)
    second = table.touch(spotter, stars[1])
    assert second == first + 1
    assert spotter.page.locator("#notice.error").count() == 0
    for page in table.pages:
        assert page.evaluate("() => document.querySelector('#board') === window.e2eBoard")
    table.no_reloads()


# What a page shows, read the same on the live page and on one loaded afresh: the board's
# text (the clock's seconds left out: they tick), which panel shows, which cards can be
# touched and are lit, and the step and the crew the status is marked with.
SHOWN = """() => {
  const board = document.querySelector('#board').cloneNode(true);
  board.querySelector('#countdown')?.remove();
  const panel = document.querySelector('#panel');
  return {
    text: board.innerText.replace(/\\s+/g, ' ').trim(),
    panel: panel && !panel.hidden ? panel.className : null,
    cards: [...document.querySelectorAll('#sky button[name=card]')].map(
      c => `${c.value}:${c.disabled ? 'off' : 'on'}:${c.className}`),
    frame: document.querySelector('#board').className,
    status: document.querySelector('#status').className,  // the step and the crew
  };
}"""


def test_a_whole_constellate_turn_comes_as_areas_and_shows_what_a_fresh_page_shows(tables):
    """A word, a touch, a stop that ends the turn and the next word reach every screen as
    the areas they change, never a whole board: the board around them stays the same
    element all along (T4, T7, T10). After each, every page shows what loading the room
    afresh shows: the panel is with whoever acts now, the sky's cards can be touched by the
    crew spotting only, the top bar and the log say the same."""
    table: Table = tables(2)
    table.join_and_sit()
    table.start()
    gazer, spotter = table.seat(1), table.seat(2)
    for page in table.pages:
        page.evaluate("() => { window.e2eBoard = document.querySelector('#board'); }")
    key = table.sky(gazer.page)
    stars = dark(key, "gold")

    def same_as_fresh() -> None:
        for person in table.present:
            page = person.page
            assert page.evaluate("() => document.querySelector('#board') === window.e2eBoard")
            fresh = person.context.new_page()
            try:
                fresh.goto(page.url)
                fresh.locator("#board").wait_for(state="attached")
                assert page.evaluate(SHOWN) == fresh.evaluate(SHOWN), person
            finally:
                fresh.close()

    table.name(gazer, 2)
    expect(spotter.page.locator("#panel")).to_be_visible()
    expect(gazer.page.locator("#panel")).to_be_hidden()
    same_as_fresh()
    table.touch(spotter, stars[0])
    same_as_fresh()
    table.stop(spotter)  # T10: the crew banks a touch; the next naming begins
    expect(gazer.page.locator("#word")).to_be_visible()
    expect(spotter.page.locator("#panel")).to_be_hidden()
    same_as_fresh()
    table.name(gazer, 1)
    same_as_fresh()
    table.no_reloads()
