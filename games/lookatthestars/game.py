"""Look at the Stars, as the platform reads it: the one definition this game registers.

Everything random is drawn here, by the server, and stored in the deal (R8): which board
design each seat gets, the 18 cards of the night in order, and a random point or power card.
A seat's drawing is built in its browser as a draft (U1) that every tap sends to the
``draft`` preview, which records nothing; Confirm submits the whole drawing (R6).
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
    Preview,
    Screens,
    Seats,
    Table,
)
from games.inputs import BadInput, integer
from games.kit import Problem
from games.registry import register

from . import drafting, how_to_play, options, presenters
from .rules import cards, designs, robot, sky
from .rules.board import Power, ShootingStar
from .rules.commands import Command, Deal, Expire, Submit
from .rules.decide import decide
from .rules.events import EVENT_TYPES
from .rules.evolve import evolve
from .rules.model import LEAST, MOST, PASS, ROUNDS, Drawing, State
from .rules.view import view_for

SLUG = "lookatthestars"


# -- what the server draws ------------------------------------------------------------------


def deal_command(
    *,
    players: int,
    step_seconds: int | None,
    chosen: Mapping[str, str],
    rng: random.Random | None = None,
) -> Deal:
    """R8: every seat a different design (S2), the night's 18 cards from the shuffled 30
    (R1), and the point and power cards (a random choice drawn now, S3)."""
    rng = rng or random.SystemRandom()
    deck = list(cards.NIGHT_DECK)
    rng.shuffle(deck)
    point = cards.point_card_for(chosen[options.POINT], rng.choice)
    power: Power = cards.power_card_for(chosen[options.POWER], rng.choice)
    return Deal(
        players=players,
        designs=tuple(rng.sample(designs.DESIGNS, players)),
        night=tuple(deck[:ROUNDS]),
        point_card=point,
        power=power,
        step_seconds=step_seconds,
    )


def _deal(table: Table) -> Command:
    return deal_command(
        players=table.players,
        step_seconds=table.step_seconds,
        chosen=table.options,
        rng=table.rng,
    )


def _expire(step: int, rng: random.Random) -> Command:
    return Expire(step=step)


# -- what a seated player sends ---------------------------------------------------------------


def _round(form: Form) -> int:
    return integer(form.get("round"), "round", 1, ROUNDS)


def drawing_of(draft: drafting.Draft) -> Drawing:
    """The whole submission a draft holds (R6). Whether it is complete and legal is the
    rules' to say: the server checks every part again (W17)."""
    return Drawing(
        lines=frozenset(draft.lines),
        shooting_star=_shooting_star(draft),
        resolutions=draft.resolutions,
    )


def _shooting_star(draft: drafting.Draft) -> ShootingStar | None:
    stars = draft.shooting
    if len(stars) < 2:
        return None
    try:
        lines = tuple(sky.line(a, b) for a, b in zip(stars, stars[1:], strict=False))
    except ValueError as error:
        raise BadInput("A shooting star's stars must be neighbours, one after another.") from error
    return ShootingStar(lines=lines, head=stars[0])


def _submit(form: Form, seat: int) -> Command:
    draft = drafting.read(form)
    if not (draft.lines or draft.shooting or draft.resolutions):
        # U8: an empty draft is not a pass; Pass is its own button, which asks first.
        raise BadInput("Nothing is drawn yet: draw the card, then Confirm, or Pass.")
    if draft.using is not None:
        raise BadInput("Finish using the power first: tap its target, or Undo.")
    return Submit(seat=seat, round=_round(form), drawing=drawing_of(draft))


def _pass(form: Form, seat: int) -> Command:
    return Submit(seat=seat, round=_round(form), drawing=PASS)


# -- the draft: every tap's answer (U1-U8), recorded nowhere ------------------------------------


class RoundOver(BadInput):
    """A tap for a round that closed (or was submitted) meanwhile: the push brings the next."""

    status = 409


def _draft(state: State, seat: int, form: Form, now: datetime) -> presenters.Drafting:
    number = _round(form)
    view = view_for(state, seat)
    if view.ended or number != view.round or not view.can_submit:
        raise RoundOver("This round is over for you: your board shows what comes next.")
    table = presenters.draft_table(state, seat)
    draft = drafting.read(form)
    action, _, copy = (form.get("do") or "").partition(":")
    at = form.get("at") or ""
    if not action:
        action = "tap" if at else ""
    if action not in drafting.ACTIONS:
        raise BadInput("That is not a step of a drawing.")
    stepped = drafting.step(draft, action, table, at=at, copy=copy)
    return presenters.drafting_area(
        "", number, table, stepped.draft, said=stepped.said, refused=stepped.refused
    )


def _computer_move(state: State, seat: int, rng: random.Random) -> Command:
    return robot.move(state, seat)  # greedy and deterministic: it draws nothing at random


GAME: GameDefinition[State, Command] = register(
    GameDefinition(
        slug=SLUG,
        title="Look at the Stars",
        summary=(
            "Each round a shape is revealed and everyone draws it on their own star board at "
            "once: build constellations of every size before the sun comes up."
        ),
        seats=Seats(LEAST, MOST, mode=lambda players: "Solo" if players == 1 else ""),
        options=HostOptions.of(options, "lookatthestars/options.html"),
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
            "submit": Action(_submit, quiet=frozenset({Problem.INVALID})),
            "pass": Action(_pass),
        },
        previews={presenters.DRAFT: Preview(_draft)},
        screens=Screens.of(
            "lookatthestars/board.html",
            presenters,
            jump_label="Jump to a round",
            areas=presenters.areas,
        ),
        how_to_play=HowToPlay("lookatthestars/rules.html", how_to_play.context),
        computer=Computer(robot.waiting, _computer_move),
        styles=("lookatthestars/board.css", "lookatthestars/page.css"),
        scripts=("lookatthestars/play.js",),
    )
)
