"""What a player (or the clock) asks for. A refusal (``Refusal``, ``Problem``) is the kit's."""

from __future__ import annotations

from dataclasses import dataclass

from games.kit import Problem, Refusal, hiding

from .model import Card, Compass, Tile


@hiding("cards", "face_down", "stack")
@dataclass(frozen=True)
class Deal:
    """Set the table. The server shuffles the stack, deals the cards and picks who starts;
    the host chose the chart and its compass."""

    chart: Tile
    compass: Compass
    cards: tuple[Card, ...]  # seat 1's, seat 2's
    face_down: Card
    stack: tuple[Tile, ...]  # top first
    first_seat: int
    step_seconds: int | None = None


@dataclass(frozen=True)
class Place:
    """Place a tile beside the board (``face_up``: its index) or the blind top of the stack
    (``face_up`` None) on an empty space, against the version of the game the player saw."""

    seat: int
    space: int
    version: int
    face_up: int | None = None


@dataclass(frozen=True)
class Move:
    """The blue or orange action: move the tile on ``origin`` to ``target``. Without an
    origin, the one surrounding tile that can reach the target moves."""

    seat: int
    target: int
    version: int
    origin: int | None = None


@dataclass(frozen=True)
class Expire:
    """The turn's clock ran out (the turn started at version ``step``). ``picks`` are
    random numbers drawn by the server: which empty space the blind tile goes to, and
    which legal move is made; the events record the result."""

    step: int
    picks: tuple[int, ...] = ()


Command = Deal | Place | Move | Expire

__all__ = ["Command", "Deal", "Expire", "Move", "Place", "Problem", "Refusal"]
