"""Observatory played to the end in real browsers, by taps only (issue 18).

Two people: the host on a laptop (1366 x 768) and a guest on a phone (390 x 844), clock off.
Each keeps four of its six dealt cards by ticking boxes (G3): the host keeps what is ticked
(what the clock would keep, T5), the phone changes one box. Every turn each seat plans what
the computer player would plan for it (the test reads the seat's sheet from the test
database, as the player reads the screen, and asks ``robot.move``): each step a tap on the
plan strip — a tab when the step is of another kind, then the dotted space or the choice —
checked against the strip's plan field after every answer (U9), then Submit (U1), or Pass
and its question when the plan is empty (U4). Whoever completed a card drafts its
replacement with a tap on the Night Sky or a deck (G5, G6). Both seats plan at the same
time. After every turn every screen shows the next turn; at the end the result and every
score as the database has them. Screenshots go to test-artifacts/screenshots/observatory/.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page

from games import store
from games.models import Game
from games.observatory import plan
from games.observatory.rules import robot
from games.observatory.rules.commands import Pick, Submit
from games.observatory.rules.model import Phase, Source, State
from games.observatory.rules.steps import describe
from games.observatory.rules.view import view_for
from lobby.models import Room
from tests.e2e.browser import PHONE, SHOWN_WITHIN, Person, Table, axe_problems, small_targets
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "screenshots" / "observatory"
WAIT = SHOWN_WITHIN * 3 * 1000  # ms: a tap's answer, a push
KINDS = {  # a plan word's kind -> the plan strip's tab (planner.MODES)
    "die": "die",
    "lens": "lens",
    "pair": "pair",
    "shoot": "shoot",
    "fill": "fill",
    "claim": "claim",
    "bonus": "bonus",
    "track": "track",
    "finder": "finder",
    "night": "night",
}


def read_state(page: Page) -> State:
    """The game as the test database has it, read only."""
    room = Room.objects.get(code=re.search(r"/r/([^/]+)/", page.url).group(1))
    assert room.game_id is not None
    return store.state_of(Game.objects.get(pk=room.game_id))


def shot(page: Page, name: str, *, top: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    if top:
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / name))


def plan_value(page: Page) -> str | None:
    field = page.locator(".obs-plan-form input[name=plan]")
    return field.get_attribute("value") if field.count() else None


def tap_step(page: Page, word: str, before: str) -> None:
    """One step of the plan: its tab first if another kind is shown, then its button; the
    answer's plan field holds the step (U9)."""
    wanted = f"{before} {word}".strip()
    button = page.locator(f'.obs-plan-form button[name=add][value="{word}"]')
    if button.count() == 0:
        tab = word.split(":", 1)[0]
        page.locator(f'.obs-plan-form button[name=to][value="{KINDS[tab]}"]').click()
        page.wait_for_function(
            """k => document.querySelector('.obs-plan-form input[name=mode]')?.value === k""",
            arg=KINDS[tab],
            timeout=WAIT,
        )
    button.click(timeout=WAIT)
    page.wait_for_function(
        """w => document.querySelector('.obs-plan-form input[name=plan]')?.value === w""",
        arg=wanted,
        timeout=WAIT,
    )


def submit_plan(person: Person, command: Submit) -> None:
    page = person.page
    page.locator(".obs-plan-form").wait_for(timeout=WAIT)
    planned = ""
    for step in command.steps:
        word = plan.word(step)
        tap_step(page, word, planned)
        planned = f"{planned} {word}".strip()
    said = page.locator(".obs-plan-said").inner_text()
    buttons = page.locator(".obs-plan-buttons .confirm")
    if not command.steps:
        page.once("dialog", lambda dialog: dialog.accept())  # "Submit nothing this turn?"
        assert buttons.inner_text() == "Pass"
    else:
        assert buttons.is_enabled(), said
    buttons.click()


def pick(person: Person, command: Pick) -> None:
    page = person.page
    page.locator("#obs-draft").wait_for(timeout=WAIT)
    take = command.take
    if take.source.row:
        row = "large_row" if take.source is Source.LARGE_ROW else "small_row"
        page.locator(f'button.obs-take[value="{row}"]').nth(take.slot - 1).click()
    else:
        page.locator(f'#obs-draft button[value="{take.source.value}"]').click()


def width_of(page: Page) -> str:
    return "1366" if (page.viewport_size or {}).get("width", 0) > 500 else "390"


def mode_line(page: Page) -> str:
    return page.locator("#status .obs-when").inner_text().strip()


def everyone_shows(table: Table, text: str) -> None:
    table.everyone(lambda page: mode_line(page) == text, within=WAIT / 1000)


CLOCK_SECONDS = 60  # T1: the lobby's shortest real step; four plans fit it on a loaded machine
IDLE_TURN = 2  # the turn the last phone does nothing, and the clock skips it (T3)


def test_a_whole_game_on_a_laptop_and_two_phones_by_taps_with_the_clock(tables):
    table: Table = tables(3, game="Observatory")
    host, guest, idle = table.people
    for person in (guest, idle):
        person.page.set_viewport_size(PHONE)
    table.join_and_sit()
    table.set_clock(f"{CLOCK_SECONDS} s")
    host.page.get_by_role("button", name="Start the game").click()

    # G3: the choice. The others keep what is ticked; the first phone swaps one box.
    for person in table.people:
        person.page.get_by_role("button", name="Keep these 4").wait_for(timeout=WAIT)
    shot(guest.page, "choice-390.png")
    boxes = guest.page.locator(".obs-keep input[type=checkbox]")
    ticked = [i for i in range(boxes.count()) if boxes.nth(i).is_checked()]
    unticked = [i for i in range(boxes.count()) if not boxes.nth(i).is_checked()]
    boxes.nth(ticked[0]).uncheck()
    boxes.nth(unticked[0]).check()
    kept = [boxes.nth(i).get_attribute("value") for i in range(6) if boxes.nth(i).is_checked()]
    for person in table.people:
        person.page.get_by_role("button", name="Keep these 4").click()
    everyone_shows(table, "Night 1/4 · turn 1/3")
    state = read_state(host.page)
    assert set(state.sheet(2).goals) == set(kept)
    seated = list(table.people)
    for person in seated[:2]:  # the plan strip on a laptop and a phone: reachable and clean
        page = person.page
        page.locator(".obs-plan-form").wait_for(timeout=WAIT)
        assert small_targets(page, ".obs-plan-form button:not(.obs-target)") == []
        assert small_targets(page, ".obs-target", 24) == []  # a map space: WCAG 2.5.8's 24 px
        assert axe_problems(page) == []
    watcher = table.watcher_joins("Dee")  # a spectator on a phone, from the first turn
    watcher.page.set_viewport_size(PHONE)

    state = play_to_the_end(table, seated, state, watcher=watcher, idle=idle)
    assert any(idle.seat in closed.skipped for closed in state.closed), "the clock skipped it"

    # The end: the result and every seat's score, on every screen, as the database has it.
    final = view_for(state, None)
    for person in table.people:
        page = person.page
        page.locator("#status .result, .obs-say .result").first.wait_for(timeout=WAIT)
        scores = page.locator(".obs-final-seat .obs-seat-score").all_inner_texts()
        assert sorted(scores) == sorted(f"{s.score.total} points" for s in final.seats)
        assert axe_problems(page) == []  # the end screen, for the seats and the spectator
    shot(host.page, "end-1366.png", top=True)
    shot(guest.page, "end-390.png", top=True)
    shot(watcher.page, "end-spectator-390.png", top=True)
    table.no_reloads()


def test_a_solo_game_on_a_phone_by_taps(tables):
    """S1, S2: one seat, the active seat every turn, on the 1-player board to the end."""
    table: Table = tables(1, game="Observatory")
    (solo,) = table.people
    solo.page.set_viewport_size(PHONE)
    table.join_and_sit()
    solo.page.get_by_role("button", name="Start the game").click()
    solo.page.get_by_role("button", name="Keep these 4").click(timeout=WAIT)
    everyone_shows(table, "Night 1/10 · turn 1/1")
    state = play_to_the_end(table, [solo], read_state(solo.page))
    final = view_for(state, None)
    result = solo.page.locator(".obs-say .result").inner_text()
    assert str(final.seats[0].score.total) in result, result
    shot(solo.page, "solo-end-390.png", top=True)
    table.no_reloads()


def play_to_the_end(
    table: Table,
    seated: list[Person],
    state: State,
    *,
    watcher: Person | None = None,
    idle: Person | None = None,
) -> State:
    """Every step as the computer would play it for each seat, by taps; ``idle`` does
    nothing in turn IDLE_TURN of Night 1, and every screen shows the clock skip it."""
    host = table.host
    shots = 0
    pictured: set[str] = set()
    while not state.ended:
        waiting = False
        if state.phase is Phase.DRAFT:
            drafter = table.seat(state.drafter)
            command = robot.move(state, state.drafter)
            assert isinstance(command, Pick)
            if "draft" not in pictured:
                pictured.add("draft")
                drafter.page.locator("#obs-draft").scroll_into_view_if_needed()
                shot(drafter.page, f"draft-{width_of(drafter.page)}.png")
            pick(drafter, command)
            table.everyone(lambda page, v=state.version: table.version(page) > v)
        else:
            plans = {p.seat: robot.move(state, p.seat) for p in seated}
            waiting = (state.night, state.turn) == (1, IDLE_TURN) and idle is not None
            if state.phase is Phase.OPENING and "opening" not in pictured:
                pictured.add("opening")
                phone = seated[-1].page
                phone.locator(".obs-plan").scroll_into_view_if_needed()
                shot(phone, f"night-opening-{width_of(phone)}.png")
            for person in seated:  # one after the other; the step closes on the last
                if waiting and person is idle:
                    continue
                command = plans[person.seat]
                assert isinstance(command, Submit)
                if shots < 2 and len(command.steps) >= 3:
                    submit_plan_with_shot(person, command, shots)
                    shots += 1
                else:
                    submit_plan(person, command)
                if watcher is not None and person is seated[0]:
                    hidden_from_watcher(table, watcher, command, state.version)
            if waiting:
                done = len(seated) - 1
                table.everyone(
                    lambda page, d=done: page.locator(".obs-ready-seat.ready").count() == d
                )
                shot(seated[0].page, "waiting-for-one-1366.png", top=True)
        deadline = time.monotonic() + (CLOCK_SECONDS if waiting else 0) + WAIT / 1000
        before = (state.phase, state.round_number)
        while True:  # the database closes the step (or the clock does); every screen follows
            after = read_state(host.page)
            if state.phase is Phase.DRAFT:
                moved = after.version > state.version  # each pick is a step of its own
            else:
                moved = (after.phase, after.round_number) != before
            if after.ended or moved:
                break
            assert time.monotonic() < deadline, "the step did not close"
            time.sleep(0.1)
        state = after
        if not state.ended:
            everyone_shows(table, mode_line_of(state))
        if waiting:  # T3: every screen's log says the clock skipped the idle phone
            line = f"{idle.name} skipped by the clock"
            table.everyone(lambda page, t=line: t in page.locator(".obs-log").inner_text())
    return state


def hidden_from_watcher(table: Table, watcher: Person, command: Submit, version: int) -> None:
    """V2, U3: once the host's submission is accepted (its board says ready), the spectator
    sees the host ready and nothing of what it planned; and never a control."""
    table.everyone(lambda page: table.version(page) > version)
    page = watcher.page
    text = page.locator("#board").inner_text()
    assert not [step for step in command.steps if describe(step) in text], text[:400]
    assert page.locator(".obs-plan-form, .obs-choose, #obs-draft, #board button").count() == 0


def submit_plan_with_shot(person: Person, command: Submit, n: int) -> None:
    """As ``submit_plan``, with a picture of the strip before Submit."""
    page = person.page
    planned = ""
    for step in command.steps:
        word = plan.word(step)
        tap_step(page, word, planned)
        planned = f"{planned} {word}".strip()
    page.locator(".obs-plan").scroll_into_view_if_needed()
    shot(page, f"plan-{width_of(page)}-{n}.png")
    page.locator(".obs-plan-buttons .confirm").click()


def mode_line_of(state: State) -> str:
    """What the top bar says of the running step (presenters.mode_text)."""
    from games.observatory import presenters

    return presenters.mode_text(view_for(state, None))
