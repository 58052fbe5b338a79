"""A seat's draft during a round: taps turned into a submission, and what the screen says
about it (U1-U8).

A draft is not game state (U1): the browser carries it in hidden form fields (``fields`` and
``read``), every tap or button sends it back with one action (``step``), and the preview shows
``status``: the board as the draft would make it, whether Confirm may be pressed, one line of
status, the open power copies, the provisional score. Confirm submits ``to_drawing``. Nothing
is stored. Every verdict comes from the rules' own checks (``rules.drawing``: ``apply``,
``point_refused``, ``line_refused``, ``shooting_star_refused``, ``resolve``, ``use_power``,
``targets``, ``open_copies``), so ``status(...).ready`` is exactly what a submission of
``to_drawing(...)`` would get (R6); the page's hints are only hints (W17).

The hidden fields (``FIELD_NAMES``), each with one exact format; a missing field is its empty
value, anything else raises ``DraftError`` (a ``games.inputs.BadInput``, so a view answers 400):

- ``draft-lines``: the card's lines in tap order, ``"e5-f6 f6-g6"``; each line written lower
  end first (as ``sky.line_name`` writes it), single spaces, no line twice.
- ``draft-selected``, ``draft-ghost``: a point such as ``e5``, or empty.
- ``draft-shooting``: a shooting star's stars, head first, ``"c3 d4 e5"`` (at most 4).
- ``draft-resolutions``: resolutions in order, separated by ``;``, each ``<copy>/<targets>``:
  the copy's three lines as ``copy_text`` writes them (sorted), then its targets separated by
  spaces, nothing for a declined copy: ``"a1-b2 b2-c3 c3-d4/e5 f6;c1-d2 d2-e3 e3-f4/"``.
- ``draft-using``: the copy whose power is being used, as ``copy_text`` writes it, or empty.
- ``draft-targets``: that use's targets tapped so far (at most 2); only with ``draft-using``.
- ``draft-ghost-turn``: ``0``-``3``, quarter turns clockwise. ``draft-placing``: ``yes`` or empty.

Decisions (RULES.md leaves them open):

- U2: a tap that would draw a line the rules refuse (L1-L6: a point that is not usable, a line
  already on the board, one touching a shooting star or an aura's group) is refused at once
  with the rules' reason, so every draft line is legal on its own; the verdict once the card's
  lines are all drawn (U3) is about the shape: "Mirror image...", "Not this card's shape...".
  A line from the ghost (U4) may still be illegal: its verdict names the line.
- U2: tapping a star that is not a neighbour of the selected star is refused ("f7 is not a
  neighbour of e5"); Escape or a tap on the selected star unselects it. No tap adds a line
  beyond the card's count: Undo first.
- U4: the ghost is the card's lines turned about the card's point ``a1`` and moved so ``a1`` is
  on the tapped point. "Use this" replaces the draft's lines (and any power steps) with the
  ghost's lines; it is refused while part of the ghost lies outside the sky. ``status.ghost``
  lists only the ghost's lines inside the sky; the status line says when some are outside.
- U5: undo takes back the latest step, found from the draft itself (it keeps no history): a
  started placing, then a power target, then a use started, then a resolution, then a
  selection, then the ghost, then a shooting star's last star, then the last line.
- U6: tapping a shooting star's last star again takes it back, like unselecting (U2).
- U7: in the power phase a tap uses the preselected copy (the first open one in board order)
  unless "use" chose another, so the status line can say "Power: Line — tap two neighbouring
  stars, or Decline". "use"/"decline" with ``copy=""`` mean the current copy. "use" on a copy
  whose power has no legal target is refused (W5: decline it). A tap on a target already tapped
  takes it back. When the last target needed is tapped the resolution is made at once.
- U8: an empty draft is not a pass: ``to_drawing`` refuses it (the web layer sends a pass).
- ``status.board`` applies only what is complete: the card's lines once all are drawn and
  legal (a shooting star from its first line), then the resolutions up to the first refused
  one. Incomplete draft lines, selections and targets are in the draft, not on that board.
- R7: an empty draft on a board where the card has no legal drawing says so in the status
  line (``NOTHING_LEGAL``); Pass stays the web layer's action.
- ``status.usable`` is a hint for the picture: the points a tap would use now (the selected
  star included, since a tap unselects it); while placing, the points where the ghost at its
  present turn would have every line legal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Protocol

from games.inputs import BadInput
from games.kit import Refusal

from .rules import drawing as rules
from .rules import sky
from .rules.board import Power, ShootingStar, StarBoard
from .rules.cards import POWER_LINES
from .rules.model import Drawing, Resolution, Turn
from .rules.scoring import ScoreSheet, score
from .rules.sky import Line, Point, Shape

LINES = "draft-lines"
SELECTED = "draft-selected"
SHOOTING = "draft-shooting"
RESOLUTIONS = "draft-resolutions"
USING = "draft-using"
TARGETS = "draft-targets"
GHOST = "draft-ghost"
GHOST_TURN = "draft-ghost-turn"
PLACING = "draft-placing"
FIELD_NAMES = (LINES, SELECTED, SHOOTING, RESOLUTIONS, USING, TARGETS, GHOST, GHOST_TURN, PLACING)
ACTIONS = ("tap", "undo", "clear", "place", "turn", "use-ghost", "use", "decline", "cancel")

MOST_LINES = 8  # a card has 2 (D3); more is never a draft
MOST_STARS = rules.MOST_SHOOTING_LINES + 1
MOST_TARGETS = 2  # W17
MOST_RESOLUTIONS = 40  # far more than any board holds copies
LONGEST_FIELD = 2000
YES = "yes"
A1: Point = (0, 1)  # the card's local point a1 (D3, U4)
NOTHING_LEGAL = "No legal drawing of this card on your board: Pass is your only choice"  # R7

PROMPTS = {
    Power.PLANET: "tap an unused star for the planet",
    Power.LINE: "tap two neighbouring stars",
    Power.NEW_STARS: "tap two blank points",
    Power.GALAXY: "tap the left one of two unused stars side by side, beside the copy's group",
    Power.TWINKLING_STAR: "tap an unused star for the twinkling star",
    Power.NOVA: "tap a star of a constellation",
    Power.AURA: "tap a star of a constellation without an aura",
    Power.CRESCENT_MOON: "tap an unused star for the crescent moon",
    Power.BLACK_HOLE: "tap an unused star for the black hole",
}


class DraftError(BadInput):
    """A draft's fields or an action that no page of ours sends: a 400, with a message."""


@dataclass(frozen=True)
class Draft:
    lines: tuple[Line, ...] = ()  # the card's lines drawn so far, in tap order (U2, U3)
    selected: Point | None = None  # a star tapped, waiting for a neighbour (U2)
    shooting: tuple[Point, ...] = ()  # a shooting star's stars so far, head first (U6)
    resolutions: tuple[Resolution, ...] = ()  # power copies resolved so far, in order (W3, W4)
    using: frozenset[Line] | None = None  # the copy whose power is being used (U7)
    targets: tuple[Point, ...] = ()  # targets tapped so far for that use
    ghost: Point | None = None  # U4: the tapped star carrying the card's point a1
    ghost_turn: int = 0  # U4: quarter turns clockwise
    placing: bool = False  # U4: "Place shape" chosen: the next tap places the ghost


@dataclass(frozen=True)
class Table:
    """What a draft is checked against: the seat's board as the round began (R6), the
    round's ask, and the point card's lines (for the provisional score, E8)."""

    board: StarBoard
    turn: Turn
    point_lines: Shape


@dataclass(frozen=True)
class Stepped:
    draft: Draft
    said: str  # one line for the live region and the status line
    refused: bool  # the step itself was refused (the draft is unchanged)


@dataclass(frozen=True)
class DraftStatus:
    board: StarBoard  # the board as the draft would make it so far: whatever is complete
    drawing: Drawing | None  # the whole submission if the draft is complete, else None
    ready: bool  # Confirm enabled: rules.apply would accept it (U3)
    line: str  # the one status line
    open_copies: tuple[frozenset[Line], ...]  # open copies in board order (U7), first preselected
    score: ScoreSheet  # the provisional score with the draft (U1)
    ghost: tuple[tuple[Line, bool], ...]  # U4: the ghost's lines inside the sky, each legal or not
    usable: frozenset[Point]  # points a tap may use now (the picture's hints)


# -- the hidden fields -----------------------------------------------------------------------

_POINT = r"[a-j](?:1[01]|[1-9])"
_POINT_RE = re.compile(_POINT)
_LINE_RE = re.compile(f"({_POINT})-({_POINT})")


def copy_text(copy: frozenset[Line]) -> str:
    """A copy as the fields and the ``copy`` argument write it: its lines, sorted."""
    return sky.shape_name(copy)


def _point(text: str, label: str) -> Point:
    if not _POINT_RE.fullmatch(text):
        raise DraftError(f"The draft's {label} must be written as points such as e5.")
    p = sky.point(text)
    if p not in sky.OUTLINE:
        raise DraftError(f"{text} is outside the sky.")
    return p


def _items(text: str, label: str, most: int) -> list[str]:
    if text == "":
        return []
    parts = text.split(" ")
    if len(parts) > most:
        raise DraftError(f"The draft's {label} has more than {most} items.")
    if len(set(parts)) != len(parts):
        raise DraftError(f"The draft's {label} names something twice.")
    return parts


def _points(text: str, label: str, most: int) -> tuple[Point, ...]:
    return tuple(_point(part, label) for part in _items(text, label, most))


def _line(text: str, label: str) -> Line:
    found = _LINE_RE.fullmatch(text)
    if found is None:
        raise DraftError(f"The draft's {label} must be written as lines such as e5-f6.")
    a, b = _point(found.group(1), label), _point(found.group(2), label)
    if not sky.are_neighbours(a, b):
        raise DraftError(f"{text} is not a line: its ends are not neighbours.")
    ln = sky.line(a, b)
    if sky.line_name(ln) != text:
        raise DraftError(f"The draft writes the line {text} as {sky.line_name(ln)}.")
    return ln


def _lines(text: str, label: str, most: int) -> tuple[Line, ...]:
    return tuple(_line(part, label) for part in _items(text, label, most))


def _copy(text: str, label: str) -> frozenset[Line]:
    lines = frozenset(_lines(text, label, POWER_LINES))
    if len(lines) != POWER_LINES or copy_text(lines) != text:
        raise DraftError(
            f"The draft's {label} must be a power copy's {POWER_LINES} lines, sorted, "
            "such as a1-b2 b2-c3 c3-d4."
        )
    return lines


def _resolutions(text: str) -> tuple[Resolution, ...]:
    if text == "":
        return ()
    parts = text.split(";")
    if len(parts) > MOST_RESOLUTIONS:
        raise DraftError("The draft has too many power resolutions.")
    found = []
    for part in parts:
        pieces = part.split("/")
        if len(pieces) != 2:
            raise DraftError("A power resolution is written as its copy's lines, /, targets.")
        copy = _copy(pieces[0], "power copy")
        found.append(Resolution(copy, _points(pieces[1], "power targets", MOST_TARGETS)))
    return tuple(found)


class Form(Protocol):
    """What ``read`` needs of a submitted form (a QueryDict, a dict): one value per field."""

    def get(self, key: str, default: None = None, /) -> str | None: ...


def read(fields: Form) -> Draft:
    """The draft the hidden fields carry (other keys are ignored; a missing field is its empty
    value). Strict: anything not written exactly as ``fields`` writes it raises DraftError."""

    def get(key: str, default: str = "") -> str:
        value = fields.get(key)
        if value is None:
            return default
        if not isinstance(value, str) or len(value) > LONGEST_FIELD:
            raise DraftError("A draft field is too long.")
        return value

    selected, ghost = get(SELECTED), get(GHOST)
    using = get(USING)
    targets = _points(get(TARGETS), "power targets", MOST_TARGETS)
    if targets and not using:
        raise DraftError("The draft has power targets but no copy being used.")
    turn = get(GHOST_TURN, "0")
    if turn not in ("0", "1", "2", "3"):
        raise DraftError("The shape's turn must be 0, 1, 2 or 3 quarter turns.")
    placing = get(PLACING)
    if placing not in ("", YES):
        raise DraftError(f"Placing the shape is written {YES!r} or nothing.")
    return Draft(
        lines=_lines(get(LINES), "lines", MOST_LINES),
        selected=_point(selected, "selected star") if selected else None,
        shooting=_points(get(SHOOTING), "shooting star", MOST_STARS),
        resolutions=_resolutions(get(RESOLUTIONS)),
        using=_copy(using, "copy in use") if using else None,
        targets=targets,
        ghost=_point(ghost, "shape's star") if ghost else None,
        ghost_turn=int(turn),
        placing=placing == YES,
    )


def fields(draft: Draft) -> dict[str, str]:
    """The hidden fields that carry the draft: ``read(fields(d)) == d``."""

    def points(ps: tuple[Point, ...]) -> str:
        return " ".join(sky.point_name(p) for p in ps)

    def maybe(p: Point | None) -> str:
        return "" if p is None else sky.point_name(p)

    return {
        LINES: " ".join(sky.line_name(ln) for ln in draft.lines),
        SELECTED: maybe(draft.selected),
        SHOOTING: points(draft.shooting),
        RESOLUTIONS: ";".join(
            f"{copy_text(r.copy)}/{points(r.targets)}" for r in draft.resolutions
        ),
        USING: "" if draft.using is None else copy_text(draft.using),
        TARGETS: points(draft.targets),
        GHOST: maybe(draft.ghost),
        GHOST_TURN: str(draft.ghost_turn % 4),
        PLACING: YES if draft.placing else "",
    }


# -- what a draft means on its table ---------------------------------------------------------


def _headed(p: Point) -> str:
    return f"Shooting star: head on {_name(p)} — tap the next star along a diagonal"


def _name(p: Point) -> str:
    return rules.name(p)


def _line_name(ln: Line) -> str:
    return rules.line_text(ln)


def _join(a: Point, b: Point) -> Line:
    return sky.line(a, b) if sky.are_neighbours(a, b) else (a, b)


def _star(draft: Draft) -> ShootingStar | None:
    if len(draft.shooting) < 2:
        return None
    run = draft.shooting
    return ShootingStar(tuple(_join(a, b) for a, b in zip(run, run[1:], strict=False)), run[0])


def _stored(star: ShootingStar) -> ShootingStar:
    """As the rules store a legal shooting star: its lines in run order from the left."""
    stars = sorted(sky.ends(star.lines))
    lines = tuple(sky.line(a, b) for a, b in zip(stars, stars[1:], strict=False))
    return ShootingStar(lines, star.head)


def ghost_lines(draft: Draft, card: Shape) -> frozenset[Line]:
    """U4: the card's lines turned about its point a1 and moved so a1 is on the ghost's star
    (empty without a ghost). Lines may reach outside the sky."""
    if draft.ghost is None:
        return frozenset()
    turned = sky.turned(card, draft.ghost_turn % 4, about=A1)
    return sky.moved(turned, draft.ghost[0] - A1[0], draft.ghost[1] - A1[1])


def _in_sky(ln: Line) -> bool:
    return ln[0] in sky.OUTLINE and ln[1] in sky.OUTLINE


class _View:
    """Everything the draft means on its table, each part computed once."""

    def __init__(self, draft: Draft, table: Table) -> None:
        self.draft = draft
        self.table = table
        self.board = table.board
        self.turn = table.turn
        self.day = table.turn.day
        self.card = table.turn.card
        self.power = table.turn.power
        self.word = rules.POWER_WORDS[table.turn.power]

    @cached_property
    def legal(self) -> rules.Legal:
        return rules.Legal(self.board, self.day)

    @cached_property
    def part(self) -> Drawing:
        """The card's part of the draft: its lines, or its shooting star."""
        return Drawing(lines=frozenset(self.draft.lines), shooting_star=_star(self.draft))

    @property
    def wanted(self) -> int:
        return 0 if self.card is None else len(self.card)

    @cached_property
    def card_complete(self) -> bool:
        if self.card is None:
            return len(self.draft.shooting) >= 2 or bool(self.draft.lines)
        return len(self.draft.lines) >= len(self.card) or len(self.draft.shooting) >= 2

    @cached_property
    def after_card(self) -> StarBoard | str | None:
        """The board after the card's part (None: not complete; a text: refused)."""
        if not self.card_complete:
            return None
        after = rules.apply(self.board, self.part, self.turn)
        if isinstance(after, StarBoard):
            return after
        if after.reason != rules.OPEN_COPY:
            return after.reason
        if self.part.shooting_star is not None:  # legal, copies wait (never on a real board)
            stars = (*self.board.shooting_stars, _stored(self.part.shooting_star))
            return self.board.changed(shooting_stars=stars)
        return self.board.changed(drawn=self.board.drawn | self.part.lines)

    @cached_property
    def resolved(self) -> tuple[StarBoard, str | None]:
        """The board after the resolutions that the rules accept, and the first refusal."""
        after = self.after_card
        board = after if isinstance(after, StarBoard) else self.board
        if not isinstance(after, StarBoard):
            return board, None
        for resolution in self.draft.resolutions:
            done = rules.resolve(board, resolution, self.turn)
            if isinstance(done, str):
                return board, done
            board = done
        return board, None

    @cached_property
    def power_board(self) -> StarBoard | None:
        """The board on which the next resolution is made (None: not in the power phase)."""
        board, refusal = self.resolved
        if not isinstance(self.after_card, StarBoard) or refusal is not None:
            return None
        return board

    @cached_property
    def open(self) -> tuple[frozenset[Line], ...]:
        if self.power_board is None:
            return ()
        return rules.in_board_order(rules.open_copies(self.power_board, self.turn))

    @cached_property
    def copy(self) -> frozenset[Line] | None:
        """The copy a tap now uses: the one chosen, else the preselected one (U7)."""
        if self.draft.using is not None:
            return self.draft.using if self.draft.using in self.open else None
        return self.open[0] if self.open else None

    def claimed(self, copy: frozenset[Line]) -> StarBoard:
        assert self.power_board is not None
        return self.power_board.changed(claimed=self.power_board.claimed | copy)

    @cached_property
    def legal_targets(self) -> tuple[tuple[Point, ...], ...]:
        if self.copy is None:
            return ()
        return rules.targets(self.claimed(self.copy), self.copy, self.turn)

    def needed(self, copy: frozenset[Line]) -> int:
        if self.power is Power.LINE:
            return 2
        if self.power is Power.NEW_STARS:
            return min(2, len(rules.blanks_left(self.claimed(copy), self.day)))
        return 1

    @cached_property
    def drawing(self) -> Drawing | None:
        if not self.card_complete or self.draft.using is not None or self.draft.targets:
            return None
        return replace(self.part, resolutions=self.draft.resolutions)

    @cached_property
    def ready(self) -> bool:
        if self.drawing is None:
            return False
        return not isinstance(rules.apply(self.board, self.drawing, self.turn), Refusal)

    # -- the status line -----------------------------------------------------------------

    def power_line(self) -> str:
        copy = self.copy
        if copy is None:
            return "That power copy is not open: Undo, or choose an outlined copy."
        if not self.legal_targets:
            return f"Power: {self.word} — no legal target: Decline"
        prompt = PROMPTS[self.power]
        targets = self.draft.targets if self.draft.using is not None else ()
        need = self.needed(copy)
        if self.power is Power.NEW_STARS and need == 1:
            prompt = "tap the one blank point left"
        if targets and self.power is Power.LINE:
            prompt = f"{_name(targets[0])} chosen: tap a neighbour of {_name(targets[0])}"
        elif targets:
            prompt = f"{_name(targets[0])} chosen: tap one more blank point"
        more = f" ({len(self.open)} open copies)" if len(self.open) > 1 else ""
        return f"Power: {self.word} — {prompt}, or Decline{more}"

    def ghost_line(self) -> str | None:
        if self.card is None:
            return None
        if self.draft.placing:
            return "Place shape: tap the star for the card's point a1"
        if self.draft.ghost is None:
            return None
        lines = ghost_lines(self.draft, self.card)
        where = f"Shape on {_name(self.draft.ghost)}"
        outside = sum(1 for ln in lines if not _in_sky(ln))
        if outside:
            return f"{where}: {outside} of its lines outside the sky — move or turn it"
        refusal = next(
            (r for ln in sorted(lines) if (r := rules.line_refused(self.board, ln, self.day))),
            None,
        )
        return f"{where}: {refusal}" if refusal else f"{where}: every line can be drawn — Use this"

    def progress(self) -> str:
        """How far the card's part is, before it is complete."""
        d = self.draft
        if d == Draft(ghost_turn=d.ghost_turn) and not rules.options(self.board, self.turn):
            return NOTHING_LEGAL  # R7
        if self.card is None:
            if not d.shooting:
                return "Shooting star: tap its head star, then stars along one diagonal"
            return _headed(d.shooting[0])
        said = f"{len(d.lines)} of {self.wanted} lines"
        if d.selected is not None:
            said += f" — {_name(d.selected)} selected: tap a neighbouring star"
        return said

    def line(self) -> str:
        ghost = self.ghost_line()
        if self.draft.placing and ghost:
            return ghost
        after = self.after_card
        if after is None:
            return f"{self.progress()} — {ghost}" if ghost else self.progress()
        if isinstance(after, str):
            return after
        refusal = self.resolved[1]
        if refusal is not None:
            return refusal
        if self.open or self.draft.using is not None:
            return self.power_line()
        if self.ready:
            return f"{self.done_words()}: ready — Confirm"
        return rules.OPEN_COPY  # never on a legal board

    def done_words(self) -> str:
        if self.card is None and self.part.shooting_star is not None:
            count = len(self.part.shooting_star.lines)
            more = " (tap the next star to extend it)" if count < rules.MOST_SHOOTING_LINES else ""
            return f"Shooting star of {count} line{'s' * (count > 1)}{more}"
        return f"{len(self.draft.lines)} of {self.wanted} lines"

    # -- hints ---------------------------------------------------------------------------

    def free_line(self, a: Point, b: Point) -> bool:
        ln = sky.line(a, b)
        return ln not in self.draft.lines and self.legal.line_ok(ln)

    def usable(self) -> frozenset[Point]:
        d = self.draft
        if d.placing and self.card is not None:
            return self.ghost_fits()
        if self.copy is not None and self.open:
            tapped = set(d.targets) if d.using is not None else set()
            found = {p for t in self.legal_targets if tapped <= set(t) for p in t}
            return frozenset(found)
        if self.after_card is not None and self.card is not None:
            return frozenset()
        if self.card is None:
            return self.shooting_hints()
        if d.selected is not None:
            near = (q for q in sky.neighbours(d.selected) if self.free_line(d.selected, q))
            return frozenset({d.selected, *near})
        return frozenset(
            p for p in self.legal.usable if any(self.free_line(p, q) for q in sky.neighbours(p))
        )

    def ghost_fits(self) -> frozenset[Point]:
        assert self.card is not None
        found = set()
        for p in sky.OUTLINE:
            lines = ghost_lines(replace(self.draft, ghost=p), self.card)
            if all(_in_sky(ln) and self.legal.line_ok(ln) for ln in lines):
                found.add(p)
        return frozenset(found)

    def shooting_hints(self) -> frozenset[Point]:
        run = self.draft.shooting
        if not run:
            starts = (star for star in self.legal.shooting_stars() if len(star.lines) == 1)
            return frozenset(p for star in starts for p in star.stars)
        if len(run) > rules.MOST_SHOOTING_LINES:
            return frozenset({run[-1]})
        found = {run[-1]}
        for q in sky.neighbours(run[-1]):
            if self.shooting_refused(q) is None:
                found.add(q)
        return frozenset(found)

    def shooting_refused(self, p: Point) -> str | None:
        """Why the shooting star may not go on to ``p`` (SS1-SS2)."""
        run = self.draft.shooting
        last = run[-1]
        if len(run) > rules.MOST_SHOOTING_LINES:
            return "A shooting star has at most 3 lines: Undo, or Confirm."
        if p in run:
            return f"{_name(p)} is already a star of this shooting star."
        if not (sky.are_neighbours(last, p) and sky.is_diagonal((last, p))):
            return f"{_name(p)} is not a diagonal neighbour of {_name(last)}."
        if len(run) >= 2:
            way = (last[0] - run[-2][0], last[1] - run[-2][1])
            if (p[0] - last[0], p[1] - last[1]) != way:
                return f"{_name(p)} does not go on along the diagonal from {_name(run[0])}."
        longer = (*run, p)
        lines = tuple(_join(a, b) for a, b in zip(longer, longer[1:], strict=False))
        star = ShootingStar(lines, run[0])
        return rules.shooting_star_refused(self.board, star, self.day)

    def ghost_status(self) -> tuple[tuple[Line, bool], ...]:
        if self.card is None or self.draft.ghost is None:
            return ()
        lines = sorted(ln for ln in ghost_lines(self.draft, self.card) if _in_sky(ln))
        return tuple((ln, self.legal.line_ok(ln)) for ln in lines)


def status(draft: Draft, table: Table) -> DraftStatus:
    """The preview of a draft (U1-U7): nothing is stored."""
    view = _View(draft, table)
    board = view.resolved[0]
    return DraftStatus(
        board=board,
        drawing=view.drawing,
        ready=view.ready,
        line=view.line(),
        open_copies=view.open,
        score=score(board, table.point_lines),
        ghost=view.ghost_status(),
        usable=view.usable(),
    )


def to_drawing(draft: Draft, table: Table) -> Drawing:
    """What Confirm submits (R6). An incomplete draft raises DraftError; an empty draft is
    not a pass (U8: the web layer sends a pass itself)."""
    view = _View(draft, table)
    if view.drawing is not None:
        return view.drawing
    if draft == Draft() or draft == Draft(ghost_turn=draft.ghost_turn):
        raise DraftError("Nothing is drawn yet: draw the card, or Pass.")
    raise DraftError(f"The drawing is not complete: {view.line()}")


# -- steps -----------------------------------------------------------------------------------


def _done(draft: Draft, said: str) -> Stepped:
    return Stepped(draft, said, refused=False)


def _no(draft: Draft, said: str) -> Stepped:
    return Stepped(draft, said, refused=True)


def step(draft: Draft, action: str, table: Table, *, at: str = "", copy: str = "") -> Stepped:
    """One tap or button (U2-U7, U9's keys send the same actions). ``at`` names the tapped
    point (for "tap"), ``copy`` a copy as ``copy_text`` writes it (for "use" and "decline";
    empty: the current copy). An action or argument no page sends raises DraftError; a step
    the rules do not allow comes back refused, with the reason."""
    if action not in ACTIONS:
        raise DraftError("That is not a drawing action.")
    view = _View(draft, table)
    if action == "tap":
        return _tap(view, _point(at, "tapped point"))
    if action in ("use", "decline"):
        chosen = _copy(copy, "copy") if copy else None
        return _use(view, chosen) if action == "use" else _decline(view, chosen)
    if action == "undo":
        return _undo(view)
    if action == "clear":
        if draft == Draft():
            return _no(draft, "The draft is already empty.")
        return _done(Draft(), "Draft cleared")
    if action == "cancel":
        return _cancel(view)
    return _ghost_step(view, action)


def _after(draft: Draft, table: Table) -> str:
    return status(draft, table).line


def _tap(view: _View, p: Point) -> Stepped:
    d = view.draft
    if d.placing and view.card is not None:
        placed = replace(d, ghost=p, placing=False)
        return _done(placed, _View(placed, view.table).ghost_line() or "Shape placed")
    if view.open or (d.using is not None and view.power_board is not None):
        return _tap_target(view, p)
    after = view.after_card
    if view.card is None:
        return _tap_shooting(view, p)
    if after is not None:
        if isinstance(after, StarBoard):
            return _no(d, f"The drawing is complete: {view.line()}")
        return _no(d, f"The card has {view.wanted} lines: Undo a line to change the drawing.")
    return _tap_line(view, p)


def _tap_line(view: _View, p: Point) -> Stepped:
    """U2: select a star, then a neighbour draws a line; the selected star again unselects."""
    d = view.draft
    s = d.selected
    if s is None:
        refusal = rules.point_refused(view.board, p, view.day)
        if refusal is not None:
            return _no(d, refusal)
        return _done(replace(d, selected=p), f"{_name(p)} selected")
    if p == s:
        return _done(replace(d, selected=None), f"{_name(p)} unselected")
    if not sky.are_neighbours(s, p):
        return _no(d, f"{_name(p)} is not a neighbour of {_name(s)}")
    ln = sky.line(s, p)
    if ln in d.lines:
        return _no(d, f"Line {_line_name(ln)} is already in the draft.")
    refusal = rules.line_refused(view.board, ln, view.day)
    if refusal is not None:
        return _no(d, refusal)
    drawn = replace(d, lines=(*d.lines, ln), selected=None)
    progress = f"{len(drawn.lines)} of {view.wanted} lines"
    line = _after(drawn, view.table) if len(drawn.lines) >= view.wanted else progress
    said = line if line.startswith(progress) else f"{progress} — {line}"
    return _done(drawn, f"Line {_line_name(ln)} drawn: {said}")


def _tap_shooting(view: _View, p: Point) -> Stepped:
    """U6: the head star, then stars along one diagonal, 1 to 3 lines."""
    d = view.draft
    if d.shooting and p == d.shooting[-1]:
        taken = replace(d, shooting=d.shooting[:-1])
        return _done(taken, f"{_name(p)} taken back from the shooting star")
    if not d.shooting:
        refusal = rules.point_refused(view.board, p, view.day)
        if refusal is None and p in view.board.line_ends:
            refusal = f"{_name(p)} ends a line: a shooting star touches nothing."
        if refusal is not None:
            return _no(d, refusal)
        headed = replace(d, shooting=(p,), selected=None)
        return _done(headed, _headed(p))
    refusal = view.shooting_refused(p)
    if refusal is not None:
        return _no(d, refusal)
    longer = replace(d, shooting=(*d.shooting, p))
    # The status line already says how long the run is ("Shooting star of 2 lines ...").
    return _done(longer, f"{_name(p)} added: {_after(longer, view.table)}")


def _tap_target(view: _View, p: Point) -> Stepped:
    """U7, W8-W17: a tap chooses the target of the power on the current copy."""
    d = view.draft
    copy = view.copy
    if copy is None:
        return _no(d, view.power_line())
    if not view.legal_targets:
        return _no(d, f"No legal target for the {view.word} power: Decline this copy.")
    using = replace(d, using=copy, targets=d.targets if d.using is not None else ())
    if p in using.targets:
        back = replace(using, targets=tuple(t for t in using.targets if t != p))
        return _done(back, f"{_name(p)} taken back")
    chosen = (*using.targets, p)
    claimed = view.claimed(copy)
    if len(chosen) < view.needed(copy):
        if not any(set(chosen) <= set(t) for t in view.legal_targets):
            return _no(d, _first_target_refused(view, claimed, p))
        partial = replace(using, targets=chosen)
        return _done(partial, _after(partial, view.table))
    used = rules.use_power(claimed, view.power, copy, chosen, view.day)
    if isinstance(used, str):
        return _no(d, used)
    resolved = replace(
        d, resolutions=(*d.resolutions, Resolution(copy, chosen)), using=None, targets=()
    )
    return _done(resolved, f"{_used_words(view.power, chosen)} — {_after(resolved, view.table)}")


def _first_target_refused(view: _View, board: StarBoard, p: Point) -> str:
    if view.power is Power.LINE:
        refusal = rules.point_refused(board, p, view.day)
        return refusal or f"No line can be drawn from {_name(p)}."
    if board.is_blank(p) and sky.is_day(p, view.day):
        return f"{_name(p)} is in a day row."
    return rules.star_refused(board, p, view.day) or f"{_name(p)} is not a blank point."


def _used_words(power: Power, targets: tuple[Point, ...]) -> str:
    if power is Power.LINE:
        return f"Line power: line {_line_name(_join(targets[0], targets[1]))} drawn"
    where = " and ".join(_name(p) for p in targets)
    if power is Power.NEW_STARS:
        return f"New stars on {where}"
    if power is Power.GALAXY:
        right = (targets[0][0] + 1, targets[0][1])
        return f"Galaxy on {_name(targets[0])} and {_name(right)}"
    return f"{rules.POWER_WORDS[power]} on {where}"


def _chosen_copy(view: _View, copy: frozenset[Line] | None) -> frozenset[Line] | str:
    if not view.open:
        return "No power copy is open."
    if copy is None:
        found = view.copy
        return found if found is not None else "That power copy is not open."
    if copy not in view.open:
        return f"That {view.word} copy is not open."
    return copy


def _use(view: _View, copy: frozenset[Line] | None) -> Stepped:
    """U7: use the power of this copy: its targets are tapped next."""
    d = view.draft
    chosen = _chosen_copy(view, copy)
    if isinstance(chosen, str):
        return _no(d, chosen)
    if not rules.targets(view.claimed(chosen), chosen, view.turn):
        return _no(d, f"No legal target for the {view.word} power: Decline this copy.")  # W5
    using = replace(d, using=chosen, targets=(), selected=None, placing=False)
    return _done(using, _after(using, view.table))


def _decline(view: _View, copy: frozenset[Line] | None) -> Stepped:
    """W5: declining is always allowed; it claims the copy's lines."""
    d = view.draft
    chosen = _chosen_copy(view, copy)
    if isinstance(chosen, str):
        return _no(d, chosen)
    declined = replace(d, resolutions=(*d.resolutions, Resolution(chosen)), using=None, targets=())
    return _done(declined, f"{view.word} copy declined — {_after(declined, view.table)}")


def _undo(view: _View) -> Stepped:
    """U5: the latest step taken back."""
    d = view.draft
    if d.placing:
        return _done(replace(d, placing=False), "Placing the shape stopped")
    if d.targets:
        return _done(replace(d, targets=d.targets[:-1]), f"{_name(d.targets[-1])} taken back")
    if d.using is not None:
        return _done(replace(d, using=None), f"Stopped using the {view.word} power")
    if d.resolutions:
        last = d.resolutions[-1]
        undone = replace(d, resolutions=d.resolutions[:-1])
        what = "declining" if last.declined else "using"
        return _done(undone, f"Undid {what} a {view.word} copy — {_after(undone, view.table)}")
    if d.selected is not None:
        return _done(replace(d, selected=None), f"{_name(d.selected)} unselected")
    if d.ghost is not None:
        return _done(replace(d, ghost=None, ghost_turn=0), "Shape ghost removed")
    if d.shooting:
        taken = replace(d, shooting=d.shooting[:-1])
        return _done(taken, f"{_name(d.shooting[-1])} taken back from the shooting star")
    if d.lines:
        undone = replace(d, lines=d.lines[:-1])
        left = f"{len(undone.lines)} of {view.wanted} lines"
        return _done(undone, f"Line {_line_name(d.lines[-1])} removed: {left}")
    return _no(d, "Nothing to undo.")


def _cancel(view: _View) -> Stepped:
    """U9's Escape: unselect, stop placing, stop using a power."""
    d = view.draft
    if d.placing:
        return _done(replace(d, placing=False), "Placing the shape stopped")
    if d.selected is not None:
        return _done(replace(d, selected=None), f"{_name(d.selected)} unselected")
    if len(d.shooting) == 1:  # a shooting star's head alone is a selection too
        return _done(replace(d, shooting=()), f"{_name(d.shooting[0])} unselected")
    if d.using is not None:
        return _done(replace(d, using=None, targets=()), f"Stopped using the {view.word} power")
    return _no(d, "Nothing to cancel.")


def _ghost_step(view: _View, action: str) -> Stepped:
    """U4: place the ghost, turn it, or use it."""
    d = view.draft
    if view.card is None:
        return _no(d, "This is a shooting-star card: there is no shape to place.")
    if action == "place":
        placing = replace(d, placing=True, selected=None)
        return _done(placing, "Place shape: tap the star for the card's point a1")
    if action == "turn":
        if d.ghost is None and not d.placing:
            return _no(d, "Place the shape first, then turn it.")
        turned = replace(d, ghost_turn=(d.ghost_turn + 1) % 4)
        said = f"Shape turned {90 * turned.ghost_turn}° clockwise"
        ghost = _View(turned, view.table).ghost_line()
        return _done(turned, f"{said} — {ghost}" if ghost and not d.placing else said)
    if d.ghost is None:
        return _no(d, "Place the shape first, then use it.")
    lines = ghost_lines(d, view.card)
    if not all(_in_sky(ln) for ln in lines):
        return _no(d, "Part of the shape is outside the sky: move or turn it first.")
    drawn = Draft(lines=tuple(sorted(lines)), shooting=d.shooting)
    return _done(drawn, f"Shape drawn: {_after(drawn, view.table)}")
