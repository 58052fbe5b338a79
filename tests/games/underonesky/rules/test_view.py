"""Who may see what: your card is yours; the other player's and the face-down one stay
hidden until the end; the stack's order is nobody's."""

from games.underonesky.rules import CARDS, Compass, Move, Place, fold, view_for
from tests.support.uos import arranged, dealt, decided

CARDS_DEALT = ("orange-1", "orange-2", "orange-3")


def test_each_player_sees_only_their_own_card():
    state = dealt(cards=CARDS_DEALT)
    mine = view_for(state, 1)
    assert [c.card for c in mine.cards] == [CARDS["orange-1"]]
    theirs = view_for(state, 2)
    assert [c.card for c in theirs.cards] == [CARDS["orange-2"]]
    assert view_for(state, None).cards == ()


def test_nobody_sees_the_stacks_order_only_its_count():
    state = dealt()
    view = view_for(state, 1)
    assert view.stack_count == 24
    assert not hasattr(view, "stack")


def test_every_card_is_shown_at_the_end():
    state = arranged(dealt(cards=CARDS_DEALT), ".....\n.....\n..N..\nOOO..\nOO...")
    state = fold(decided(state, Place(1, 18, state.version, 1)), state)
    state = fold(decided(state, Move(1, 22, state.version, 17)), state)
    assert state.ended
    for seat in (1, 2, None):
        shown = [c.card.id for c in view_for(state, seat).cards]
        assert shown == ["orange-1", "orange-2", "orange-3"]


def test_the_card_is_drawn_turned_to_the_chart():
    state = dealt(cards=CARDS_DEALT, compass=Compass.S)
    (card,) = view_for(state, 1).cards
    assert card.shape == ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2))  # **. / *** upside down


def test_only_the_player_whose_turn_it_is_gets_targets():
    state = dealt()
    assert len(view_for(state, 1).targets) == 24
    assert view_for(state, 2).targets == () and view_for(state, None).targets == ()
