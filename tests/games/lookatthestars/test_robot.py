"""The computer player (issue 17): it submits through the same ``Submit`` as a person, only
legal whole submissions, resolving every copy it opens, and thinks well under a second."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from games.lookatthestars.rules import decide as rules
from games.lookatthestars.rules import robot
from games.lookatthestars.rules.board import Power
from games.lookatthestars.rules.commands import Deal, Submit
from games.lookatthestars.rules.designs import DESIGNS
from games.lookatthestars.rules.evolve import fold, turn_of
from games.lookatthestars.rules.model import PASS, State
from tests.games.lookatthestars.play_helpers import S, board, turn

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def dealt(players: int, power: Power, night: tuple[str, ...] | None = None) -> State:
    deal = Deal(players, DESIGNS[:players], night or NIGHT, "B3", power)
    decision = rules.decide(State(), deal, NOW)
    assert isinstance(decision, list)
    return fold(decision)


NIGHT = ("S01", "SS1", "S04", *(f"S{n:02d}" for n in range(5, 20)))
CROSS = S("a2-b2 b1-b2 b2-b3 b2-c2")
SAIL = S("a1-a2 a2-a3 a3-a4 a1-b2 b2-b3 b3-a4")


@pytest.mark.parametrize("power", list(Power))
def test_the_robot_plays_a_whole_game_legally_and_quickly(power: Power) -> None:
    """R3, R6, W3: every move is accepted; each turn takes well under a second of thinking
    (CPU time: the time this process works on it, whatever else the machine is running)."""
    state = dealt(1, power)
    slowest = 0.0
    while not state.ended:
        assert robot.waiting(state, 1)
        started = time.process_time()
        command = robot.move(state, 1)
        slowest = max(slowest, time.process_time() - started)
        decision = rules.decide(state, command, NOW)
        assert isinstance(decision, list), decision
        state = fold(decision, state)
    assert not robot.waiting(state, 1)
    assert slowest < 1.0
    assert state.scores[0].total > 0


def test_the_robot_waits_only_for_its_own_open_submission() -> None:
    """R6: a seat that has submitted owes nothing until the next card."""
    state = dealt(2, Power.LINE)
    decision = rules.decide(state, Submit(1, 1, PASS), NOW)
    assert isinstance(decision, list)
    state = fold(decision, state)
    assert not robot.waiting(state, 1) and robot.waiting(state, 2)
    assert robot.move(state, 2).round == 1


def test_the_robot_uses_a_power_when_it_scores_and_prefers_a_drawing_to_a_pass() -> None:
    """W3, W8: a planet beside its constellation scores, so the robot uses it (with the
    sail as the point card, which no drawing here can copy)."""
    b = board("c3-c4 c4-c5")
    chosen = robot.choose(b, turn("S03", Power.PLANET), SAIL)
    assert chosen.lines and [r.declined for r in chosen.resolutions] == [False]
    assert robot.choose(board(), turn("S01"), CROSS) != PASS


def test_the_robot_reads_only_its_seat_s_board_and_the_revealed_card() -> None:
    """V3, V4: its move is the same whatever the night's later cards are."""
    other = (*NIGHT[:1], *reversed(NIGHT[1:]))
    moves = []
    for night in (NIGHT, other):
        state = dealt(1, Power.LINE, night)
        moves.append(robot.move(state, 1))
        assert turn_of(state).card is not None
    assert moves[0] == moves[1]
