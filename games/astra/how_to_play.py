"""Astra's rules page (/rules/astra/): what its template reads.

Every number the page states comes from the rules' data, so the page cannot disagree with
the game: the starting Journal (``boards``), the deck's Game End place per player count
(``ABOVE_GAME_END``), the tracks (``POUCH_SPOTS``, ``WISDOM_SPOTS``), the Final Scoring
values (``SPOT_VALUES``, ``COLUMN_BONUS``) and every card's Ability (``cards.CARDS``).
"""

from __future__ import annotations

from collections.abc import Mapping

from .pictures import ELEMENT_ICONS, ability_text, card_face
from .rules.boards import (
    ABOVE_GAME_END,
    COLUMN_BONUS,
    POUCH_SPOTS,
    SPOT_VALUES,
    STARTING_STARDUST,
    WISDOM_SPOTS,
)
from .rules.cards import CARDS, Element

EXAMPLE_CARD = 46  # Ursa Major, RULES.md example 1


def context() -> Mapping[str, object]:
    return {
        "stardust": STARTING_STARDUST,
        "game_end": sorted(ABOVE_GAME_END.items()),
        "pouch": POUCH_SPOTS,
        "wisdom": [value for value in WISDOM_SPOTS if value is not None],
        "spot_values": SPOT_VALUES,
        "column_bonus": sorted(COLUMN_BONUS.items()),
        "elements": [(element.label, ELEMENT_ICONS[element]) for element in Element],
        "abilities": [(card.name, card.element.label, ability_text(card)) for card in CARDS],
        "example": card_face(EXAMPLE_CARD),
    }
