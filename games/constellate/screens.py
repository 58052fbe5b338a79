"""Rendering Constellate's board for one audience: the page and the pushes use this."""

from __future__ import annotations

from django.template.loader import render_to_string

from . import rules
from .presenters import audience_of, audiences, present
from .services import current

__all__ = [
    "audience_of",
    "audiences",
    "current",
    "mode_label",
    "render_board",
    "render_notice",
    "seat_label",
]


def mode_label(players: int) -> str:
    return "Rivalry" if players >= 4 else "Before Dawn"  # S2, S3


def seat_label(players: int, seat: int) -> str:
    """The crew and role a seat has for this player count (S2/S3)."""
    place = rules.seat_of(max(players, 2), seat)
    if players < 4:
        return place.role
    return f"{place.crew.title} {place.role}"


def render_board(
    state: rules.State, audience: str, names: dict[int, str], code: str, *, oob: bool = False
) -> str:
    board = present(state, audience, names, code)
    return render_to_string("constellate/board.html#board", {"board": board, "oob": oob})


def render_notice(message: str, *, error: bool = True) -> str:
    return render_to_string("constellate/board.html#notice", {"message": message, "error": error})
