"""Rendering Under One Sky for one audience: the page, the pushes and the replay use this."""

from __future__ import annotations

from collections.abc import Mapping

from django.template.loader import render_to_string

from . import rules
from .presenters import (
    POINTS,
    audience_of,
    audiences,
    describe,
    present,
    present_history,
)
from .presenters import history_jumps as _jumps
from .services import current

__all__ = [
    "audience_of",
    "audiences",
    "current",
    "describe",
    "history_board",
    "history_jumps",
    "mode_label",
    "options_text",
    "render_board",
    "render_notice",
    "seat_label",
]


def seat_label(players: int, seat: int) -> str:
    return "Player"


def mode_label(players: int) -> str:
    return ""


def options_text(options: Mapping[str, str]) -> str:
    """What the host chose, for everyone in the lobby."""
    chart = rules.CHARTS.get(rules.Tile(options["chart"])) if "chart" in options else None
    compass = rules.Compass(options.get("compass", "N"))
    if chart is None:
        return ""
    note = f" ({chart.note.rstrip('.').lower()})" if chart.note else ""
    return f"{chart.title}{note}; its north points {POINTS[compass]}."


def render_board(
    state: rules.State, audience: str, names: dict[int, str], code: str, *, oob: bool = False
) -> str:
    board = present(state, audience, names, code)
    return render_to_string("underonesky/board.html#board", {"board": board, "oob": oob})


def render_notice(message: str, *, error: bool = True) -> str:
    return render_to_string("underonesky/board.html#notice", {"message": message, "error": error})


def history_board(state: rules.State, names: dict[int, str], code: str) -> str:
    board = present_history(state, names, code)
    return render_to_string("underonesky/board.html#board", {"board": board, "oob": False})


def history_jumps(final: rules.State, names: dict[int, str]) -> tuple[str, list[tuple[int, str]]]:
    return "Jump to a turn", _jumps(final, names)
