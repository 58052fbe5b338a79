"""Observatory in real rooms made through the lobby, driven by the requests a browser sends:
the setup choice's checkboxes (POST play/choose, ``keep-1`` .. ``keep-6``, G3), every tap of
the plan strip (GET preview/plan, U9), Submit (POST play/submit, U1) and the draft's buttons
(POST play/pick, G5, G6). A test may read the state to know what to send; what a browser
receives is read as HTML.

The server's dice (D2) are drawn in ``game._dice`` for every seat's command and in
``game.deal_command`` for the deal: ``fixed_dice`` and ``rig_deal`` replace those two seams
only, so that twin rooms and short games are dealt and rolled alike.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from html import unescape
from typing import Any

import pytest
from django.http import HttpResponse
from django.utils.html import escape

from games.observatory import game, plan
from games.observatory.rules import robot
from games.observatory.rules.commands import Choose, Command, Pick, Submit
from games.observatory.rules.deck import CARDS
from games.observatory.rules.model import Phase, State
from games.observatory.rules.sheet import Dice
from games.observatory.rules.steps import Step
from tests.support.seated import SeatedRoom
from tests.web.rooms import post

SLUG = "observatory"
HX = {"HX-Request": "true"}  # the header htmx sends with every request
WILD = Dice((1, 1, 1), 1)  # every die "?": every space reachable (P3, P4), any track (R2)
REAL_DEAL = game.deal_command


# -- the server's draws, rigged at their seams ---------------------------------------------------


def fixed_dice(monkeypatch: pytest.MonkeyPatch, *rolls: Dice) -> None:
    """Every command a seat sends carries these dice, in turn (then the last again)."""
    queue = list(rolls)

    def roll() -> Dice:
        return queue.pop(0) if len(queue) > 1 else queue[0]

    monkeypatch.setattr(game, "_dice", roll)


def rig_deal(
    monkeypatch: pytest.MonkeyPatch,
    *,
    seed: int = 7,
    large: Sequence[str] | None = None,
    small: Sequence[str] | None = None,
    first_player: int | None = None,
) -> None:
    """The next deals draw from a seeded generator, then take the decks (top first) and the
    first player the test gives (G1, N3)."""

    def deal(**kwargs: Any) -> Command:
        kwargs["rng"] = random.Random(seed)
        dealt = REAL_DEAL(**kwargs)
        changes: dict[str, Any] = {}
        if large is not None:
            changes["large"] = tuple(large)
        if small is not None:
            changes["small"] = tuple(small)
        if first_player is not None:
            changes["first_player"] = first_player
        return replace(dealt, **changes)

    monkeypatch.setattr(game, "deal_command", deal)


# -- a room ----------------------------------------------------------------------------------------


class ObsRoom(SeatedRoom):
    """An Observatory room: people in seats 1..n (seat 1 hosts), computers in the seats
    named, a spectator who joined without sitting; the clock and the first-game option set
    if asked; started unless not."""

    GAME = game.GAME

    def __init__(
        self,
        players: int = 2,
        *,
        computers: Iterable[int] = (),
        step: str | None = None,
        first_game: bool = False,
        start: bool = True,
    ) -> None:
        options = {"first_game": "yes"} if first_game else None
        super().__init__(players, computers=computers, step=step, options=options, start=start)

    def state(self) -> State:
        return game.GAME.current(self.game_id)

    # -- what a browser sends ------------------------------------------------------------------

    def choose(self, seat: int, cards: Sequence[str], round: int = 1) -> HttpResponse:
        """Tick the boxes of ``cards`` (numbered as the page numbers the dealt cards) and
        press "Keep these 4" (G3)."""
        return post(
            self.seats[seat],
            self.room,
            "play/choose",
            **keep_form(self.state(), seat, cards, round),
        )

    def tap(self, seat: int, **fields: object) -> Any:
        """One tap of the plan strip (U9): its hidden fields and the button's."""
        data: dict[str, Any] = {"round": self.state().round_number, "plan": "", **fields}
        return self.seats[seat].get(f"/r/{self.code}/preview/plan", data, headers=HX)

    def submit(
        self, seat: int, steps: Sequence[Step] | str = (), round: int | None = None
    ) -> HttpResponse:
        """Submit (or Pass) with this plan (U1)."""
        number = self.state().round_number if round is None else round
        written = steps if isinstance(steps, str) else plan.write(steps)
        return post(self.seats[seat], self.room, "play/submit", round=number, plan=written)

    def pick(
        self, seat: int, take: str, slot: int | None = None, version: int | None = None
    ) -> HttpResponse:
        """A draft button: a deck's top, or a face-up card's slot (G6)."""
        data: dict[str, object] = {
            "version": self.state().version if version is None else version,
            "take": take,
        }
        if slot is not None:
            data["slot"] = slot
        return post(self.seats[seat], self.room, "play/pick", **data)

    def robot_form(self, seat: int) -> tuple[str, dict[str, object]]:
        """The computer's move for ``seat`` now, as the form its page sends."""
        return as_form(self.state(), robot.move(self.state(), seat))

    def play_robot(self, seat: int) -> HttpResponse:
        action, form = self.robot_form(seat)
        return post(self.seats[seat], self.room, f"play/{action}", **form)

    def waiting(self) -> list[int]:
        state = self.state()
        return [s for s in self.seats if robot.waiting(state, s)]

    def play_until(self, done: Any, most: int = 400) -> State:
        """Every waiting person plays the computer's move until ``done(state)``."""
        for _ in range(most):
            state = self.state()
            if done(state):
                return state
            seat = self.waiting()[0]
            response = self.play_robot(seat)
            assert response.status_code == 200, (seat, response.content[-400:])
        raise AssertionError("the game did not get there")


def keep_form(state: State, seat: int, cards: Sequence[str], round: int = 1) -> dict[str, object]:
    """The choice's form: the ticked boxes ``keep-n`` (n: the card's place in the seat's
    six, as the page numbers them) and the round."""
    hand = state.hands[seat - 1]
    ticked = {f"keep-{hand.index(card) + 1}": card for card in cards}
    return {"round": round, **ticked}


def as_form(state: State, command: Command) -> tuple[str, dict[str, object]]:
    """The action and form a browser sends for this command."""
    if isinstance(command, Choose):
        return "choose", keep_form(state, command.seat, command.keep, command.round)
    if isinstance(command, Pick):
        fields: dict[str, object] = {
            "version": command.version,
            "take": command.take.source.value,
        }
        if command.take.slot is not None:
            fields["slot"] = command.take.slot
        return "pick", fields
    assert isinstance(command, Submit)
    return "submit", {"round": command.round, "plan": plan.write(command.steps)}


def drafting(state: State) -> bool:
    return state.phase is Phase.DRAFT


# -- reading what a browser receives ------------------------------------------------------------


def attributes(tag: str) -> dict[str, str]:
    return {k: unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag)}


def inputs(html: str) -> list[dict[str, str]]:
    """Every ``<input>`` of the HTML, its attributes (``checked`` as a key when present)."""
    found = []
    for tag in re.findall(r"<input\b[^>]*>", html):
        attrs = attributes(tag)
        if re.search(r"\schecked\b", tag):
            attrs["checked"] = "checked"
        found.append(attrs)
    return found


def hidden(html: str, name: str) -> str:
    values = [
        i["value"] for i in inputs(html) if i.get("type") == "hidden" and i.get("name") == name
    ]
    assert len(values) == 1, (name, values)
    return values[0]


def buttons(html: str, name: str) -> list[tuple[str, str]]:
    """Every ``<button name=...>``: (its value, its label or aria-label)."""
    found = []
    for attrs_text, inner in re.findall(r"<button\b([^>]*)>(.*?)</button>", html, re.S):
        attrs = attributes(attrs_text)
        if attrs.get("name") == name:
            text = attrs.get("aria-label") or unescape(re.sub(r"<[^>]+>", "", inner)).strip()
            found.append((attrs.get("value", ""), text))
    return found


def plan_said(html: str) -> str:
    found = re.search(r'<p class="obs-plan-said[^"]*"[^>]*>(.*?)</p>', html, re.S)
    assert found, html[:500]
    return unescape(found.group(1)).strip()


def submit_button(html: str) -> str:
    """The plan strip's Submit (or Pass) button, as sent."""
    found = re.search(
        r'<button type="button" class="confirm" hx-post="play/submit"[^>]*>[^<]*</button>', html
    )
    assert found, html[:500]
    return found.group(0)


_IDS = re.compile(r"(?<![A-Za-z0-9])[LSA][0-9]{2}(?![A-Za-z0-9])")
_BY_NAME = {escape(card.name): card.id for card in CARDS.values()}
_NAMES = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    + "|".join(re.escape(name) for name in sorted(_BY_NAME, key=len, reverse=True))
    + r")(?![A-Za-z0-9])"
)


def named_cards(html: str) -> set[str]:
    """Every card this HTML names, by its id (L07) or by its name as a page writes it (the
    longest name where one holds another: "Orion's Belt", not "Orion")."""
    found = {word for word in _IDS.findall(html) if word in CARDS}
    return found | {_BY_NAME[name] for name in _NAMES.findall(html)}


def mentions(html: str, word: str) -> bool:
    """``word`` (a card id like L07, or a name) appears as a word of its own."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", html) is not None
