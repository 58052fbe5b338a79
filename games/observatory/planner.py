"""The plan strip: a seat building its turn (U1, U9) on a phone, one tap a step.

The plan lives in the page as the ``plan`` field (``plan.py``); every tap asks the ``plan``
preview, which records nothing, and gets this area back: the steps so far as chips, what
kind of step comes next (the tabs, only the kinds that have a legal choice), the map with
that kind's legal spaces as buttons over it, the track spaces, dice, claims or "forgo" for
kinds that are not a space, Undo, Clear and Submit. Submit posts the plan (``play/submit``);
the rules judge it whole.

Only the seat's own sheet and the turn's public dice are read: nothing here is secret from
that seat, and the area is sent to that seat alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.utils.safestring import SafeString

from games.kit import Refusal

from . import plan, presenters
from .rules.commands import Submit
from .rules.decide import decide
from .rules.deck import CARDS
from .rules.model import Phase, State
from .rules.sheet import DIE_NAMES, Dice
from .rules.sheet_data import (
    DRIVE_NUMBERS,
    SECTORS,
    Space,
    Track,
    face_label,
    sector_spaces,
    track_value,
)
from .rules.steps import (
    FORGO,
    CardBonus,
    Claim,
    FinderStar,
    Lens,
    NightBonus,
    Options,
    PairPlot,
    ResearchDie,
    ResearchFill,
    Roll,
    ShootingPlot,
    Step,
    TrackBonus,
    describe,
    follow,
    slot_text,
)
from .rules.steps import options as legal_next

FreeUse = type[CardBonus] | type[TrackBonus] | type[NightBonus]


@dataclass(frozen=True)
class Mode:
    """A kind of step the next tap adds, and how it reads in the tabs."""

    key: str
    label: str
    hint: str  # what to tap, said under the tabs


MODES = (
    Mode("die", "Research die", "Choose the die that goes to research."),
    Mode("lens", "Lens", "Take one die one higher or lower."),
    Mode("pair", "Plot", "Tap a space the other two dice reach."),
    Mode("shoot", "Shooting Star", "Tap a space the orange die reaches."),
    Mode("fill", "Research", "Tap a track space the research die fills."),
    Mode("claim", "Claim", "Claim a goal your stars form."),
    Mode("bonus", "Card bonus", "Use the card's bonus, or forgo it."),
    Mode("track", "Track bonus", "Spend a banked bonus: a free star or a research space."),
    Mode("finder", "Finder star", "Tap an empty space for a Finder star."),
    Mode("night", "Night bonus", "Take a free star or one research space."),
)
BY_KEY = {mode.key: mode for mode in MODES}


@dataclass(frozen=True)
class Target:
    """One tappable choice: the word it adds to the plan and what it says; a track space
    is shown in its track's row (``group``) by its short label."""

    word: str
    label: str
    group: str = ""
    short: str = ""


@dataclass(frozen=True)
class Cell:
    """A space of the map's button layer: a target, or nothing to tap."""

    space: Space
    target: Target | None


@dataclass(frozen=True)
class Tab:
    mode: Mode
    current: bool


@dataclass(frozen=True)
class PlanArea:
    """Everything the plan strip shows (``observatory/plan.html``)."""

    area: str  # the element id the answers replace
    round: int
    plan: str
    mode: str
    steps: tuple[str, ...]
    tabs: tuple[Tab, ...]
    hint: str
    map_html: SafeString
    sectors: tuple[tuple[Cell, ...], ...]  # the map's button layer, sector by sector
    choices: tuple[Target, ...]  # targets that are not a space of the map
    refusal: str  # why the plan, or Submit now, would be refused
    said: str  # what the last tap did
    ready: bool  # Submit would be accepted now
    empty: bool  # Submit now is a pass (U4)


def area_id(round_number: int) -> str:
    return f"obs-plan-{round_number}"


def roll_of(state: State, seat: int) -> Roll:
    opening = state.phase is Phase.OPENING
    return Roll(None if opening else state.dice, not opening and seat == state.active, opening)


ANY_DICE = Dice((1, 1, 1), 1)  # a plan that closes the turn is judged with some next roll


def plan_area(
    state: State,
    seat: int,
    steps: tuple[Step, ...],
    now: datetime,
    *,
    mode: str = "",
    said: str = "",
) -> PlanArea:
    """The plan strip for ``steps``: the rules' own ``options`` say what is legal next (U9)
    and their ``decide`` whether Submit would be accepted (its events are thrown away)."""
    roll = roll_of(state, seat)
    sheet = state.sheet(seat)
    legal = legal_next(sheet, steps, dice=roll.dice, active=roll.active, opening=roll.opening)
    built = follow(sheet, steps, dice=roll.dice, active=roll.active, opening=roll.opening)
    decision = decide(state, Submit(seat, state.round_number, steps, dice=ANY_DICE), now)
    refusal = ""
    if isinstance(legal, Refusal):
        refusal = legal.reason
    elif isinstance(decision, Refusal):
        refusal = decision.reason
    options = legal if isinstance(legal, Options) else Options()
    shown = built.sheet if not isinstance(built, Refusal) else sheet
    targets = _targets(options, roll.dice)
    open_modes = [m for m in MODES if targets.get(m.key)]
    current = _current(mode, open_modes)
    chosen = targets.get(current.key, {}) if current else {}
    return PlanArea(
        area=area_id(state.round_number),
        round=state.round_number,
        plan=plan.write(steps),
        mode=current.key if current else "",
        steps=tuple(describe(step) for step in steps),
        tabs=tuple(Tab(m, m is current) for m in open_modes),
        hint=current.hint if current else "Nothing more can be added: Submit when ready.",
        map_html=presenters.map_html(
            shown, "Your Star Map as planned", f"plan-{seat}", True, sheet
        ),
        sectors=_sectors(chosen),
        choices=tuple(t for key, t in chosen.items() if not isinstance(key, tuple)),
        refusal=refusal,
        said=said,
        ready=not refusal,
        empty=not steps,
    )


def _current(mode: str, open_modes: list[Mode]) -> Mode | None:
    """The kind the seat chose if it is still open; a card bonus due comes first (U8)."""
    keys = [m.key for m in open_modes]
    if "bonus" in keys:
        return BY_KEY["bonus"]
    if mode in keys:
        return BY_KEY[mode]
    return open_modes[0] if open_modes else None


Key = Space | str  # a space of the map, or another choice's word


def _targets(options: Options, dice: Dice | None) -> dict[str, dict[Key, Target]]:
    """Every legal next step, by mode: a space's target keyed by the space, any other by
    its word."""
    found: dict[str, dict[Key, Target]] = {
        "die": {_key(ResearchDie(i)): _die_target(i, dice) for i in sorted(options.research_dice)},
        "lens": {
            _key(lens): _lens_target(lens, dice)
            for lens in sorted(options.lenses, key=lambda x: (x.die, x.delta))
        },
        "pair": _spaces(options.pair_plots, PairPlot, "Plot"),
        "shoot": _spaces(options.shooting_plots, ShootingPlot, "Shooting Star plot"),
        "fill": _fills(options, options.research_fills, ResearchFill),
        "claim": {_key(claim): _claim_target(claim) for claim in options.claims},
        "bonus": {
            **_free_spaces(options.card_bonus_spaces, CardBonus),
            **_fills(options, options.card_bonus_fills, _use(CardBonus)),
            **(
                {plan.word(FORGO): Target(plan.word(FORGO), "Forgo the bonus")}
                if options.forgo
                else {}
            ),
        },
        "track": {
            **_free_spaces(options.track_bonus_spaces, TrackBonus),
            **_fills(options, options.track_bonus_fills, _use(TrackBonus)),
        },
        "finder": _spaces(options.finder_spaces, FinderStar, "Finder star"),
        "night": {
            **_free_spaces(options.night_spaces, NightBonus),
            **_fills(options, options.night_fills, _use(NightBonus)),
        },
    }
    return found


def _forgo(options: Options) -> dict[Key, Target]:
    word = plan.word(FORGO)
    return {word: Target(word, "Forgo the bonus")} if options.forgo else {}


def _key(step: Step) -> str:
    return plan.word(step)


def _die_target(index: int, dice: Dice | None) -> Target:
    face = f" ({dice.face(index)})" if dice is not None else ""
    return Target(plan.word(ResearchDie(index)), f"{DIE_NAMES[index].removeprefix('the ')}{face}")


def _lens_target(lens: Lens, dice: Dice | None) -> Target:
    name = DIE_NAMES[lens.die].removeprefix("the ")
    sign = "+1" if lens.delta > 0 else "−1"
    if dice is None:
        return Target(plan.word(lens), f"{name} {sign}")
    before = dice.face(lens.die)
    return Target(plan.word(lens), f"{name} {before} → {before + lens.delta}")


def _spaces(
    spaces: frozenset[Space], make: Callable[[Space], Step], what: str
) -> dict[Key, Target]:
    return {
        space: Target(plan.word(make(space)), f"{what} at row {space[0]}, column {space[1]}")
        for space in sorted(spaces)
    }


def _free_spaces(spaces: frozenset[Space], make: FreeUse) -> dict[Key, Target]:
    return {
        space: Target(
            plan.word(make(space=space)), f"Free star at row {space[0]}, column {space[1]}"
        )
        for space in sorted(spaces)
    }


def _use(make: FreeUse) -> Callable[[Track, int, int | None], Step]:
    return lambda track, position, drive: make(track=track, position=position, drive=drive)


def _fills(
    options: Options,
    slots: frozenset[tuple[Track, int]],
    make: Callable[[Track, int, int | None], Step],
) -> dict[Key, Target]:
    order = list(Track)
    found: dict[Key, Target] = {}
    for track, position in sorted(slots, key=lambda s: (order.index(s[0]), s[1])):
        drives = DRIVE_NUMBERS if (track, position) == options.drive_slot else (None,)
        for drive in drives:
            step = make(track, position, drive)
            label = slot_text(track, position)
            short = f"{position}: {face_label(track_value(track, position))}"
            if drive is not None:
                label += f", Drive number {drive}"
                short += f", Drive {drive}"
            group = track.value.capitalize()
            found[plan.word(step)] = Target(plan.word(step), label, group, short)
    return found


def _claim_target(claim: Claim) -> Target:
    card = CARDS[claim.card]
    return Target(plan.word(claim), f"Claim {card.name} ({len(claim.spaces)} stars)")


def _sectors(chosen: dict[Key, Target]) -> tuple[tuple[Cell, ...], ...]:
    """The map's button layer: sector by sector (the layout's 6 x 6 grid of 2 x 2), each
    space with its target for the chosen kind, if any."""
    return tuple(
        tuple(Cell(space, chosen.get(space)) for space in sorted(sector_spaces(sector)))
        for sector in SECTORS
    )
