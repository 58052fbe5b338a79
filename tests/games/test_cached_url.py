"""A board's links are reversed once per (prefix, view, arguments) and reused
(games/templatetags/cached_url.py): the same links Django's ``{% url %}`` writes, under
whatever prefix the server is mounted at."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.template import engines
from django.urls import get_script_prefix, set_script_prefix

LINKS = (
    "{% load cached_url %}{% url 'lobby:act' code 'touch' %} "
    "{% url 'lobby:how_to_play' 'constellate' %}"
)


@pytest.fixture
def prefix() -> Iterator[None]:
    before = get_script_prefix()
    yield
    set_script_prefix(before)


def _links(code: str) -> str:
    return engines["django"].from_string(LINKS).render({"code": code})


def test_the_links_are_djangos_own() -> None:
    django_way = engines["django"].from_string(LINKS.replace("{% load cached_url %}", ""))
    for code in ("abcd-efgh-jkmn-pqrs", "wxyz-2345-6789-abcd"):
        assert _links(code) == django_way.render({"code": code})
        assert _links(code).startswith(f"/r/{code}/play/touch")


def test_a_server_mounted_under_a_prefix_links_under_it(prefix: None) -> None:
    code = "abcd-efgh-jkmn-pqrs"
    assert _links(code).startswith(f"/r/{code}/")  # reversed, and kept, at the root
    set_script_prefix("/stars/")
    assert _links(code).startswith(f"/stars/r/{code}/")
    set_script_prefix("/")
    assert _links(code).startswith(f"/r/{code}/")
