"""A computer player: a simple greedy seat that plays through the same commands as a person,
reading only what its own seat may see (its sheet as of the last closed step, its own dealt
cards during the setup choice, the turn's dice, the Night Sky).

Its rules:

- setup choice (G3): keep the 4 cheapest of its 6 cards by difficulty (X4);
- a turn or a Night opening: find its *targets*, the cheapest legal placements of its goals
  on its map (fewest stars still missing; none on a completed constellation's star or line,
  none touching one, C3, C5); weigh every missing space by how close its placement is to
  done; then try every research die (and, once it has the Lens, every Lens use) and take the
  one whose pair plot (and, as the active seat, Shooting Star plot) reaches the heaviest
  spaces; fill research toward the Lens and the Drive first (then Finder, Filter, Funding);
  spend banked track bonuses and Finder stars on the last missing stars of a target when
  that completes it (else a track bonus researches); claim whatever is claimable and use
  every card bonus toward a target (a research bonus toward the Lens or the Drive);
- draft (G6): the cheapest face-up card by difficulty, else the top of a deck (Small first).

Every step is checked by ``steps.take`` as it is added, and the whole by ``steps.apply``: the
robot never sends a refused submission (it passes instead, U4). Well under a second a turn:
a goal has a few hundred placements on the map, each weighed once per claim.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import gcd

from games.kit import Refusal

from . import figures, steps
from .commands import Choose, Command, Pick, Submit
from .decide import take_refused
from .deck import CARDS, BonusKind, Card, rotations
from .model import KEEP, PASS, Phase, Source, State, Submission, Take
from .sheet import SHOOTING_STAR_DIE, Dice, Sheet, Slot
from .sheet_data import MAP_SIZE, SPACES, Space, Track, line_spaces, track_value
from .steps import (
    FORGO,
    CardBonus,
    Claim,
    FinderStar,
    Lens,
    NightBonus,
    PairPlot,
    Plan,
    ResearchDie,
    ResearchFill,
    Roll,
    ShootingPlot,
    Step,
    TrackBonus,
)

Fill = type[ResearchFill] | type[CardBonus] | type[TrackBonus] | type[NightBonus]
TARGETS = 8  # the cheapest placements kept as targets
PRIORITY = (Track.LENS, Track.DRIVE, Track.FINDER, Track.FILTER, Track.FUNDING)  # research
DRIVE_NUMBER = 6  # the robot's Drive number (R8): any value is as likely on a die


def waiting(state: State, seat: int) -> bool:
    """The seat owes an action in the running step."""
    if state.ended or not 1 <= seat <= state.players:
        return False
    if state.phase is Phase.CHOICE:
        return state.choice is not None and seat in state.choice.waiting
    if state.phase in (Phase.OPENING, Phase.TURN):
        return state.round is not None and seat in state.round.waiting
    return state.phase is Phase.DRAFT and state.drafter == seat


def move(state: State, seat: int, dice: Dice | None = None) -> Command:
    """The robot's command for ``seat`` in the running step. ``dice``: the server's roll for
    a turn this command may start (D2), passed through untouched."""
    if state.phase is Phase.CHOICE:
        hand = state.hands[seat - 1]
        kept = sorted(hand, key=lambda card: (CARDS[card].difficulty, card))[:KEEP]
        return Choose(seat, 1, tuple(card for card in hand if card in kept), dice)
    if state.phase is Phase.DRAFT:
        return Pick(seat, state.version, pick(state), dice)
    opening = state.phase is Phase.OPENING
    roll = Roll(None if opening else state.dice, not opening and seat == state.active, opening)
    return Submit(seat, state.round_number, plan_steps(state.sheet(seat), roll), dice)


# -- the draft ----------------------------------------------------------------------------------


def pick(state: State) -> Take:
    """G6: the cheapest face-up card; none left face up: a deck's top, Small first."""
    faces = [
        (CARDS[card].difficulty, card, Take(source, slot))
        for source, row in (
            (Source.LARGE_ROW, state.sky_large),
            (Source.SMALL_ROW, state.sky_small),
        )
        for slot, card in enumerate(row, start=1)
        if card is not None
    ]
    if faces:
        return min(faces, key=lambda face: (face[0], face[1]))[2]
    for source in (Source.SMALL_DECK, Source.LARGE_DECK):
        if take_refused(state, Take(source)) is None:
            return Take(source)
    return Take(Source.SMALL_DECK)  # nothing left: refused, but a draft never asks then


# -- targets ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A legal placement of a goal: its card, spaces and the spaces still without a star."""

    card: str
    spaces: frozenset[Space]
    missing: frozenset[Space]


def _on_lines(sheet: Sheet) -> frozenset[Space]:
    """Every grid point on a completed constellation's lines (C5: a new star there touches)."""
    points: set[Space] = set()
    for figure in sheet.figures:
        for (r1, c1), (r2, c2) in figure.lines:
            n = gcd(abs(r2 - r1), abs(c2 - c1)) or 1
            dr, dc = (r2 - r1) // n, (c2 - c1) // n
            points.update((r1 + i * dr, c1 + i * dc) for i in range(n + 1))
    return frozenset(points)


def _placements(card: Card) -> list[frozenset[Space]]:
    found: set[frozenset[Space]] = set()
    for turn in rotations(card.stars):
        height = max(r for r, _ in turn)
        width = max(c for _, c in turn)
        for top in range(1, MAP_SIZE - height + 1):
            for left in range(1, MAP_SIZE - width + 1):
                found.add(frozenset((r + top, c + left) for r, c in turn))
    return sorted(found, key=sorted)


_PLACEMENTS: dict[str, list[frozenset[Space]]] = {}


def targets(sheet: Sheet) -> list[Target]:
    """The cheapest legal placements of the seat's goals, fewest missing stars first (ties:
    more points, then fewer spaces only a wild reaches)."""
    blocked = sheet.used_stars | _on_lines(sheet)
    ranked: list[tuple[tuple[int, int, int], str, frozenset[Space], frozenset[Space]]] = []
    for goal in sheet.goals:
        card = CARDS[goal]
        if goal not in _PLACEMENTS:
            _PLACEMENTS[goal] = _placements(card)
        points = card.points if card.points is not None else 2
        for spaces in _PLACEMENTS[goal]:
            if spaces & blocked:
                continue
            missing = spaces - sheet.stars
            hard = sum(1 for r, c in missing if r <= 2 or c <= 2)
            ranked.append(((len(missing), -points, hard), goal, spaces, missing))
    ranked.sort(key=lambda entry: (entry[0], entry[1], sorted(entry[2])))
    found: list[Target] = []
    for _, goal, spaces, missing in ranked:
        figure = figures.place(CARDS[goal], spaces)
        if figure is None or any(figures.touches(figure, old) for old in sheet.figures):
            continue
        found.append(Target(goal, spaces, missing))
        if len(found) >= TARGETS:
            break
    return found


def weights(found: list[Target]) -> dict[Space, float]:
    """How much a star on each missing space is worth: more the closer its placement is."""
    weight: dict[Space, float] = {}
    for target in found:
        value = 10.0 / len(target.missing) if target.missing else 0.0
        for space in target.missing:
            weight[space] = max(weight.get(space, 0.0), value)
    return weight


# -- building a submission -----------------------------------------------------------------------


class _Builder:
    """The steps so far and the plan they make, each step checked as it is added."""

    def __init__(self, sheet: Sheet, roll: Roll) -> None:
        self.plan = Plan(sheet)
        self.roll = roll
        self.steps: list[Step] = []

    @property
    def sheet(self) -> Sheet:
        return self.plan.sheet

    def add(self, step: Step) -> bool:
        taken = steps.take(self.plan, step, self.roll)
        if isinstance(taken, str):
            return False
        self.plan = taken
        self.steps.append(step)
        return True

    def fill(self, make: Fill, slots: list[Slot]) -> bool:
        """Research the first of ``slots`` in the robot's order of tracks."""
        for track, position in _by_priority(slots):
            drive = DRIVE_NUMBER if steps.completes_drive(self.sheet, (track, position)) else None
            if make is ResearchFill:
                step: Step = ResearchFill(track, position, drive)
            else:
                step = make(track=track, position=position, drive=drive)
            if self.add(step):
                return True
        return False


def _by_priority(slots: list[Slot]) -> list[Slot]:
    return sorted(slots, key=lambda slot: (PRIORITY.index(slot[0]), slot[1]))


def plan_steps(sheet: Sheet, roll: Roll) -> tuple[Step, ...]:
    """The greedy whole submission for ``sheet`` in this step (checked: never refused)."""
    builder = _Builder(sheet, roll)
    weight = weights(targets(sheet))
    if roll.opening:
        best = _heaviest(weight, builder.sheet, list(SPACES))
        if best is not None and weight.get(best, 0.0) > 0:
            builder.add(NightBonus(space=best))
        else:
            builder.fill(NightBonus, list(builder.sheet.empty_slots()))
    elif roll.dice is not None:
        _dice_steps(builder, roll.dice, weight)
    _spend_and_claim(builder)
    chosen = tuple(builder.steps)
    after = steps.apply(sheet, chosen, dice=roll.dice, active=roll.active, opening=roll.opening)
    return chosen if not isinstance(after, Refusal) else PASS.steps


def _heaviest(weight: dict[Space, float], sheet: Sheet, spaces: list[Space]) -> Space | None:
    """The empty space of ``spaces`` with the most weight (ties: the first)."""
    empty = [space for space in spaces if space not in sheet.stars]
    if not empty:
        return None
    return max(empty, key=lambda space: (weight.get(space, 0.0), -empty.index(space)))


def _dice_steps(builder: _Builder, dice: Dice, weight: dict[Space, float]) -> None:
    """Choose the research die (and Lens) whose plots reach the heaviest spaces."""
    sheet = builder.sheet
    lenses: list[Lens | None] = [None]
    if sheet.has(Track.LENS):
        lenses += [Lens(die, delta) for die in range(4) for delta in (-1, 1)]
    best: tuple[float, int, Lens | None] | None = None
    for lens in lenses:
        if lens is not None and not 1 <= dice.face(lens.die) + lens.delta <= 6:
            continue
        if lens is not None and lens.die == SHOOTING_STAR_DIE and not builder.roll.active:
            continue
        for die in range(3):
            plan = replace(
                builder.plan,
                research_die=die,
                lens=None if lens is None else (lens.die, lens.delta),
            )
            value = _plots_value(plan, dice, weight, builder.roll.active)
            value += 0.1 * _research_value(plan, dice)
            if best is None or value > best[0]:
                best = (value, die, lens)
    assert best is not None
    _, die, lens = best
    builder.add(ResearchDie(die))
    if lens is not None:
        builder.add(lens)
    pair = [space for space in SPACES if _pair_reaches(builder.plan, dice, space)]
    target = _heaviest(weight, builder.sheet, pair)
    if target is not None:
        builder.add(PairPlot(target))
    if builder.roll.active:
        reach = _shooting_reach(builder.plan, dice)
        target = _heaviest(weight, builder.sheet, reach)
        if target is not None:
            builder.add(ShootingPlot(target))
    value = builder.plan.value(dice, die)
    slots = [
        slot
        for slot in builder.sheet.empty_slots()
        if builder.plan.wild(dice, die) or track_value(*slot) == value
    ]
    builder.fill(ResearchFill, slots)


def _pair_reaches(plan: Plan, dice: Dice, space: Space) -> bool:
    """P2 with the plan's research die and Lens."""
    x, y = plan.pair()
    big_r, big_c = (space[0] + 1) // 2, (space[1] + 1) // 2
    return (plan.matches(dice, x, big_r) and plan.matches(dice, y, big_c)) or (
        plan.matches(dice, x, big_c) and plan.matches(dice, y, big_r)
    )


def _shooting_reach(plan: Plan, dice: Dice) -> list[Space]:
    """P4: the orange die's row and column, or anywhere when it is wild."""
    if plan.wild(dice, SHOOTING_STAR_DIE):
        return list(SPACES)
    return sorted(line_spaces(plan.value(dice, SHOOTING_STAR_DIE)))


def _plots_value(plan: Plan, dice: Dice, weight: dict[Space, float], active: bool) -> float:
    empty = [space for space in weight if space not in plan.sheet.stars]
    pair = max((weight[s] for s in empty if _pair_reaches(plan, dice, s)), default=0.0)
    if not active:
        return pair
    reach = set(_shooting_reach(plan, dice))
    shooting = max((weight[s] for s in empty if s in reach), default=0.0)
    return pair + shooting


def _research_value(plan: Plan, dice: Dice) -> float:
    die = plan.research_die
    assert die is not None
    value = plan.value(dice, die)
    slots = [
        slot
        for slot in plan.sheet.empty_slots()
        if plan.wild(dice, die) or track_value(*slot) == value
    ]
    if not slots:
        return 0.0
    return float(len(PRIORITY) - PRIORITY.index(_by_priority(slots)[0][0]))


def _spend_and_claim(builder: _Builder) -> None:
    """Free stars that complete a target, then every claim with its bonuses, until none."""
    for _ in range(20):  # each round claims a card or stops
        sheet = builder.sheet
        free = sheet.banked + sheet.finder_left
        found = targets(sheet)
        closing = next((t for t in found if 0 < len(t.missing) <= free), None)
        if closing is not None:
            for space in sorted(closing.missing):
                if builder.sheet.finder_left > 0:
                    builder.add(FinderStar(space))
                else:
                    builder.add(TrackBonus(space=space))
            continue
        if not _claim_one(builder, found):
            break
    while builder.sheet.banked > 0:  # no completion in reach: research instead (R5)
        if not builder.fill(TrackBonus, list(builder.sheet.empty_slots())):
            break


def _claim_one(builder: _Builder, found: list[Target]) -> bool:
    for target in found:
        if target.missing:
            continue
        if builder.add(Claim(target.card, target.spaces)):
            card = CARDS[target.card]
            while builder.plan.due is not None:
                _card_bonus(builder, card)
            return True
    return False


def _card_bonus(builder: _Builder, card: Card) -> None:
    """B2-B4: the card's bonus used toward a target, or forgone when it cannot be used."""
    kind = card.bonus.kind
    if kind is BonusKind.RESEARCH:
        if builder.fill(CardBonus, list(builder.sheet.empty_slots())):
            return
    elif kind in (BonusKind.FREE_STAR, BonusKind.SHOOTING_STAR):
        weight = weights(targets(builder.sheet))
        if kind is BonusKind.SHOOTING_STAR and card.bonus.value is not None:
            reach = sorted(line_spaces(card.bonus.value))
        else:
            reach = list(SPACES)
        space = _heaviest(weight, builder.sheet, reach)
        if space is not None and builder.add(CardBonus(space=space)):
            return
    builder.add(FORGO)


def submission(state: State, seat: int) -> Submission:
    """The robot's submission for ``seat`` in the running turn or opening, as stored."""
    command = move(state, seat)
    assert isinstance(command, Submit)
    return Submission.of(command.steps)
