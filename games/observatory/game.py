"""Observatory, as the platform reads it: the one definition of this game.

Everything random is drawn here, by the server, and stored in the event that needs it (D2,
G1, N3): both decks' orders and the first player in the deal, and the four dice of a turn
in every command that can start one (the deal of a first game, a choice, a submission, a
pick, the clock's expiry: the rules keep them only when a turn does start). A seat builds
its turn as a plan (``plan.py``) that the ``plan`` preview checks step by step without
recording anything (U9); Submit sends the whole plan (U1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime

from games.codec import EventSchemas
from games.definition import (
    Action,
    Computer,
    Form,
    GameDefinition,
    HostOptions,
    HowToPlay,
    PlayerPast,
    Preview,
    Screens,
    Seats,
    Table,
)
from games.inputs import BadInput, integer, one_of
from games.kit import Problem, Refusal
from games.registry import register

from . import how_to_play, options, plan, planner, presenters
from .rules import robot
from .rules.commands import Choose, Command, Deal, Expire, Pick, Submit
from .rules.decide import decide
from .rules.deck import LARGE, SMALL
from .rules.events import EVENT_TYPES
from .rules.evolve import evolve
from .rules.model import KEEP, Keep, Phase, Source, State, Take
from .rules.sheet import Dice
from .rules.sheet_data import DIE_VALUES, PLAYER_COUNTS
from .rules.steps import Step, describe, follow
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


DEALT = 6  # G2: a seat's dealt cards, the choice's checkboxes keep-1 .. keep-6


def keep_of(form: Form) -> tuple[str, ...]:
    """G3: the four cards kept: the ticked boxes ``keep-1`` .. ``keep-6``, each a card id
    (which four is the rules' to judge: any four of the seat's own six)."""
    cards = tuple(card for n in range(1, DEALT + 1) if (card := form.get(f"keep-{n}")))
    for card in cards:
        one_of(card, LARGE + SMALL, "There is no such constellation card.")
    if len(cards) != KEEP:
        ticked = f"{len(cards)} {'is' if len(cards) == 1 else 'are'} ticked"
        raise BadInput(f"Keep exactly {KEEP} of your {DEALT} cards: {ticked}.")
    return cards


def _choose(form: Form, seat: int) -> Command:
    return Choose(seat=seat, round=_round(form), keep=keep_of(form), dice=_dice())


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


def _plan(state: State, seat: int, form: Form, now: datetime) -> planner.PlanArea:
    """Every tap of the plan strip: the plan so far, with one step added (``add``), the
    last one undone (``undo``) or all cleared (``clear``), and the kind of step to show
    (``to``, else the one shown, ``mode``). A step that is not legal now is not added: the
    answer says why."""
    number = _round(form)
    if state.ended or state.phase not in (Phase.OPENING, Phase.TURN):
        raise StepOver("This step is over: your sheet shows what comes next.")
    if number != state.round_number or state.round is None or seat not in state.round.waiting:
        raise StepOver("This step is over for you: your sheet shows what comes next.")
    steps = plan.read(form.get(plan.FIELD))
    mode = form.get("to") or form.get("mode") or ""
    if mode:
        mode = one_of(mode, planner.BY_KEY, "That is not a kind of step.")
    said = ""
    if form.get("undo"):
        steps, said = steps[:-1], (f"Undone: {describe(steps[-1])}." if steps else "")
    elif form.get("clear"):
        steps, said = (), "Cleared: nothing is planned."
    elif form.get("add"):
        steps, said = _added(state, seat, steps, form.get("add"))
    return planner.plan_area(state, seat, steps, now, mode=mode, said=said)


def _added(
    state: State, seat: int, steps: tuple[Step, ...], word: str | None
) -> tuple[tuple[Step, ...], str]:
    added = plan.read(word)
    if len(added) != 1:
        raise BadInput("Add one step at a time.")
    roll = planner.roll_of(state, seat)
    wanted = (*steps, *added)
    sheet = state.sheet(seat)
    trial = follow(sheet, wanted, dice=roll.dice, active=roll.active, opening=roll.opening)
    if isinstance(trial, Refusal):
        return steps, trial.reason
    return wanted, f"Added: {describe(added[0])}."


def _computer_move(state: State, seat: int, rng: random.Random) -> Command:
    return robot.move(state, seat, roll(rng))


GAME: GameDefinition[State, Command] = register(
    GameDefinition(
        slug=SLUG,
        title="Observatory",
        summary=(
            "Four dice a turn, rolled for everyone: plot stars on your own Star Map, research "
            "better instruments, and trace the constellations on your goal cards."
        ),
        seats=Seats(
            min(PLAYER_COUNTS), max(PLAYER_COUNTS), mode=lambda n: "Solo" if n == 1 else ""
        ),
        options=HostOptions.of(options, "observatory/options.html"),
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
        screens=Screens.of(
            "observatory/board.html",
            presenters,
            jump_label="Jump to a turn",
            past=PlayerPast(presenters.best_solo_asked, presenters.present_with_best_solo),
            areas=presenters.areas,
        ),
        how_to_play=HowToPlay("observatory/rules.html", how_to_play.context),
        computer=Computer(robot.waiting, _computer_move),
        styles=("observatory/board.css", "observatory/plan.css"),
    )
)

__all__ = ["GAME", "Keep", "deal_command", "keep_of", "roll", "take_of"]
