"""Astra in real rooms made through the lobby, driven by the requests a browser sends: the
marking strip's taps (GET preview/mark, U3: nothing recorded), Observe, Dream and Ability
with their ``chain`` (POST play/observe, play/dream, play/ability), Rest and Done, the Boon
pick (play/pick, U5) and the card limit's checkboxes (play/discard, U6). A test may read the
state to know what to send; what a browser receives is read as HTML.

The server's draws (H5) come from ``game.deal_command``: ``rig_deal`` replaces that one seam
so that twin rooms are dealt alike but for what a test makes differ.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from html import unescape
from typing import Any

import pytest
from django.http import HttpResponse

from games.astra import game
from games.astra.forms import form_of
from games.astra.rules import robot
from games.astra.rules.commands import (
    Command,
)
from games.astra.rules.model import State
from tests.support.seated import SeatedRoom
from tests.web.rooms import post

SLUG = "astra"
HX = {"HX-Request": "true"}
REAL_DEAL = game.deal_command


def rig_deal(monkeypatch: pytest.MonkeyPatch, *, seed: int = 7, **changes: Any) -> None:
    """The next deals draw from a seeded generator, then take what the test gives (the
    deck, the Final Scoring deal, the first player)."""

    def deal(**kwargs: Any) -> Command:
        kwargs["rng"] = random.Random(seed)
        return replace(REAL_DEAL(**kwargs), **changes)

    monkeypatch.setattr(game, "deal_command", deal)


class AstraRoom(SeatedRoom):
    """An Astra room: people in seats 1..n (seat 1 hosts), computers in the seats named, a
    spectator who joined without sitting, the clock if asked; started unless not."""

    GAME = game.GAME

    def __init__(
        self,
        players: int = 3,
        *,
        computers: Iterable[int] = (),
        step: str | None = None,
        start: bool = True,
    ) -> None:
        super().__init__(players, computers=computers, step=step, start=start)

    def state(self) -> State:
        return game.GAME.current(self.game_id)

    def send(self, seat: int, action: str, **form: object) -> HttpResponse:
        return post(self.seats[seat], self.room, f"play/{action}", **form)

    def tap(self, seat: int, **fields: object) -> Any:
        """One tap of the marking strip (U3): its hidden fields and the button's."""
        data: dict[str, Any] = {"version": self.state().version, **fields}
        return self.seats[seat].get(f"/r/{self.code}/preview/mark", data, headers=HX)

    def waiting(self) -> list[int]:
        state = self.state()
        return [s for s in self.seats if robot.waiting(state, s)]

    def play_robot(self, seat: int, rng: random.Random) -> HttpResponse:
        state = self.state()
        action, form = form_of(state, robot.move(state, seat, rng))
        return self.send(seat, action, **form)

    def play_until(
        self, done: Callable[[State], bool], rng: random.Random, most: int = 600
    ) -> State:
        """Every waiting person plays the computer's move until ``done(state)``."""
        for _ in range(most):
            state = self.state()
            if done(state):
                return state
            waiting = self.waiting()
            assert waiting, f"nobody owes a move in {state.phase}"
            response = self.play_robot(waiting[0], rng)
            assert response.status_code == 200, (waiting[0], response.content[-400:])
        raise AssertionError("the game did not get there")


# -- reading what a browser receives ------------------------------------------------------------


def hidden(html: str, name: str) -> str | None:
    found = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html)
    return unescape(found.group(1)) if found else None


def tap_words(html: str) -> list[str]:
    """The ``add`` values of the strip's lit stars."""
    return re.findall(r'name="add" value="([^"]+)"', html)


def said(html: str) -> str:
    found = re.search(r'class="ast-said[^"]*"[^>]*>(.*?)</p>', html, re.S)
    return unescape(found.group(1)).strip() if found else ""
