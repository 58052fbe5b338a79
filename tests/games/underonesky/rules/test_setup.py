"""Setting the table: the board, the 28 tiles, the chart and its compass, the cards, who
starts, and the first three tiles beside the board."""

from collections import Counter
from dataclasses import replace

from games.underonesky.rules import (
    CARDS,
    CENTRE,
    Compass,
    GameDealt,
    Problem,
    State,
    Step,
    Tile,
    TurnStarted,
)
from tests.support.uos import STACK, deal, dealt, decided, refused


def test_a_5x5_board_with_the_north_star_fixed_in_the_centre_and_every_other_space_empty():
    state = dealt()
    assert len(state.board) == 25
    assert state.board[CENTRE] is Tile.NORTH
    assert state.board.count(None) == 24


def test_27_coloured_tiles_nine_of_each_colour_plus_the_north_star():
    state = dealt()
    tiles = Counter(state.stack) + Counter(state.face_up)
    assert tiles == {Tile.BLUE: 9, Tile.ORANGE: 9, Tile.YELLOW: 9}
    assert sum(tiles.values()) + 1 == 28


def test_the_first_turn_draws_three_tiles_beside_the_board_from_the_top_of_the_stack():
    events = decided(State(), deal())
    assert [type(e) for e in events] == [GameDealt, TurnStarted]
    assert events[1].drawn == STACK[:3]
    state = dealt()
    assert state.face_up == STACK[:3] and state.stack == STACK[3:]
    assert state.step is Step.PLACING and state.turn == 1


def test_each_player_holds_one_card_of_the_charts_set_and_the_third_stays_face_down():
    state = dealt(cards=("orange-3", "orange-1", "orange-2"))
    assert state.card_of(1) == CARDS["orange-3"] and state.card_of(2) == CARDS["orange-1"]
    assert state.face_down == CARDS["orange-2"]


def test_any_chart_in_any_of_the_four_directions():
    for compass in Compass:
        state = dealt(
            chart=Tile.YELLOW, compass=compass, cards=("yellow-1", "yellow-2", "yellow-3")
        )
        assert (state.chart, state.compass) == (Tile.YELLOW, compass)


def test_who_starts_comes_with_the_deal():
    assert dealt(first_seat=2).seat == 2
    assert dealt(first_seat=1).seat == 1


def test_cards_from_another_set_are_refused():
    refusal = refused(State(), deal(cards=("orange-1", "orange-2", "blue-3")))
    assert "chart's set" in refusal.reason
    refusal = refused(State(), deal(cards=("orange-1", "orange-1", "orange-2")))
    assert "chart's set" in refusal.reason


def test_a_stack_that_is_not_nine_of_each_colour_is_refused():
    assert "9 blue" in refused(State(), deal(stack=STACK[:-1] + (Tile.BLUE,))).reason
    assert "9 blue" in refused(State(), deal(stack=STACK + (Tile.NORTH,))).reason


def test_a_table_is_set_once_and_only_seat_1_or_2_starts():
    assert refused(dealt(), deal()).problem is Problem.CONFLICT
    assert "starts" in refused(State(), deal(first_seat=3)).reason
    assert "positive" in refused(State(), deal(step_seconds=0)).reason
    assert refused(State(), replace(deal(), chart=Tile.NORTH)).reason.startswith("Choose")
