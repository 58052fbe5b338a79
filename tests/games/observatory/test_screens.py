"""Observatory's screens (RULES.md Screens, V1-V3): every audience's board renders at every
phase for 1, 2 and 5 players; a seat's HTML never depends on another seat's dealt cards or
open submission (twin states that differ only in that secret render the same bytes for
everyone else); the top bar, the scores and the deck counts are the state's own numbers.

The board is rendered the way ``Screens.render_board`` renders it:
``render_to_string("observatory/board.html#board", {"board": ..., "oob": False, "game": 1})``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.template.loader import render_to_string
from django.test import override_settings

from games import kit
from games.observatory import presenters
from games.observatory.rules import robot
from games.observatory.rules.commands import Choose
from games.observatory.rules.deck import CARDS, LARGE, SMALL
from games.observatory.rules.evolve import fold
from games.observatory.rules.model import Phase, State
from games.observatory.rules.sheet_data import face_label
from games.observatory.rules.steps import PairPlot, ResearchDie
from games.observatory.rules.view import view_for
from tests.games.observatory.flow_helpers import act, deal, dice, started, submit

TEMPLATES = Path(presenters.__file__).resolve().parent / "templates"
NAMES = {1: "Ana", 2: "Ben", 3: "Cleo", 4: "Dev", 5: "Eli"}
CODE = "2345-6789-abcd-efgh"
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
RAW = ("{#", "{%", "{{", "#}", "%}", "}}")


@pytest.fixture(autouse=True)
def _observatory_templates() -> Iterator[None]:
    """Observatory is not a registered game yet (no ``game.py``, so no installed app): its
    templates are found through ``DIRS`` here, exactly where the app would find them."""
    engine: dict[str, Any] = dict(django_settings.TEMPLATES[0])
    engine["DIRS"] = [*engine["DIRS"], TEMPLATES]
    with override_settings(TEMPLATES=[engine, *django_settings.TEMPLATES[1:]]):
        yield


def render(state: State, audience: str, *, history: bool = False) -> str:
    if history:
        board = presenters.present_history(state, NAMES, CODE)
    else:
        board = presenters.present(state, audience, NAMES, CODE, NOW)
    context = {"board": board, "oob": False, "game": 1}
    return render_to_string("observatory/board.html#board", context)


@cache
def played(players: int, seed: int = 7) -> tuple[State, ...]:
    """Every state of a game the computer plays for every seat, command by command."""
    rng = random.Random(seed)
    state = deal(players)
    states = [state]
    while not state.ended:
        seat = next(s for s in state.seats if robot.waiting(state, s))
        roll = dice(*(rng.randint(1, 6) for _ in range(4)))
        state, _ = act(state, robot.move(state, seat, roll))
        states.append(state)
    return tuple(states)


def sampled(players: int) -> Iterator[State]:
    """The first state of each phase, the first with a seat ready and not all, and the end."""
    seen: set[object] = set()
    for state in played(players):
        open_round = state.round is not None and not state.round.closed
        some = open_round and state.round is not None and state.round.submitted
        key = (state.phase, bool(some))
        if key not in seen:
            seen.add(key)
            yield state


# -- every audience renders --------------------------------------------------------------------


def assert_controls(state, audience: str, html: str) -> None:
    """A seat gets the control of what it may do now (U1 the plan strip, G3 the choice, G5
    the draft) and nothing else; a spectator and a seat with nothing to do get no button."""
    seat = presenters.seat_of(audience)
    view = view_for(state, seat)
    wanted = {
        'hx-post="play/submit"': seat is not None and view.can_submit,
        'hx-post="play/choose"': seat is not None and view.can_choose,
        'hx-post="play/pick"': seat is not None and view.can_pick,
    }
    for control, shown in wanted.items():
        assert (control in html) is shown, (state.phase, audience, control)
    if not any(wanted.values()):
        assert "<button" not in html, (state.phase, audience)


@pytest.mark.parametrize("players", [1, 2, 5])
def test_every_audience_renders_at_every_phase_with_no_raw_template_syntax(players: int) -> None:
    phases = set()
    for state in sampled(players):
        phases.add(state.phase)
        for audience in presenters.audiences(state):
            html = render(state, audience)
            assert 'id="board"' in html and f'data-version="{state.version}"' in html
            assert not [raw for raw in RAW if raw in html], (state.phase, audience)
            assert_controls(state, audience, html)
        history = render(state, presenters.HISTORY, history=True)
        assert not [raw for raw in RAW if raw in history] and "<button" not in history
    assert {Phase.CHOICE, Phase.TURN, Phase.ENDED} <= phases
    if players > 1:
        assert Phase.DRAFT in phases or Phase.OPENING in phases


def test_audiences_are_the_public_and_one_per_seat() -> None:
    state = deal(3)
    assert presenters.audiences(state) == ["public", "seat-1", "seat-2", "seat-3"]
    assert presenters.audience_of(state, 2) == "seat-2"
    assert presenters.audience_of(state, None) == presenters.audience_of(state, 4) == "public"
    assert presenters.audience_of(State(), 1) == "public"


def test_u9_the_plan_strip_is_on_the_board_of_a_seat_that_may_submit_only() -> None:
    state = started(2)
    area = f'id="obs-plan-{state.round_number}"'
    mine = render(state, "seat-1")
    assert area in mine and 'hx-preserve="true"' in mine and ">Pass</button>" in mine
    assert 'name="add" value="die:0"' in mine  # U5.1: the research die comes first
    assert "obs-plan" not in render(state, "public")


# -- V2, V3: secrets never reach another audience ---------------------------------------------


def twin_deals() -> tuple[State, State]:
    """Two deals alike but for seat 1's six dealt cards (seat 1 is dealt first, G2)."""
    large = (*LARGE[10:13], *LARGE[3:10], *LARGE[:3], *LARGE[13:])
    small = (*SMALL[10:13], *SMALL[3:10], *SMALL[:3], *SMALL[13:])
    one, other = deal(2), deal(2, large=large, small=small)
    assert one.hands[1] == other.hands[1] and one.hands[0] != other.hands[0]
    return one, other


def test_v2_a_seats_dealt_cards_reach_that_seat_only() -> None:
    one, other = twin_deals()
    assert render(one, "seat-2") == render(other, "seat-2")
    assert render(one, "public") == render(other, "public")
    mine = render(one, "seat-1")
    assert mine != render(other, "seat-1")
    assert all(CARDS[card].name in mine for card in one.hands[0])
    theirs = render(one, "seat-2")
    assert not any(CARDS[card].name in theirs for card in one.hands[0])


def test_v2_an_open_setup_choice_reaches_its_seat_only() -> None:
    state = deal(2)
    hand = state.hands[0]
    one, _ = act(state, Choose(1, 1, hand[:4]))
    other, _ = act(state, Choose(1, 1, hand[2:]))
    for audience in ("seat-2", "public"):
        assert render(one, audience) == render(other, audience)
    assert render(one, "seat-1") != render(other, "seat-1")
    assert "✓ you keep it" in render(one, "seat-1")


def test_v2_u3_an_open_submission_reaches_its_seat_only() -> None:
    state = started(2)
    one, _ = submit(state, 1, [ResearchDie(0), PairPlot((7, 9))])
    other, _ = submit(state, 1, [ResearchDie(0), PairPlot((9, 7))])
    for audience in ("seat-2", "public"):
        assert render(one, audience) == render(other, audience)
        assert "pair plot" not in render(one, audience)
    mine = render(one, "seat-1")
    assert mine != render(other, "seat-1")
    assert "pair plot (7, 9)" in mine and "obs-new-ring" in mine
    assert "Ready — waiting for 1 player: Ben." in mine


def test_v2_no_board_names_a_card_still_in_a_deck() -> None:
    for state in sampled(2):
        in_decks = {CARDS[card].name for card in (*state.large, *state.small)}
        in_view = {CARDS[c].name for s in state.sheets for c in (*s.goals, *s.completed)}
        in_view |= {CARDS[c].name for c in (*state.sky_large, *state.sky_small) if c}
        in_view |= {CARDS[c].name for hand in state.hands for c in hand}
        for audience in presenters.audiences(state):
            html = render(state, audience)
            leaked = {name for name in in_decks - in_view if f">{name}<" in html}
            assert not leaked, (state.phase, audience, leaked)


# -- the numbers are the state's -----------------------------------------------------------------


def test_the_top_bar_shows_the_night_the_turn_the_active_seat_and_the_dice() -> None:
    state = started(3, first_player=2)
    html = render(state, "seat-1")
    assert f"Night 1/{state.nights} · turn 1/3" in html
    assert "Ben rolls" in html
    assert state.dice is not None
    faces = [face_label(face) for face in (*state.dice.blue, state.dice.orange)]
    shown = [part.split("<")[0] for part in html.split('class="obs-face" aria-hidden="true">')[1:]]
    assert shown == faces
    assert "not yours" in html and "not yours" not in render(state, "seat-2")
    assert "○" in html and "choosing" in html


def test_scores_and_deck_counts_are_the_states() -> None:
    states = played(2)
    middle = next(s for s in states if s.phase is Phase.TURN and any(x.total for x in s.scores))
    html = render(middle, "public")
    for score in middle.scores:
        assert f"{score.total} pts" in html
    assert f"Large deck: {len(middle.large)} cards left" in html
    assert f"Small deck: {len(middle.small)} cards left" in html
    mine = render(middle, "seat-1")
    assert f"Seat 1 · {middle.scores[0].total} point" in mine


def test_e2_e5_the_end_screen_breaks_every_score_into_its_parts_and_names_the_winner() -> None:
    end = played(2)[-1]
    html = render(end, "seat-2")
    for score in end.scores:
        assert f"<dt>Total</dt><dd>{score.total}</dd>" in html
        assert f"<dt>Asterisms</dt><dd>{score.asterisms} ({score.asterism_count} completed)" in html
        assert f"<dt>Unused stars</dt><dd>{score.unused} ({score.unused_stars} ÷ 2)" in html
    winners = [NAMES[s] for s in end.winners]
    result = html.split('class="result"><strong>')[1].split("</strong>")[0]
    assert all(name in result for name in winners)
    assert ("share the win" in result) == (len(winners) > 1)


def test_e5_a_tie_broken_by_fewest_cards_says_so() -> None:
    end = played(2)[-1]
    first, second = end.scores
    tied = (
        kit.with_changes(first, total=20, completed=3),
        kit.with_changes(second, total=20, completed=5),
    )
    state = kit.with_changes(end, scores=tied, winners=(1,))
    result = render(state, "public")
    assert (
        "Ana wins with 20: tied on points, the fewest completed cards (3) breaks the tie." in result
    )


def test_s3_a_solo_end_shows_the_score_and_the_best_earlier_solo_score() -> None:
    end = played(1)[-1]
    board = presenters.present(end, "seat-1", NAMES, CODE, NOW, best_solo=31)
    total = end.scores[0].total
    best = "Your best earlier solo score here: 31 points."
    assert board.result == f"Solo: {total} point{'' if total == 1 else 's'}. {best}"


# -- the log and the replay ------------------------------------------------------------------------


def test_the_log_names_completions_with_their_points_and_the_draft_picks() -> None:
    states = played(2)
    end = states[-1]
    html = render(end, "public")
    assert end.closed and end.closed[-1].version <= end.version
    last = presenters.step_line(end.closed[-1], NAMES)
    assert last in html
    completed = next((c for c in end.closed if any(c.completed)), None)
    if completed is not None:
        line = presenters.step_line(completed, NAMES)
        card = CARDS[next(card for cards in completed.completed for card in cards)]
        assert card.name in line and (card.asterism or f"(+{card.points})" in line)


def test_a_replay_describes_every_step_and_jumps_to_every_closed_one() -> None:
    states = played(2)
    described = [presenters.describe(a, b, NAMES) for a, b in zip(states, states[1:], strict=False)]
    assert all(described), [i for i, d in enumerate(described) if not d]
    end = states[-1]
    jumps = presenters.jumps(end, NAMES)
    assert [v for v, _ in jumps] == [c.version for c in end.closed]
    assert jumps[0][1].startswith("Night 1 turn 1")


def test_a_fold_of_no_events_renders_for_everyone() -> None:
    state = fold([], State())
    assert "Observatory" in render(state, "public")
