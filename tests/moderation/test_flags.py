"""Flags: F1 (who may flag), F2 (a flag changes nothing in the game)."""

import random

import pytest

from games import store
from games.constellate.game import GAME
from games.constellate.rules import Name, TouchCard
from games.models import Event
from moderation.models import Flag
from moderation.services import FlagRefusal, flag_constellation


def _played_game():
    game, outcome = GAME.start(players=4, rng=random.Random(5))
    state = outcome.state
    gazer = 1 if state.crew.value == "gold" else 2
    spotter = 3 if state.crew.value == "gold" else 4
    state = GAME.act(game.pk, Name(gazer, "ocean", 2, state.version)).state
    star = state.dark_stars(state.crew)[0]
    state = GAME.act(game.pk, TouchCard(spotter, star, state.version)).state
    return game, state


def _events(game):
    return list(Event.objects.filter(game=game).values_list("seq", "kind", "payload"))


@pytest.mark.django_db
@pytest.mark.parametrize("seat", [1, 2, 3, 4], ids=["stargazer", "rival", "spotter", "rival2"])
def test_every_seated_player_of_either_crew_may_flag_F1(seat):
    game, _ = _played_game()
    flag = flag_constellation(game_id=game.pk, seat=seat, name="Ann", constellation=1)
    assert (flag.word, flag.flagger_seat, flag.status) == ("OCEAN", seat, Flag.Status.OPEN)


@pytest.mark.django_db
@pytest.mark.parametrize("seat", [None, 0, 5])
def test_spectators_and_strangers_cannot_flag_F1(seat):
    game, _ = _played_game()
    with pytest.raises(FlagRefusal) as refusal:
        flag_constellation(game_id=game.pk, seat=seat, name="Eve", constellation=1)
    assert refusal.value.status == 403
    assert not Flag.objects.exists()


@pytest.mark.django_db
def test_one_flag_per_player_per_constellation_F1():
    game, _ = _played_game()
    flag_constellation(game_id=game.pk, seat=3, name="Cy", constellation=1)
    with pytest.raises(FlagRefusal) as refusal:
        flag_constellation(game_id=game.pk, seat=3, name="Cy", constellation=1, reason="again")
    assert refusal.value.message == "You have already flagged this constellation."
    assert Flag.objects.count() == 1


@pytest.mark.django_db
def test_a_flag_takes_no_word_back_and_undoes_no_touch_F2():
    game, state = _played_game()
    before = _events(game)
    flag_constellation(
        game_id=game.pk, seat=2, name="Bo", constellation=1, kind="names_picture", reason="hm"
    )
    assert _events(game) == before
    store.forget_cached_states()
    game.refresh_from_db()
    assert store.state_of(game) == state
    assert state.constellations[0].word == "OCEAN" and state.lit


@pytest.mark.django_db
def test_a_flag_on_a_missing_constellation_or_with_a_long_reason_is_refused_F1():
    game, _ = _played_game()
    with pytest.raises(FlagRefusal):
        flag_constellation(game_id=game.pk, seat=1, name="A", constellation=2)
    with pytest.raises(FlagRefusal):
        flag_constellation(game_id=game.pk, seat=1, name="A", constellation=1, reason="x" * 201)
    assert not Flag.objects.exists()
