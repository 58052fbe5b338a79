"""The table: the deal and setup (P1, P3, S1-S8, H1, H2, H5, I3, J1-J5), the start of a
turn (T1) and the guards every player's command passes (T2, T4, T5, the turn's clock)."""

from __future__ import annotations

from datetime import timedelta
from typing import cast

import pytest

from games import kit
from games.astra.rules.boards import ABOVE_GAME_END, SPHERE_BOARDS
from games.astra.rules.cards import BY_NUMBER, Element
from games.astra.rules.commands import Command, Done, Expire, Observe, Rest
from games.astra.rules.decide import STALE, decide
from games.astra.rules.events import GameDealt, TableSet, TurnStarted
from games.astra.rules.evolve import fold
from games.astra.rules.model import UNDEALT, Journal, Phase, State, seat_of_turn
from games.kit import Problem, Refusal
from tests.games.astra.flow_helpers import (
    DECK,
    NOW,
    SCORING,
    act,
    action_ended,
    deal,
    dealing,
    deck_from,
    number,
    observing,
    refused,
    rest,
    stored,
)

# -- players and the deal (P1, S2, S5, H5) ---------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_p1_a_game_seats_two_to_five(players: int) -> None:
    state = deal(players)
    assert state.players == players and state.seats == tuple(range(1, players + 1))


@pytest.mark.parametrize("players", [0, 1, 6])
def test_p1_no_solo_game_and_no_sixth_player(players: int) -> None:
    assert refused(State(), dealing(players)) == Refusal("Astra is played by 2 to 5 players (P1).")


def test_h5_every_random_choice_arrives_in_the_deal_and_is_stored_in_its_first_event() -> None:
    deck = DECK[::-1]
    decision = decide(State(), dealing(4, deck=deck, first_player=3, step_seconds=60), NOW)
    assert isinstance(decision, list)
    dealt = decision[0]
    assert dealt == GameDealt(4, deck, 30, SCORING[:4], 3, 60)
    assert stored(decision) == decision  # a replay never draws again
    assert fold(decision) == fold(stored(decision))


def test_s2_the_deck_is_the_48_cards_each_once() -> None:
    reason = Refusal("The deck is dealt whole: the 48 cards, each once, in any order (S2).")
    for deck in (DECK[1:], (*DECK[1:], DECK[1]), (*DECK[1:], 49), (*DECK, 0)):
        assert refused(State(), dealing(3, deck=deck)) == reason


@pytest.mark.parametrize(
    ("players", "above", "below"), [(2, 15, 29), (3, 18, 25), (4, 24, 18), (5, 30, 11)]
)
def test_s2_s6_h2_the_game_end_card_lies_under_the_top_part_and_anyone_may_count_both_parts(
    players: int, above: int, below: int
) -> None:
    state = deal(players)
    assert state.above_game_end == above and state.below_game_end == below
    assert len(state.deck) == 48 - 1 - (players + 1)


def test_s2_the_game_end_card_goes_where_the_player_count_puts_it() -> None:
    command = kit.with_changes(dealing(3), above_game_end=ABOVE_GAME_END[4])
    assert refused(State(), command) == Refusal(
        "With 3 players the Game End card goes under the top 23 cards (S2)."
    )


def test_s5_each_seat_is_dealt_one_different_final_scoring_card() -> None:
    state = deal(3)
    assert state.scoring == ("FS1", "FS2", "FS3")
    reason = Refusal("Each seat is dealt one Final Scoring card, all different (S5).")
    for scoring in (("FS1", "FS2"), ("FS1", "FS1", "FS2"), ("FS1", "FS2", "FS7")):
        assert refused(State(), kit.with_changes(dealing(3), scoring=scoring)) == reason


def test_h1_h2_the_deck_order_and_the_scoring_cards_never_show_in_a_repr() -> None:
    command = dealing(3, deck=deck_from("Ursa Major"))
    state, events = act(State(), command)
    dealt = events[0]
    assert isinstance(dealt, GameDealt)
    for holder in (command, dealt, state):
        shown = repr(holder)
        assert "deck=<hidden>" in shown and "scoring=<hidden>" in shown
        assert "FS1" not in shown and repr(holder.deck)[1:30] not in shown
    assert "above_game_end=18" in repr(state)  # H2: the counts are public


def test_p3_the_first_player_is_the_servers_draw_and_one_of_the_seats() -> None:
    assert deal(4, first_player=3).first_player == 3
    for first in (0, 5):
        assert refused(State(), dealing(4, first_player=first)) == Refusal(
            "The first player is one of the seats (P3)."
        )


def test_z1_the_deal_happens_once_and_the_clock_runs_a_positive_time() -> None:
    state = deal(3)
    assert refused(state, dealing(3)) == Refusal(
        "The game has already been dealt.", Problem.CONFLICT
    )
    assert refused(State(), dealing(3, step_seconds=0)) == Refusal(
        "A turn's clock runs for a positive number of seconds (Z1)."
    )


# -- the table (S1, S3, S4, S6, S7, I3) ------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_s1_s6_the_board_for_the_player_count_with_n_plus_1_slots_filled_in_deck_order(
    players: int,
) -> None:
    deck = DECK[::-1]
    state = deal(players, deck=deck)
    assert state.board == SPHERE_BOARDS[players] and len(state.slots) == players + 1
    assert tuple(slot.card for slot in state.slots) == deck[1 : players + 2]
    assert all(slot.marked == frozenset() and slot.undiscovered for slot in state.slots)
    assert state.deck == deck[players + 2 :]


def test_s3_the_top_card_is_discarded_and_the_marker_starts_on_its_element() -> None:
    state = deal(3, deck=deck_from("Ursa Major", "Leo"))  # Ursa Major: Earth
    assert state.discard == (number("Ursa Major"),)
    assert state.sphere is Element.EARTH
    assert state.slot(1).card == number("Leo")
    other = deal(3)  # Andromeda on top: Air
    assert other.sphere is BY_NUMBER[DECK[0]].element is Element.AIR


def test_s3_s6_the_table_is_one_public_event_naming_every_card_it_turns_up() -> None:
    decision = decide(State(), dealing(2, deck=deck_from("Leo", "Lyra", "Hydra", "Draco")), NOW)
    assert isinstance(decision, list)
    table = decision[1]
    assert table == TableSet(
        number("Leo"), Element.FIRE, (number("Lyra"), number("Hydra"), number("Draco"))
    )


def test_i3_a_stored_table_that_names_another_card_than_the_decks_top_breaks_the_fold() -> None:
    decision = decide(State(), dealing(2), NOW)
    assert isinstance(decision, list)
    dealt, table = decision[0], decision[1]
    assert isinstance(table, TableSet)
    wrong = kit.with_changes(table, discarded=table.slots[0])
    with pytest.raises(ValueError, match="off the deck"):
        fold([dealt, wrong])


@pytest.mark.parametrize("players", [2, 5])
def test_s4_j1_j2_j3_j4_j5_every_journal_starts_alike(players: int) -> None:
    """8 Stardust (J1), no Telescope (J2), Pouch size 5 (J3), card limit 2 (J4), no Fame
    (J5), no card."""
    state = deal(players)
    assert state.journals == (Journal(),) * players
    journal = state.journal(players)
    assert (journal.stardust, journal.telescopes, journal.fame, journal.held) == (8, 0, 0, ())
    assert (journal.pouch_size, journal.card_limit) == (5, 2)  # J3, J4


def test_j3_j4_the_pouch_size_and_card_limit_are_read_from_the_tracks() -> None:
    assert [Journal(pouch_gains=g).pouch_size for g in (0, 1, 7)] == [5, 6, 12]
    assert [Journal(wisdom=w).card_limit for w in (0, 1, 2, 3, 11)] == [2, 3, 3, 4, 8]


@pytest.mark.parametrize(("players", "dreamer"), [(2, True), (3, False), (5, False)])
def test_s7_p2_only_a_two_player_game_sets_out_the_dreamer_pen(players: int, dreamer: bool) -> None:
    assert deal(players).dreamer is dreamer


# -- a turn starts (S8, T1, P3, E5) ----------------------------------------------------------


def test_s8_t1_the_first_players_first_turn_starts_at_its_ability_phase() -> None:
    decision = decide(State(), dealing(4, first_player=2, step_seconds=90), NOW)
    assert isinstance(decision, list)
    assert decision[-1] == TurnStarted(2, 0, 0, NOW + timedelta(seconds=90))
    state = fold(decision)
    assert (state.phase, state.active, state.turn, state.round) == (Phase.ABILITY, 2, 0, 0)
    assert state.step_started == state.version == 3  # the step started with TurnStarted
    assert state.deadline == NOW + timedelta(seconds=90)
    assert (state.observes, state.rested, state.discovered) == (0, False, ())


def test_t1_without_a_clock_a_turn_has_no_deadline() -> None:
    assert deal(3).deadline is None


def test_p3_e5_turns_go_clockwise_from_the_first_player_a_round_is_one_turn_each() -> None:
    seats = [seat_of_turn(3, turn, 4) for turn in range(9)]
    assert seats == [3, 4, 1, 2, 3, 4, 1, 2, 3]
    state = kit.with_changes(deal(4, first_player=3), turn=5)
    assert state.round == 1


# -- the guards (T2, T4, T5, the turn's deadline) --------------------------------------------


def test_t4_a_command_made_against_a_stale_version_is_refused_and_changes_nothing() -> None:
    state = deal(3)
    stale = Observe(1, state.version - 1, 1, (0,))
    assert refused(state, stale) == Refusal(STALE, Problem.CONFLICT)
    assert refused(state, Rest(1, state.version + 1)) == Refusal(STALE, Problem.CONFLICT)
    after, _ = act(state, observing(state, 1, 0))  # the same Observe at the right version
    assert after.slot(1).marked == {0}


def test_t2_only_the_active_player_acts() -> None:
    state = deal(3, first_player=2)
    reason = Refusal("It is another player's turn: only they act now (T2).", Problem.FORBIDDEN)
    assert refused(state, Observe(1, state.version, 1, (0,))) == reason
    assert refused(state, Rest(3, state.version)) == reason
    assert refused(state, Done(1, state.version)) == reason
    assert refused(state, Rest(4, state.version)) == Refusal(
        "That seat is not in this game.", Problem.FORBIDDEN
    )


def test_t5_nothing_is_played_before_the_deal() -> None:
    assert refused(State(), Observe(1, 0, 1, (0,))) == Refusal(UNDEALT, Problem.CONFLICT)
    assert refused(State(), Rest(1, 0)) == Refusal(UNDEALT, Problem.CONFLICT)


def test_z2_the_turn_steps_deadline_stops_the_players_commands() -> None:
    state = deal(3, step_seconds=60)
    late = NOW + timedelta(seconds=60)
    assert refused(state, Rest(1, state.version), late) == Refusal(
        "Time is up for this turn.", Problem.CONFLICT
    )
    ended, _ = action_ended(state, Rest(1, state.version))  # in time
    assert ended.deadline is None  # no step runs once the Action is over (D1, T3 next)
    state, _ = rest(state)
    assert (state.active, state.deadline) == (2, NOW + timedelta(seconds=60))  # T3, T1


def test_z2_z8_the_clocks_expiry_is_guarded() -> None:
    state = deal(3, step_seconds=60)
    early, late = NOW + timedelta(seconds=59), NOW + timedelta(seconds=60)
    assert refused(state, Expire(state.step_started), early) == Refusal(
        "This turn still has time.", Problem.CONFLICT
    )
    assert refused(state, Expire(state.step_started - 1), late) == Refusal(
        "That turn is already over.", Problem.CONFLICT
    )
    assert refused(deal(3), Expire(state.step_started), late) == Refusal(
        "This turn has no clock.", Problem.CONFLICT
    )


def test_a_command_this_game_does_not_know_is_refused() -> None:
    assert decide(deal(3), cast(Command, "castle"), NOW) == Refusal(
        "That is not something this game knows how to do."
    )


def test_t5_a_refusal_changes_nothing_and_says_why_in_a_sentence() -> None:
    state = deal(3, step_seconds=60)
    before = repr(state), state.journals, state.slots, state.version
    commands: list[Command] = [
        Observe(2, state.version, 1, (0,)),
        Observe(1, state.version - 1, 1, (0,)),
        Observe(1, state.version, 1, (1,)),
        Observe(1, state.version, 9, (0,)),
        Observe(1, state.version, 1, ()),
        Done(1, state.version),
        Rest(7, state.version),
        dealing(3),
        Expire(state.step_started),
    ]
    for command in commands:
        reason = refused(state, command).reason
        assert reason[0].isupper() and reason.endswith("."), reason
    assert (repr(state), state.journals, state.slots, state.version) == before
    after, _ = act(state, observing(state, 1, 0))  # and the table still plays
    assert after.slot(1).marked == {0}
