"""Under One Sky through the Django test client: the home page's game choice, the host's
chart and compass, exactly two seats, a whole game to its end over htmx POSTs, every
refusal, the replay and the rematch, on the same lobby, store, pushes and clock as
Constellate."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client

from games.models import Event
from games.underonesky.game import GAME
from games.underonesky.rules import CARDS, Compass, Place, Step, Tile, legal_moves
from lobby.models import Room
from tests.web.rooms import HX, join, page, post, sit
from tests.web.rooms import notice as raw_notice
from tests.web.rooms import seat_table as constellate_table
from tests.web.uos_rooms import KIND, card_markup, create_room, seat_table

pytestmark = pytest.mark.django_db


def notice(response) -> str:
    return unescape(raw_notice(response))


# -- the lobby ------------------------------------------------------------------------------


def test_it_offers_both_games_on_the_home_page():
    html = Client().get("/").content.decode()
    assert 'name="kind" value="constellate" checked' in html
    assert 'name="kind" value="underonesky"' in html
    assert "Under One Sky" in html and "2 players" in html


def test_it_creates_a_room_for_the_chosen_game_with_the_recommended_chart():
    room = create_room(Client())
    assert room.kind == KIND
    assert room.options == {"chart": "orange", "compass": "N"}
    assert Client().post("/rooms").status_code == 302  # no choice: Constellate, as before
    assert Room.objects.order_by("-pk").first().kind == "constellate"


def test_it_refuses_a_game_it_does_not_host():
    before = Room.objects.count()
    response = Client().post("/rooms", {"kind": "chess"})
    assert response.status_code == 400
    assert "Choose one of the games" in response.content.decode()
    assert Room.objects.count() == before


def test_the_host_picks_the_chart_and_its_compass_and_everyone_reads_it():
    table = seat_table(start=False)
    assert post(table.host, table.room, "options", chart="yellow", compass="E").status_code == 200
    assert table.refresh().options == {"chart": "yellow", "compass": "E"}
    host_page = table.page(1)
    assert 'name="chart" value="yellow" checked' in host_page
    assert 'name="compass" value="E" checked' in host_page
    guest_page = table.page(2)
    assert 'name="chart"' not in guest_page
    assert "The yellow chart" in guest_page and "north points right" in guest_page


def test_only_the_host_sets_the_options_and_only_to_what_the_game_offers():
    table = seat_table(start=False)
    response = post(table.seats[2], table.room, "options", chart="blue", compass="N")
    assert response.status_code == 403 and "Only the host" in notice(response)
    response = post(table.host, table.room, "options", chart="green", compass="N")
    assert response.status_code == 400 and "blue, orange or yellow" in notice(response)
    response = post(table.host, table.room, "options", chart="blue", compass="NE")
    assert response.status_code == 400 and "up, right, down or left" in notice(response)
    assert table.refresh().options == {"chart": "orange", "compass": "N"}
    table.start()
    response = post(table.host, table.room, "options", chart="blue", compass="N")
    assert response.status_code == 409 and "between games" in notice(response)


def test_it_seats_exactly_two():
    host = Client()
    room = create_room(host)
    join(host, room, "Ada")
    assert sit(host, room, 1).status_code == 200
    third = Client()
    join(third, room, "Cy")
    response = sit(third, room, 3)
    assert response.status_code == 400 and "1 to 2" in notice(response)
    response = post(host, room, "start")
    assert response.status_code == 409
    assert notice(response) == "Under One Sky needs exactly 2 players."


def test_the_game_starts_with_the_hosts_chart_and_compass_and_a_server_drawn_deal():
    table = seat_table(chart="blue", compass="W", step="60")
    state = table.state()
    assert (state.chart, state.compass) == (Tile.BLUE, Compass.W)
    assert {c.id for c in (*state.cards, state.face_down)} == {"blue-1", "blue-2", "blue-3"}
    assert state.step is Step.PLACING and state.seat in (1, 2) and len(state.face_up) == 3
    assert state.deadline is not None
    assert Event.objects.filter(game_id=table.room.game_id).count() == 2


# -- the board ------------------------------------------------------------------------------


def test_the_page_shows_your_card_the_compass_the_tiles_the_stack_and_whose_turn():
    table = seat_table(compass="E")
    state = table.state()
    mover, other = state.seat, 3 - state.seat
    html = table.page(mover)
    mine = state.card_of(mover)
    (figure,) = card_markup(html)
    assert "Your constellation" in figure and mine.name in figure
    assert 'class="compass compass-E"' in html and "north points right" in html
    assert html.count('class="tray-tile tile-') == 3 and "Blind tile" in html
    assert "Stack: 24 tiles" in html
    assert "Your turn (turn 1)" in html
    assert "Pick a tile beside the board" in html  # the step hint
    assert html.count('class="space target"') == 24  # every empty space is a legal target
    waiting = table.page(other)
    assert (
        f"{table.names[mover]}&#x27;s turn" in waiting or f"{table.names[mover]}'s turn" in waiting
    )
    assert f"{table.names[mover]} is placing a tile." in waiting
    assert 'class="space target"' not in waiting and 'name="tile"' not in waiting


def test_each_colour_has_its_own_shape_as_well_as_its_colour():
    table = seat_table()
    html = table.page(table.state().seat)
    for colour, glyph in (("blue", "◆"), ("orange", "▲"), ("yellow", "●")):
        for tile in re.findall(rf'<label class="tray-tile tile-{colour}">.*?</label>', html, re.S):
            assert glyph in tile and colour.capitalize() in tile
    assert "✦" in html and "the North Star" in html


def _where(state, colour, *, moves: bool):
    """An empty space where a tile of this colour would (or would not) have a move."""
    for space in state.empty_spaces():
        board = list(state.board)
        board[space] = colour
        if bool(legal_moves(tuple(board), space)) is moves:
            return space
    return None


@pytest.mark.parametrize(
    ("colour", "way"), [(Tile.BLUE, "up, down, left or right"), (Tile.ORANGE, "diagonally")]
)
def test_a_blue_or_orange_tile_asks_for_its_move_and_highlights_where_tiles_can_go(colour, way):
    table = seat_table()
    rng = random.Random(5)
    while True:  # play on until the player has this colour and a move to make with it
        state = table.state()
        space = _where(state, colour, moves=True)
        if colour in state.face_up and space is not None:
            break
        if state.ended or not state.empty_spaces():  # the deal is random: rarely, never
            pytest.fail("never a tile of this colour with a move")
        table.play_a_turn(rng)
    assert table.place(space, str(state.face_up.index(colour))).status_code == 200
    acting = table.state()
    assert acting.step is Step.ACTING and acting.seat == state.seat
    html = table.page(state.seat)
    assert f"Now move a tile {way}" in html
    moves = legal_moves(acting.board, acting.placed)
    origins = set(re.findall(r'name="origin" value="(\d+)"', html))
    assert origins == {str(o) for o, _ in moves}
    for origin, target in moves:
        button = re.search(rf'<button[^>]*name="target" value="{target}"[^>]*>', html).group(0)
        assert f"from-{origin}" in button
    watching = table.page(3 - state.seat)
    assert f"is moving a tile {way}" in watching and 'name="origin"' not in watching
    origin, target = moves[0]
    response = table.move(target, origin)
    assert response.status_code == 200, notice(response)
    assert table.state().turns[-2 if not table.state().ended else -1].action.value == "moved"


def test_an_action_with_no_legal_move_is_skipped_and_the_game_says_so():
    table = seat_table()
    rng = random.Random(6)
    for _ in range(12):
        state = table.state()
        pick = next((c for c in (Tile.BLUE, Tile.ORANGE) if c in state.face_up), None)
        if pick is not None and _where(state, pick, moves=False) is not None:
            break
        table.play_a_turn(rng)
    else:
        pytest.fail("never a blue or orange tile to place")
    space = _where(state, pick, moves=False)
    assert table.place(space, str(state.face_up.index(pick))).status_code == 200
    after = table.state()
    assert after.turns[-2].action.value == "skipped"
    assert "so its action was skipped" in table.page(after.seat)


def test_a_whole_game_to_the_end_then_the_replay_and_a_rematch():
    table = seat_table(chart="orange", compass="S")
    rng = random.Random(3)
    for _ in range(30):
        if table.state().ended:
            break
        table.play_a_turn(rng)
    state = table.state()
    assert state.ended
    for seat in (1, 2, None):
        html = table.page(seat)
        assert "Replay this game step by step" in html
        assert len(card_markup(html)) == 3  # every card is shown at the end
        assert 'class="space target"' not in html
    replay = table.host.get(f"/r/{table.room.code}/history/1/")
    assert replay.status_code == 200
    text = replay.content.decode()
    assert f"Step {state.version} of {state.version}" in text and "Jump to a turn" in text
    first = table.host.get(f"/r/{table.room.code}/history/1/?step=1").content.decode()
    assert "The table was set: The orange chart, its north pointing down" in first
    assert post(table.host, table.room, "start").status_code == 200  # the rematch
    table.refresh()
    rematch = table.state()
    assert not rematch.ended and rematch.version == 2
    assert table.room.matches.count() == 2


def test_moves_through_the_forms_land_as_events_and_answer_with_the_board():
    table = seat_table()
    before = Event.objects.count()
    response = table.place(0, "0")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="board"' in html and 'hx-swap-oob="true"' in html
    assert Event.objects.count() > before


# -- refusals -------------------------------------------------------------------------------


def test_every_refusal_says_why_and_changes_nothing():
    table = seat_table()
    state = table.state()
    mover, other = state.seat, 3 - state.seat
    before = Event.objects.count()
    cases = [
        (table.place(0, "0", seat=other), 403, "other player's turn"),
        (table.place(12, "0"), 409, "never share a space"),
        (table.place(0, "0", version=state.version - 1), 409, "changed a moment ago"),
        (table.place(0, ""), 400, "Pick a tile"),
        (table.place(0, "7"), 400, "The tile must be from 0 to 2."),
        (table.place(25, "0"), 400, "The space must be from 0 to 24."),
        (table.place("x", "0"), 400, "The space must be a whole number written with the digits"),
        (table.move(1, 0), 409, "Place a tile first."),
        (
            post(table.spectator, table.room, "play/place", space=0, tile=0, version=2),
            403,
            "seated",
        ),
    ]
    for response, status, words in cases:
        assert response.status_code == status, (words, response.content[:200])
        assert words in notice(response), notice(response)
    assert Event.objects.count() == before
    assert table.state() == state
    assert mover in (1, 2)


def test_an_under_one_sky_action_in_a_constellate_room_is_refused():
    table = constellate_table(2)
    response = post(table.host, table.room, "play/place", space=0, tile=0, version=1)
    assert response.status_code == 409 and "another game" in notice(response)
    other = seat_table()
    response = post(other.host, other.room, "play/touch", card=0, version=2)
    assert response.status_code == 409 and "another game" in notice(response)


def test_an_action_after_the_deadline_is_refused_and_the_clock_plays_the_turn():
    table = seat_table(step="60")
    state = table.state()
    late = state.deadline + timedelta(seconds=1)
    outcome = GAME.act(table.room.game_id, Place(state.seat, 0, state.version, 0), now=late)
    assert outcome.refusal.reason == "Time is up for this turn."
    placed = outcome.expired[0]
    assert placed.by_clock and placed.face_up is None
    assert outcome.state.seat != state.seat


def test_the_clock_task_expires_a_turn_once():
    table = seat_table(step="60")
    state = table.state()
    late = state.deadline + timedelta(seconds=1)
    first = GAME.expire_step(table.room.game_id, state.step_started, now=late)
    assert first.ok and first.events[0].by_clock
    again = GAME.expire_step(table.room.game_id, state.step_started, now=late)
    assert again.refusal.reason == "That turn is already over."


def test_the_rules_page_explains_the_clock_and_draws_the_nine_constellations():
    html = " ".join(Client().get("/rules/underonesky/").content.decode().split())
    assert "blind tile from the top of the stack on a random empty space" in html
    assert "a random legal move" in html
    for card in CARDS.values():
        assert card.name.replace("'", "&#x27;") in html
    assert html.count('<figure class="uos-card">') == 9


def test_pages_fetch_the_games_stylesheet_only_where_it_plays():
    uos = seat_table(start=False)
    assert "underonesky/board.css" in uos.page(1)
    constellate = constellate_table(2, start=False)
    assert "underonesky/board.css" not in page(constellate.host, constellate.room)


def test_the_tick_answers_with_the_board_for_this_viewer():
    table = seat_table(step="60")
    response = table.spectator.post(f"/r/{table.room.code}/tick", **HX)
    assert response.status_code == 200 and 'id="board"' in response.content.decode()


def test_there_is_nothing_to_flag_in_under_one_sky():
    table = seat_table()
    response = post(table.host, table.room, "flag", constellation=1, kind="other")
    assert response.status_code == 409 and "no words to flag" in notice(response)


def test_every_step_of_the_replay_says_what_happened():
    table = seat_table(step="60")
    rng = random.Random(17)
    while not table.state().ended:
        table.play_a_turn(rng)
    final = table.state()
    said = []
    for step in range(1, final.version + 1):
        response = table.seats[2].get(f"/r/{table.room.code}/history/1/?step={step}")
        assert response.status_code == 200
        text = unescape(response.content.decode())
        said.append(re.search(r'<p class="happened" role="status">(.*?)</p>', text, re.S)[1])
        assert 'class="space target"' not in text and 'id="countdown"' not in text
        assert len(card_markup(text)) == 3  # a replay shows every card
    assert said[0].startswith("The table was set")
    refilled = r"Turn 1: (Ada|Bo)'s turn; the tiles beside the board were refilled\."
    assert re.fullmatch(refilled, said[1])
    assert any(" placed " in line for line in said)
    assert said[-1].startswith(("A draw", "Ada wins", "Bo wins"))
