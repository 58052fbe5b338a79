"""A whole game of Under One Sky in two real browsers, played only by clicking what a
person clicks: the host picks the game on the home page and the chart's compass in the
lobby, both sit, and they play turn by turn to the end, every screen showing every action
within 2 s with no reload. The guest plays on a phone: the board fits, its targets are big
enough, and axe-core finds nothing serious. Neither screen ever holds the other's card."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page

from tests.e2e.browser import PHONE, Person, Table, axe_problems, small_targets
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "screenshots"


def my_card(page: Page) -> str:
    return page.locator(".uos-card.mine .card-name").inner_text().strip()


def mover(table: Table) -> Person:
    """Whose screen asks them to place a tile."""
    found = [p for p in table.people if p.page.locator("#uos-play.placing").count() == 1]
    assert len(found) == 1, [p.name for p in found]
    return found[0]


def place(table: Table, person: Person, rng: random.Random) -> int:
    """Pick a tile beside the board (or the blind one), then a highlighted empty space."""
    page = person.page
    tiles = page.locator(".tray-tile")
    tiles.nth(rng.randrange(tiles.count())).click()
    targets = page.locator("button.space.target")
    assert targets.count() >= 1
    choice = targets.nth(rng.randrange(targets.count()))
    return table.act(person, choice.click)


def move(table: Table, person: Person, rng: random.Random) -> int:
    """Pick a tile next to the one just placed, then one of the spaces it can reach."""
    page = person.page
    assert "Now move a tile" in page.locator("#status .hint").inner_text()
    origins = page.locator(".space.origin")
    origin = origins.nth(rng.randrange(origins.count()))
    value = origin.locator("input").get_attribute("value")
    origin.click()
    reachable = page.locator(f"button.space.dest.from-{value}")
    assert reachable.count() >= 1
    return table.act(person, reachable.nth(rng.randrange(reachable.count())).click)


def no_other_card(table: Table, cards: dict[str, str]) -> None:
    for person in table.people:
        html = person.page.content()
        for owner, name in cards.items():
            if owner != person.name:
                assert name.replace("'", "&#x27;") not in html and name not in html, (
                    f"{person.name}'s screen shows {owner}'s card {name}"
                )


def test_two_players_play_under_one_sky_to_the_end_in_two_browsers(tables):
    table: Table = tables(2, game="Under One Sky")
    guest = table.people[1]
    guest.page.set_viewport_size(PHONE)
    table.join_and_sit()
    host = table.host.page

    # The host turns the chart a quarter (north to the right) and sets a clock.
    host.get_by_role("radio", name=re.compile("Right")).check()
    host.wait_for_function("() => document.querySelector('input[name=compass][value=E]')?.checked")
    table.everyone(
        lambda p: p is host or "north points right" in p.locator(".options-text").inner_text()
    )
    table.set_clock("90 s")
    host.get_by_role("button", name="Start the game").click()
    table.everyone(
        lambda p: (
            p.locator("#board .space").count() == 25
            and p.locator(".uos-card.mine").count() == 1
            and p.locator("#countdown").count() == 1
        )
    )
    for page in table.pages:
        assert page.locator(".compass-E").count() == 1  # the compass, turned
        assert page.locator(".tray-tile").count() == 4  # three beside the board + blind
        assert page.get_by_text("Stack: 24 tiles").count() == 1
    cards = {p.name: my_card(p.page) for p in table.people}
    no_other_card(table, cards)

    # On the phone: the board fits, targets are big enough, axe finds nothing serious.
    page = guest.page
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert small_targets(page, ".space, .tray-tile, button") == []
    assert axe_problems(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-underonesky.png"), full_page=True)

    rng = random.Random(2026)
    turns = 0
    while host.locator("#status .result").count() == 0:
        turns += 1
        assert turns <= 24, "the board filled without an end"
        player = mover(table)
        other = next(p for p in table.people if p is not player)
        assert "Your turn" in player.page.locator("#status .turn").inner_text()
        assert f"{player.name}'s turn" in other.page.locator("#status .turn").inner_text()
        place(table, player, rng)
        if player.page.locator("#uos-play.moving").count():
            table.everyone(
                lambda p, who=player: (
                    p is who.page or "is moving a tile" in p.locator("#status .hint").inner_text()
                )
            )
            if turns == 2:
                assert axe_problems(player.page) == []  # the move's radios and buttons too
            move(table, player, rng)
        if turns % 5 == 0 and host.locator("#status .result").count() == 0:
            no_other_card(table, cards)  # (at the end every card is shown: not then)

    result = host.locator("#status .result").inner_text().strip()
    assert result.startswith(("A draw", "Ada wins", "Bo wins"))
    table.everyone_reads("#status .result", result)
    for page in table.pages:
        assert page.locator(".uos-card").count() == 3  # every card is shown at the end
        assert page.get_by_role("link", name="Replay this game step by step").is_visible()
        assert page.locator("#countdown").count() == 0
    host.screenshot(path=str(SHOTS / "laptop-underonesky-end.png"), full_page=True)

    # A rematch: a new deal in the same seats, on both screens.
    host.get_by_role("button", name="Rematch").click()
    table.everyone(
        lambda p: p.locator("#status .result").count() == 0 and p.locator(".uos-card").count() == 1
    )
    table.no_reloads()
