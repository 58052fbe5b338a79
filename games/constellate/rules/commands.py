"""What a player (or the clock) asks for. A refusal (``Refusal``, ``Problem``) is the kit's."""

from __future__ import annotations

from dataclasses import dataclass

from games.kit import Problem, Refusal, hiding

from .model import Crew, Key


@hiding("key")
@dataclass(frozen=True)
class Deal:
    """Deal a sky. The server draws the pictures, the key and the first crew (S5).
    ``family``: the host chose a family table, where the clue check refuses general
    profanity too (W3 refuses slurs and the moderators' words at every table)."""

    players: int
    sky: tuple[str, ...]
    key: tuple[Key, ...]
    first_crew: Crew
    step_seconds: int | None = None
    family: bool = False


@dataclass(frozen=True)
class Name:
    """T2: a Stargazer names a constellation: one word and a number."""

    seat: int
    word: str
    number: int
    version: int


@dataclass(frozen=True)
class TouchCard:
    """T7: a Spotter touches a dark card, against the version of the game they saw.

    ``comet_order`` is a shuffle of the card indexes drawn by the server: if the card is the
    comet, the rival crew's first dark stars in that order are the ones it lights (V2).
    """

    seat: int
    card: int
    version: int
    comet_order: tuple[int, ...] = ()


@dataclass(frozen=True)
class Stop:
    """T10: the Spotters stop after at least one touch."""

    seat: int
    version: int


@dataclass(frozen=True)
class Expire:
    """C2/C3: the clock ran out on the step that started at version ``step``."""

    step: int


Command = Deal | Name | TouchCard | Stop | Expire

__all__ = ["Command", "Deal", "Expire", "Name", "Problem", "Refusal", "Stop", "TouchCard"]
