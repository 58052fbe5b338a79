"""The computer player (issue 19, ``games.astra.rules.robot``): it owes a move exactly when
the rules wait on its seat, every move it makes is one ``decide`` accepts, whole games of
robots end for 2-5 players with the clock on, each move is thought well under a second, and
its greedy rules pick what they say (a discovery, a Rest on an empty Pouch, Windfall, the best
Boon, the cards worth keeping, Done after a Star Burst, a Dream that marks no Grand star);
and it beats random legal play.

``balance(games)`` is not a test: it plays robot games and reports the mean final score per
player count (``python -m tests.games.astra.test_robot``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from datetime import datetime

import pytest
from hypothesis import given, settings

from games.astra.rules import robot
from games.astra.rules.commands import (
    Command,
    DiscardCards,
    Done,
    Dream,
    Observe,
    PickBoon,
    Rest,
    UseAbility,
)
from games.astra.rules.decide import decide
from games.astra.rules.events import GameEnded
from games.astra.rules.model import Phase, State
from tests.games.astra.flow_helpers import (
    ANA,
    BEN,
    CETUS,
    CLEO,
    LYRA,
    NOW,
    act,
    at_the_limit,
    deal,
    deck_from,
    dream_step,
    holding,
    number,
    observe,
    played_out,
    playing,
    random_tables,
    shuffled,
    sky,
    with_journal,
    with_marks,
)
from tests.games.astra.test_whole_game import check_invariants, choose

SECOND = 1.0  # issue 19: a move is thought in under a second (a generous bound, not a benchmark)

Mover = Callable[[State, random.Random], Command]


def robots(state: State, rng: random.Random) -> Command:
    """Every seat a robot: the first seat that owes a move moves."""
    return robot.move(state, robot.seats_waiting(state)[0], rng)


def played(state: State, rng: random.Random, mover: Mover) -> tuple[State, GameEnded, float]:
    """The game played to its end by ``mover`` at NOW (every command accepted: ``act``
    asserts it), its last event, and the longest a move took to think."""
    slowest = 0.0

    def timed(state: State, rng: random.Random) -> tuple[Command, datetime]:
        nonlocal slowest
        started = time.perf_counter()
        command = mover(state, rng)
        slowest = max(slowest, time.perf_counter() - started)
        return command, NOW

    events: list[object] = []
    for after, events in playing(state, rng, timed):
        check_invariants(after, events)
    ended = events[-1] if events else None
    assert isinstance(ended, GameEnded), "the game never ended"
    return after, ended, slowest


def expected_waiting(state: State) -> tuple[int, ...]:
    """Who the rules wait on: the members of an open pick group still to pick (D6), else
    the active seat in its turn, card-limit or Dream step."""
    if not state.dealt or state.ended:
        return ()
    if state.phase is Phase.PICKING:
        assert state.picks is not None
        return state.picks.waiting
    assert state.active is not None
    return (state.active,)


# -- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_robot_games_end_for_every_player_count_with_the_clock_on_each_move_under_a_second(
    players: int,
) -> None:
    """E7: robots alone finish the game, every command accepted (at NOW, inside each step's
    60 s deadline), the invariants of the random games holding; the slowest move < 1 s."""
    slowest = 0.0
    for seed in range(3):
        state, rng = shuffled(players, seed, clock=60)
        state, _, took = played(state, rng, robots)
        slowest = max(slowest, took)
        assert state.phase is Phase.ENDED
    assert slowest < SECOND


@settings(max_examples=12, deadline=None)
@given(table=random_tables())
def test_every_robot_move_is_accepted_in_any_state_a_mixed_game_reaches(
    table: tuple[State, random.Random],
) -> None:
    """At every step of a game played half by random legal choices (odd positions: Abilities
    used at random, chains cut short, Star Bursts) and half by the robot, the robot waits on
    exactly the seats the rules wait on, and its move for each of them is accepted."""

    def checked(state: State, rng: random.Random) -> tuple[Command, datetime]:
        assert robot.seats_waiting(state) == expected_waiting(state)
        for seat in robot.seats_waiting(state):
            decision = decide(state, robot.move(state, seat, rng), NOW)
            assert isinstance(decision, list), decision
        return (robots(state, rng) if rng.random() < 0.5 else choose(state, rng)), NOW

    state = played_out(*table, checked)
    assert state.ended and robot.seats_waiting(state) == ()


# -- waiting --------------------------------------------------------------------------------


def test_the_robot_waits_only_on_a_dealt_running_game_and_moves_only_when_waited_on() -> None:
    assert not robot.waiting(State(), 1)
    state = deal(3)
    assert [robot.waiting(state, seat) for seat in (0, 1, 2, 3, 4)] == [
        False,
        True,
        False,
        False,
        False,
    ]
    with pytest.raises(ValueError):
        robot.move(state, BEN, random.Random(0))


def test_d6_the_robot_waits_on_each_member_of_a_tied_pick_group_until_it_has_picked() -> None:
    """Lyra (0-1 0-2 2-3): Ben marked 0 and Cleo 1; Ana discovers it; Ben and Cleo pick."""
    state = with_marks(deal(3, deck=deck_from("Ara", "Lyra")), 1, {0: BEN, 1: CLEO})
    state, _ = observe(state, 1, 2, 3)
    assert robot.seats_waiting(state) == (BEN, CLEO)
    command = robot.move(state, BEN, random.Random(0))
    assert isinstance(command, PickBoon)
    state, _ = act(state, command)
    assert robot.seats_waiting(state) == (CLEO,)


# -- the greedy rules --------------------------------------------------------------------------


def test_o12_the_robot_spends_its_last_stardust_on_the_star_that_discovers_a_card() -> None:
    """Lyra (0-1 0-2 2-3) with Ben's 0, 1 and 2: with 1 Stardust Ana's star 3 discovers
    it, worth more than a Rest or a star anywhere else."""
    state = with_marks(sky(), LYRA, {0: BEN, 1: BEN, 2: BEN})
    state = with_journal(state, ANA, stardust=1)
    assert robot.move(state, ANA, random.Random(0)) == Observe(ANA, state.version, LYRA, (3,))


def test_r1_the_robot_rests_on_an_empty_pouch() -> None:
    state = with_journal(deal(3), ANA, stardust=0)
    assert robot.move(state, ANA, random.Random(0)) == Rest(ANA, state.version)


def test_k3_the_robot_uses_a_windfall_first_then_acts() -> None:
    state = holding(deal(3), ANA, ("Leo", True))  # Windfall 4
    command = robot.move(state, ANA, random.Random(0))
    assert command == UseAbility(ANA, state.version, number("Leo"))
    state, _ = act(state, command)
    assert state.journal(ANA).stardust == 8 + 4
    assert isinstance(robot.move(state, ANA, random.Random(0)), Observe)


def test_k1_a5_after_a_star_burst_with_nothing_else_worth_using_the_robot_says_done() -> None:
    """Andromeda's Star Burst on Lyra (0-1 0-2 2-3, Ben's 0 and 1): star 2 marks 2 and 3
    with it and discovers Lyra; the Action phase is skipped, so Done."""
    state = with_marks(sky(), LYRA, {0: BEN, 1: BEN})
    state = holding(state, ANA, ("Andromeda", True))
    command = robot.move(state, ANA, random.Random(0))
    assert isinstance(command, UseAbility) and command.card == number("Andromeda")
    state, _ = act(state, command)
    assert state.skipped and robot.move(state, ANA, random.Random(0)) == Done(ANA, state.version)


def test_b2_the_robot_picks_the_boon_worth_most_to_it() -> None:
    """Cetus (Fame 5, Improvement 1, Observation 1, Stardust 2): Ben marked 0 and 1; Ana
    discovers it; Ben takes the 5 Fame."""
    state = with_marks(sky(), CETUS, {0: BEN, 1: BEN, 2: ANA, 3: ANA, 4: ANA, 5: ANA})
    state, _ = observe(state, CETUS, 6)
    command = robot.move(state, BEN, random.Random(0))
    assert isinstance(command, PickBoon) and command.box == 1
    state, _ = act(state, command)
    assert state.journal(BEN).fame == 5


def test_l1_the_robot_keeps_the_cards_that_score_most_on_its_own_final_scoring_card() -> None:
    """Ana (FS1: Fire and Water pre-marked) holds Lupus (Earth, 1, Active) and Aries (Fire,
    6, Exhausted) and discovers Cetus (Water, 4) at limit 2. Keeping Lupus and Cetus: 1 + 4
    Active (F3), Water's 2 marks 2 (F4), column 1 marked in Fire, Water and Earth 3 (F5): 10.
    Keeping Aries and Cetus: 4, Fire's and Water's 2 marks 2 + 2, no column: 8. Aries goes."""
    state, _ = observe(at_the_limit(), CETUS, 6)
    assert state.phase is Phase.DISCARDING
    command = robot.move(state, ANA, random.Random(0))
    assert command == DiscardCards(ANA, state.version, (number("Aries"),))
    act(state, command)


def test_v7_the_robots_dreamer_leaves_the_grand_stars_to_the_seats() -> None:
    """On Air (2 stars) the dreamer marks Leo (0-1 0-2 2-3 3-4, Grand 1) or Hydra (0-1 1-2
    2-3 3-4, Grand 3): the robot never has it mark a Grand star (Leo 0, 1)."""
    state = dream_step()
    for seed in range(6):
        command = robot.move(state, ANA, random.Random(seed))
        assert isinstance(command, Dream) and (command.slot, command.stars) != (2, (0, 1))
        act(state, command)


# -- the robot against random play, and the balance report -------------------------------------


def mixed(robot_seats: Iterable[int]) -> Mover:
    """The robot in ``robot_seats``, random legal choices (test_whole_game's) elsewhere."""
    seats = frozenset(robot_seats)

    def chooser(state: State, rng: random.Random) -> Command:
        seat = robot.seats_waiting(state)[0]
        return robot.move(state, seat, rng) if seat in seats else choose(state, rng)

    return chooser


def final_scores(state: State, rng: random.Random, chooser: Mover) -> dict[int, int]:
    _, ended, _ = played(state, rng, chooser)
    return {score.seat: score.total for score in ended.scores}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_robot_outscores_random_legal_play(players: int) -> None:
    """Seat 1 a robot, the others random legal choices, over fixed seeds: the robot's mean
    final score beats theirs (greedy is better than random)."""
    ours: list[int] = []
    theirs: list[int] = []
    for seed in range(4):
        state, rng = shuffled(players, seed, clock=None)
        scores = final_scores(state, rng, mixed([1]))
        ours.append(scores.pop(1))
        theirs += scores.values()
    assert sum(ours) / len(ours) > sum(theirs) / len(theirs)


def balance(games: int = 50, counts: Iterable[int] = range(2, 6)) -> dict[int, float]:
    """Robots only: the mean final score of a seat per player count over ``games`` games."""
    means: dict[int, float] = {}
    for players in counts:
        totals: list[int] = []
        for seed in range(games):
            state, rng = shuffled(players, seed, clock=None)
            totals += final_scores(state, rng, robots).values()
        means[players] = sum(totals) / len(totals)
    return means


if __name__ == "__main__":  # pragma: no cover
    for count, mean in balance().items():
        print(f"{count} players: mean final score {mean:.1f}")
