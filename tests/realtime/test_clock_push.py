"""The clock end to end: a real q2 cluster expires a 2-second step and the new board reaches
real websockets on daphne, for a Spotter and a spectator alike (C2, C6)."""

import asyncio
import re
import time

import pytest
import websockets

from games.models import Event
from lobby import services as lobby
from tests.support.cluster import run_cluster
from tests.web.rooms import seat_table

VERSION = re.compile(r'data-version="(\d+)"')  # a whole board's, or the areas' of a change


def _version(frame: str) -> int | None:
    found = VERSION.search(frame)
    return int(found.group(1)) if found else None


async def _watch(url: str, cookie: str, origin: str, above: int, seconds: float) -> tuple:
    """Connect, then wait for a board newer than ``above``: (its frame, seconds waited)."""
    async with websockets.connect(
        url, additional_headers={"Cookie": cookie, "Origin": origin}, open_timeout=10
    ) as socket:
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            frame = await asyncio.wait_for(socket.recv(), timeout=seconds)
            version = _version(frame)
            if version is not None and version > above:
                return frame, time.monotonic() - start
    raise AssertionError("no newer board arrived")


@pytest.mark.django_db(transaction=True)
def test_a_real_cluster_expires_the_naming_and_every_screen_is_told_C2():
    table = seat_table(2, start=False)
    table.room.step_seconds = 2  # the lobby offers 60/90/120; the service takes any length
    table.room.save(update_fields=["step_seconds"])
    with run_cluster(web=True) as cluster:
        lobby.start(table.refresh(), table.host.session["identity"])
        state = table.state()
        assert state.deadline is not None and state.hours == 7
        ws = f"{cluster.ws_url}/ws/r/{table.room.code}/"

        async def both() -> list:
            watchers = [
                _watch(ws, f"sessionid={c.cookies['sessionid'].value}", cluster.url,
                       state.version, 6)
                for c in (table.seats[2], table.spectator)
            ]  # fmt: skip
            return await asyncio.gather(*watchers)

        results = asyncio.run(both())
        for (frame, waited), spotter in zip(results, (True, False), strict=True):
            assert waited < 2 + 1.5, cluster.logs()  # deadline to every screen
            hours = re.search(r"Hours left:.*?</span>\s*(\d+)</li>", frame, re.S)
            assert hours and hours.group(1) == "6"  # C2: Before Dawn still spends the hour
            assert 'id="countdown"' in frame  # the next naming has its own clock
            assert "key-" not in frame  # nothing lit: a Spotter and a spectator see no key
            # Pushed as areas: the Spotter's whole sky (the turn it could not play ended),
            # not the spectator's, whose sky stayed as it was.
            assert ('id="sky"' in frame) is spotter and 'id="board"' not in frame
        cluster.check_alive()
    expiries = Event.objects.filter(game_id=table.room.game_id, kind="TurnEnded")
    assert expiries.count() >= 1
    assert expiries.first().payload["reason"] == "naming_expired"
