"""The step clock seen in four browsers, with the lobby's test-only short step
(``CONSTELLATE_TEST_STEP_SECONDS``, 3 s here; the lobby shows off/60/90/120 otherwise):
each naming step expires, every screen shows the turn passing and the countdown starting
again, and the second expiry in a row of one crew ends the game (C2, C4)."""

from __future__ import annotations

import math
from datetime import datetime

import pytest
from playwright.sync_api import Page

from tests.e2e.browser import SHOWN_WITHIN, Table
from tests.e2e.conftest import TEST_STEP_SECONDS

pytestmark = pytest.mark.e2e

RIVAL = {"gold": "teal", "teal": "gold"}

# The lowest number each page's countdown has shown, recorded by the page itself: a test
# that polls four pages in turn on a loaded machine can miss the one second in which a
# screen shows "1" before the step expires.
LOWEST_SHOWN = """() => {
  window.e2eLowest = Infinity;
  const read = () => {
    const shown = document.querySelector('#countdown .countdown-seconds');
    if (shown) window.e2eLowest = Math.min(window.e2eLowest, Number(shown.textContent));
  };
  new MutationObserver(read).observe(
    document.body, {subtree: true, childList: true, characterData: true});
  read();
}"""


def _countdowns(table: Table) -> dict[str, dict]:
    """Each screen's countdown: the server's deadline, the step's length as the server
    rendered it (deadline - the server's now), the seconds shown, and the seconds really
    left at that moment (browsers and server share this machine's clock)."""
    return {
        person.name: person.page.evaluate(
            """() => {
                const c = document.querySelector('#countdown');
                return {
                    deadline: c.dataset.deadline,
                    full: (Date.parse(c.dataset.deadline) - Date.parse(c.dataset.now)) / 1000,
                    shown: +c.querySelector('.countdown-seconds').textContent,
                    left: (Date.parse(c.dataset.deadline) - Date.now()) / 1000,
                };
            }"""
        )
        for person in table.people
    }


def _restarted(countdowns: dict[str, dict], before: dict[str, dict] | None = None) -> None:
    """Every screen counts down from the same, new, deadline, a whole step after the last
    one (its expiry started this step), and shows the time left on the new deadline, not
    what was left of the old one. (How much of the step is left when the test reads the
    screens depends on the machine's load, so that is not asserted.)"""
    assert len({c["deadline"] for c in countdowns.values()}) == 1, countdowns  # the server's
    for name, countdown in countdowns.items():
        assert 0 < countdown["full"] <= TEST_STEP_SECONDS, (name, countdown)
        assert math.floor(countdown["left"]) <= countdown["shown"] <= TEST_STEP_SECONDS, (
            name,
            countdown,
        )
        if before:
            gap = (_when(countdown["deadline"]) - _when(before[name]["deadline"])).total_seconds()
            assert TEST_STEP_SECONDS <= gap <= TEST_STEP_SECONDS + SHOWN_WITHIN, (name, gap)


def _text(page: Page, selector: str) -> str:
    return page.locator(selector).inner_text().strip()


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def test_c2_c4_the_naming_step_expires_on_every_screen_and_the_countdown_restarts(tables):
    table: Table = tables(4)
    table.join_and_sit()
    table.set_clock(f"{TEST_STEP_SECONDS} s")
    table.start()
    for page in table.pages:
        page.evaluate(LOWEST_SHOWN)
    gazer = {"gold": table.seat(1).name, "teal": table.seat(2).name}
    crew = table.active_crew(table.host.page)
    people = {person.page: person for person in table.people}

    def naming(crew: str, page: Page) -> str:
        """What this screen says while ``crew``'s Stargazer names: to that Stargazer, that it
        is their turn; to everyone else, who they wait for (S2: odd seats are Gold)."""
        seat = people[page].seat or 0
        ours = ("gold" if seat % 2 else "teal") == crew
        if ours and seat in (1, 2):
            return f"Your turn: give a clue to {crew.title()}"
        return f"Wait: {gazer[crew]} is giving {'your crew' if ours else crew.title()} a clue"

    def every_screen_reads(selector: str, crew: str, within: float = SHOWN_WITHIN) -> None:
        table.everyone(lambda page: naming(crew, page) in _text(page, selector), within)

    every_screen_reads("#status .turn", crew)
    before = _countdowns(table)
    _restarted(before)
    # The countdown runs down on every screen...
    table.everyone(lambda p: p.evaluate("window.e2eLowest") <= 1, within=TEST_STEP_SECONDS)

    for _ in range(2):
        # ...the step expires: every screen shows the other crew naming...
        crew = RIVAL[crew]
        every_screen_reads("#status .turn", crew, within=TEST_STEP_SECONDS + SHOWN_WITHIN)
        # ...the countdown starts again from the full step...
        after = _countdowns(table)
        _restarted(after, before)
        before = after
        # ...and a screen reader hears whose turn it is.
        every_screen_reads("#announcer", crew)

    # The crew naming now let its word's time run out on two of its own turns in a row (C4).
    table.everyone_reads(
        "#status .result",
        f"{RIVAL[crew].title()} wins! {crew.title()} let the word's time run out twice.",
        within=TEST_STEP_SECONDS + SHOWN_WITHIN,
    )
    table.everyone(lambda p: p.locator("#countdown").count() == 0)
    table.no_reloads()
