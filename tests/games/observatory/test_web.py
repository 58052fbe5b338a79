"""Observatory in real rooms made through the lobby, over the requests a browser sends: the
host creates the room, people join and sit (or the host seats a computer) and the host
starts; the setup choice's checkboxes (POST play/choose, G3); every tap of the plan strip
(GET preview/plan, U9: nothing recorded); Submit (POST play/submit, U1, U2); the draft's
buttons (POST play/pick, G5, G6); the clock (T3, T5); whole games to the end screen (E5,
E6). The forms sent are read out of the pages the server sent, wherever a page has them."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.test import override_settings
from django.utils.html import escape

from games.models import Event
from games.observatory import plan
from games.observatory.rules.deck import CARDS, LARGE, SMALL
from games.observatory.rules.model import Phase, Source, State
from games.observatory.rules.sheet import Dice
from games.observatory.rules.sheet_data import NIGHTS, Track, sector_spaces
from games.observatory.rules.steps import PairPlot, ResearchDie, ResearchFill, ShootingPlot
from tests.games.observatory.web_helpers import (
    WILD,
    ObsRoom,
    buttons,
    drafting,
    fixed_dice,
    hidden,
    inputs,
    mentions,
    named_cards,
    plan_said,
    rig_deal,
    submit_button,
)
from tests.support.highest.fixtures import Clock, frozen_clock  # noqa: F401 (a fixture)
from tests.support.highest.rooms import normal
from tests.web.rooms import notice, post
from tests.web.test_fuzz import LOOSE

pytestmark = pytest.mark.django_db
ROLL = Dice((3, 4, 5), 6)  # no wild: the pair of a research die 3 is (4, 5)
STAR = re.compile(r'class="obs-star[" ]')  # a star drawn on a map (not the stars' group)
READY_ADA = re.compile(r'class="obs-ready-seat ready"><span[^>]*>●</span><span[^>]*>Ada<')


@pytest.fixture(autouse=True)
def loose_limits():
    """A whole game is hundreds of requests from one browser: the rate limits are not what
    is tested here."""
    with override_settings(RATE_LIMITS=LOOSE):
        yield


def turn_one(monkeypatch: pytest.MonkeyPatch, roll: Dice = ROLL) -> ObsRoom:
    """Two seats (Ada first player, N3) dealt in file order, each keeping its first four:
    Night 1's first turn is open, rolled ``roll``."""
    rig_deal(monkeypatch, large=LARGE, small=SMALL, first_player=1)
    fixed_dice(monkeypatch, roll)
    table = ObsRoom(2)
    for seat in (1, 2):
        hand = table.state().hands[seat - 1]
        assert table.choose(seat, hand[:4]).status_code == 200
    state = table.state()
    assert state.phase is Phase.TURN and state.dice == roll and state.active == 1
    return table


def ticked(html: str) -> dict[str, str]:
    """The choice's checkboxes ticked on this page: name -> card id."""
    return {
        i["name"]: i["value"]
        for i in inputs(html)
        if i.get("type") == "checkbox" and i["name"].startswith("keep-") and "checked" in i
    }


def boxes(html: str) -> dict[str, str]:
    return {
        i["name"]: i["value"]
        for i in inputs(html)
        if i.get("type") == "checkbox" and i["name"].startswith("keep-")
    }


# -- the room and the setup choice (G2, G3) -------------------------------------------------------


def test_g2_g3_each_seat_is_offered_its_own_six_cards_and_the_spectator_none():
    """G2, G3, V2: after the host starts, each seat's page has the choice form: six
    checkboxes keep-1..keep-6 carrying its own dealt cards in dealt order (3 Large, 3
    Small); the spectator's page has no form and no dealt card."""
    table = ObsRoom(2)
    state = table.state()
    assert state.phase is Phase.CHOICE
    for seat in (1, 2):
        html = table.page(seat)
        assert "Setup choice · keep 4 of 6" in html
        assert 'hx-post="play/choose"' in html and hidden(html, "round") == "1"
        hand = state.hands[seat - 1]
        assert boxes(html) == {f"keep-{n}": card for n, card in enumerate(hand, start=1)}
        assert [CARDS[c].size for c in hand] == ["large"] * 3 + ["small"] * 3
        assert f"You: {table.names[seat]}, Seat {seat} · 0 points" in html
    spectator = table.page(None)
    assert "You are watching" in spectator and "play/choose" not in spectator
    assert not [c for hand in state.hands for c in hand if mentions(spectator, c)]


def test_g3_the_boxes_a_browser_ticks_are_the_goals_kept():
    """G3, G4, U3: the page's own form, with two boxes ticked differently from the clock's
    defaults, is accepted; the seat sees its four marked kept and waits for the other; once
    both chose, the kept four are each seat's goals and the Night Sky is face up."""
    table = ObsRoom(2)
    html = table.page(1)
    offered = boxes(html)
    defaults = ticked(html)
    assert len(defaults) == 4  # T5's four are ticked to start with
    mine = {name: offered[name] for name in ("keep-3", "keep-4", "keep-5", "keep-6")}
    assert mine != defaults
    response = post(table.host, table.room, "play/choose", round=hidden(html, "round"), **mine)
    assert response.status_code == 200, notice(response)
    html = table.page(1)
    assert html.count("✓ you keep it") == 4
    assert "Ready — waiting for 1 player: Bo." in html
    assert "play/choose" not in html  # U3: final
    assert READY_ADA.search(table.page(2)) and READY_ADA.search(table.page(None))
    theirs = table.page(2)
    response = post(table.seats[2], table.room, "play/choose", round=1, **ticked(theirs))
    assert response.status_code == 200
    state = table.state()
    assert state.phase is Phase.TURN
    assert state.sheet(1).goals == tuple(mine.values())
    assert state.sheet(2).goals == tuple(ticked(theirs).values())
    public = table.page(None)
    for card in (*state.sky_large, *state.sky_small, *mine.values()):
        assert card is not None and escape(CARDS[card].name) in public
    assert f"Night 1/{NIGHTS[2]} · turn 1/2" in public


@pytest.mark.parametrize(
    ("boxes_sent", "says"),
    [
        ((1, 2, 3), "Keep exactly 4 of your 6 cards: 3 are ticked."),
        ((1, 2, 3, 4, 5), "Keep exactly 4 of your 6 cards: 5 are ticked."),
        ((), "Keep exactly 4 of your 6 cards: 0 are ticked."),
        ((6,), "Keep exactly 4 of your 6 cards: 1 is ticked."),
    ],
)
def test_g3_a_wrong_count_is_refused_with_its_count_and_nothing_is_appended(boxes_sent, says):
    """G3, U2: ticking other than four boxes is refused with a message saying how many are
    ticked; nothing is appended and the form is still offered."""
    table = ObsRoom(2)
    before = table.stored()
    hand = table.state().hands[0]
    form = {f"keep-{n}": hand[n - 1] for n in boxes_sent}
    response = post(table.host, table.room, "play/choose", round=1, **form)
    assert response.status_code == 400
    assert notice(response) == says
    assert table.stored() == before
    assert "play/choose" in table.page(1)


def test_g3_four_that_are_not_four_of_the_seat_s_own_six_are_refused():
    """G3: four boxes carrying another seat's card, a card twice, or a card of the deck
    nobody holds are refused by the rules with their reason; the round must be the
    choice's; nothing is appended. A choice once made is final (409)."""
    table = ObsRoom(2)
    state = table.state()
    mine, theirs = state.hands
    before = table.stored()
    nobody_s = next(card for card in LARGE if card not in (*mine, *theirs))  # still in a deck
    tries = [
        {"keep-1": mine[0], "keep-2": mine[1], "keep-3": mine[2], "keep-4": theirs[0]},
        {"keep-1": mine[0], "keep-2": mine[0], "keep-3": mine[2], "keep-4": mine[3]},
        {"keep-1": mine[0], "keep-2": mine[1], "keep-3": mine[2], "keep-6": nobody_s},
    ]
    for form in tries:
        response = post(table.host, table.room, "play/choose", round=1, **form)
        assert response.status_code == 400, form
        assert "Keep exactly 4 different cards of the 6 you were dealt (G3)" in notice(response)
    response = post(table.host, table.room, "play/choose", round=1, **{"keep-1": "Z99"})
    assert response.status_code == 400
    assert notice(response) == "There is no such constellation card."
    wrong_round = {"keep-1": mine[0], "keep-2": mine[1], "keep-3": mine[3], "keep-4": mine[4]}
    response = post(table.host, table.room, "play/choose", round=2, **wrong_round)
    assert 400 <= response.status_code < 500 and notice(response)
    assert table.stored() == before
    assert table.choose(1, mine[:4]).status_code == 200
    again = table.choose(1, mine[2:])
    assert again.status_code == 409 and "already" in notice(again).lower()
    choice = table.state().choice
    assert choice is not None and choice.submitted[1].cards == mine[:4]


def test_g2_a_first_game_deals_four_goals_and_opens_the_first_turn_at_once():
    """G2: with the host's *first game* ticked, each seat holds 1 Large and 3 Small goals
    and Night 1's first turn is open: no choice form on anyone's page."""
    table = ObsRoom(2, first_game=True)
    state = table.state()
    assert state.phase is Phase.TURN and state.dice is not None
    for seat in (1, 2):
        goals = state.sheet(seat).goals
        assert [CARDS[c].size for c in goals] == ["large", "small", "small", "small"]
        html = table.page(seat)
        assert "play/choose" not in html and f"Night 1/{NIGHTS[2]} · turn 1/2" in html
        assert 'hx-get="preview/plan"' in html  # the plan strip


# -- the plan strip (U9) and Submit (U1, U2) --------------------------------------------------


def strip_fields(html: str) -> dict[str, str]:
    """The plan strip's hidden fields, as the form in this HTML holds them."""
    return {name: hidden(html, name) for name in ("round", "plan", "mode")}


def test_u9_p2_p3_r2_p4_the_plan_strip_offers_what_the_dice_allow_and_records_nothing(
    monkeypatch: pytest.MonkeyPatch,
    frozen_clock: Clock,  # noqa: F811
):
    """U9 (and P2, P3, R2, P4 on the page): tap by tap from the page's own strip, the
    answers offer the research dice, then exactly the 8 spaces of sectors (4, 5) and (5, 4)
    for the pair (4, 5), the track spaces showing 3 for the research die 3, and the orange
    6's sector-row and sector-column; Undo and Clear take steps back; nothing is recorded:
    the game's version and events never change, and nobody else's page changes."""
    table = turn_one(monkeypatch)
    before, version = table.stored(), table.state().version
    others = [normal(table.page(who), table.room) for who in (2, None)]
    html = table.page(1)
    fields = strip_fields(html)
    assert fields["plan"] == "" and 'aria-pressed="true"' in html

    def tap(**pressed: str) -> str:
        response = table.seats[1].get(
            f"/r/{table.code}/preview/plan", {**fields, **pressed}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 200, response.content[:300]
        return response.content.decode()

    assert buttons(html, "add")[:3] == [
        ("die:0", "1st blue die (3)"),
        ("die:1", "2nd blue die (4)"),
        ("die:2", "3rd blue die (5)"),
    ]
    answer = tap(add="die:0")
    fields = strip_fields(answer)
    assert fields["plan"] == "die:0" and plan_said(answer) == "Added: research die 1."
    reach = {space for sector in ((4, 5), (5, 4)) for space in sector_spaces(sector)}
    assert {v for v, _ in buttons(answer, "add")} == {plan.word(PairPlot(s)) for s in reach}
    answer = tap(add="pair:7-9")
    fields = strip_fields(answer)
    assert fields["plan"] == "die:0 pair:7-9"
    assert "pair plot (7, 9)" in answer
    answer = tap(to="fill")
    fields = strip_fields(answer)
    threes = {(Track.DRIVE, 1), (Track.DRIVE, 2), (Track.FINDER, 2), (Track.FINDER, 3)}
    threes.add((Track.FUNDING, 2))
    assert {v for v, _ in buttons(answer, "add")} == {
        plan.word(ResearchFill(t, p)) for t, p in threes
    }
    answer = tap(to="shoot")
    fields = strip_fields(answer)
    sixes = {v for v, _ in buttons(answer, "add")}
    assert len(sixes) == 44 and plan.word(ShootingPlot((12, 1))) in sixes  # M3, P4: row or column 6
    answer = tap(add="shoot:12-1")
    fields = strip_fields(answer)
    answer = tap(undo="1")
    assert strip_fields(answer)["plan"] == "die:0 pair:7-9"
    assert plan_said(answer) == "Undone: Shooting Star plot (12, 1)."
    answer = tap(clear="1")
    assert strip_fields(answer)["plan"] == ""
    assert plan_said(answer) == "Cleared: nothing is planned."
    assert table.stored() == before and table.state().version == version
    assert [normal(table.page(who), table.room) for who in (2, None)] == others


def test_u2_u9_a_tap_that_is_not_legal_now_keeps_the_plan_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
):
    """U2, U9, R9, N7: a tap the rules refuse is not added: the answer keeps the plan and
    says the reason with its rule; the other seat may not plot with the orange die; a kind
    of step that does not exist, a step of a closed round or a spectator's tap is refused
    with a readable notice; nothing is recorded."""
    table = turn_one(monkeypatch)
    before = table.stored()
    response = table.tap(1, plan="die:0", add="finder:1-1")
    html = response.content.decode()
    assert response.status_code == 200 and hidden(html, "plan") == "die:0"
    assert "(R9)" in plan_said(html)
    response = table.tap(2, add="shoot:12-1")
    assert hidden(response.content.decode(), "plan") == ""
    assert "(P4, N7)" in plan_said(response.content.decode())
    response = table.tap(1, to="warp")
    assert response.status_code == 400 and notice(response) == "That is not a kind of step."
    response = table.tap(1, plan="die:0 hop:1")
    assert response.status_code == 400 and notice(response) == "Step 2 is not a step of a turn."
    response = table.tap(1, round=2)
    assert response.status_code == 409 and "This step is over" in notice(response)
    spectator: Any = table.spectator.get(
        f"/r/{table.code}/preview/plan", {"round": 1}, headers={"HX-Request": "true"}
    )
    assert spectator.status_code == 403 and notice(spectator)
    tampered = table.tap(1, plan="die:0 finder:1-1")  # a plan field changed by hand
    html = tampered.content.decode()
    assert "(R9)" in plan_said(html)
    assert re.search(r"disabled", submit_button(html))  # Submit is not offered
    assert table.stored() == before


def test_u1_u3_submit_sends_the_strip_s_plan_and_only_the_seat_sees_it_until_the_close(
    monkeypatch: pytest.MonkeyPatch,
):
    """U1, U3, V2: the plan built by taps is submitted with the strip's own fields and
    accepted whole; the seat's page lists its submission and marks it ◇, the other seat and
    the spectator see only that Ada is ready; when Bo's pass closes the turn (U4), the log
    tells and Ada's star is on every page's copy of her map."""
    table = turn_one(monkeypatch)
    fields = {"round": "1", "plan": ""}
    for word in ("die:0", "pair:7-9", "fill:funding:2", "shoot:12-1"):
        answer = table.tap(1, **fields, add=word).content.decode()
        fields = strip_fields(answer)
    assert fields["plan"] == "die:0 pair:7-9 fill:funding:2 shoot:12-1"
    assert "disabled" not in submit_button(answer)
    before = len(table.stored())
    response = post(table.host, table.room, "play/submit", **fields)
    assert response.status_code == 200, notice(response)
    assert [kind for _, kind, _ in table.stored()[before:]] == ["StepsSubmitted"]
    mine = table.page(1)
    assert "Your submission" in mine and "pair plot (7, 9)" in mine
    assert "Ready — waiting for 1 player: Bo." in mine and "◇" in mine
    for who in (2, None):
        html = table.page(who)
        assert "pair plot (7, 9)" not in html and "Funding space 2, value 3, filled" not in html
    assert READY_ADA.search(table.page(2))
    again = table.submit(1, "")
    assert again.status_code == 409 and "already" in notice(again).lower()
    assert table.submit(2, "").status_code == 200  # U4: a pass
    state = table.state()
    assert state.sheet(1).stars == {(7, 9), (12, 1)} and state.turn == 2
    spectator = table.page(None)
    assert "Night 1 turn 1 closed: Bo passed." in spectator
    assert len(STAR.findall(spectator)) == 2  # Ada's two stars on her map, for everyone


def test_u1_u2_a_refused_submission_names_its_step_and_rule_and_the_seat_may_send_again(
    monkeypatch: pytest.MonkeyPatch,
):
    """U1, U2: a submission with one illegal step is refused whole (400) with the step and
    its rule named; one the form cannot read is refused with its step number; nothing is
    appended and the seat still has its strip; then a legal one is accepted."""
    table = turn_one(monkeypatch)
    before = table.stored()
    refused = table.submit(1, "die:0 pair:7-9 finder:1-1")
    assert refused.status_code == 400
    said = notice(refused)
    assert said.startswith("Step 3 (Finder star at (1, 1)):") and "(R9)" in said
    refused = table.submit(2, [ResearchDie(0), ShootingPlot((12, 1))])
    assert refused.status_code == 400 and "(P4, N7)" in notice(refused)
    unreadable = table.submit(1, "die:0 pair:0-0")
    assert unreadable.status_code == 400
    assert notice(unreadable) == "Step 2: The row must be from 1 to 12."
    wrong_round = table.submit(1, "die:0", round=5)
    assert 400 <= wrong_round.status_code < 500 and notice(wrong_round)
    assert table.stored() == before
    assert 'hx-get="preview/plan"' in table.page(1)
    assert table.submit(1, [ResearchDie(0), PairPlot((7, 9))]).status_code == 200
    assert len(table.stored()) == len(before) + 1


def test_u4_the_pass_button_is_offered_on_an_empty_plan(monkeypatch: pytest.MonkeyPatch):
    """U4: an empty plan's button is Pass (asking first), and it is accepted."""
    table = turn_one(monkeypatch)
    button = submit_button(table.page(2))
    assert ">Pass<" in button and "hx-confirm" in button
    assert table.submit(2, "").status_code == 200
    running = table.state().round
    assert running is not None and running.submitted[2].entries == ()


def test_n8_a_night_opening_is_planned_and_submitted_without_dice(
    monkeypatch: pytest.MonkeyPatch,
):
    """N8, U9, U1: at an icon Night's opening the top bar shows no dice and the seat is told
    to take its Night bonus; the strip offers it (a free star anywhere, or a research space)
    and refuses a dice step with N8's reason; the bonus submitted is accepted, and only once
    both seats have sent theirs is the Night's first turn rolled."""
    rig_deal(monkeypatch, seed=2, first_player=1)
    fixed_dice(monkeypatch, ROLL)
    table = ObsRoom(2)
    state = table.play_until(lambda s: s.phase is Phase.OPENING, most=40)
    night = state.night
    assert night in state.opening_nights and state.dice is None
    html = table.page(1)
    assert f"Night {night}/{NIGHTS[2]} · opening" in html
    assert "Night opening: take a free star in any empty space, or one research space." in html
    assert 'aria-label="This turn&#x27;s dice"' not in html and "obs-die" not in html
    fields = strip_fields(html)
    assert fields["mode"] == "night"
    offered = {v for v, _ in buttons(html, "add")}
    empty = next(
        (r, c) for r in range(1, 13) for c in range(1, 13) if (r, c) not in state.sheet(1).stars
    )
    assert f"night:star:{empty[0]}-{empty[1]}" in offered
    assert any(word.startswith("night:fill:") for word in offered)
    refused = table.tap(1, **fields, add="die:0")
    assert "(N8)" in plan_said(refused.content.decode())
    answer = table.tap(1, **fields, add=f"night:star:{empty[0]}-{empty[1]}").content.decode()
    fields = strip_fields(answer)
    assert fields["plan"] == f"night:star:{empty[0]}-{empty[1]}"
    assert post(table.host, table.room, "play/submit", **fields).status_code == 200
    assert table.state().phase is Phase.OPENING  # waiting for Bo
    assert table.submit(2, "").status_code == 200
    after = table.state()
    assert after.phase is Phase.TURN and after.turn == 1 and after.dice == ROLL
    assert empty in after.sheet(1).stars


# -- the draft (G5, G6) -------------------------------------------------------------------------


def to_the_draft(monkeypatch: pytest.MonkeyPatch) -> ObsRoom:
    """Every die "?" (P3: every space reachable): the computer's moves, sent as forms,
    complete a card within Night 1, and its draft opens."""
    rig_deal(monkeypatch, seed=1, first_player=2)
    fixed_dice(monkeypatch, WILD)
    table = ObsRoom(2)
    state = table.play_until(drafting, most=30)
    assert state.drafter is not None
    return table


def test_g5_g6_the_drafting_seat_takes_a_face_up_card_with_the_page_s_buttons(
    monkeypatch: pytest.MonkeyPatch,
):
    """G5, G6, V1: only the drafting seat's page has the draft form (its version, a
    button for each deck's top and one per face-up card); the other seat is refused (403),
    a stale version is refused (409), a slot that is no slot (400); the button of a face-up
    card takes it: it becomes the seat's goal, the slot is refilled from its deck and the
    log says who took what."""
    table = to_the_draft(monkeypatch)
    state = table.state()
    drafter = state.drafter
    assert drafter is not None
    other = 3 - drafter
    html = table.page(drafter)
    assert "Draft: take 1 card more" in html
    version = hidden(html, "version")
    assert version == str(state.version)
    takes = {v for v, _ in buttons(html, "take")}
    assert takes == {"large_deck", "small_deck", "large_row", "small_row"}
    assert len(re.findall(r'hx-vals=\'\{"slot": "[123]"\}\'', html)) == 6
    assert 'hx-post="play/pick"' not in table.page(other)
    assert f"{table.names[drafter]} takes 1 card to replace completed goals" in table.page(other)
    before = table.stored()
    refused = table.pick(other, "large_row", slot=1)
    assert refused.status_code == 403 and "another seat" in notice(refused)
    stale = table.pick(drafter, "large_row", slot=1, version=state.version - 1)
    assert stale.status_code == 409 and "look again" in notice(stale)
    for bad in ({"take": "large_row", "slot": 4}, {"take": "moon"}, {"take": "large_row"}):
        response = post(table.seats[drafter], table.room, "play/pick", version=version, **bad)
        assert response.status_code == 400 and notice(response), bad
    assert table.stored() == before
    card = state.sky_large[1]
    assert card is not None
    response = post(
        table.seats[drafter], table.room, "play/pick", version=version, take="large_row", slot=2
    )
    assert response.status_code == 200, notice(response)
    after = table.state()
    assert card in after.sheet(drafter).goals
    assert after.sky_large[1] == state.large[0] and after.sky_large[1] != card
    line = f"{table.names[drafter]} took {CARDS[card].name} from the Large row, slot 2."
    assert escape(line) in table.page(None)


def test_g6_the_top_of_a_deck_is_taken_unseen(monkeypatch: pytest.MonkeyPatch):
    """G6, V2: the deck button takes the deck's top card, which nobody saw before."""
    table = to_the_draft(monkeypatch)
    state = table.state()
    drafter = state.drafter
    assert drafter is not None
    top = state.small[0]
    assert not mentions(table.page(drafter), top)
    assert table.pick(drafter, Source.SMALL_DECK.value).status_code == 200
    assert top in table.state().sheet(drafter).goals
    assert escape(CARDS[top].name) in table.page(None)


# -- the clock (T3, T5) ---------------------------------------------------------------------------


def test_t5_t3_the_clock_keeps_the_ticked_cards_and_skips_a_silent_seat(
    frozen_clock: Clock,  # noqa: F811
):
    """T5: a seat that does not choose keeps what its page showed ticked; T3: a seat with
    no submission when the turn's clock runs out is skipped, and the log says so."""
    table = ObsRoom(2, step="60")
    shown = ticked(table.page(2))
    assert table.choose(1, table.state().hands[0][:4]).status_code == 200
    frozen_clock.advance(61)
    state = table.state()
    assert state.phase is Phase.TURN
    assert state.sheet(2).goals == tuple(shown.values())
    assert table.submit(1, "").status_code == 200
    frozen_clock.advance(61)
    assert table.state().turn == 2
    assert "Bo skipped by the clock" in table.page(None)


# -- whole games ----------------------------------------------------------------------------------


def expected_result(state: State, names: dict[int, str]) -> str:
    """E5, independently of the presenters: the highest total wins; a tie goes to the
    fewest completed cards; still tied, a shared win."""
    totals = {s: state.scores[s - 1].total for s in state.seats}
    best = max(totals.values())
    tied = [s for s in state.seats if totals[s] == best]
    fewest = min(len(state.sheet(s).completed) for s in tied)
    winners = [s for s in tied if len(state.sheet(s).completed) == fewest]
    assert tuple(winners) == state.winners
    if len(winners) > 1:
        return " and ".join(names[s] for s in winners) + " share the win"
    if len(tied) > 1:
        return f"{names[winners[0]]} wins with {best}: tied on points"
    return f"{names[winners[0]]} wins with {best} point"


def final_sheet(html: str, name: str) -> str:
    """One seat's sheet on the end screen (E6)."""
    found = re.search(
        rf"""<article class="obs-panel obs-final-seat[^"]*" aria-label="{name}'s sheet">"""
        r"(.*?)</article>",
        html,
        re.S,
    )
    assert found, name
    return found.group(1)


def test_e1_e5_e6_a_whole_game_through_the_forms_ends_with_the_result_on_every_page(
    monkeypatch: pytest.MonkeyPatch,
):
    """N2, E1, E5, E6, V2: two people play a whole game, every move the computer's choice
    sent as the form its page sends; the game ends after the 2-player board's Nights (N2);
    every page (both seats, the spectator) shows the result, each sheet's four parts and
    total, and nobody has anything left to press; no page and no step of the replay names
    a card still in a deck, a returned one included."""
    rig_deal(monkeypatch, seed=3)
    table = ObsRoom(2)
    state = table.play_until(lambda s: s.ended, most=200)
    assert state.night == NIGHTS[2] and state.turn == 2
    assert len([c for c in state.closed if c.turn]) == NIGHTS[2] * 2
    result = expected_result(state, table.names)
    for who in (1, 2, None):
        html = table.page(who)
        assert f"The game is over · {NIGHTS[2]} Nights played" in html
        assert result in html
        assert "Final scores" in html
        for seat in (1, 2):
            sheet = final_sheet(html, table.names[seat])
            score = state.scores[seat - 1]
            assert f'<span class="obs-seat-score">{score.total} points' in sheet
            assert f"<dt>Cards</dt><dd>{score.cards} (" in sheet
            assert f"<dt>Asterisms</dt><dd>{score.asterisms} (" in sheet
            assert f"<dt>Funding</dt><dd>{score.funding} (" in sheet
            assert f"<dt>Unused stars</dt><dd>{score.unused} (" in sheet
            assert f"<dt>Total</dt><dd>{score.total}</dd>" in sheet
            completed = len(state.sheet(seat).completed)
            assert f"Completed cards ({completed})" in sheet
        assert "play/submit" not in html and "play/pick" not in html
    refused = table.submit(1, "")
    assert 400 <= refused.status_code < 500 and notice(refused)
    # V2: the cards still in the decks are never revealed, not even at the end or in the
    # replay (the cards each seat returned at the choice among them, unless drawn since).
    unseen = {*state.large, *state.small}
    returned = {c for s in state.seats for c in state.hands[s - 1]} - {
        c for s in state.seats for c in (*state.sheet(s).goals, *state.sheet(s).completed)
    }
    assert unseen and returned & unseen
    steps = (*range(1, 5), *range(5, state.version + 1, 6))  # the choice's, then a sample
    replay = [f"/r/{table.code}/history/1/?step={n}" for n in steps]
    for url in replay:
        response = table.host.get(url)
        assert response.status_code == 200
        assert not named_cards(response.content.decode()) & unseen, url
    for who in (1, 2, None):
        assert not named_cards(table.page(who)) & unseen


@pytest.mark.django_db(transaction=True)
def test_a_computer_seated_by_the_host_plays_its_own_seat(
    settings, monkeypatch: pytest.MonkeyPatch
):
    """The host seats a computer: it is marked as one on every page, and it makes its
    seat's choice and submissions by itself, stored as its seat's events, while the host
    plays hers through the page's forms: the turns close without anyone else."""
    settings.CONSTELLATE_COMPUTERS_INLINE = True
    settings.RATE_LIMITS = LOOSE
    rig_deal(monkeypatch, seed=5, first_player=1)
    table = ObsRoom(2, computers=(2,))
    html = table.page(1)
    machine = re.search(r"[A-Z][a-z]+ \(computer\)", html)
    assert machine is not None and machine.group(0) in table.page(None)
    state = table.state()
    assert state.phase is Phase.CHOICE and state.choice is not None
    assert 2 in state.choice.submitted  # it chose at once
    assert table.play_robot(1).status_code == 200  # the host's choice closes the step
    state = table.play_until(lambda s: s.turn == 2, most=20)
    assert state.closed[0].submissions[1] is not None  # its turn 1, revealed at the close
    assert state.round is not None and 2 in state.round.submitted  # turn 2: already sent
    stored = Event.objects.filter(game_id=table.game_id, kind="StepsSubmitted")
    assert Counter(stored.values_list("actor_seat", flat=True)) == {1: 1, 2: 2}
    name = re.escape(machine.group(0))
    ready = rf'class="obs-ready-seat ready"><span[^>]*>●</span><span[^>]*>{name}<'
    assert re.search(ready, table.page(1))  # U3: ready, its steps unseen
