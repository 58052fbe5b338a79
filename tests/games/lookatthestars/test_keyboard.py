"""U9, the keyboard, as far as the server draws it: the points are buttons in reading order
(row 11 first, columns a to j, the cut corners as gaps), so the arrow keys of
``static/lookatthestars/play.js`` move over a 10-wide grid; each point shows a focus ring;
Escape is the draft's ``cancel`` step (it unselects), R its ``turn``, Backspace its ``undo``
— each a button of the drawing area that the script presses. Real key presses in Chromium
are tests/e2e/test_lookatthestars.py's."""

from __future__ import annotations

import re
from pathlib import Path

from django.template.loader import render_to_string

from games.lookatthestars import drafting, presenters
from games.lookatthestars.rules import cards, sky
from games.lookatthestars.rules.board import TEST_DESIGN, Power, StarBoard
from games.lookatthestars.rules.model import Turn

STATIC = Path(__file__).resolve().parents[3] / "games" / "lookatthestars" / "static"


def table(card: str | None = "S05") -> drafting.Table:
    shape = cards.SHAPES[card].lines if card else None
    turn = Turn(shape, Power.LINE, cards.POWER_CARDS[Power.LINE].lines, 1)
    return drafting.Table(StarBoard(TEST_DESIGN), turn, cards.POINT_CARDS["B3"].lines)


def area(draft: drafting.Draft, t: drafting.Table) -> str:
    shown = presenters.drafting_area("", 1, t, draft)
    return render_to_string("lookatthestars/board.html#preview", {"preview": shown})


def test_u9_the_points_are_a_grid_in_reading_order_the_arrow_keys_walk():
    html = area(drafting.Draft(), table())
    cells = re.findall(r'<(button|span) [^>]*class="lats-(point|cut)[^"]*"[^>]*>', html)
    assert len(cells) == 110  # 11 rows of 10: what play.js counts on (COLUMNS = 10)
    points = re.findall(r'data-point="([a-j]\d+)"', html)
    expected = [
        sky.point_name((c, r))
        for r in range(sky.TOP, 0, -1)
        for c in range(len(sky.COLUMNS))
        if (c, r) in sky.OUTLINE
    ]
    assert points == expected  # row 11 first, a to j: down is +10, right is +1
    assert "const COLUMNS = 10;" in (STATIC / "lookatthestars" / "play.js").read_text()


def test_u9_a_focused_point_shows_a_ring():
    css = (STATIC / "lookatthestars" / "board.css").read_text()
    assert re.search(r"\.lats-point:focus-visible \{[^}]*outline: 3px solid", css)


def test_u9_escape_unselects_r_turns_the_ghost_backspace_undoes():
    t = table()
    selected = drafting.step(drafting.Draft(), "tap", t, at="e5")
    assert selected.draft.selected == sky.point("e5")
    escaped = drafting.step(selected.draft, "cancel", t)  # what Escape sends
    assert escaped.draft.selected is None and escaped.said == "e5 unselected"
    placing = drafting.step(drafting.Draft(), "place", t).draft
    ghost = drafting.step(placing, "tap", t, at="e5").draft
    turned = drafting.step(ghost, "turn", t)  # what R presses
    assert turned.draft.ghost_turn == (ghost.ghost_turn + 1) % 4
    html = area(turned.draft, t)
    assert re.search(r'<button[^>]*name="do" value="turn"[^>]*data-key="r"', html)
    first = drafting.step(drafting.Draft(), "tap", t, at="e5").draft
    line = drafting.step(first, "tap", t, at="e6")
    assert line.draft.lines
    undone = drafting.step(line.draft, "undo", t)  # what Backspace presses
    assert not undone.draft.lines
    assert re.search(r'name="do" value="undo"[^>]*data-key="Backspace"', area(line.draft, t))


def test_u9_escape_takes_back_a_shooting_stars_lone_head():
    t = table(None)
    head = drafting.step(drafting.Draft(), "tap", t, at="e5")
    assert head.draft.shooting == (sky.point("e5"),)
    escaped = drafting.step(head.draft, "cancel", t)
    assert escaped.draft.shooting == () and not escaped.refused
