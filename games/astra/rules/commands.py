"""What the server, a seat or the clock asks for (I1). A refusal is the kit's.

Every command a player sends names the game's version they saw (T4): a command against a
stale version is refused and the view refreshes. Every random choice comes in the server's
own command (H5): the deck's order with the Game End card's place, the Final Scoring deal and
the first player all arrive in ``Deal``; nothing is drawn inside the rules.

The exception (T4): a Boon pick names the pick step it answers (D6), not the version, so
the members of a tied group picking at once do not refuse each other.

``UseAbility`` (A1-A8, K1-K18) names the card and its choices. ``Expire`` is the clock's
command (Z3-Z7); the random numbers a Dream step's expiry needs (Z6) are drawn by the server
and come in it (H5).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.kit import Problem, Refusal, hiding


@hiding("deck", "scoring")
@dataclass(frozen=True)
class Deal:
    """Set the table (S1-S8), with the server's draws (H5): ``deck``, the 48 card numbers
    shuffled, top first; ``above_game_end``, how many of them lie above the Game End card
    (S2: 19, 23, 30 or 37 by player count); ``scoring``, the Final Scoring card dealt to each
    seat, seat 1's first (S5; the undealt ones are never named); ``first_player`` (P3);
    ``step_seconds``, the turn step's clock (None: off, Z1)."""

    players: int
    deck: tuple[int, ...]
    above_game_end: int
    scoring: tuple[str, ...]
    first_player: int
    step_seconds: int | None = None


@dataclass(frozen=True)
class Observe:
    """O2, O10: one whole Observe action: the slot of the card and its stars, in the order
    marked, against the version the player saw (T4)."""

    seat: int
    version: int
    slot: int
    stars: tuple[int, ...]


@dataclass(frozen=True)
class Rest:
    """R1: the Rest action, against the version the player saw (T4)."""

    seat: int
    version: int


@dataclass(frozen=True)
class Done:
    """O11: no more Observe actions this turn."""

    seat: int
    version: int


@dataclass(frozen=True)
class UseAbility:
    """A1, A2, K18: use the Ability of the held ``card``, with its choices, against the
    version the player saw (T4): ``stars``, for the Abilities that mark (K1, K5, K10, K14),
    the stars in the order marked, each as (slot, star); ``k``, for a Forge (K4), how many
    times 3 Stardust become 1 Telescope."""

    seat: int
    version: int
    card: int
    stars: tuple[tuple[int, int], ...] = ()
    k: int = 0


@dataclass(frozen=True)
class PickBoon:
    """D6-D8, B1-B7, T4: an assisting player's Boon: the pick ``step`` it answers (the
    version that opened it), the ``box`` (1-4) and, for a Boon of Activation when the picker
    holds more Exhausted cards than its amount, which ones it reactivates (``targets``)."""

    seat: int
    step: int
    box: int
    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class DiscardCards:
    """L1: the discoverer's cards to discard, down to the card limit, against the version
    the player saw (T4)."""

    seat: int
    version: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Dream:
    """V6-V8, V12: the dreamer's stars, chosen by the active player: the slot of the card
    (one of the tied cards, V6) and its stars in the order marked (V7, V8), against the
    version the player saw (T4)."""

    seat: int
    version: int
    slot: int
    stars: tuple[int, ...]


@dataclass(frozen=True)
class Expire:
    """Z2-Z7: the clock ran out on the step that started at version ``step``. ``picks``:
    random numbers the server drew for the choices the clock makes (Z6, H5: a Dream step's
    expiry needs two, any whole numbers >= 0: the first chooses among the tied cards, the
    second among the legal chains)."""

    step: int
    picks: tuple[int, ...] = ()


Command = Deal | UseAbility | Observe | Rest | Done | PickBoon | DiscardCards | Dream | Expire

__all__ = [
    "Command",
    "Deal",
    "DiscardCards",
    "Done",
    "Dream",
    "Expire",
    "Observe",
    "PickBoon",
    "Problem",
    "Refusal",
    "Rest",
    "UseAbility",
]
