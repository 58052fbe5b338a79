"""A seat's submission: its steps, checked in order against its sheet (U1-U9, D3-D6, P1-P7,
R1-R12, C2, C8, C9, B1-B5, N8).

``apply(sheet, steps, dice=..., active=..., opening=...)`` checks each step against the sheet
as the earlier steps left it (U1, U7) and returns the new sheet, or a ``Refusal`` naming the
first step that failed and the rule it broke (U2); a refused submission changes nothing.
``follow`` does the same without the end-of-submission check (a card bonus still due, U8):
it is the state of a plan being built. ``options`` lists the legal next steps of a plan (U9)
by running each candidate through the very step check ``apply`` runs; it records nothing.

The dice are named by index: 0, 1 and 2 are the Standard (blue) dice as rolled, 3
(``SHOOTING_STAR_DIE``) is the Shooting Star (orange) die. A track space is
``(track, position)``, position 1-5 left to right.

Decisions (RULES.md leaves them open):

- A card bonus, a track bonus and a Night bonus name either a space (a star) or a track space
  (a research fill), never both; a card bonus that names neither is "forgo" (``FORGO``). A
  track or Night bonus that names neither is refused: a bonus not taken is simply not sent.
- The Drive number rides on the step that completes the Drive (``drive=``), whichever kind of
  fill it is (U5.10); on any other step, a star included, it is refused.
- A Lens on the research die is allowed before or after the research die is named, and before
  the research fill; a Lens on a die after its use is refused (R7). The Lens may also be used
  on a die never used later (it still spends the turn's Lens, R7).
- A refusal's rule for a refused claim is found from ``figures``' own checks in C2's order:
  C2.2 (the count or a missing star), C4 (flipped), C2.3 (no rotation fits), C3 (a shared
  star), C5 (touching).
- ``options`` returns a ``Refusal`` when the plan so far is itself refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from games.kit import Problem, Refusal

from . import figures
from .deck import CARDS, BonusKind, Card
from .sheet import DIE_NAMES, SHOOTING_STAR_DIE, Dice, Sheet, Slot
from .sheet_data import (
    ABILITY_AT,
    BONUS_TRACKS,
    DIE_VALUES,
    DRIVE_NUMBERS,
    FINDER_STARS,
    POSITIONS,
    SPACES,
    TRACK_BONUS_AT,
    Space,
    Track,
    face_label,
    is_space,
    sector_of,
    track_value,
)

STANDARD_DICE = (0, 1, 2)
ALL_DICE = (*STANDARD_DICE, SHOOTING_STAR_DIE)
LENS_DELTAS = (-1, 1)

# -- the steps (U5) ------------------------------------------------------------------------


@dataclass(frozen=True)
class ResearchDie:
    """U5.1: which Standard die (0, 1, 2 as rolled) is the research die."""

    index: int


@dataclass(frozen=True)
class Lens:
    """U5.2, R7: one die (0-2 blue, 3 orange) taken one higher (+1) or lower (-1)."""

    die: int
    delta: int


@dataclass(frozen=True)
class PairPlot:
    """U5.3, P2: a star plotted with the two Standard dice that are not the research die."""

    space: Space


@dataclass(frozen=True)
class ShootingPlot:
    """U5.4, P4: a star plotted with the Shooting Star die (active seat only)."""

    space: Space


@dataclass(frozen=True)
class ResearchFill:
    """U5.5, R2: a track space filled with the research die; ``drive`` when it completes the
    Drive (U5.10)."""

    track: Track
    position: int
    drive: int | None = None


@dataclass(frozen=True)
class Claim:
    """U5.6, C2: a goal card and the spaces whose stars form it."""

    card: str
    spaces: frozenset[Space]


@dataclass(frozen=True)
class CardBonus:
    """U5.7, B2-B4: the just-claimed card's bonus used on a space or a track space, or
    forgone when it names neither."""

    space: Space | None = None
    track: Track | None = None
    position: int | None = None
    drive: int | None = None

    @property
    def forgo(self) -> bool:
        return self.space is None and self.track is None and self.position is None


FORGO = CardBonus()


@dataclass(frozen=True)
class TrackBonus:
    """U5.8, R5: one banked track bonus spent on a free star (a space) or a research space."""

    space: Space | None = None
    track: Track | None = None
    position: int | None = None
    drive: int | None = None


@dataclass(frozen=True)
class FinderStar:
    """U5.9, R9: one Finder star spent on an empty space."""

    space: Space


@dataclass(frozen=True)
class NightBonus:
    """U5.11, N8: in a Night opening, a free star (a space) or one research space."""

    space: Space | None = None
    track: Track | None = None
    position: int | None = None
    drive: int | None = None


Step = (
    ResearchDie
    | Lens
    | PairPlot
    | ShootingPlot
    | ResearchFill
    | Claim
    | CardBonus
    | TrackBonus
    | FinderStar
    | NightBonus
)
FreeUse = CardBonus | TrackBonus | NightBonus
DICE_STEPS = (ResearchDie, Lens, PairPlot, ShootingPlot, ResearchFill)

# -- a plan: the submission so far ----------------------------------------------------------


@dataclass(frozen=True)
class Due:
    """A card bonus still owed right after a claim (U8): the card and how many uses are left
    (two with Filter, B3), and the claim's step number for a refusal."""

    card: Card
    left: int
    claim_step: int


@dataclass(frozen=True)
class Roll:
    """What a submission is made against: the turn's dice (None in a Night opening), whether
    the seat is the active seat, and whether this is a Night opening (N8)."""

    dice: Dice | None
    active: bool
    opening: bool


@dataclass(frozen=True)
class Plan:
    """The sheet as the steps so far left it, and what this submission has spent (U6)."""

    sheet: Sheet
    research_die: int | None = None
    lens: tuple[int, int] | None = None  # (die, delta)
    used: frozenset[int] = frozenset()  # dice used by a plot or the research fill (R7)
    pair_plotted: bool = False
    shooting_plotted: bool = False
    researched: bool = False
    night_bonus: bool = False
    due: Due | None = None
    count: int = 0  # steps taken

    def value(self, dice: Dice, die: int) -> int:
        """D3: the die's effective value for this seat: its face, moved by the Lens."""
        delta = self.lens[1] if self.lens is not None and self.lens[0] == die else 0
        return dice.face(die) + delta

    def wild(self, dice: Dice, die: int) -> bool:
        """D4: effective value 1, or the seat's Drive number as the sheet stands now."""
        value = self.value(dice, die)
        return value == 1 or value == self.sheet.drive

    def matches(self, dice: Dice, die: int, number: int) -> bool:
        """P2: the die is wild or its effective value is ``number``."""
        return self.wild(dice, die) or self.value(dice, die) == number

    def pair(self) -> tuple[int, int]:
        """The two Standard dice that are not the research die, in rolled order."""
        first, second = (die for die in STANDARD_DICE if die != self.research_die)
        return first, second

    def label(self, dice: Dice, die: int) -> str:
        text = face_label(self.value(dice, die))
        return f"{text} (wild)" if self.wild(dice, die) and text != "?" else text


# -- words ------------------------------------------------------------------------------------


def space_text(space: Space) -> str:
    return f"({space[0]}, {space[1]})"


def slot_text(track: Track, position: int) -> str:
    return f"{track.value.capitalize()} space {position}"


def _use_text(step: FreeUse) -> str:
    if step.space is not None:
        return f"star at {space_text(step.space)}"
    if step.track is not None and step.position is not None:
        return f"research {slot_text(step.track, step.position)}"
    return "forgo" if isinstance(step, CardBonus) else "nothing"


def describe(step: Step) -> str:
    """A step in a few words, for a refusal (U2) and the plan strip."""
    match step:
        case ResearchDie(index):
            return f"research die {index + 1}"
        case Lens(die, delta):
            name = DIE_NAMES[die] if die in ALL_DICE else f"die {die}"
            return f"Lens on {name} {'+' if delta > 0 else '−'}{abs(delta)}"
        case PairPlot(space):
            return f"pair plot {space_text(space)}"
        case ShootingPlot(space):
            return f"Shooting Star plot {space_text(space)}"
        case ResearchFill(track, position, _):
            return f"research {slot_text(track, position)}"
        case Claim(card, _):
            return f"claim {figures.card_name(card)}"
        case CardBonus():
            return f"card bonus: {_use_text(step)}"
        case TrackBonus():
            return f"track bonus: {_use_text(step)}"
        case FinderStar(space):
            return f"Finder star at {space_text(space)}"
        case NightBonus():
            return f"Night bonus: {_use_text(step)}"


# -- the checks, one step at a time -----------------------------------------------------------


def _empty_space_refused(sheet: Sheet, space: Space) -> str | None:
    """P1, M1: a star goes in an empty space of the map."""
    if not (isinstance(space, tuple) and len(space) == 2 and is_space(space)):
        return f"{space!r} is not a space of the 12 × 12 map (M1)."
    if space in sheet.stars:
        return f"{space_text(space)} already holds a star (P1)."
    return None


def in_line(space: Space, v: int) -> bool:
    """M3: the space is in sector-row ``v`` or sector-column ``v`` (``line_spaces(v)``)."""
    return v in sector_of(space)


def _plot(plan: Plan, space: Space) -> Plan:
    return replace(plan, sheet=replace(plan.sheet, stars=plan.sheet.stars | {space}))


def _slot_refused(sheet: Sheet, track: Track | None, position: int | None) -> str | None:
    """R1: a track space of the sheet, and empty."""
    if track not in tuple(Track) or position not in POSITIONS:
        return f"{track!r} space {position!r} is no track space (R1)."
    assert track is not None and position is not None
    if (track, position) in sheet.research:
        return f"{slot_text(track, position)} is already filled (R1)."
    return None


def completes_drive(sheet: Sheet, slot: Slot) -> bool:
    """U5.10: filling this empty track space fills the Drive track's last empty space."""
    return slot[0] == Track.DRIVE and sheet.count(Track.DRIVE) == ABILITY_AT - 1


def drive_slot(sheet: Sheet) -> Slot | None:
    """The one track space whose fill must carry the Drive number, if there is one now."""
    empty = [slot for slot in sheet.empty_slots() if slot[0] == Track.DRIVE]
    return empty[0] if len(empty) == 1 else None


def _fill(sheet: Sheet, slot: Slot, drive: int | None) -> Sheet | str:
    """Any research fill (R2, R3, B2, R5, N8) on an empty track space: the Drive number on
    the fill that completes the Drive (U5.10, R8), a track bonus at 3 (R4), Finder stars at 5
    (R9). Abilities at 5 need nothing stored: ``Sheet.has`` reads the track (R6)."""
    track = slot[0]
    finishing = completes_drive(sheet, slot)
    if finishing and drive is None:
        return "this fill completes the Drive track: it must carry the Drive number, 2-6 (R8)."
    if not finishing and drive is not None:
        return "a Drive number goes only on the fill that completes the Drive track (U5.10)."
    if finishing and drive not in DRIVE_NUMBERS:
        return f"{drive!r} is no Drive number: write 2 to 6 (R8)."
    filled = replace(sheet, research=sheet.research | {slot})
    count = filled.count(track)
    if track in BONUS_TRACKS and count == TRACK_BONUS_AT:
        filled = replace(filled, banked=filled.banked + 1)
    if track == Track.FINDER and count == ABILITY_AT:
        filled = replace(filled, finder_left=filled.finder_left + FINDER_STARS)
    if finishing:
        filled = replace(filled, drive=drive)
    return filled


def _drive_on_star(step: FreeUse) -> str | None:
    if step.drive is not None:
        return "a Drive number goes only on the fill that completes the Drive track (U5.10)."
    return None


def _free_use(plan: Plan, step: FreeUse, rule: str) -> Plan | str:
    """P5, R3: a free star in any empty space, or any empty research space; one of the two
    (R5)."""
    wants_slot = step.track is not None or step.position is not None
    if step.space is not None and wants_slot:
        return f"a bonus is a star or a research space, never both ({rule})."
    if step.space is not None:
        refused = _empty_space_refused(plan.sheet, step.space) or _drive_on_star(step)
        return refused or _plot(plan, step.space)
    if not wants_slot:
        return f"say where: a space for a star or a track space to fill ({rule})."
    refused = _slot_refused(plan.sheet, step.track, step.position)
    if refused is not None:
        return refused
    assert step.track is not None and step.position is not None
    filled = _fill(plan.sheet, (step.track, step.position), step.drive)
    return filled if isinstance(filled, str) else replace(plan, sheet=filled)


def _dice_refused(step: Step, roll: Roll) -> str | None:
    """N8: a Night opening has no dice steps; a turn has its dice."""
    if roll.opening:
        return "a Night opening has no dice: no research die, Lens, dice plot or fill (N8)."
    if roll.dice is None:
        return "no dice were rolled for this step (D2)."
    return None


def _research_die(plan: Plan, step: ResearchDie) -> Plan | str:
    if step.index not in STANDARD_DICE:
        return "the research die is one of the three blue dice: the 1st, 2nd or 3rd (R2, U5)."
    if plan.research_die is not None:
        return "the research die is already chosen this turn (U6)."
    return replace(plan, research_die=step.index)


def _lens(plan: Plan, step: Lens, roll: Roll, dice: Dice) -> Plan | str:
    if not plan.sheet.has(Track.LENS):
        return "the Lens track is not complete: no Lens yet (R6, U7)."
    if plan.lens is not None:
        return "the Lens is used once per turn (R7, U6)."
    if step.die not in ALL_DICE:
        return f"{step.die!r} is no die: 0-2 are the blue dice, 3 the orange die (U5)."
    if step.die == SHOOTING_STAR_DIE and not roll.active:
        return "only the active seat may use the orange die (N7, R7)."
    if step.delta not in LENS_DELTAS:
        return "the Lens changes a die by +1 or −1 (R7)."
    if step.die in plan.used:
        return f"{DIE_NAMES[step.die]} is already used: the Lens comes before its use (R7)."
    value = dice.face(step.die) + step.delta
    if value not in DIE_VALUES:
        return f"{DIE_NAMES[step.die]} cannot go below 1 or above 6: no wrap-around (D3)."
    return replace(plan, lens=(step.die, step.delta))


def _pair_plot(plan: Plan, step: PairPlot, dice: Dice) -> Plan | str:
    if plan.research_die is None:
        return "name the research die first: the pair is the other two dice (U5)."
    if plan.pair_plotted:
        return "one pair plot per turn (U6)."
    refused = _empty_space_refused(plan.sheet, step.space)
    if refused is not None:
        return refused
    x, y = plan.pair()
    big_r, big_c = sector_of(step.space)
    if not (
        (plan.matches(dice, x, big_r) and plan.matches(dice, y, big_c))
        or (plan.matches(dice, x, big_c) and plan.matches(dice, y, big_r))
    ):
        pair = f"{plan.label(dice, x)} and {plan.label(dice, y)}"
        return f"{space_text(step.space)} is in sector ({big_r}, {big_c}): {pair} miss it (P2)."
    plotted = _plot(plan, step.space)
    return replace(plotted, pair_plotted=True, used=plan.used | {x, y})


def _shooting_plot(plan: Plan, step: ShootingPlot, roll: Roll, dice: Dice) -> Plan | str:
    if not roll.active:
        return "only the active seat plots with the Shooting Star die (P4, N7)."
    if plan.shooting_plotted:
        return "one Shooting Star plot per turn (U6)."
    refused = _empty_space_refused(plan.sheet, step.space)
    if refused is not None:
        return refused
    value = plan.value(dice, SHOOTING_STAR_DIE)
    if not plan.wild(dice, SHOOTING_STAR_DIE) and not in_line(step.space, value):
        where = f"sector-row {value} or sector-column {value}"
        return f"{space_text(step.space)} is not in {where} (P4)."
    plotted = _plot(plan, step.space)
    return replace(plotted, shooting_plotted=True, used=plan.used | {SHOOTING_STAR_DIE})


def _research_fill(plan: Plan, step: ResearchFill, dice: Dice) -> Plan | str:
    if plan.research_die is None:
        return "name the research die first (U5)."
    if plan.researched:
        return "one research fill with the die per turn (U6, R2)."
    refused = _slot_refused(plan.sheet, step.track, step.position)
    if refused is not None:
        return refused
    die = plan.research_die
    shown = track_value(step.track, step.position)
    if not plan.matches(dice, die, shown):
        name = slot_text(step.track, step.position)
        return f"{name} shows {shown}; the research die is {plan.label(dice, die)} (R2)."
    filled = _fill(plan.sheet, (step.track, step.position), step.drive)
    if isinstance(filled, str):
        return filled
    return replace(plan, sheet=filled, researched=True, used=plan.used | {die})


def claim_rule(card: Card, spaces: frozenset[Space], sheet: Sheet) -> str:
    """Which rule a refused claim broke, by ``figures``' own checks in C2's order."""
    if len(spaces) != len(card.stars) or not spaces <= sheet.stars:
        return "C2.2"
    if figures.place(card, spaces) is None:
        return "C4" if figures.flipped(card, spaces) else "C2.3"
    if spaces & sheet.used_stars:
        return "C3"
    return "C5"


def _claim(plan: Plan, step: Claim) -> Plan | str:
    sheet = plan.sheet
    card = CARDS.get(step.card)
    if card is None or step.card not in sheet.goals:
        return f"{figures.card_name(step.card)} is not one of your goals (C2.1)."
    spaces = frozenset(step.spaces)
    placed = figures.claim_refused(card, spaces, sheet.stars, sheet.figures)
    if isinstance(placed, str):
        return f"{placed.rstrip('.')} ({claim_rule(card, spaces, sheet)})."
    goals = tuple(goal for goal in sheet.goals if goal != step.card)
    claimed = replace(sheet, goals=goals, figures=(*sheet.figures, placed))  # C8
    due = None
    if card.bonus.kind is not BonusKind.NONE:
        uses = 2 if sheet.has(Track.FILTER) else 1  # B3, R10: Filter at the claim's moment
        due = Due(card, uses, plan.count + 1)
    return replace(plan, sheet=claimed, due=due)


def _card_bonus(plan: Plan, step: CardBonus) -> Plan | str:
    due = plan.due
    assert due is not None
    left = Due(due.card, due.left - 1, due.claim_step) if due.left > 1 else None
    if step.forgo:
        return replace(plan, due=left)  # B4
    bonus = due.card.bonus
    used: Plan | str
    if bonus.kind is BonusKind.RESEARCH:
        if step.space is not None:
            return f"{due.card.name}'s bonus is a research space, not a star (B2)."
        used = _free_use(plan, step, "B2")
    else:
        if step.space is None:
            return f"{due.card.name}'s bonus is a star, not a research space (B2)."
        used = _free_use(plan, step, "B2")
        value = bonus.value if bonus.kind is BonusKind.SHOOTING_STAR else None
        if value is not None and not isinstance(used, str) and not in_line(step.space, value):
            where = f"sector-row {value} or sector-column {value}"
            return f"{space_text(step.space)} is not in {where}: a printed value (P6, D6)."
    return used if isinstance(used, str) else replace(used, due=left)


def _track_bonus(plan: Plan, step: TrackBonus) -> Plan | str:
    if plan.sheet.banked < 1:
        return "no banked track bonus to spend (R4, R5)."
    used = _free_use(plan, step, "R5")
    if isinstance(used, str):
        return used
    return replace(used, sheet=replace(used.sheet, banked=used.sheet.banked - 1))


def _finder_star(plan: Plan, step: FinderStar) -> Plan | str:
    if plan.sheet.finder_left < 1:
        return "no Finder star left to spend (R9)."
    refused = _empty_space_refused(plan.sheet, step.space)
    if refused is not None:
        return refused
    plotted = _plot(plan, step.space)
    return replace(plotted, sheet=replace(plotted.sheet, finder_left=plan.sheet.finder_left - 1))


def _night_bonus(plan: Plan, step: NightBonus, roll: Roll) -> Plan | str:
    if not roll.opening:
        return "a Night bonus is taken only in a Night opening (N8)."
    if plan.night_bonus:
        return "one Night bonus per Night opening (U6, N8)."
    used = _free_use(plan, step, "N8")
    return used if isinstance(used, str) else replace(used, night_bonus=True)


def take(plan: Plan, step: Step, roll: Roll) -> Plan | str:
    """One step on the plan as the earlier steps left it (U1, U7): the plan after it, or
    the reason it is refused (with the rule)."""
    taken = _take(plan, step, roll)
    return taken if isinstance(taken, str) else replace(taken, count=plan.count + 1)


def _take(plan: Plan, step: Step, roll: Roll) -> Plan | str:
    if plan.due is not None and not isinstance(step, CardBonus):
        name = plan.due.card.name
        return f"{name}'s bonus comes directly after its claim: use it or forgo it first (U8)."
    if isinstance(step, CardBonus):
        if plan.due is None:
            return "no card bonus is due here: it comes directly after its card's claim (U8)."
        return _card_bonus(plan, step)
    if isinstance(step, DICE_STEPS):
        refused = _dice_refused(step, roll)
        if refused is not None:
            return refused
        assert roll.dice is not None
        return _dice_step(plan, step, roll, roll.dice)
    match step:
        case Claim():
            return _claim(plan, step)
        case TrackBonus():
            return _track_bonus(plan, step)
        case FinderStar():
            return _finder_star(plan, step)
        case NightBonus():
            return _night_bonus(plan, step, roll)
    return f"{step!r} is no step (U5)."


def _dice_step(plan: Plan, step: Step, roll: Roll, dice: Dice) -> Plan | str:
    match step:
        case ResearchDie():
            return _research_die(plan, step)
        case Lens():
            return _lens(plan, step, roll, dice)
        case PairPlot():
            return _pair_plot(plan, step, dice)
        case ShootingPlot():
            return _shooting_plot(plan, step, roll, dice)
        case ResearchFill():
            return _research_fill(plan, step, dice)
    return f"{step!r} is no dice step (U5)."


# -- a whole submission (U1, U2, U8) ----------------------------------------------------------


def _refusal(number: int, step: Step, reason: str) -> Refusal:
    return Refusal(f"Step {number} ({describe(step)}): {reason}", Problem.INVALID)


def follow(
    sheet: Sheet, steps: Sequence[Step], *, dice: Dice | None, active: bool, opening: bool
) -> Plan | Refusal:
    """The plan after ``steps`` in order (U1, U7), or the refusal of the first step that
    fails. A card bonus may still be due at the end: that is ``apply``'s check."""
    roll = Roll(dice, active, opening)
    plan = Plan(sheet)
    for number, step in enumerate(steps, start=1):
        taken = take(plan, step, roll)
        if isinstance(taken, str):
            return _refusal(number, step, taken)
        plan = taken
    return plan


def apply(
    sheet: Sheet, steps: Sequence[Step], *, dice: Dice | None, active: bool, opening: bool
) -> Sheet | Refusal:
    """The seat's sheet after its whole submission, or why it is refused (U1, U2). An empty
    submission is a pass (U4)."""
    plan = follow(sheet, steps, dice=dice, active=active, opening=opening)
    if isinstance(plan, Refusal):
        return plan
    if plan.due is not None:
        number = plan.due.claim_step
        name = plan.due.card.name
        reason = (
            f"{name}'s bonus must follow at once, used or forgone ({plan.due.left} still due) (U8)."
        )
        return _refusal(number, steps[number - 1], reason)
    return plan.sheet


# -- what is legal next (U9) ------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """The legal next steps of a plan (U9), by kind: the research dice, the Lens uses, the
    spaces each kind of star may go to, the track spaces each kind of fill may go to, the
    claims (every legal placement of every goal) and whether "forgo" is open. A fill of
    ``drive_slot`` must carry a Drive number 2-6 (U5.10)."""

    research_dice: frozenset[int] = frozenset()
    lenses: frozenset[Lens] = frozenset()
    pair_plots: frozenset[Space] = frozenset()
    shooting_plots: frozenset[Space] = frozenset()
    research_fills: frozenset[Slot] = frozenset()
    claims: tuple[Claim, ...] = ()
    card_bonus_spaces: frozenset[Space] = frozenset()
    card_bonus_fills: frozenset[Slot] = frozenset()
    forgo: bool = False
    track_bonus_spaces: frozenset[Space] = frozenset()
    track_bonus_fills: frozenset[Slot] = frozenset()
    finder_spaces: frozenset[Space] = frozenset()
    night_spaces: frozenset[Space] = frozenset()
    night_fills: frozenset[Slot] = frozenset()
    drive_slot: Slot | None = None

    def steps(self) -> tuple[Step, ...]:
        """Every legal next step, the Drive number's five choices spelled out."""
        found: list[Step] = [ResearchDie(i) for i in sorted(self.research_dice)]
        found += [Lens(die, delta) for die, delta in sorted((x.die, x.delta) for x in self.lenses)]
        found += [PairPlot(s) for s in sorted(self.pair_plots)]
        found += [ShootingPlot(s) for s in sorted(self.shooting_plots)]
        for track, position, drive in self._fills(self.research_fills):
            found.append(ResearchFill(track, position, drive))
        found += self.claims
        found += [CardBonus(space=s) for s in sorted(self.card_bonus_spaces)]
        for track, position, drive in self._fills(self.card_bonus_fills):
            found.append(CardBonus(track=track, position=position, drive=drive))
        found += [FORGO] if self.forgo else []
        found += [TrackBonus(space=s) for s in sorted(self.track_bonus_spaces)]
        for track, position, drive in self._fills(self.track_bonus_fills):
            found.append(TrackBonus(track=track, position=position, drive=drive))
        found += [FinderStar(s) for s in sorted(self.finder_spaces)]
        found += [NightBonus(space=s) for s in sorted(self.night_spaces)]
        for track, position, drive in self._fills(self.night_fills):
            found.append(NightBonus(track=track, position=position, drive=drive))
        return tuple(found)

    def _fills(self, slots: frozenset[Slot]) -> Iterator[tuple[Track, int, int | None]]:
        order = list(Track)
        for track, position in sorted(slots, key=lambda s: (order.index(s[0]), s[1])):
            drives = DRIVE_NUMBERS if (track, position) == self.drive_slot else (None,)
            for drive in drives:
                yield track, position, drive


def options(
    sheet: Sheet, steps_so_far: Sequence[Step], *, dice: Dice | None, active: bool, opening: bool
) -> Options | Refusal:
    """U9: the legal next steps after ``steps_so_far``, each found by running it through
    ``take``, the check ``apply`` runs. Nothing is recorded."""
    plan = follow(sheet, steps_so_far, dice=dice, active=active, opening=opening)
    if isinstance(plan, Refusal):
        return plan
    roll = Roll(dice, active, opening)
    slot = drive_slot(plan.sheet)

    def ok(step: Step) -> bool:
        return not isinstance(take(plan, step, roll), str)

    def spaces(make: type[PairPlot | ShootingPlot | FinderStar]) -> frozenset[Space]:
        return frozenset(s for s in SPACES if ok(make(s)))

    def free_spaces(make: type[FreeUse]) -> frozenset[Space]:
        return frozenset(s for s in SPACES if ok(make(space=s)))

    def fills(make: Callable[[Track, int, int | None], Step]) -> frozenset[Slot]:
        return frozenset(
            (track, position)
            for track, position in plan.sheet.empty_slots()
            if ok(make(track, position, DRIVE_NUMBERS[0] if (track, position) == slot else None))
        )

    return Options(
        research_dice=frozenset(i for i in STANDARD_DICE if ok(ResearchDie(i))),
        lenses=frozenset(
            lens for d in ALL_DICE for delta in LENS_DELTAS if ok(lens := Lens(d, delta))
        ),
        pair_plots=spaces(PairPlot),
        shooting_plots=spaces(ShootingPlot),
        research_fills=fills(ResearchFill),
        claims=tuple(claim for claim in _claims(plan.sheet) if ok(claim)),
        card_bonus_spaces=free_spaces(CardBonus),
        card_bonus_fills=fills(lambda t, p, d: CardBonus(track=t, position=p, drive=d)),
        forgo=ok(FORGO),
        track_bonus_spaces=free_spaces(TrackBonus),
        track_bonus_fills=fills(lambda t, p, d: TrackBonus(track=t, position=p, drive=d)),
        finder_spaces=spaces(FinderStar),
        night_spaces=free_spaces(NightBonus),
        night_fills=fills(lambda t, p, d: NightBonus(track=t, position=p, drive=d)),
        drive_slot=slot,
    )


def _claims(sheet: Sheet) -> Iterator[Claim]:
    """Every placement of every goal among the seat's stars (C2.3), to be checked whole."""
    for goal in sheet.goals:
        card = CARDS.get(goal)
        if card is not None:
            for figure in figures.placements_on(card, sheet.stars):
                yield Claim(goal, frozenset(figure.stars))
