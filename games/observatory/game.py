"""Observatory, as the platform reads it: the one definition of this game.

Everything random is drawn here, by the server, and stored in the event that needs it (D2,
G1, N3): both decks' orders and the first player in the deal, and the four dice of a turn
in every command that can start one (the deal of a first game, a choice, a submission, a
pick, the clock's expiry: the rules keep them only when a turn does start). A seat builds
its turn as a plan (``plan.py``) that the ``plan`` preview checks step by step without
recording anything (U9); Submit sends the whole plan (U1).

Not registered yet: the screens' plan strip, the setup choice and the draft prompts are
still to come, and the game is offered to hosts only once they are.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from games.codec import EventSchemas
from games.definition import (
    Action,
    Computer,
    Form,
    GameDefinition,
    HostOptions,
    Preview,
    Screens,
    Seats,
    Table,
)
from games.inputs import BadInput, integer, one_of
from games.kit import Problem, Refusal

from . import options, plan, presenters
from .rules import robot
from .rules.commands import Choose, Command, Deal, Expire, Pick, Submit
from .rules.decide import decide
from .rules.deck import LARGE, SMALL
from .rules.events import EVENT_TYPES
from .rules.evolve import evolve
from .rules.model import KEEP, Keep, Phase, Source, State, Take
from .rules.sheet import Dice
from .rules.sheet_data import DIE_VALUES, PLAYER_COUNTS
from .rules.steps import Options, Roll, Step, describe, follow
from .rules.steps import options as legal_next
from .rules.view import view_for

SLUG = "observatory"
SLOTS = (1, 2, 3)  # G4: a Night Sky row's face-up slots
SOURCES = {source.value: source for source in Source}


# -- what the server draws ------------------------------------------------------------------


def roll(rng: random.Random) -> Dice:
    """D2: three Standard dice and the Shooting Star die."""
    faces = tuple(rng.choice(DIE_VALUES) for _ in range(4))
    return Dice((faces[0], faces[1], faces[2]), faces[3])


def deal_command(
    *,
    players: int,
    step_seconds: int | None,
    chosen: Mapping[str, str],
    rng: random.Random | None = None,
) -> Deal:
    """G1, N3: both decks shuffled, the first player drawn; a first game (G2) starts its
    first turn at once, so its dice are rolled now too."""
    rng = rng or random.SystemRandom()
    large, small = list(LARGE), list(SMALL)
    rng.shuffle(large)
    rng.shuffle(small)
    first_game = options.first_game(chosen)
    return Deal(
        players=players,
        large=tuple(large),
        small=tuple(small),
        first_player=rng.randint(1, players),
        first_game=first_game,
        step_seconds=step_seconds,
        dice=roll(rng) if first_game else None,
    )


def _deal(table: Table) -> Command:
    return deal_command(
        players=table.players,
        step_seconds=table.step_seconds,
        chosen=table.options,
        rng=table.rng,
    )


def _expire(step: int, rng: random.Random) -> Command:
    return Expire(step=step, dice=roll(rng))


def _dice() -> Dice:
    """The dice of the turn a seat's command may start: the server's, never the seat's."""
    return roll(random.SystemRandom())


# -- what a seated player sends ---------------------------------------------------------------


def _round(form: Form) -> int:
    return integer(form.get("round"), "round", 1, 10_000)


def keep_of(raw: str | None) -> tuple[str, ...]:
    """G3: the four cards kept, by id, separated by spaces (which four is the rules' to
    judge: any four of the seat's own six)."""
    cards = tuple((raw or "").split())
    if len(cards) != KEEP:
        raise BadInput(f"Keep exactly {KEEP} of your 6 cards.")
    for card in cards:
        one_of(card, LARGE + SMALL, "There is no such constellation card.")
    return cards


def _choose(form: Form, seat: int) -> Command:
    return Choose(seat=seat, round=_round(form), keep=keep_of(form.get("keep")), dice=_dice())


def _submit(form: Form, seat: int) -> Command:
    steps = plan.read(form.get(plan.FIELD))
    return Submit(seat=seat, round=_round(form), steps=steps, dice=_dice())


def take_of(form: Form) -> Take:
    """G6: a face-up slot of a row (``large_row`` and ``slot``) or the top of a deck."""
    source = SOURCES.get(form.get("take") or "")
    if source is None:
        raise BadInput("Take a face-up card or the top of a deck.")
    slot = integer(form.get("slot"), "slot", min(SLOTS), max(SLOTS)) if source.row else None
    return Take(source, slot)


def _pick(form: Form, seat: int) -> Command:
    version = integer(form.get("version"), "version", 0, 10**9)
    return Pick(seat=seat, version=version, take=take_of(form), dice=_dice())


# -- the plan: what is legal next (U9), recorded nowhere ----------------------------------------


class StepOver(BadInput):
    """A plan for a step that closed (or was submitted) meanwhile: the push brings the next."""

    status = 409


@dataclass(frozen=True)
class Planning:
    """A seat's plan as it stands: its steps in words, what is legal next, and whether
    Submit would be accepted now (or the reason it would not, U2)."""

    round: int
    plan: str  # the plan field, as ``plan.write`` writes it
    steps: tuple[str, ...]  # each step in words (the plan strip's chips)
    legal: Options | None  # None: the plan so far is refused
    refusal: str  # why the plan so far, or Submit now, would be refused ("" if neither)
    ready: bool  # Submit would be accepted as it stands


def _roll_of(state: State, seat: int) -> Roll:
    opening = state.phase is Phase.OPENING
    return Roll(None if opening else state.dice, not opening and seat == state.active, opening)


def planning(state: State, seat: int, steps: tuple[Step, ...], now: datetime) -> Planning:
    """U9: the legal next steps after ``steps`` for ``seat`` in the running turn or Night
    opening, and whether the plan could be submitted as it is. The rules' own ``decide``
    judges the whole plan; its events are thrown away (any dice: nothing is rolled here)."""
    roll = _roll_of(state, seat)
    sheet = state.sheet(seat)
    legal = legal_next(sheet, steps, dice=roll.dice, active=roll.active, opening=roll.opening)
    submitted = decide(state, Submit(seat, state.round_number, steps, dice=_ANY_DICE), now)
    refusal = legal.reason if isinstance(legal, Refusal) else ""
    if not refusal and isinstance(submitted, Refusal):
        refusal = submitted.reason if submitted.problem is not Problem.CONFLICT else ""
    complete = follow(sheet, steps, dice=roll.dice, active=roll.active, opening=roll.opening)
    return Planning(
        round=state.round_number,
        plan=plan.write(steps),
        steps=tuple(describe(step) for step in steps),
        legal=None if isinstance(legal, Refusal) else legal,
        refusal=refusal,
        ready=not isinstance(complete, Refusal) and not refusal,
    )


_ANY_DICE = Dice((1, 1, 1), 1)  # a plan that closes the turn is judged with some next roll


def _plan(state: State, seat: int, form: Form, now: datetime) -> Planning:
    number = _round(form)
    if state.ended or state.phase not in (Phase.OPENING, Phase.TURN):
        raise StepOver("This step is over: your sheet shows what comes next.")
    if number != state.round_number or state.round is None or seat not in state.round.waiting:
        raise StepOver("This step is over for you: your sheet shows what comes next.")
    return planning(state, seat, plan.read(form.get(plan.FIELD)), now)


def _computer_move(state: State, seat: int, rng: random.Random) -> Command:
    return robot.move(state, seat, roll(rng))


GAME: GameDefinition[State, Command] = GameDefinition(
    slug=SLUG,
    title="Observatory",
    summary=(
        "Four dice a turn, rolled for everyone: plot stars on your own Star Map, research "
        "better instruments, and trace the constellations on your goal cards."
    ),
    seats=Seats(min(PLAYER_COUNTS), max(PLAYER_COUNTS), mode=lambda n: "Solo" if n == 1 else ""),
    options=HostOptions(
        default=options.default,
        clean=options.clean,
        text=options.text,
        template="observatory/options.html",
    ),
    initial=State,
    decide=decide,
    evolve=evolve,
    view_for=view_for,
    event_types=EVENT_TYPES,
    event_schemas=EventSchemas(),
    deal=_deal,
    expire=_expire,
    expiry_type=Expire,
    actions={
        "choose": Action(_choose),
        "submit": Action(_submit, quiet=frozenset({Problem.INVALID})),
        "pick": Action(_pick),
    },
    previews={"plan": Preview(_plan)},
    screens=Screens.of("observatory/board.html", presenters, jump_label="Jump to a turn"),
    computer=Computer(robot.waiting, _computer_move),
    styles=("observatory/board.css",),
)

__all__ = ["GAME", "Keep", "Planning", "deal_command", "keep_of", "planning", "roll", "take_of"]
