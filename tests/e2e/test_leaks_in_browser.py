"""K4, K5 in a real browser: a Spotter's page and every websocket frame it received hold no
dark card's key. The key is known from the Stargazer's screen, as a player would know it."""

from __future__ import annotations

import pytest

from tests.e2e.browser import Person, Table, dark, key_leaks

pytestmark = pytest.mark.e2e


class Frames:
    """Every websocket frame each person's page receives, from the first page load."""

    def __init__(self) -> None:
        self.received: dict[str, list[str]] = {}

    def listen(self, person: Person) -> None:
        frames = self.received.setdefault(person.name, [])

        def opened(socket) -> None:
            socket.on("framereceived", lambda payload: frames.append(str(payload)))

        person.page.on("websocket", opened)


def test_k4_k5_a_spotters_page_and_frames_never_hold_a_dark_cards_key(tables):
    frames = Frames()
    table: Table = tables(2, setup=frames.listen)
    table.join_and_sit()
    table.start()
    gazer, spotter = table.seat(1), table.seat(2)
    key = table.sky(gazer.page)

    table.name(gazer, 2)
    table.touch(spotter, dark(key, "gold")[0])  # lit: its key is public now
    table.touch(spotter, dark(key, "haze")[0])  # haze ends the turn
    table.name(gazer, 1)
    table.touch(spotter, dark(key, "cloud")[0])

    final = table.sky(gazer.page)
    never_lit = [card for card in final if not card.lit]
    assert len(never_lit) == 21 and all(card.key for card in never_lit)
    received = frames.received[spotter.name]
    assert len(received) >= 6  # the snapshot on connect, the lobby, and each action's push
    assert any('name="card"' in frame for frame in received)

    assert key_leaks(spotter.page.content(), never_lit) == []
    for number, frame in enumerate(received):
        assert key_leaks(frame, never_lit) == [], f"frame {number}: {frame[:300]}"

    # The same check finds the key where it belongs: the Stargazer's page and frames.
    assert key_leaks(gazer.page.content(), never_lit)
    assert any(key_leaks(frame, never_lit) for frame in frames.received[gazer.name])
