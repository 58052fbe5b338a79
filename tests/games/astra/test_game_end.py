"""The end of the turn (T3), the endgame (E1-E7) and the final scoring made at the end
(F1-F9, I2): the Game End card exposed by a Discovery draw or a Rest discard is set aside at
once, the last turn follows E5, and the last turn's end records every seat's breakdown and
the winners in one GameEnded."""

from __future__ import annotations

import pytest

from games import kit
from games.astra.rules.cards import Element
from games.astra.rules.commands import Observe, PickBoon, Rest
from games.astra.rules.ending import Payouts, last_turn, turn_lasting_payouts
from games.astra.rules.events import (
    CardDrawn,
    FinalScore,
    GameEnded,
    GameEndExposed,
    Rested,
    TurnEnded,
    TurnStarted,
)
from games.astra.rules.model import Phase, State
from games.kit import Problem, Refusal
from tests.games.astra.flow_helpers import (
    act,
    deal,
    deck_from,
    holding,
    observe,
    refused,
    rest,
    sky,
    stored,
    with_journal,
    with_marks,
)


def on_earth(players: int = 3, *, above: int, first_player: int = 1) -> State:
    """The marker on Earth (Ursa Major discarded), ``above`` cards left above the Game End
    card: the next Rest's move to Fire discards the deck's top card (R5)."""
    state = deal(players, deck=deck_from("Ursa Major"), first_player=first_player)
    return kit.with_changes(state, above_game_end=above)


# -- T3: the end of the turn -----------------------------------------------------------------


def test_t3_the_turn_ends_and_the_next_seat_clockwise_starts_its_turn() -> None:
    state = deal(3, first_player=3)
    state, events = rest(state)
    assert events[-2:] == [TurnEnded(3, 0), TurnStarted(1, 1, 0, None)]
    assert (state.active, state.turn, state.phase) == (1, 1, Phase.ABILITY)
    assert not state.rested and state.observes == 0 and state.taken == ()


def test_t3_the_turn_lasting_effects_hook_pays_nothing_before_the_abilities() -> None:
    """T3, A4: K2, K7 and K16 pay at the end of the turn; no Ability is built, so the hook
    finds no effect in force and TurnEnded records 0 Stardust returned and 0 Fame."""
    state = deal(3)
    assert turn_lasting_payouts(state) == Payouts(0, 0)
    after, events = rest(state)
    ended = events[-2]
    assert isinstance(ended, TurnEnded) and (ended.stardust_returned, ended.fame) == (0, 0)
    assert after.journal(1).fame == 0


# -- E1-E6: the endgame ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("turn", "players", "last"),
    [(0, 3, 2), (1, 3, 5), (2, 3, 5), (3, 3, 5), (4, 3, 8), (8, 4, 11), (9, 4, 15), (14, 5, 19)],
)
def test_e3_e4_e5_the_last_turn(turn: int, players: int, last: int) -> None:
    assert last_turn(turn, players) == last


def test_e1_e2_e3_a_rest_discard_exposing_the_game_end_card_in_the_first_players_turn() -> None:
    state = on_earth(above=1)
    top = state.deck[0]
    state, events = rest(state)
    assert events[:2] == [
        Rested(1, 0, (), Element.EARTH, Element.FIRE, top, False),
        GameEndExposed(turn=0, last_turn=2),  # E3: this round's last seat plays, then the end
    ]
    assert state.game_end_exposed and state.last_turn == 2 and state.above_game_end == 0
    state, _ = rest(state)  # seat 2
    state, events = rest(state)  # seat 3: the last turn
    assert isinstance(events[-1], GameEnded) and state.ended and state.phase is Phase.ENDED


def test_e2_the_game_end_card_triggers_once_and_later_cards_come_from_below_it() -> None:
    state, _ = rest(on_earth(above=1))
    below = state.deck
    state = kit.with_changes(state, sphere=Element.EARTH)
    state, events = rest(state)  # seat 2 discards again: no second trigger
    assert not any(isinstance(e, GameEndExposed) for e in events)
    assert state.discard[-1] == below[0] and state.last_turn == 2


def test_e4_triggered_in_another_seats_turn_the_round_ends_then_a_final_round() -> None:
    # Seat 3 is the first player (turn 0); seat 1 plays turn 1 and its Rest exposes the card.
    state = kit.with_changes(on_earth(above=1, first_player=3), turn=1, active=1)
    state, events = rest(state)
    assert GameEndExposed(turn=1, last_turn=5) in events
    for _ in range(4):  # turns 2 (seat 2) to 5 (seat 2): the rest of round 0, then round 1
        assert not state.ended
        state, events = rest(state)
    assert state.ended and isinstance(events[-1], GameEnded)
    assert [e for e in events if isinstance(e, TurnEnded)] == [TurnEnded(2, 5)]


def test_d13_e1_e6_a_discovery_draw_exposes_the_game_end_card_and_the_next_draw_is_below() -> None:
    state = with_marks(sky(), 1, {0: 1, 2: 1, 3: 1})  # Lyra: all but star 1
    state = with_marks(state, 4, dict.fromkeys(range(6), 1))  # Cetus: all but star 6
    state = with_journal(holding(state, 1), 1, telescopes=1, wisdom=3)
    state = kit.with_changes(state, above_game_end=1)
    deck = state.deck
    state, _ = observe(state, 4, 6)
    state, events = observe(state, 1, 1)
    assert [e for e in events if isinstance(e, CardDrawn | GameEndExposed)] == [
        CardDrawn(1, deck[0]),  # the last card above the Game End card
        GameEndExposed(turn=0, last_turn=2),  # set aside at once (D13, E2)
        CardDrawn(4, deck[1]),  # the next comes from below it (E6)
    ]
    assert state.slot(1).card == deck[0] and state.slot(4).card == deck[1]


def test_e7_t5_after_the_game_ends_nothing_is_played() -> None:
    state = kit.with_changes(deal(3), game_end_exposed=True, last_turn=0)
    state, _ = rest(state)
    assert state.ended and state.active is None
    assert refused(state, Rest(2, state.version)) == Refusal("The game is over.", Problem.CONFLICT)
    assert refused(state, Observe(2, state.version, 1, (0,))) == Refusal(
        "The game is over.", Problem.CONFLICT
    )


# -- E7, F1-F9, I2: the final scoring ------------------------------------------------------------


def last_turn_table() -> State:
    """Three players, the game's last turn (seat 1's): seat 2 holds Cetus (Water, Final
    Scoring Fame 4) and Leo (Fire, 2), Active, with Wisdom 1 and 10 Fame, and marked 3 of
    Lyra's 4 stars; seat 3 has 23 Fame."""
    state = deal(3, deck=deck_from("Orion", "Lyra", "Ursa Major", "Hydra", "Pisces"))
    state = kit.with_changes(state, game_end_exposed=True, last_turn=0, above_game_end=0)
    state = holding(state, 2, ("Cetus", True), ("Leo", True))
    state = with_journal(state, 2, wisdom=1, fame=10)
    state = with_journal(state, 3, fame=23)
    return with_marks(state, 1, {0: 2, 1: 2, 2: 2})


def test_e7_f1_f8_i2_h1_every_breakdown_is_recorded_with_the_scoring_cards_shown() -> None:
    state, events = rest(kit.with_changes(last_turn_table(), sphere=Element.FIRE))
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    ana, ben, cleo = ended.scores
    # Ana (FS1, Fire + Water): no card, 8 Stardust: F6 5 + F7 2 + F8 2.
    assert ana == FinalScore(1, "FS1", 0, 0, 0, 0, 0, 5, 2, 2, 9, (1, 1, 0, 0))
    # Ben (FS2, Fire + Air): F2 3 stars -> 1; F3 4 + 2; F4 Fire 2 marks -> 2, Water 1, Air 1;
    # F5 column 1 has 3 marks -> 3; F6 5; F7 3; F8 8 -> 2; 10 + 1 + 6 + 2 + 3 + 5 + 3 + 2.
    assert ben == FinalScore(2, "FS2", 10, 1, 6, 2, 3, 5, 3, 2, 32, (2, 1, 1, 0))
    # Cleo (FS3, Fire + Earth): 23 + 5 + 2 + 2.
    assert cleo.total == 32 and cleo.scoring_card == "FS3"
    assert ended.winners == (2, 3)  # F9: a tie shares the victory
    assert stored(events) == events


def test_f9_the_highest_total_wins_alone() -> None:
    state = with_journal(last_turn_table(), 3, fame=22)
    _, events = rest(state)
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.winners == (2,)


def test_f2_marks_on_a_card_discovered_in_the_last_turn_no_longer_count() -> None:
    state, _ = observe(last_turn_table(), 1, 3)  # Ana discovers Lyra
    state, events = act(state, PickBoon(2, state.version, 4))  # Ben: Fame 2
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.scores[1].marked_stars == 0  # Lyra was taken: its marks are gone (D10, F2)
    assert ended.scores[1].fame_in_play == 12
    assert ended.scores[0].active_cards == 1  # Lyra, Active: Final Scoring Fame 1 (F3)
