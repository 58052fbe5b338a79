"""The Ability phase (A1-A8) and the 16 effect kinds (K1-K18) of the 48 cards (C1-C48).

``ability_refused`` says why a use is refused (A2, A8, K17, K18: None, it is allowed);
``used`` is what an allowed use does: one ``AbilityUsed`` (the card Exhausted, A2, with what
an instant kind gains at once, A3), then for the kinds that mark (K1, K5, K10, K14) one
``AbilityMarked`` per card, the user's free marks (Grand stars gain Wisdom, O8), and
``CardDiscovered`` for a card they complete (D14).

A this-turn kind (A4: K2, K6, K7, K13, K16) puts its card in ``State.in_force`` until the
end of the turn; the others read it: a Free Sight (K6) frees an Observe's first star, a Full
Rest (K13) changes a Rest's refill, and ``payouts`` settles K2, K7 and K16 at the end of the
turn (T3, K17) from the stars the active player marked this turn (``State.turn_marks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.kit import Problem, Refusal

from .boards import POUCH_GAINS_TO_TOP, WISDOM_GAINS_TO_TOP
from .cards import BY_NUMBER, AbilityKind, Card, StarType
from .events import AbilityMarked, AbilityUsed, CardDiscovered
from .evolve import fold
from .marking import chain_refused, first_stars, next_stars
from .model import Phase, State

K = AbilityKind
MARKING = frozenset({K.STAR_BURST, K.THREE_LIGHTS, K.SPARK, K.TWIN_LIGHTS})  # K18
NON_STACKING = frozenset({K.GRAND_SIEVE, K.FREE_SIGHT, K.FULL_REST, K.COMMON_PATH})  # K17
FORGE_PRICE = 3  # K4: 3 Stardust a Telescope
THREE_LIGHTS = 3  # K5
TWIN_LIGHTS = 2  # K14

Target = tuple[int, int]  # (slot, star)


def in_force(state: State, kind: AbilityKind) -> bool:
    """A4: a card of this this-turn kind was used this turn."""
    return any(BY_NUMBER[card].ability.kind is kind for card in state.in_force)


# -- A1, A2, A5, A8: may the card be used now ------------------------------------------------


def ability_refused(
    state: State, seat: int, card: int, stars: Sequence[Target], k: int
) -> Refusal | None:
    """Why ``seat`` may not use the Ability of ``card`` with these choices now (None: it
    may). The player's own turn and version are checked by the caller (T2, T4)."""
    if state.phase is not Phase.ABILITY:
        return Refusal(
            "Abilities are used at the start of your turn, before its first Observe or Rest (A5).",
            Problem.CONFLICT,
        )
    held = next((h for h in state.journal(seat).held if h.card == card), None)
    if held is None:
        return Refusal("You can only use the Ability of a card you hold (A1).")
    constellation = BY_NUMBER[card]
    name, kind = constellation.name, constellation.ability.kind
    if not held.active:
        return Refusal(
            f"{name} is Exhausted: its Ability can be used again once it is reactivated (A2).",
            Problem.CONFLICT,
        )
    if kind in NON_STACKING and in_force(state, kind):
        return Refusal(
            f"A {_label(kind)} is already in force this turn: a second one adds nothing "
            f"({kind.rule}, K17).",
            Problem.CONFLICT,
        )
    if kind is not K.FORGE and k:
        return Refusal(f"{name}'s Ability converts nothing: only a Forge names a count (K4).")
    if kind not in MARKING:
        if stars:
            return Refusal(f"{name}'s Ability marks no star (K18).")
        return _forge_refused(state, seat, k) if kind is K.FORGE else None
    if not state.undiscovered():
        return Refusal(
            f"{name}'s Ability marks a star, and no undiscovered card is on the Sphere "
            f"({kind.rule}).",
            Problem.CONFLICT,
        )
    return _marks_refused(state, kind, stars)


def _label(kind: AbilityKind) -> str:
    return kind.value.replace("_", " ").title()


def _forge_refused(state: State, seat: int, k: int) -> Refusal | None:
    """K4: k >= 1 conversions, 3 Stardust each, from the Pouch."""
    stardust = state.journal(seat).stardust
    if stardust < FORGE_PRICE:
        return Refusal(
            f"A Forge turns {FORGE_PRICE} Stardust into 1 Telescope, and you have "
            f"{stardust} (K4, A8).",
            Problem.CONFLICT,
        )
    if not 1 <= k <= stardust // FORGE_PRICE:
        return Refusal(
            f"Name how many Telescopes to forge: 1 to {stardust // FORGE_PRICE} with "
            f"{stardust} Stardust (K4)."
        )
    return None


def _marks_refused(state: State, kind: AbilityKind, stars: Sequence[Target]) -> Refusal | None:
    """K1, K5, K10, K14, K18: the whole choice, checked before anything is marked."""
    for slot, _ in stars:
        refusal = _slot_refused(state, slot)
        if refusal is not None:
            return refusal
    match kind:
        case K.STAR_BURST | K.SPARK:
            if len(stars) != 1:
                return Refusal(f"Choose exactly one star to mark ({kind.rule}).")
            return _anywhere_refused(state, *stars[0])
        case K.THREE_LIGHTS:
            return _three_lights_refused(state, stars)
    return _twin_lights_refused(state, stars)


def _slot_refused(state: State, slot: int) -> Refusal | None:
    if not 1 <= slot <= len(state.slots):
        return Refusal(f"There is no slot {slot}: the Sphere has slots 1-{len(state.slots)}.")
    placed = state.slot(slot)
    if placed.card is None:
        return Refusal(f"Slot {slot} is empty: there is no card to mark there.")
    if placed.discovered:
        name = placed.constellation.name
        return Refusal(f"{name} is discovered: nobody may mark it any more (O12).")
    return None


def _anywhere_refused(state: State, slot: int, star: int) -> Refusal | None:
    """K1, K10: any unmarked star of the card, ignoring O3."""
    placed = state.slot(slot)
    card = placed.constellation
    if not 0 <= star < card.stars:
        return Refusal(f"{card.name} has no star {star}: its stars are 0-{card.stars - 1}.")
    if star in placed.marked:
        return Refusal(
            f"Star {star} of {card.name} is already marked: no star is marked twice (O5)."
        )
    return None


def _first_star_refused(state: State, slot: int, star: int) -> Refusal | None:
    placed = state.slot(slot)
    return chain_refused(placed.constellation, placed.marked, (star,))


def _three_lights_refused(state: State, stars: Sequence[Target]) -> Refusal | None:
    """K5: one star, legal as a first star (O3), on each of min(3, undiscovered) cards."""
    wanted = min(THREE_LIGHTS, len(state.undiscovered()))
    slots = {slot for slot, _ in stars}
    if len(stars) != wanted or len(slots) != wanted:
        return Refusal(
            f"Three Lights marks one star on each of {wanted} different undiscovered "
            f"card{'s' if wanted > 1 else ''} (K5)."
        )
    for slot, star in stars:
        refusal = _first_star_refused(state, slot, star)
        if refusal is not None:
            return refusal
    return None


def _twin_lights_refused(state: State, stars: Sequence[Target]) -> Refusal | None:
    """K14: two stars, a chain on one card or one first star on each of two cards; one
    only when no two can be marked."""
    if len(stars) == TWIN_LIGHTS:
        (one, a), (other, b) = stars
        if one == other:
            placed = state.slot(one)
            return chain_refused(placed.constellation, placed.marked, (a, b))
        return _first_star_refused(state, one, a) or _first_star_refused(state, other, b)
    if len(stars) == 1 and not twin_possible(state):
        return _first_star_refused(state, *stars[0])
    return Refusal("Twin Lights marks two stars whenever two can be marked (K14).")


def twin_possible(state: State) -> bool:
    """K14: two undiscovered cards, or a card with a chain of two stars open."""
    slots = state.undiscovered()
    if len(slots) >= TWIN_LIGHTS:
        return True
    return any(
        next_stars(placed.constellation, placed.marked, (first,))
        for placed in (state.slot(n) for n in slots)
        for first in first_stars(placed.constellation, placed.marked)
    )


# -- what a use does (A2, A3, K1-K16) -------------------------------------------------------


def used(state: State, seat: int, card: int, stars: Sequence[Target], k: int) -> list[object]:
    """The events of an allowed use: the card Exhausted with its gains (A2, A3), then its
    marks, card by card, each a Grand star's Wisdom (O8) and a completed card discovered
    (O12, D14)."""
    events: list[object] = [_ability_used(state, seat, BY_NUMBER[card], k)]
    after = fold(events, state)
    for slot, group in _marks(state, BY_NUMBER[card].ability.kind, stars):
        placed = after.slot(slot)
        grand = sum(star in placed.constellation.grand for star in group)
        room = WISDOM_GAINS_TO_TOP - after.journal(seat).wisdom
        step: list[object] = [
            AbilityMarked(seat, slot, placed.constellation.number, group, min(grand, room))
        ]
        if len(placed.marked) + len(group) == placed.constellation.stars:
            step.append(CardDiscovered(seat, slot, placed.constellation.number))
        events += step
        after = fold(step, after)
    return events


def _ability_used(state: State, seat: int, card: Card, k: int) -> AbilityUsed:
    """A3: what an instant kind gains at once (J3, J4: nothing past a track's top)."""
    journal = state.journal(seat)
    kind = card.ability.kind
    match kind:
        case K.WINDFALL:  # K3
            return AbilityUsed(seat, card.number, kind, stardust=card.ability.amount or 0)
        case K.FORGE:  # K4
            return AbilityUsed(seat, card.number, kind, stardust=-FORGE_PRICE * k, telescopes=k)
        case K.INSIGHT:  # K8
            wisdom = min(1, WISDOM_GAINS_TO_TOP - journal.wisdom)
            return AbilityUsed(seat, card.number, kind, wisdom=wisdom)
        case K.PRESENCE:  # K9
            fame = sum(1 for n in state.undiscovered() if state.slot(n).marked_by(seat))
            return AbilityUsed(seat, card.number, kind, fame=fame)
        case K.LENS:  # K11
            return AbilityUsed(seat, card.number, kind, telescopes=1)
        case K.DEEP_POUCH:  # K12
            pouch = min(1, POUCH_GAINS_TO_TOP - journal.pouch_gains)
            return AbilityUsed(seat, card.number, kind, pouch=pouch)
        case K.HARMONY:  # K15: this card included
            fame = sum(BY_NUMBER[held.card].element is state.sphere for held in journal.held)
            return AbilityUsed(seat, card.number, kind, fame=fame)
    return AbilityUsed(seat, card.number, kind)  # marking and this-turn kinds gain nothing now


def _marks(
    state: State, kind: AbilityKind, stars: Sequence[Target]
) -> list[tuple[int, tuple[int, ...]]]:
    """The stars marked, grouped by card in the order chosen. K1: the star chosen, then
    every unmarked star adjacent to it."""
    if kind is K.STAR_BURST:
        slot, star = stars[0]
        placed = state.slot(slot)
        around = placed.constellation.neighbours(star) - placed.marked
        return [(slot, (star, *sorted(around)))]
    groups: list[tuple[int, tuple[int, ...]]] = []
    for slot, star in stars:
        if groups and groups[-1][0] == slot:
            groups[-1] = (slot, (*groups[-1][1], star))
        else:
            groups.append((slot, (star,)))
    return groups


# -- the this-turn kinds read (K6, K13) and settled at the end of the turn (T3) -------------


def full_rest(state: State) -> bool:
    """K13: a Rest this turn gains the Pouch size instead of refilling (R2)."""
    return in_force(state, K.FULL_REST)


def free_sight(state: State) -> bool:
    """K6: an Observe's first star may be any unmarked Common star."""
    return in_force(state, K.FREE_SIGHT)


@dataclass(frozen=True)
class Payouts:
    """K2, K16: Stardust set aside that comes back; K7: Fame per Grand star (T3, A4)."""

    stardust_returned: int = 0
    fame: int = 0


def payouts(state: State) -> Payouts:
    """T3, K17: K7 pays per copy in force; K2 and K16 return each Stardust at most once,
    all paid this turn when K16's condition holds, else K2's refund."""
    kinds = [BY_NUMBER[card].ability.kind for card in state.in_force]
    fame = kinds.count(K.GRAND_FAME) * _grand_marked(state)
    returned = 0
    if K.COMMON_PATH in kinds and _common_path_holds(state):
        returned = sum(len(mark.stars) for mark in state.turn_marks if mark.observe)
    elif K.GRAND_SIEVE in kinds:
        returned = _sieve_refund(state)
    return Payouts(returned, fame)


def _grand_marked(state: State) -> int:
    """K7: the Grand stars the active player marked this turn, by Observe or Ability."""
    return sum(
        star in BY_NUMBER[mark.card].grand for mark in state.turn_marks for star in mark.stars
    )


def _sieve_refund(state: State) -> int:
    """K2: in each Observe action that reaches a Grand star, the stars paid before it."""
    refund = 0
    for mark in state.turn_marks:
        grand = BY_NUMBER[mark.card].grand
        firsts = [n for n, star in enumerate(mark.stars) if star in grand]
        if mark.observe and firsts:
            refund += firsts[0]
    return refund


def _common_path_holds(state: State) -> bool:
    """K16: only Common stars marked this turn (a Starting star is not one), and no card
    whose last star the player marked (no Discovery phase triggered)."""
    return not state.discovered and all(
        BY_NUMBER[mark.card].star_type(star) is StarType.COMMON
        for mark in state.turn_marks
        for star in mark.stars
    )
