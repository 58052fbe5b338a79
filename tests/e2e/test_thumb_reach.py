"""On a phone (390x844), whoever must act has what they need on screen without scrolling,
wherever the sky is scrolled to: the Stargazer, after a refused word, sees the word, Send,
the clock and the reason together (T3, C1); a Spotter sees the clock, and Stop once it is
allowed (T10). The panel sticks to the bottom of the screen; nothing needs an inline style."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.e2e.browser import PHONE, REFUSED_WORD, Table, dark

pytestmark = pytest.mark.e2e


def outside(page: Page, selectors: tuple[str, ...]) -> list[str]:
    """The selectors whose element is not wholly inside the viewport (or not shown)."""
    boxes = page.evaluate(
        """selectors => selectors.map((selector) => {
            const el = document.querySelector(selector);
            if (!el || !el.offsetParent) return [selector, null];
            const r = el.getBoundingClientRect();
            return [selector, [r.top, r.bottom, r.left, r.right]];
        })""",
        list(selectors),
    )
    height, width = PHONE["height"], PHONE["width"]
    return [
        f"{selector} at {box}"
        for selector, box in boxes
        if box is None or box[0] < 0 or box[1] > height or box[2] < 0 or box[3] > width
    ]


def everywhere_on_the_sky(page: Page, selectors: tuple[str, ...]) -> None:
    """Scrolled to the top, to the middle of the sky and to its last row, the selectors
    stay inside the phone's screen."""
    sky = page.evaluate("document.querySelector('#sky').getBoundingClientRect().bottom + scrollY")
    for y in (0, sky / 2, sky - PHONE["height"] / 2):
        page.evaluate("y => window.scrollTo(0, y)", max(0, y))
        page.wait_for_function("y => Math.abs(window.scrollY - y) < 2 || y > window.scrollY", arg=y)
        assert outside(page, selectors) == [], f"scrolled to {y:.0f}"


def test_the_acting_player_keeps_the_controls_the_clock_and_the_message_on_screen(tables):
    table: Table = tables(2, viewport=PHONE)
    table.join_and_sit()
    table.set_clock("60 s")
    table.start()
    gazer, spotter = table.seat(1), table.seat(2)
    key = table.sky(gazer.page)

    # The Stargazer sends a word the rules refuse (W2): the reason shows by the word.
    page = gazer.page
    table.spell(gazer, REFUSED_WORD)
    assert table.send(page, lambda: page.click("button.send"))  # refused, and says why
    assert page.locator("#notice").evaluate("n => n.closest('#panel') !== null")
    everywhere_on_the_sky(page, ("#word", "button.send", "#countdown", "#notice.error"))

    # The word is accepted; the Spotter sees the clock, then Stop after a first touch.
    stars = dark(key, "gold")
    table.name(gazer, 2)
    everywhere_on_the_sky(spotter.page, ("#countdown", "#panel .hint"))
    table.touch(spotter, stars[0])
    everywhere_on_the_sky(spotter.page, ("#countdown", "button.stop"))
    table.no_reloads()
