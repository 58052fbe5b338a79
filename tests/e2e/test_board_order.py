"""Boards arrive out of order: two pushes sent at once, or an action's own answer landing
after the push of the next action, reach a browser in either order. The page keeps the
newest board of a game (static/platform/socket.js): an older one arriving late would show a
turn that is over, and hide the one that has begun until the next push."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from tests.e2e.browser import Table
from tests.e2e.test_underonesky import mover, place

pytestmark = pytest.mark.e2e

# A board arriving as a push or an answer does: swapped out of band by its id.
DELIVER = """html => window.htmx.swap(document.body, html, {swapStyle: 'none'})"""


def shown_board(page: Page) -> dict:
    return page.evaluate(
        """() => { const b = document.querySelector('#board');
                   return {version: +b.dataset.version, game: b.dataset.game,
                           text: b.textContent.replace(/\\s+/g, ' ').trim()}; }"""
    )


def as_pushed(page: Page, **changes: str) -> str:
    """The board shown now, as the server pushes it (hx-swap-oob), with attributes changed."""
    return page.evaluate(
        """changes => { const b = document.querySelector('#board').cloneNode(true);
                        b.setAttribute('hx-swap-oob', 'true');
                        for (const [k, v] of Object.entries(changes)) b.dataset[k] = v;
                        return b.outerHTML; }""",
        changes,
    )


def test_an_older_board_arriving_late_never_replaces_the_newer_one(tables):
    table: Table = tables(2, game="Under One Sky")
    table.join_and_sit()
    table.host.page.get_by_role("button", name="Start the game").click()
    table.everyone(lambda page: page.locator("#board[data-game]").count() == 1)
    first = table.version(table.host.page)
    table.at_version(first)
    guest = table.people[1].page
    before = shown_board(guest)
    assert before["version"] == first and before["game"], before
    older = as_pushed(guest)

    newer = place(table, mover(table), random.Random(7))
    after = shown_board(guest)
    assert after["version"] == newer > first and after["text"] != before["text"]

    # The move's board is shown; the board before it arrives now, late: it is dropped.
    guest.evaluate(DELIVER, older)
    assert shown_board(guest) == after
    # The same version again (a socket's reconnect view) is taken as it comes.
    guest.evaluate(DELIVER, as_pushed(guest, marker="again"))
    assert guest.locator('#board[data-marker="again"]').count() == 1
    # A board of another game (a rematch) is shown whatever its version.
    rematch = guest.evaluate("""html => html.replace(/data-game="\\d+"/, 'data-game="0"')""", older)
    guest.evaluate(DELIVER, rematch)
    assert shown_board(guest) == {**before, "game": "0"}
    table.no_reloads()
