"""Look at the Stars in a real browser on a phone (390 × 844), against the computer player
the host seats beside them: the host picks the game on the home page, sits, gives seat 2 to
the computer and starts. Round 1 is drawn only by tapping what a person taps — every line
star by star, or a shooting star head first — and with the keyboard (U9); Confirm sends
it; the computer has already drawn, so the round closes and round 2's card is revealed on
the same page with no reload. What a player needs stays in view all along.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.lookatthestars.game import GAME
from games.lookatthestars.rules import cards, robot, sky
from games.lookatthestars.rules.model import Drawing
from lobby.models import Room
from tests.e2e.browser import PHONE, SHOWN_WITHIN, Table, small_targets
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "screenshots" / "lookatthestars"
WAIT = SHOWN_WITHIN * 3 * 1000  # ms: a tap's answer, a push, the computer's move


def point(page: Page, name: str):
    return page.locator(f'.lats-drafting button.lats-point[data-point="{name}"]')


def answered(page: Page, do: Callable[[], None]) -> None:
    """Do one step of the drawing and wait for the server's answer (the area is redrawn)."""
    before = page.locator(".lats-drafting .lats-line").inner_text()
    do()
    page.wait_for_function(
        "before => document.querySelector('.lats-drafting .lats-line')?.innerText !== before",
        arg=before,
        timeout=WAIT,
    )


def tap(page: Page, name: str) -> None:
    answered(page, point(page, name).click)


def in_view(page: Page, selector: str) -> bool:
    return page.evaluate(
        """s => { const e = document.querySelector(s); if (!e) return false;
                  const r = e.getBoundingClientRect();
                  return r.top >= 0 && r.bottom <= innerHeight
                         && r.left >= 0 && r.right <= innerWidth; }""",
        selector,
    )


def state_of(page: Page):
    code = re.search(r"/r/([^/]+)/", page.url).group(1)
    room = Room.objects.get(code=code)
    return GAME.current(room.game_id)


def draw(page: Page, drawing: Drawing) -> None:
    """Draw a whole legal drawing by tapping its stars, then resolve its power copies."""
    if drawing.shooting_star is not None:
        star = drawing.shooting_star
        head = star.head
        stars = sorted(star.stars, key=lambda p: max(abs(p[0] - head[0]), abs(p[1] - head[1])))
        for p in stars:
            tap(page, sky.point_name(p))
    for a, b in sorted(drawing.lines):
        tap(page, sky.point_name(a))
        tap(page, sky.point_name(b))
    for resolution in drawing.resolutions:
        copy = sky.shape_name(resolution.copy)
        if resolution.declined:
            answered(page, page.locator(f'.lats-powers button[value="decline:{copy}"]').click)
        else:
            answered(page, page.locator(f'.lats-powers button[value="use:{copy}"]').click)
            for target in resolution.targets:
                tap(page, sky.point_name(target))


def test_a_round_on_a_phone_against_the_computer_by_taps_and_keys(tables):
    table: Table = tables(1, game="Look at the Stars")
    host = table.host.page
    host.set_viewport_size(PHONE)
    table.join_and_sit()
    host.get_by_role("button", name="Computer player in seat 2").click()
    expect(host.locator(".seat:nth-child(2) .seat-name")).to_have_text("Vega (computer)")
    host.get_by_role("button", name="Start the game").click()
    expect(host.locator(".lats-drafting")).to_be_visible(timeout=WAIT)
    expect(host.locator(".lats-scores")).to_contain_text("✓ done", timeout=WAIT)  # the computer

    # Who you are, what to do, the card, your board and Confirm: all on the phone's screen.
    host.evaluate("window.scrollTo(0, 0)")
    for needed in ("#status .you", "#status .turn", ".lats-night-card", ".lats-buttons .confirm"):
        assert in_view(host, needed), needed
    assert not small_targets(host, ".lats-drafting button.lats-point", minimum=32)
    SHOTS.mkdir(parents=True, exist_ok=True)
    host.screenshot(path=str(SHOTS / "round-1-390.png"))

    # U9: the keyboard moves over the points and taps them; Escape unselects.
    state = state_of(host)
    board = state.boards[0]
    free = [  # two stars side by side, neither a planet
        (c, r)
        for r in range(4, 8)
        for c in range(0, 9)
        if all(board.is_star(p) and p not in board.planets for p in ((c, r), (c + 1, r)))
    ]
    start = free[0]
    right = (start[0] + 1, start[1])
    point(host, sky.point_name(start)).focus()
    host.keyboard.press("ArrowRight")
    assert host.evaluate("document.activeElement.dataset.point") == sky.point_name(right)
    focused = point(host, sky.point_name(right))
    host.keyboard.press("Enter")  # selects it (on a shooting-star card: its head)
    expect(focused).to_have_attribute("aria-pressed", "true", timeout=WAIT)
    assert host.evaluate("document.activeElement.dataset.point") == sky.point_name(right)
    host.keyboard.press("Escape")
    expect(focused).not_to_have_attribute("aria-pressed", "true", timeout=WAIT)

    # Round 1 drawn by taps, as the computer player would draw it for this seat.
    drawing = robot.move(state, 1).drawing
    card = state.card or ""
    if drawing.passed:
        host.once("dialog", lambda dialog: dialog.accept())
        host.get_by_role("button", name="Pass").click()
    else:
        draw(host, drawing)
        confirm = host.locator(".lats-buttons .confirm")
        expect(confirm).to_be_enabled(timeout=WAIT)
        assert in_view(host, ".lats-buttons .confirm")
        host.screenshot(path=str(SHOTS / "round-1-drawn-390.png"))
        confirm.click()

    # The computer had drawn already: the round closes and round 2's card comes, no reload.
    expect(host.locator("#status .mode")).to_contain_text("Round 2 of 18", timeout=WAIT)
    shown = "a shooting star" if cards.is_shooting_star(card) else f"shape {card}"
    expect(host.locator(".round-log")).to_contain_text(f"Round 1 ({shown})")
    assert host.evaluate("window.e2eNoReload") is True
    after = state_of(host)
    assert drawing.lines <= after.boards[0].drawn
    host.screenshot(path=str(SHOTS / "round-2-390.png"))
