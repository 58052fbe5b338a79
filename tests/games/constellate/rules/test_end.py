"""The end of the game: E1-E2, and what can no longer happen."""

from games.constellate.rules import Crew, Expire, Finish, Name, Stop, TouchCard, view_for
from tests.support.sky import HAZE, NOW, before_dawn, name, refused, rivalry, touch


def _gold_wins():
    state = rivalry()
    state = touch(touch(touch(touch(name(state, number=4), 0), 1), 2), 3)
    state = touch(name(state, number=1), HAZE[0])
    return touch(touch(touch(touch(name(state, number=4), 4), 5), 6), 7)


def test_the_game_ends_on_a_win_E1():
    state = _gold_wins()
    assert state.ended and (state.winner, state.finish) == (Crew.GOLD, Finish.LAST_STAR)


def test_the_game_ends_on_dawn_E1():
    state = before_dawn()
    for haze in HAZE[:7]:
        state = touch(name(state, number=1), haze)
    assert state.ended and state.finish is Finish.DAWN and state.winner is None


def test_nothing_more_can_happen_after_the_end_E1():
    state = _gold_wins()
    for command in (
        Name(2, "ocean", 1, state.version),
        TouchCard(4, 10, state.version),
        Stop(4, state.version),
        Expire(state.step_started),
    ):
        refusal = refused(state, command, now=NOW)
        assert "over" in refusal.reason or "not running" in refusal.reason


def test_at_the_end_everyone_sees_the_whole_sky_with_the_result_E2():
    state = _gold_wins()
    for seat in (1, 2, 3, 4, None):
        view = view_for(state, seat)
        assert view.sees_key and all(card.key is not None for card in view.cards)
        assert (view.winner, view.finish) == (Crew.GOLD, Finish.LAST_STAR)
