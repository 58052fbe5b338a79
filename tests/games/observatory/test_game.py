"""Observatory as the platform reads it (games/observatory/game.py): the server's draws, the
forms a seat sends read into commands, the plan preview (U9), and whole games played
through those forms only, every command built the way a browser's form builds it."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.http import QueryDict

from games.definition import Table
from games.inputs import BadInput
from games.observatory import game, options, plan
from games.observatory.rules.commands import Choose, Deal, Expire, Pick, Submit
from games.observatory.rules.decide import decide
from games.observatory.rules.deck import LARGE, SMALL
from games.observatory.rules.evolve import fold
from games.observatory.rules.model import Phase, Source, State, Take
from games.observatory.rules.sheet_data import NIGHTS
from games.observatory.rules.steps import PairPlot, ResearchDie
from tests.games.observatory.flow_helpers import NOW, choose_all, deal


def form(**fields: str) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        data[key] = value
    return data


def test_g1_n3_the_deal_shuffles_both_decks_and_draws_the_first_player() -> None:
    draws = [
        game.deal_command(players=3, step_seconds=None, chosen={}, rng=random.Random(n))
        for n in range(40)
    ]
    for command in draws:
        assert sorted(command.large) == sorted(LARGE) and sorted(command.small) == sorted(SMALL)
        assert command.dice is None and not command.first_game  # G3: the choice comes first
    assert len({command.large for command in draws}) == 40
    assert {command.first_player for command in draws} == {1, 2, 3}


def test_g2_a_first_game_rolls_its_first_turn_at_the_deal() -> None:
    chosen = options.clean({options.FIRST_GAME: options.YES})
    command = game.deal_command(players=2, step_seconds=60, chosen=chosen, rng=random.Random(1))
    assert command.first_game and command.dice is not None and command.step_seconds == 60
    state = fold(decide(State(), command, NOW))
    assert state.phase is Phase.TURN and state.dice == command.dice


def test_g2_the_host_option_is_yes_or_no_and_says_what_it_means() -> None:
    assert options.clean({}) == {options.FIRST_GAME: options.NO}
    with pytest.raises(BadInput, match="yes or no"):
        options.clean({options.FIRST_GAME: "maybe"})
    assert "keeps 4" in options.text(options.default())
    assert "keeps them all" in options.text({options.FIRST_GAME: options.YES})


def test_d2_the_server_rolls_four_fair_dice() -> None:
    rolls = [game.roll(random.Random(n)) for n in range(600)]
    faces = Counter(face for r in rolls for face in (*r.blue, r.orange))
    assert set(faces) == {1, 2, 3, 4, 5, 6} and min(faces.values()) > 300


def test_d2_every_command_a_seat_sends_carries_the_server_s_dice() -> None:
    submit = game.GAME.actions["submit"].build(form(round="2", plan="die:0 pair:1-1"), 1)
    assert isinstance(submit, Submit) and submit.dice is not None
    assert submit.steps == (ResearchDie(0), PairPlot((1, 1))) and submit.round == 2
    ticked = {"keep-1": LARGE[0], "keep-2": LARGE[1], "keep-4": SMALL[0], "keep-6": SMALL[1]}
    choose = game.GAME.actions["choose"].build(form(round="1", **ticked), 2)
    assert isinstance(choose, Choose) and choose.keep == (*LARGE[:2], *SMALL[:2])
    pick = game.GAME.actions["pick"].build(form(version="9", take="small_row", slot="2"), 3)
    assert pick == Pick(3, 9, Take(Source.SMALL_ROW, 2), pick.dice) and pick.dice is not None
    top = game.GAME.actions["pick"].build(form(version="9", take="large_deck"), 3)
    assert isinstance(top, Pick) and top.take == Take(Source.LARGE_DECK)
    expiry = game.GAME.expire(5, random.Random(3)) if game.GAME.expire else None
    assert isinstance(expiry, Expire) and expiry.step == 5 and expiry.dice is not None


@pytest.mark.parametrize(
    ("action", "fields", "says"),
    [
        (
            "choose",
            {"round": "1", "keep-1": "L01", "keep-2": "L02", "keep-5": "S01"},
            "Keep exactly 4 of your 6 cards: 3 are ticked.",
        ),
        ("choose", {"round": "1", "keep-3": "Z9"}, "There is no such constellation"),
        ("pick", {"version": "3", "take": "moon"}, "Take a face-up card or the top of a deck."),
        ("pick", {"version": "3", "take": "large_row", "slot": "4"}, "The slot must be from 1"),
        ("pick", {"take": "large_deck"}, "Missing version."),
        ("submit", {"round": "1", "plan": "pair:0-0"}, "Step 1: The row must be from 1 to 12."),
        ("submit", {"plan": ""}, "Missing round."),
    ],
)
def test_what_a_form_cannot_say_is_refused_with_a_reason(action, fields, says) -> None:
    with pytest.raises(BadInput) as refused:
        game.GAME.actions[action].build(form(**fields), 1)
    assert refused.value.message.startswith(says)


def _tap(state: State, seat: int, **fields: str):
    sent = form(round=str(state.round_number), **fields)
    return game.GAME.previews["plan"].show(state, seat, sent, NOW)


def test_u9_the_plan_strip_offers_what_is_legal_next_and_records_nothing() -> None:
    state = choose_all(deal(2))  # seat 1 is active; the dice are 3 4 5, orange 6
    before = state
    empty = _tap(state, 1)
    assert empty.steps == () and empty.ready and empty.empty  # U4: Submit now is a pass
    assert [tab.mode.key for tab in empty.tabs] == ["die", "shoot"] and empty.mode == "die"
    assert [c.label for c in empty.choices] == [
        "1st blue die (3)",
        "2nd blue die (4)",
        "3rd blue die (5)",
    ]
    chosen = _tap(state, 1, plan="", add="die:0")
    assert chosen.plan == "die:0" and chosen.steps == ("research die 1",)
    assert chosen.said == "Added: research die 1." and chosen.ready and not chosen.empty
    assert chosen.mode == "pair" and "die" not in [tab.mode.key for tab in chosen.tabs]
    targets = [cell.target for sector in chosen.sectors for cell in sector if cell.target]
    assert targets and all(t.word.startswith("pair:") for t in targets)
    assert len(chosen.sectors) == 36 and all(len(sector) == 4 for sector in chosen.sectors)
    undone = _tap(state, 1, plan="die:0", undo="1")
    assert undone.plan == "" and undone.said == "Undone: research die 1."
    assert state is before and state.version == before.version


def test_u2_a_tap_that_is_not_legal_now_is_not_added_and_says_why() -> None:
    state = choose_all(deal(2))
    refused = _tap(state, 1, plan="die:0", add="finder:1-1")
    assert refused.plan == "die:0" and "(R9)" in refused.said
    not_active = _tap(state, 2, plan="", add="shoot:1-1")
    assert not_active.plan == "" and not_active.said
    wrong_kind = form(round=str(state.round_number), to="warp")
    with pytest.raises(BadInput, match="not a kind of step"):
        game.GAME.previews["plan"].show(state, 1, wrong_kind, NOW)
    tampered = _tap(state, 1, plan="finder:1-1")  # a plan field changed by hand
    assert not tampered.ready and "(R9)" in tampered.refusal


def test_u9_the_preview_of_a_closed_step_says_so() -> None:
    state = choose_all(deal(2))
    stale = form(round=str(state.round_number + 1), plan="")
    with pytest.raises(game.StepOver) as over:
        game.GAME.previews["plan"].show(state, 1, stale, NOW)
    assert over.value.status == 409
    done = fold(decide(state, Submit(1, state.round_number, (), None), NOW), state)
    with pytest.raises(game.StepOver):
        game.GAME.previews["plan"].show(done, 1, form(round=str(state.round_number)), NOW)


def _as_form(command: object) -> tuple[str, QueryDict]:
    """The form a browser would send for the computer's command."""
    if isinstance(command, Choose):
        ticked = {f"keep-{n}": card for n, card in enumerate(command.keep, start=1)}
        return "choose", form(round=str(command.round), **ticked)
    if isinstance(command, Pick):
        fields = {"version": str(command.version), "take": command.take.source.value}
        if command.take.slot is not None:
            fields["slot"] = str(command.take.slot)
        return "pick", form(**fields)
    assert isinstance(command, Submit)
    return "submit", form(round=str(command.round), plan=plan.write(command.steps))


@pytest.mark.parametrize("players", [1, 2, 5])
def test_whole_games_through_the_forms_end_on_the_balanced_night_board(players: int) -> None:
    """N2, E1: the computer's moves sent as forms are read back into the very same steps,
    and the game ends after the board's Nights."""
    rng = random.Random(players)
    state = fold(decide(State(), game._deal(_table(players, rng)), NOW))
    now = NOW
    while not state.ended:
        seat = next(s for s in state.seats if game.GAME.computer.waiting(state, s))
        wanted = game.GAME.computer.move(state, seat, rng)
        name, sent = _as_form(wanted)
        command = game.GAME.actions[name].build(sent, seat)
        assert type(command) is type(wanted)
        if isinstance(command, Submit):
            assert command.steps == wanted.steps
        decision = decide(state, command, now)
        assert isinstance(decision, list), decision
        state = fold(decision, state)
        now += timedelta(seconds=1)
    assert state.night == NIGHTS[players]


def _table(players: int, rng: random.Random) -> Table:
    return Table(players=players, step_seconds=None, options=options.default(), rng=rng)


def test_the_definition_is_observatory_for_one_to_five() -> None:
    assert game.GAME.slug == "observatory" and game.GAME.title == "Observatory"
    assert (game.GAME.seats.least, game.GAME.seats.most) == (1, 5)
    assert isinstance(game.GAME.deal(_table(4, random.Random(0))), Deal)
