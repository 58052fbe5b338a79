"""People at a table, each in their own browser context, doing only what a person does:
open links, type, click. After every action, every screen must show the new state within
``SHOWN_WITHIN`` seconds, with no reload.

A test may choose cards knowing the key, because a Stargazer's screen shows it (class
``key-gold`` etc. on each card): reading it from that page is what the player does.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

# Seconds an action may take to reach every screen before a test calls it lost: a wait, not a
# speed check (speed is measured by the bench, docs/performance.md). Two cores running the
# server, its workers and four Chromiums have needed more than 2 s under load.
SHOWN_WITHIN = 5.0
NAMES = ("Ada", "Bo", "Cy", "Di")
# Ordinary words that name nothing on the deck's cards; a refused one is replaced (T3).
WORDS = (
    "ocean", "history", "freedom", "justice", "journey", "science", "silence", "courage",
    "memory", "harvest", "victory", "thunder", "wisdom", "balance", "country", "village",
)  # fmt: skip
REFUSED_WORD = "qzxvq"  # W2: not a word
KEYS = ("gold", "teal", "haze", "cloud", "comet")
KEY_LABELS = ("Gold star", "Teal star", "Haze", "Cloud", "Comet")  # in KEYS' order
VENDOR = Path(__file__).resolve().parent / "vendor"
AXE_VERSION = "4.14.1"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@dataclass(frozen=True)
class Card:
    index: int
    name: str
    key: str | None  # None where this screen may not see it
    lit: bool


@dataclass
class Person:
    name: str
    context: BrowserContext
    page: Page
    seat: int | None = None

    def __repr__(self) -> str:
        return f"<{self.name} in seat {self.seat}>"


@dataclass
class Table:
    """The people of one room, the host first."""

    browser: Browser
    url: str
    people: list[Person] = field(default_factory=list)
    viewport: dict | None = None
    away: set[str] = field(default_factory=set)  # names whose screens are not checked now
    game: str | None = None  # the game picked on the home page (None: the one checked)
    csp_violations: list[str] = field(default_factory=list)  # every screen's, any page

    # -- arriving ----------------------------------------------------------------------
    def arrive(self, count: int, setup: Callable[[Person], None] | None = None) -> Table:
        """The host opens the home page and creates a room, copies its link and sends it to
        the others, who open it. ``setup`` runs on each person before any page opens."""
        for name in NAMES[:count]:
            context = self.browser.new_context(viewport=self.viewport or LAPTOP)
            watch_csp(context, self.csp_violations)
            person = Person(name, context, context.new_page())
            if setup:
                setup(person)
            self.people.append(person)
        host = self.host.page
        host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=self.url)
        host.goto(self.url + "/")
        if self.game:
            host.get_by_role("radio", name=re.compile(re.escape(self.game))).check()
        host.get_by_role("button", name="Create a room").click()
        host.wait_for_url(re.compile(r".*/r/[^/]+/$"))
        # The host copies the link and "sends" it to the others, who open it.
        host.get_by_role("button", name="Copy link").click()
        host.get_by_role("button", name="Copied!").wait_for()
        link = host.evaluate("navigator.clipboard.readText()")
        assert link == host.url, (link, host.url)
        for person in self.people[1:]:
            person.page.goto(link)
        for person in self.people:
            person.page.wait_for_selector("#lobby")
            person.page.evaluate("window.e2eNoReload = true")  # gone if the page reloads
        return self

    def close(self) -> None:
        """Close every browser; the app's Content-Security-Policy must not have refused
        anything on any of their pages (an inline script, handler or style)."""
        for person in self.people:
            person.context.close()
        assert not self.csp_violations, self.csp_violations

    @property
    def host(self) -> Person:
        return self.people[0]

    @property
    def present(self) -> list[Person]:
        return [p for p in self.people if p.name not in self.away]

    @property
    def pages(self) -> list[Page]:
        return [p.page for p in self.present]

    def seat(self, seat: int) -> Person:
        return next(p for p in self.people if p.seat == seat)

    # -- the lobby ---------------------------------------------------------------------
    def join_and_sit(self) -> None:
        for number, person in enumerate(self.people, start=1):
            page = person.page
            page.fill("#name", person.name)
            page.get_by_role("button", name="Join").click()
            self.everyone(lambda p: p.locator(".spectators").inner_text() == "1 watching")
            page.get_by_text(f"You are {person.name}").wait_for()
            page.get_by_role("button", name=f"Sit here in seat {number}").click()
            person.seat = number
            self.everyone(
                lambda p, n=number, name=person.name: (
                    p.locator(f".seat:nth-child({n}) .seat-name").inner_text().strip() == name
                )
            )

    def watcher_joins(self, name: str) -> Person:
        """Someone opens the link mid-game and joins without a seat (a spectator)."""
        context = self.browser.new_context(viewport=self.viewport or LAPTOP)
        watch_csp(context, self.csp_violations)
        person = Person(name, context, context.new_page())
        person.page.goto(self.host.page.url)
        person.page.fill("#name", name)
        person.page.get_by_role("button", name="Join").click()
        person.page.get_by_text(f"You are {name}, watching").wait_for()
        person.page.evaluate("window.e2eNoReload = true")
        self.people.append(person)
        self.everyone(lambda p: p.locator(".spectators").inner_text() == "1 watching")
        return person

    def set_clock(self, label: str) -> None:
        host = self.host.page
        host.locator(".clock label", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")).click()
        value = "off" if label == "Off" else label.split()[0]
        host.wait_for_function(
            "v => document.querySelector(`input[name=step][value='${v}']`)?.checked", arg=value
        )  # the server's answer re-renders the host's lobby with it

    def start(self, *, label: str = "Start the game") -> int:
        button = self.host.page.get_by_role("button", name=label)
        button.click()
        self.everyone(
            lambda p: (
                p.locator("#sky button[name=card]").count() == 24
                and p.locator("#status .turn").count() == 1
                and p.locator("#sky .card[class*=key-]").count()
                == (24 if self.is_stargazer(p) else 0)
            )
        )
        return self.version(self.host.page)

    @staticmethod
    def is_stargazer(page: Page) -> bool:
        """What the lobby's seat list tells this player about their own seat."""
        mine = page.locator(".seat.mine .seat-label")
        return mine.count() == 1 and "Stargazer" in mine.inner_text()

    # -- waiting for every screen --------------------------------------------------------
    def everyone(self, shows: Callable[[Page], bool], within: float = SHOWN_WITHIN) -> None:
        """Every screen shows something within ``within`` seconds (polled, never reloaded)."""
        deadline = time.monotonic() + within
        waiting = list(self.pages)
        while waiting:
            waiting = [p for p in waiting if not _safe(shows, p)]
            if not waiting:
                return
            if time.monotonic() > deadline:
                who = [p.name for p in self.present if p.page in waiting]
                raise AssertionError(f"not shown within {within} s on {who}'s screens")
            time.sleep(0.02)

    def everyone_reads(
        self, selector: str, text: str, within: float = SHOWN_WITHIN, *, part: bool = False
    ) -> None:
        """Every screen's ``selector`` reads ``text`` (or contains it, with ``part``)."""
        try:
            if part:
                self.everyone(lambda page: text in _text(page, selector), within)
            else:
                self.everyone(lambda page: _text(page, selector) == text, within)
        except AssertionError as error:
            shown = {
                p.name: _safe(lambda page: _text(page, selector), p.page) for p in self.present
            }
            raise AssertionError(f"{error}: wanted {text!r} in {selector}, shown {shown}") from None

    def at_version(self, version: int, within: float = SHOWN_WITHIN) -> None:
        """Every screen shows ``version``: its board, or an area pushed alone (a touch)."""
        deadline = time.monotonic() + within
        for person in self.present:
            left = max(0.05, deadline - time.monotonic())
            try:
                person.page.wait_for_function(
                    f"v => ({NEWEST}) >= v", arg=version, timeout=left * 1000
                )
            except Exception as error:
                shown = self.version(person.page)
                raise AssertionError(
                    f"{person.name}'s screen shows version {shown}, not {version}, "
                    f"{within} s after the action"
                ) from error

    @staticmethod
    def version(page: Page) -> int:
        """The newest version the page shows: its board's, or a newer area's (a change
        pushed as the areas it touched, games/definition.py Areas). Waits for the board to
        be on the page first, as reading its attribute through a locator did."""
        page.locator("#board").wait_for(state="attached")
        return int(page.evaluate(f"() => {NEWEST}"))

    def act(self, actor: Person, do: Callable[[], None]) -> int:
        """Do one game action on the actor's screen; every screen shows its result."""
        before = self.version(actor.page)
        started = time.monotonic()
        do()
        return self.act_shown(actor, before, started)

    def act_shown(self, actor: Person, before: int, started: float) -> int:
        actor.page.wait_for_function(
            f"v => ({NEWEST}) > v", arg=before, timeout=SHOWN_WITHIN * 1000
        )
        version = self.version(actor.page)
        self.at_version(version, within=SHOWN_WITHIN - (time.monotonic() - started))
        return version

    def no_reloads(self) -> None:
        for person in self.people:
            assert person.page.evaluate("window.e2eNoReload === true"), f"{person} reloaded"

    # -- what a screen shows -----------------------------------------------------------
    @staticmethod
    def sky(page: Page) -> list[Card]:
        raw = page.locator("#sky button[name=card]").evaluate_all(
            """cards => cards.map(c => ({
                index: +c.value,
                label: c.getAttribute('aria-label'),
                key: ([...c.classList].find(k => k.startsWith('key-')) || '').slice(4) || null,
                lit: c.classList.contains('lit'),
            }))"""
        )
        return [
            Card(c["index"], c["label"].split(",")[0], c["key"], c["lit"])
            for c in sorted(raw, key=lambda c: c["index"])
        ]

    @staticmethod
    def page_text(person: Person) -> str:
        """The board as a person reads it."""
        return _text(person.page, "#board")

    @staticmethod
    def active_crew(page: Page) -> str:
        found = re.search(r"\bcrew-(\w+)", page.locator("#status").get_attribute("class") or "")
        assert found
        return found.group(1)

    # -- the Stargazer -------------------------------------------------------------------
    def spell(self, person: Person, word: str) -> None:
        page = person.page
        field_ = page.locator("#word")
        for _ in range(len(field_.input_value())):
            page.get_by_role("button", name="Backspace").click()
        for letter in word.upper():
            page.click(f'button[data-letter="{letter}"]')
        assert field_.input_value() == word.upper()

    def pick_number(self, person: Person, number: int) -> None:
        person.page.locator(
            "label.number", has=person.page.locator(f'input[value="{number}"]')
        ).click()
        assert person.page.locator(f'input[name=number][value="{number}"]').is_checked()

    def name(self, gazer: Person, number: int, words: Iterable[str] = WORDS) -> tuple[str, int]:
        """Spell a word on the letter keys, pick the number, send; a refused word shows its
        reason on the Stargazer's screen only, and the next word is tried (T3)."""
        page = gazer.page
        for word in words:
            before = self.version(page)
            self.spell(gazer, word)
            self.pick_number(gazer, number)
            started = time.monotonic()
            if self.send(page, lambda: page.click("button.send")) is not None:
                self.refused_only_here(gazer, before)  # refused (T3): only this screen says why
                continue
            version = self.act_shown(gazer, before, started)
            self.everyone_reads("#status .clue-word", word.upper())
            return word, version
        raise AssertionError("every word was refused")

    @staticmethod
    def send(page: Page, click: Callable[[], None]) -> str | None:
        """Click what sends a seated player's action and wait for its answer, which comes
        on the room's socket (static/platform/socket.js: a board's actions go over it while
        it is open): the refusal's reason, or None when the action was taken."""
        page.evaluate(
            """() => {
                window.e2eAnswered = false;
                document.addEventListener("room:actionAnswered",
                    () => { window.e2eAnswered = true; }, { once: true });
            }"""
        )
        click()
        page.wait_for_function("() => window.e2eAnswered === true", timeout=SHOWN_WITHIN * 1000)
        refused = page.locator("#notice.error")
        return refused.inner_text().strip() if refused.count() else None

    def refused_only_here(self, gazer: Person, version: int) -> str:
        reason = gazer.page.locator("#notice.error").inner_text().strip()
        assert reason
        for other in self.present:
            assert self.version(other.page) == version
            if other is not gazer:
                assert other.page.locator("#notice.error").count() == 0
        return reason

    # -- the Spotters --------------------------------------------------------------------
    def touch(self, spotter: Person, card: int) -> int:
        version = self.act(spotter, lambda: spotter.page.click(f'#sky button[value="{card}"]'))
        self.everyone(
            lambda p: (
                "lit"
                in (p.locator(f'#sky button[value="{card}"]').get_attribute("class") or "").split()
            )
        )
        return version

    def stop(self, spotter: Person) -> int:
        return self.act(
            spotter,
            lambda: spotter.page.get_by_role("button", name="Stop and bank a touch").click(),
        )

    # -- anyone seated -------------------------------------------------------------------
    def flag(self, person: Person, constellation: int, kind: str, reason: str) -> str:
        """Flag a constellation from the log (F1): the flagger is thanked, and nothing
        changes on anyone's screen (F2)."""
        page = person.page
        before = {p.name: self.version(p.page) for p in self.present}
        line = page.locator("#log li", has=page.locator(f'input[value="{constellation}"]'))
        line.locator("summary", has_text="Flag").click()
        line.get_by_label("Why?").select_option(label=kind)
        line.get_by_label("Note (optional)").fill(reason)
        with page.expect_response(lambda r: r.url.endswith("/flag")) as answer:
            line.get_by_role("button", name="Send to the moderators").click()
        assert answer.value.status == 200, answer.value.status
        page.wait_for_function(
            "() => document.querySelector('#notice')?.textContent.includes('moderators')"
        )
        assert {p.name: self.version(p.page) for p in self.present} == before
        return _text(page, "#notice")

    def ended(self, result: str) -> None:
        """Every screen shows the result, the whole key (K4, E2) and the replay link."""
        self.everyone_reads("#status .result", result)
        for page in self.pages:
            assert all(card.key for card in self.sky(page)), "the whole sky is shown at the end"
            assert page.get_by_role("link", name="Replay this game step by step").is_visible()
            assert page.locator("#countdown").count() == 0

    def rematch(self) -> list[Card]:
        """The host starts a new game in the same seats; every screen shows the new sky."""
        old = {c.name for c in self.sky(self.host.page)}
        self.host.page.get_by_role("button", name="Rematch").wait_for()
        self.start(label="Rematch")
        new = self.sky(self.host.page)
        assert {c.name for c in new} != old
        for page in self.pages:
            assert page.locator("#status .result").count() == 0
            assert [c.name for c in self.sky(page)] == [c.name for c in new]
        return new


# The newest version a page shows: its board's, or a newer area's (pushed alone).
NEWEST = """Math.max(0, ...[...document.querySelectorAll('#board, #board [data-area]')]
    .map((e) => Number(e.dataset.version) || 0))"""


def _text(page: Page, selector: str) -> str:
    return page.locator(selector).inner_text().strip()


def _safe(shows: Callable[[Page], object], page: Page) -> object:
    try:
        return shows(page)
    except Exception:  # the element is being swapped right now: ask again
        return False


def dark(cards: list[Card], key: str) -> list[int]:
    return [c.index for c in cards if c.key == key and not c.lit]


# -- leaks ------------------------------------------------------------------------------


class _Cards(HTMLParser):
    """Every card button in a piece of HTML: its attributes and whatever it contains."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[dict] = []
        self._inside: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        if tag == "button" and attributes.get("name") == "card":
            self._inside = {"attrs": attributes, "inner": []}
            self.cards.append(self._inside)
        elif self._inside is not None:
            self._inside["inner"].append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self._inside = None

    def handle_data(self, data: str) -> None:
        if self._inside is not None:
            self._inside["inner"].append(data)


def _area_mark(name: str, value: str | None) -> bool:
    """A card's marks as an area of the board (``{% area_marks %}``): numbers, nothing more."""
    if name == "data-area":
        return not value
    return name in {"data-version", "data-game", "data-since"} and (value or "").isdigit()


def key_leaks(html: str, never_lit: Iterable[Card] = ()) -> list[str]:
    """Where this HTML shows the key of a card that is dark in it: a ``key-*`` class, a key
    label in its accessible name, a badge, a data attribute, or a Stargazer's ``sees-key``
    sky. ``never_lit``: cards as the Stargazer's screen shows them, still dark at the end;
    their Stargazer's names (e.g. "Anchor, Haze") must not appear anywhere."""
    found = []
    if "sees-key" in html:
        found.append("a sky with the key (sees-key)")
    parser = _Cards()
    parser.feed(html)
    for card in parser.cards:
        attrs = card["attrs"]
        classes = attrs.get("class", "").split()
        if "lit" in classes:
            continue  # a lit card's key is public (K4)
        index = attrs.get("value", "?")
        label = attrs.get("aria-label", "")
        if any(c.startswith("key-") for c in classes):
            found.append(f"card {index} has class {classes}")
        if any(k in label for k in KEY_LABELS):
            found.append(f"card {index} is labelled {label!r}")
        if any('class="badge' in part for part in card["inner"]):  # not a badger's picture
            found.append(f"card {index} has a badge")
        if any(name.startswith("data-") and not _area_mark(name, attrs[name]) for name in attrs):
            found.append(f"card {index} has data attributes {sorted(attrs)}")
    for card in never_lit:
        label = dict(zip(KEYS, KEY_LABELS, strict=True))[card.key]
        if f"{card.name}, {label}" in html:
            found.append(f"{card.name}, {label}")
    return found


# -- the Content-Security-Policy ----------------------------------------------------------


def watch_csp(context: BrowserContext, violations: list[str]) -> None:
    """Collect what the page's Content-Security-Policy refused, on every page of the context
    (Chromium says so on the console)."""

    def seen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            violations.append(f"{message.page.url if message.page else '?'}: {message.text}")

    context.on("console", seen)


# -- accessibility ------------------------------------------------------------------------


def axe_problems(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script>: the app's Content-Security-Policy refuses inline
        # scripts, and the pages are checked with that policy on, as people get them.
        page.evaluate((VENDOR / "axe.min.js").read_text())
    assert page.evaluate("axe.version") == AXE_VERSION
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:5])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def small_targets(page: Page, selector: str, minimum: float = 44) -> list[str]:
    """Visible elements matching ``selector`` smaller than minimum x minimum CSS px."""
    sizes = page.locator(selector).evaluate_all(
        """els => els.filter(e => e.offsetParent !== null).map(e => {
            const r = e.getBoundingClientRect();
            return [e.outerHTML.slice(0, 80), r.width, r.height];
        })"""
    )
    return [f"{html} is {w:.0f}x{h:.0f}" for html, w, h in sizes if w < minimum or h < minimum]
