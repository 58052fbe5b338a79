"""Random legal games played to the end, for 1 to 8 seats, by the robot, random legal drawings
and passes, with and without the clock (R1-R9, T3, E1, W3, L3, V3, V4): the events stored and
read back fold to the live state at every step; no view holds another seat's open submission
or an unrevealed card; the game ends after 18 rounds; no line is ever drawn twice; no board
has an open copy between rounds."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games import kit
from games.codec import EventCodec
from games.kit import Refusal
from games.lookatthestars.rules import decide as rules
from games.lookatthestars.rules import drawing, robot
from games.lookatthestars.rules.board import Power
from games.lookatthestars.rules.cards import NIGHT_DECK, POINT_CARDS
from games.lookatthestars.rules.commands import Deal, Expire, Submit
from games.lookatthestars.rules.designs import DESIGNS
from games.lookatthestars.rules.events import EVENT_TYPES, RoundClosed
from games.lookatthestars.rules.evolve import fold, turn_of
from games.lookatthestars.rules.model import PASS, ROUNDS, Drawing, Resolution, State
from games.lookatthestars.rules.view import view_for

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
CODEC = EventCodec(EVENT_TYPES)
OTHER = Drawing(lines=frozenset({((0, 1), (0, 2)), ((1, 1), (1, 2))}))  # any other drawing


def stored(events: list[object]) -> list[object]:
    return [CODEC.decode(*CODEC.encode(event)) for event in events]


def geometry(value: object) -> bool:
    """Points, lines and sets of them: numbers only, no card id can hide there."""
    if isinstance(value, int):
        return True
    if isinstance(value, tuple | frozenset) and value:
        return geometry(next(iter(value)))
    return False


def strings(value: object) -> Iterator[str]:
    if geometry(value):
        return
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings(getattr(value, field.name))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from strings(item)


def declining(state: State, seat: int, chosen: Drawing) -> Drawing:
    """A legal drawing with every copy it opens declined, in board order (W3, W5)."""
    turn = turn_of(state)
    board = drawing.sketch(state.boards[seat - 1], chosen, turn)
    resolutions: list[Resolution] = []
    while opened := drawing.in_board_order(drawing.open_copies(board, turn)):
        resolutions.append(Resolution(opened[0]))
        after = drawing.resolve(board, resolutions[-1], turn)
        assert not isinstance(after, str)
        board = after
    return Drawing(chosen.lines, chosen.shooting_star, tuple(resolutions))


def check_views(state: State, *, scan: bool = True) -> None:
    """V3, V4: no view depends on another seat's open submission; none holds a card that is
    not revealed yet or is unused (``scan``: read every string of every view for them)."""
    hidden = set(NIGHT_DECK) - set(state.cards)
    for viewer in (None, *state.seats):
        shown = view_for(state, viewer)
        assert not scan or not set(strings(shown)) & hidden
        if state.round is not None and not state.round.closed:
            others = {s: d if s == viewer else OTHER for s, d in state.round.submitted.items()}
            twin = replace(state, round=kit.with_changes(state.round, submitted=others))
            assert view_for(twin, viewer) == shown


def check_between_rounds(state: State, drawn: list[int]) -> None:
    """W3: no open copy on any board between rounds; L3: no line drawn twice."""
    turn = turn_of(state)
    for seat, board in zip(state.seats, state.boards, strict=True):
        assert drawing.open_copies(board, turn) == frozenset()
        assert len(board.drawn) == drawn[seat - 1]
        assert not board.drawn & board.design.printed_lines


def lines_added(submission: Drawing, power: Power) -> int:
    used = sum(1 for r in submission.resolutions if not r.declined and power is Power.LINE)
    return len(submission.lines) + used


@pytest.mark.parametrize("players", [1, 2, 3, 5, 8])
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # a whole game shrinks for minutes: report it as is
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    clock=st.booleans(),
    power=st.sampled_from(list(Power)),
    point=st.sampled_from(sorted(POINT_CARDS)),
    data=st.data(),
)
def test_random_games_fold_back_keep_secrets_and_end_after_eighteen_rounds(
    players: int, clock: bool, power: Power, point: str, data: st.DataObject
) -> None:
    """R1-R9, T3, E1, E6, L3, W3, V3, V4: a whole random game, checked at every step."""
    designs = tuple(data.draw(st.permutations(list(DESIGNS)))[:players])
    night = tuple(data.draw(st.permutations(list(NIGHT_DECK)))[:ROUNDS])
    now = NOW
    log: list[object] = []
    deal = Deal(players, designs, night, point, power, 60 if clock else None)
    decision = rules.decide(State(), deal, now)
    assert isinstance(decision, list)
    state = fold(decision)
    replayed = fold(stored(decision))
    log += decision
    drawn = [0] * players
    rounds_seen = 0
    while not state.ended:
        number = state.round_number
        rounds_seen += 1
        assert number == rounds_seen and state.card == night[number - 1]
        ways = data.draw(
            st.lists(
                st.sampled_from(["robot", "pass", "random", "silent"]),
                min_size=players,
                max_size=players,
            )
        )
        if not clock:
            ways = ["pass" if way == "silent" else way for way in ways]
        for seat, way in zip(state.seats, ways, strict=True):
            if way == "silent" or state.round_number != number or state.ended:
                continue
            if way == "robot":
                command = robot.move(state, seat)
            elif way == "random":
                legal = drawing.options(state.boards[seat - 1], turn_of(state))
                chosen = data.draw(st.sampled_from(legal)) if legal else PASS
                command = Submit(seat, number, declining(state, seat, chosen))
            else:
                command = Submit(seat, number, PASS)
            decision = rules.decide(state, command, now)
            assert isinstance(decision, list), decision
            state = fold(decision, state)
            replayed = fold(stored(decision), replayed)
            assert replayed == state
            log += decision
            if state.round_number == number and not state.ended:  # R6: final once accepted
                assert rules.decide(state, command, now) == Refusal(
                    "You have already submitted this round: it is final.", kit.Problem.CONFLICT
                )
            check_views(state, scan=len(state.round.submitted) == 1 if state.round else True)
        if state.round_number == number and not state.ended:
            now += timedelta(seconds=60)
            decision = rules.decide(state, Expire(state.step_started), now)
            assert isinstance(decision, list), decision
            state = fold(decision, state)
            replayed = fold(stored(decision), replayed)
            assert replayed == state
            log += decision
        close = next(e for e in reversed(log) if isinstance(e, RoundClosed))
        assert close.round == number
        assert set(close.passed_by_clock) == {
            s for s, way in zip(state.seats, ways, strict=True) if way == "silent"
        }
        for seat, submission in close.by_seat().items():
            drawn[seat - 1] += lines_added(submission, power)
        check_between_rounds(state, drawn)
        check_views(state)
    assert rounds_seen == ROUNDS and len(state.closed) == ROUNDS and state.cards == night
    assert fold(stored(log)) == state and state.version == len(log)
    totals = [sheet.total for sheet in state.scores]
    if players == 1:
        assert state.winners == ()
    else:
        assert state.winners == tuple(s for s in state.seats if totals[s - 1] == max(totals))
