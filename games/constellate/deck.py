"""The picture deck the 24 cards of a sky are dealt from (K1, W8).

The deck is data: ``deck.json`` beside this module lists every picture's canonical name,
its aliases and its static asset (an SVG under ``static/constellate/sky/``, vendored from an
openly licensed emoji set by ``scripts/build_deck.py``). A card shows the picture only; its
names are for the clue check (W4-W7 apply to every listed name, W8).

Pure Python, stdlib only: the rules and the clue check may import it without Django.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DECK_PATH = Path(__file__).with_name("deck.json")

SKY_SIZE = 24
"""Cards dealt face up for one game (K1)."""


@dataclass(frozen=True)
class Picture:
    name: str
    """The canonical name: one lowercase word, a-z, 3-12 letters."""
    aliases: tuple[str, ...]
    """Other words a player would use for the same picture (bike for bicycle); may be empty."""
    asset: str
    """The SVG's path relative to the static root, e.g. ``constellate/sky/apple.svg``."""

    @property
    def names(self) -> list[str]:
        """Every listed name: the canonical one first, then the aliases (W8)."""
        return [self.name, *self.aliases]


@cache
def load_deck() -> tuple[Picture, ...]:
    """Every picture in the deck, in deck.json's order (sorted by name). Read once."""
    data = json.loads(DECK_PATH.read_text(encoding="utf-8"))
    return tuple(
        Picture(name=row["name"], aliases=tuple(row.get("aliases", ())), asset=row["asset"])
        for row in data["pictures"]
    )


@cache
def _by_name() -> dict[str, Picture]:
    return {pic.name: pic for pic in load_deck()}


def picture(name: str) -> Picture:
    """The picture whose canonical name is ``name``; KeyError if the deck has none."""
    return _by_name()[name]


def draw_sky(rng: random.Random) -> tuple[str, ...]:
    """Deal a sky: SKY_SIZE distinct canonical names drawn with ``rng.sample`` (K1).

    The caller owns the randomness (the deal is decided once and stored in the game's
    first event), so the same seeded ``rng`` always deals the same sky.
    """
    return tuple(rng.sample([pic.name for pic in load_deck()], SKY_SIZE))


def pictured_names(sky: Sequence[str]) -> list[list[str]]:
    """For each canonical name in ``sky``, in order: ``[name, *aliases]`` (W8)."""
    return [picture(name).names for name in sky]
