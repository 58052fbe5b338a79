"""Connection trouble a player can see (issue 15): the room says "Reconnecting…" while its
socket is down and "Offline…" while the phone has no network; a tap made then is refused in
the page with "Not sent — tap again" on what was tapped and in the notice line, and nothing
is stored; a tap whose request fails on the network says the same; and a tapped card is
marked pending until the push lands. static/platform/socket.js and taps.js, every game.

The players here are on phones (390×844); screenshots of each state are saved under
test-artifacts/screenshots/."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page

from games.models import Event
from tests.e2e.browser import PHONE, SHOWN_WITHIN, Person, Table, dark
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.e2e

NOT_SENT = "Not sent — tap again"
OFFLINE = "Offline: your taps will not be sent"
RECONNECTING = "Reconnecting…"
RECONNECT_AT_MOST = 4.0  # socket.js caps the reconnect delay at 4 s
QUIET_AGAIN_WITHIN = 4.0  # "Connected again" is said for 2.5 s, then the line is empty
SHOTS = ARTIFACTS / "screenshots"


class Line:
    """A player's websocket, routed through Playwright so that the test can drop it: the
    page sees an abnormal close (1006) and, while the line is down, every new socket fails."""

    def __init__(self, who: str) -> None:
        self.who = who
        self.down = False
        self.live: list[tuple[object, object]] = []

    def route(self, person: Person) -> None:
        if person.name == self.who:
            person.page.route_web_socket("**/ws/r/**", self._connect)

    def _connect(self, page_side) -> None:  # a WebSocketRoute
        if self.down:
            page_side.close(code=1006, reason="no network")
            return
        self.live.append((page_side, page_side.connect_to_server()))

    def cut(self) -> None:
        self.down = True
        for page_side, server_side in self.live:
            page_side.close(code=1006, reason="connection lost")
            server_side.close()
        self.live.clear()


class Actions:
    """A player's websocket, routed through Playwright so that the test can hold the actions
    the page sends on it (static/platform/socket.js), or drop the line as one is sent."""

    def __init__(self, who: str) -> None:
        self.who = who
        self.holding = False
        self.dropping = False
        self.held: list[tuple[object, str]] = []

    def route(self, person: Person) -> None:
        if person.name == self.who:
            person.page.route_web_socket("**/ws/r/**", self._connect)

    def _connect(self, page_side) -> None:  # a WebSocketRoute
        server_side = page_side.connect_to_server()

        def from_page(message: str | bytes) -> None:
            action = isinstance(message, str) and message.startswith("{")
            if action and self.dropping:
                self.dropping = False
                page_side.close(code=1006, reason="connection lost")
                server_side.close()
            elif action and self.holding:
                self.held.append((server_side, message))
            else:
                server_side.send(message)

        page_side.on_message(from_page)

    def release(self) -> None:
        self.holding = False
        for server_side, message in self.held:
            server_side.send(message)
        self.held.clear()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def reads(page: Page, selector: str, text: str, within: float = SHOWN_WITHIN) -> None:
    """``selector`` reads ``text`` within ``within`` s (through Playwright's own wait, so that
    the websocket routes keep running meanwhile)."""
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.textContent || '').trim() === t",
        arg=[selector, text],
        timeout=within * 1000,
    )


def quiet_again(page: Page, within: float) -> None:
    """The connection line says "Connected again", then nothing, and shows nothing."""
    reads(page, "#connection", "", within=within)
    box = page.locator("#connection").bounding_box()
    assert box is None or box["width"] * box["height"] == 0, box


def offline(table: Table, person: Person, is_offline: bool) -> None:
    person.context.set_offline(is_offline)
    if is_offline:
        table.away.add(person.name)
    else:
        table.away.discard(person.name)


def refused_here(page: Page, tapped, events: int, versions: dict[str, int], table: Table) -> None:
    """The tap says "Not sent — tap again" on what was tapped and in the notice line, is not
    pending, and nothing reached the game: no event, no screen moved on."""
    note = tapped.locator(".tap-note")
    note.wait_for()
    assert note.inner_text().strip().endswith(NOT_SENT)
    assert tapped.get_attribute("aria-describedby") == note.get_attribute("id")
    reads(page, "#notice", NOT_SENT)
    assert tapped.get_attribute("aria-busy") is None
    assert "pending" not in (tapped.get_attribute("class") or "").split()
    page.wait_for_timeout(300)  # time enough for a request, had one been sent
    assert Event.objects.count() == events
    assert {p.name: table.version(p.page) for p in table.people} == versions


def seated_game(table: Table) -> tuple[Person, Person, list[int]]:
    table.join_and_sit()
    table.start()
    gazer, spotter = table.seat(1), table.seat(2)
    stars = dark(table.sky(gazer.page), "gold")
    table.name(gazer, 2)
    return gazer, spotter, stars


def test_it_refuses_a_tap_made_offline_with_not_sent_tap_again(tables):
    table: Table = tables(2, viewport=PHONE)
    _, spotter, stars = seated_game(table)
    page = spotter.page
    assert page.locator("#connection").inner_text() == ""  # quiet while it works
    events = Event.objects.count()
    versions = {p.name: table.version(p.page) for p in table.people}

    # The phone loses the network: the room says so, where the player looks.
    offline(table, spotter, True)
    reads(page, "#connection", OFFLINE)
    assert page.locator("#connection").is_visible()
    shot(page, "phone-offline")

    # A card tapped now is not sent, and the page says so on the card and in the notice.
    card = page.locator(f'#sky button[value="{stars[0]}"]')
    card.click()
    refused_here(page, card, events, versions, table)
    card.scroll_into_view_if_needed()
    shot(page, "phone-offline-not-sent")

    # Back online: the line says so, then goes quiet; the message stays until the next tap,
    # and that tap lands on every screen.
    offline(table, spotter, False)
    reads(page, "#connection", "Connected again")
    quiet_again(page, QUIET_AGAIN_WITHIN)
    assert card.locator(".tap-note").count() == 1
    table.touch(spotter, stars[0])
    assert page.locator(".tap-note, .tap-failed, .pending").count() == 0
    assert page.locator("#notice").inner_text().strip() != NOT_SENT
    assert Event.objects.count() == events + 1


def test_it_says_reconnecting_while_the_socket_is_down_and_refuses_taps_meanwhile(tables):
    line = Line("Bo")
    table: Table = tables(2, viewport=PHONE, setup=line.route)
    _, spotter, stars = seated_game(table)
    page = spotter.page
    events = Event.objects.count()
    versions = {p.name: table.version(p.page) for p in table.people}

    table.away.add(spotter.name)
    line.cut()
    reads(page, "#connection", RECONNECTING)
    assert page.locator("#connection").is_visible()
    assert page.evaluate("navigator.onLine")  # the network is there; the socket is not
    shot(page, "phone-reconnecting")

    card = page.locator(f'#sky button[value="{stars[0]}"]')
    card.click()
    refused_here(page, card, events, versions, table)
    assert page.locator("#connection").inner_text().strip() == RECONNECTING
    card.scroll_into_view_if_needed()
    shot(page, "phone-reconnecting-not-sent")

    # The socket comes back: the server sends the whole board again, which still says what
    # was not sent, and the line goes quiet.
    page.evaluate("document.getElementById('board').e2eOld = true")
    line.down = False
    table.away.discard(spotter.name)
    page.wait_for_function(
        "() => !document.getElementById('board').e2eOld",
        timeout=(RECONNECT_AT_MOST + SHOWN_WITHIN) * 1000,
    )
    quiet_again(page, QUIET_AGAIN_WITHIN)
    card.locator(".tap-note").wait_for()
    reads(page, "#notice", NOT_SENT)
    table.touch(spotter, stars[0])
    assert page.locator(".tap-note, .tap-failed").count() == 0
    assert Event.objects.count() == events + 1
    table.no_reloads()


def test_a_tapped_card_is_pending_until_the_push_lands(tables):
    actions = Actions("Bo")
    table: Table = tables(2, viewport=PHONE, setup=actions.route)
    _, spotter, stars = seated_game(table)
    page = spotter.page
    before = table.version(page)
    actions.holding = True  # the touch, sent on the socket, is held on its way

    card = page.locator(f'#sky button[value="{stars[0]}"]')
    card.click()
    deadline = time.monotonic() + SHOWN_WITHIN
    while not actions.held:
        assert time.monotonic() < deadline, "the touch was not sent"
        page.wait_for_timeout(20)
    assert card.get_attribute("aria-busy") == "true"
    assert "pending" in card.get_attribute("class").split()
    outline = card.evaluate("c => getComputedStyle(c).outlineStyle")
    assert outline == "dashed"  # a shape, not only a colour
    assert table.version(page) == before
    shot(page, "phone-pending")
    box = card.bounding_box()
    clip = {
        "x": box["x"] - 8,
        "y": box["y"] - 8,
        "width": box["width"] + 16,
        "height": box["height"] + 16,
    }
    page.screenshot(path=str(SHOTS / "phone-pending-card.png"), clip=clip)

    actions.release()
    table.act_shown(spotter, before, time.monotonic())
    for person in table.people:
        assert person.page.locator(".pending, [aria-busy=true]").count() == 0


def test_a_tap_whose_socket_drops_before_it_is_sent_says_not_sent(tables):
    actions = Actions("Bo")
    table: Table = tables(2, viewport=PHONE, setup=actions.route)
    _, spotter, stars = seated_game(table)
    page = spotter.page

    table.touch(spotter, stars[0])  # after a first touch, Stop is offered
    events, versions = Event.objects.count(), {p.name: table.version(p.page) for p in table.people}
    actions.dropping = True  # the line drops as the Stop goes out on it
    table.away.add(spotter.name)
    stop = page.get_by_role("button", name="Stop and bank a touch")
    stop.click()
    note = stop.locator(".tap-note")
    note.wait_for()
    assert note.inner_text().strip().endswith(NOT_SENT)
    assert stop.get_attribute("aria-busy") is None
    assert Event.objects.count() == events
    assert {p.name: table.version(p.page) for p in table.people} == versions

    # The socket comes back by itself; the board it brings still says what was not sent.
    reads(page, "#connection", "", within=RECONNECT_AT_MOST + QUIET_AGAIN_WITHIN + SHOWN_WITHIN)
    table.away.discard(spotter.name)
    page.get_by_role("button", name="Stop and bank a touch").locator(".tap-note").wait_for()
    table.stop(spotter)
    assert Event.objects.count() > events


def under_one_sky_placing(tables) -> tuple[Table, Person, Page, int, dict[str, int]]:
    """An Under One Sky game on two phones, and the player about to place a tile: (the
    table, the player, their page, the events stored, every screen's version)."""
    table: Table = tables(2, viewport=PHONE, game="Under One Sky")
    table.join_and_sit()
    table.host.page.get_by_role("button", name="Start the game").click()
    table.everyone(lambda p: p.locator("#board .space").count() == 25)
    player = next(p for p in table.people if p.page.locator("#uos-play.placing").count())
    page = player.page
    events = Event.objects.count()
    versions = {p.name: table.version(p.page) for p in table.people}
    return table, player, page, events, versions


def test_a_tap_whose_post_fails_on_the_network_says_not_sent(tables):
    """A board that takes its actions by POST (Under One Sky's), its request lost."""
    table, _, page, events, versions = under_one_sky_placing(tables)
    page.route(re.compile(r".*/play/place$"), lambda route: route.abort("internetdisconnected"))

    page.locator(".tray-tile").first.click()
    space = page.locator("button.space.target").first
    space.click()
    refused_here(page, space, events, versions, table)
    assert page.locator("#connection").inner_text() == ""  # the socket is fine


def test_under_one_sky_refuses_a_space_tapped_offline(tables):
    table, player, page, events, versions = under_one_sky_placing(tables)

    page.locator(".tray-tile").first.click()
    offline(table, player, True)
    reads(page, "#connection", OFFLINE)
    space = page.locator("button.space.target").first
    space.click()
    refused_here(page, space, events, versions, table)
    space.scroll_into_view_if_needed()
    shot(page, "phone-underonesky-not-sent")

    offline(table, player, False)
    quiet_again(page, QUIET_AGAIN_WITHIN)
    table.act(player, space.click)
    assert Event.objects.count() > events
