"""The event store: append-only rows, gap-free versions, serialized appends, the fold."""

import random
import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import IntegrityError, connections, transaction
from django.test.utils import CaptureQueriesContext

from games import store
from games.constellate.game import GAME
from games.constellate.rules import Name, Refusal, State, TouchCard
from games.constellate.rules.events import CardTouched, ConstellationTaken, SpottingStopped
from games.constellate.rules.model import Crew
from games.models import Event, Game
from tests.support.games import legal_commands, when


def _game(players=4, step_seconds=None, seed=7):
    game, outcome = GAME.start(players=players, step_seconds=step_seconds, rng=random.Random(seed))
    return game, outcome.state


@pytest.mark.django_db
def test_it_stores_the_deal_as_the_first_event_with_its_random_draw():
    game, state = _game()
    (row,) = Event.objects.filter(game=game)
    assert (row.seq, row.kind) == (1, "SkyDealt")
    assert row.payload["sky"] == list(state.sky)
    assert row.payload["first_crew"] == state.first_crew.value
    assert sorted(row.payload["key"]) == sorted(k.value for k in state.key)


@pytest.mark.django_db
def test_a_refusal_appends_nothing():
    game, state = _game()
    before = list(Event.objects.filter(game=game).values_list("seq", "kind", "payload"))
    for command in (
        Name(seat=3, word="ocean", number=1, version=state.version),  # a Spotter naming
        Name(seat=1, word="ocean", number=0, version=state.version),  # number 0
        Name(seat=1, word="x1", number=1, version=state.version),  # not a word
        TouchCard(seat=3, card=0, version=state.version),  # touching while naming
        Name(seat=1, word="ocean", number=1, version=state.version + 5),  # stale
    ):
        outcome = GAME.act(game.pk, command)
        assert isinstance(outcome.refusal, Refusal) and outcome.refusal.reason
        assert outcome.events == []
    after = list(Event.objects.filter(game=game).values_list("seq", "kind", "payload"))
    assert after == before
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.django_db
def test_versions_have_no_gaps_and_the_fold_from_storage_equals_the_live_state():
    game, state = _game(players=5, step_seconds=60)
    rng = random.Random(3)
    live_states = [state]
    now = state.deadline - timedelta(seconds=59)
    for _ in range(60):
        if state.ended:
            break
        command = rng.choice(legal_commands(state, rng))
        now = when(state, command, now)
        outcome = GAME.act(game.pk, command, now=now)
        assert outcome.ok, outcome.refusal
        state = outcome.state
        live_states.append(state)
    seqs = list(Event.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    game.refresh_from_db()
    assert game.version == len(seqs) == state.version
    store.forget_cached_states()
    assert store.state_of(game) == state
    replayed = store.replay(game)
    assert [s for s in replayed if s.version in {x.version for x in live_states}] == live_states


@pytest.mark.django_db
def test_a_stale_append_is_a_version_conflict_and_lands_nothing():
    game, state = _game()
    with pytest.raises(store.VersionConflict), transaction.atomic():
        store.append(game, [SpottingStopped(seat=3)], expected_version=0)
    assert Event.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_an_append_s_rows_read_back_as_written_however_many_it_holds():
    """The two writes are SQL made once (games/writes.py): every column reads back as the
    ORM reads it, a word in any script included, past one statement's worth of rows."""
    game, _ = _game()
    at = datetime(2026, 12, 6, 12, 0, 0, 123456, tzinfo=UTC)
    deadline = at + timedelta(seconds=90)
    events: list[object] = [
        ConstellationTaken(
            crew=Crew.GOLD, seat=1, word="csillag ☆ «ÉG»", count=2, allowance=3, deadline=deadline
        ),
        *(CardTouched(seat=3, card=n % 25) for n in range(129)),
    ]
    with transaction.atomic():
        assert store.append(game, events, expected_version=1, actor_seat=3, now=at) == 131
    rows = list(Event.objects.filter(game=game, seq__gt=1).order_by("seq"))
    assert [r.seq for r in rows] == list(range(2, 132))
    assert {(r.created_at, r.actor_seat, r.schema) for r in rows} == {(at, 3, 1)}
    assert rows[0].kind == "ConstellationTaken" and rows[0].payload["word"] == "csillag ☆ «ÉG»"
    assert store.read_events(game, after=1) == events
    game.refresh_from_db()
    assert (game.version, game.updated_at) == (131, at)
    with transaction.atomic():  # no seat: the clock's own events
        store.append(game, [CardTouched(seat=2, card=4)], expected_version=131, now=at)
    assert Event.objects.get(game=game, seq=132).actor_seat is None


@pytest.mark.django_db
def test_the_unique_game_and_seq_constraint_is_the_last_line_of_defence():
    game, _ = _game()
    row = Event.objects.get(game=game, seq=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(
            game=game, seq=1, kind=row.kind, payload=row.payload, created_at=row.created_at
        )


@pytest.mark.parametrize("row_read_first", [False, True], ids=["by id", "on the row read"])
@pytest.mark.django_db(transaction=True)
def test_two_racing_touches_land_exactly_one_event_T7(row_read_first):
    """Two Spotters touch at the same moment, on separate connections: one lands. Each
    action locks the game (given its id), or holds the row it read with its room, both
    read before either lands (no lock: the append's version check decides)."""
    game, state = _game(players=6)
    gazer = 1 if state.crew.value == "gold" else 2
    state = GAME.act(game.pk, Name(gazer, "ocean", 2, state.version)).state
    spotters = [n for n in range(3, 7) if state.seat(n).crew is state.crew]
    dark = [i for i in range(24) if i not in state.lit]
    barrier = threading.Barrier(2)
    results: list = []

    def touch(seat, card):
        try:
            game_or_row = Game.objects.get(pk=game.pk) if row_read_first else game.pk
            barrier.wait(timeout=5)
            results.append(GAME.act(game_or_row, TouchCard(seat, card, state.version)))
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=touch, args=(spotters[0], dark[0])),
        threading.Thread(target=touch, args=(spotters[1], dark[1])),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    landed = [r for r in results if r.ok]
    refused = [r for r in results if not r.ok]
    assert len(landed) == 1 and len(refused) == 1
    assert "changed a moment ago" in refused[0].refusal.reason
    touches = Event.objects.filter(game=game, kind="CardTouched").count()
    assert touches == 1
    seqs = list(Event.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.django_db(transaction=True)
def test_two_racing_raw_appends_at_the_same_version_cannot_both_land():
    game, state = _game()
    from games.constellate.rules import SpottingStopped

    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def append():
        try:
            seen = Game.objects.get(pk=game.pk)  # both writers saw version 1
            barrier.wait(timeout=5)
            with transaction.atomic():
                store.append(seen, [SpottingStopped(seat=3)], expected_version=seen.version)
            outcomes.append("landed")
        except (store.VersionConflict, IntegrityError):
            outcomes.append("conflict")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=append) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "landed"]
    assert Event.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert game.version == 2


@pytest.mark.django_db
def test_a_new_game_state_starts_empty():
    game = store.create_game("constellate")
    assert store.state_of(game) == State()


@pytest.mark.django_db(transaction=True)
def test_a_game_is_locked_only_inside_a_transaction_and_its_row_is_read_as_stored():
    """The lock's statement is compiled once (games/prepared.py): the check Django makes
    as it compiles a locking read is made on every call, and the lock is a real one where
    the database has row locks."""
    game, state = _game()
    with pytest.raises(transaction.TransactionManagementError):
        store.lock(game.pk)
    connection = connections["default"]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = store.lock(game.pk)
    (read,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert ("FOR UPDATE" in read) == connection.features.has_select_for_update
    fresh = Game.objects.get(pk=game.pk)
    assert (locked.pk, locked.kind, locked.version, locked.created_at) == (
        fresh.pk,
        fresh.kind,
        state.version,
        fresh.created_at,
    )
    assert store.game(game.pk).version == state.version
    with pytest.raises(Game.DoesNotExist):
        store.game(game.pk + 1000)
    with transaction.atomic(), pytest.raises(Game.DoesNotExist):
        store.lock(game.pk + 1000)


def _of_the_game(queries: CaptureQueriesContext) -> list[str]:
    """The kind of each statement on the game's row and events (the clue check's word list
    and the push's room are read as well)."""
    return [
        q["sql"].split()[0].upper()
        for q in queries.captured_queries
        if '"games_game"' in q["sql"] or '"games_event"' in q["sql"]
    ]


def _gazer(state: State) -> int:
    return 1 if state.crew.value == "gold" else 2


@pytest.mark.django_db(transaction=True)
def test_an_action_on_the_game_row_as_just_read_takes_no_lock_and_lands_T2():
    """An action reads the game's row with its room; the command is decided at that
    version and the append's conditional UPDATE is the first statement, with no locking
    read before it (on PostgreSQL, the UPDATE and the INSERT are one statement)."""
    game, state = _game()
    row = Game.objects.get(pk=game.pk)
    with CaptureQueriesContext(connections["default"]) as queries:
        outcome = GAME.act(row, Name(_gazer(state), "ocean", 2, state.version))
    assert outcome.ok and outcome.state.constellations[-1].word == "OCEAN"
    assert not any("FOR UPDATE" in q["sql"] for q in queries.captured_queries)
    one_statement = connections["default"].vendor == "postgresql"  # its WITH takes an UPDATE
    assert _of_the_game(queries) == (["WITH"] if one_statement else ["UPDATE", "INSERT"])
    assert row.version == 2 == Game.objects.get(pk=game.pk).version
    assert Event.objects.filter(game=game, kind="ConstellationTaken").count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_action_on_a_row_read_before_another_append_is_decided_again_on_the_game_as_it_is():
    """Two Stargazer clicks: the second was read (row and all) before the first landed. Its
    try at the old version is rolled back whole and it runs again on the locked game: one
    word is named, the second click is told the sky changed, no event is lost or doubled."""
    game, state = _game()
    stale = Game.objects.get(pk=game.pk)  # version 1, read before the other click landed
    first = GAME.act(game.pk, Name(_gazer(state), "ocean", 2, state.version))
    store.forget_cached_states()  # as in another process, which knows nothing newer
    second = GAME.act(stale, Name(_gazer(state), "river", 3, state.version))
    assert first.ok and not second.ok
    assert second.refusal.reason == "Your Spotters are touching the sky now."
    assert second.state.constellations[-1].word == "OCEAN" and second.state.version == 2
    kinds = list(Event.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))
    assert kinds == ["SkyDealt", "ConstellationTaken"]
    assert Game.objects.get(pk=game.pk).version == 2


@pytest.mark.django_db(transaction=True)
def test_a_row_older_than_what_the_process_knows_goes_straight_to_the_lock():
    """The process already folded a later version than the row read: deciding on the row
    would fold the game again from its deal only to be refused at the append."""
    game, state = _game()
    stale = Game.objects.get(pk=game.pk)
    GAME.act(game.pk, Name(_gazer(state), "ocean", 2, state.version))  # remembered at 2
    assert store.known_past(stale)
    with CaptureQueriesContext(connections["default"]) as queries:
        outcome = GAME.act(stale, Name(_gazer(state), "river", 3, state.version))
    assert not outcome.ok and outcome.state.constellations[-1].word == "OCEAN"
    locking = connections["default"].features.has_select_for_update
    assert any("FOR UPDATE" in q["sql"] for q in queries.captured_queries) == locking
    assert _of_the_game(queries) == ["SELECT"]  # the lock; nothing tried at the old version


@pytest.mark.django_db(transaction=True)
def test_a_row_read_before_another_append_never_moves_the_kept_state_back():
    """A fold to an older row's version (read before another thread's append landed) is
    not kept over the later state: the next action starts from the latest."""
    game, state = _game()
    stale = Game.objects.get(pk=game.pk)
    after = GAME.act(game.pk, Name(_gazer(state), "ocean", 2, state.version)).state
    assert store.state_of(stale).version == 1  # the old row still reads as it was
    assert store.known_past(stale)
    assert store.state_of(Game.objects.get(pk=game.pk)) is after  # no fold again


@pytest.mark.django_db(transaction=True)
def test_the_append_that_ends_a_game_stamps_its_end_once_in_the_same_write():
    """The end is stamped by the append's own UPDATE: the first ending write's time stays,
    and a conflicting append writes neither events nor an end."""
    game, _ = _game()
    at = datetime(2026, 12, 6, 21, 0, tzinfo=UTC)
    with pytest.raises(store.VersionConflict):
        store.append_steps(game, [([SpottingStopped(seat=3)], 3)], expected_version=0, ended=True)
    assert Game.objects.get(pk=game.pk).ended_at is None and game.ended_at is None
    steps = [([SpottingStopped(seat=3)], 3), ([CardTouched(seat=4, card=2)], None)]
    assert store.append_steps(game, steps, expected_version=1, now=at, ended=True) == 3
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.ended_at, game.ended_at) == (3, at, at)
    seats = Event.objects.filter(game=game, seq__gt=1).order_by("seq")
    assert list(seats.values_list("seq", "actor_seat")) == [(2, 3), (3, None)]
    later = at + timedelta(minutes=5)
    fresh = Game.objects.get(pk=game.pk)
    store.append_steps(
        fresh, [([SpottingStopped(seat=3)], 3)], expected_version=3, now=later, ended=True
    )
    assert Game.objects.get(pk=game.pk).ended_at == at  # the first end stands


@pytest.mark.django_db(transaction=True)
def test_a_game_played_to_its_end_on_rows_read_as_actions_read_them_is_stored_whole():
    """Each command on the row read just before (no lock), the clock's expiries among them
    (C6): no gap, the fold from storage is the live state, and the end is stamped with the
    time of the action that ended the game."""
    game, state = _game(players=4, step_seconds=60)
    rng = random.Random(11)
    now = state.deadline - timedelta(seconds=59)
    for _ in range(400):
        if state.ended:
            break
        command = rng.choice(legal_commands(state, rng))
        now = when(state, command, now)
        outcome = GAME.act(Game.objects.get(pk=game.pk), command, now=now)
        assert outcome.ok, outcome.refusal
        state = outcome.state
    assert state.ended
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.ended_at) == (state.version, now)
    seqs = list(Event.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, state.version + 1))
    store.forget_cached_states()
    assert store.state_of(stored) == state
