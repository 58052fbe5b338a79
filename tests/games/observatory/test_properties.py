"""Random games played to the end, for 1 to 5 seats, by the robot, passes, silent seats and
the clock (N1-N11, G1-G7, T3-T6, E1, E2, E4, E5, V1-V3): the events stored and read back fold
to the live state at every step; no view holds a card still in a deck, another seat's dealt
six or another seat's open submission; every card is in exactly one place; the game ends
after N2's Nights; every score is its four parts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games import kit
from games.observatory.rules import robot
from games.observatory.rules.commands import Choose, Command, Deal, Expire, Submit
from games.observatory.rules.decide import card_counts, decide, winners
from games.observatory.rules.deck import CARDS, LARGE, SMALL
from games.observatory.rules.evolve import fold
from games.observatory.rules.model import GOALS, PASS, State
from games.observatory.rules.model import Phase as Step
from games.observatory.rules.scoring import score
from games.observatory.rules.sheet import Dice
from games.observatory.rules.sheet_data import NIGHTS
from games.observatory.rules.view import view_for
from tests.games.observatory.flow_helpers import NOW, stored
from tests.games.observatory.test_views import cards_in

faces = st.integers(min_value=1, max_value=6)
rolls = st.builds(lambda a, b, c, o: Dice((a, b, c), o), faces, faces, faces, faces)


def check_views(state: State) -> None:
    """V2, V3: no deck card anywhere; another seat's hand only to that seat during the
    choice; another seat's open submission never (its twin state shows the same)."""
    in_decks = set(state.large) | set(state.small)
    for viewer in (None, *state.seats):
        seen = view_for(state, viewer)
        shown = cards_in(seen)
        assert not shown & in_decks
        if state.phase is Step.CHOICE:
            others = {c for s, hand in enumerate(state.hands, 1) if s != viewer for c in hand}
            assert not shown & others
        if state.phase in (Step.OPENING, Step.TURN) and state.round and not state.round.closed:
            others_blank = {s: v if s == viewer else PASS for s, v in state.round.submitted.items()}
            twin = kit.with_changes(
                state, round=kit.with_changes(state.round, submitted=others_blank)
            )
            assert view_for(twin, viewer) == seen


def check_invariants(state: State) -> None:
    counts = card_counts(state)
    assert sum(counts.values()) == len(CARDS) and set(counts.values()) == {1}
    for sheet, sheet_score in zip(state.sheets, state.scores, strict=True):
        assert score(sheet) == sheet_score
        parts = sheet_score.cards + sheet_score.asterisms + sheet_score.funding
        assert sheet_score.total == parts + sheet_score.unused
        assert sheet_score.unused_stars == len(sheet.stars) - len(sheet.used_stars)  # E4
        assert sheet_score.unused == sheet_score.unused_stars // 2
        assert sheet_score.completed == len(sheet.completed)
        if state.phase in (Step.OPENING, Step.TURN):
            assert len(sheet.goals) <= GOALS


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@settings(
    max_examples=2,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # a whole game shrinks for minutes: report it as is
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(clock=st.booleans(), first_game=st.booleans(), data=st.data())
def test_random_games_fold_back_keep_secrets_and_end_after_their_nights(
    players: int, clock: bool, first_game: bool, data: st.DataObject
) -> None:
    """N1-N11, G1-G7, T3-T6, E1, E2, E4, E5, V2, V3: a whole random game, checked at every
    step."""
    large = tuple(data.draw(st.permutations(LARGE)))
    small = tuple(data.draw(st.permutations(SMALL)))
    first = data.draw(st.integers(1, players))
    now = NOW
    seconds = 60 if clock else None
    deal = Deal(players, large, small, first, first_game, seconds, data.draw(rolls))
    decision = decide(State(), deal, now)
    assert isinstance(decision, list)
    state, replayed, log = fold(decision), fold(stored(decision)), list(decision)
    ways = ["robot", "pass", "silent"] if clock else ["robot", "pass"]
    turns = 0

    def run(command: Command) -> None:
        nonlocal state, replayed
        decision = decide(state, command, now)
        assert isinstance(decision, list), decision
        state = fold(decision, state)
        replayed = fold(stored(decision), replayed)
        log.extend(decision)
        assert replayed == state
        check_invariants(state)
        check_views(state)

    while not state.ended:
        step = state.step_started
        if state.phase is Step.TURN:
            turns += 1
        if state.phase is Step.DRAFT:
            way = data.draw(st.sampled_from(["robot", "silent"] if clock else ["robot"]))
            while way == "robot" and state.step_started == step and not state.ended:
                assert state.drafter is not None
                run(robot.move(state, state.drafter, data.draw(rolls)))
        else:
            for seat in state.seats:
                way = data.draw(st.sampled_from(ways))
                if state.step_started != step or way == "silent":
                    continue
                command = robot.move(state, seat, data.draw(rolls))
                if way == "pass" and isinstance(command, Submit):
                    command = Submit(seat, command.round, (), command.dice)
                if way == "pass" and isinstance(command, Choose):
                    command = Choose(seat, 1, state.hands[seat - 1][2:], command.dice)
                run(command)
        if state.step_started == step and not state.ended:
            now += timedelta(seconds=60)
            run(Expire(step, data.draw(rolls)))
    assert turns == NIGHTS[players] * players and state.night == NIGHTS[players]
    assert fold(stored(log)) == state and state.version == len(log)
    assert state.winners == winners(state.scores)
    if players == 1:
        assert state.winners == ()
