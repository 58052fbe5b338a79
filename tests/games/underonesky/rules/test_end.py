"""The end of a turn, after every mandatory action: five tiles of one colour in your card's
shape (the North Star wild), turned to the chart, win; both at once draw; a full board with
neither draws."""

from games.underonesky.rules import (
    Finish,
    GameEnded,
    Move,
    Place,
    Problem,
    Step,
    Tile,
    TileMoved,
    completed,
    fold,
)
from tests.support.uos import arranged, dealt, decided, refused

YELLOW, BLUE, ORANGE = 0, 1, 2  # beside the board after the deal
# Seat 1 holds the Little Dipper (**. / ***), seat 2 the Northern Cross (*** / .*. / .*.).
CARDS = ("orange-1", "orange-2", "orange-3")


def test_five_tiles_of_one_colour_in_your_shape_win_at_the_end_of_your_turn():
    state = arranged(
        dealt(cards=CARDS),
        """
        .....
        .....
        ..N..
        OOO..
        OO...
        """,
    )
    placed = fold(decided(state, Place(1, 18, state.version, BLUE)), state)  # blue on D4
    assert placed.step is Step.ACTING
    events = decided(placed, Move(1, 22, placed.version, 17))  # C4 down to C5
    assert events == [
        TileMoved(seat=1, origin=17, target=22),
        GameEnded(winner=1, finish=Finish.CONSTELLATION, spaces=(15, 16, 20, 21, 22)),
    ]
    after = fold(events, placed)
    assert after.ended and after.winner == 1 and after.completed == (15, 16, 20, 21, 22)


def test_the_check_waits_for_the_mandatory_action():
    state = arranged(
        dealt(cards=CARDS),
        """
        .....
        .....
        ..N..
        BB...
        B.B..
        """,
    )
    after = fold(decided(state, Place(1, 21, state.version, BLUE)), state)
    assert completed(after, 1) and not after.ended  # the shape is there, the move is due
    events = decided(after, Move(1, 10, after.version, 15))  # and the move breaks it
    assert not any(isinstance(e, GameEnded) for e in events)


def test_the_north_star_counts_as_every_colour():
    for colour in "BOY":
        row1, row2 = f".{colour}{colour}..", f".{colour}N{colour}."
        state = arranged(dealt(cards=CARDS), f".....\n{row1}\n{row2}\n.....\n.....")
        assert completed(state, 1) == (6, 7, 11, 12, 13), colour


def test_five_tiles_of_mixed_colours_do_not_count():
    state = arranged(dealt(cards=CARDS), ".....\n.BO..\n.BNB.\n.....\n.....")
    assert completed(state, 1) is None


def test_the_other_players_constellation_completed_on_your_turn_wins_for_them():
    state = arranged(
        dealt(cards=CARDS),
        """
        BBB..
        .B...
        B.N..
        .....
        .....
        """,
    )
    placed = fold(decided(state, Place(1, 5, state.version, BLUE)), state)  # blue on A2
    events = decided(placed, Move(1, 11, placed.version, 10))  # A3 right to B3
    assert events[-1] == GameEnded(winner=2, finish=Finish.CONSTELLATION, spaces=(0, 1, 2, 6, 11))


def test_both_constellations_completed_on_the_same_turn_is_a_draw():
    state = arranged(
        dealt(cards=CARDS),
        """
        .OOO.
        .O.O.
        .ON..
        .....
        .....
        """,
    )
    placed = fold(decided(state, Place(1, 10, state.version, ORANGE)), state)  # orange on A3
    events = decided(placed, Move(1, 7, placed.version, 11))  # B3 diagonally up to C2
    ended = events[-1]
    assert ended.winner is None and ended.finish is Finish.BOTH
    # The cross on B1-D1, C2 and the North Star; the dipper on B1, C1, B2, C2, D2.
    assert ended.spaces == (1, 2, 3, 6, 7, 8, 12)
    assert fold(events, placed).ended


def test_a_full_board_with_neither_constellation_is_a_draw():
    state = arranged(
        dealt(cards=CARDS),
        """
        BOYBO
        YBOYB
        OYNOY
        BOYBO
        YBOY.
        """,
        face_up=(Tile.YELLOW,),
    )
    assert completed(state, 1) is None and completed(state, 2) is None
    events = decided(state, Place(1, 24, state.version, 0))
    after = fold(events, state)
    assert events[-1] == GameEnded(winner=None, finish=Finish.FULL, spaces=())
    assert after.full and after.ended


def test_nothing_is_played_after_the_end():
    state = arranged(dealt(cards=CARDS), ".....\n.....\n..N..\nOOO..\nOO...")
    placed = fold(decided(state, Place(1, 18, state.version, BLUE)), state)
    after = fold(decided(placed, Move(1, 22, placed.version, 17)), placed)
    assert after.ended
    assert refused(after, Place(2, 0, after.version, 0)).problem is Problem.CONFLICT
    assert refused(after, Move(2, 0, after.version, 1)).reason == "The game is over."
