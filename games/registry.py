"""The games the platform hosts, by slug. Each game's ``game.py`` registers its one
``GameDefinition`` (games/definition.py); ``games.apps`` imports every installed app's
``game`` module at start-up. The event store, the room, the clock and moderation find a
game here and nowhere else."""

from __future__ import annotations

from typing import Any

from .definition import GameDefinition

Definition = GameDefinition[Any, Any]

_registry: dict[str, Definition] = {}


def register(game: GameDefinition[Any, Any]) -> GameDefinition[Any, Any]:
    if game.slug in _registry and _registry[game.slug] is not game:
        raise ValueError(f"two games are called {game.slug!r}")
    _registry[game.slug] = game
    return game


def game_type(slug: str) -> Definition:
    """The registered game called ``slug`` (KeyError: no such game)."""
    return _registry[slug]


def all_game_types() -> list[Definition]:
    return list(_registry.values())
