"""The marking strip (U3): the stars tapped so far, the card opened full width with its
legal next stars as large tap targets, Undo star, Clear, and Send ("Observe (3 Stardust)",
"Dream", "Use Hercules"). One strip serves the Observe action (O2-O11), the Abilities that
mark (K1, K5, K10, K14) and the Dream phase (V6-V8).

Every tap is the ``mark`` preview: the server reads the strip's fields (``mode``, ``chain``,
``open``) and one change (``add``, ``undo``, ``clear``, ``open``, ``to``), and answers the
strip again. Nothing is recorded until Send (O10); the rules judge the whole chain then, and
the strip offers only what the rules' own helpers say may come next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from games.inputs import BadInput

from . import chain as chains
from .pictures import CardFace, ability_name, card_face
from .rules.abilities import THREE_LIGHTS, TWIN_LIGHTS, free_sight
from .rules.cards import BY_NUMBER, AbilityKind, Card
from .rules.commands import Dream, Observe, UseAbility
from .rules.decide import decide
from .rules.dream import dream_cards, dream_length
from .rules.marking import first_stars, next_stars
from .rules.model import Phase, State

OBSERVE, DREAM, ABILITY = "observe", "dream", "ability"
MARKING_KINDS = (
    AbilityKind.STAR_BURST,
    AbilityKind.THREE_LIGHTS,
    AbilityKind.SPARK,
    AbilityKind.TWIN_LIGHTS,
)

Targets = dict[int, frozenset[int]]  # slot -> the stars a tap may add there


@dataclass(frozen=True)
class TapTarget:
    word: str  # the ``add`` value: "slot.star"
    label: str
    x: int  # the star's place on the card's 5 x 5 grid (the CSS places the button: no
    y: int  # inline style, which the page's Content-Security-Policy forbids)


@dataclass(frozen=True)
class Tab:
    mode: str
    label: str
    current: bool


@dataclass(frozen=True)
class OtherCard:
    slot: int
    name: str
    current: bool


@dataclass(frozen=True)
class MarkArea:
    area: str  # the element's id: one per version, so a new step brings a fresh strip
    version: int
    mode: str  # "observe", "dream" or "ability-<card>"
    title: str
    tabs: tuple[Tab, ...]  # what the strip may mark now: Observe, each marking Ability
    chain: str  # the stars so far, as chain.write writes them
    chips: tuple[str, ...]
    open: int | None  # the slot opened full width
    face: CardFace | None
    targets: tuple[TapTarget, ...]
    cards: tuple[OtherCard, ...]  # the cards a tap may go to next, to open
    hint: str
    said: str
    refusal: str
    send: str  # the action Send posts: "observe", "dream" or "ability"
    send_label: str
    card: int | None  # the Ability's card
    ready: bool

    @property
    def empty(self) -> bool:
        return not self.chain


def area_id(version: int) -> str:
    return f"astra-mark-{version}"


def ability_card(mode: str) -> int | None:
    kind, _, number = mode.partition("-")
    return int(number) if kind == ABILITY and number.isdigit() else None


def modes(state: State, seat: int) -> tuple[str, ...]:
    """What the strip may mark for ``seat`` now: Observe in the Action phase (O1, O9), an
    Active marking Ability in the Ability phase (A1, K18), the Dream step (V6-V8)."""
    if state.ended or state.active != seat:
        return ()
    if state.phase is Phase.DREAMING:
        return (DREAM,)
    found: list[str] = []
    acting = state.phase in (Phase.ABILITY, Phase.OBSERVING) and not state.skipped
    if acting and _may_observe(state, seat):
        found.append(OBSERVE)
    if state.phase is Phase.ABILITY and state.undiscovered():
        found += [
            f"{ABILITY}-{held.card}"
            for held in state.journal(seat).held
            if held.active and BY_NUMBER[held.card].ability.kind in MARKING_KINDS
        ]
    return tuple(found)


def _may_observe(state: State, seat: int) -> bool:
    journal = state.journal(seat)
    extra = state.observes > 0
    return bool(journal.stardust and state.undiscovered() and (not extra or journal.telescopes))


# -- what a tap may add --------------------------------------------------------------------


def targets(state: State, seat: int, mode: str, taps: Sequence[chains.Target]) -> Targets:
    """The stars a next tap may add, by slot (empty: the chain is complete or stuck)."""
    if mode == OBSERVE:
        limit = state.journal(seat).stardust
        return _one_card(state, taps, limit, free=free_sight(state), slots=state.undiscovered())
    if mode == DREAM:
        return _one_card(state, taps, dream_length(state), free=False, slots=dream_cards(state))
    card = ability_card(mode)
    if card is None:
        return {}
    kind = BY_NUMBER[card].ability.kind
    if kind in (AbilityKind.STAR_BURST, AbilityKind.SPARK):
        return {} if taps else _anywhere(state)
    if kind is AbilityKind.THREE_LIGHTS:
        return _three_lights(state, taps)
    return _twin_lights(state, taps)


def _one_card(
    state: State, taps: Sequence[chains.Target], limit: int, *, free: bool, slots: Sequence[int]
) -> Targets:
    if len(taps) >= limit:
        return {}
    if not taps:
        found = {n: first_stars(*_card(state, n), free=free) for n in slots}
        return {n: stars for n, stars in found.items() if stars}
    slot = taps[0][0]
    card, marked = _card(state, slot)
    stars = next_stars(card, marked, [star for _, star in taps])
    return {slot: stars} if stars else {}


def _card(state: State, slot: int) -> tuple[Card, frozenset[int]]:
    placed = state.slot(slot)
    return placed.constellation, placed.marked


def _anywhere(state: State) -> Targets:
    """K1, K10: any unmarked star of any undiscovered card."""
    found = {}
    for n in state.undiscovered():
        placed = state.slot(n)
        found[n] = frozenset(range(placed.constellation.stars)) - placed.marked
    return found


def _three_lights(state: State, taps: Sequence[chains.Target]) -> Targets:
    """K5: one first star (O3) on each of min(3, undiscovered) different cards."""
    if len(taps) >= min(THREE_LIGHTS, len(state.undiscovered())):
        return {}
    used = {slot for slot, _ in taps}
    return {n: first_stars(*_card(state, n)) for n in state.undiscovered() if n not in used}


def _twin_lights(state: State, taps: Sequence[chains.Target]) -> Targets:
    """K14: a first star (O3) anywhere, then one adjacent to it on its card (O4) or a first
    star on another card."""
    if len(taps) >= TWIN_LIGHTS:
        return {}
    found = {n: first_stars(*_card(state, n)) for n in state.undiscovered()}
    if taps:
        slot, star = taps[0]
        card, marked = _card(state, slot)
        found[slot] = next_stars(card, marked, [star])
    return {n: stars for n, stars in found.items() if stars}


# -- the command Send would post, and whether the rules take it ----------------------------------


def command(
    state: State, seat: int, mode: str, taps: Sequence[chains.Target]
) -> Observe | Dream | UseAbility:
    """The command the strip's Send posts (``game.py`` builds the same from the form)."""
    if mode in (OBSERVE, DREAM):
        slot, stars = chains.one_card(taps)
        if mode == OBSERVE:
            return Observe(seat=seat, version=state.version, slot=slot, stars=stars)
        return Dream(seat=seat, version=state.version, slot=slot, stars=stars)
    card = ability_card(mode)
    if card is None:
        raise BadInput("That is not something to mark.")
    return UseAbility(seat=seat, version=state.version, card=card, stars=tuple(taps))


def accepted(
    state: State, seat: int, mode: str, taps: Sequence[chains.Target], now: datetime
) -> str:
    """ "" if the rules would take Send now, else why not."""
    try:
        wanted = command(state, seat, mode, taps)
    except BadInput as refusal:
        return str(refusal)
    decision = decide(state, wanted, now)
    return "" if isinstance(decision, list) else decision.reason


# -- the strip -----------------------------------------------------------------------------------


def mark_area(
    state: State,
    seat: int,
    now: datetime,
    *,
    mode: str = "",
    taps: Sequence[chains.Target] = (),
    open_slot: int | None = None,
    said: str = "",
) -> MarkArea | None:
    """The strip for ``seat`` now (None: nothing to mark)."""
    offered = modes(state, seat)
    if not offered:
        return None
    if mode not in offered:
        mode, taps = offered[0], ()
    taps = tuple(taps)
    next_taps = targets(state, seat, mode, taps)
    shown = _shown_slot(taps, next_taps, open_slot, mode)
    refusal = accepted(state, seat, mode, taps, now) if taps else ""
    return MarkArea(
        area=area_id(state.version),
        version=state.version,
        mode=mode,
        title=_title(state, mode),
        tabs=_tabs(state, offered, mode) if len(offered) > 1 else (),
        chain=chains.write(taps),
        chips=tuple(_chip(state, slot, star) for slot, star in taps),
        open=shown,
        face=_face(state, shown, taps) if shown else None,
        targets=_tap_targets(state, shown, next_taps.get(shown, frozenset())) if shown else (),
        cards=tuple(
            OtherCard(n, state.slot(n).constellation.name, n == shown) for n in sorted(next_taps)
        ),
        hint=_hint(state, mode, taps, next_taps, shown, bool(refusal)),
        said=said,
        refusal=refusal if taps and refusal and not next_taps else "",
        send=mode.partition("-")[0],
        send_label=_send_label(state, mode, taps),
        card=ability_card(mode),
        ready=bool(taps) and not refusal,
    )


def _shown_slot(
    taps: Sequence[chains.Target], next_taps: Targets, open_slot: int | None, mode: str
) -> int | None:
    if open_slot is not None and (open_slot in next_taps or any(s == open_slot for s, _ in taps)):
        return open_slot
    if taps and (mode in (OBSERVE, DREAM) or taps[-1][0] in next_taps):
        return taps[-1][0]
    return min(next_taps) if len(next_taps) == 1 else (taps[-1][0] if taps else None)


def _face(state: State, slot: int, taps: Sequence[chains.Target]) -> CardFace:
    """The opened card, its marks, and the stars tapped on it so far, numbered in order."""
    placed = state.slot(slot)
    assert placed.card is not None
    tapped = {star: n for n, (where, star) in enumerate(taps, 1) if where == slot}
    return card_face(placed.card, placed.marks, placed.crossed, tapped=tapped)


def _tap_targets(state: State, slot: int, stars: frozenset[int]) -> tuple[TapTarget, ...]:
    card = state.slot(slot).constellation
    found = []
    for star in sorted(stars):
        x, y = card.positions[star]
        found.append(TapTarget(f"{slot}.{star}", f"Mark star {star} of {card.name}", x, y))
    return tuple(found)


def _chip(state: State, slot: int, star: int) -> str:
    return f"{state.slot(slot).constellation.name} {star}"


def _title(state: State, mode: str) -> str:
    if mode == OBSERVE:
        return "Observe" if state.observes == 0 else "Another Observe (uses 1 Telescope)"
    if mode == DREAM:
        return f"The dreamer's {dream_length(state)} stars: you choose them"
    card = ability_card(mode)
    assert card is not None
    return f"Use {BY_NUMBER[card].name} ({ability_name(BY_NUMBER[card])})"


def _hint(
    state: State,
    mode: str,
    taps: Sequence[chains.Target],
    next_taps: Targets,
    shown: int | None,
    unfinished: bool,
) -> str:
    if not next_taps:
        return "Nothing more can be added: send it, or undo a star." if taps else "Nothing to mark."
    if not taps:
        if mode == DREAM:
            return "Open one of the tied cards and tap the dreamer's first star."
        return "Open a card and tap a lit star: the first star of your chain."
    elsewhere = shown not in next_taps
    if unfinished:
        more = "Open another card and tap its lit star" if elsewhere else "Tap the next lit star"
        return f"{more}: this needs more stars before it can be sent."
    if elsewhere:
        return "Open another card to tap its lit star, or send what you have."
    return "Tap the next lit star, or send what you have."


def _tabs(state: State, offered: Sequence[str], mode: str) -> tuple[Tab, ...]:
    """What the strip may mark now, one button each: Observe, and each marking Ability."""
    return tuple(Tab(m, _tab_label(state, m), m == mode) for m in offered)


def _tab_label(state: State, mode: str) -> str:
    if mode == OBSERVE:
        return "Observe"
    if mode == DREAM:
        return "Dream"
    card = ability_card(mode)
    assert card is not None
    return f"Use {BY_NUMBER[card].name}"


def _send_label(state: State, mode: str, taps: Sequence[chains.Target]) -> str:
    if mode == OBSERVE:
        if not taps:
            return "Observe"
        cost = f"Observe ({len(taps)} Stardust"
        return cost + (", 1 Telescope)" if state.observes else ")")
    if mode == DREAM:
        return "Mark the dreamer's stars"
    card = ability_card(mode)
    assert card is not None
    return f"Use {BY_NUMBER[card].name}"


# -- the preview: one tap ----------------------------------------------------------------------


def tapped(
    state: State,
    seat: int,
    now: datetime,
    *,
    mode: str,
    taps: tuple[chains.Target, ...],
    open_slot: int | None,
    add: chains.Target | None = None,
    undo: bool = False,
    clear: bool = False,
    to: str = "",
) -> MarkArea | None:
    """One change to the strip, judged against the state now: a star that may not come next
    is not added, and the strip says why."""
    said = ""
    if to:
        mode, taps, open_slot = to, (), None
    elif clear:
        taps, said = (), "Cleared: no star is tapped."
    elif undo and taps:
        said, taps = f"Undone: {_chip(state, *taps[-1])}.", taps[:-1]
    elif add is not None:
        allowed = targets(state, seat, mode, taps).get(add[0], frozenset())
        if add[1] in allowed:
            taps, open_slot = (*taps, add), add[0]
            said = f"Tapped: {_chip(state, *add)}."
        else:
            said = "That star cannot come next: tap one of the lit stars."
    return mark_area(state, seat, now, mode=mode, taps=taps, open_slot=open_slot, said=said)
