"""The status line of a simultaneous step (``games.audiences.waiting_line``), in the words of
each game that has one: Look at the Stars' rounds (a seat is "done") and Observatory's steps
(a seat is "ready")."""

from __future__ import annotations

import pytest

from games.audiences import WaitingWords, waiting_line

NAMES = {1: "Ada", 2: "Bo", 3: "Cy"}
DONE = WaitingWords(acted="done", step="round", counted="other", doing=" to draw")
READY = WaitingWords(acted="ready", step="step", counted="player")


@pytest.mark.parametrize(
    ("words", "waiting", "acted", "line"),
    [
        (DONE, [2], 1, "Done — waiting for 1 other: Bo."),
        (DONE, [2, 3], 1, "Done — waiting for 2 others: Bo and Cy."),
        (DONE, [], 1, "Done — the round closes now."),
        (DONE, [2, 3], None, "Waiting for Bo and Cy to draw."),
        (DONE, [], None, "Every seat is done: the round closes now."),
        (READY, [2], 1, "Ready — waiting for 1 player: Bo."),
        (READY, [1, 2, 3], 1, "Ready — waiting for 2 players: Bo and Cy."),
        (READY, [1], 1, "Ready — the step closes now."),
        (READY, [1, 3], None, "Waiting for Ada and Cy."),
        (READY, [], None, "Every seat is ready: the step closes now."),
    ],
)
def test_the_line_names_who_the_step_still_waits_for(words, waiting, acted, line):
    assert waiting_line(words, waiting, NAMES, acted) == line


def test_a_seat_with_no_name_is_called_by_its_number():
    assert waiting_line(READY, [4], {}, None) == "Waiting for Seat 4."
