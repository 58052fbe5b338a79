"""Look at the Stars played to the end in real browsers, by taps only (issue 17).

Four people: the host on a laptop (1366 × 768) and three phones (390 × 844). Every round
each seat draws what the computer player would draw for it (the test reads the seat's board
from the test database, as the player reads their screen, and asks ``robot.move``): taps on
the stars, Use or Decline on power copies, Confirm; or Pass and its "Pass this card?" when
that is the computer's choice. The four tap at the same time, one step each in turn. The
clock runs: in one round the last phone deliberately does nothing and the clock passes it
(T3), in the log of every screen. The lobby fixes the clock for a whole game, and four
drawings do not fit in the tests' 3 s step on a loaded 2-core machine, so the game runs on
60 s; a seat whose round still closed by the clock before it confirmed is checked as passed
by the clock (R5, T4), and the game goes on. A fifth person, who opened the link before the
start, joins on a phone to watch during the idle round.

Every screen keeps a record of every board it showed (a MutationObserver; no reload): at
every round each screen showed the round with every seat drawing, the seats' done states
only growing (in the game's version order), only seats that had submitted shown done, and
the round's log line as it closed. At the end: the result line, every board with its total,
the 18 cards of the night, and the whole log.

A solo game on one phone, clock off, ends with "Solo: N points". Screenshots of each role go
to test-artifacts/screenshots/lookatthestars/ (docs/screenshots/ keeps the chosen ones).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from games import store
from games.lookatthestars import pictures
from games.lookatthestars.rules import robot, sky
from games.lookatthestars.rules.model import PASS, Drawing, State
from games.lookatthestars.rules.view import view_for
from games.models import Game
from lobby.models import Room
from tests.e2e.browser import PHONE, SHOWN_WITHIN, Person, Table, _safe, watch_csp
from tests.e2e.test_lookatthestars import SHOTS, WAIT

pytestmark = pytest.mark.e2e

ROUNDS = 18
IDLE_ROUND = 4  # the round the last phone waits out, doing nothing (T3)
SHOT_ROUND = 2  # the round a phone and the laptop are photographed drawing
# The lobby fixes the clock for the whole game (off, 60, 90, 120 s, and the tests' 3 s). Four
# seats tapping 5 to 9 steps each do not fit in 3 s on a loaded 2-core machine (a tap's answer
# there takes up to a second): 60 s lets every seat draw, and the idle round waits it out.
CLOCK_SECONDS = 60
CLOCK = f"{CLOCK_SECONDS} s"
WATCHER = "Eve"  # opens the link at the start, joins as a spectator in the idle round
STEP = WAIT  # ms: one tap's answer

# Installed on every page once: a count of the answers to its own requests (each tap), and a
# record of every board it shows (a push or an answer swaps #board or its areas; the version
# tells them apart): the round line, each seat's status in the score strip, the done count, the log.
RECORDER = """() => {
  if (window.e2eRecording) return;
  window.e2eRecording = true;
  window.e2eAnswers = 0;
  window.e2eRefused = 0;
  // Counted on the request itself: a Confirm's button may be gone (the push of the seat's
  // "done" replaced it) before its answer lands, and htmx then tells the document nothing.
  document.addEventListener('htmx:beforeSend', (e) => {
    e.detail.xhr.addEventListener('loadend', (x) => {
      window.e2eAnswers += 1;
      if (!(x.target.status >= 200 && x.target.status < 300)) window.e2eRefused += 1;
    });
  });
  window.e2eBoards = [];
  let last = null;
  const text = (s) => (document.querySelector(s)?.textContent || '').trim();
  // The version shown: the board's, or a newer area's (another seat's Confirm comes as the
  // top bar and the score strip alone).
  const shownVersion = () => Math.max(0, ...[
    ...document.querySelectorAll('#board, #board [data-area]')].map((e) => +e.dataset.version));
  window.e2eBoard = () => ({
    version: shownVersion(),
    mode: text('#status .mode'),
    turn: text('#status .turn'),
    seats: [...document.querySelectorAll('.lats-scores li')].map((li) => [
      (li.querySelector('.lats-score-name')?.textContent || '').replace(' (you)', '').trim(),
      (li.querySelector('.lats-seat-status')?.textContent || '').trim(),
    ]),
    log: [...document.querySelectorAll('.round-log li')].map((li) => li.textContent.trim()),
    result: text('#status .result'),
  });
  const record = () => {
    if (!document.querySelector('#board') || shownVersion() === last) return;
    last = shownVersion();
    window.e2eBoards.push({...window.e2eBoard(), at: Date.now()});
  };
  new MutationObserver(record).observe(document.body, {childList: true, subtree: true});
  record();
}"""


@dataclass
class Seat:
    """One seat's part of a round: the steps left to tap, and the answer it waits for."""

    person: Person
    drawing: Drawing
    steps: list[tuple[str, str]]
    answers: int | None = None  # the page's answer count when its last step was tapped
    confirmed: bool = False  # Confirm (or the pass) was answered with success
    lost: bool = False  # the round closed (the clock) before this seat was done
    refused_before: int = 0  # the page's refused answers when the round began
    before_confirm: Callable[[], None] | None = None
    clicked: float | None = None  # the browser's clock (ms) when Confirm or Pass was tapped

    @property
    def page(self) -> Page:
        return self.person.page


def steps_of(drawing: Drawing) -> list[tuple[str, str]]:
    """What a person taps to draw ``drawing`` (as ``draw`` does), then Confirm; or Pass."""
    if drawing.passed:
        return [("pass", "")]
    taps: list[tuple[str, str]] = []
    if drawing.shooting_star is not None:
        star = drawing.shooting_star
        head = star.head
        for p in sorted(star.stars, key=lambda p: max(abs(p[0] - head[0]), abs(p[1] - head[1]))):
            taps.append(("tap", sky.point_name(p)))
    for a, b in sorted(drawing.lines):
        taps += [("tap", sky.point_name(a)), ("tap", sky.point_name(b))]
    for resolution in drawing.resolutions:
        copy = sky.shape_name(resolution.copy)
        if resolution.declined:
            taps.append(("decline", copy))
        else:
            taps.append(("use", copy))
            taps += [("tap", sky.point_name(t)) for t in resolution.targets]
    return [*taps, ("confirm", "")]


def press(seat: Seat, round_number: int) -> None:
    """Tap the seat's next step (without waiting for its answer)."""
    page = seat.page
    kind, value = seat.steps.pop(0)
    area = page.locator(f"#lats-drafting-{round_number}")
    if not shown_or_closed(seat.person, area, round_number):
        raise LookupError("the round closed before its drawing area was tapped")
    if kind == "tap":
        button = area.locator(f'button.lats-point[data-point="{value}"]')
    elif kind in ("use", "decline"):
        button = area.locator(f'.lats-powers button[value="{kind}:{value}"]')
    elif kind == "pass":
        page.once("dialog", lambda dialog: dialog.accept())  # "Pass this card?"
        button = area.get_by_role("button", name="Pass")
    else:
        button = area.locator(".lats-buttons .confirm:enabled")
        if seat.before_confirm:
            button.wait_for(timeout=WAIT)
            seat.before_confirm()
    if kind in ("confirm", "pass"):
        seat.clicked = page.evaluate("Date.now()")  # every page shares the browser's clock
    # The drawing as it is now is marked: the tap's answer replaces it (U1).
    seat.answers = page.evaluate(
        """area => { const form = document.querySelector(area + ' form');
                     if (form) form.dataset.e2eAnswered = 'not yet';
                     return window.e2eAnswers; }""",
        f"#lats-drafting-{round_number}",
    )
    button.click(timeout=SHOWN_WITHIN * 1000)


def answered(seat: Seat, round_number: int) -> None:
    """Wait for the answer to the seat's last step: a tap's redraws the drawing area, a
    refused one (the round closed) only says why; Confirm's and Pass's are answered and
    the push brings the rest."""
    final = not seat.steps
    seat.page.wait_for_function(
        """([area, answers, refused, final]) => window.e2eRefused > refused
            || (final ? window.e2eAnswers > answers
                      : !document.querySelector(area + ' form')?.dataset.e2eAnswered)""",
        arg=[f"#lats-drafting-{round_number}", seat.answers, seat.refused_before, final],
        timeout=STEP,
    )
    seat.answers = None
    refused = seat.page.evaluate("window.e2eRefused") > seat.refused_before
    if final:
        seat.confirmed = not refused
    elif refused or seat.page.locator(f"#lats-drafting-{round_number}").count() == 0:
        seat.lost = True


def play_round(seats: list[Seat], round_number: int) -> None:
    """Every seat taps its steps, the four at the same time: one step each, then the answers."""
    for seat in seats:
        seat.refused_before = seat.page.evaluate("window.e2eRefused")
    busy = [s for s in seats if s.steps]
    while busy:
        for seat in busy:
            try:
                press(seat, round_number)
            except Exception:  # the area is gone: the round closed (the clock) meanwhile
                if not closed_by_now(seat.person, round_number):
                    raise
                seat.lost, seat.steps, seat.answers = True, [], None
        for seat in busy:
            if seat.answers is not None:
                try:
                    answered(seat, round_number)
                except Exception:
                    if not closed_by_now(seat.person, round_number):
                        raise
                    seat.lost, seat.steps = True, []
        busy = [s for s in busy if s.steps and not s.lost]


def shown_or_closed(person: Person, area: Locator, round_number: int) -> bool:
    """Wait for the round's drawing area on the seat's screen (True), unless the round
    closes first (False)."""
    deadline = time.monotonic() + WAIT / 1000
    while area.count() == 0:
        if closed_by_now(person, round_number):
            return False
        assert time.monotonic() < deadline, f"round {round_number} not shown to {person}"
        time.sleep(0.02)
    return True


def read_state(page: Page) -> State | None:
    """The game as the test database has it, read only: never settling a due expiry, which
    is the server's to apply (and to push). None before the game is dealt."""
    room = Room.objects.get(code=re.search(r"/r/([^/]+)/", page.url).group(1))
    if room.game_id is None:
        return None
    return store.state_of(Game.objects.get(pk=room.game_id))


def closed_by_now(person: Person, round_number: int) -> bool:
    """The round is over for taps: closed, or past its deadline (T4: refused from then)."""
    state = read_state(person.page)
    assert state is not None
    if state.ended or state.round_number > round_number or state.round.closed:
        return True
    return state.deadline is not None and timezone.now() >= state.deadline


def running(page: Page, round_number: int, within: float = SHOWN_WITHIN * 2) -> State:
    """The game once round ``round_number`` (or a later one) runs."""
    deadline = time.monotonic() + within
    while (state := read_state(page)) is None or state.round_number < round_number:
        assert time.monotonic() < deadline, f"round {round_number} did not begin"
        time.sleep(0.02)
    return state


def ended(page: Page) -> State:
    deadline = time.monotonic() + SHOWN_WITHIN * 2
    while not (state := read_state(page)).ended:
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)
    return state


def boards_seen(page: Page) -> list[dict]:
    return page.evaluate("window.e2eBoards")


# Issue 17 asks for every change on every screen within 2 s. Four Confirms tapped at the same
# moment queue on one server: the last waits for the three before it and closes the round.
# With whole boards pushed for every Confirm the slowest was 1.69-2.14 s; since another
# seat's Confirm is pushed as the top bar and score strip alone (pushes by area), p50 0.53 s
# and the slowest 1.26-1.45 s (docs/performance.md). Speed is measured, not asserted by a
# timed test (machines of one kind differ up to 3x): the test bounds it by the suite's own
# wait (SHOWN_WITHIN) and prints the figures.


def _round_of(board: dict) -> int:
    found = re.search(r"Round (\d+) of", board["mode"])
    return int(found.group(1)) if found else (10**6 if board["result"] else 0)


def _shows_done(board: dict, name: str, round_number: int) -> bool:
    """The board shows ``name`` done in that round, or a later round, or the end."""
    later = _round_of(board) > round_number
    return later or (
        _round_of(board) == round_number and dict(board["seats"]).get(name) == "✓ done"
    )


def to_every_screen(played: dict[int, list[Seat]], people: list[Person]) -> list[float]:
    """From each accepted Confirm (its tap, on the browser's clock) to the moment the last
    screen recorded a board showing that seat done (or the round over), in s, one a Confirm.
    A screen that began recording after the tap (a late spectator) is not counted."""
    recorded = {p.name: boards_seen(p.page) for p in people}
    times = []
    for number, seats in played.items():
        for seat in seats:
            if not seat.confirmed or seat.clicked is None:
                continue
            arrivals = []
            for boards in recorded.values():
                if not boards or boards[0]["at"] > seat.clicked:
                    continue
                at = next(
                    (
                        b["at"]
                        for b in boards
                        if b["at"] >= seat.clicked and _shows_done(b, seat.person.name, number)
                    ),
                    None,
                )
                assert at is not None, (seat.person.name, number)
                arrivals.append(at)
            times.append((max(arrivals) - seat.clicked) / 1000)
    return sorted(times)


def check_round_seen(person: Person, state: State, number: int, names: dict[int, str]) -> None:
    """The person's screen showed round ``number``: the seats' states only grew from drawing
    to done, only seats that had submitted were shown done, and the done count agreed; and
    the next board it showed had the closed round's line first in its log (the clock's
    passes named)."""
    closed = state.closed[number - 1]
    submitted = {names[s] for s in state.seats if s not in closed.passed_by_clock}
    # In the order of the game's versions: two pushes sent at once (two seats confirming)
    # may reach a screen in either order (the app shows the later-arriving one; reported).
    boards = sorted({b["version"]: b for b in boards_seen(person.page)}.values(), key=_version)
    seen = [i for i, b in enumerate(boards) if f"Round {number} of" in b["mode"]]
    assert seen, f"{person.name}'s screen never showed round {number}"
    done_before: set[str] = set()
    for board in (boards[i] for i in seen):
        shown = dict(board["seats"])
        assert set(shown) == set(names.values()), (person.name, board)
        assert set(shown.values()) <= {"✓ done", "drawing"}, (person.name, board)
        done = {name for name, status in shown.items() if status == "✓ done"}
        assert done_before <= done <= submitted, (person.name, number, board, submitted)
        assert f"{len(done)}/{len(names)} done" in board["mode"], (person.name, board)
        done_before = done
    after = boards[seen[-1] + 1]
    assert after["log"][0] == round_line(closed, names), (person.name, after)
    assert f"Round {number + 1} of" in after["mode"] or number == ROUNDS, (person.name, after)


def every_screen(
    table: Table, shows: Callable[[dict], bool], people: list[Person] | None = None
) -> None:
    """Every screen shows a board that ``shows`` accepts within SHOWN_WITHIN seconds. Two
    boards sent at once may arrive in either order; the page keeps the newer (socket.js)."""
    deadline = time.monotonic() + SHOWN_WITHIN
    waiting = list(table.present if people is None else people)
    while True:
        waiting = [
            p for p in waiting if not _safe(lambda page: shows(page.evaluate("e2eBoard()")), p.page)
        ]
        if not waiting or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    shown = {p.name: p.page.evaluate("e2eBoard()") for p in waiting}
    assert not shown, f"screens that do not show it: {shown}"


def _version(board: dict) -> int:
    return board["version"]


def out_of_order(page: Page) -> list[tuple[int, int]]:
    """Where a screen showed an older board after a newer one: (newer, older) versions."""
    versions = [b["version"] for b in boards_seen(page)]
    return [(a, b) for a, b in zip(versions, versions[1:], strict=False) if b < a]


def round_line(closed, names: dict[int, str]) -> str:
    """The log's line for a closed round, as the rules page words it (Screens)."""
    card = "a shooting star" if closed.card.startswith("SS") else f"shape {closed.card}"
    passed = [
        names[s]
        for s, drawing in enumerate(closed.drawings, start=1)
        if drawing.passed and s not in closed.passed_by_clock
    ]
    clock = [names[s] for s in closed.passed_by_clock]
    parts = []
    if passed:
        parts.append(f"{listed(passed)} passed")
    if clock:
        parts.append(f"the clock passed {listed(clock)}")
    return f"Round {closed.number} ({card}): {'; '.join(parts) or 'everyone drew'}."


def listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def shot(page: Page, name: str) -> None:
    """What the person sees at the top of their page (a tap may have scrolled it)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / name))


def test_a_whole_game_on_a_laptop_and_three_phones_by_taps_with_the_clock(tables):
    table: Table = tables(4, game="Look at the Stars")
    for person in table.people[1:]:
        person.page.set_viewport_size(PHONE)
    table.join_and_sit()
    names = {p.seat: p.name for p in table.people}
    table.set_clock(CLOCK)
    host = table.host.page
    seated = list(table.people)
    idle = seated[-1]  # a phone

    # Someone opens the link before the start, and joins as a spectator later (on a phone).
    context = table.browser.new_context(viewport=PHONE)
    watch_csp(context, table.csp_violations)
    watcher = Person(WATCHER, context, context.new_page())
    table.people.append(watcher)
    table.away.add(WATCHER)  # not one of the screens checked until it joins
    watcher.page.goto(host.url)
    watcher.page.wait_for_selector("#lobby")
    watcher.page.evaluate("window.e2eNoReload = true")

    for person in seated:
        person.page.evaluate(RECORDER)
    host.get_by_role("button", name="Start the game").click()
    all_drawing = dict.fromkeys(names.values(), "drawing")

    played: dict[int, list[Seat]] = {}
    idle_round = 0  # the round the last phone waits out: the first from IDLE_ROUND the test
    # finds running (a round may close by the clock while a loaded machine reads it)
    for number in range(1, ROUNDS + 1):
        state = running(host, number)
        if state.round_number > number:  # it closed by the clock before the test looked
            played[number] = [Seat(person, PASS, []) for person in seated]
            continue
        if number >= IDLE_ROUND and not idle_round:
            idle_round = number
        # Every screen shows the round, every seat drawing, before anyone taps.
        every_screen(
            table,
            lambda b, n=number: (
                re.search(rf"Round {n} of {ROUNDS} · pile \d · 0/4 done$", b["mode"]) is not None
                and dict(b["seats"]) == all_drawing
            ),
        )
        seats = []
        for person in seated:
            drawing = robot.move(state, person.seat).drawing
            seat = Seat(person, drawing, steps_of(drawing))
            if number == idle_round and person is idle:
                seat.steps = []  # does nothing: the clock passes it
            seats.append(seat)
        played[number] = seats
        if number == SHOT_ROUND:  # what a phone and the laptop show, drawn, before Confirm
            seats[0].before_confirm = lambda: shot(host, "host-drawing-1366.png")
            phone = seats[1].page
            seats[1].before_confirm = lambda phone=phone: shot(phone, "drawing-390.png")
        play_round(seats, number)

        if number == idle_round:
            # Three are done, the last phone still draws: every screen says so, until the
            # clock passes it.
            done = [s for s in seats if s.confirmed]
            if len(done) == 3 and not closed_by_now(idle, number):
                shown = {s.person.name: "✓ done" if s in done else "drawing" for s in seats}
                every_screen(
                    table,
                    lambda b, shown=shown: dict(b["seats"]) == shown and "3/4 done" in b["mode"],
                )
                waits = f"Done — waiting for 1 other: {idle.name}."
                every_screen(table, lambda b, w=waits: b["turn"] == w, [seats[1].person])
                shot(seats[1].page, "done-waiting-390.png")
                shot(host, "host-done-1366.png")
                shot(idle.page, "idle-390.png")
            # Meanwhile someone who had the link joins, on their phone, to watch.
            watcher.page.fill("#name", WATCHER)
            watcher.page.get_by_role("button", name="Join").click()
            watcher.page.get_by_text(f"You are {WATCHER}, watching").wait_for(timeout=WAIT)
            watcher.page.evaluate(RECORDER)
            table.away.discard(WATCHER)
            table.everyone(lambda p: p.locator(".spectators").inner_text() == "1 watching")
            if not closed_by_now(idle, number):
                shot(watcher.page, "spectator-390.png")

        # The round closes (at once, or by the clock): every screen's log says how.
        after = (
            running(host, number + 1, within=CLOCK_SECONDS + WAIT / 1000)
            if (number < ROUNDS)
            else ended(host)
        )
        line = round_line(after.closed[number - 1], names)
        every_screen(table, lambda b, line=line: b["log"][:1] == [line])
        if number == idle_round:
            assert f"the clock passed {idle.name}" in line, line
        table.no_reloads()

    # Every round as the database closed it: a seat that confirmed drew what it tapped, any
    # other was passed by the clock (the last phone in its idle round; others only where the
    # round closed before their taps were done); every screen showed it so.
    state = ended(host)
    clocked = []
    for number, seats in played.items():
        closed = state.closed[number - 1]
        for seat in seats:
            if seat.confirmed:
                assert seat.person.seat not in closed.passed_by_clock, (number, seat)
                assert closed.drawings[seat.person.seat - 1] == seat.drawing, (number, seat)
            else:
                assert seat.person.seat in closed.passed_by_clock, (number, seat)
                if seat.person is not idle or number != idle_round:
                    clocked.append((number, seat.person.name))
        assert (number == idle_round) <= (idle.seat in closed.passed_by_clock)
        for person in seated:
            check_round_seen(person, state, number, names)
        if number > idle_round:
            check_round_seen(watcher, state, number, names)
    # No screen ever showed an older board after a newer one (socket.js keeps the newest).
    swapped = {p.name: out_of_order(p.page) for p in table.present if out_of_order(p.page)}
    assert not swapped, f"older boards shown after newer ones: {swapped}"
    log = [round_line(closed, names) for closed in reversed(state.closed)]
    for person in table.present:
        assert person.page.locator(".round-log li").all_inner_texts() == log, person

    # The end: the result line, every board with its total, the 18 cards, on every screen.
    state = ended(host)
    final = view_for(state, None)
    totals = {b.seat: b.score.total for b in final.boards}
    best = max(totals.values())
    winners = [names[s] for s in state.winners]
    assert winners == [names[s] for s in totals if totals[s] == best]
    result = (
        f"{winners[0]} wins with {best}."
        if len(winners) == 1
        else f"{listed(winners)} share the win with {best}."
    )
    table.everyone_reads("#status .result", result, within=SHOWN_WITHIN * 2)
    night = [pictures.card_picture(card).name for card in state.cards]
    assert len(night) == ROUNDS
    for person in table.present:
        page = person.page
        expect(page.locator(".lats-night-cards .lats-card-name")).to_have_text(night)
        summaries = page.locator(".lats-others .lats-seat summary").all_inner_texts()
        assert len(summaries) == len(names), summaries
        for seat, summary in zip(sorted(names), summaries, strict=True):
            assert summary.startswith(names[seat]) and f"· {totals[seat]} points" in summary
        assert page.locator(".lats-others .lats-board, .lats-others svg.lats-sky").count() >= 4
        assert page.locator("#countdown").count() == 0
    table.no_reloads()
    shot(host, "end-1366.png")
    shot(table.people[1].page, "end-390.png")
    shot(watcher.page, "end-spectator-390.png")
    print(f"passed by the clock while tapping (load): {clocked}")
    times = to_every_screen(played, [*seated, watcher])
    print(f"Confirm to every screen: p50 {times[len(times) // 2]:.2f} s, slowest {times[-5:]}")
    assert times[-1] < SHOWN_WITHIN, times


def test_a_solo_game_on_a_phone_by_taps_to_the_end(tables):
    table: Table = tables(1, game="Look at the Stars")
    page = table.host.page
    page.set_viewport_size(PHONE)
    table.join_and_sit()
    page.evaluate(RECORDER)
    page.get_by_role("button", name="Start the game").click()
    for number in range(1, ROUNDS + 1):
        expect(page.locator("#status .mode")).to_contain_text(
            f"Round {number} of {ROUNDS}", timeout=WAIT
        )
        expect(page.locator(f"#lats-drafting-{number}")).to_be_visible(timeout=WAIT)
        state = read_state(page)
        assert state.round_number == number and state.deadline is None  # the clock is off
        drawing = robot.move(state, 1).drawing
        seat = Seat(table.host, drawing, steps_of(drawing))
        if number == SHOT_ROUND and not drawing.passed:
            seat.before_confirm = lambda: shot(page, "solo-drawn-390.png")
        play_round([seat], number)
        assert seat.confirmed, (number, seat)
        if number < ROUNDS:
            expect(page.locator(".round-log li").first).to_contain_text(
                f"Round {number} (", timeout=WAIT
            )
    state = ended(page)
    total = state.scores[0].total
    expect(page.locator("#status .result")).to_have_text(
        f"Solo: {total} point{'' if total == 1 else 's'}.", timeout=WAIT
    )
    expect(page.locator(".lats-night-cards .lats-card-name")).to_have_count(ROUNDS)
    assert page.evaluate("window.e2eNoReload") is True
    shot(page, "solo-end-390.png")
