"""Phones and laptops at the table: screenshots at 390x844 and 1366x768 of the lobby, a
Stargazer's view, a Spotter's view and the end screen (whole pages and first screens, under
test-artifacts/screenshots/); on a phone the 24 cards fit without scrolling sideways; touch
targets are at least 44x44 CSS px; axe-core finds nothing serious or critical; and a
keyboard alone can spell, pick the number, send and touch."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.e2e.browser import LAPTOP, PHONE, Person, Table, axe_problems, dark, small_targets
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "screenshots"
SIZES = {"phone": PHONE, "laptop": LAPTOP}


def look(page: Page, what: str, targets: tuple[str, ...]) -> None:
    """At each size: a screenshot, no sideways scrolling, big enough targets, and axe."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"{size}-{what}.png"), full_page=True)
        page.screenshot(path=str(SHOTS / f"{size}-{what}-first-screen.png"))
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{what} on a {size} scrolls sideways by {overflow} px"
        if size == "phone":
            for selector in targets:
                assert small_targets(page, selector) == [], f"{what}: {selector}"
        assert axe_problems(page) == [], f"{what} on a {size}"
    page.set_viewport_size(PHONE)


def cards_fit(page: Page) -> None:
    """All 24 cards shown, each wholly inside the phone's width."""
    width = page.evaluate("window.innerWidth")
    # Measured in one go inside the page: a push may swap the board at any moment, and
    # elements read one by one could be detached between two reads.
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#sky button[name=card]')].map((card) => {
            const box = card.getBoundingClientRect();
            return {x: box.x, width: box.width};
        })"""
    )
    assert len(boxes) == 24
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


def tab_to(page: Page, test: str, presses: int = 80) -> dict:
    """Press Tab until the focused element passes ``test`` (JS, given the element); the
    focused element's outline must show (focus is visible)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(f"(el => {test})(document.activeElement)"):
            return page.evaluate(
                """() => {
                    const el = document.activeElement, style = getComputedStyle(el);
                    return {value: el.value, visible: el.matches(':focus-visible'),
                            outline: style.outlineStyle, width: parseFloat(style.outlineWidth)};
                }"""
            )
    raise AssertionError(f"Tab never reached {test}")


def focus_shows(focused: dict) -> None:
    assert focused["visible"] and focused["outline"] != "none" and focused["width"] >= 2, focused


def keyboard_names(gazer: Person, word: str, number: int) -> None:
    """Letters typed on a physical keyboard fill the word wherever the focus is (T2); Tab
    reaches the numbers (arrows choose) and Send (Enter sends)."""
    page = gazer.page
    page.locator("#status").click()  # somewhere that takes no text
    page.keyboard.type(word[:-1] + "x")
    page.keyboard.press("Backspace")
    page.keyboard.type(word[-1])
    assert page.locator("#word").input_value() == word.upper()
    focus_shows(tab_to(page, "el.name === 'number'"))
    for _ in range(number - 1):
        page.keyboard.press("ArrowRight")
    assert page.locator(f'input[name=number][value="{number}"]').is_checked()
    focus_shows(tab_to(page, "el.classList.contains('send')", presses=1))
    page.keyboard.press("Enter")


def test_phone_and_laptop_screens_are_whole_reachable_and_pass_axe(tables):
    table: Table = tables(2, viewport=PHONE)
    home = table.host.context.new_page()
    home.goto(table.url + "/")
    look(home, "home", ("button",))
    home.close()

    table.join_and_sit()
    gazer, spotter = table.seat(1), table.seat(2)
    table.set_clock("60 s")
    look(gazer.page, "lobby", ("#lobby .seats button", ".clock label", "button.start"))

    table.start()
    key = table.sky(gazer.page)
    cards_fit(gazer.page)
    look(gazer.page, "stargazer", ("#sky button[name=card]", "label.number", "button.send"))
    # The letter keys are a phone keyboard's QWERTY rows: ten keys a row cannot be 44 px
    # wide on a 390 px phone, so they are as wide as fits (WCAG 2.5.8 asks 24) and 44 tall.
    keys = gazer.page.locator("button.key").evaluate_all(
        "keys => keys.map(k => [k.getBoundingClientRect().width, k.getBoundingClientRect().height])"
    )
    assert len(keys) == 27 and all(w >= 30 and h >= 44 for w, h in keys), keys

    # The Stargazer names from the keyboard alone.
    stars = dark(key, "gold")
    before = table.version(gazer.page)
    keyboard_names(gazer, "ocean", len(stars))
    table.at_version(before + 1)
    table.everyone_reads("#status .clue-word", "OCEAN")

    # The Spotter touches from the keyboard alone: Tab to a gold star, Enter.
    page = spotter.page
    page.locator("#status").click()
    wanted = ", ".join(f"'{n}'" for n in stars)
    focused = tab_to(page, f"el.name === 'card' && [{wanted}].includes(el.value)")
    focus_shows(focused)
    table.act(spotter, lambda: page.keyboard.press("Enter"))
    assert "lit" in (
        page.locator(f'#sky button[value="{focused["value"]}"]').get_attribute("class")
    )
    cards_fit(page)
    look(page, "spotter", ("#sky button[name=card]:not([disabled])", "button.stop"))

    for card in stars:
        if str(card) != focused["value"]:
            table.touch(spotter, card)
    table.ended("Every star is lit before dawn: the crew wins!")
    look(page, "end", ("#sky button[name=card]",))
    table.no_reloads()
