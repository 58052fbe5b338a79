"""The board and card pictures (Screens, C3, R4, U4): what a player reads on a star board
and a card, and that a board's picture holds nothing but that board."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from games.lookatthestars import pictures
from games.lookatthestars.pictures import GhostLine, board_picture, card_picture, point_label
from games.lookatthestars.rules import cards, sky
from games.lookatthestars.rules.board import (
    TEST_DESIGN,
    Design,
    Mark,
    Placed,
    Power,
    ShootingStar,
    StarBoard,
)

P = sky.point
PACKAGE = Path(pictures.__file__).resolve().parent
DESIGN = Design(
    id="sample",
    name="Sample",
    landscape=frozenset(map(P, ["d1", "e1", "f1", "g1", "e2", "f2"])),
    blanks=frozenset(map(P, ["a6", "b6", "c6", "a7", "b7", "c7", "i8", "i9", "h9", "h10", "g10"])),
    planets=frozenset(map(P, ["c3", "e6", "h3"])),
    printed_lines=sky.parse_shape("a2-b3 d10-e11"),
)
NINE = "b9-c9 c9-d9 d9-e9 e9-f9 f9-g9 g9-h9 c9-c10 f9-f10 b9-b8"


@pytest.fixture
def templates(settings):
    """The game's templates, found before (or without) its app being installed."""
    engine = dict(settings.TEMPLATES[0])
    engine["DIRS"] = [*engine["DIRS"], PACKAGE / "templates"]
    settings.TEMPLATES = [engine, *settings.TEMPLATES[1:]]  # the Jinja2 one stays


def render_board(picture: pictures.BoardPicture) -> str:
    return render_to_string("lookatthestars/star_board.html", {"picture": picture})


def names_in(html: str) -> set[str]:
    return set(re.findall(r"\b[a-j](?:1[01]|[1-9])-[a-j](?:1[01]|[1-9])\b", html))


# -- accessible names ---------------------------------------------------------------------------


def test_screens_point_names_say_what_each_point_is():
    board = StarBoard(DESIGN, drawn=sky.parse_shape("f5-g5 g5-h5 h5-h6 h6-h7"))
    assert point_label(board, P("e5"), 2) == "e5, star, free"
    assert point_label(board, P("e6"), 2) == "e6, planet"
    assert point_label(board, P("a6"), 2) == "a6, blank"
    assert point_label(board, P("c2"), 2) == "c2, day row — cannot draw"
    assert point_label(board, P("d1"), 2) == "d1, landscape"
    assert point_label(board, P("g5"), 2) == "g5, star, line end, group of 4 lines"
    assert point_label(board, P("e5"), 2, selected=True) == "e5, star, free, selected"


def test_screens_objects_shooting_stars_and_new_stars_are_named_in_words():
    board = StarBoard(
        Design(id="t", name="t", blanks=frozenset({P("a6"), P("a7")})),
        drawn=sky.parse_shape("c3-c4 c4-c5 c5-d5"),
        shooting_stars=(ShootingStar(tuple(sky.parse_shape("g7-h8 h8-i9")), P("i9")),),
        objects=(
            Placed(Mark.GALAXY, P("e8")),
            Placed(Mark.NOVA, P("c4")),
            Placed(Mark.BLACK_HOLE, P("j3")),
            Placed(Mark.CRESCENT_MOON, P("d11")),
        ),
        new_stars=frozenset({P("a6")}),
    )
    assert point_label(board, P("e8"), 0) == "e8, galaxy, with f8"
    assert point_label(board, P("c4"), 0) == "c4, star, nova, line end, group of 3 lines"
    assert point_label(board, P("i9"), 0) == "i9, star, shooting star head"
    assert point_label(board, P("h8"), 0) == "h8, star, shooting star"
    assert point_label(board, P("j3"), 0) == "j3, black hole"
    assert point_label(board, P("i3"), 0) == "i3, star, beside a black hole — cannot draw"
    assert point_label(board, P("d11"), 0) == "d11, crescent moon"
    assert point_label(board, P("a6"), 0) == "a6, new star, free"
    assert point_label(board, P("a7"), 0) == "a7, blank"


def test_r4_day_rows_are_labelled_and_hatched():
    board = StarBoard(DESIGN, drawn=sky.parse_shape("a3-b4 b4-c4 c4-c5"))
    picture = board_picture(board, day=4, interactive=True)
    assert [r.text for r in picture.rows if r.day] == ["☀4", "☀3", "☀2", "☀1"]
    assert picture.day_band == (70, 40) and picture.hatch
    labels = {cell.name: cell.label for cell in picture.cells if cell.exists}
    assert labels["h4"] == "h4, day row — cannot draw"
    assert labels["a3"] == "a3, star, line end, group of 3 lines, day row — cannot draw"
    assert labels["c3"] == "c3, planet, day row — cannot draw"
    assert labels["h5"] == "h5, star, free"
    assert "☀ day row: nothing new" in [entry.words for entry in picture.key]
    assert "Day rows: rows 1–4, nothing new there." in picture.text
    none = board_picture(board, day=0, interactive=True)
    assert none.day_band is None and not any(r.day for r in none.rows)


# -- groups and constellations (C3) -----------------------------------------------------------


def test_c3_a_group_of_nine_without_a_nova_says_not_a_constellation(templates):
    board = StarBoard(TEST_DESIGN, drawn=sky.parse_shape(NINE + " c3-c4 c4-c5 c5-d5 e2-f2"))
    picture = board_picture(board, day=0, interactive=True)
    sizes = {(t.kind, t.text) for t in picture.tags}
    assert sizes == {("not", "9"), ("size", "3")}  # the pair shows no size
    assert picture.notes == ("9 lines from b8: not a constellation (more than 8 without a nova)",)
    html = render_board(picture)
    assert "not a constellation" in html
    assert ">9</text>" in html and ">3</text>" in html


def test_c3_a_nova_makes_nine_a_constellation_but_not_eleven():
    nine = StarBoard(
        TEST_DESIGN, drawn=sky.parse_shape(NINE), objects=(Placed(Mark.NOVA, P("c9")),)
    )
    with_nova = board_picture(nine, day=0, interactive=False)
    assert with_nova.notes == ()
    assert ("size", "9") in {(t.kind, t.text) for t in with_nova.tags}
    eleven = nine.changed(drawn=nine.drawn | sky.parse_shape("g9-g10 h9-i9"))
    picture = board_picture(eleven, day=0, interactive=False)
    assert picture.notes == ("11 lines from b8: not a constellation (more than 10)",)
    assert any("Group of 11 lines" in t and "not a constellation" in t for t in picture.text)


def test_screens_tags_never_sit_on_a_lines_middle():
    board = StarBoard(TEST_DESIGN, drawn=sky.parse_shape(NINE + " c3-c4 c4-c5 c5-d5"))
    copy = sky.parse_shape("h3-h4 h4-h5 h5-h6")
    picture = board_picture(
        board, day=0, interactive=True, draft=sky.parse_shape("h4-h5 h5-h6"), open_copies=(copy,)
    )
    middles = {(s.mx, s.my) for s in picture.strokes}
    assert {t.kind for t in picture.tags} == {"new", "power", "size", "not"}
    assert all((t.x, t.y) not in middles for t in picture.tags)


# -- interactive or read-only --------------------------------------------------------------------


def test_screens_every_point_of_the_dome_is_a_button_that_posts_its_name(templates):
    picture = board_picture(StarBoard(DESIGN), day=0, interactive=True, field="point")
    html = render_board(picture)
    buttons = re.findall(r"<button[^>]*>", html)
    assert len(buttons) == len(sky.OUTLINE) == 96
    values = set(re.findall(r'<button[^>]*value="([a-j]\d+)"', html))
    assert values == {sky.point_name(p) for p in sky.OUTLINE}
    assert all('name="point"' in b and "aria-label=" in b for b in buttons)
    assert 'aria-label="e5, star, free"' in html
    assert "disabled" not in html


def test_screens_a_read_only_board_has_no_buttons(templates):
    board = StarBoard(DESIGN, drawn=sky.parse_shape("f5-g5 g5-h5 h5-h6"))
    html = render_board(board_picture(board, day=2, interactive=False, title="Ben"))
    assert "<button" not in html
    assert 'role="img"' in html and "Ben." in html and "Group of 3 lines" in html


def test_u2_the_selected_point_is_pressed_and_said(templates):
    picture = board_picture(StarBoard(DESIGN), day=0, interactive=True, selected=P("e5"))
    html = render_board(picture)
    assert re.search(r'aria-label="e5, star, free, selected" aria-pressed="true"', html)
    assert html.count("aria-pressed") == 1


# -- what the picture holds: the board and nothing else (V3, V4) --------------------------------


def test_v4_a_rendered_board_names_no_line_and_no_card_it_was_not_given(templates):
    board = StarBoard(
        DESIGN,
        drawn=sky.parse_shape("f5-g5 g5-h5 b4-c5 b5-c4"),
        shooting_stars=(ShootingStar(tuple(sky.parse_shape("g7-h8")), P("g7")),),
        objects=(Placed(Mark.TWINKLING_STAR, P("j7")),),
    )
    picture = board_picture(board, day=2, interactive=True)
    html = render_board(picture) + render_to_string(
        "lookatthestars/board_text.html", {"picture": picture}
    )
    drawn = {sky.line_name(ln) for ln in board.lines | board.shooting_lines}
    assert names_in(html) == drawn
    assert not re.search(r"\b(S\d\d|SS\d|B\d+)\b", html)  # no card of the night, no bonus card
    bare = board_picture(StarBoard(DESIGN), day=2, interactive=True)
    empty = render_board(bare)
    text = render_to_string("lookatthestars/board_text.html", {"picture": bare})
    assert names_in(empty + text) == {sky.line_name(ln) for ln in DESIGN.printed_lines}
    assert 'class="s-drawn"' not in empty and 'class="s-shooting"' not in empty


def test_v3_the_draft_copies_and_ghost_show_only_when_given(templates):
    board = StarBoard(TEST_DESIGN, drawn=sky.parse_shape("e5-e6"))
    own = board_picture(
        board,
        day=0,
        interactive=True,
        draft=sky.parse_shape("e6-e7 e7-e8"),
        open_copies=(sky.parse_shape("e5-e6 e6-e7 e7-e8"),),
        ghost=(GhostLine(sky.parse_line("a3-b4")), GhostLine(sky.parse_line("b4-c4"), "why")),
    )
    kinds = {s.kind for s in own.strokes} | {s.kind for s in own.halos}
    assert kinds == {"drawn", "draft", "ghost-ok", "ghost-bad", "copy"}
    assert "New lines (not yet sent): e6-e7 e7-e8." in own.text
    assert "Ghost: a3-b4 fits; b4-c4 cannot be drawn: why." in own.text
    assert point_label(board, P("e7"), 0, draft_end=True) == "e7, star, new line end"
    public = board_picture(board, day=0, interactive=False)
    assert {s.kind for s in public.strokes} == {"drawn"} and not public.halos
    public_html = render_board(public) + render_to_string(
        "lookatthestars/board_text.html", {"picture": public}
    )
    assert names_in(public_html) == {"e5-e6"}


def test_screens_never_colour_alone_each_line_kind_has_its_own_pattern():
    css = (PACKAGE / "static" / "lookatthestars" / "board.css").read_text()

    def rule(selector: str) -> str:
        match = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
        assert match, selector
        return match.group(1)

    dashes = {
        kind: re.search(r"stroke-dasharray:\s*([^;]+);", rule(f".s-{kind}"))
        for kind in ("draft", "shooting", "ghost-ok", "ghost-bad")
    }
    patterns = {kind: m.group(1).strip() for kind, m in dashes.items() if m}
    assert len(set(patterns.values())) == 4  # four different stroke patterns
    assert "stroke-dasharray" not in rule(".s-drawn")  # solid
    assert ".s-printed-inner" in css  # double: a stroke with the night down its middle


# -- contrast (Screens: text 4.5:1, lines and glyphs 3:1 on the night) ----------------------------


def _luminance(colour: str) -> float:
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_screens_colours_keep_their_contrast_on_the_night():
    css = (PACKAGE / "static" / "lookatthestars" / "board.css").read_text()
    colours = dict(re.findall(r"--lats-([a-z-]+):\s*(#[0-9a-f]{6});", css))
    night = colours.pop("night")
    for name in ("label", "draft", "shooting", "ghost-bad", "copy", "ink"):  # also text
        assert contrast(colours[name], night) >= 4.5, name
    for name in (
        "star",
        "blank",
        "ghost-ok",
        "planet",
        "galaxy",
        "twinkle",
        "nova",
        "aura",
        "moon",
        "hole",
        "land-edge",
        "select",
        "hatch",
    ):
        assert contrast(colours[name], night) >= 3, name
    assert contrast(colours["label"], colours["day"]) >= 4.5


# -- cards ----------------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", [*cards.SHAPES, *cards.POINT_CARDS, *(p.value for p in Power)])
def test_d3_a_card_picture_draws_the_cards_lines(card_id):
    source = (
        cards.SHAPES[card_id].lines
        if card_id in cards.SHAPES
        else cards.POINT_CARDS[card_id].lines
        if card_id in cards.POINT_CARDS
        else cards.POWER_CARDS[Power(card_id)].lines
    )
    picture = card_picture(card_id)
    assert {s.name for s in picture.lines} == {sky.line_name(ln) for ln in source}
    for stroke, ln in zip(picture.lines, sorted(source), strict=True):
        assert (stroke.x1, stroke.y1) == pictures.card_xy(ln[0])
        assert (stroke.x2, stroke.y2) == pictures.card_xy(ln[1])
    assert all(0 < v < picture.size for s in picture.lines for v in (s.x1, s.y1, s.x2, s.y2))
    assert picture.description


def test_u4_turn_shows_the_card_turned_never_mirrored():
    picture = card_picture("S05")
    shapes = [frozenset(sky.parse_line(s.name) for s in turn.strokes) for turn in picture.turns]
    card = cards.SHAPES["S05"].lines
    assert [t.degrees for t in picture.turns] == [0, 90, 180, 270]
    assert all(sky.same_shape(shape, card) for shape in shapes)
    assert not any(sky.same_shape(shape, sky.mirrored(card)) for shape in shapes)
    assert picture.turns[1].label.startswith("Shape S05, turned 90° clockwise: lines ")
    assert len(card_picture("B3").turns) == 1  # the cross looks the same every way
    later = card_picture("S05", quarter=3)
    assert [t.quarter for t in later.turns] == [3, 0, 1, 2]


def test_screens_a_shooting_star_card_has_no_lines_to_copy(templates):
    picture = card_picture("SS1")
    assert picture.kind == "shooting-star" and picture.turns == () and not picture.can_turn
    html = render_to_string("lookatthestars/card.html", {"card": picture})
    assert "Shooting star" in html and "lats-turn" not in html.replace("lats-turns", "")


def test_u4_the_card_turn_control_stays_out_of_the_seats_form(templates):
    html = render_to_string("lookatthestars/card.html", {"card": card_picture("S07")})
    radios = re.findall(r"<input[^>]*>", html)
    assert len(radios) == 4 and all('form="lats-no-form"' in r for r in radios)
    assert html.count("Turn ↻") == 4
    assert "S07" in html and cards.SHAPES["S07"].text in html.replace("&#x27;", "'")
