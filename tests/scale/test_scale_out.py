"""The scale-out proof: two daphne processes and one q2 cluster sharing PostgreSQL and Redis.

Players whose browsers are served by different web processes play a game together: every
push reaches every screen whichever process handled the action, and a clock expiry run by
the q2 cluster reaches the screens of both processes. And an idle websocket on Redis
(redis-py 8 times idle reads out after ~5 s unless configured not to) still gets a push.

Only meaningful on PostgreSQL + Redis: skipped otherwise (``make test SCALE=1`` runs it).
"""

from __future__ import annotations

import time

import pytest
from django_q.models import Task

from games import clock
from games.constellate.rules import Key
from tests.scale.players import (
    NOT_SCALE_OUT,
    SCALE_OUT,
    WAIT,
    Browser,
    Screen,
    db_version,
    wait_for,
)
from tests.support.cluster import run_cluster
from tests.web.rooms import seat_table

pytestmark = [
    pytest.mark.skipif(not SCALE_OUT, reason=NOT_SCALE_OUT),
    pytest.mark.django_db(transaction=True),
]

STEP_SECONDS = 2
LATE_AT_MOST = 2.5  # seconds from the deadline to every screen (generous: a loaded machine)


@pytest.fixture(scope="module")
def cluster(django_db_setup, django_db_blocker):
    """Two daphne processes, the q2 cluster and its tick, for the module's tests (each
    test's rows are flushed after it by ``transactional_db``)."""
    with run_cluster(web=2, env={"CONSTELLATE_RATE_ACTIONS": "1000"}) as running:
        yield running


def _task(game_id: int, step: int) -> Task | None:
    """The q2 cluster's record of the clock task for this step, once it ran."""
    tasks = [t for t in Task.objects.filter(func=clock.TASK) if tuple(t.args) == (game_id, step)]
    return tasks[0] if tasks else None


def _everyone_sees(screens: dict[str, Screen], version: int, since: float, cluster) -> float:
    """Wait until every screen shows the board at ``version``: the slowest one's delay."""
    slowest = 0.0
    for who, screen in screens.items():
        try:
            frame = screen.wait_board(version)
        except AssertionError as error:
            raise AssertionError(f"{who}: {error}\n{cluster.logs()}") from None
        assert frame.version == version, f"{who} skipped to {frame.version}, not {version}"
        slowest = max(slowest, frame.at - since)
    return slowest


def test_players_on_two_web_processes_play_together_and_see_every_push(cluster):
    table = seat_table(3, start=False)  # Before Dawn: seat 1 names, seats 2 and 3 spot
    a, b = cluster.urls
    code = table.room.code
    # Each browser is served by one process, HTTP and websocket alike; the players are split.
    browsers = {
        "stargazer@A": Browser.of(table.seats[1], a, code),
        "spotter2@B": Browser.of(table.seats[2], b, code),
        "spotter3@A": Browser.of(table.seats[3], a, code),
        "spectator@B": Browser.of(table.spectator, b, code),
    }
    screens = {who: browser.screen() for who, browser in browsers.items()}
    host, two, three = browsers["stargazer@A"], browsers["spotter2@B"], browsers["spotter3@A"]
    delays = []
    try:

        def act(browser: Browser, action: str, **data: object) -> None:
            before = db_version(table.room.game_id) if table.refresh().game_id else 0
            since = time.monotonic()
            response = browser.post(action, **data)
            assert response.status_code == 200, (action, response.status_code, response.text)
            after = db_version(table.refresh().game_id)
            assert after > before
            delays.append(_everyone_sees(screens, after, since, cluster))

        def version() -> int:
            return table.state().version

        act(host, "start")
        # A first turn: two stars from spotters on different processes, then a stop.
        act(host, "play/name", word=table.word(), number=3, version=version())
        act(two, "play/touch", card=table.dark(Key.GOLD)[0], version=version())
        act(three, "play/touch", card=table.dark(Key.GOLD)[0], version=version())
        act(two, "play/stop", version=version())
        # A haze ends the next turn.
        act(host, "play/name", word=table.word(), number=2, version=version())
        act(three, "play/touch", card=table.dark(Key.HAZE)[0], version=version())
        # Then every star left, touched in turn from both processes: dawn never comes.
        left = len(table.dark(Key.GOLD))
        act(host, "play/name", word=table.word(), number=left, version=version())
        for n in range(left):
            spotter = two if n % 2 == 0 else three
            act(spotter, "play/touch", card=table.dark(Key.GOLD)[0], version=version())
        state = table.state()
        assert state.ended and state.winner is not None
        for who, screen in screens.items():
            assert screen.latest() == state.version, who
            assert not screen.closed.is_set(), who
        cluster.check_alive()
    finally:
        for screen in screens.values():
            screen.close()
        for browser in browsers.values():
            browser.close()
    print(f"pushes to 4 screens on 2 processes: slowest per action {max(delays):.3f} s")


def test_a_clock_expiry_run_by_the_q2_cluster_reaches_screens_on_both_processes(cluster):
    table = seat_table(3, start=False)
    table.room.step_seconds = STEP_SECONDS  # the lobby offers 60/90/120; the service takes any
    table.room.save(update_fields=["step_seconds"])
    a, b = cluster.urls
    code = table.room.code
    browsers = [
        Browser.of(table.seats[2], a, code),
        Browser.of(table.seats[3], b, code),
        Browser.of(table.spectator, b, code),
    ]
    host = Browser.of(table.seats[1], a, code)
    screens = {f"screen{n}": browser.screen() for n, browser in enumerate(browsers)}
    try:
        assert host.post("start").status_code == 200
        game_id = table.refresh().game_id
        _everyone_sees(screens, 1, time.monotonic(), cluster)
        started = table.state()  # version 1, before its deadline: nothing to settle
        assert started.version == 1 and started.deadline is not None
        deadline = started.deadline.timestamp()
        # Nobody names a word: the cluster's worker expires the naming (C2) and the new
        # board (the next naming) goes to every screen, through Redis, on both processes.
        for who, screen in screens.items():
            frame = screen.wait_board(3, timeout=STEP_SECONDS + WAIT)
            assert frame.version == 3, who
            late = time.time() - (time.monotonic() - frame.at) - deadline
            assert late < LATE_AT_MOST, (who, late, cluster.logs())
        # The q2 worker did it (its record is saved just after the task's push went out).
        task = wait_for(lambda: _task(game_id, 1), WAIT, "the expiry's task record", cluster.logs)
        assert str(task.result).startswith("expired"), task.result
        cluster.check_alive()
    finally:
        for screen in screens.values():
            screen.close()
        for browser in [*browsers, host]:
            browser.close()


def test_an_idle_websocket_on_redis_still_gets_the_next_push(cluster):
    """redis-py 8 times out a blocking read after ~5 s unless ``socket_timeout`` is None
    (DESIGN, platform facts): stay idle longer than that, then push."""
    table = seat_table(3, start=False)
    a, b = cluster.urls
    code = table.room.code
    host = Browser.of(table.seats[1], a, code)
    screens = {
        "on A": Browser.of(table.seats[2], a, code).screen(),
        "on B": Browser.of(table.seats[3], b, code).screen(),
    }
    try:
        time.sleep(7)  # idle: no push to either process, nothing read from Redis
        for who, screen in screens.items():  # the trap closes them (TimeoutError in daphne)
            assert not screen.closed.is_set(), f"{who}: {screen.error!r}\n{cluster.logs()}"
        since = time.monotonic()
        assert host.post("start").status_code == 200
        slowest = _everyone_sees(screens, 1, since, cluster)
        assert slowest < 5.0, slowest  # arrived at all is the point; generous for load
        for process in cluster.webs:
            assert "Timeout reading" not in process.output(), cluster.logs()
    finally:
        for screen in screens.values():
            screen.close()
        host.close()
