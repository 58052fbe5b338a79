"""Look at the Stars' rules page (/rules/lookatthestars/): what its template reads.

Every card is drawn by the game's own pictures (``pictures.card_picture``, the board's
``card.html``) and every card's name, shape and effect comes from ``rules.cards``, so they
cannot drift from the game's. The two boards are real pictures too: an empty board of
the first design (what a seat is dealt, with its key), and worked example X1 of RULES.md,
scored by ``rules.scoring`` as the end screen scores it.
"""

from __future__ import annotations

from dataclasses import replace

from . import options, pictures, presenters
from .rules import cards, designs, sky
from .rules.board import BASIC, EXPERIENCED, Design, ShootingStar, StarBoard
from .rules.model import PILE, ROUNDS
from .rules.scoring import score

EXAMPLE_SHAPE = "S05"  # one-handed, so its turns and its (refused) mirror image differ
EXAMPLE_SHOOTING = "SS1"
# RULES.md X1: a planet at e6, groups of 3, 3, 4, 2 and 9 lines, a shooting star of 2.
X1_PLANET = "e6"
X1_LINES = (
    "b2-c3 b3-c2 c3-c4 d5-d6 d6-d7 d7-d8 f5-g5 g5-h5 h5-h6 h6-h7 i2-j2 j2-j3 "
    "b9-c9 c9-d9 d9-e9 e9-f9 f9-g9 g9-h9 h9-i9 c9-c10 h9-h10"
)
X1_SHOOTING = ("a5-b6", "b6-c7")
X1_HEAD = "a5"


def context() -> dict[str, object]:
    """Everything ``lookatthestars/rules.html`` reads."""
    point = cards.POINT_CARDS[cards.BEGINNER_POINT]
    return {
        "rounds": ROUNDS,
        "pile": PILE,
        "example_shape": pictures.card_picture(EXAMPLE_SHAPE),
        "example_shooting": pictures.card_picture(EXAMPLE_SHOOTING),
        "board": _empty_board(),
        "points": [_as_printed(card_id) for card_id in cards.POINT_CARDS],
        "point_value": cards.POINT_VALUE,
        "beginner_point": f"{point.name} ({point.id})",
        "beginner_power": options.power_name(cards.BEGINNER_POWER),
        "basic": [_as_printed(p.value) for p in BASIC],
        "experienced": [_as_printed(p.value) for p in EXPERIENCED],
        "x1": _x1(),
    }


def _as_printed(card_id: str) -> pictures.CardPicture:
    """A bonus card as printed, without the "Turn" button: the page says once that every
    shape turns, and the example shape card shows how."""
    picture = pictures.card_picture(card_id)
    return replace(picture, turns=picture.turns[:1])


def _empty_board() -> pictures.BoardPicture:
    design = designs.DESIGNS[0]
    return pictures.board_picture(
        StarBoard(design),
        day=0,
        interactive=False,
        show_key=True,
        uid="rules-design",
        title=f"A board as it is dealt: {design.name}",
    )


def x1_board() -> StarBoard:
    """Worked example X1 as it stands at the end of the night (RULES.md, G6's test board
    with a planet at e6)."""
    design = Design(id="x1", name="Example X1", planets=frozenset({sky.point(X1_PLANET)}))
    shooting = ShootingStar(tuple(sky.parse_line(ln) for ln in X1_SHOOTING), sky.point(X1_HEAD))
    return StarBoard(design, drawn=sky.parse_shape(X1_LINES), shooting_stars=(shooting,))


def _x1() -> dict[str, object]:
    board = x1_board()
    sheet = score(board, cards.POINT_CARDS[cards.BEGINNER_POINT].lines)
    picture = pictures.board_picture(
        board,
        day=sky.day_rows(ROUNDS),
        interactive=False,
        show_key=True,
        uid="rules-x1",
        title="Example: a board at the end of the night",
    )
    return {"picture": picture, "sheet": presenters.sheet_lines(sheet)}
