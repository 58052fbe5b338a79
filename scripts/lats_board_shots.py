"""Screenshots of a Look at the Stars board (the Screens section of RULES.md), for a person to
look at: a sample star board with every kind of mark, drawn by the game's own templates and
CSS on a page shaped like the seat's phone screen, at 390 x 844 and 1366 x 768, plus greyscale
copies to check that nothing is told by colour alone and a ghost (U4) on the phone.

    .venv/bin/python scripts/lats_board_shots.py OUTDIR

Needs Debian's chromium (/usr/bin/chromium) and the dev dependencies (Playwright).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import django  # noqa: E402
from django.conf import settings  # noqa: E402

settings.configure(
    INSTALLED_APPS=["template_partials"],
    TEMPLATES=[
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [ROOT / "games" / "lookatthestars" / "templates"],
            "APP_DIRS": True,
        }
    ],
)
django.setup()

from django.template.loader import render_to_string  # noqa: E402

from games.lookatthestars.pictures import GhostLine, board_picture, card_picture  # noqa: E402
from games.lookatthestars.rules import sky  # noqa: E402
from games.lookatthestars.rules.board import (  # noqa: E402
    Design,
    Mark,
    Placed,
    ShootingStar,
    StarBoard,
)

P = sky.point


def points(text: str) -> frozenset[sky.Point]:
    return frozenset(P(name) for name in text.split())


def sample_design() -> Design:
    """The first designed board when ``rules/designs.py`` has them, else one built here (D2)."""
    try:
        from games.lookatthestars.rules import designs

        return designs.DESIGNS[0]
    except (ImportError, AttributeError, IndexError):
        return Design(
            id="sample",
            name="Lighthouse",
            landscape=points("d1 e1 f1 g1 e2 f2"),
            blanks=points("a6 b6 c6 a7 b7 c7 i8 i9 h9 h10 g10"),
            planets=points("c3 i6 e9"),
            printed_lines=sky.parse_shape("a2-b3 e10-f11"),
        )


def sample_board(design: Design) -> StarBoard:
    """Every kind of mark (laid out for the Lighthouse, D2): groups of 9 (not a
    constellation), 3 (crossing diagonals), 4 (with an aura), 5 (with a printed line and a
    nova), 2 and 1, a shooting star, each object, two new stars."""
    drawn = sky.parse_shape(
        "d3-d4 d4-e4 e4-f4 f4-g4 g4-h4 h4-i4 i4-i5 i5-j5 j5-j6 "  # 9: not a constellation
        "b4-c5 b5-c4 c5-d6 "  # 3: two crossing diagonals
        "f7-g7 g7-h7 g7-g8 g8-f9 "  # 4, with an aura at f7
        "c8-d8 d8-e8 d8-d9 d9-d10 "  # 4 + the printed d10-e11, with a nova at c8
        "h5-h6 h6-g6 "  # 2
        "i6-i7"  # 1, which the draft extends into an open Planet copy
    )
    drawn -= design.printed_lines
    return StarBoard(
        design=design,
        drawn=drawn,
        shooting_stars=(ShootingStar(tuple(sky.parse_shape("b9-c10 c10-d11")), P("d11")),),
        objects=(
            Placed(Mark.GALAXY, P("f3")),
            Placed(Mark.TWINKLING_STAR, P("e5")),
            Placed(Mark.NOVA, P("c8")),
            Placed(Mark.AURA, P("f7")),
            Placed(Mark.CRESCENT_MOON, P("g9")),
            Placed(Mark.BLACK_HOLE, P("a5")),
            Placed(Mark.PLANET, P("j3")),
        ),
        new_stars=points("b7 c7") & design.blanks,
    )


def other_board(design: Design) -> StarBoard:
    return StarBoard(design=design, drawn=sky.parse_shape("c4-d5 d5-e5 d5-d6 g7-h8 h8-h9"))


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Look at the Stars: board</title>
<link rel="stylesheet" href="{root}/static/site.css">
<link rel="stylesheet" href="{root}/games/lookatthestars/static/lookatthestars/board.css">
<style>
.shot {{ display: grid; gap: .6rem; }}
.topbar {{ position: sticky; top: 0; z-index: 2; background: var(--panel); padding: .4rem .6rem;
  border-radius: .5rem; display: flex; flex-wrap: wrap; gap: .2rem .8rem; font-size: .9rem; }}
.panel {{ background: var(--panel); border-radius: .6rem; padding: .5rem;
  display: grid; gap: .4rem; }}
.chips {{ display: flex; flex-wrap: wrap; gap: .4rem; }}
.chip {{ border: 1px solid var(--line); border-radius: 1rem; padding: .1rem .6rem;
  font-size: .85rem; }}
.actions {{ display: flex; gap: .4rem; flex-wrap: wrap; }}
.status-line {{ margin: 0; font-weight: 600; }}
.cardp {{ order: 1; }} .board-col {{ order: 2; }} .scores {{ order: 3; }}
.cardp .lats-card {{ float: left; margin-right: .5rem; }}
.thumb {{ max-width: 14rem; }}
@media (min-width: 1024px) {{
  .shot {{ grid-template-columns: 16rem minmax(0, 36rem) minmax(0, 1fr); align-items: start; }}
  .topbar {{ grid-column: 1 / -1; }}
  .scores {{ order: 0; }} .board-col {{ order: 1; }} .cardp {{ order: 2; }}
}}
{extra}
</style></head>
<body><main><div class="shot">
<div class="topbar"><strong>Round 8 / 18 · pile 2</strong><span>☀ rows 1–2 are day</span>
<span>0:42</span><span>3/5 done</span><span>Score 23</span></div>
<section class="panel scores" aria-label="Scores"><strong>Scores</strong>
<span>Ana 23 · Ben 19 · Cy 12</span>
<div class="thumb">{thumb}</div></section>
<section class="board-col">{board}{text}</section>
<section class="panel cardp" aria-label="The card">{card}
<div class="chips"><span class="chip">★ Point card: Cross (B3)</span>
<span class="chip">✷ Power: Planet</span></div>
<p class="status-line">2 of 2 lines · Power: Planet — tap an unused star, or Decline</p>
<div class="actions"><button>Undo</button><button>Clear</button><button>Pass</button>
<button class="start">Confirm</button></div></section>
</div></main></body></html>
"""


def page(*, ghost: bool = False, extra: str = "") -> str:
    design = sample_design()
    board = sample_board(design)
    if ghost:
        picture = board_picture(
            board,
            day=2,
            interactive=True,
            selected=P("b7"),
            ghost=(
                GhostLine(sky.parse_line("b7-b8")),
                GhostLine(sky.parse_line("b8-c9"), "c9 is a planet"),
            ),
        )
    else:
        copy = sky.parse_shape("i6-i7 i7-i8 i8-i9")
        picture = board_picture(
            board,
            day=2,
            interactive=True,
            draft=sky.parse_shape("i7-i8 i8-i9"),
            selected=P("i9"),
            open_copies=(copy,),
            chosen_copy=copy,
        )
    thumb = board_picture(other_board(design), day=2, interactive=False, title="Ben", uid="s2")
    return PAGE.format(
        root=ROOT.as_uri(),
        board=render_to_string("lookatthestars/star_board.html", {"picture": picture}),
        text=render_to_string("lookatthestars/board_text.html", {"picture": picture}),
        thumb=render_to_string("lookatthestars/star_board.html", {"picture": thumb}),
        card=render_to_string("lookatthestars/card.html", {"card": card_picture("S05")}),
        extra=extra,
    )


def main(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    grey = "html { filter: grayscale(1); }"
    shots = [
        ("board-390", page(), 390, 844, False),
        ("board-scrolled-390", page(), 390, 844, True),
        ("board-1366", page(), 1366, 768, False),
        ("board-greyscale-390", page(extra=grey), 390, 844, True),
        ("board-ghost-390", page(ghost=True), 390, 844, True),
        ("board-text-200-390", page(extra="html { font-size: 200%; }"), 390, 844, True),
    ]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name, html, width, height, scroll in shots:
            source = out / f"{name}.html"
            source.write_text(html, encoding="utf-8")
            tab = browser.new_page(
                viewport={"width": width, "height": height}, reduced_motion="reduce"
            )
            tab.goto(source.as_uri())
            if scroll:  # the phone's screen scrolled to its board, as a seat sees it mid-round
                tab.eval_on_selector(".lats-board.interactive", "e => e.scrollIntoView()")
                tab.evaluate("window.scrollBy(0, -64)")
            tab.screenshot(path=str(out / f"lookatthestars-{name}.png"))
            tab.close()
            source.unlink()
        browser.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
