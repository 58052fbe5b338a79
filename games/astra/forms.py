"""What a browser posts for a command: the inverse of the game's readers (``game.py``), in
the page's own fields (the marking strip's ``chain``, the Boon pick's targets, the card
limit's checkboxes). The bench and the tests drive rooms with it, so what they send is what
a page sends; ``tests/games/astra/test_forms.py`` reads every form back to its command."""

from __future__ import annotations

from collections.abc import Iterable

from . import chain
from .rules.commands import (
    Command,
    DiscardCards,
    Done,
    Dream,
    Observe,
    PickBoon,
    Rest,
    UseAbility,
)
from .rules.model import State

Fields = dict[str, str]


def form_of(state: State, command: Command) -> tuple[str, Fields]:
    """The action and the fields a page posts for ``command``."""
    match command:
        case Observe() | Dream():
            stars = [(command.slot, star) for star in command.stars]
            action = "observe" if isinstance(command, Observe) else "dream"
            return action, {"version": str(command.version), "chain": chain.write(stars)}
        case UseAbility():
            form = {"version": str(command.version), "card": str(command.card)}
            if command.stars:
                form["chain"] = chain.write(command.stars)
            if command.k:
                form["k"] = str(command.k)
            return "ability", form
        case Rest():
            return "rest", {"version": str(command.version)}
        case Done():
            return "done", {"version": str(command.version)}
        case PickBoon():
            picked = {"step": str(command.step), "box": str(command.box)}
            for n, card in enumerate(command.targets, 1):
                picked[f"target-{n}"] = str(card)
            return "pick", picked
        case DiscardCards():
            return "discard", discard_form(state, command.seat, command.cards)
    raise ValueError(f"no form sends {command!r}")


def discard_form(state: State, seat: int, discarded: Iterable[int]) -> Fields:
    """U6: the card-limit form with every held card ticked but ``discarded``."""
    held = [h.card for h in state.journal(seat).held]
    gone = set(discarded)
    form = {"version": str(state.version), "held": "-".join(str(card) for card in held)}
    form.update({f"keep-{card}": "1" for card in held if card not in gone})
    return form
