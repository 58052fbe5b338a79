"""What the hostile-form fuzz of a game played by seats at once shares (Look at the Stars'
and Observatory's ``test_fuzz.py``): the rate limits lifted, the request htmx sends, the
form as the view reads it, the check that a refusal's notice is readable, and the rules'
own verdict on a form, made independently of the view; and the values and overlays the
fuzz sends, from a game's own nearly-right values and fields.

A ``table`` is a test's room of the game: ``room`` (the lobby's ``Room``), ``seats`` (seat
number -> ``Client``), ``spectator`` and ``state()``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

import pytest
from django.db import transaction
from django.http import QueryDict
from django.test import Client, override_settings
from django.utils import timezone
from hypothesis import event
from hypothesis import strategies as st

from games import store
from games.definition import GameDefinition
from games.inputs import BadInput
from games.kit import Refusal
from lobby.models import Room
from tests.web.rooms import notice
from tests.web.test_fuzz import HOSTILE, LOOSE

HX = {"HX-Request": "true"}  # the header htmx sends with every request


class Table(Protocol):
    room: Room
    seats: dict[int, Client]
    spectator: Client

    def state(self) -> Any: ...


def value(near: Sequence[str]) -> st.SearchStrategy[str]:
    """One field's value: anything hostile (``tests/web/test_fuzz.py``'s), or one of the
    game's ``near`` values, nearly right."""
    return st.one_of(HOSTILE, st.sampled_from(near))


def overlay(
    value: st.SearchStrategy[str], fields: Sequence[str], junk_fields: Sequence[str]
) -> st.SearchStrategy[dict[str, Any]]:
    """What the fuzz lays over a form: a few of the page's ``fields``, or more of them and of
    ``junk_fields``, each with one ``value`` or several (the form carries the key more than
    once)."""
    values = st.one_of(value, value, st.lists(value, min_size=2, max_size=3))
    return st.one_of(
        st.dictionaries(st.sampled_from(fields), values, max_size=2),
        st.dictionaries(st.sampled_from((*fields, *junk_fields)), values, max_size=6),
    )


@pytest.fixture(autouse=True)
def loose_limits() -> Iterator[None]:
    """Hundreds of requests from one browser: the rate limits are not what is tested here
    (and, between twin rooms, a 429 in one room only would differ for a reason that is no
    secret). Autouse in the modules that take it in (``loose_limits = fuzzing.loose_limits``)."""
    with override_settings(RATE_LIMITS=LOOSE):
        yield


def readable(response: Any) -> str:
    """The refusal's notice: there, short, printable (no echo of a huge or hostile input)."""
    text = notice(response)
    assert text, response.content[:300]
    assert len(text) < 300, text[:300]
    assert not any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text), text
    assert "Traceback" not in text and "Exception" not in text
    return text


def query(form: dict[str, object]) -> QueryDict:
    """The form as the view reads it (``request.POST`` / ``request.GET``)."""
    q = QueryDict(mutable=True)
    for key, value in form.items():
        for one in value if isinstance(value, list) else [value]:
            q.appendlist(key, str(one))
    return q


def client_of(table: Table, who: object) -> Client:
    """A seat's browser, the spectator's, or a stranger's that has just opened the link."""
    if who == "stranger":
        stranger = Client()
        stranger.get(f"/r/{table.room.code}/")
        return stranger
    return table.spectator if who == "spectator" else table.seats[who]  # type: ignore[index]


def rules_accept(
    game: GameDefinition[Any, Any], table: Table, endpoint: str, seat: int, form: dict[str, object]
) -> bool:
    """Independently of the view: would the rules accept this form from ``seat`` now?"""
    action = game.actions[endpoint.removeprefix("play/")]
    try:
        command = action.build(query(form), seat)
    except BadInput:
        return False
    return not isinstance(game.decide(table.state(), command, timezone.now()), Refusal)


def send(client: Client, table: Table, endpoint: str, form: dict[str, Any]) -> Any:
    """The request a browser's htmx sends (a GET for the preview, a POST for the rest)."""
    url = f"/r/{table.room.code}/{endpoint}"
    if endpoint.startswith("preview/"):
        return client.get(url, form, headers=HX)
    return client.post(url, form, headers=HX)


# -- one hostile form, sent and judged ---------------------------------------------------------


class _Undo(Exception):
    """Raised to roll a savepoint back."""


@contextmanager
def undone() -> Iterator[None]:
    """Whatever the block appends is rolled back, and no folded state of it is kept: every
    example of a fuzz starts from the same game."""
    try:
        with transaction.atomic():
            yield
            raise _Undo
    except _Undo:
        pass
    finally:
        store.forget_cached_states()


class Stored(Table, Protocol):
    def stored(self) -> list[Any]: ...


def judged(
    game: GameDefinition[Any, Any],
    table: Stored,
    endpoint: str,
    who: object,
    form: dict[str, object],
    *,
    label: str,
    on_tap: Callable[[str], None],
    on_stored: Callable[[Any], None],
) -> None:
    """Send one form as ``who`` and judge the answer: never a 500; a refusal is a readable
    4xx that appends nothing and is never a command the rules accept; a preview (``on_tap``,
    given the answer) appends nothing; an accepted command is one the rules accept and is
    appended (``on_stored``, given the state before)."""
    seat = who if isinstance(who, int) else 1
    before, state = table.stored(), table.state()
    legal = (
        isinstance(who, int)
        and endpoint.startswith("play/")
        and rules_accept(game, table, endpoint, seat, form)
    )
    response = send(client_of(table, who), table, endpoint, form)
    assert response.status_code < 500, response.content[:500]
    event(f"{label} {endpoint} {response.status_code}{' legal' if legal else ''}")
    if response.status_code >= 400:
        readable(response)
        assert not legal, (endpoint, who, form)
        assert table.stored() == before and table.state() == state
        return
    assert response.status_code == 200
    if endpoint.startswith("preview/"):
        assert table.stored() == before  # asking records nothing
        on_tap(response.content.decode())
        return
    assert legal, (endpoint, who, form)
    after = table.stored()
    assert after[: len(before)] == before and len(after) > len(before)
    on_stored(state)
