"""Events that evolve: each stored event keeps its schema version, and reading upcasts an
older one to the current version before decoding. Most changes here are test-only; the
last section reads a real change: Constellate's SkyDealt version 2 added ``family``."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import transaction

from games import registry, store
from games.codec import EventCodec, EventSchemas, Payload, SchemaError
from games.constellate import rules as constellate
from games.constellate.game import GAME
from games.definition import Table
from games.models import Event, Game
from games.registry import Definition, game_type
from tests.support.toy import toy_definition

pytestmark = pytest.mark.django_db

KIND = "evolving-sky"
NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)


# -- a test-only game whose events changed twice ------------------------------------------


@dataclass(frozen=True)
class StarNamed:
    """Version 2: version 1 called ``word`` ``name``."""

    seat: int
    word: str


@dataclass(frozen=True)
class StarSpotted:
    """Version 2: version 1 was the kind ``StarSeen``, with the same fields."""

    seat: int
    star: int


def _word_from_name(payload: Payload) -> tuple[str, Payload]:
    fields = dict(payload)
    fields["word"] = fields.pop("name")
    return "StarNamed", fields


def _seen_is_spotted(payload: Payload) -> tuple[str, Payload]:
    return "StarSpotted", payload


SCHEMAS = EventSchemas(
    current={"StarNamed": 2, "StarSpotted": 2},
    upcasts={("StarNamed", 1): _word_from_name, ("StarSeen", 1): _seen_is_spotted},
)


def _sky_after(state: tuple[str, ...], event: object) -> tuple[str, ...]:
    if isinstance(event, StarNamed):
        return (*state, f"{event.seat} named {event.word}")
    assert isinstance(event, StarSpotted)
    return (*state, f"{event.seat} spotted star {event.star}")


@pytest.fixture
def evolving_sky(monkeypatch: pytest.MonkeyPatch) -> Definition:
    kind = toy_definition(
        KIND,
        title="Evolving Sky",
        initial=tuple,
        evolve=_sky_after,
        event_types=(StarNamed, StarSpotted),
        event_schemas=SCHEMAS,
    )
    monkeypatch.setitem(registry._registry, KIND, kind)
    return kind


def _stored(game: Game, rows: list[tuple[str, int, dict[str, Any]]]) -> Game:
    """Rows written by older code: (kind, schema, payload), straight into the table."""
    Event.objects.bulk_create(
        Event(game=game, seq=n, kind=kind, schema=schema, payload=payload, created_at=NOW)
        for n, (kind, schema, payload) in enumerate(rows, start=1)
    )
    Game.objects.filter(pk=game.pk).update(version=len(rows))
    game.refresh_from_db()
    return game


def test_it_reads_a_version_1_payload_with_the_old_field_name_as_version_2(evolving_sky):
    game = _stored(Game.objects.create(kind=KIND), [("StarNamed", 1, {"seat": 1, "name": "owl"})])
    assert store.read_events(game) == [StarNamed(seat=1, word="owl")]


def test_it_replays_an_event_kind_renamed_by_an_upcaster(evolving_sky):
    game = _stored(
        Game.objects.create(kind=KIND),
        [
            ("StarNamed", 1, {"seat": 1, "name": "owl"}),
            ("StarSeen", 1, {"seat": 2, "star": 7}),  # the kind's old name
            ("StarSpotted", 2, {"seat": 3, "star": 9}),  # written since the rename
        ],
    )
    assert store.replay(game)[-1] == ("1 named owl", "2 spotted star 7", "3 spotted star 9")
    assert store.state_of(game) == store.replay(game)[-1]


def test_it_writes_each_event_in_its_current_version(evolving_sky):
    game = Game.objects.create(kind=KIND)
    with transaction.atomic():
        store.append(game, [StarNamed(1, "owl"), StarSpotted(2, 7)], expected_version=0, now=NOW)
    rows = Event.objects.filter(game=game).values_list("kind", "schema", "payload")
    assert list(rows) == [
        ("StarNamed", 2, {"seat": 1, "word": "owl"}),
        ("StarSpotted", 2, {"seat": 2, "star": 7}),
    ]
    assert store.read_events(game) == [StarNamed(1, "owl"), StarSpotted(2, 7)]


def test_a_version_newer_than_the_code_fails_loudly_naming_the_row_not_the_payload(
    evolving_sky,
):
    game = _stored(Game.objects.create(kind=KIND), [("StarNamed", 3, {"seat": 1, "w": "owl"})])
    with pytest.raises(SchemaError) as error:
        store.read_events(game)
    message = str(error.value)
    assert f"game {game.pk}, event 1" in message and "StarNamed version 3 is newer" in message
    assert "owl" not in message


def test_a_missing_upcaster_fails_loudly():
    skipped = EventSchemas(current={"StarNamed": 3}, upcasts={("StarNamed", 1): _word_from_name})
    codec = EventCodec((StarNamed,), skipped)
    with pytest.raises(SchemaError, match="no upcaster for StarNamed from version 2"):
        codec.decode("StarNamed", {"seat": 1, "name": "owl"}, 1)


def test_an_unknown_kind_fails_loudly(evolving_sky):
    game = _stored(Game.objects.create(kind=KIND), [("StarLost", 1, {"seat": 1})])
    with pytest.raises(SchemaError, match="unknown event kind StarLost"):
        store.read_events(game)


@pytest.mark.parametrize(
    "schemas",
    [
        EventSchemas(current={"StarNamd": 2}),  # a typo: no such event
        EventSchemas(current={"StarNamed": 0}),
        EventSchemas(upcasts={("StarNamed", 1): _word_from_name}),  # it is still at 1
    ],
)
def test_a_declaration_that_cannot_be_right_fails_when_the_game_registers(schemas):
    with pytest.raises(SchemaError):
        toy_definition(
            KIND,
            initial=tuple,
            evolve=_sky_after,
            event_types=(StarNamed,),
            event_schemas=schemas,
        )


# -- a test-only change to a real game's event, read from a real stored game ---------------


@dataclass(frozen=True)
class CardTouched:
    """A test-only version 2 of Constellate's CardTouched: ``card`` renamed ``picture``."""

    seat: int
    picture: int


def _picture_from_card(payload: Payload) -> tuple[str, Payload]:
    return "CardTouched", {"seat": payload["seat"], "picture": payload["card"]}


def test_a_stored_constellate_game_reads_back_with_a_renamed_field(monkeypatch):
    game, outcome = GAME.start(players=4, rng=random.Random(5), now=NOW)
    state = outcome.state
    crew = [s for s in map(state.seat, range(1, 5)) if s and s.crew is state.crew]
    gazer, spotter = (next(s.number for s in crew if s.stargazer is role) for role in (True, False))
    named = GAME.act(game.pk, constellate.Name(gazer, "ocean", 2, state.version), now=NOW)
    assert named.ok, named.refusal
    state = named.state
    card = next(i for i in range(24) if i not in state.lit)
    assert GAME.act(game.pk, constellate.TouchCard(spotter, card, state.version), now=NOW).ok
    assert Event.objects.get(game=game, kind="CardTouched").schema == 1

    real = game_type("constellate")
    schemas = real.event_schemas  # the real changes (SkyDealt 2) stay: the game holds one
    changed = dataclasses.replace(
        real,
        event_types=[CardTouched if t is constellate.CardTouched else t for t in real.event_types],
        event_schemas=EventSchemas(
            current={**schemas.current, "CardTouched": 2},
            upcasts={**schemas.upcasts, ("CardTouched", 1): _picture_from_card},
        ),
    )
    monkeypatch.setitem(registry._registry, "constellate", changed)
    touched = [e for e in store.read_events(game) if isinstance(e, CardTouched)]
    assert touched == [CardTouched(seat=spotter, picture=card)]


def test_rows_stored_before_schemas_existed_are_version_1():
    game, _ = GAME.start(players=2, rng=random.Random(1), now=NOW)
    row = Event.objects.get(game=game, seq=1)
    assert (row.kind, row.schema) == ("SkyDealt", 2)  # written in its current version
    Event.objects.create(
        game=game, seq=2, kind="SpottingStopped", payload={"seat": 2}, created_at=NOW
    )
    assert Event.objects.get(game=game, seq=2).schema == 1


# -- a real change: SkyDealt version 2 carries the family table ------------------------------


def _sky_dealt_v1() -> dict[str, Any]:
    """A SkyDealt payload as version 1 stored it: no ``family``."""
    _, payload = GAME.codec.encode(_dealt())
    del payload["family"]
    return payload


def _dealt() -> constellate.SkyDealt:
    deal = GAME.deal(Table(4, None, {"table": "open"}, random.Random(3)))
    decided = GAME.decide(GAME.initial(), deal, NOW)
    assert isinstance(decided, list)
    (event,) = decided
    assert isinstance(event, constellate.SkyDealt)
    return event


def test_sky_dealt_is_at_version_2_with_an_upcaster_from_version_1():
    assert GAME.event_schemas.current == {"SkyDealt": 2}
    assert ("SkyDealt", 1) in GAME.event_schemas.upcasts
    assert GAME.codec.schema("SkyDealt") == 2


def test_a_stored_version_1_sky_dealt_reads_back_as_an_open_table():
    payload = _sky_dealt_v1()
    assert "family" not in payload
    kind, upcast = GAME.codec.upcast("SkyDealt", payload, 1)
    assert (kind, upcast) == ("SkyDealt", {**payload, "family": False})
    event = GAME.codec.decode("SkyDealt", payload, 1)
    assert event == dataclasses.replace(_dealt(), family=False)
    game = _stored(Game.objects.create(kind="constellate"), [("SkyDealt", 1, payload)])
    (read,) = store.read_events(game)
    assert isinstance(read, constellate.SkyDealt) and read.family is False
    assert store.state_of(game).family is False


def test_a_version_1_sky_dealt_needs_its_upcaster():
    """Without the upcaster the old payload would not decode: the version is load-bearing."""
    with pytest.raises(TypeError):
        GAME.codec.decode("SkyDealt", _sky_dealt_v1())


def test_a_family_table_is_written_in_version_2_and_reads_back():
    game, outcome = GAME.start(players=2, options={"table": "family"}, rng=random.Random(2))
    row = Event.objects.get(game=game, seq=1)
    assert (row.kind, row.schema, row.payload["family"]) == ("SkyDealt", 2, True)
    assert outcome.state.family is True
    assert store.state_of(game).family is True
