"""Constellate, as the platform reads it: the one definition this game registers.

The rules are pure (``rules/``); what is drawn at random (the sky, the key, the first crew,
the comet's order) is drawn here, by the server, and stored in the events through the
commands. Everything else (the service loop, the room's pages and pushes, the clock, the
replay, moderation) is the platform's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime

from games import flags
from games.codec import EventSchemas, Payload
from games.definition import (
    Action,
    Form,
    GameDefinition,
    HostOptions,
    HowToPlay,
    Screens,
    Seats,
    Table,
)
from games.inputs import integer, one_of, plain
from games.kit import Problem
from games.registry import register

from . import clues, moderation, presenters, rules
from .deck import draw_sky, pictured_names

VERSION = 10**6  # a form's version field: any whole number up to this


def mode_label(players: int) -> str:
    return "Rivalry" if players >= 4 else "Before Dawn"  # S2, S3


def seat_label(players: int, seat: int) -> str:
    """The crew and role a seat has for this player count (S2/S3)."""
    place = rules.seat_of(max(players, 2), seat)
    if players < 4:
        return place.role
    return f"{place.crew.display} {place.role}"


# -- the host's options: an open table or a family table ------------------------------------

OPEN, FAMILY = "open", "family"
TABLES = {
    OPEN: (
        "An open table: rude words are allowed, but never slurs or the moderators' blocked words."
    ),
    FAMILY: "A family table: rude words are refused too.",
}


def default_options() -> dict[str, str]:
    return {"table": OPEN}


def clean_options(raw: Mapping[str, str]) -> dict[str, str]:
    """The host's choice of table, or ``BadInput`` (a ValueError) saying why."""
    table = one_of(
        str(raw.get("table", OPEN)),
        TABLES,
        "Choose an open table or a family table (which refuses rude words too).",
    )
    return {"table": table}


def options_text(options: Mapping[str, str]) -> str:
    """What the host chose, for everyone in the lobby."""
    return TABLES.get(options.get("table", OPEN), "")


# -- how the stored events evolved ----------------------------------------------------------


def _sky_dealt_v2(payload: Payload) -> tuple[str, Payload]:
    """SkyDealt version 1 had no ``family``: every game then was an open table."""
    return "SkyDealt", {**payload, "family": False}


EVENT_SCHEMAS = EventSchemas(
    current={"SkyDealt": 2},
    upcasts={("SkyDealt", 1): _sky_dealt_v2},
)


# -- what the server draws ------------------------------------------------------------------


def deal_command(
    players: int,
    step_seconds: int | None,
    rng: random.Random | None = None,
    *,
    family: bool = False,
) -> rules.Deal:
    """Draw everything random about a new sky (K1-K3, S5); the deal event stores it, and
    whether the host chose a family table."""
    rng = rng or random.SystemRandom()
    mode = rules.mode_for(players)
    first = rules.Crew.GOLD if mode is rules.Mode.BEFORE_DAWN else rng.choice(list(rules.Crew))
    key = [k for k, n in rules.key_counts(mode, first).items() for _ in range(n)]
    rng.shuffle(key)
    return rules.Deal(
        players=players,
        sky=draw_sky(rng),
        key=tuple(key),
        first_crew=first,
        step_seconds=step_seconds,
        family=family,
    )


def _deal(table: Table) -> rules.Command:
    family = table.options.get("table") == FAMILY
    return deal_command(table.players, table.step_seconds, table.rng, family=family)


def comet_order(rng: random.Random | None = None) -> tuple[int, ...]:
    """V2: the order in which a comet, if touched, would pick the rival crew's stars."""
    order = list(range(rules.SKY_SIZE))
    (rng or random.SystemRandom()).shuffle(order)
    return tuple(order)


def word_check_for(state: rules.State) -> rules.WordCheck:
    """The clue rules (W1-W8) against this sky's pictures and their aliases; at a family
    table, general profanity is refused too."""
    pictured = pictured_names(state.sky)
    family = state.family
    return lambda word: clues.check_clue(word, pictured, family=family)


def decide(state: rules.State, command: rules.Command, now: datetime) -> rules.Decision:
    check = word_check_for(state) if state.dealt else rules.letters_only
    return rules.decide(state, command, now, check_word=check)


# -- what a seated player sends -------------------------------------------------------------


def _version(form: Form) -> int:
    return integer(form.get("version"), "version", 0, VERSION)


def _name(form: Form, seat: int) -> rules.Command:
    return rules.Name(
        seat=seat,
        word=plain(form.get("word"), "word", 40),  # W1 judges its letters
        number=integer(form.get("number"), "number", 1, 8),
        version=_version(form),
    )


def _touch(form: Form, seat: int) -> rules.Command:
    card = integer(form.get("card"), "card", 0, rules.SKY_SIZE - 1)
    return rules.TouchCard(seat=seat, card=card, version=_version(form), comet_order=comet_order())


def _stop(form: Form, seat: int) -> rules.Command:
    return rules.Stop(seat=seat, version=_version(form))


clues.set_blocklist(flags.blocked_words)  # W3: the moderators' words (games.flags)

GAME: GameDefinition[rules.State, rules.Command] = register(
    GameDefinition(
        slug="constellate",
        title="Constellate",
        summary=(
            "One word, one number, and a sky of pictures: two crews race to light "
            "their stars, or one crew races the dawn."
        ),
        seats=Seats(2, 8, label=seat_label, mode=mode_label),
        options=HostOptions(
            default=default_options,
            clean=clean_options,
            text=options_text,
            template="constellate/options.html",
        ),
        initial=rules.State,
        decide=decide,
        evolve=rules.evolve,
        view_for=rules.view_for,
        event_types=rules.EVENT_TYPES,
        # When an event changes, its upcaster goes here (games.codec.EventSchemas says
        # how; tests/games/test_golden.py replays a game stored before the change).
        event_schemas=EVENT_SCHEMAS,
        deal=_deal,
        expire=lambda step, rng: rules.Expire(step=step),
        expiry_type=rules.Expire,
        actions={
            # T3: a refused word answers with the notice alone; the word stays in the input.
            "name": Action(_name, quiet=frozenset({Problem.WORD})),
            "touch": Action(_touch),
            "stop": Action(_stop),
        },
        screens=Screens.of(
            "constellate/board.jinja",
            presenters,
            jump_label="Jump to a constellation",
            areas=presenters.areas,
        ),
        how_to_play=HowToPlay("constellate/rules.html", presenters.how_to_play),
        styles=("constellate/board.css",),
        scripts=("constellate/play.js",),
        moderation=moderation.MODERATION,
        warm_up=clues.warm_up,  # the word data, before the first Stargazer's word
    )
)
