"""A game's HTML writes its numbers as digits (games/fragments.py): the version a page keeps
and sends back, a game's number, a card's index are read by the page's script and the
server, never localized, and cost no locale lookups."""

from __future__ import annotations

from types import SimpleNamespace

from django.template.loader import render_to_string
from django.test import override_settings

from games.fragments import render_fragment

AREA = "games/area.html"


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_a_fragments_numbers_are_digits_whatever_the_number_format() -> None:
    context = {"board": SimpleNamespace(version=12345), "game": 67890}
    html = render_fragment(AREA, context)
    assert 'data-version="12345"' in html and 'data-game="67890"' in html
    assert 'data-version="12,345"' in render_to_string(AREA, context)  # Django's own way


def test_a_fragment_is_what_django_renders_otherwise() -> None:
    context = {
        "board": SimpleNamespace(version=7),
        "game": 3,
        "area_oob": True,
        "since": 6,
    }
    assert render_fragment(AREA, context) == render_to_string(AREA, context)
    assert 'data-since="6" hx-swap-oob="true"' in render_fragment(AREA, context)
