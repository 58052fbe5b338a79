"""Who a board is rendered for, and the small words every game's screens say, in one place.

A game played by seats at once (Look at the Stars, Observatory, the tests' Highest Unique)
renders one board per seat (``seat-N``) and one public board (spectators, and everyone before
the deal); a replay step renders ``history``. The presenters of such a game take these
instead of writing their own. Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from .kit import Submitted

Names = Mapping[int, str]  # seat -> the name its player had when the game started
PUBLIC = "public"
HISTORY = "history"  # a replay step: everything closed is shown, nothing to press


class Seated(Protocol):
    """What the audiences read of a game's state."""

    @property
    def dealt(self) -> bool: ...

    @property
    def players(self) -> int: ...

    @property
    def seats(self) -> Sequence[int]: ...


def audience_of(state: Seated, seat: int | None) -> str:
    """A seat's own board once the game is dealt; everyone else sees the public one."""
    if state.dealt and seat is not None and 1 <= seat <= state.players:
        return f"seat-{seat}"
    return PUBLIC


def audiences(state: Seated) -> list[str]:
    """Every audience a change is pushed to: the public, then each seat."""
    return [PUBLIC, *(f"seat-{seat}" for seat in state.seats)]


def when_another_seat_submits(
    *areas: str,
) -> Callable[[Seated, Sequence[object], str], tuple[str, ...] | None]:
    """The pushes by area of a game played by every seat at once (``Screens.of(areas=)``):
    a change made only of seats' submissions (the kit's ``Submitted``) changes, for every
    other audience, only ``areas`` (who is done, whom the table waits for): the boards stay
    as of the last closed step until it closes. The submitting seats, and any other change,
    get the whole board."""

    def pushed(state: Seated, events: Sequence[object], audience: str) -> tuple[str, ...] | None:
        submitted = [event for event in events if isinstance(event, Submitted)]
        if not events or len(submitted) != len(events):
            return None
        submitters = {audience_of(state, event.seat) for event in submitted}
        return None if audience in submitters else areas

    return pushed


def seat_of(audience: str) -> int | None:
    """The seat an audience is, or None (the public, a replay)."""
    role, _, number = audience.partition("-")
    return int(number) if role == "seat" and number.isdigit() else None


def name_of(names: Names, seat: int) -> str:
    return names.get(seat, f"Seat {seat}")


def listed(words: Sequence[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def points(n: int) -> str:
    return plural(n, "point")


@dataclass(frozen=True)
class WaitingWords:
    """How a game says who a simultaneous step still waits for: what a seat that acted is
    (``acted``: "done", "ready"), what the step is called (``step``: "round", "step"), the
    word counting the seats still at it (``counted``: "other", "player") and what they are
    still doing, if said (``doing``: " to draw")."""

    acted: str
    step: str
    counted: str
    doing: str = ""


def waiting_line(
    words: WaitingWords, waiting: Sequence[int], names: Names, acted: int | None
) -> str:
    """The status line of a running simultaneous step: for ``acted``, a seat that has acted
    in it, how many others it still waits for and who; for anyone else, who it waits for.
    ``waiting``: the seats still to act."""
    if acted is not None:
        others = [s for s in waiting if s != acted]
        if not others:
            return f"{words.acted.capitalize()} — the {words.step} closes now."
        who = listed([name_of(names, s) for s in others])
        return (
            f"{words.acted.capitalize()} — waiting for {plural(len(others), words.counted)}: {who}."
        )
    if not waiting:
        return f"Every seat is {words.acted}: the {words.step} closes now."
    return f"Waiting for {listed([name_of(names, s) for s in waiting])}{words.doing}."
