"""Rendering Constellate's board for one audience: the page and the pushes use this."""

from __future__ import annotations

from django.template.loader import render_to_string

from . import rules
from .presenters import audience_of, audiences, present, present_history, result_text
from .services import current

__all__ = [
    "audience_of",
    "audiences",
    "current",
    "describe",
    "history_board",
    "history_jumps",
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
    return f"{place.crew.display} {place.role}"


def render_board(
    state: rules.State, audience: str, names: dict[int, str], code: str, *, oob: bool = False
) -> str:
    board = present(state, audience, names, code)
    return render_to_string("constellate/board.html#board", {"board": board, "oob": oob})


def render_notice(message: str, *, error: bool = True) -> str:
    return render_to_string("constellate/board.html#notice", {"message": message, "error": error})


# -- the replay (games.views.history) ---------------------------------------------------------


def history_board(state: rules.State, names: dict[int, str], code: str) -> str:
    """A step of a replay: the whole key, nothing to press, no clock."""
    board = present_history(state, names, code)
    return render_to_string("constellate/board.html#board", {"board": board, "oob": False})


def history_jumps(final: rules.State, names: dict[int, str]) -> tuple[str, list[tuple[int, str]]]:
    jumps = [(c.version, f"{c.number}. {c.word} {c.count}") for c in final.constellations]
    return "Jump to a constellation", jumps


def describe(before: rules.State, after: rules.State, names: dict[int, str]) -> str:
    """What the step's event did, in a sentence."""
    if not before.dealt:
        first = after.first_crew.display if after.players >= 4 else "the crew"
        return f"The sky was dealt: {first} starts."
    if after.ended:
        return result_text(after)
    if len(after.constellations) > len(before.constellations):
        c = after.constellations[-1]
        return f"{names.get(c.seat, 'The Stargazer')} named {c.word} {c.count}."
    new_lit = sorted(after.lit - before.lit)
    if new_lit and after.constellations:
        touches = after.constellations[-1].touches
        if touches and touches[-1].card in new_lit:
            who = names.get(touches[-1].seat, "A Spotter")
            return f"{who} touched the {after.sky[touches[-1].card]}."
        return "The comet lit " + ", ".join(after.sky[i] for i in new_lit) + "."
    if after.step is rules.Step.NAMING and before.step is not rules.Step.NAMING:
        return "The turn ended."
    if after.crew is not before.crew or after.step_started != before.step_started:
        return f"{after.crew.display if after.players >= 4 else 'The crew'} names next."
    return "The turn ended."
