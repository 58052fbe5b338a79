"""Players on the real server processes: a browser's HTTP side (httpx, the htmx POSTs a
page sends) and its websocket (a background thread holding a ``websockets`` connection and
recording every frame pushed to it).

A test sets the table up in the test process (tests/web/rooms.py: the Django test client
writes the sessions to the shared database), then hands each browser's session cookie to a
``Browser`` pinned to one daphne process.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx
import websockets
from django.conf import settings
from django.test import Client

from games.models import Event, Game

# The version a frame or an answer shows: a whole board's (its first mark), or the areas' of
# a change pushed as areas (a Constellate touch: each area carries the version it shows).
VERSION = re.compile(r'data-version="(\d+)"')
NOTICE = re.compile(r'<p id="(?:lobby-)?notice"[^>]*hx-swap-oob="true">(.*?)</p>', re.S)
WAIT = 20.0  # generous: a loaded 2-core machine

SCALE_OUT = bool(settings.REDIS_URL) and "postgresql" in settings.DATABASES["default"]["ENGINE"]
NOT_SCALE_OUT = (
    "the scale-out proof needs PostgreSQL + Redis: run with DATABASE_URL and REDIS_URL set "
    "(make test SCALE=1)"
)


def board_version(html: str) -> int | None:
    found = VERSION.search(html)
    return int(found.group(1)) if found else None


def notice_of(html: str) -> str:
    found = NOTICE.search(html)
    return found.group(1).strip() if found else ""


def db_version(game_id: int) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


def event_rows(game_id: int) -> list[tuple[int, str, dict]]:
    return list(
        Event.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "kind", "payload")
    )


def wait_for(predicate: Callable[[], object], timeout: float, what: str, logs=None) -> object:
    """Poll until ``predicate`` returns something true; return it."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            extra = f"\n{logs()}" if logs else ""
            raise AssertionError(f"timed out after {timeout} s waiting for {what}{extra}")
        time.sleep(0.05)


class Browser:
    """One browser (its session) talking to one web process over HTTP."""

    def __init__(self, base_url: str, sessionid: str, code: str) -> None:
        self.base_url = base_url
        self.sessionid = sessionid
        self.code = code
        self.http = httpx.Client(base_url=base_url, timeout=WAIT)
        self.csrftoken = ""
        self.load()

    @classmethod
    def of(cls, client: Client, base_url: str, code: str) -> Browser:
        """The same browser as a Django test client (its session), on a real server."""
        return cls(base_url, client.cookies["sessionid"].value, code)

    def moved_to(self, base_url: str) -> Browser:
        """The same browser, now served by another web process."""
        return Browser(base_url, self.sessionid, self.code)

    @property
    def cookie(self) -> str:
        return f"sessionid={self.sessionid}"

    def load(self) -> httpx.Response:
        """GET the room's page (it sets the csrftoken cookie)."""
        response = self.http.get(f"/r/{self.code}/", headers={"Cookie": self.cookie})
        assert response.status_code == 200, response.text[:500]
        self.csrftoken = response.cookies.get("csrftoken") or self.csrftoken
        assert self.csrftoken, "no csrftoken cookie"
        return response

    def post(self, action: str, **data: object) -> httpx.Response:
        headers = {
            "Cookie": f"{self.cookie}; csrftoken={self.csrftoken}",
            "X-CSRFToken": self.csrftoken,
            "HX-Request": "true",
        }
        return self.http.post(
            f"/r/{self.code}/{action}", data={k: str(v) for k, v in data.items()}, headers=headers
        )

    def screen(self, ws_base: str | None = None) -> Screen:
        """Open this browser's websocket (on ``ws_base``, else its own web process)."""
        ws_base = ws_base or "ws" + self.base_url.removeprefix("http")
        origin = "http" + ws_base.removeprefix("ws")
        return Screen(f"{ws_base}/ws/r/{self.code}/", self.cookie, origin)

    def close(self) -> None:
        self.http.close()


@dataclass
class Frame:
    at: float  # time.monotonic() when it arrived
    text: str

    @property
    def version(self) -> int | None:
        return board_version(self.text)


class Screen:
    """A browser tab's websocket, read continuously by a thread: every frame is kept."""

    def __init__(self, url: str, cookie: str, origin: str, *, open_timeout: float = WAIT):
        self.url = url
        self.frames: list[Frame] = []
        self.closed = threading.Event()
        self.error: BaseException | None = None
        self._changed = threading.Condition()
        self._opened = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._headers = {"Cookie": cookie, "Origin": origin}
        self._socket = None
        self._task = asyncio.run_coroutine_threadsafe(self._read(open_timeout), self._loop)
        if not self._opened.wait(open_timeout + 5) or self._socket is None:
            self.close()
            raise AssertionError(f"websocket {url} did not open: {self.error!r}")
        self._wait_first(open_timeout + 5)

    def _wait_first(self, timeout: float) -> None:
        """Until the view sent on connect arrives (or the server closes the socket): the
        server accepts the handshake before it joins the room's groups (lobby.consumers),
        so only that first frame says this tab now receives every push, as a page's first
        board does."""
        end = time.monotonic() + timeout
        with self._changed:
            while not self.frames and not self.closed.is_set():
                left = end - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(min(left, 0.2))

    async def _read(self, open_timeout: float) -> None:
        try:
            async with websockets.connect(
                self.url, additional_headers=self._headers, open_timeout=open_timeout
            ) as socket:
                self._socket = socket
                self._opened.set()
                async for message in socket:
                    with self._changed:
                        self.frames.append(Frame(time.monotonic(), str(message)))
                        self._changed.notify_all()
        except BaseException as error:  # closed by the server, or the server died
            self.error = error
        finally:
            self._opened.set()
            self.closed.set()
            with self._changed:
                self._changed.notify_all()

    # -- what it was sent ------------------------------------------------------------------
    def versions(self) -> list[int]:
        with self._changed:
            return [v for f in self.frames if (v := f.version) is not None]

    def latest(self) -> int | None:
        versions = self.versions()
        return versions[-1] if versions else None

    def wait_board(self, version: int, timeout: float = WAIT) -> Frame:
        """The first frame whose board is at ``version`` or newer (waiting if need be)."""
        end = time.monotonic() + timeout
        with self._changed:
            while True:
                for frame in self.frames:
                    if (v := frame.version) is not None and v >= version:
                        return frame
                left = end - time.monotonic()
                if left <= 0 or self.closed.is_set():
                    seen = [f.version for f in self.frames]
                    raise AssertionError(
                        f"{self.url}: no board at version {version} within {timeout} s "
                        f"(boards seen: {seen}, closed: {self.closed.is_set()}, {self.error!r})"
                    )
                self._changed.wait(min(left, 0.2))

    def close(self) -> None:
        if self._loop.is_closed():
            return  # closed already
        if self._socket is not None and not self.closed.is_set():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._socket.close(), self._loop).result(5)
        with contextlib.suppress(Exception):
            self._task.result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._thread.is_alive():
            self._loop.close()
