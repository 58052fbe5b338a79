"""A table of friends plays whole games in real Chromium, each on their own screen: a laptop
host and three phones for a Rivalry on the short test clock, two phones for Before Dawn, a
laptop against a phone for Under One Sky. After every step (an action, a refusal, a clock
running out, the end), every seated screen shows, inside its visible viewport, what its
player needs without scrolling back: the line that says who they are and whose turn it is,
the control the acting player must use now, the clock when there is one, and the last
message. "Inside the viewport" is measured, not read from the DOM: the element's box lies
within window.innerWidth x innerHeight once the page has settled, and nothing (the sticky
action panel, say) covers it.

Phones are 390x844, the laptop 1366x768 (tests/e2e/browser.py). With a 3 s clock a loaded
machine may let a step run out while the test acts: the game then moves on, as it would for
a slow player, and the test checks the screens as they are and tries again on a later turn.
No assertion reads how many seconds are left.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.e2e.browser import (
    LAPTOP,
    NEWEST,
    PHONE,
    REFUSED_WORD,
    WORDS,
    Person,
    Table,
    dark,
)
from tests.e2e.conftest import ARTIFACTS, TEST_STEP_SECONDS

pytestmark = pytest.mark.e2e

SHOTS = ARTIFACTS / "screenshots" / "phone-table"
WAIT = 15_000  # ms: generous, for a loaded 2-core machine
CLICK = 5_000  # ms for a control that is on screen (after that, a clock took it away)

# What a screen must show in view: (selector, when), where the selector must be in view
# whenever ``when`` matches on that screen ("" always, None: whenever the selector itself
# matches). A selector starting with "any " needs only one of its matches in view (cards,
# spaces: a player needs some to touch, not all 24 at once).
Needs = tuple[tuple[str, str | None], ...]

CONSTELLATE: Needs = (
    ("#status .turn, #status .result", ""),  # the line that speaks to you
    ("#status .you", None),  # who you are: your crew and role
    ("#panel", "#status .turn.my-turn"),  # whoever must act has the controls
    ("#word", None),
    ("#panel .letters", None),
    ("#panel .numbers", None),
    ("#panel button.send", None),
    ("#panel .hint", None),
    ("any #sky button[name=card]:not(:disabled)", "#panel.panel-spotting"),
    ("#panel button.stop", None),
    ("#countdown", None),  # the clock, when there is one
    ("#notice:not(:empty)", None),  # the last message
)

UNDER_ONE_SKY: Needs = (
    ("#status .turn, #status .result", ""),
    ("#status .hint", None),
    ("#uos-play .tray", "#uos-play.placing"),
    ("any button.space.target", "#uos-play.placing"),
    ("any .space.origin", "#uos-play.moving"),
    ("any button.space.dest", None),
    ("#countdown", None),
    ("#notice:not(:empty)", None),
)

# One evaluation after the page settles: every box at once, so a push landing meanwhile
# cannot mix two states of the screen.
_OUT_OF_VIEW = """async (needs) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const plain = (selector) => selector.replace(/^any /, "");
  const boxes = () => needs.map(([selector]) =>
    [...document.querySelectorAll(plain(selector))].filter(shown).map((el) => {
      const r = el.getBoundingClientRect();
      return [r.top, r.bottom, r.left, r.right].map(Math.round).join(",");
    }).join(";")).join("|") + `@${scrollX},${scrollY},${innerWidth},${innerHeight}`;
  // Settled: the same boxes two frames running (a swap, a sticky panel, scroll anchoring).
  let last = null;
  for (let i = 0; i < 120; i++) {
    await frame();
    const now = boxes();
    if (now === last) break;
    last = now;
  }
  const width = innerWidth, height = innerHeight;
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > height || r.right > width) {
      const [t, b, l, rt] = [r.top, r.bottom, r.left, r.right].map(Math.round);
      return `at top ${t}, bottom ${b}, left ${l}, right ${rt} (viewport ${width}x${height})`;
    }
    const x = Math.min(width - 1, Math.max(0, r.left + r.width / 2));
    const y = Math.min(height - 1, Math.max(0, r.top + Math.min(r.height / 2, 10)));
    const top = document.elementFromPoint(x, y);
    if (top && top !== el && !el.contains(top) && !top.contains(el)) {
      return `covered by ${top.tagName.toLowerCase()}#${top.id}.${[...top.classList].join(".")}`;
    }
    return "";
  };
  const problems = [];
  for (const [selector, when] of needs) {
    const any = selector.startsWith("any ");
    const found = [...document.querySelectorAll(plain(selector))].filter(shown);
    const needed = when === null ? found.length > 0 : when === "" || document.querySelector(when);
    if (!needed) continue;
    if (!found.length) { problems.push(`${selector}: not shown`); continue; }
    const where = (any ? found : found.slice(0, 1)).map(inside);
    if (where.every(Boolean)) problems.push(`${selector}: ${where[0]}`);
  }
  const text = document.body.innerText;
  for (const syntax of ["{#", "#}", "{%", "%}", "{{", "}}"]) {
    if (text.includes(syntax)) problems.push(`template syntax ${syntax} on the screen`);
  }
  if (problems.length) {
    const active = document.activeElement;
    problems.push(`scrolled to ${scrollY} of ${document.documentElement.scrollHeight}, focus on `
      + `${active?.tagName}#${active?.id}.${[...(active?.classList || [])].join(".")}`);
  }
  return problems;
}"""


def card_button(card: int) -> str:
    """A picture card's button in the sky. Not ``#sky [value=...]``: the sky's form also holds
    a hidden ``version`` field, whose value can equal a card's number."""
    return f'#sky button[name=card][value="{card}"]'


def out_of_view(page: Page, needs: Needs) -> list[str]:
    """What ``needs`` asks for that this screen does not show in its viewport, measured
    once the page has settled."""
    return page.evaluate(_OUT_OF_VIEW, [list(need) for need in needs])


def in_view(page: Page, selector: str) -> bool:
    """The element is shown wholly inside the viewport, uncovered, once the page settles."""
    return out_of_view(page, ((selector, ""),)) == []


class Watch:
    """Checks every seated screen of a table after each step, and keeps a screenshot of each
    screen the first time it shows a new kind of step (for people to look at)."""

    def __init__(self, table: Table, needs: Needs, game: str) -> None:
        self.table, self.needs, self.game = table, needs, game
        self.steps: list[str] = []
        self.shot: set[str] = set()
        SHOTS.mkdir(parents=True, exist_ok=True)

    def __call__(self, step: str) -> None:
        self.steps.append(step)
        problems = {}
        for person in self.table.present:
            if person.seat is None:
                continue
            missing = out_of_view(person.page, self.needs)
            if missing:
                problems[f"{person.name} ({_size(person.page)})"] = missing
            self.keep(person, step)
        assert not problems, f"after {step!r}: {problems}"

    def keep(self, person: Person, step: str) -> None:
        kind = re.sub(r"\W+", "-", step.split(":")[0].lower()).strip("-")
        scrolled = "-scrolled" if person.page.evaluate("scrollY > 0") else ""
        name = f"{self.game}-{kind}-{person.name}{scrolled}-{_size(person.page)}"
        if name not in self.shot:
            self.shot.add(name)
            person.page.screenshot(path=str(SHOTS / f"{name}.png"), caret="initial")


def _size(page: Page) -> str:
    size = page.viewport_size or LAPTOP
    return f"{size['width']}x{size['height']}"


# -- Constellate ---------------------------------------------------------------------------


def actor(table: Table) -> tuple[str, Person | None]:
    """Who must act now, as the screens say: ("naming" | "spotting", that person), or
    ("ended", None). Waits until every screen agrees on one version first."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        versions = {table.version(p) for p in table.pages}
        if len(versions) == 1:
            if table.host.page.locator("#status .result").count():
                return "ended", None
            for person in table.present:
                page = person.page
                if page.locator("#panel .naming").count():
                    return "naming", person
                if page.locator("#panel.panel-spotting").count():
                    return "spotting", person
        assert time.monotonic() < deadline, f"no one to act on {versions}"
        time.sleep(0.1)


def send_word(table: Table, gazer: Person, word: str, number: int) -> int:
    """Spell a word on the letter keys, pick the number, Send: 200 taken, 422 refused (its
    answer comes on the room's socket: Table.send), 0 when the clock ran out under the
    Stargazer's fingers and the keys went away."""
    page = gazer.page
    page.set_default_timeout(CLICK)
    version = table.version(page)
    try:
        table.spell(gazer, word)
        table.pick_number(gazer, number)
        refused = table.send(page, lambda: page.click("button.send"))
        return 200 if refused is None else 422
    except (AssertionError, PlaywrightError):
        if page.locator("#panel .naming").count() and table.version(page) == version:
            raise  # the keys are still there and nothing happened: not the clock
        return 0
    finally:
        page.set_default_timeout(30_000)


def key_of(table: Table) -> list:
    """The key as a Stargazer's screen shows it (the test reads it there, as they do)."""
    gazer = next(p for p in table.people if p.page.locator("#sky.sees-key").count())
    return table.sky(gazer.page)


def naming_turn(table: Table, watch: Watch, gazer: Person, number: int, *, refuse: bool) -> bool:
    """The Stargazer sends a word the rules refuse (the reason shows by the controls, on this
    screen only), then a good one. False if the clock ran out first."""
    page = gazer.page
    if refuse:
        before = table.version(page)
        status = send_word(table, gazer, REFUSED_WORD, 1)
        if status != 422 or table.version(page) != before:
            return False
        page.wait_for_function(
            "v => document.querySelector('#panel #notice.error')?.textContent.trim()"
            f" || ({NEWEST}) > v",
            arg=before,
            timeout=WAIT,
        )
        reason = page.evaluate("() => document.querySelector('#panel #notice.error')?.textContent")
        watch("a refused word")  # the reason by the word and Send, in view
        if table.version(page) != before:
            return False  # the clock ran out right after the refusal
        assert reason and reason.strip()
        for other in table.present:
            if other is not gazer:
                assert other.page.locator("#notice.error").count() == 0
    for word in WORDS:
        before = table.version(page)
        status = send_word(table, gazer, word, number)
        if status == 422 and table.version(page) == before:
            continue  # a word the deck refuses: another one
        if status != 200:
            return False
        page.wait_for_function(f"v => ({NEWEST}) > v", arg=before, timeout=WAIT)
        table.at_version(table.version(page), within=WAIT / 1000)
        watch("a word")
        return True
    raise AssertionError("every word was refused")


def spotting_turn(table: Table, watch: Watch, spotter: Person, crew: str, touches: int) -> bool:
    """The Spotter touches their crew's stars, the lowest in the sky first (on a phone they
    scroll to it), then stops, banking a touch. False if the clock ran out first."""
    for card in dark(key_of(table), crew)[::-1][:touches]:
        if spotter.page.locator("#panel.panel-spotting").count() == 0:
            return False
        try:
            acted(
                table,
                spotter,
                lambda c=card: spotter.page.click(card_button(c), timeout=CLICK),
            )
        except (AssertionError, PlaywrightError):
            return False  # the step ran out under the touch
        watch("a touch")
    stop = spotter.page.get_by_role("button", name="Stop and bank a touch")
    if stop.count() == 0:
        return False
    try:
        acted(table, spotter, lambda: stop.click(timeout=CLICK))
    except (AssertionError, PlaywrightError):
        return False
    watch("stop")
    return True


def acted(table: Table, person: Person, do: Callable[[], None]) -> int:
    """Do one action on a person's screen; every screen shows its result (generous waits:
    how fast a push lands is other tests' concern)."""
    before = table.version(person.page)
    do()
    person.page.wait_for_function(f"v => ({NEWEST}) > v", arg=before, timeout=WAIT)
    version = table.version(person.page)
    table.at_version(version, within=WAIT / 1000)
    return version


def reopen_invite(page: Page) -> None:
    """Open "Invite friends" again once the start has folded it (and its pushes landed)."""
    share = page.locator("details#share")
    expect(share).not_to_have_attribute("open", "", timeout=WAIT)
    page.get_by_text("Invite friends").click()
    expect(page.get_by_role("button", name="Copy link")).to_be_visible(timeout=WAIT)


def wait_for_next_step(table: Table, version: int) -> None:
    """The clock runs out: every screen moves past ``version`` without anyone acting."""
    within = TEST_STEP_SECONDS + WAIT / 1000
    table.everyone(lambda page: table.version(page) > version, within=within)


def test_a_rivalry_on_a_laptop_and_three_phones_keeps_what_each_player_needs_in_view(tables):
    table: Table = tables(4, viewport=PHONE)
    table.host.page.set_viewport_size(LAPTOP)
    table.join_and_sit()
    table.set_clock(f"{TEST_STEP_SECONDS} s")
    table.start()
    watch = Watch(table, CONSTELLATE, "rivalry")
    watch("the start")
    # The host reopens "Invite friends" for a late friend: no later push folds it again.
    reopen_invite(table.host.page)
    # A crew's turn: a refused word, a good word for two, a touch, Stop. Until both crews
    # have had one (a step that runs out meanwhile passes the turn; two in a row for one
    # crew forfeit, and the host starts a rematch).
    done: set[str] = set()
    for _ in range(12):
        step, person = actor(table)
        watch(f"{step}: {person.name if person else ''}")
        if step == "ended":
            table.host.page.get_by_role("button", name="Rematch").click()
            table.everyone(lambda p: p.locator("#status .turn").count() == 1, within=WAIT / 1000)
            expect(table.host.page.locator("details#share")).not_to_have_attribute("open", "")
            reopen_invite(table.host.page)  # a rematch folds it; the host opens it again
            continue
        assert person is not None
        crew = table.active_crew(person.page)
        version = table.version(person.page)
        if (
            step == "naming"
            and crew not in done
            and naming_turn(table, watch, person, 2, refuse=True)
        ):
            _, spotter = actor(table)
            if spotter and spotting_turn(table, watch, spotter, crew, 1):
                done.add(crew)
        if done == {"gold", "teal"}:
            break
        if table.version(person.page) == version:
            wait_for_next_step(table, version)
    assert done == {"gold", "teal"}, watch.steps

    # Then nobody names: the clock runs out on every screen until a crew forfeits (C4).
    for _ in range(6):
        step, _person = actor(table)
        if step == "ended":
            break
        version = table.version(table.host.page)
        wait_for_next_step(table, version)
        watch("a clock ran out")
    assert actor(table)[0] == "ended"
    watch("the end")
    # Every push since the host reopened it (words, touches and clocks running out as the
    # areas they change, the end as the whole board), and "Invite friends" is still open.
    assert table.host.page.locator("details#share").evaluate("share => share.open")
    expect(table.host.page.get_by_role("button", name="Copy link")).to_be_visible()
    table.no_reloads()


def test_before_dawn_on_two_phones_keeps_what_each_player_needs_in_view(tables):
    table: Table = tables(2, viewport=PHONE)
    table.join_and_sit()
    table.set_clock("60 s")
    table.start()
    watch = Watch(table, CONSTELLATE, "dawn")
    watch("the start")
    gazer, spotter = table.seat(1), table.seat(2)

    assert naming_turn(table, watch, gazer, 2, refuse=True)
    assert spotting_turn(table, watch, spotter, "gold", 1)
    # The next turn names every dark star and the Spotter lights them all: dawn is beaten.
    step, person = actor(table)
    assert (step, person) == ("naming", gazer)
    stars = dark(table.sky(gazer.page), "gold")
    assert naming_turn(table, watch, gazer, len(stars), refuse=False)
    for card in stars[::-1]:
        acted(table, spotter, lambda c=card: spotter.page.click(card_button(c)))
        watch("a touch")
    table.everyone(lambda p: p.locator("#status .result").count() == 1, within=WAIT / 1000)
    watch("the end")
    table.no_reloads()


# -- Under One Sky -------------------------------------------------------------------------


def uos_mover(table: Table) -> Person | None:
    deadline = time.monotonic() + WAIT / 1000
    while time.monotonic() < deadline:
        if len({table.version(p) for p in table.pages}) == 1:
            if table.host.page.locator("#status .result").count():
                return None
            for person in table.people:
                if person.page.locator("#uos-play.placing").count():
                    return person
        time.sleep(0.1)
    raise AssertionError("no one to place a tile")


def uos_step(table: Table, watch: Watch, step: str, do: Callable[[], None], who: Person) -> None:
    acted(table, who, do)
    watch(step)


def test_under_one_sky_laptop_against_phone_keeps_what_each_player_needs_in_view(tables):
    table: Table = tables(2, game="Under One Sky")
    table.people[1].page.set_viewport_size(PHONE)
    table.join_and_sit()
    table.set_clock("60 s")
    table.host.page.get_by_role("button", name="Start the game").click()
    table.everyone(
        lambda p: p.locator("#board .space").count() == 25 and p.locator("#countdown").count(),
        within=WAIT / 1000,
    )
    watch = Watch(table, UNDER_ONE_SKY, "uos")
    watch("the start")

    rng = random.Random(15)
    refused = set()
    for _turn in range(24):
        player = uos_mover(table)
        if player is None:
            break
        page = player.page
        if player.name not in refused:
            # A space touched before a tile is picked: the refusal shows by the controls.
            refused.add(player.name)
            with page.expect_response(lambda r: r.url.endswith("/place"), timeout=WAIT) as ans:
                page.locator("button.space.target").first.click()
            assert ans.value.status >= 400
            expect(page.locator("#notice")).not_to_be_empty(timeout=WAIT)
            watch("a refused place")
        tiles = page.locator(".tray-tile")
        tiles.nth(rng.randrange(tiles.count())).click()
        watch("a tile picked")
        targets = page.locator("button.space.target")
        uos_step(
            table, watch, "a tile placed", targets.nth(rng.randrange(targets.count())).click, player
        )
        if page.locator("#uos-play.moving").count():
            origins = page.locator(".space.origin")
            origin = origins.nth(rng.randrange(origins.count()))
            value = origin.locator("input").get_attribute("value")
            origin.click()
            watch("a tile to move")
            reachable = page.locator(f"button.space.dest.from-{value}")
            uos_step(
                table,
                watch,
                "a tile moved",
                reachable.nth(rng.randrange(reachable.count())).click,
                player,
            )
    table.everyone(lambda p: p.locator("#status .result").count() == 1, within=WAIT / 1000)
    watch("the end")
    table.no_reloads()
