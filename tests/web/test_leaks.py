"""K4/K5 leak tests: nothing a Spotter or a spectator can receive carries a dark card's key.

Two checks, for the full page, each pushed fragment and each refusal, mid-game:

* Reading the HTML: every dark card's button (its attributes, text, and everything inside
  it) and every comment and hidden input is free of the key's words and symbols; each key
  symbol appears exactly as often as lit cards of that kind, and "haze"/"cloud"/"comet"
  exactly as often as the lit cards and the log explain.
* A twin sky: the same game with the dark cards' keys shuffled among themselves. What a
  Spotter or a spectator receives must be byte for byte the same in both worlds (so no
  form of the key can be in it), while the Stargazer's differs (the positive control).
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from django.test import Client

from games import store
from games.constellate.game import GAME
from games.constellate.presenters import KEY_SYMBOLS, PUBLIC
from games.constellate.rules import CardTouched, Key, Mode, State, TurnEnd
from lobby import realtime
from lobby.models import Match
from tests.web.rooms import (
    Table,
    dark_card_findings,
    every_push_into,
    page,
    parse_cards,
    post,
    seat_table,
    shows_panel,
)

pytestmark = pytest.mark.django_db

# -- the checks ----------------------------------------------------------------------


def explained_counts(html: str, state: State) -> None:
    """Each key symbol appears once per lit card of its kind (the badge); haze, cloud and
    comet as often as lit cards (label), log touches (label) and turn endings explain."""
    # The CSRF token is random letters per response: it may spell "haze" by chance.
    text = re.sub(r'"x-csrftoken": "[^"]*"', "", html.lower())
    lit = [state.key[i] for i in state.lit]
    for key, symbol in KEY_SYMBOLS.items():
        assert html.count(symbol) == lit.count(key), (key, symbol)
    log_touches = [state.key[t.card] for c in state.constellations for t in c.touches]
    endings = [c.ended_by for c in state.constellations]
    comet_lines = sum(1 for c in state.constellations if c.comet_lit)
    ended_word = {
        Key.HAZE: endings.count(TurnEnd.HAZE),
        Key.CLOUD: endings.count(TurnEnd.CLOUD),
        Key.COMET: endings.count(TurnEnd.COMET) + comet_lines,
    }
    for key, extra in ended_word.items():
        word = key.value
        expected = lit.count(key) * 2 + log_touches.count(key) * 2 + extra
        # lit: the aria-label and the key-<kind> class; log: the label and the class
        assert text.count(word) == expected, (word, text.count(word), expected)


def assert_no_leak(html: str, state: State) -> None:
    assert not dark_card_findings(html, state)
    explained_counts(html, state)


# -- the twin world ------------------------------------------------------------------


def twin(state: State, seed: int = 7) -> State:
    """The same state with the dark cards' keys shuffled among themselves."""
    dark = [i for i in range(len(state.key)) if i not in state.lit]
    keys = [state.key[i] for i in dark]
    rng = random.Random(seed)
    shuffled = keys[:]
    while shuffled == keys:
        rng.shuffle(shuffled)
    new = list(state.key)
    for i, k in zip(dark, shuffled, strict=True):
        new[i] = k
    return dataclasses.replace(state, key=tuple(new))


@pytest.fixture
def twin_world(monkeypatch):
    """Switch the server into the twin world: every state it loads has the dark keys
    shuffled (the same way every time, so the world is consistent)."""
    real = store.state_of

    def switch():
        monkeypatch.setattr(store, "state_of", lambda game: twin(real(game)))

    return switch


def normal(html: str) -> str:
    """Drop what differs on every response: the masked CSRF token and the server's now."""
    html = re.sub(r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": ""', html)
    return re.sub(r'data-now="[^"]*"', 'data-now=""', html)


# -- mid-game tables -------------------------------------------------------------------


def rivalry_mid_game(step: str | None = None) -> Table:
    """A Rivalry of 6 after a stop, a rival star, a haze and a comet; the first crew is
    spotting again with one own star touched, so cards are lit and dark and touchable."""
    table = seat_table(6, step=step)
    assert table.name(number=2).status_code == 200
    assert table.touch(table.dark_own()[0]).status_code == 200
    assert table.stop().status_code == 200
    assert table.name(number=1).status_code == 200
    assert table.touch(table.dark(Key.HAZE)[0]).status_code == 200
    assert table.name(number=1).status_code == 200
    assert table.touch(table.dark_rival()[0]).status_code == 200
    assert table.name(number=2).status_code == 200
    assert table.touch(table.dark(Key.COMET)[0]).status_code == 200
    assert table.name(number=3).status_code == 200
    assert table.touch(table.dark_own()[0]).status_code == 200
    state = table.state()
    assert state.mode is Mode.RIVALRY and 5 < len(state.lit) < 24 and not state.ended
    return table


def dawn_mid_game() -> Table:
    table = seat_table(3)
    assert table.name(number=1).status_code == 200
    assert table.touch(table.dark(Key.CLOUD)[0]).status_code == 200
    assert table.name(number=2).status_code == 200
    assert table.touch(table.dark_own()[0]).status_code == 200
    state = table.state()
    assert state.mode is Mode.BEFORE_DAWN and state.touches_left == 1
    return table


def onlookers(table: Table) -> dict[str, Client]:
    """Every browser that must not see the key: Spotters of both crews, the spectator who
    joined without sitting, and a stranger who just opened the link."""
    state = table.state()
    who = {f"seat {n}": c for n, c in table.seats.items() if not state.seat(n).stargazer}
    return {**who, "spectator": table.spectator, "stranger": Client()}


def stargazers(table: Table) -> dict[str, Client]:
    state = table.state()
    return {f"seat {n}": c for n, c in table.seats.items() if state.seat(n).stargazer}


def refusals(table: Table, client: Client) -> list:
    """Every kind of refusal this browser can get now."""
    state = table.state()
    lit, dark = min(state.lit, default=0), min(set(range(24)) - state.lit)
    version = state.version
    return [
        post(client, table.room, "play/touch", card=lit, version=version),  # lit card
        post(client, table.room, "play/touch", card=dark, version=version - 1),  # stale
        post(client, table.room, "play/touch", card="x", version=version),  # malformed
        post(client, table.room, "play/touch", card=99, version=version),  # out of range
        post(client, table.room, "play/stop", version=version + 5),  # stale stop
        post(
            client, table.room, "play/name", word="qzxvq", number=1, version=version
        ),  # not theirs
        post(client, table.room, "play/name", word="", number="", version=""),
    ]


def responses(table: Table, client: Client) -> list[str]:
    """The page and every refusal (and a clock tick) one browser can receive."""
    out = [page(client, table.room)]
    for response in refusals(table, client):
        assert 400 <= response.status_code < 500, response.status_code
        out.append(response.content.decode())
    out.append(post(client, table.room, "tick").content.decode())
    return out


# -- the tests -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["rivalry", "dawn", "rivalry-clock", "naming"])
def test_no_dark_key_in_pages_or_refusals_for_spotters_and_spectators(kind):
    """K5 over HTTP: the full page, each refusal and the tick, read card by card."""
    if kind == "naming":
        table = seat_table(4)
    elif kind == "dawn":
        table = dawn_mid_game()
    else:
        table = rivalry_mid_game(step="120" if kind == "rivalry-clock" else None)
    state = table.state()
    for who, client in onlookers(table).items():
        for html in responses(table, client):
            assert not dark_card_findings(html, state), who
            if 'id="board"' in html:
                explained_counts(html, state)
    assert table.state() == state  # nothing the refusals did changed the game
    for who, client in stargazers(table).items():  # K4, the positive control
        html = page(client, table.room)
        assert len(dark_card_findings(html, state)) >= 24 - len(state.lit), who


@pytest.mark.parametrize("kind", ["rivalry", "dawn", "rivalry-clock"])
def test_what_onlookers_receive_does_not_depend_on_the_dark_keys(kind, twin_world):
    """K5, differential: the same requests in the twin world give the same bytes."""
    table = (
        dawn_mid_game() if kind == "dawn" else rivalry_mid_game("120" if "clock" in kind else None)
    )
    state = table.state()
    watchers = onlookers(table)
    gazers = stargazers(table)
    real = {who: [normal(h) for h in responses(table, c)] for who, c in watchers.items()}
    real_gazers = {who: normal(page(c, table.room)) for who, c in gazers.items()}

    twin_world()
    assert table.state().key != state.key and table.state().lit == state.lit
    for who, client in watchers.items():
        if who == "stranger":
            continue  # a new Client() each time: compare the ones that persist
        assert [normal(h) for h in responses(table, client)] == real[who], who
    for who, client in gazers.items():
        assert normal(page(client, table.room)) != real_gazers[who], who


@pytest.mark.parametrize("kind", ["rivalry", "dawn"])
def test_each_rendered_fragment_for_an_onlooker_audience_is_key_free(kind):
    """Every audience's board as screens.render_board renders it, in both worlds."""
    table = dawn_mid_game() if kind == "dawn" else rivalry_mid_game()
    state, other = table.state(), twin(table.state())
    names = Match.objects.get(game_id=table.room.game_id).names()
    audiences = GAME.screens.audiences(state)
    assert PUBLIC in audiences and any(a.startswith("spotter-") for a in audiences)
    for audience in audiences:
        html = GAME.screens.render_board(state, audience, names, table.room.code, game=1, oob=True)
        same = html == GAME.screens.render_board(
            other, audience, names, table.room.code, game=1, oob=True
        )
        if audience.startswith("stargazer-"):
            assert not same and dark_card_findings(html, state), audience
        else:
            assert same, audience
            assert_no_leak(html, state)


def twin_pushes(
    table: Table,
    state: State,
    events: list[object],
    first_version: int,
    sent: list[tuple[str, dict]],
) -> tuple[dict[str, dict], dict[str, dict]]:
    """What the real push path sends every group for ``events``, in ``state`` and in its
    twin (the dark keys shuffled): each group's message in the one world, then the other
    (``sent`` is where ``every_push_into`` collects them)."""
    pushed = []
    for world in (state, twin(state)):
        sent.clear()
        realtime.push_game(
            sender="constellate",
            game_id=table.room.game_id,
            state=world,
            events=events,
            first_version=first_version,
        )
        pushed.append(dict(sent))
    return pushed[0], pushed[1]


def test_each_pushed_fragment_reaches_its_group_without_the_key(
    monkeypatch, django_capture_on_commit_callbacks
):
    """The real push path (lobby.realtime) after a touch that ends the turn: every group
    gets the areas of a turn's end, not the whole board; the Spotters whose turn ended get
    their whole sky again. What goes to the public and the Spotters' groups carries no dark
    key; the Stargazers' groups see the touched card's key."""
    table = rivalry_mid_game()
    spotting, before = table.state().crew.value, table.state().version
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(realtime, "_send_all", every_push_into(sent))
    haze = table.dark(Key.HAZE)[0]
    with django_capture_on_commit_callbacks(execute=True):
        assert table.touch(haze).status_code == 200
    state = table.state()
    assert state.crew.value != spotting  # the haze ended the turn
    boards = {g: m for g, m in sent if m["type"] == "board.push"}
    room_id = table.room.pk
    assert set(boards) == {
        f"room-{room_id}-{a}"
        for a in ("public", "spotter-gold", "spotter-teal", "stargazer-gold", "stargazer-teal")
    }
    for group, message in boards.items():
        html = message["html"]
        assert message["version"] == state.version
        assert 'id="board"' not in html, group  # the turn ended: areas, not whole boards
        assert 'id="status"' in html and 'id="log"' in html and 'id="panel"' in html, group
        assert ('id="sky"' in html) == group.endswith(f"spotter-{spotting}"), group
        lit = [c for c in parse_cards(html).cards if c.index == haze]  # alone, or in the sky
        assert len(lit) == 1 and "lit" in lit[0].attrs["class"].split(), group
        assert "key-haze" in lit[0].attrs["class"].split(), group  # shown to everyone (K5)
        if "stargazer" not in group:
            assert not dark_card_findings(html, state), group

    # What the twin state (the dark keys shuffled) would have pushed: the same areas for
    # every group but the Stargazers', with this touch's own events (the card, the turn's
    # end, the next naming); and, as whole boards (no events named), the same for every
    # group but the Stargazers', whose whole sky shows the dark keys.
    touch = store.read_events(Match.objects.get(game_id=table.room.game_id).game, after=before)
    assert [type(e).__name__ for e in touch] == ["CardTouched", "TurnEnded", "NamingStarted"]
    for events, stargazers_differ in ((touch, False), ([], True)):
        first_version = before + 1 if events else state.version
        first, second = twin_pushes(table, state, events, first_version, sent)
        assert len(first) == 5
        for group in first:
            differ = stargazers_differ and "stargazer" in group
            assert (first[group] != second[group]) == differ, (group, events)


def test_the_comet_pushes_every_audience_its_whole_sky_without_the_key_V2(
    monkeypatch, django_capture_on_commit_callbacks
):
    """V2: the comet ends the turn and lights two of the rival crew's dark stars, so every
    audience is pushed its whole sky again, as an area (not the board). The Spotters' and
    the public's carry no dark key and would be the same with the dark keys shuffled; the
    Stargazers' show them."""
    table = seat_table(6)
    assert table.name(number=1).status_code == 200
    before = table.state()
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(realtime, "_send_all", every_push_into(sent))
    with django_capture_on_commit_callbacks(execute=True):
        assert table.touch(table.dark(Key.COMET)[0]).status_code == 200
    state = table.state()
    assert len(state.lit - before.lit) == 3  # the comet and two of the rival's stars
    pushes = {g: m["html"] for g, m in sent if m["type"] == "board.push"}
    assert len(pushes) == 5
    for group, html in pushes.items():
        assert 'id="board"' not in html and html.count('id="sky"') == 1, group
        lit = {c.index for c in parse_cards(html).cards if "lit" in c.attrs["class"].split()}
        assert lit == set(state.lit), group
        if "stargazer" in group:
            assert dark_card_findings(html, state), group
        else:
            assert_no_leak(html, state)
    comet = store.read_events(
        Match.objects.get(game_id=table.room.game_id).game, after=before.version
    )
    first, second = twin_pushes(table, state, comet, before.version + 1, sent)
    for group in first:
        assert (first[group] != second[group]) == ("stargazer" in group), group


def test_a_touch_that_keeps_the_turn_going_pushes_only_what_it_changed_without_the_key(
    monkeypatch, django_capture_on_commit_callbacks
):
    """Pushes by area: after a touch that leaves the turn going, every audience gets the
    status, the card it lit, the sky's version field, the panel and the log's line, each marked
    with the version it changed from, not the whole board; the Spotters' and the public's
    fragments carry no dark key, and the actor's own answer is its socket's push."""
    table = rivalry_mid_game()
    before = table.state()
    card = table.dark_own()[0]
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(realtime, "_send_all", every_push_into(sent))
    with django_capture_on_commit_callbacks(execute=True):
        answer = table.touch(card)
    assert answer.status_code == 200
    state = table.state()
    assert (state.crew, state.step, state.version) == (before.crew, before.step, before.version + 1)
    assert card in state.lit
    pushes = {g: m["html"] for g, m in sent if m["type"] == "board.push"}
    room_id = table.room.pk
    assert len(pushes) == 5
    whole = GAME.screens.render_board(
        state,
        PUBLIC,
        Match.objects.get(game_id=table.room.game_id).names(),
        table.room.code,
        game=table.room.game_id,
        oob=True,
    )
    for group, html in pushes.items():
        assert 'id="board"' not in html, group
        for area in ("status", "sky-version", f"card-{card}", f"line-{state.current.number}"):
            assert html.count(f'id="{area}"') == 1, (group, area)
        assert html.count(f'data-since="{before.version}"') == html.count("data-area") >= 4
        assert f'value="{state.version}"' in html  # touches are now made against the new one
        (pushed,) = parse_cards(html).cards
        assert pushed.index == card and "lit" in pushed.attrs["class"].split()
        assert len(html) < len(whole) / 2, group
        if "stargazer" in group:
            assert not shows_panel(html)  # the Stargazer has no controls while spotting
        else:
            assert not dark_card_findings(html, state), group
    # What the onlookers are pushed does not depend on the dark keys (the twin world).
    names = Match.objects.get(game_id=table.room.game_id).names()
    touched = [CardTouched(seat=0, card=card)]  # the areas depend on the event's kind only
    for audience in GAME.screens.audiences(state):
        if audience.startswith("stargazer-"):
            continue
        pushed = [
            normal(
                GAME.screens.render_push(
                    world, touched, audience, names, table.room.code, game=1, since=before.version
                )
            )
            for world in (state, twin(state))
        ]
        assert pushed[0] == pushed[1], audience
    actor = f"room-{room_id}-spotter-{state.crew.value}"
    assert shows_panel(pushes[actor])  # touches left, and the stop button
    assert pushes[actor] in answer.content.decode()


def test_lobby_fragments_carry_no_key():
    """The lobby panel pushed on lobby changes, and the lobby's refusals, mid-game."""
    table = rivalry_mid_game()
    for client in onlookers(table).values():
        for response in (
            post(client, table.room, "sit", seat=8),
            post(client, table.room, "start"),
            post(client, table.room, "clock", step="60"),
            post(client, table.room, "free", seat=1),
        ):
            assert 400 <= response.status_code < 500
            html = response.content.decode().lower()
            assert not any(w in html for w in ("haze", "comet", "☄", "≋", "★", "◆")), html


def test_at_the_end_everyone_sees_the_whole_sky():
    """K4/E2: the key is shown to all once the game is over."""
    table = seat_table(2)
    table.light_every_own_star()
    for client in (table.spectator, table.seats[2], Client()):
        html = page(client, table.room)
        cards = parse_cards(html).cards
        assert len(cards) == 24
        assert all(any("key-" in s for s in c.strings()) for c in cards)
