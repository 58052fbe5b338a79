"""The host's choice for Observatory (G2): a *first game*, where each seat is dealt one Large
and three Small cards and keeps them all (no setup choice). Kept on the room as a string;
the clock is the room's (T1)."""

from __future__ import annotations

from collections.abc import Mapping

from games.inputs import one_of

FIRST_GAME = "first_game"
YES, NO = "yes", "no"


def default() -> dict[str, str]:
    return {FIRST_GAME: NO}


def clean(raw: Mapping[str, str]) -> dict[str, str]:
    """The choice, yes or no, or ``BadInput`` saying what may be chosen."""
    first = one_of(str(raw.get(FIRST_GAME, NO)), (YES, NO), "A first game is yes or no.")
    return {FIRST_GAME: first}


def first_game(options: Mapping[str, str]) -> bool:
    return options.get(FIRST_GAME, NO) == YES


def text(options: Mapping[str, str]) -> str:
    """What the host chose, for everyone in the lobby."""
    if first_game(options):
        return "First game: everyone is dealt 1 Large and 3 Small goals and keeps them all."
    return "Everyone is dealt 3 Large and 3 Small goals and keeps 4."
