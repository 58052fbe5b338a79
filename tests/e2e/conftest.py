"""End-to-end fixtures: the real server (daphne, the q2 cluster, the clock's tick) against the
test database, and Debian's chromium driven by Playwright's sync API.

Locally the tests skip when ``/usr/bin/chromium`` is missing (``apt-get install chromium``);
with ``CI=true`` they fail instead, so CI can never pass without running them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cluster import run_cluster

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--disable-gpu", "--disable-background-networking", "--no-sandbox"]
IN_CI = os.environ.get("CI", "").lower() == "true"
TEST_STEP_SECONDS = 3  # the lobby's extra, short clock choice (CONSTELLATE_TEST_STEP_SECONDS)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason} — CI=true, and CI must run the browser tests", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """One headless chromium for the e2e tests (each test opens its own contexts); package
    scope (tests/e2e/__init__.py): closed before the other layers' tests run."""
    if not CHROMIUM.exists():
        _missing(f"Debian's chromium is not installed ({CHROMIUM}): apt-get install chromium")
    from playwright.sync_api import sync_playwright  # pinned in the dev extras

    # Playwright's sync API keeps an event loop in this thread: Django's async-unsafe guard
    # would refuse the test's own database work (the flush after each test) beside it.
    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()
    finally:
        playwright.stop()
        if saved is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


@pytest.fixture(scope="package")
def server(browser, django_db_setup) -> Iterator[object]:
    """daphne + the q2 cluster + clocktick on a free loopback port, against the test
    database, for every e2e test; stopped before the other layers' tests run (they may
    start their own). Each test cleans up after itself through ``transactional_db``."""
    with run_cluster(web=True, env={"CONSTELLATE_TEST_STEP_SECONDS": str(TEST_STEP_SECONDS)}) as c:
        yield c


@pytest.fixture
def live(server, transactional_db) -> Iterator[object]:
    """The running server for one test; its rows are flushed after the test (the tests of
    other layers expect an empty database), and the processes must still be up."""
    yield server
    server.check_alive()


@pytest.fixture
def tables(live, browser) -> Iterator[object]:
    """``tables(n)``: a new room with n people in it, each in their own browser context
    (closed after the test)."""
    from tests.e2e.browser import Table

    opened: list[Table] = []

    def open_table(count: int, **options: object) -> Table:
        setup = options.pop("setup", None)
        table = Table(browser, live.url, **options)
        opened.append(table)
        return table.arrive(count, setup=setup)

    yield open_table
    for table in opened:
        table.close()
