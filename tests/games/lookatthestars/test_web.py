"""Look at the Stars in real rooms made through the lobby, over the same requests a browser
sends: the draft's taps (GET preview/draft, U1), Confirm (POST play/submit, R6), Pass (POST
play/pass, R7), the clock (T3), the host's options (S3, D6) and the computer player. What
each seat and spectator receives is read as HTML: nobody sees a card of the night before it
is revealed (V4), nor another seat's drawing before its round closes (V3)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from games.lookatthestars import drafting, options
from games.lookatthestars.game import GAME
from games.lookatthestars.rules import cards, robot
from games.lookatthestars.rules.model import ROUNDS, Drawing, State
from games.models import Event
from lobby.models import Room
from tests.support.highest.fixtures import Clock, frozen_clock  # noqa: F401 (a fixture)
from tests.web.rooms import create_room, join, notice, page, post, sit

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Ada", "Bo", "Cy")


class Room3:
    """A room of Look at the Stars: seats 1..n seated (seat 1 hosts) and a spectator."""

    def __init__(self, players: int = 2, *, step: str | None = None, start: bool = True) -> None:
        self.host = Client()
        self.room: Room = create_room(self.host, "lookatthestars")
        self.seats = {1: self.host, **{n: Client() for n in range(2, players + 1)}}
        for n, client in self.seats.items():
            assert join(client, self.room, NAMES[n - 1]).status_code == 200
            assert sit(client, self.room, n).status_code == 200
        self.spectator = Client()
        join(self.spectator, self.room, "Watcher")
        if step:
            assert post(self.host, self.room, "clock", step=step).status_code == 200
        if start:
            assert post(self.host, self.room, "start").status_code == 200

    @property
    def game_id(self) -> int:
        self.room.refresh_from_db()
        assert self.room.game_id is not None
        return self.room.game_id

    def state(self) -> State:
        return GAME.current(self.game_id)

    def page(self, seat: int | None) -> str:
        return page(self.seats[seat] if seat else self.spectator, self.room)

    def tap(self, seat: int, **fields: object):
        data = {"round": self.state().round_number, **fields}
        return self.seats[seat].get(f"/r/{self.room.code}/preview/draft", data, **HX)

    def submit(self, seat: int, drawing: Drawing, round_: int | None = None):
        """Confirm with this drawing, or Pass when it is the drawing "nothing" (U8)."""
        number = self.state().round_number if round_ is None else round_
        if drawing == Drawing():
            return post(self.seats[seat], self.room, "play/pass", round=number)
        fields = drafting.fields(draft_of(drawing))
        return post(self.seats[seat], self.room, "play/submit", round=number, **fields)

    def robot_drawing(self, seat: int) -> Drawing:
        return robot.move(self.state(), seat).drawing

    def events(self) -> int:
        return Event.objects.filter(game_id=self.game_id).count()


def draft_of(drawing: Drawing) -> drafting.Draft:
    """The draft a browser would hold for this whole drawing."""
    shooting: tuple = ()
    if drawing.shooting_star is not None:
        head = drawing.shooting_star.head
        stars = drawing.shooting_star.stars
        shooting = tuple(sorted(stars, key=lambda p: max(abs(p[0] - head[0]), abs(p[1] - head[1]))))
    return drafting.Draft(
        lines=tuple(sorted(drawing.lines)), shooting=shooting, resolutions=drawing.resolutions
    )


def unrevealed(state: State) -> tuple[str, ...]:
    return tuple(card for card in state.night[state.round_number :] if card not in state.cards)


def mentions(html: str, card: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){card}(?![0-9])", html) is not None


def test_s2_s4_each_seat_sees_who_it_is_and_its_own_design_and_a_spectator_watches():
    table = Room3(2)
    state = table.state()
    for seat in (1, 2):
        html = table.page(seat)
        design = state.designs[seat - 1].name
        assert f"You: {NAMES[seat - 1]}, Seat {seat} · {design} · 0 points" in html
        assert "Your turn: draw the card&#x27;s shape" in html or "draw a shooting star" in html
    assert "You are watching" in table.page(None)
    assert 'id="lats-draft"' not in table.page(None)  # no drawing area for a spectator


def test_v4_no_page_holds_a_card_of_the_night_before_it_is_revealed():
    table = Room3(3)
    for _ in range(3):  # three rounds: every page, every round
        state = table.state()
        hidden = unrevealed(state)
        assert len(hidden) == ROUNDS - state.round_number
        for seat in (1, 2, 3, None):
            html = table.page(seat)
            # A revealed card's own words may name the card it mirrors ("mirror of S05"):
            # the deck's data, public, saying nothing of the night. Only they are masked.
            for card in state.cards:
                html = html.replace(escape(cards.card_text(card)), "")
            assert not [card for card in hidden if mentions(html, card)], seat
            # the unused 12 cards of the deck are never sent either (V4)
            unused = set(cards.NIGHT_DECK) - set(state.night)
            assert not [card for card in unused if mentions(html, card)], seat
        for seat in (1, 2, 3):
            assert table.submit(seat, table.robot_drawing(seat)).status_code == 200


def test_v3_a_submission_is_shown_to_its_seat_only_until_the_round_closes():
    table = Room3(2)
    drawing = table.robot_drawing(1)
    while drawing.passed:  # a round where seat 1 draws something
        table.submit(1, drawing)
        table.submit(2, table.robot_drawing(2))
        drawing = table.robot_drawing(1)
    others_before = {seat: table.page(seat) for seat in (2, None)}
    assert table.submit(1, drawing).status_code == 200
    mine = table.page(1)
    assert "Your board, with this round&#x27;s drawing" in mine
    assert "Done — waiting for 1 other: Bo." in mine
    for seat, before in others_before.items():
        after = table.page(seat)
        board_of_seat_1 = re.compile(r'<figure[^>]*id="lats-board-seat-1".*?</figure>', re.S)
        assert board_of_seat_1.search(after).group(0) == board_of_seat_1.search(before).group(0)
        assert "Ada" in after and "✓ done" in after  # only that seat 1 is done
    # The round closes on seat 2's submission: now everyone sees seat 1's drawing (V2).
    table.submit(2, table.robot_drawing(2))
    state = table.state()
    assert state.boards[0].drawn or state.boards[0].shooting_stars


def test_u1_a_tap_answers_with_the_drawing_and_records_nothing():
    table = Room3(2)
    before = table.events()
    state = table.state()
    board = state.boards[0]
    star = next(
        f"{'abcdefghij'[c]}{r}" for (c, r) in sorted(board.design.planets)
    )  # a planet: a tap there is refused with the rules' reason
    response = table.tap(1, at=star)
    assert response.status_code == 200
    assert f"{star} holds a planet" in response.content.decode()
    response = table.tap(1, at="e5" if board.is_star((4, 5)) else "a4")
    html = response.content.decode()
    assert "selected" in html and 'aria-pressed="true"' in html
    assert table.events() == before


def test_u2_two_neighbouring_taps_draw_a_dashed_new_line_and_confirm_waits_for_the_shape():
    table = Room3(1)
    state = table.state()
    while cards.is_shooting_star(state.card or ""):
        table.submit(1, table.robot_drawing(1))
        state = table.state()
    fields = drafting.fields(drafting.Draft(selected=(0, 4)))
    response = table.tap(1, at="a5", **fields)
    html = response.content.decode()
    assert "1 of 2 lines" in html
    assert 'class="s-draft"' in html or "s-draft" in html
    assert re.search(r'class="confirm"[^>]*disabled', html)


def test_r6_the_round_closes_on_the_last_submission_and_the_next_card_is_revealed():
    table = Room3(2)
    first = table.state()
    assert table.submit(1, table.robot_drawing(1)).status_code == 200
    assert table.state().round_number == 1
    response = table.submit(1, Drawing())
    assert response.status_code == 409
    assert "already" in notice(response).lower()
    assert table.submit(2, table.robot_drawing(2)).status_code == 200
    after = table.state()
    assert after.round_number == 2 and after.cards[0] == first.cards[0]
    assert "Round 1 (" in table.page(None)  # the log line, for everyone


def test_r7_u8_a_pass_draws_nothing():
    table = Room3(1)
    before = table.state().boards[0]
    response = post(table.host, table.room, "play/pass", round=1)
    assert response.status_code == 200
    state = table.state()
    assert state.round_number == 2 and state.boards[0] == before


def test_r6_a_refused_submission_says_why_and_changes_nothing():
    table = Room3(1)
    state = table.state()
    while cards.is_shooting_star(state.card or ""):
        table.submit(1, Drawing())
        state = table.state()
    before = table.events()
    # one line only: a partial shape is refused (L7)
    response = table.submit(1, Drawing(lines=frozenset({((0, 4), (0, 5))})))
    assert response.status_code == 400
    assert notice(response)
    assert table.events() == before


def test_t3_the_clock_passes_every_seat_still_drawing(frozen_clock: Clock):  # noqa: F811
    table = Room3(2, step="60")
    table.submit(1, table.robot_drawing(1))
    frozen_clock.advance(61)
    state = table.state()
    assert state.round_number == 2
    assert state.closed[0].passed_by_clock == (2,)
    assert "the clock passed Bo" in table.page(None)


def test_s3_d6_the_hosts_cards_are_dealt_and_the_form_offers_exactly_d6s_choices():
    table = Room3(1, start=False)
    form = table.page(1)
    offered = re.findall(r'<option value="([^"]+)"', form)
    assert offered == [*cards.POINT_OPTIONS, *cards.POWER_OPTIONS]
    response = post(table.host, table.room, "options", point_card="B7", power_card="nova")
    assert response.status_code == 200
    assert "Point card: B7, Bow. Power card: Nova." in table.page(None)  # for the guests
    response = post(table.host, table.room, "options", point_card="B11", power_card="nova")
    assert response.status_code == 400
    assert notice(response).startswith("Choose the point card")
    post(table.host, table.room, "start")
    state = table.state()
    assert state.point_card == "B7" and state.power.value == "nova"
    assert options.text({"point_card": "random", "power_card": "random-any"}) == (
        "Point card: Random, drawn at the start. Power card: Random, Basic or "
        "Experienced, drawn at the start."
    )


@pytest.mark.django_db(transaction=True)
def test_a_computer_plays_a_whole_night_by_itself_and_the_end_shows_everything(settings):
    settings.CONSTELLATE_COMPUTERS_INLINE = True
    host = Client()
    room = create_room(host, "lookatthestars")
    join(host, room, "Ada")
    assert post(host, room, "computer", seat=1).status_code == 200
    assert post(host, room, "start").status_code == 200
    room.refresh_from_db()
    state = GAME.current(room.game_id)
    assert state.ended and len(state.closed) == ROUNDS
    html = page(host, room)
    assert f"Solo: {state.scores[0].total} point" in html  # E6
    assert "The 18 cards of the night" in html  # E7
    night = re.search(r'<ol class="lats-night-cards">(.*?)</ol>', html, re.S)
    assert night is not None and night.group(1).count("<li>") == ROUNDS
    shapes = [card for card in state.night if not cards.is_shooting_star(card)]
    assert all(f"Shape {card}" in night.group(1) for card in shapes)
    assert "Vega (computer)" in html


def test_s3_before_the_start_the_room_names_the_game_and_its_default_cards():
    table = Room3(1, start=False)
    html = table.page(None)  # a guest's page: the host has the form instead
    assert "Look at the Stars" in html
    assert "Point card: Beginner (B3, Cross). Power card: Beginner (Line)." in html


@pytest.mark.django_db(transaction=True)
def test_v6_the_replay_steps_through_closed_rounds_only(settings):
    """V6: the history shows closed rounds; a step inside an open round shows no drawing."""
    settings.CONSTELLATE_COMPUTERS_INLINE = True
    host = Client()
    room = create_room(host, "lookatthestars")
    join(host, room, "Ada")
    post(host, room, "computer", seat=1)
    post(host, room, "start")
    response = host.get(f"/r/{room.code}/history/1/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 18 closed" in html  # the jumps: one per closed round
    response = host.get(f"/r/{room.code}/history/1/", {"step": 3})  # dealt, revealed, submitted
    html = response.content.decode()
    assert response.status_code == 200
    assert "submitted a drawing" in html and "lats-drafting" not in html
    assert 'id="lats-board-seat-1"' in html
