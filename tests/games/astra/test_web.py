"""Astra in real rooms made through the lobby, over the requests a browser sends (U1-U9):
the pages each audience gets, the marking strip's taps (nothing recorded), Observe, Rest and
Done, the Boon pick, the card limit and the Dream through their forms, refusals next to what
caused them, and whole games played to the results table."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils.html import escape

from games.astra import chain
from games.astra.rules.cards import BY_NUMBER
from games.astra.rules.decide import resolving
from games.astra.rules.model import Phase, State
from games.models import Event
from tests.games.astra.web_helpers import AstraRoom, hidden, said, tap_words
from tests.support.fuzzing import loose_limits  # noqa: F401 (an autouse fixture)
from tests.support.highest.fixtures import frozen_clock  # noqa: F401 (a fixture)
from tests.web.rooms import notice

pytestmark = pytest.mark.django_db

SCORING_CARD = re.compile(r"<caption>FS\d")


def _active(table: AstraRoom) -> int:
    active = table.state().active
    assert active is not None
    return active


def test_u1_u2_h1_every_seat_sees_the_table_and_only_its_own_scoring_card():
    """U1, U2, H1: every page shows the cards around the Sphere, the deck counter and every
    Journal; a seat's page holds its own Final Scoring card and no other; the spectator's
    holds none and no controls."""
    table = AstraRoom(3)
    state = table.state()
    for seat in (1, 2, 3):
        html = table.page(seat)
        own = state.scoring[seat - 1]
        assert f"<caption>{own}" in html and len(SCORING_CARD.findall(html)) == 1
        assert f"You are {table.names[seat]}" in html
        for n, slot in enumerate(state.slots, 1):
            assert slot.card is not None and escape(BY_NUMBER[slot.card].name) in html, n
        assert f"{state.above_game_end} before the end · {state.below_game_end} below" in html
    watching = table.page(None)
    assert "You are watching." in watching and not SCORING_CARD.search(watching)
    assert "play/" not in watching and "preview/mark" not in watching


def test_u2_u7_whose_turn_is_bold_for_the_active_seat_and_named_for_the_others():
    """U2, U7: "Your turn" for the active seat with its action bar (Rest) and the marking
    strip; everyone else reads whose turn it is, with no bar."""
    table = AstraRoom(3)
    active = _active(table)
    html = table.page(active)
    assert "Your turn" in html and 'hx-post="play/rest"' in html and "preview/mark" in html
    for other in (s for s in (1, 2, 3) if s != active):
        theirs = table.page(other)
        assert f"<strong>{table.names[active]}</strong>'s turn" in theirs
        assert "play/rest" not in theirs and "preview/mark" not in theirs


def test_u3_o10_the_marking_strip_offers_legal_stars_and_records_nothing():
    """U3, O3, O4, O10: from the page's own strip: the opened card lights its Starting star
    only; a tap adds it and lights its neighbours; a star that cannot come next is not
    added and the strip says why; Undo star takes it back; the stored events never change."""
    table = AstraRoom(3)
    active = _active(table)
    before = table.stored()
    html = table.page(active)
    assert hidden(html, "chain") == ""
    first = table.tap(active, mode="observe", open="1")
    assert first.status_code == 200
    answer = first.content.decode()
    card = BY_NUMBER[table.state().slot(1).card or 0]
    assert tap_words(answer) == ["1.0"]  # O3: nothing marked, the Starting star only
    answer = table.tap(active, mode="observe", open="1", add="1.0").content.decode()
    assert hidden(answer, "chain") == "1.0" and said(answer) == f"Tapped: {card.name} 0."
    assert sorted(tap_words(answer)) == sorted(f"1.{s}" for s in card.neighbours(0))
    far = next(s for s in range(card.stars) if s and s not in card.neighbours(0))
    refused = table.tap(active, mode="observe", chain="1.0", open="1", add=f"1.{far}")
    text = refused.content.decode()
    assert hidden(text, "chain") == "1.0" and "cannot come next" in said(text)
    undone = table.tap(active, mode="observe", chain="1.0", open="1", undo="1").content.decode()
    assert hidden(undone, "chain") == "" and said(undone).startswith("Undone")
    assert table.stored() == before


def test_o2_o6_an_observe_sent_from_the_strip_marks_and_pays():
    """O2, O6, O11: the chain the strip built is sent whole: the stars are marked with the
    seat's number on every page, the Stardust paid, and the log says so."""
    table = AstraRoom(3)
    active = _active(table)
    card = BY_NUMBER[table.state().slot(1).card or 0]
    second = min(card.neighbours(0))
    response = table.send(
        active, "observe", version=table.state().version, chain=chain.write([(1, 0), (1, second)])
    )
    assert response.status_code == 200, notice(response)
    state = table.state()
    assert state.slot(1).marks[0] == active and state.slot(1).marks[second] == active
    assert state.journal(active).stardust == 8 - 2
    public = table.page(None)
    assert f"observed {escape(card.name)}: 2 stars for 2 Stardust" in public
    assert f"Starting star 0 marked by seat {active}" in public  # U9: the number, not colour


@pytest.mark.parametrize(
    ("chain_sent", "says"),
    [
        ("", "Tap at least one star first (O1)."),
        ("1.0-2.0", "One chain marks one card: these stars lie on several (O2)."),
        ("1.x", "Star 1 of the chain is not a slot and a star, like 2.0."),
        ("7.0", "Star 1 of the chain names slot 7: slots are 1 to 6."),
    ],
)
def test_o10_t5_a_broken_chain_is_refused_with_its_reason_and_nothing_is_appended(chain_sent, says):
    """O10, T5: a chain the parser cannot read is refused with a message naming the part
    that is wrong; nothing is appended."""
    table = AstraRoom(3)
    active = _active(table)
    before = table.stored()
    response = table.send(active, "observe", version=table.state().version, chain=chain_sent)
    assert response.status_code == 400 and notice(response) == says
    assert table.stored() == before


def test_o3_t2_t4_the_rules_refuse_an_illegal_chain_a_stale_version_and_the_wrong_seat():
    """O3, T2, T4, T5: a chain not starting at the Starting star is refused by the rules with
    their reason; a stale version is refused; another seat may not act; nothing changes."""
    table = AstraRoom(3)
    active = _active(table)
    version = table.state().version
    before = table.stored()
    response = table.send(active, "observe", version=version, chain="1.1")
    assert 400 <= response.status_code < 500 and "(O3)" in notice(response)
    stale = table.send(active, "rest", version=version - 1)
    assert stale.status_code == 409
    other = next(s for s in (1, 2, 3) if s != active)
    assert 400 <= table.send(other, "rest", version=version).status_code < 500
    assert table.stored() == before


def test_r1_r2_a_rest_moves_the_marker_and_the_next_seat_plays():
    """R1, R5, T3: Rest from the bar: the Sphere marker moves one Sphere, the turn passes
    to the next seat, whose page now says "Your turn"."""
    table = AstraRoom(3)
    active = _active(table)
    sphere = table.state().sphere
    response = table.send(active, "rest", version=table.state().version)
    assert response.status_code == 200, notice(response)
    state = table.state()
    assert state.sphere is not sphere and state.active == active % 3 + 1
    assert "Your turn" in table.page(state.active)
    assert "rested: +0 Stardust" in table.page(None)


def _whole_game(table: AstraRoom, seed: int) -> State:
    return table.play_until(lambda s: s.ended, random.Random(seed), most=900)


@pytest.mark.parametrize("players", [2, 4])
def test_u8_f1_f9_a_whole_game_through_the_forms_ends_on_the_results_table(players):
    """U8, F1-F9, E7, D6, L1, V7: a whole game played only through the forms a browser
    sends (every Observe, Rest, Done, Ability, Boon pick, discard and Dream the computer
    would choose, sent as the page sends it) ends; every page shows the results table with
    each F-line and the total per player, the winner, and every dealt Final Scoring card."""
    table = AstraRoom(players)
    state = _whole_game(table, players)
    assert state.ended and state.phase is Phase.ENDED
    for who in (*range(1, players + 1), None):
        html = table.page(who)
        assert "Final scoring" in html and "Marked stars (F2)" in html and "Total" in html
        assert ("wins!" in html) or ("share the victory" in html)
        for card in state.scoring:
            assert f"<caption>{card}" in html


def test_d6_h4_u5_a_boon_pick_panel_is_offered_to_the_picker_only():
    """D6, U5, H4: when a discovery opens a pick step, the picker's page has the four boxes
    (posting the pick step), everyone sees the banner naming who is picking, and nobody
    else has the pick form; the pick, once sent, is the picker's own line."""
    rng = random.Random(11)
    for _ in range(6):
        table = AstraRoom(3)
        state = table.play_until(lambda s: s.ended or s.phase is Phase.PICKING, rng, most=600)
        if state.phase is Phase.PICKING:
            break
    else:
        pytest.skip("no pick step came up")  # pragma: no cover - the games above always pick
    assert state.picks is not None
    pickers = sorted(state.picks.waiting)
    picker = pickers[0]
    html = table.page(picker)
    assert 'hx-post="play/pick"' in html and hidden(html, "step") == str(state.picks.number)
    assert "is picking a Boon" in table.page(None) or "are picking a Boon" in table.page(None)
    resolved = state.slot(resolving(state)).constellation.name  # D3: the lowest discovered
    assert f"{resolved} discovered by" in table.page(None)
    assert f"{resolved}</" in html  # the pick panel names the card too
    for seat in (s for s in (1, 2, 3) if s not in pickers):
        assert 'hx-post="play/pick"' not in table.page(seat)
    box = re.search(r'name="box" value="(\d)"', html)
    assert box is not None
    response = table.send(picker, "pick", step=state.picks.number, box=box.group(1))
    assert response.status_code == 200, notice(response)
    after = table.state()
    if (
        after.phase is Phase.PICKING
        and after.picks is not None
        and after.picks.number == state.picks.number
    ):
        assert "You picked" in table.page(picker)


def test_z2_z3_the_clock_rests_for_a_silent_player_and_the_log_says_so(frozen_clock):  # noqa: F811
    """Z2, Z3, R7: a 60 s turn step runs out before any Action: the server takes a Rest for
    the player, the next seat's turn starts, and every page's log says the clock rested."""
    table = AstraRoom(3, step="60")
    active = _active(table)
    html = table.page(active)
    assert 'id="countdown"' in html and 'data-deadline="' in html
    frozen_clock.advance(61)
    state = table.state()
    assert state.active == active % 3 + 1
    assert "(the clock rested for them)" in table.page(None)


def test_z5_a_silent_picker_gets_the_leftmost_boon_when_the_half_step_runs_out(
    frozen_clock,  # noqa: F811
):
    """Z2, Z5: a Boon pick step lasts half the step length; a picker who sends nothing gets
    the leftmost Boon open to them, and the group completes."""
    rng = random.Random(3)
    for _ in range(8):
        table = AstraRoom(3, step="60")
        state = table.play_until(lambda s: s.ended or s.phase is Phase.PICKING, rng, most=600)
        if state.phase is Phase.PICKING:
            break
    else:
        pytest.skip("no pick step came up")  # pragma: no cover
    assert state.picks is not None and state.deadline is not None
    assert state.deadline - frozen_clock() <= timedelta(seconds=30)
    step = state.picks.number
    frozen_clock.advance(31)
    after = table.state()
    assert after.picks is None or after.picks.number != step or after.picks.closed
    assert " took " in table.page(None)  # BoonsCrossed, in the log


def test_u8_a_finished_game_replays_step_by_step_without_the_undealt_secrets():
    """U8, H1, H6: every step of a finished game's replay renders; the replay names turns
    in its jumps; no undealt Final Scoring card appears anywhere."""
    table = AstraRoom(2)
    state = _whole_game(table, 5)
    dealt = set(state.scoring)
    undealt = {f"FS{n}" for n in range(1, 7)} - dealt
    for n in (1, 2, 3, *range(4, state.version + 1, 9), state.version):
        response = table.host.get(f"/r/{table.code}/history/1/?step={n}")
        assert response.status_code == 200, n
        text = response.content.decode()
        assert not any(f"<caption>{card}" in text for card in undealt), n
    last = table.host.get(f"/r/{table.code}/history/1/?step={state.version}").content.decode()
    assert "Turn 1:" in last and "Final scoring" in last


@pytest.mark.django_db(transaction=True)
def test_a_computer_seated_by_the_host_plays_its_own_turns(settings):
    """A computer in seat 2, marked as one on every page, plays its own turns through the
    same commands: after each of the host's Rests the turn comes back to the host, with seat
    2's own events stored between (its Dream choices included, V7)."""
    settings.CONSTELLATE_COMPUTERS_INLINE = True
    table = AstraRoom(2, computers=(2,))
    machine = re.search(r"[A-Z][a-z]+ \(computer\)", table.page(1))
    assert machine is not None and machine.group(0) in table.page(None)
    host_turn = lambda s: s.active == 1 and s.phase is Phase.ABILITY  # noqa: E731
    for _ in range(3):
        table.play_until(host_turn, random.Random(2))  # the host's Dreams, by the page's form
        state = table.state()
        assert table.send(1, "rest", version=state.version).status_code == 200
    state = table.play_until(host_turn, random.Random(2))
    assert [seat for _, seat in state.turns].count(2) >= 3  # it played each turn it was given
    assert Event.objects.filter(game_id=table.game_id, actor_seat=2).exists()


def _until_discarding(players: int = 3) -> AstraRoom:
    rng = random.Random(17)
    for _ in range(10):
        table = AstraRoom(players)
        state = table.play_until(lambda s: s.ended or s.phase is Phase.DISCARDING, rng, 900)
        if state.phase is Phase.DISCARDING:
            return table
    pytest.skip("no card limit came up")  # pragma: no cover


def test_u6_l1_the_card_limit_panel_keeps_the_right_count_only():
    """U6, L1, L2: over the limit, the discoverer's page lists every held card ticked with
    "Keep n of m"; the others read who is choosing; keeping too many is refused with the
    rules' reason and changes nothing; keeping exactly the limit discards the rest face up."""
    table = _until_discarding()
    state = table.state()
    seat = state.active
    assert seat is not None
    journal = state.journal(seat)
    held = [h.card for h in journal.held]
    html = table.page(seat)
    assert f"Keep {journal.card_limit} of {len(held)}" in html
    assert all(f'name="keep-{card}" value="1" checked' in html for card in held)
    for other in (s for s in table.seats if s != seat):
        assert f"{table.names[seat]} is choosing cards to discard" in table.page(other)
        assert "play/discard" not in table.page(other)
    before = table.stored()
    form = {"version": state.version, "held": hidden(html, "held")}
    too_many = table.send(seat, "discard", **form, **{f"keep-{c}": "1" for c in held})
    assert 400 <= too_many.status_code < 500 and notice(too_many)
    assert table.stored() == before
    kept = held[: journal.card_limit]
    response = table.send(seat, "discard", **form, **{f"keep-{c}": "1" for c in kept})
    assert response.status_code == 200, notice(response)
    after = table.state()
    assert [h.card for h in after.journal(seat).held] == kept
    assert set(held[journal.card_limit :]) <= set(after.discard)


def test_u4_the_board_s_regions_for_a_wide_screen():
    """U4: the board's three regions, which the style sheet lays side by side on a wide
    board (a container query): the Sphere with its deck counter and the cards in the middle,
    the Journals on one side, the discard pile and the log on the other."""
    table = AstraRoom(3)
    html = table.page(1)
    middle = html.index('class="ast-middle"')
    left = html.index('class="ast-left"')
    right = html.index('class="ast-right"')
    assert middle < html.index("The Sphere") < html.index("The cards") < left
    assert left < html.index("Your Journal") < html.index("The other players") < right
    assert right < html.index("Discard pile") < html.index('id="log"')
