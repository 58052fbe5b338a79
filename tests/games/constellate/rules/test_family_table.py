"""A family table (a host option): the choice travels Deal -> SkyDealt -> State, so the clue
check a replay rebuilds is the one the game was played with. At a family table the check
refuses general profanity on top of W3's slurs and blocklist; the refusal is a word
refusal (T3): nothing is spent."""

from __future__ import annotations

import random

from games.constellate import clues
from games.constellate import game as constellate
from games.constellate.rules import Crew, Deal, Name, Problem, Refusal, SkyDealt, State, fold
from games.definition import Table
from tests.support.sky import NOW, SKY, events_of, play, rivalry_key, stargazer

RUDE = "crap"  # rated 2 ("likely profane") by cuss: data/profanity.txt


def _deal(family: bool) -> Deal:
    return Deal(4, SKY, rivalry_key(), Crew.GOLD, family=family)


def test_a_deal_is_an_open_table_unless_the_host_chose_a_family_table_W3():
    assert Deal(4, SKY, rivalry_key(), Crew.GOLD).family is False
    assert State().family is False


def test_the_sky_dealt_event_carries_the_family_table_W3():
    (dealt,) = events_of(State(), _deal(True))
    assert isinstance(dealt, SkyDealt) and dealt.family is True
    (dealt,) = events_of(State(), _deal(False))
    assert isinstance(dealt, SkyDealt) and dealt.family is False


def test_the_state_keeps_the_family_table_for_the_whole_game_W3():
    state = play(State(), _deal(True))
    assert state.family is True
    assert fold(events_of(State(), _deal(True))).family is True
    assert play(State(), _deal(False)).family is False


def test_the_server_draws_the_deal_from_the_hosts_option_W3():
    for chosen, family in (("family", True), ("open", False)):
        table = Table(4, None, {"table": chosen}, random.Random(1))
        deal = constellate.GAME.deal(table)
        assert isinstance(deal, Deal) and deal.family is family


def test_a_rude_word_is_a_word_refusal_only_at_a_family_table_W3_T3():
    for chosen in ("family", "open"):
        deal = constellate.GAME.deal(Table(4, None, {"table": chosen}, random.Random(1)))
        dealt = constellate.decide(State(), deal, NOW)
        assert isinstance(dealt, list)
        state = fold(dealt)
        command = Name(stargazer(state), RUDE, 2, state.version)
        decision = constellate.decide(state, command, NOW)
        if chosen == "family":
            assert decision == Refusal(clues.FAMILY_BLOCKED, Problem.WORD)  # T3: nothing spent
            assert RUDE not in clues.FAMILY_BLOCKED.lower()  # the word is not repeated
        else:
            assert not isinstance(decision, Refusal), decision
            assert fold(decision, state).constellations[-1].word == RUDE.upper()
