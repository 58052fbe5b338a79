"""The room's "Invite friends" folds away for everyone in the room when the host starts a
game, in every game (static/platform/share.js): the board and the seats come into view with
no reload, as on a page opened while a game runs."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.browser import PHONE, Table

pytestmark = pytest.mark.e2e


def invite_open(page: Page) -> bool:
    return page.locator("details#share").evaluate("share => share.open")


def starts_folded(table: Table, dealt: str) -> None:
    table.join_and_sit()
    table.everyone(invite_open)  # open while the room waits for its game
    table.host.page.get_by_role("button", name="Start the game").click()
    table.everyone(lambda page: page.locator(dealt).count() > 0 and not invite_open(page))
    for page in table.pages:  # folded, not gone: it still opens
        page.wait_for_timeout(500)  # the start's last pushes land first (a loaded CI saw one late)
        page.get_by_text("Invite friends").click()
        assert invite_open(page)
        expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    table.no_reloads()


def test_it_folds_invite_friends_when_a_constellate_game_starts(tables):
    starts_folded(tables(2, viewport=PHONE), "#sky button[name=card]")


def test_it_folds_invite_friends_when_an_under_one_sky_game_starts(tables):
    starts_folded(tables(2, viewport=PHONE, game="Under One Sky"), "#board .space")
