"""The line at the top of the board speaks to the person reading it: whose turn it is in
their words ("Your turn: ...", "Wait: ..."), and who they are (crew and role, S2/S3), or that
they are watching. Audiences are a crew's role, not a person: both Spotters of a crew read
the same line."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from games.constellate.rules import Crew
from tests.web.rooms import Table, page, seat_table, shows_panel

pytestmark = pytest.mark.django_db


def lines(text: str) -> tuple[str, str]:
    """The board's turn line and role line, as a person reads them."""
    turn = re.search(r'<p class="turn[^"]*">(.*?)</p>', text, re.S)
    role = re.search(r'<span class="role">(.*?)</span>', text, re.S)
    assert turn and role, text[:300]
    return html.unescape(turn.group(1)).strip(), html.unescape(role.group(1)).strip()


def seen_by(table: Table, seat: int | None) -> tuple[str, str]:
    return lines(page(table.seats[seat] if seat else table.spectator, table.room))


def crews(table: Table) -> tuple[Crew, Crew]:
    active = table.state().crew
    return active, active.rival


def test_it_tells_each_rivalry_audience_its_turn_and_role_while_naming_S2_T1():
    table = seat_table(6)
    active, rival = crews(table)
    a, r = active.display, rival.display
    gazer = table.names[table.stargazer(active)]
    assert seen_by(table, table.stargazer(active)) == (
        f"Your turn: give a clue to {a}",
        f"You are the {a} Stargazer",
    )
    spotters = [n for n in range(3, 7) if table.state().seat(n).crew is active]
    assert len(spotters) == 2
    for seat in spotters:  # one audience: the same words for both Spotters
        assert seen_by(table, seat) == (
            f"Wait: {gazer} is giving your crew a clue",
            f"You are a {a} Spotter",
        )
    assert seen_by(table, table.stargazer(rival)) == (
        f"Wait: {gazer} is giving {a} a clue",
        f"You are the {r} Stargazer",
    )
    assert seen_by(table, table.spotter(rival)) == (
        f"Wait: {gazer} is giving {a} a clue",
        f"You are a {r} Spotter",
    )
    assert seen_by(table, None) == (f"{a}: {gazer} is naming a constellation", "You are watching")


def test_it_tells_each_rivalry_audience_its_turn_while_spotting_T1():
    table = seat_table(4)
    active, rival = crews(table)
    a = active.display
    assert table.name(number=1).status_code == 200
    assert seen_by(table, table.spotter(active)) == (
        f"Your turn: touch {a}'s stars",
        f"You are the {a} Spotter",  # four players: one Spotter a crew
    )
    assert seen_by(table, table.stargazer(active))[0] == "Wait: your Spotter is touching"
    assert seen_by(table, table.stargazer(rival))[0] == f"Wait: {a} is touching"
    assert seen_by(table, table.spotter(rival))[0] == f"Wait: {a} is touching"
    assert seen_by(table, None) == (f"{a}: the Spotters are touching the sky", "You are watching")


def test_it_speaks_to_the_one_crew_before_dawn_S3():
    table = seat_table(3)
    assert seen_by(table, 1) == ("Your turn: give a clue to your crew", "You are the Stargazer")
    for seat in (2, 3):
        assert seen_by(table, seat) == ("Wait: Ada is giving your crew a clue", "You are a Spotter")
    assert table.name(number=1).status_code == 200
    assert seen_by(table, 2)[0] == "Your turn: touch your crew's stars"
    assert seen_by(table, 1)[0] == "Wait: your Spotters are touching"


def test_the_acting_audience_is_marked_and_only_it():
    table = seat_table(4)
    active, rival = crews(table)
    marked = f'class="turn turn-{active.value} my-turn"'
    assert marked in page(table.seats[table.stargazer(active)], table.room)
    for seat in (table.spotter(active), table.stargazer(rival), table.spotter(rival)):
        assert "my-turn" not in page(table.seats[seat], table.room)
    assert "my-turn" not in page(table.spectator, table.room)


def test_at_the_end_nobody_is_asked_to_act_and_everyone_keeps_their_role_E2():
    table = seat_table(4)
    table.light_every_own_star()
    for seat, client in (*table.seats.items(), (None, table.spectator)):
        text = page(client, table.room)
        assert not shows_panel(text) and "my-turn" not in text, seat
        assert 'id="countdown"' not in text
        assert re.search(r'<p class="you">You are (the|watching)', text), seat


class _BoardChildren(HTMLParser):
    """The tags of the elements directly inside ``#board``, with their attributes."""

    VOID = {"input", "img", "br", "hr", "meta", "link"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # 0: outside the board; 1: directly inside it
        self.children: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if self.depth == 0:
            if found.get("id") == "board":
                self.depth = 1
            return
        if self.depth == 1:
            self.children.append((tag, found))
        if tag not in self.VOID:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth > 1 and tag not in self.VOID:
            self.depth -= 1
        elif self.depth == 1 and tag == "section":
            self.depth = -1  # the board closed: nothing after it counts


def test_everything_on_a_running_board_is_an_area_for_every_audience():
    """A change is pushed as the areas it changes and the board's own version moves only
    with a whole board (socket.js): every element directly inside a running game's board is
    an area with a version, for every seat and the public, in both modes, while naming and
    while spotting."""
    for players in (4, 3):
        table = seat_table(players)
        for step in ("naming", "spotting"):
            if step == "spotting":
                assert table.name(number=1).status_code == 200
            for client in (*table.seats.values(), table.spectator):
                parser = _BoardChildren()
                parser.feed(page(client, table.room))
                tags = {attrs.get("id"): tag for tag, attrs in parser.children}
                assert {"status", "sky", "sky-version", "panel", "log"} <= set(tags), tags
                for tag, attrs in parser.children:
                    assert "data-area" in attrs and attrs.get("data-version"), (tag, attrs)
