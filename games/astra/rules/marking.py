"""The marking rules of one chain of stars on one card (O3-O5), apart from who pays: an
Observe action uses them (O2), and so will the Abilities that mark by the rules (K5, K14) and
the dreamer pen (V7). ``marked`` is every star already marked on the card, by anyone (a seat
or the dreamer: O3 counts them all).

``free`` is a Free Sight in force (K6): the first star may also be any unmarked Common star.

``next_stars`` is what a browser may offer as the next tap (O10, U3); ``chain_refused`` is the
server's own check of a whole chain, star by star, in the same terms.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.kit import Refusal

from .cards import STARTING_STAR, Card, StarType


def first_stars(card: Card, marked: frozenset[int], *, free: bool = False) -> frozenset[int]:
    """O3: the Starting star of a card with no mark; otherwise every unmarked star adjacent
    to a marked one, whoever marked it. K6 (``free``): any unmarked Common star too."""
    if not marked:
        legal = frozenset({STARTING_STAR})
    else:
        legal = frozenset(s for star in marked for s in card.neighbours(star) if s not in marked)
    if free:
        legal |= common_stars(card) - marked
    return legal


def common_stars(card: Card) -> frozenset[int]:
    """Words, M4: the stars that are neither the Starting star nor Grand."""
    return frozenset(s for s in range(card.stars) if card.star_type(s) is StarType.COMMON)


def next_stars(
    card: Card, marked: frozenset[int], chain: Sequence[int], *, free: bool = False
) -> frozenset[int]:
    """The stars that may follow ``chain`` (a legal chain so far): its first under O3 (or
    K6, ``free``), then the unmarked neighbours of the star marked just before (O4, O5).
    Empty: the chain must stop there (O7)."""
    if not chain:
        return first_stars(card, marked, free=free)
    return card.neighbours(chain[-1]) - marked - set(chain)


def chain_refused(
    card: Card, marked: frozenset[int], stars: Sequence[int], *, free: bool = False
) -> Refusal | None:
    """Why ``stars``, in order, is no chain on ``card`` (None: it is one): at least one star
    (O1), each a star of the card, none marked before or twice (O5), the first under O3 and
    each further one adjacent to the one before it (O4)."""
    if not stars:
        return Refusal("Mark at least 1 star (O1).")
    chain: list[int] = []
    for star in stars:
        refusal = _star_refused(card, marked, chain, star, free)
        if refusal is not None:
            return refusal
        chain.append(star)
    return None


def _star_refused(
    card: Card, marked: frozenset[int], chain: list[int], star: int, free: bool
) -> Refusal | None:
    name = card.name
    if not 0 <= star < card.stars:
        return Refusal(f"{name} has no star {star}: its stars are 0-{card.stars - 1}.")
    if star in marked or star in chain:
        return Refusal(f"Star {star} of {name} is already marked: no star is marked twice (O5).")
    if star in next_stars(card, marked, chain, free=free):
        return None
    if chain:
        before = chain[-1]
        return Refusal(
            f"Star {star} of {name} is not joined to star {before}, the star marked just "
            f"before it (O4)."
        )
    if free:
        return Refusal(
            f"Star {star} of {name} is neither a Common star (Free Sight, K6) nor next to a "
            f"marked star (O3)."
        )
    if not marked:
        return Refusal(
            f"Nothing is marked on {name} yet: a chain on it starts at its Starting star, "
            f"star {STARTING_STAR} (O3)."
        )
    return Refusal(
        f"Star {star} of {name} touches no marked star: a chain starts next to one (O3)."
    )
