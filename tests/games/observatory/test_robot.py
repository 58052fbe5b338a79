"""The computer player: it owes what the state says it owes, keeps the 4 cheapest cards,
plots toward its cheapest goal placement, researches toward the Lens and the Drive, claims
what it can, drafts the cheapest card, and is never refused, well under a second a move."""

from __future__ import annotations

import time

from games.observatory.rules import robot
from games.observatory.rules.commands import Choose, Pick, Submit
from games.observatory.rules.decide import decide
from games.observatory.rules.deck import CARDS
from games.observatory.rules.model import Source, Take
from games.observatory.rules.sheet_data import Track
from games.observatory.rules.steps import Claim, PairPlot, ResearchFill
from tests.games.observatory.flow_helpers import NOW, act, deal, dice, started, submit, with_stars
from tests.games.observatory.sheet_helpers import placed


def test_robot_keeps_the_four_cheapest_of_its_six_g3() -> None:
    state = deal(2)
    assert robot.waiting(state, 1) and robot.waiting(state, 2)
    command = robot.move(state, 1)
    assert isinstance(command, Choose)
    cheapest = sorted(state.hands[0], key=lambda c: (CARDS[c].difficulty, c))[:4]
    assert sorted(command.keep) == sorted(cheapest)
    state, _ = act(state, command)
    assert not robot.waiting(state, 1)


def test_robot_plots_toward_its_cheapest_placement_and_claims_it() -> None:
    state = started(2)
    goal = min(state.sheet(1).goals, key=lambda c: len(CARDS[c].stars))
    spaces = placed(goal, (9, 7))  # sector (5, 4), which the turn's (3, 4, 5) reach
    state = with_stars(state, 1, sorted(spaces)[1:])
    command = robot.move(state, 1, dice(4, 4, 2))  # next turn's dice, passed through
    assert isinstance(command, Submit) and command.dice == dice(4, 4, 2)
    plot = next(s for s in command.steps if isinstance(s, PairPlot))
    claim = next(s for s in command.steps if isinstance(s, Claim))
    assert claim.card == goal and plot.space in claim.spaces
    state, _ = act(state, command)
    assert state.round is not None and state.round.done(1)


def test_robot_researches_toward_the_lens_first() -> None:
    state = started(2)  # dice (3, 4, 5): no Lens space shows 3 or 4, one shows 5
    command = robot.move(state, 2)
    assert isinstance(command, Submit)
    fills = [s for s in command.steps if isinstance(s, ResearchFill)]
    assert fills and fills[0].track in (Track.LENS, Track.DRIVE)


def test_robot_drafts_the_cheapest_face_up_card() -> None:
    state = deal(2, first_game=True)
    spaces = placed(state.sheet(1).goals[1], (1, 1))
    state = with_stars(state, 1, spaces)
    state, _ = act(state, robot.move(state, 1))
    state, _ = submit(state, 2)
    assert robot.waiting(state, 1) and not robot.waiting(state, 2)
    command = robot.move(state, 1, dice(2, 2, 2))
    faces = [c for c in (*state.sky_large, *state.sky_small) if c is not None]
    cheapest = min(faces, key=lambda c: (CARDS[c].difficulty, c))
    assert isinstance(command, Pick) and command.take == Take(Source.SMALL_ROW, 1)
    assert state.sky_small[0] == cheapest
    assert isinstance(decide(state, command, NOW), list)


def test_robot_moves_are_quick_and_never_refused() -> None:
    state = started(3)
    for _ in range(12):
        for seat in state.seats:
            if robot.waiting(state, seat):
                start = time.process_time()
                command = robot.move(state, seat, dice(1, 6, 2, 5))
                assert time.process_time() - start < 1.0
                state, _ = act(state, command)
                break
