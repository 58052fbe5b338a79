"""A toy game definition for platform tests that need "some other game": every field a
real game gives, filled with the least that works, any of them overridden by keyword."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.definition import GameDefinition, Screens, Seats


@dataclass(frozen=True)
class ToyState:
    """What the platform reads of a state: a version and the step clock."""

    version: int = 0
    dealt: bool = True
    ended: bool = False
    step_started: int = 0
    deadline: datetime | None = None
    step_seconds: int | None = 30


def toy_screens() -> Screens[Any]:
    return Screens(
        template="games/toy.html",  # never rendered by the tests that use it
        present=lambda state, audience, names, code: state,
        present_history=lambda state, names, code: state,
        audiences=lambda state: ["public"],
        audience_of=lambda state, seat: "public",
        describe=lambda before, after, names: "",
        jumps=lambda final, names: [],
    )


def toy_definition(slug: str, **fields: Any) -> GameDefinition[Any, Any]:
    given: dict[str, Any] = {
        "slug": slug,
        "title": slug.title(),
        "summary": "",
        "seats": Seats(1, 8),
        "initial": ToyState,
        "decide": lambda state, command, now: [],
        "evolve": lambda state, event: state,
        "view_for": lambda state, seat: state,
        "event_types": (),
        "deal": lambda table: None,
        "screens": toy_screens(),
    }
    return GameDefinition(**{**given, **fields})
