"""Pictures of a star board and of a card, as plain values a template draws (Screens).

Nothing here needs Django: ``board_picture`` turns a ``StarBoard`` (and what only the seat's
own screen adds: a draft, a selected point, open power copies, a ghost) into SVG coordinates,
glyphs, tags and words; ``card_picture`` does the same for one card on its 4 x 4 dot grid. The
templates (``star_board.html``, ``card.html``, ``board_text.html``) only loop over the result,
so every word a player or a screen reader meets is written, and tested, here.

The picture holds nothing but what it is given: the board's own design and marks, and the
draft, copies and ghost the caller passes (V3, V4: no card of the night is ever read here).

Never colour alone (Screens): each kind of line has its own stroke pattern (drawn solid,
printed double, new dashed with a "new" tag, shooting stars dotted with a head, a ghost line
that fits dash-dotted, one that does not finely dotted with a cross), each object its own
glyph and its word in the key, day rows a hatch and a ☀ with "day row" in every point's name,
open power copies a halo and a "power" tag, and each group of 3 or more lines a size badge:
round for a constellation, square with the words "not a constellation" under the board when
it is not one (C3).

Decisions:

- A plain star in a day row is named "c2, day row — cannot draw" (as the Screens section
  writes it); anything more there keeps its words first ("c3, planet, day row — cannot draw").
- "free" means an unused star (W7) in a night row: an object could go there and a line may
  end there. A star that ends a line says so instead ("line end, group of 4 lines").
- A read-only board (another seat's, a spectator's) has no buttons at all: one picture with a
  summary as its name, and the "Board as text" disclosure under it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .rules import cards, sky
from .rules.board import Mark, Placed, Power, StarBoard
from .rules.sky import Line, Point, Shape

CELL = 10  # SVG units between two neighbouring points
WIDTH = len(sky.COLUMNS) * CELL
HEIGHT = sky.TOP * CELL
CARD_BOX = cards.BOX

MARK_WORDS = {
    Mark.PLANET: "planet",
    Mark.GALAXY: "galaxy",
    Mark.TWINKLING_STAR: "twinkling star",
    Mark.NOVA: "nova",
    Mark.AURA: "aura",
    Mark.CRESCENT_MOON: "crescent moon",
    Mark.BLACK_HOLE: "black hole",
}
# What the key says for each kind of mark on the board, in the order the key lists them.
KEY_WORDS = {
    "drawn": "line",
    "printed": "printed line (double)",
    "draft": "new line (dashed)",
    "shooting": "shooting star (dotted, ★ head)",
    "ghost-ok": "ghost line that fits",
    "ghost-bad": "ghost line that cannot be drawn (✕)",
    "copy": "open power copy",
    "star": "star",
    "new-star": "new star",
    "blank": "blank (no star)",
    "landscape": "landscape",
    "planet": "planet",
    "galaxy": "galaxy",
    "twinkling-star": "twinkling star",
    "nova": "nova",
    "aura": "aura",
    "crescent-moon": "crescent moon",
    "black-hole": "black hole",
    "day": "☀ day row: nothing new",
}
CANNOT = "cannot draw"


# -- the values the templates read ------------------------------------------------------------


@dataclass(frozen=True)
class GhostLine:
    """A line of the "Place shape" ghost (U4): ``why`` is empty when the line fits, else the
    reason it cannot be drawn ("touches a shooting star")."""

    line: Line
    why: str = ""

    @property
    def fits(self) -> bool:
        return not self.why


@dataclass(frozen=True)
class Stroke:
    """One line of the picture. ``kind``: drawn, printed, draft, shooting, ghost-ok,
    ghost-bad, copy (a halo under an open power copy's line), copy-chosen."""

    kind: str
    name: str  # "e5-f6"
    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def mx(self) -> float:
        return (self.x1 + self.x2) / 2

    @property
    def my(self) -> float:
        return (self.y1 + self.y2) / 2


@dataclass(frozen=True)
class Glyph:
    """A mark at a point: star, new-star, blank, planet, galaxy (at the middle of its two
    points), twinkling-star, nova, aura, crescent-moon, black-hole, head (of a shooting
    star), selected, ghost-bad (a cross on a line's middle)."""

    kind: str
    x: float
    y: float

    @property
    def left(self) -> float:
        return self.x - CELL / 2

    @property
    def top(self) -> float:
        return self.y - CELL / 2


@dataclass(frozen=True)
class Tag:
    """A word or number on the picture: ``kind`` new, power, size (a constellation's size, a
    round badge) or not (a group that is not a constellation, a square badge)."""

    kind: str
    text: str
    x: float  # centre
    y: float
    width: float
    height: float

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def top(self) -> float:
        return self.y - self.height / 2

    @property
    def text_y(self) -> float:  # the baseline that centres the text
        return self.y + self.height * 0.3


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Cell:
    """A grid cell: a point of the dome (G2) or, where ``exists`` is false, a cut corner."""

    name: str
    exists: bool
    label: str = ""  # the button's accessible name
    selected: bool = False
    usable: bool = False  # a new line could end here now (a hint only: the server decides)


@dataclass(frozen=True)
class RowLabel:
    number: int
    day: bool

    @property
    def text(self) -> str:
        return f"☀{self.number}" if self.day else str(self.number)


@dataclass(frozen=True)
class KeyEntry:
    kind: str
    words: str

    @property
    def glyph(self) -> Glyph:
        return Glyph(self.kind, 0, 0)


@dataclass(frozen=True)
class BoardPicture:
    uid: str  # makes the element ids of this picture unique on a page
    title: str  # "Lighthouse"
    interactive: bool
    field: str  # the name of the buttons' form field; a tap posts field=<point name>
    cells: tuple[Cell, ...]  # 110: row 11 first, columns a..j
    rows: tuple[RowLabel, ...]  # 11 first
    columns: tuple[str, ...]
    day: int
    day_band: tuple[float, float] | None  # top y and height of the hatched day rows
    hatch: tuple[Segment, ...]
    landscape: tuple[Glyph, ...]
    halos: tuple[Stroke, ...]  # open power copies, drawn under everything else
    strokes: tuple[Stroke, ...]
    glyphs: tuple[Glyph, ...]
    tags: tuple[Tag, ...]
    notes: tuple[str, ...]  # visible warnings under the board: groups that are not constellations
    ghost_words: tuple[str, ...]  # each ghost line, fits or why not (U4)
    key: tuple[KeyEntry, ...]
    text: tuple[str, ...]  # "Board as text"
    summary: str  # the read-only picture's accessible name

    width: int = WIDTH
    height: int = HEIGHT

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def label(self) -> str:
        return (
            f"{self.title}: 10 columns a to j from the left, 11 rows from the horizon up; "
            "each point is a button"
        )


@dataclass(frozen=True)
class CardTurn:
    quarter: int
    degrees: int
    strokes: tuple[Stroke, ...]
    label: str  # the picture's accessible name at this turn


@dataclass(frozen=True)
class CardPicture:
    id: str
    kind: str  # night (a shape card), shooting-star, point, power
    name: str
    description: str
    dots: tuple[Glyph, ...]  # the 4 x 4 grid
    turns: tuple[CardTurn, ...]  # the picture at ``quarter`` first, then each next quarter turn
    size: int = CARD_BOX * CELL

    @property
    def view_box(self) -> str:
        return f"0 0 {self.size} {self.size}"

    @property
    def lines(self) -> tuple[Stroke, ...]:
        return self.turns[0].strokes if self.turns else ()

    @property
    def can_turn(self) -> bool:
        return len(self.turns) > 1


# -- geometry ---------------------------------------------------------------------------------


def xy(p: Point) -> tuple[float, float]:
    """The SVG centre of a board point: ``a1`` bottom left, ``d11`` top."""
    return (p[0] * CELL + CELL / 2, (sky.TOP - p[1]) * CELL + CELL / 2)


def _stroke(kind: str, ln: Line, place: Callable[[Point], tuple[float, float]] = xy) -> Stroke:
    (x1, y1), (x2, y2) = place(ln[0]), place(ln[1])
    return Stroke(kind, sky.line_name(ln), x1, y1, x2, y2)


def _names(points: Iterable[Point]) -> str:
    return " ".join(sky.point_name(p) for p in sorted(points, key=lambda p: (p[1], p[0])))


def _lines_text(lines: Iterable[Line]) -> str:
    return " ".join(sky.line_name(ln) for ln in sorted(lines, key=lambda ln: sky.board_order([ln])))


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _range(day: int) -> str:
    return "row 1" if day == 1 else f"rows 1–{day}"


# -- the board --------------------------------------------------------------------------------


def board_picture(
    board: StarBoard,
    *,
    day: int,
    interactive: bool,
    draft: frozenset[Line] = frozenset(),
    selected: Point | None = None,
    open_copies: Sequence[Shape] = (),
    chosen_copy: Shape | None = None,
    ghost: Sequence[GhostLine] = (),
    title: str = "",
    uid: str = "own",
    field: str = "point",
    show_key: bool | None = None,
) -> BoardPicture:
    """Everything a template needs to draw ``board`` with ``day`` rows taken by the sun (R4,
    ``sky.day_rows(round)``). ``draft``, ``selected``, ``open_copies`` (each an open copy's
    three lines, ``chosen_copy`` the preselected one, U7) and ``ghost`` (U4) belong to the
    seat's own screen only (V3); a read-only picture (``interactive=False``) has no buttons.
    The key (each kind of mark with its word) is shown on an interactive board unless
    ``show_key`` says otherwise; a page of thumbnails shows it once, not under each."""
    draft = frozenset(draft) - board.lines
    show_key = interactive if show_key is None else show_key
    ghost_ends = sky.ends(g.line for g in ghost)
    draft_ends = sky.ends(draft)
    cells = tuple(
        _cell(board, (c, r), day, selected, draft_ends, ghost_ends)
        for r in range(sky.TOP, 0, -1)
        for c in range(len(sky.COLUMNS))
    )
    halos = tuple(
        _stroke("copy-chosen" if copy == chosen_copy else "copy", ln)
        for copy in open_copies
        for ln in sorted(copy)
    )
    strokes = _strokes(board, draft, ghost)
    glyphs = _glyphs(board, selected, ghost)
    placer = _Placer(board, draft, ghost, open_copies)
    tags = placer.place(board, draft, open_copies)
    notes = tuple(_group_note(board, g) for g in board.groups if _not_constellation(board, g))
    band = None if day <= 0 else ((sky.TOP - day) * CELL, day * CELL)
    title = title or board.design.name
    text = _board_text(board, day, draft, open_copies, chosen_copy, ghost)
    return BoardPicture(
        uid=uid,
        title=title,
        interactive=interactive,
        field=field,
        cells=cells,
        rows=tuple(RowLabel(r, sky.is_day((0, r), day)) for r in range(sky.TOP, 0, -1)),
        columns=tuple(sky.COLUMNS),
        day=day,
        day_band=band,
        hatch=_hatch(band) if band else (),
        landscape=tuple(Glyph("landscape", *xy(p)) for p in sorted(board.design.landscape)),
        halos=halos,
        strokes=strokes,
        glyphs=glyphs,
        tags=tags,
        notes=notes,
        ghost_words=tuple(f"Ghost: {_ghost_words(g)}" for g in ghost),
        key=_key(board, day, draft, open_copies, ghost) if show_key else (),
        text=text,
        summary=f"{title}. " + " ".join(text[1:]),
    )


def point_label(
    board: StarBoard,
    p: Point,
    day: int,
    *,
    selected: bool = False,
    draft_end: bool = False,
    ghost_end: bool = False,
) -> str:
    """A point button's accessible name: "e5, star, free", "e6, planet", "a6, blank",
    "c2, day row — cannot draw", "d1, landscape", "f7, star, line end, group of 4 lines"."""
    name = sky.point_name(p)
    if p not in sky.OUTLINE:
        raise ValueError(f"{name} is cut from the dome (G2)")
    words = _what(board, p)
    if board.is_star(p) and board.mark_at(p) not in _COVERS:
        words += _star_details(board, p, draft_end, ghost_end)
        if sky.is_day(p, day):
            if words == ["star"]:
                words = []
            words.append(f"day row — {CANNOT}")
        elif board.is_unused_star(p, day) and not draft_end:
            words.append("free")
        elif p in board.near_black_hole:
            words.append(f"beside a black hole — {CANNOT}")
    elif sky.is_day(p, day) and p not in board.design.landscape:
        words.append(f"day row — {CANNOT}")
    if selected:
        words.append("selected")
    return ", ".join([name, *words])


_COVERS = (
    Mark.PLANET,
    Mark.GALAXY,
    Mark.TWINKLING_STAR,
    Mark.CRESCENT_MOON,
    Mark.BLACK_HOLE,
)


def _what(board: StarBoard, p: Point) -> list[str]:
    if p in board.design.landscape:
        return ["landscape"]
    if board.is_blank(p):
        return ["blank"]
    if p in board.design.planets:
        return ["planet"]
    mark = board.mark_at(p)
    if mark in _COVERS and mark is not None:
        if mark is Mark.GALAXY:
            other = _galaxy_of(board, p)
            return ["galaxy", f"with {sky.point_name(other)}"] if other else ["galaxy"]
        return [MARK_WORDS[mark]]
    return ["new star" if p in board.new_stars else "star"]


def _galaxy_of(board: StarBoard, p: Point) -> Point | None:
    for placed in board.objects:
        if placed.mark is Mark.GALAXY and p in placed.points:
            return next(q for q in placed.points if q != p)
    return None


def _star_details(board: StarBoard, p: Point, draft_end: bool, ghost_end: bool) -> list[str]:
    words: list[str] = []
    mark = board.mark_at(p)
    if mark in (Mark.NOVA, Mark.AURA) and mark is not None:
        words.append(MARK_WORDS[mark])
    for star in board.shooting_stars:
        if p in star.stars:
            words.append("shooting star head" if p == star.head else "shooting star")
    group = board.group_of(p)
    if group is not None:
        words.append(f"line end, group of {_count(len(group), 'line')}")
        if board.has_aura(group):
            words.append(f"its group has an aura — {CANNOT}")
    if draft_end:
        words.append("new line end")
    if ghost_end:
        words.append("ghost")
    return words


def _usable(board: StarBoard, p: Point, day: int) -> bool:
    """A hint for the screen (L2): a new line may end here, as far as this point alone goes."""
    if not board.is_star(p) or sky.is_day(p, day) or p in board.covered:
        return False
    if p in board.near_black_hole or p in board.shooting_star_points:
        return False
    group = board.group_of(p)
    return group is None or not board.has_aura(group)


def _cell(
    board: StarBoard,
    p: Point,
    day: int,
    selected: Point | None,
    draft_ends: frozenset[Point],
    ghost_ends: frozenset[Point],
) -> Cell:
    name = sky.point_name(p)
    if p not in sky.OUTLINE:
        return Cell(name, exists=False)
    label = point_label(
        board,
        p,
        day,
        selected=p == selected,
        draft_end=p in draft_ends,
        ghost_end=p in ghost_ends,
    )
    return Cell(name, True, label, selected=p == selected, usable=_usable(board, p, day))


def _strokes(
    board: StarBoard, draft: frozenset[Line], ghost: Sequence[GhostLine]
) -> tuple[Stroke, ...]:
    printed = board.design.printed_lines
    out = [_stroke("printed", ln) for ln in sorted(printed)]
    out += [_stroke("drawn", ln) for ln in sorted(board.drawn - printed)]
    out += [_stroke("shooting", ln) for star in board.shooting_stars for ln in star.lines]
    out += [_stroke("draft", ln) for ln in sorted(draft)]
    out += [_stroke("ghost-ok" if g.fits else "ghost-bad", g.line) for g in ghost]
    return tuple(out)


def _glyphs(
    board: StarBoard, selected: Point | None, ghost: Sequence[GhostLine]
) -> tuple[Glyph, ...]:
    out: list[Glyph] = []
    for p in sorted(sky.OUTLINE, key=lambda q: (-q[1], q[0])):
        kind = _point_glyph(board, p)
        if kind:
            out.append(Glyph(kind, *xy(p)))
    for placed in board.objects:
        out.extend(_object_glyphs(placed))
    for star in board.shooting_stars:
        out.append(Glyph("head", *xy(star.head)))
    for g in ghost:
        if not g.fits:
            (x1, y1), (x2, y2) = xy(g.line[0]), xy(g.line[1])
            out.append(Glyph("ghost-bad", (x1 + x2) / 2, (y1 + y2) / 2))
    if selected is not None and selected in sky.OUTLINE:
        out.append(Glyph("selected", *xy(selected)))
    return tuple(out)


def _point_glyph(board: StarBoard, p: Point) -> str:
    """What is printed at the point itself, under any object (objects come after)."""
    if p in board.design.landscape:
        return ""
    if board.is_blank(p):
        return "blank"
    if p in board.design.planets:
        return "planet"
    if board.mark_at(p) in _COVERS:
        return ""
    return "new-star" if p in board.new_stars else "star"


def _object_glyphs(placed: Placed) -> list[Glyph]:
    if placed.mark is Mark.GALAXY:
        (x1, y1), (x2, y2) = xy(placed.points[0]), xy(placed.points[1])
        return [Glyph("galaxy", (x1 + x2) / 2, (y1 + y2) / 2)]
    return [Glyph(placed.mark.value, *xy(placed.point))]


def _hatch(band: tuple[float, float]) -> tuple[Segment, ...]:
    """Diagonal hatch lines (rising to the right) filling the day rows' band."""
    top, height = band
    bottom = top + height
    step = 4.0
    out: list[Segment] = []
    s = top + step / 2
    while s < WIDTH + bottom:
        xa, xb = max(0.0, s - bottom), min(float(WIDTH), s - top)
        if xb > xa:
            out.append(Segment(xa, s - xa, xb, s - xb))
        s += step
    return tuple(out)


# -- tags: where a word goes without hiding a line's middle or another tag ---------------------


TAG_HEIGHT = 5.0
BADGE = 6.4


def _tag_width(text: str) -> float:
    return round(2.0 + 2.2 * len(text), 2)


class _Placer:
    """Finds free spots for tags: the middles of unit squares and of the grid's edges that no
    line (of any kind) runs through, closest to what the tag is about."""

    def __init__(
        self,
        board: StarBoard,
        draft: frozenset[Line],
        ghost: Sequence[GhostLine],
        copies: Sequence[Shape],
    ) -> None:
        every = set(board.lines | board.shooting_lines | draft)
        every |= {g.line for g in ghost}
        every |= {ln for copy in copies for ln in copy}
        self.taken: set[tuple[float, float]] = {_mid(ln) for ln in every}
        for placed in board.objects:
            if placed.mark is Mark.GALAXY:
                self.taken.add(_mid((placed.points[0], placed.points[1])))
        self.boxes: list[tuple[float, float, float, float]] = []

    def place(
        self, board: StarBoard, draft: frozenset[Line], copies: Sequence[Shape]
    ) -> tuple[Tag, ...]:
        tags = [self._near("new", "new", piece) for piece in sky.groups(draft)]
        for group in board.groups:
            if len(group) >= 3:
                ok = board.is_constellation(group)
                tags.append(self._near("size" if ok else "not", str(len(group)), group))
        tags += [self._near("power", "power", copy) for copy in copies]
        return tuple(tags)

    def _near(self, kind: str, text: str, lines: Iterable[Line]) -> Tag:
        group = frozenset(lines)
        stars = sky.ends(group)
        cx = sum(xy(p)[0] for p in stars) / len(stars)
        cy = sum(xy(p)[1] for p in stars) / len(stars)
        badge = kind in ("size", "not")
        width = BADGE if badge else _tag_width(text)
        height = BADGE if badge else TAG_HEIGHT
        best: Tag | None = None
        best_key: tuple[float, float, float] | None = None
        for spot in _spots_near(stars):
            if spot in self.taken:
                continue
            tag = Tag(kind, text, spot[0], spot[1], width, height)
            if not _inside(tag):
                continue
            overlap = sum(_overlap(_box(tag), other) for other in self.boxes)
            key = (overlap, math.hypot(spot[0] - cx, spot[1] - cy), spot[1])
            if best_key is None or key < best_key:
                best, best_key = tag, key
        if best is None:  # nowhere free: on the group's lowest star's right
            x, y = xy(sky.lowest(stars))
            best = Tag(kind, text, x + CELL / 2, y, width, height)
        self.taken.add((best.x, best.y))
        self.boxes.append(_box(best))
        return best


def _mid(ln: Line) -> tuple[float, float]:
    (x1, y1), (x2, y2) = xy(ln[0]), xy(ln[1])
    return ((x1 + x2) / 2, (y1 + y2) / 2)


def _spots_near(stars: frozenset[Point]) -> list[tuple[float, float]]:
    """Middles of unit squares and of edges that have one of ``stars`` as a corner or end."""
    spots: set[tuple[float, float]] = set()
    for p in stars:
        x, y = xy(p)
        h = CELL / 2
        spots |= {(x + dx, y + dy) for dx in (-h, 0, h) for dy in (-h, 0, h) if (dx, dy) != (0, 0)}
    return sorted(spots)


def _box(tag: Tag) -> tuple[float, float, float, float]:
    return (tag.left, tag.top, tag.left + tag.width, tag.top + tag.height)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _inside(tag: Tag) -> bool:
    return (
        tag.left >= 0
        and tag.top >= 0
        and tag.left + tag.width <= WIDTH
        and (tag.top + tag.height <= HEIGHT)
    )


# -- words ------------------------------------------------------------------------------------


def _not_constellation(board: StarBoard, group: frozenset[Line]) -> bool:
    return len(group) >= 3 and not board.is_constellation(group)


def _from(group: frozenset[Line]) -> str:
    return sky.point_name(sky.lowest(sky.ends(group)))


def _group_note(board: StarBoard, group: frozenset[Line]) -> str:
    """C3 in words: "9 lines from b9: not a constellation (more than 8 without a nova)"."""
    why = "more than 10" if board.has_nova(group) else "more than 8 without a nova"
    return f"{len(group)} lines from {_from(group)}: not a constellation ({why})"


def _group_text(board: StarBoard, group: frozenset[Line]) -> str:
    size = _count(len(group), "line")
    if board.is_constellation(group):
        what = "constellation with a nova" if board.has_nova(group) else "constellation"
    elif len(group) < 3:
        what = "not a constellation"
    else:
        what = "not a constellation, " + (
            "more than 10" if board.has_nova(group) else "more than 8 without a nova"
        )
    extra = ", with an aura: no line may touch it" if board.has_aura(group) else ""
    printed = group & board.design.printed_lines
    tail = f" (printed: {_lines_text(printed)})" if printed else ""
    return f"Group of {size} from {_from(group)} ({what}{extra}): {_lines_text(group)}{tail}."


def _ghost_words(g: GhostLine) -> str:
    name = sky.line_name(g.line)
    return f"{name} fits" if g.fits else f"{name} cannot be drawn: {g.why}"


def _board_text(
    board: StarBoard,
    day: int,
    draft: frozenset[Line],
    copies: Sequence[Shape],
    chosen: Shape | None,
    ghost: Sequence[GhostLine],
) -> tuple[str, ...]:
    """The "Board as text" summary: what the picture shows, in sentences."""
    design = board.design
    out = [f"Board: {design.name}."]
    out.append(f"Day rows: {_range(day)}, nothing new there." if day else "No day rows yet.")
    if not board.groups:
        out.append("No lines yet.")
    out += [_group_text(board, g) for g in board.groups]
    for star in board.shooting_stars:
        out.append(
            f"Shooting star of {_count(len(star.lines), 'line')}: {_lines_text(star.lines)}, "
            f"head {sky.point_name(star.head)}."
        )
    if board.planets:
        printed, drawn = design.planets, board.planets - design.planets
        words = [f"{_names(printed)} (printed)"] if printed else []
        words += [f"{_names(drawn)} (drawn)"] if drawn else []
        out.append(f"Planets: {'; '.join(words)}.")
    for placed in sorted(board.objects, key=lambda o: (o.point[1], o.point[0])):
        if placed.mark is not Mark.PLANET:
            where = "–".join(sky.point_name(p) for p in placed.points)
            out.append(f"{MARK_WORDS[placed.mark].capitalize()} on {where}.")
    if board.new_stars:
        out.append(f"New stars: {_names(board.new_stars)}.")
    if board.claimed:
        out.append(f"Lines claimed by a power: {_lines_text(board.claimed)}.")
    if board.powers_used:
        used = ", ".join(sorted(_power_word(p) for p in board.powers_used))
        out.append(f"Powers used: {used}.")
    if draft:
        out.append(f"New lines (not yet sent): {_lines_text(draft)}.")
    for copy in copies:
        mark = " (chosen)" if copy == chosen else ""
        out.append(f"Open power copy{mark}: {_lines_text(copy)}.")
    if ghost:
        out.append("Ghost: " + "; ".join(_ghost_words(g) for g in ghost) + ".")
    blanks = design.blanks - board.new_stars
    if blanks:
        out.append(f"Blank points: {_names(blanks)}.")
    if design.landscape:
        out.append(f"Landscape: {_names(design.landscape)}.")
    return tuple(out)


def _power_word(power: Power) -> str:
    card = cards.POWER_CARDS.get(power)
    return card.name if card and card.name else power.value.replace("-", " ")


def _key(
    board: StarBoard,
    day: int,
    draft: frozenset[Line],
    copies: Sequence[Shape],
    ghost: Sequence[GhostLine],
) -> tuple[KeyEntry, ...]:
    """The key lists what this picture shows, each kind with its glyph and its word."""
    present: set[str] = {"star"}
    if board.drawn - board.design.printed_lines:
        present.add("drawn")
    if board.design.printed_lines:
        present.add("printed")
    if draft:
        present.add("draft")
    if board.shooting_stars:
        present.add("shooting")
    if copies:
        present.add("copy")
    present |= {"ghost-ok" if g.fits else "ghost-bad" for g in ghost}
    if board.new_stars:
        present.add("new-star")
    if board.design.blanks - board.new_stars:
        present.add("blank")
    if board.design.landscape:
        present.add("landscape")
    if board.planets:
        present.add("planet")
    present |= {placed.mark.value for placed in board.objects}
    if day:
        present.add("day")
    return tuple(KeyEntry(kind, words) for kind, words in KEY_WORDS.items() if kind in present)


# -- cards ------------------------------------------------------------------------------------


def card_xy(p: Point) -> tuple[float, float]:
    """A card point's centre on its 4 x 4 grid: ``a1`` bottom left."""
    return (p[0] * CELL + CELL / 2, (CARD_BOX - p[1]) * CELL + CELL / 2)


def card_picture(card_id: str, quarter: int = 0) -> CardPicture:
    """A card on its 4 x 4 dot grid (D3-D5): a night card (``S01``..``S27``, ``SS1``..``SS3``),
    a point card (``B1``..``B10``) or a power card (its power's value, ``"line"``). Its turns
    start at ``quarter`` quarter turns clockwise; "Turn" shows the next (U4: the picture only).
    A shooting-star card has no lines and no turns."""
    kind, name, description, lines = _card(card_id)
    dots = tuple(
        Glyph("dot", *card_xy((c, r))) for r in range(CARD_BOX, 0, -1) for c in range(CARD_BOX)
    )
    turns: tuple[CardTurn, ...] = ()
    if lines:
        seen: list[Shape] = []
        steps: list[CardTurn] = []
        for step in range(4):
            q = (quarter + step) % 4
            shape = lines if q == 0 else sky.normal(sky.turned(lines, q))
            if shape in seen:
                continue  # a symmetric card: this turn looks like one already shown
            seen.append(shape)
            steps.append(_card_turn(name, q, shape))
        turns = tuple(steps)
    return CardPicture(card_id, kind, name, description, dots, turns)


def _card(card_id: str) -> tuple[str, str, str, Shape]:
    if card_id in cards.SHAPES:
        card = cards.SHAPES[card_id]
        return ("night", f"Shape {card.id}", card.text, card.lines)
    if cards.is_shooting_star(card_id):
        return ("shooting-star", "Shooting star", cards.card_text(card_id), frozenset())
    if card_id in cards.POINT_CARDS:
        point = cards.POINT_CARDS[card_id]
        text = f"{point.text}; {point.value} points per copy"
        return ("point", f"{point.name} ({point.id})", text, point.lines)
    try:
        power = Power(card_id)
    except ValueError:
        raise ValueError(f"{card_id!r} is no card") from None
    power_card = cards.POWER_CARDS[power]
    text = f"{power_card.text}. {power_card.effect}" if power_card.effect else power_card.text
    return ("power", power_card.name or power.value, text, power_card.lines)


def _card_turn(name: str, quarter: int, shape: Shape) -> CardTurn:
    strokes = tuple(_stroke("card", ln, card_xy) for ln in sorted(shape))
    degrees = 90 * quarter
    turned = f", turned {degrees}° clockwise" if degrees else ""
    label = f"{name}{turned}: lines {_lines_text(shape)}"
    return CardTurn(quarter, degrees, strokes, label)
