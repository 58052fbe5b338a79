"""Under One Sky's actions over htmx POSTs: parse, call the service, answer (the shared
``games.views.seat_action`` does who-may-act and the answer), and the rules page."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.inputs import BadInput
from games.views import int_field, seat_action

from . import rules, services
from .presenters import ACTIONS, GLYPHS, POINTS, SHAPES

VERSION = 10**6


def _seat_action(
    build: Callable[[HttpRequest, int], rules.Command],
) -> Callable[[HttpRequest, str], HttpResponse]:
    return seat_action(
        services.KIND, lambda game_id, command: services.act(game_id, command), build
    )


def _tile_choice(request: HttpRequest) -> int | None:
    """Which tile: one beside the board (0-2) or the blind top of the stack."""
    raw = request.POST.get("tile", "")
    if raw == "blind":
        return None
    if raw == "":
        raise BadInput("Pick a tile beside the board, or the blind tile, first.")
    return int_field(request, "tile", 0, rules.FACE_UP - 1)


def _origin(request: HttpRequest) -> int | None:
    if request.POST.get("origin", "") == "":
        return None
    return int_field(request, "origin", 0, rules.SPACES - 1)


place = _seat_action(
    lambda request, seat: rules.Place(
        seat=seat,
        space=int_field(request, "space", 0, rules.SPACES - 1),
        version=int_field(request, "version", 0, VERSION),
        face_up=_tile_choice(request),
    )
)
move = _seat_action(
    lambda request, seat: rules.Move(
        seat=seat,
        target=int_field(request, "target", 0, rules.SPACES - 1),
        version=int_field(request, "version", 0, VERSION),
        origin=_origin(request),
    )
)


def rules_page(request: HttpRequest) -> HttpResponse:
    """How to play, with the nine constellations and what the clock does."""
    charts = [
        {
            "colour": chart.colour.value,
            "title": chart.title,
            "note": chart.note,
            "cards": [
                {
                    "name": card.name,
                    "difficulty": rules.difficulty(card),
                    "rows": _rows(card.cells),
                }
                for card in chart.cards
            ],
        }
        for chart in rules.CHARTS.values()
    ]
    tiles = [
        {"colour": t.value, "glyph": GLYPHS[t], "shape": SHAPES[t], "action": ACTIONS[t]}
        for t in rules.COLOURS
    ]
    context = {"charts": charts, "tiles": tiles, "points": POINTS.values()}
    return render(request, "underonesky/rules.html", context)


def _rows(cells: tuple[tuple[int, int], ...]) -> list[list[bool]]:
    stars = set(cells)
    rows = max(r for r, _ in stars) + 1
    columns = max(c for _, c in stars) + 1
    return [[(r, c) in stars for c in range(columns)] for r in range(rows)]
