"""A step that runs out leaves a trace: the log says so, with what one more would do (C4),
the crew naming again is warned, and the replay's sentence says it too (C2, C3, C4, C5)."""

from __future__ import annotations

import html
import re

import pytest

from games.constellate.game import GAME
from games.constellate.rules import Expire, State
from tests.web.rooms import Table, page, seat_table

pytestmark = pytest.mark.django_db


def run_out(table: Table) -> State:
    """The running step's clock runs out (the server applies it at its deadline)."""
    state = table.state()
    assert state.deadline is not None
    return GAME.act(table.room.game_id, Expire(state.step_started), now=state.deadline).state


def log_lines(text: str) -> list[str]:
    found = re.search(r'<section id="log".*?</section>', text, re.S)
    assert found
    items = re.findall(r"<li[^>]*>(.*?)</li>", found.group(0), re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", i)).split()) for i in items]


def finish(table: Table) -> State:
    """Every step runs out until the game ends (a forfeit, or the dawn): the replay opens."""
    state = table.state()
    while not state.ended:
        state = run_out(table)
    return state


def replay_sentence(table: Table, step: int) -> str:
    text = table.host.get(f"/r/{table.room.code}/history/1/?step={step}").content.decode()
    found = re.search(r'<p class="happened"[^>]*>(.*?)</p>', text, re.S)
    assert found
    return html.unescape(found.group(1)).strip()


def test_it_logs_a_missed_word_and_warns_that_one_more_forfeits_C2_C4():
    table = seat_table(4, step="60")
    late = table.state().crew
    name, rival = late.display, late.rival.display
    run_out(table)  # late's word never came
    line = f"{name}'s clock ran out before a word; one more and {name} forfeits"
    for client in (*table.seats.values(), table.spectator):
        assert log_lines(page(client, table.room)) == [line]
    run_out(table)  # the rival misses too: late names again, warned
    assert table.state().crew is late
    ours = page(table.seats[table.stargazer(late)], table.room)
    assert (
        "Your crew's clock ran out last turn: if it runs out again now, your crew forfeits"
        in html.unescape(ours)
    )
    theirs = page(table.seats[table.stargazer(late.rival)], table.room)
    assert (
        f"{name}'s clock ran out last turn: if it runs out again now, {name} forfeits"
        in html.unescape(theirs)
    )
    assert log_lines(theirs) == [
        f"{rival}'s clock ran out before a word; one more and {rival} forfeits",
        line,
    ]
    run_out(table)  # C4: the second in a row
    final = table.state()
    assert final.ended and final.winner is late.rival
    assert log_lines(page(table.spectator, table.room))[0] == (
        f"{name}'s clock ran out before a word again: {name} forfeits"
    )
    assert (
        replay_sentence(table, 2)
        == f"{name}'s clock ran out before a word; one more and {name} forfeits."
    )
    assert replay_sentence(table, 3) == f"{rival} names next."
    between = table.host.get(f"/r/{table.room.code}/history/1/?step=2").content.decode()
    assert "if it runs out again now" not in between  # the miss's own step warns no one
    assert replay_sentence(table, final.version - 1) == (
        f"{name}'s clock ran out before a word again: {name} forfeits."
    )


def test_an_accepted_word_clears_the_warning_C4():
    table = seat_table(4, step="60")
    run_out(table)
    run_out(table)
    assert "clock ran out last turn" in page(table.spectator, table.room)
    assert table.name(number=1).status_code == 200
    assert "clock ran out last turn" not in page(table.spectator, table.room)


def test_a_missed_word_before_dawn_spends_an_hour_and_says_so_C2_C5():
    table = seat_table(2, step="60")
    run_out(table)
    line = "The clock ran out before a word: an hour is spent"
    assert log_lines(page(table.seats[2], table.room)) == [line]
    assert "forfeit" not in page(table.seats[1], table.room)  # C5: no forfeit
    finish(table)
    assert replay_sentence(table, 2) == line + "."


def test_a_spotting_time_out_is_said_in_the_log_and_the_replay_C3():
    table = seat_table(2, step="60")
    assert table.name(number=2).status_code == 200
    assert table.touch(table.dark_own()[0]).status_code == 200
    run_out(table)
    said = "the clock ran out while spotting, nothing banked"
    assert said in log_lines(page(table.spectator, table.room))[0]
    version = table.state().version
    finish(table)
    assert replay_sentence(table, version - 1) == f"The turn ended: {said}."
    assert replay_sentence(table, version) == "The crew names next."
