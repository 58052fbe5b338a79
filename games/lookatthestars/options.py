"""The host's choices for Look at the Stars (S3, D6): the point-bonus card and the power
card, kept on the room as strings, and the sentence the lobby shows. The clock is the
room's (T1). A random choice is drawn at the deal (``game.deal_command``), never here."""

from __future__ import annotations

from collections.abc import Mapping

from games.inputs import one_of

from .rules import cards
from .rules.board import Power

POINT = "point_card"
POWER = "power_card"


def default() -> dict[str, str]:
    return {POINT: cards.DEFAULT_POINT_OPTION, POWER: cards.DEFAULT_POWER_OPTION}


def clean(raw: Mapping[str, str]) -> dict[str, str]:
    """The two choices, each one of D6's values, or ``BadInput`` saying what may be chosen."""
    point = one_of(
        str(raw.get(POINT, cards.DEFAULT_POINT_OPTION)),
        cards.POINT_OPTIONS,
        "Choose the point card: Beginner, Random, or one of B1 to B10.",
    )
    power = one_of(
        str(raw.get(POWER, cards.DEFAULT_POWER_OPTION)),
        cards.POWER_OPTIONS,
        "Choose the power card: Beginner, Random basic, Random any, or one of the nine powers.",
    )
    return {POINT: point, POWER: power}


def point_words(option: str) -> str:
    if option == cards.POINT_BEGINNER:
        card = cards.POINT_CARDS[cards.BEGINNER_POINT]
        return f"Beginner ({card.id}, {card.name})"
    if option == cards.POINT_RANDOM:
        return "Random, drawn at the start"
    card = cards.POINT_CARDS[option]
    return f"{card.id}, {card.name}"


def power_words(option: str) -> str:
    if option == cards.POWER_BEGINNER:
        return f"Beginner ({power_name(cards.BEGINNER_POWER)})"
    if option == cards.POWER_RANDOM_BASIC:
        return "Random basic, drawn at the start"
    if option == cards.POWER_RANDOM_ANY:
        return "Random, Basic or Experienced, drawn at the start"
    return power_name(Power(option))


def power_name(power: Power) -> str:
    return cards.POWER_CARDS[power].name or power.value.replace("-", " ").capitalize()


def text(options: Mapping[str, str]) -> str:
    """What the host chose, for everyone in the lobby."""
    point = options.get(POINT, cards.DEFAULT_POINT_OPTION)
    power = options.get(POWER, cards.DEFAULT_POWER_OPTION)
    if point not in cards.POINT_OPTIONS or power not in cards.POWER_OPTIONS:
        return ""
    return f"Point card: {point_words(point)}. Power card: {power_words(power)}."


def choices() -> dict[str, list[tuple[str, str]]]:
    """The form's choices, value and words, in D6's order."""
    return {
        POINT: [(option, point_words(option)) for option in cards.POINT_OPTIONS],
        POWER: [(option, power_words(option)) for option in cards.POWER_OPTIONS],
    }
