"""A computer player (issue 19): a simple greedy seat that plays through the same commands as
a person, reading only what its own seat may see (the public table, H3, and its own Final
Scoring card, H1; never the deck's order, another seat's card or a sealed pick, H2, H4).

``waiting(state, seat)`` says whether the seat owes a command now; ``move(state, seat, rng)``
gives it. Randomness comes only from ``rng``, and only to break ties between equal choices.

Its rules, each step scored in rough Fame-like worth (``Worth``: in play, or on the seat's
last turn, where only the final scoring, F1-F8, counts):

- the Ability phase (A1, A5), one card a command: first the Abilities that mark (Spark, Twin
  Lights, Three Lights on the best legal stars; a Star Burst only when it discovers a card or
  beats the planned Observe, K1, K5, K10, K14), then the instant gains when they gain
  something (Windfall, Lens, Insight, Deep Pouch, a Forge with Stardust to spare, Presence,
  Harmony), then the this-turn effects the plan uses (Free Sight when it finds a better
  chain; Grand Fame, Grand Sieve or Common Path when the planned chain pays them; Full Rest
  before a Rest). On its last turn a card is kept Active (F3) unless its Fame beats that;
- the Action (O1-O13, R1-R7): the best legal chain of any undiscovered card (a mark, a Grand
  star's Wisdom, a discovery, less the Stardust it costs and a card left one star from done)
  unless a Rest is worth more (its refill and reactivations); after a Star Burst, Done;
- another Observe while Telescopes allow and a chain is worth one (O9, O11), else Done;
- a Boon pick (D6-D8, B1-B7): the open box worth the most to it, an Activation naming its
  most valuable Exhausted cards;
- the card limit (L1): keep the cards that score the most at the end (F3-F5);
- the Dream (2 players, V6-V8): the dreamer's chain that leaves the other seat least.

Every choice is built from the rules' own helpers (``marking``, ``abilities``,
``discovery``, ``dream``) and checked with their refusals, so ``decide`` accepts it. Well under
a second a move: a card has at most 9 stars, so its chains are few.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TypeVar

from .abilities import (
    FORGE_PRICE,
    THREE_LIGHTS,
    Target,
    ability_refused,
    free_sight,
    full_rest,
    in_force,
)
from .boards import POUCH_GAINS_TO_TOP, WISDOM_GAINS_TO_TOP, card_limit
from .cards import BY_NUMBER, AbilityKind, Boon, BoonKind, StarType
from .commands import Command, DiscardCards, Done, Dream, Observe, PickBoon, Rest, UseAbility
from .decide import observe_refused, resolving
from .discovery import exhausted, needs_choice, open_boxes, pick_refused
from .dream import dream_cards, dream_chains
from .ending import SCORING_CARDS
from .marking import first_stars, next_stars
from .model import Phase, State
from .scoring import HeldCard, Holdings, score

T = TypeVar("T")
K = AbilityKind
ACTING = (Phase.ABILITY, Phase.OBSERVING, Phase.DISCARDING, Phase.DREAMING)  # the active seat's
ANOTHER_OBSERVE = 1.0  # O9: what a further chain must be worth to spend a Telescope on it
FORGE_SPARE = 2 * FORGE_PRICE + 1  # K4: forge one Telescope only with this much Stardust
ACTIVE_CARD = 0.5  # L1: an Active card kept is worth a little more (its Ability, F3)
EPSILON = 1e-9


@dataclass(frozen=True)
class Worth:
    """What the robot counts a thing as worth, in Fame-like units."""

    star: float  # a mark: a share of the card's Boons (D4), half a Fame at the end (F2)
    grand: float  # a Grand star's Wisdom on top of its mark (O8)
    discovery: float  # a card discovered, on top of its Final Scoring Fame (D10, F3, F4)
    near_done: float  # a card left one star from done, for the next seat (O12)
    stardust: float
    telescope: float
    reactivation: float  # an Exhausted card Active again (R4, B7), on top of its Fame (F3)


PLAY = Worth(
    star=1.0,
    grand=2.5,
    discovery=6.0,
    near_done=0.5,
    stardust=0.3,
    telescope=1.5,
    reactivation=1.0,
)
LAST_TURN = Worth(  # only the final scoring is left (F1-F8)
    star=0.5,
    grand=0.5,
    discovery=1.0,
    near_done=0.0,
    stardust=1 / 3,
    telescope=0.0,
    reactivation=0.0,
)


@dataclass(frozen=True)
class Chain:
    """An Observe's choice: the card's slot, its stars in order and what they are worth."""

    slot: int
    stars: tuple[int, ...]
    value: float


# -- what the platform calls (games.definition.Computer) -------------------------------------


def waiting(state: State, seat: int) -> bool:
    """The seat owes a command now: the active seat in its turn, card-limit or Dream step; a
    member of the open Boon pick group who has not picked."""
    if not state.dealt or state.ended or seat not in state.seats:
        return False
    if state.phase is Phase.PICKING:
        picks = state.picks
        return picks is not None and not picks.closed and seat in picks.waiting
    return state.phase in ACTING and seat == state.active


def seats_waiting(state: State) -> tuple[int, ...]:
    """Every seat that owes a command now (several only in a tied Boon pick group, D6)."""
    return tuple(seat for seat in state.seats if waiting(state, seat))


def move(state: State, seat: int, rng: random.Random) -> Command:
    """The robot's command for ``seat``, which must be ``waiting``."""
    if not waiting(state, seat):
        raise ValueError(f"seat {seat} owes no command now ({state.phase})")
    match state.phase:
        case Phase.PICKING:
            return pick_boon(state, seat, rng)
        case Phase.DISCARDING:
            return discard(state, seat)
        case Phase.DREAMING:
            return dream(state, seat, rng)
        case Phase.OBSERVING:
            chain = best_chain(state, seat, rng)
            if chain is not None and chain.value >= ANOTHER_OBSERVE:
                return Observe(seat, state.version, chain.slot, chain.stars)
            return Done(seat, state.version)
    use = ability(state, seat, rng)
    if use is not None:
        return use
    if state.skipped:  # K1, A5: no Action after a Star Burst
        return Done(seat, state.version)
    chain = planned(state, seat, rng)
    if chain is None:
        return Rest(seat, state.version)
    return Observe(seat, state.version, chain.slot, chain.stars)


# -- worth --------------------------------------------------------------------------------------


def more_turns(state: State, seat: int) -> bool:
    """Whether ``seat`` starts another turn after the running one (E3-E5)."""
    if state.last_turn is None or state.active is None:
        return True
    ahead = (seat - state.active) % state.players or state.players
    return state.turn + ahead <= state.last_turn


def worth(state: State, seat: int) -> Worth:
    return PLAY if more_turns(state, seat) else LAST_TURN


def marks_value(state: State, seat: int, marks: Sequence[Target]) -> float:
    """What the seat's marks on these (slot, star)s are worth: each star, each Grand star's
    Wisdom while the track has room (O8), a card they complete (O12) or leave one from done."""
    by_slot: dict[int, set[int]] = {}
    for slot, star in marks:
        by_slot.setdefault(slot, set()).add(star)
    w = worth(state, seat)
    wise = state.journal(seat).wisdom < WISDOM_GAINS_TO_TOP
    value = 0.0
    for slot, stars in by_slot.items():
        placed = state.slot(slot)
        card = placed.constellation
        value += w.star * len(stars)
        if wise:
            value += w.grand * sum(star in card.grand for star in stars)
        left = card.stars - len(placed.marked | stars)
        if left == 0:
            value += w.discovery + card.final_fame
        elif left == 1:
            value -= w.near_done
    return value


def _best(options: Sequence[tuple[float, T]], rng: random.Random) -> T | None:
    """The option worth the most; ties broken by ``rng``."""
    if not options:
        return None
    top = max(value for value, _ in options)
    return rng.choice([option for value, option in options if value >= top - EPSILON])


# -- the Action: Observe or Rest (O1-O13, R1-R7) ------------------------------------------------


def chains(state: State, slot: int, budget: int, *, free: bool) -> list[tuple[int, ...]]:
    """Every legal chain on the card in ``slot`` of at most ``budget`` stars (O3-O7, K6)."""
    placed = state.slot(slot)
    card, marked = placed.constellation, placed.marked
    found: list[tuple[int, ...]] = []

    def grow(chain: tuple[int, ...]) -> None:
        if chain:
            found.append(chain)
        if len(chain) < budget:
            for star in sorted(next_stars(card, marked, chain, free=free)):
                grow((*chain, star))

    grow(())
    return found


def best_chain(
    state: State, seat: int, rng: random.Random, *, free: bool | None = None
) -> Chain | None:
    """The seat's best Observe now (None: none is legal), net of the Stardust it costs."""
    free = free_sight(state) if free is None else free
    w = worth(state, seat)
    budget = state.journal(seat).stardust
    options = [
        (value, Chain(slot, stars, value))
        for slot in state.undiscovered()
        for stars in chains(state, slot, budget, free=free)
        for value in [
            marks_value(state, seat, [(slot, s) for s in stars]) - w.stardust * len(stars)
        ]
    ]
    chain = _best(options, rng)
    if chain is None or observe_refused(state, seat, chain.slot, chain.stars) is not None:
        return None
    return chain


def rest_value(state: State, seat: int) -> float:
    """R2, R4, K13: the refill (a Full Rest's if one is in force or at hand) and the cards of
    the active Sphere's Element made Active again."""
    journal = state.journal(seat)
    w = worth(state, seat)
    if full_rest(state) or (more_turns(state, seat) and _usable(state, seat, K.FULL_REST)):
        gain = journal.pouch_size
    else:
        gain = max(0, journal.pouch_size - journal.stardust)
    back = [
        BY_NUMBER[card]
        for card in exhausted(state, seat)
        if BY_NUMBER[card].element is state.sphere
    ]
    fame = sum(card.final_fame for card in back) if not more_turns(state, seat) else 0
    return w.stardust * gain + w.reactivation * len(back) + fame


def planned(state: State, seat: int, rng: random.Random) -> Chain | None:
    """The Action the seat means to take: the best chain, or None for a Rest."""
    chain = best_chain(state, seat, rng)
    if chain is None or chain.value < rest_value(state, seat):
        return None
    return chain


# -- the Ability phase (A1-A8, K1-K18) ----------------------------------------------------------

ORDER = (  # marks first (Presence counts them), gains, then the this-turn effects the plan uses
    K.SPARK,
    K.TWIN_LIGHTS,
    K.THREE_LIGHTS,
    K.STAR_BURST,
    K.WINDFALL,
    K.LENS,
    K.INSIGHT,
    K.DEEP_POUCH,
    K.FORGE,
    K.PRESENCE,
    K.HARMONY,
    K.FREE_SIGHT,
    K.GRAND_FAME,
    K.GRAND_SIEVE,
    K.COMMON_PATH,
    K.FULL_REST,
)


def _usable(state: State, seat: int, kind: AbilityKind) -> bool:
    """A held Active card of this kind whose use would not be refused for its kind (K17)."""
    return any(
        held.active
        and BY_NUMBER[held.card].ability.kind is kind
        and not (kind.this_turn and in_force(state, kind))
        for held in state.journal(seat).held
    )


def ability(state: State, seat: int, rng: random.Random) -> UseAbility | None:
    """The first Ability worth using now, in ``ORDER`` (None: none; go on to the Action)."""
    if state.phase is not Phase.ABILITY:
        return None
    cards = [held.card for held in state.journal(seat).held if held.active]
    cards.sort(key=lambda card: ORDER.index(BY_NUMBER[card].ability.kind))
    for card in cards:
        choice = _choice(state, seat, card, rng)
        if choice is None:
            continue
        stars, k = choice
        if ability_refused(state, seat, card, stars, k) is None:
            return UseAbility(seat, state.version, card, stars, k)
    return None


Choice = tuple[tuple[Target, ...], int]  # the stars an Ability marks and a Forge's count


def _choice(state: State, seat: int, card: int, rng: random.Random) -> Choice | None:
    """The choices for using ``card`` now, or None when it is not worth using."""
    constellation = BY_NUMBER[card]
    kind = constellation.ability.kind
    if not more_turns(state, seat):  # F3: an Exhausted card scores nothing at the end
        fame = _instant_fame(state, seat, kind)
        return ((), 0) if fame > constellation.final_fame else None
    if state.skipped and kind.this_turn:
        return None  # K1: no Action this turn for a this-turn effect to pay on
    match kind:
        case K.SPARK | K.TWIN_LIGHTS | K.THREE_LIGHTS | K.STAR_BURST:
            return _marking(state, seat, kind, rng)
        case K.FORGE:
            stardust = state.journal(seat).stardust
            return ((), 1) if stardust >= FORGE_SPARE else None
        case K.WINDFALL | K.LENS:
            return ((), 0)
        case K.INSIGHT:
            return ((), 0) if state.journal(seat).wisdom < WISDOM_GAINS_TO_TOP else None
        case K.DEEP_POUCH:
            return ((), 0) if state.journal(seat).pouch_gains < POUCH_GAINS_TO_TOP else None
        case K.PRESENCE | K.HARMONY:
            return ((), 0) if _instant_fame(state, seat, kind) > 0 else None
    return _this_turn(state, seat, kind, rng)


def _instant_fame(state: State, seat: int, kind: AbilityKind) -> int:
    """K9, K15: the Fame a Presence or a Harmony gains now (0 for the other kinds)."""
    if kind is K.PRESENCE:
        return sum(1 for n in state.undiscovered() if state.slot(n).marked_by(seat))
    if kind is K.HARMONY:
        held = state.journal(seat).held
        return sum(BY_NUMBER[h.card].element is state.sphere for h in held)
    return 0


def _this_turn(state: State, seat: int, kind: AbilityKind, rng: random.Random) -> Choice | None:
    """K2, K6, K7, K13, K16: used when the planned Action makes them pay."""
    if kind is K.FREE_SIGHT:
        freed = best_chain(state, seat, rng, free=True)
        plain = best_chain(state, seat, rng, free=False)
        better = freed is not None and (plain is None or freed.value > plain.value + 0.5)
        return ((), 0) if better and freed is not None and _observes(state, seat, freed) else None
    chain = planned(state, seat, rng)
    if kind is K.FULL_REST:
        return ((), 0) if chain is None and state.journal(seat).stardust > 0 else None
    if chain is None:
        return None
    card = state.slot(chain.slot).constellation
    grand = [n for n, star in enumerate(chain.stars) if star in card.grand]
    if kind is K.GRAND_FAME:
        return ((), 0) if grand else None
    if kind is K.GRAND_SIEVE:
        return ((), 0) if grand and grand[0] > 0 else None
    completes = len(state.slot(chain.slot).marked) + len(chain.stars) == card.stars
    common = all(card.star_type(star) is StarType.COMMON for star in chain.stars) and all(
        BY_NUMBER[mark.card].star_type(star) is StarType.COMMON
        for mark in state.turn_marks
        for star in mark.stars
    )
    worth_it = common and not completes and not state.discovered and len(chain.stars) >= 2
    return ((), 0) if worth_it else None  # K16


def _observes(state: State, seat: int, chain: Chain) -> bool:
    return chain.value >= rest_value(state, seat)


def _marking(state: State, seat: int, kind: AbilityKind, rng: random.Random) -> Choice | None:
    """K1, K5, K10, K14: the best legal stars for the kind, if they are worth a use."""
    slots = state.undiscovered()
    if not slots:
        return None
    options: list[tuple[float, tuple[Target, ...]]]
    if kind is K.SPARK:  # K10: any unmarked star
        options = [
            (marks_value(state, seat, [target]), (target,)) for target in _unmarked(state, slots)
        ]
    elif kind is K.STAR_BURST:  # K1: a star and its unmarked neighbours; no Action after
        options = [
            (marks_value(state, seat, _burst(state, target)), (target,))
            for target in _unmarked(state, slots)
        ]
        stars = _best(options, rng)
        if stars is None:
            return None
        burst = _burst(state, stars[0])
        value = marks_value(state, seat, burst)
        placed = state.slot(stars[0][0])
        discovers = len(placed.marked) + len(burst) == placed.constellation.stars
        chain = planned(state, seat, rng)
        action = chain.value if chain is not None else rest_value(state, seat)
        return (stars, 0) if discovers or (len(burst) >= 3 and value > action + 1) else None
    elif kind is K.THREE_LIGHTS:  # K5: the best first star on each of the best cards
        firsts = [
            _best(
                [(marks_value(state, seat, [(slot, s)]), (slot, s)) for s in _firsts(state, slot)],
                rng,
            )
            for slot in slots
        ]
        ranked = sorted(
            (target for target in firsts if target is not None),
            key=lambda target: -marks_value(state, seat, [target]),
        )
        stars = tuple(ranked[: min(THREE_LIGHTS, len(slots))])
        options = [(marks_value(state, seat, stars), stars)]
    else:  # K14: two stars when two can be marked
        options = [(marks_value(state, seat, pair), pair) for pair in _twins(state, slots)]
        if not options:
            options = [
                (marks_value(state, seat, [(slot, star)]), ((slot, star),))
                for slot in slots
                for star in _firsts(state, slot)
            ]
    stars = _best(options, rng)
    if stars is None or marks_value(state, seat, stars) <= 0:
        return None
    return (stars, 0)


def _unmarked(state: State, slots: Sequence[int]) -> list[Target]:
    return [
        (slot, star)
        for slot in slots
        for star in range(state.slot(slot).constellation.stars)
        if star not in state.slot(slot).marked
    ]


def _burst(state: State, target: Target) -> list[Target]:
    """K1: the star and every unmarked star adjacent to it."""
    slot, star = target
    placed = state.slot(slot)
    around = placed.constellation.neighbours(star) - placed.marked
    return [target, *((slot, s) for s in sorted(around))]


def _firsts(state: State, slot: int) -> list[int]:
    """O3: the legal first stars of the card in ``slot`` (no Free Sight: K5, K14)."""
    placed = state.slot(slot)
    return sorted(first_stars(placed.constellation, placed.marked))


def _twins(state: State, slots: Sequence[int]) -> list[tuple[Target, ...]]:
    """K14: every two-star choice: a chain of two on one card, or a first star on each of two."""
    pairs: list[tuple[Target, ...]] = []
    for slot in slots:
        placed = state.slot(slot)
        for a in _firsts(state, slot):
            for b in sorted(next_stars(placed.constellation, placed.marked, (a,))):
                pairs.append(((slot, a), (slot, b)))
    for one, other in combinations(slots, 2):
        pairs += [
            ((one, a), (other, b)) for a in _firsts(state, one) for b in _firsts(state, other)
        ]
    return pairs


# -- Boon picks (D6-D8, B1-B7) --------------------------------------------------------------


def pick_boon(state: State, seat: int, rng: random.Random) -> PickBoon:
    """The open box worth the most to the seat (V3: only the boxes open to it)."""
    picks = state.picks
    number = resolving(state)
    assert picks is not None and number is not None, "a Boon pick step is open"
    slot = state.slot(number)
    options: list[tuple[float, tuple[int, tuple[int, ...]]]] = []
    for box in open_boxes(state, seat, slot):
        targets = (
            _targets(state, seat, slot.boon(box)) if needs_choice(state, seat, slot, box) else ()
        )
        if pick_refused(state, seat, slot, box, targets) is None:
            options.append((boon_value(state, seat, slot.boon(box)), (box, targets)))
    chosen = _best(options, rng)
    assert chosen is not None, "a picker always has a box open (D9, V10)"
    box, targets = chosen
    return PickBoon(seat, picks.number, box, targets)


def _targets(state: State, seat: int, boon: Boon) -> tuple[int, ...]:
    """B7: the Exhausted cards worth most back, as many as the Boon reactivates."""
    cards = sorted(exhausted(state, seat), key=lambda card: -BY_NUMBER[card].final_fame)
    return tuple(cards[: boon.amount])


def boon_value(state: State, seat: int, boon: Boon) -> float:
    """B2-B7: what the Boon is worth to the seat now (nothing past a track's top)."""
    journal = state.journal(seat)
    w = worth(state, seat)
    play = more_turns(state, seat)
    match boon.kind:
        case BoonKind.FAME:
            return float(boon.amount)
        case BoonKind.STARDUST:
            return w.stardust * boon.amount
        case BoonKind.OBSERVATION:
            return w.telescope * boon.amount
        case BoonKind.IMPROVEMENT:
            room = journal.pouch_gains < POUCH_GAINS_TO_TOP
            return (3.0 if play else 1.0) if room else 0.0
        case BoonKind.WISDOM:
            if journal.wisdom >= WISDOM_GAINS_TO_TOP:
                return 0.0
            limit = card_limit(journal.wisdom + 1) - card_limit(journal.wisdom)
            return PLAY.grand if play else float(limit)
    back = _targets(state, seat, boon)  # B7: Activation
    return sum(w.reactivation + BY_NUMBER[card].final_fame / 2 for card in back)


# -- the card limit (L1) --------------------------------------------------------------------------


def discard(state: State, seat: int) -> DiscardCards:
    """L1: keep the cards that score the most at the end (F3-F5, the seat's own Final
    Scoring card), an Active one a little more; discard the rest."""
    journal = state.journal(seat)
    scoring = SCORING_CARDS[state.scoring[seat - 1]]
    limit = journal.card_limit

    def kept_value(kept: tuple[int, ...]) -> float:
        held = tuple(HeldCard(BY_NUMBER[h.card], h.active) for h in journal.held if h.card in kept)
        sheet = score(Holdings(fame=0, scoring_card=scoring, held=held, wisdom=journal.wisdom))
        return sheet.total + ACTIVE_CARD * sum(h.active for h in held)

    cards = tuple(h.card for h in journal.held)
    kept = max(combinations(cards, limit), key=kept_value)
    return DiscardCards(seat, state.version, tuple(card for card in cards if card not in kept))


# -- the Dream (2 players, V6-V8) ----------------------------------------------------------------


def dream(state: State, seat: int, rng: random.Random) -> Dream:
    """V6-V8: the dreamer's card and chain that leave the other seat least: a discovery only
    when the seat marked more of the card than the other (D5, V10), no Grand star taken from
    the seat's reach, no card left one star from done for the other's turn."""
    other = next(s for s in state.seats if s != seat)
    options: list[tuple[float, tuple[int, tuple[int, ...]]]] = []
    for slot in dream_cards(state):
        placed = state.slot(slot)
        card = placed.constellation
        for stars in dream_chains(state, slot):
            left = card.stars - len(placed.marked) - len(stars)
            value = -PLAY.star * sum(star in card.grand for star in stars)
            if left == 0:
                value += 2 * (placed.marked_by(seat) - placed.marked_by(other))
            elif left == 1:
                value -= 3 * PLAY.near_done
            options.append((value, (slot, stars)))
    chosen = _best(options, rng)
    assert chosen is not None, "a Dream step has a card and a chain (V12, V13)"
    slot, stars = chosen
    return Dream(seat, state.version, slot, stars)
