"""S3: a solo game's end screen shows the score and the seat's best earlier solo score on this
server under the same display name. The rules cannot know it: the platform finds it
(``Screens.past``, the room's ``seating.earlier_games``) for the seat's display name, in
the finished solo Observatory games started earlier with a seat under that name; the game
shown is not among them. Played through the forms a browser sends
(tests/games/observatory/web_helpers.py).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from games.definition import Earlier, EarlierAsked
from games.models import Event, Game
from games.observatory import presenters
from games.observatory.game import GAME
from games.observatory.rules.events import GameEnded
from games.observatory.rules.scoring import ScoreSheet
from lobby.models import Match, Room
from lobby.seating import earlier_games
from tests.games.observatory.web_helpers import WILD, ObsRoom, fixed_dice, rig_deal
from tests.web.rooms import join, page, post, sit
from tests.web.test_fuzz import LOOSE

pytestmark = pytest.mark.django_db
EARLIER = "Your best earlier solo score here"


@pytest.fixture(autouse=True)
def loose_limits():
    """A whole game is many requests from one browser: the rate limits are not tested here."""
    with override_settings(RATE_LIMITS=LOOSE):
        yield


def play_solo(table: ObsRoom, monkeypatch: pytest.MonkeyPatch, seed: int) -> int:
    """The host starts the room's next game, dealt from ``seed``, and seat 1 plays it to the
    end (the computer's moves sent as the page's forms): its final score."""
    rig_deal(monkeypatch, seed=seed)
    response = post(table.host, table.room, "start")
    assert response.status_code == 200, response.content[:300]
    state = table.play_until(lambda s: s.ended)
    assert state.solo
    return state.scores[0].total


def best_line(n: int) -> str:
    return f"{EARLIER}: {n} point"


def test_s3_the_end_screen_shows_the_player_s_best_earlier_solo_score(
    monkeypatch: pytest.MonkeyPatch,
):
    """S3: Ada's first solo game ends with her score and no earlier one; each later solo
    game's end screen shows the best of her earlier ones (not the game shown, not only the
    last); the spectator's page shows none."""
    fixed_dice(monkeypatch, WILD)
    table = ObsRoom(1, start=False)
    first = play_solo(table, monkeypatch, seed=1)
    html = table.page(1)
    assert f"Solo: {first} point" in html
    assert EARLIER not in html
    second = play_solo(table, monkeypatch, seed=2)
    assert best_line(first) in table.page(1)
    assert EARLIER not in table.page(None)
    third = play_solo(table, monkeypatch, seed=3)
    html = table.page(1)
    assert f"Solo: {third} point" in html
    assert best_line(max(first, second)) in html
    assert EARLIER not in table.page(None)


def test_s3_it_is_the_display_name_s_another_name_sees_none_the_same_name_elsewhere_does(
    monkeypatch: pytest.MonkeyPatch,
):
    """S3 ("under the same display name"): after Ada's solo game, Bo takes seat 1 of the same
    room and plays one: his end screen shows no earlier score, and Ada, now watching, sees
    none. A browser named Ada in another room sees Ada's best: it is the name's."""
    fixed_dice(monkeypatch, WILD)
    table = ObsRoom(1, start=False)
    ada = play_solo(table, monkeypatch, seed=1)
    assert post(table.host, table.room, "stand").status_code == 200
    bo = Client()
    assert join(bo, table.room, "Bo").status_code == 200
    assert sit(bo, table.room, 1).status_code == 200
    table.seats[1] = bo
    play_solo(table, monkeypatch, seed=2)
    assert "Solo: " in table.page(1)
    assert EARLIER not in table.page(1)
    assert EARLIER not in page(table.host, table.room)  # Ada, watching
    other = ObsRoom(1, start=False)  # its host is named Ada too, in a browser of her own
    play_solo(other, monkeypatch, seed=3)
    assert "Solo: " in other.page(1)
    assert best_line(ada) in other.page(1)


def test_s3_only_a_solo_seat_s_end_screen_asks_and_it_costs_one_query(
    monkeypatch: pytest.MonkeyPatch, django_assert_num_queries
):
    """S3: the platform is asked only for a finished solo game's seat board, in one query;
    a running game's board and the public end screen ask nothing. (Each render is given a
    state of its own: a board rendered a moment ago for the same state is reused.)"""
    fixed_dice(monkeypatch, WILD)
    table = ObsRoom(1, start=False)
    rig_deal(monkeypatch, seed=1)
    assert post(table.host, table.room, "start").status_code == 200
    game_id, names, code = table.game_id, {1: "Ada"}, table.code
    running = replace(table.state())
    with django_assert_num_queries(0):
        GAME.screens.render_board(running, "seat-1", names, code, game=game_id)
    ended = table.play_until(lambda s: s.ended)
    with django_assert_num_queries(0):
        GAME.screens.render_board(replace(ended), "public", names, code, game=game_id)
    with django_assert_num_queries(1):
        GAME.screens.render_board(replace(ended), "seat-1", names, code, game=game_id)


def test_s3_the_board_shows_the_best_of_the_earlier_scores_found(
    monkeypatch: pytest.MonkeyPatch,
):
    """S3: the presenters ask only for a solo seat's end screen and keep the best of the
    final scores the platform found (nothing found: no line)."""
    fixed_dice(monkeypatch, WILD)
    table = ObsRoom(1, start=False)
    play_solo(table, monkeypatch, seed=1)
    ended = table.state()
    assert presenters.best_solo_asked(ended, "seat-1") == EarlierAsked(seat=1, players=1)
    assert presenters.best_solo_asked(ended, "public") is None
    games = [Earlier(1, GameEnded((sheet(total),), ())) for total in (14, 21, 17)]
    board = presenters.present_with_best_solo(ended, "seat-1", {1: "Ada"}, "x", games)
    assert board.result.endswith(f"{EARLIER}: 21 points.")
    board = presenters.present_with_best_solo(ended, "seat-1", {1: "Ada"}, "x", [])
    assert EARLIER not in board.result


# -- the room's finder, on rows made by hand ------------------------------------------------------


def sheet(total: int) -> ScoreSheet:
    return ScoreSheet(
        cards=total,
        asterisms=0,
        funding=0,
        unused=0,
        total=total,
        asterism_count=0,
        unused_stars=0,
        completed=1,
    )


def finished(room: Room, bound: dict[int, str], totals: tuple[int, ...], *, ended=True) -> Game:
    """A game of Observatory whose only event is its end, with ``bound`` as its seats'
    display names (and browser identities)."""
    now = timezone.now()
    game = Game.objects.create(kind="observatory", version=1, ended_at=now if ended else None)
    kind, payload = GAME.codec.encode(GameEnded(tuple(sheet(t) for t in totals), ()))
    Event.objects.create(game=game, seq=1, kind=kind, payload=payload, created_at=now)
    Match.objects.create(
        room=room,
        game=game,
        number=room.matches.count() + 1,
        seats={str(n): who for n, who in bound.items()},
        bound={str(n): who for n, who in bound.items()},
        held=sorted(set(bound.values())),
    )
    return game


def found(game: Game, asked: EarlierAsked) -> list[tuple[int, int]]:
    return sorted(
        (e.seat, e.last_event.scores[e.seat - 1].total)
        for e in earlier_games(game.pk, asked)
        if isinstance(e.last_event, GameEnded)
    )


def test_s3_the_finder_reads_the_seat_s_name_the_seat_count_and_only_earlier_ends():
    """S3: for the display name of the asked seat: the earlier finished games with exactly
    the asked number of seats, each with the seat held under that name and its final
    scores; not a game still running, not one started later, not another name's, and
    nothing for a game no room plays."""
    room = Room.objects.create(code="s3-finder", kind="observatory", host="ada")
    finished(room, {1: "ada"}, (11,))
    finished(room, {1: "ada"}, (30,), ended=False)  # still running
    finished(room, {1: "bo"}, (40,))
    finished(room, {1: "bo", 2: "ada"}, (50, 12))
    shown = finished(room, {1: "ada"}, (13,))
    finished(room, {1: "ada"}, (60,))  # started later
    assert found(shown, EarlierAsked(seat=1, players=1)) == [(1, 11)]
    assert found(shown, EarlierAsked(seat=1, players=2)) == [(2, 12)]
    alone = Game.objects.create(kind="observatory", version=0)
    assert found(alone, EarlierAsked(seat=1, players=1)) == []
