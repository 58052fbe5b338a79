"""Under One Sky, as the platform reads it: the one definition this game registers.

Everything random is drawn here, by the server, and stored in the events through the
commands: the stack's order, the cards, who starts, and for an expired turn the space the
blind tile goes to and the move that is made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.codec import EventSchemas
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
from games.inputs import BadInput, integer, one_of
from games.registry import register

from . import presenters, rules

PICK_RANGE = 2**30
VERSION = 10**6  # a form's version field: any whole number up to this


# -- the host's options: the chart and where its north points --------------------------------


def default_options() -> dict[str, str]:
    return {"chart": rules.RECOMMENDED.value, "compass": rules.Compass.N.value}


def clean_options(raw: Mapping[str, str]) -> dict[str, str]:
    """The host's choice of chart and where its north points, or ``BadInput`` (a
    ValueError) saying why."""
    chart = one_of(
        str(raw.get("chart", rules.RECOMMENDED.value)),
        {colour.value for colour in rules.CHARTS},
        "Choose the blue, orange or yellow star chart.",
    )
    compass = one_of(
        str(raw.get("compass", rules.Compass.N.value)),
        {c.value for c in rules.Compass},
        "The chart's north points up, right, down or left (N, E, S or W).",
    )
    return {"chart": chart, "compass": compass}


def options_text(options: Mapping[str, str]) -> str:
    """What the host chose, for everyone in the lobby."""
    chart = rules.CHARTS.get(rules.Tile(options["chart"])) if "chart" in options else None
    compass = rules.Compass(options.get("compass", "N"))
    if chart is None:
        return ""
    note = f" ({chart.note.rstrip('.').lower()})" if chart.note else ""
    return f"{chart.title}{note}; its north points {presenters.POINTS[compass]}."


# -- what the server draws ------------------------------------------------------------------


def deal_command(
    *,
    chart: rules.Tile,
    compass: rules.Compass,
    step_seconds: int | None,
    rng: random.Random | None = None,
) -> rules.Deal:
    """Shuffle the 27 tiles, deal one card of the chart's set to each player (the third
    stays face down), and pick who starts."""
    rng = rng or random.SystemRandom()
    cards = list(rules.CHARTS[chart].cards)
    rng.shuffle(cards)
    stack = [colour for colour in rules.COLOURS for _ in range(rules.TILES_PER_COLOUR)]
    rng.shuffle(stack)
    return rules.Deal(
        chart=chart,
        compass=compass,
        cards=(cards[0], cards[1]),
        face_down=cards[2],
        stack=tuple(stack),
        first_seat=rng.choice((1, 2)),
        step_seconds=step_seconds,
    )


def _deal(table: Table) -> rules.Command:
    return deal_command(
        chart=rules.Tile(table.options["chart"]),
        compass=rules.Compass(table.options["compass"]),
        step_seconds=table.step_seconds,
        rng=table.rng,
    )


def picks(rng: random.Random | None = None) -> tuple[int, int]:
    """The clock's dice: one number picks the empty space, one the legal move."""
    rng = rng or random.SystemRandom()
    return rng.randrange(PICK_RANGE), rng.randrange(PICK_RANGE)


def _expire(step: int, rng: random.Random) -> rules.Command:
    return rules.Expire(step=step, picks=picks(rng))


# -- what a seated player sends -------------------------------------------------------------


def _tile_choice(form: Form) -> int | None:
    """Which tile: one beside the board (0-2) or the blind top of the stack."""
    raw = form.get("tile") or ""
    if raw == "blind":
        return None
    if raw == "":
        raise BadInput("Pick a tile beside the board, or the blind tile, first.")
    return integer(raw, "tile", 0, rules.FACE_UP - 1)


def _origin(form: Form) -> int | None:
    raw = form.get("origin") or ""
    return None if raw == "" else integer(raw, "origin", 0, rules.SPACES - 1)


def _place(form: Form, seat: int) -> rules.Command:
    return rules.Place(
        seat=seat,
        space=integer(form.get("space"), "space", 0, rules.SPACES - 1),
        version=integer(form.get("version"), "version", 0, VERSION),
        face_up=_tile_choice(form),
    )


def _move(form: Form, seat: int) -> rules.Command:
    return rules.Move(
        seat=seat,
        target=integer(form.get("target"), "target", 0, rules.SPACES - 1),
        version=integer(form.get("version"), "version", 0, VERSION),
        origin=_origin(form),
    )


# -- how to play ------------------------------------------------------------------------------


def how_to_play() -> dict[str, object]:
    """The nine constellations, the tiles' actions and what the clock does."""
    charts = [
        {
            "colour": chart.colour.value,
            "title": chart.title,
            "note": chart.note,
            "cards": [
                {"name": card.name, "difficulty": rules.difficulty(card), "rows": _rows(card.cells)}
                for card in chart.cards
            ],
        }
        for chart in rules.CHARTS.values()
    ]
    tiles = [
        {
            "colour": t.value,
            "glyph": presenters.GLYPHS[t],
            "shape": presenters.SHAPES[t],
            "action": presenters.ACTIONS[t],
        }
        for t in rules.COLOURS
    ]
    return {"charts": charts, "tiles": tiles, "points": presenters.POINTS.values()}


def _rows(cells: tuple[tuple[int, int], ...]) -> list[list[bool]]:
    stars = set(cells)
    rows = max(r for r, _ in stars) + 1
    columns = max(c for _, c in stars) + 1
    return [[(r, c) in stars for c in range(columns)] for r in range(rows)]


GAME: GameDefinition[rules.State, rules.Command] = register(
    GameDefinition(
        slug="underonesky",
        title="Under One Sky",
        summary=(
            "Place and slide coloured star tiles on a 5×5 board until your secret "
            "constellation shines, turned to the star chart's compass."
        ),
        seats=Seats(rules.PLAYERS, rules.PLAYERS, label=lambda players, seat: "Player"),
        options=HostOptions(
            default=default_options,
            clean=clean_options,
            text=options_text,
            template="underonesky/options.html",
        ),
        initial=rules.State,
        decide=rules.decide,
        evolve=rules.evolve,
        view_for=rules.view_for,
        event_types=rules.EVENT_TYPES,
        # Every event is still at its first version: when one changes, its upcaster goes
        # here (games.codec.EventSchemas says how; tests/games/test_golden.py checks).
        event_schemas=EventSchemas(),
        deal=_deal,
        expire=_expire,
        expiry_type=rules.Expire,
        actions={"place": Action(_place), "move": Action(_move)},
        screens=Screens.of("underonesky/board.html", presenters),
        how_to_play=HowToPlay("underonesky/rules.html", how_to_play),
        styles=("underonesky/board.css",),
        scripts=("underonesky/play.js",),
    )
)
