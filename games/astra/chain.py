"""The one form field that carries stars (O10, K18, V7): ``chain``, every star as
``slot.star`` in the order marked, joined by ``-`` ("2.0-2.1-2.3"). An Observe or a Dream
names one card, so all its stars share one slot; an Ability that marks (K1, K5, K10, K14)
may name several. The marking strip writes it as each star is tapped and Send posts it
whole; ``read`` is the only way in and refuses anything else with a message naming the
part that is wrong. Which stars are legal is the rules' to judge, not this parser's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from games.inputs import BadInput

FIELD = "chain"
MOST_STARS = 24  # no chain on a card of 9 stars, nor three cards' worth, needs more
SLOTS = range(1, 7)  # S1: N+1 slots, at most 6
STARS = range(0, 9)  # M2: 4 to 9 stars, star 0 first
_TARGET = re.compile(r"([1-9])\.([0-9])")

Target = tuple[int, int]  # (slot, star), as the rules' abilities read them


def write(targets: Sequence[Target]) -> str:
    return "-".join(f"{slot}.{star}" for slot, star in targets)


def read(raw: str | None) -> tuple[Target, ...]:
    """The stars of a chain, in order; "" or a missing field is no star."""
    if not raw:
        return ()
    parts = raw.split("-")
    if len(parts) > MOST_STARS:
        raise BadInput(f"A chain names at most {MOST_STARS} stars.")
    return tuple(_target(part, n) for n, part in enumerate(parts, 1))


def _target(part: str, n: int) -> Target:
    found = _TARGET.fullmatch(part)
    if found is None:
        raise BadInput(f"Star {n} of the chain is not a slot and a star, like 2.0.")
    slot, star = int(found.group(1)), int(found.group(2))
    if slot not in SLOTS:
        raise BadInput(f"Star {n} of the chain names slot {slot}: slots are 1 to {SLOTS[-1]}.")
    if star not in STARS:
        raise BadInput(f"Star {n} of the chain names star {star}: stars are 0 to {STARS[-1]}.")
    return slot, star


def one_card(targets: Sequence[Target]) -> tuple[int, tuple[int, ...]]:
    """O2, V7: the slot and stars of a chain on one card, or ``BadInput``."""
    if not targets:
        raise BadInput("Tap at least one star first (O1).")
    slots = {slot for slot, _ in targets}
    if len(slots) != 1:
        raise BadInput("One chain marks one card: these stars lie on several (O2).")
    return targets[0][0], tuple(star for _, star in targets)
