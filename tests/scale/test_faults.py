"""Faults against the real server processes (tests/support/cluster.py), in both
configurations: the embedded default (one daphne, SQLite) and, with DATABASE_URL and
REDIS_URL set, the scale-out one (two daphnes where it matters, PostgreSQL, Redis).

- a web process killed mid-game and restarted: the game resumes from its events;
- the q2 cluster down when a deadline passes: the next action (refused as late) or page
  load applies the expiry (C6), and the stale task, run when the cluster is back, does
  nothing;
- two Spotters touching at the same moment, over and over: one event per version;
- a websocket client that never reads: the others are not slowed, the server closes it.
"""

from __future__ import annotations

import socket
import threading
import time
from base64 import b64encode
from concurrent.futures import ThreadPoolExecutor
from os import urandom
from pathlib import Path

import httpx
import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django_q.brokers import get_broker
from django_q.models import Schedule, Task

from games import clock, store
from games.constellate import game as constellate
from games.constellate import rules
from games.constellate.rules import Key, State, TurnEnd
from games.models import Event, Game
from lobby.realtime import audience_group
from tests.scale.players import (
    SCALE_OUT,
    WAIT,
    Browser,
    Screen,
    board_version,
    db_version,
    event_rows,
    notice_of,
    wait_for,
)
from tests.support.cluster import run_cluster
from tests.web.rooms import WORDS, seat_table

pytestmark = pytest.mark.django_db(transaction=True)

WEBS = 2 if SCALE_OUT else 1  # web processes where more than one makes the test stronger
NO_LIMITS = {"CONSTELLATE_RATE_ACTIONS": "100000"}  # floods here are the test, not abuse


def _folded(game_id: int) -> State:
    """The game's state from its events as they stand (no expiry applied: C6 not run)."""
    return store.state_of(Game.objects.get(pk=game_id))


def _check_log(game_id: int) -> list[tuple[int, str, dict]]:
    """The event log has no gaps, ends at the game's version, and lights no card twice."""
    rows = event_rows(game_id)
    assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1)), rows
    assert db_version(game_id) == len(rows)
    touched = [payload["card"] for _, kind, payload in rows if kind == "CardTouched"]
    assert len(touched) == len(set(touched)), f"a card lit twice: {touched}"
    return rows


def _close(*things: Screen | Browser) -> None:
    for thing in things:
        thing.close()


# -- a web process killed ----------------------------------------------------------------


def test_a_killed_web_process_restarts_and_the_game_resumes_from_its_events():
    table = seat_table(3, start=False)  # Before Dawn: seat 1 names, seats 2 and 3 spot
    code = table.room.code
    with run_cluster(web=WEBS, qcluster=False, tick=False, env=NO_LIMITS) as cluster:
        doomed, other = cluster.webs[0], cluster.webs[-1]
        host = Browser.of(table.seats[1], doomed.url, code)
        two = Browser.of(table.seats[2], doomed.url, code)
        three = Browser.of(table.seats[3], other.url, code)
        watcher = Browser.of(table.spectator, other.url, code)
        screens = [two.screen(), watcher.screen()]
        dropped: list[Browser] = []  # the browsers of the sockets the kill dropped
        tabs: list[Browser] = []
        try:
            assert host.post("start").status_code == 200
            game_id = table.refresh().game_id
            word = table.word()
            assert host.post("play/name", word=word, number=5, version=1).status_code == 200
            star = table.dark(Key.GOLD)
            assert two.post("play/touch", card=star[0], version=2).status_code == 200
            version = db_version(game_id)
            for screen in screens:
                screen.wait_board(version)

            # Touches in flight when the process dies: whatever was answered 200 is kept.
            tabs += [two.moved_to(doomed.url) for _ in range(4)]  # connections, ready

            def touch(tab: Browser, card: int) -> httpx.Response | str:
                try:
                    return tab.post("play/touch", card=card, version=version)
                except httpx.HTTPError as error:
                    return type(error).__name__

            with ThreadPoolExecutor(4) as pool:
                flying = [pool.submit(touch, t, c) for t, c in zip(tabs, star[1:5], strict=True)]
                time.sleep(0.05)
                cluster.kill(doomed)
                answers = [f.result() for f in flying]
            accepted = [a for a in answers if isinstance(a, httpx.Response) and a.is_success]
            assert len(accepted) <= 1, answers  # one version, one touch
            rows = _check_log(game_id)
            if accepted:
                assert rows[-1][1] == "CardTouched" and len(rows) == version + 1
            assert len(rows) in (version, version + 1)  # at most the one touch, whole
            wait_for(screens[0].closed.is_set, WAIT, "the killed process's socket to drop")
            if WEBS > 1:  # the other process goes on serving meanwhile
                assert not screens[1].closed.is_set()
                now = db_version(game_id)
                card = table.dark(Key.GOLD)[0]
                assert three.post("play/touch", card=card, version=now).status_code == 200
                screens[1].wait_board(now + 1)

            kept = db_version(game_id)
            cluster.start(doomed)  # the same port; an empty cache: it folds the events
            # Every browser whose socket dropped reconnects and gets the board as it is.
            again = two.moved_to(doomed.url)
            live = [s for s in screens if not s.closed.is_set()]  # the other process's
            dropped += [again] if live else [again, watcher.moved_to(doomed.url)]
            for browser in dropped:
                live.append(browser.screen())
                first = live[-1].wait_board(1)  # the snapshot sent on connect
                assert first.version == kept == db_version(game_id), (first.version, kept)
            screens += [s for s in live if s not in screens]
            assert table.state().version == kept  # the test process folds the same game

            # Play goes on, through the restarted process, seen on every screen.
            card = table.dark(Key.GOLD)[0]
            response = again.post("play/touch", card=card, version=kept)
            assert response.status_code == 200, response.text
            assert board_version(response.text) == kept + 1
            for screen in live:
                assert screen.wait_board(kept + 1).version == kept + 1
            _check_log(game_id)
            cluster.check_alive()
        finally:
            _close(*screens, host, two, three, watcher, *dropped, *tabs)


# -- the q2 cluster down at a deadline -----------------------------------------------------


def _a_word(state: State) -> str:
    check = constellate.word_check_for(state)
    return next(w for w in WORDS if check(w) is None)


def _task(game_id: int, step: int) -> Task | None:
    tasks = [t for t in Task.objects.filter(func=clock.TASK) if tuple(t.args) == (game_id, step)]
    return tasks[0] if tasks else None


def _steps_ended(game_id: int) -> list[int]:
    """The step each TurnEnded ended, in order (each step ends at most once)."""
    state, ended = State(), []
    game = Game.objects.get(pk=game_id)
    for event in store.read_events(game):
        if isinstance(event, rules.TurnEnded):
            ended.append(state.step_started)
        state = rules.evolve(state, event)
    return ended


@pytest.mark.parametrize(
    ("down", "settled_by"),
    [(("qcluster",), "action"), (("qcluster", "clocktick"), "page")],
    ids=["cluster-down-next-action", "cluster-and-tick-down-next-page-load"],
)
def test_with_the_q2_cluster_down_the_next_action_or_page_applies_the_expiry_C6(down, settled_by):
    """With the tick up, the due schedule becomes a task that waits in the broker; with
    both down it stays a schedule. Either way the next action (refused as late) or page
    load settles the step first, and when the cluster comes back nothing of the old step
    runs twice."""
    table = seat_table(3, start=False)
    table.room.step_seconds = 2
    table.room.save(update_fields=["step_seconds"])
    code = table.room.code
    with run_cluster(web=True) as cluster:
        for name in down:
            cluster.kill(name)
        host = Browser.of(table.seats[1], cluster.url, code)
        others = [Browser.of(c, cluster.url, code) for c in (table.seats[2], table.spectator)]
        screens = [browser.screen() for browser in others]
        try:
            assert host.post("start").status_code == 200
            game_id = table.refresh().game_id
            started = _folded(game_id)
            assert started.version == 1 and started.deadline is not None
            word = _a_word(started)
            schedules = Schedule.objects.filter(name__startswith=f"clock:constellate:{game_id}:")
            if "clocktick" in down:
                wait_for(lambda: time.time() > started.deadline.timestamp() + 0.5, 10, "deadline")
                assert schedules.count() == 1  # nobody handed it to the broker
            else:  # the tick hands the due schedule to the broker, where it waits
                wait_for(lambda: not schedules.exists(), 10 + WAIT, "the tick", cluster.logs)
                assert get_broker().queue_size() >= 1
            assert db_version(game_id) == 1  # nothing ran the expiry
            assert all(s.latest() == 1 for s in screens)

            if settled_by == "action":  # the Stargazer names a word, late: refused as such
                response = host.post("play/name", word=word, number=1, version=1)
                assert response.status_code == 409, response.text
                assert notice_of(response.text) == "Time is up for this step."
            else:  # someone reloads the page
                response = host.load()
            assert board_version(response.text) == 3  # the board moved on
            rows = _check_log(game_id)
            assert [k for _, k, _ in rows] == ["SkyDealt", "TurnEnded", "NamingStarted"]
            assert rows[1][2]["reason"] == TurnEnd.NAMING_EXPIRED.value
            assert Event.objects.get(game_id=game_id, seq=2).actor_seat is None  # the clock's
            for screen in screens:  # pushed by the web process that settled it
                assert screen.wait_board(3).version == 3
            assert not schedules.filter(name__endswith=":1").exists()  # dropped if pending
            if settled_by == "page":  # and the game goes on from there
                response = host.post("play/name", word=word, number=1, version=3)
                assert response.status_code == 200, response.text
            step = _folded(game_id).step_started

            for name in down:
                cluster.start(name)
            if "clocktick" not in down:  # the stale task from the broker runs: a no-op
                stale = wait_for(lambda: _task(game_id, 1), WAIT, "the stale task", cluster.logs)
                assert str(stale.result) == "nothing to do: That step is already over."
            # The cluster is back: it expires the step now running on time, once.
            fresh = wait_for(lambda: _task(game_id, step), 2 + WAIT, "its task", cluster.logs)
            assert str(fresh.result).startswith(f"expired step {step}"), fresh.result
            ended = _steps_ended(game_id)
            assert ended[:2] == [1, step] and len(ended) == len(set(ended)), ended
            if "clocktick" in down:
                assert _task(game_id, 1) is None  # the stale schedule never became a task
            _check_log(game_id)
            cluster.check_alive()
        finally:
            _close(*screens, host, *others)


# -- two Spotters at the same moment -------------------------------------------------------

PER_SPOTTER = 4  # simultaneous touches per Spotter per round


def test_two_spotters_touching_at_once_over_and_over_land_one_event_per_version():
    """Every round, both Spotters fire touches at the same version at once (the same cards
    and different ones, through every web process): exactly one lands."""
    table = seat_table(3, start=False)
    code = table.room.code
    with run_cluster(web=WEBS, qcluster=False, tick=False, env=NO_LIMITS) as cluster:
        host = Browser.of(table.seats[1], cluster.url, code)
        spotters = [
            Browser.of(table.seats[seat], url, code) for seat in (2, 3) for url in cluster.urls
        ]
        screen = Browser.of(table.spectator, cluster.urls[-1], code).screen()
        burst = len(spotters) * PER_SPOTTER // len(cluster.urls)
        barrier = threading.Barrier(burst)
        answers: dict[int, int] = {}  # HTTP status: how many
        try:
            assert host.post("start").status_code == 200
            game_id = table.refresh().game_id
            rounds = 0
            while not table.state().ended:
                state = table.state()
                if state.current is None:  # a naming: three stars a turn
                    number = min(3, len(table.dark(Key.GOLD)))
                    response = host.post(
                        "play/name", word=table.word(), number=number, version=state.version
                    )
                    assert response.status_code == 200, response.text
                    continue
                version, dark = state.version, table.dark(Key.GOLD)
                shots = [
                    (spotters[(n % 2) * len(cluster.urls) + (n // 2) % len(cluster.urls)],
                     dark[(n // 2) % len(dark)])
                    for n in range(burst)
                ]  # fmt: skip  # Spotter 2 and 3 alternate; pairs aim at the same card

                def fire(shot: tuple[Browser, int], version: int = version) -> int:
                    browser, card = shot
                    barrier.wait(timeout=WAIT)
                    return browser.post("play/touch", card=card, version=version).status_code

                with ThreadPoolExecutor(burst) as pool:
                    statuses = list(pool.map(fire, shots))
                rounds += 1
                assert statuses.count(200) == 1, (rounds, statuses)
                assert set(statuses) <= {200, 409, 503}, statuses  # 503: busy, try again
                for status in statuses:
                    answers[status] = answers.get(status, 0) + 1
                rows = _check_log(game_id)
                new = [kind for seq, kind, _ in rows if seq > version]
                assert new.count("CardTouched") == 1, (rounds, new)
            state = table.state()
            assert state.winner is not None and rounds == 8  # every star, one a round
            rows = _check_log(game_id)
            touched = [p["card"] for _, kind, p in rows if kind == "CardTouched"]
            assert sorted(touched) == sorted(state.lit)
            assert screen.wait_board(state.version).version == state.version
            cluster.check_alive()
        finally:
            _close(screen, host, *spotters)
    print(f"{rounds} rounds of {burst} simultaneous touches: {answers}")


# -- a websocket client that never reads -----------------------------------------------------

PING_INTERVAL, PING_TIMEOUT = 1, 2  # daphne's own checks run every 2 s
PUSHES, PUSH_BYTES, PUSH_EVERY = 150, 64 * 1024, 0.08  # ~12 s of ~0.8 MB/s to each socket


def _hoard(ws_url: str, code: str, cookie: str, origin: str) -> socket.socket:
    """A websocket client that does the handshake, then never reads again."""
    host, port = ws_url.removeprefix("ws://").split(":")
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fill up quickly
    raw.settimeout(WAIT)
    raw.connect((host, int(port)))
    key = b64encode(urandom(16)).decode()
    raw.sendall(
        (
            f"GET /ws/r/{code}/ HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\nCookie: {cookie}\r\n\r\n"
        ).encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # the 101 response, byte by byte: nothing more
        head += raw.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return raw


def _server_holds(port: int, peer: socket.socket) -> bool:
    """Whether the server still holds this connection open (Linux /proc/net/tcp: the
    server's end, 127.0.0.1:port to the peer's port, is ESTABLISHED)."""
    peer_port = peer.getsockname()[1]
    local, remote = f"0100007F:{port:04X}", f"0100007F:{peer_port:04X}"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1] == local and fields[2] == remote:
            return fields[3] == "01"
    return False


def test_a_websocket_that_never_reads_slows_no_one_and_is_closed_by_the_server():
    table = seat_table(3, start=False)
    code, room_id = table.room.code, table.room.pk
    with run_cluster(
        web=True,
        qcluster=False,
        tick=False,
        daphne_args=["--ping-interval", str(PING_INTERVAL), "--ping-timeout", str(PING_TIMEOUT)],
    ) as cluster:
        daphne = cluster.webs[0]
        watcher = Browser.of(table.spectator, cluster.url, code)
        readers = [watcher.screen(), Browser.of(table.seats[2], cluster.url, code).screen()]
        hoarder = _hoard(cluster.ws_url, code, watcher.cookie, cluster.url)
        assert _server_holds(daphne.port, hoarder)
        group = audience_group(room_id, "public")  # all three watch as the public
        push = async_to_sync(get_channel_layer().group_send)
        padding = "x" * PUSH_BYTES
        sent: dict[int, float] = {}
        rss: list[tuple[float, int]] = [(time.monotonic(), daphne.rss_kb())]
        closed_at = None
        try:
            start = time.monotonic()
            for n in range(1, PUSHES + 1):
                html = f'<section id="board" data-version="{n}" hx-swap-oob="true">{padding}'
                sent[n] = time.monotonic()
                push(group, {"type": "board.push", "html": html + "</section>", "version": n})
                rss.append((time.monotonic(), daphne.rss_kb()))
                if closed_at is None and not _server_holds(daphne.port, hoarder):
                    closed_at = time.monotonic() - start
                time.sleep(max(0.0, start + n * PUSH_EVERY - time.monotonic()))
            for reader in readers:
                reader.wait_board(PUSHES)
        finally:
            _close(*readers, watcher)
            hoarder.close()
        cluster.check_alive()

    # The server hung up on the hoarder once it missed a ping: within interval + timeout
    # (+ up to two of daphne's 2 s checks).
    assert closed_at is not None, "the server never closed the connection that never reads"
    assert closed_at < PING_INTERVAL + PING_TIMEOUT + 2 * 2 + 2, closed_at
    # Every push reached every reader promptly, the hoarder notwithstanding.
    slowest = []
    for reader in readers:
        arrivals = {f.version: f.at for f in reader.frames if f.version}
        assert sorted(arrivals) == list(range(1, PUSHES + 1))
        delays = sorted(arrivals[n] - sent[n] for n in sent)
        assert delays[int(len(delays) * 0.95)] < 1.0, delays[-10:]
        slowest.append(delays[-1])
    # Memory: what grows is the hoarder's unsent buffer, and only until it is dropped; after
    # that daphne's RSS stays flat while the pushes go on.
    baseline = rss[0][1]
    peak = max(kb for _, kb in rss)
    late = [(at, kb) for at, kb in rss if at - start > closed_at + 3]
    print(
        f"hoarder closed after {closed_at:.1f} s; daphne RSS {baseline} -> peak {peak} kB, "
        f"end {rss[-1][1]} kB; {PUSHES * PUSH_BYTES // 1024} kB pushed to each socket; "
        f"slowest push to a reader {max(slowest):.3f} s"
    )
    assert peak - baseline < 32 * 1024, (baseline, peak)
    assert len(late) > 10, "the flood ended too soon after the close to see the plateau"
    pushed_kb = len(late) * PUSH_BYTES / 1024  # what an unbounded buffer would have added
    grown = max(kb for _, kb in late) - late[0][1]
    assert grown < pushed_kb / 2, (grown, pushed_kb)


def test_play_gives_daphne_its_ping_settings(monkeypatch):
    """``manage.py play`` passes the pings on to daphne (defaults 20 s and 30 s)."""
    from django.core.management import call_command

    started: list[list[str]] = []

    class Exited:
        returncode = 0

        def __init__(self, command: list[str]) -> None:
            started.append(command)

        def poll(self) -> int:
            return 0

        def wait(self, timeout: float | None = None) -> int:
            return 0

    monkeypatch.setattr("games.management.commands.play.subprocess.Popen", Exited)
    monkeypatch.setattr("games.management.commands.play.signal.signal", lambda *_: None)
    call_command("play", "--no-cluster", "--ping-interval", "5", "--ping-timeout", "9")
    call_command("play", "--no-cluster")
    daphne, default = started
    assert daphne[daphne.index("--ping-interval") + 1] == "5"
    assert daphne[daphne.index("--ping-timeout") + 1] == "9"
    assert default[default.index("--ping-interval") + 1 :][:3] == ["20", "--ping-timeout", "30"]
