"""The eight board designs (D2), read once from ``data/boards.json`` and checked.

A design is data (G6): its landscape, blanks, planets and printed lines, written in the sky's
notation (points ``"e5"``, lines ``"e5-f6"``). ``check_design`` says in words every way a
design breaks D2 (an empty list when it is sound); ``check_designs`` adds what the set of eight
owes (D2, S1): eight of them, different ids, names and layouts, and at least three low patches
on each side. Loading refuses the file with a ValueError listing every problem, so a game
never starts on a bad board.

Reading D2 as we build it:

- The 76 stars of G3 are the outline's 96 points less the 6 landscape points, the 11 blanks
  and the 3 printed planets (a planet is a point no line may use, L2).
- "Reaches column a or j" means one of the low patch's points is in that column; "the other
  half" is columns ``f``-``j`` when it reaches ``a`` and ``a``-``e`` when it reaches ``j``.
- The low printed line has both ends in ``a``-``c`` or both in ``h``-``j`` (one side).
"""

from __future__ import annotations

import json
from pathlib import Path

from . import sky
from .board import Design
from .sky import Line, Point

DATA = Path(__file__).resolve().parent.parent / "data" / "boards.json"

DESIGN_COUNT = 8  # S1: one different design per seat, at most 8 seats
LANDSCAPE_POINTS, BLANK_POINTS, PLANET_COUNT, PRINTED_LINE_COUNT = 6, 11, 3, 2
LOW_PATCH, HIGH_PATCH = 6, 5
STARS = 76  # G3
LANDSCAPE_COLUMNS = frozenset(range(3, 7))  # d-g
PLANET_ROWS = (3, 6, 9)
LEFT_HALF, RIGHT_HALF = frozenset(range(0, 5)), frozenset(range(5, 10))  # a-e, f-j
LOW_LINE_SIDES = (frozenset(range(0, 3)), frozenset(range(7, 10)))  # a-c, h-j
HIGH_LINE_COLUMNS = frozenset(range(3, 8))  # d-h


def names(points: frozenset[Point]) -> str:
    return " ".join(sky.point_name(p) for p in sorted(points, key=lambda p: (p[1], p[0])))


def patches(points: frozenset[Point]) -> list[frozenset[Point]]:
    """The orthogonally connected patches of ``points``, largest first."""
    pending = set(points)
    found: list[frozenset[Point]] = []
    while pending:
        patch = {pending.pop()}
        frontier = list(patch)
        while frontier:
            c, r = frontier.pop()
            for q in ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)):
                if q in pending:
                    pending.discard(q)
                    patch.add(q)
                    frontier.append(q)
        found.append(frozenset(patch))
    return sorted(found, key=lambda patch: (-len(patch), sorted(patch)))


def low_patch_side(design: Design) -> str | None:
    """``"left"`` when the low patch reaches column ``a``, ``"right"`` for ``j``."""
    low = [patch for patch in patches(design.blanks) if all(r in (6, 7) for _, r in patch)]
    columns = {c for patch in low for c, _ in patch}
    if 0 in columns:
        return "left"
    return "right" if 9 in columns else None


def stars(design: Design) -> frozenset[Point]:
    """The points of the design where a line may end (G3): 76 on a sound design."""
    taken = design.landscape | design.blanks | design.planets
    return sky.OUTLINE - taken


# -- one design --------------------------------------------------------------------------------


def check_design(design: Design) -> list[str]:
    """Every way ``design`` breaks D2, in words; empty when it is sound."""
    problems: list[str] = []
    places = {
        "landscape": design.landscape,
        "blanks": design.blanks,
        "planets": design.planets,
        "printed-line ends": sky.ends(design.printed_lines),
    }
    for kind, points in places.items():
        if outside := points - sky.OUTLINE:
            problems.append(f"{kind} outside the sky: {names(outside)}")
    kinds = list(places)
    for i, first in enumerate(kinds):
        for second in kinds[i + 1 :]:
            if shared := places[first] & places[second]:
                problems.append(f"{first} and {second} share {names(shared)}")
    problems += _landscape_problems(design.landscape)
    problems += _blank_problems(design.blanks)
    problems += _planet_problems(design.planets)
    problems += _printed_line_problems(design.printed_lines)
    if not problems and len(stars(design)) != STARS:
        problems.append(f"{len(stars(design))} stars, not {STARS}")
    return problems


def _landscape_problems(landscape: frozenset[Point]) -> list[str]:
    problems = []
    if len(landscape) != LANDSCAPE_POINTS:
        problems.append(f"{len(landscape)} landscape points, not {LANDSCAPE_POINTS}")
    if stray := {p for p in landscape if p[1] > 2 or p[0] not in LANDSCAPE_COLUMNS}:
        problems.append(f"landscape outside rows 1-2, columns d-g: {names(frozenset(stray))}")
    if floating := {p for p in landscape if p[1] == 2 and (p[0], 1) not in landscape}:
        problems.append(f"landscape with nothing below it: {names(frozenset(floating))}")
    return problems


def _blank_problems(blanks: frozenset[Point]) -> list[str]:
    problems = []
    if len(blanks) != BLANK_POINTS:
        problems.append(f"{len(blanks)} blanks, not {BLANK_POINTS}")
    found = patches(blanks)
    sizes = sorted((len(patch) for patch in found), reverse=True)
    if sizes != [LOW_PATCH, HIGH_PATCH]:
        return [*problems, f"blank patches of {sizes} points, not one of 6 and one of 5"]
    low, high = found
    if any(r not in (6, 7) for _, r in low):
        problems.append(f"the low patch {names(low)} is not within rows 6-7")
    columns = {c for c, _ in low}
    if 0 not in columns and 9 not in columns:
        problems.append(f"the low patch {names(low)} reaches neither column a nor column j")
    if any(r < 8 for _, r in high):
        problems.append(f"the high patch {names(high)} is not within rows 8-11")
    other_half = RIGHT_HALF if 0 in columns else LEFT_HALF
    if any(c not in other_half for c, _ in high):
        problems.append(f"the high patch {names(high)} is not in the half away from the low one")
    if any(sky.are_neighbours(p, q) for p in low for q in high):
        problems.append("the two blank patches touch")
    return problems


def _planet_problems(planets: frozenset[Point]) -> list[str]:
    rows = sorted(r for _, r in planets)
    if rows != list(PLANET_ROWS):
        return [f"planets in rows {rows}, not one each in rows 3, 6 and 9"]
    return []


def _printed_line_problems(printed: frozenset[Line]) -> list[str]:
    problems = []
    if len(printed) != PRINTED_LINE_COUNT:
        problems.append(f"{len(printed)} printed lines, not {PRINTED_LINE_COUNT}")
    if bad := [ln for ln in printed if not sky.are_neighbours(*ln)]:
        problems.append(f"printed lines between points that are not neighbours: {bad}")
    low = [ln for ln in printed if _is_low_line(ln)]
    high = [ln for ln in printed if _is_high_line(ln)]
    if len(low) != 1 or len(high) != 1:
        problems.append(
            "the printed lines are not one low line (rows 2-3, columns a-c or h-j) and one"
            f" high line (rows 10-11, columns d-h): {sky.shape_name(printed)}"
        )
    elif sky.touches(low[0], high[0]):
        problems.append("the two printed lines are connected")
    return problems


def _is_low_line(ln: Line) -> bool:
    ends = set(ln)
    in_rows = all(r in (2, 3) for _, r in ends)
    return in_rows and any(all(c in side for c, _ in ends) for side in LOW_LINE_SIDES)


def _is_high_line(ln: Line) -> bool:
    return all(r in (10, 11) and c in HIGH_LINE_COLUMNS for c, r in ln)


# -- the set of eight --------------------------------------------------------------------------


def check_designs(designs: tuple[Design, ...]) -> list[str]:
    """Every D2 problem of each design, and of the set: eight designs with different ids,
    names and layouts, and at least three low patches on each side."""
    problems = [f"{d.name}: {problem}" for d in designs for problem in check_design(d)]
    if len(designs) != DESIGN_COUNT:
        problems.append(f"{len(designs)} designs, not {DESIGN_COUNT}")
    for what, values in (("ids", [d.id for d in designs]), ("names", [d.name for d in designs])):
        if len(set(values)) != len(values):
            problems.append(f"two designs share one of the {what} {values}")
    layouts = [(d.landscape, d.blanks, d.planets, d.printed_lines) for d in designs]
    if len(set(layouts)) != len(layouts):
        problems.append("two designs are the same board")
    sides = [low_patch_side(d) for d in designs]
    for side in ("left", "right"):
        if sides.count(side) < 3:
            problems.append(f"only {sides.count(side)} designs have their low patch on the {side}")
    return problems


# -- loading -----------------------------------------------------------------------------------


def load_designs(raw: object) -> tuple[Design, ...]:
    """The designs in ``raw`` (parsed ``boards.json``), or a ValueError listing every problem."""
    if not isinstance(raw, dict) or not isinstance(raw.get("designs"), list):
        raise ValueError("boards.json: no list of designs")
    entries: list[object] = list(raw["designs"])
    designs = tuple(_design(entry, i) for i, entry in enumerate(entries))
    if problems := check_designs(designs):
        raise ValueError("boards.json: " + "; ".join(problems))
    return designs


def _design(entry: object, index: int) -> Design:
    where = f"boards.json: designs[{index}]"
    if not isinstance(entry, dict):
        raise ValueError(f"{where} is not an object")
    fields: dict[str, str] = {}
    for key in ("id", "name", "landscape", "blanks", "planets", "printed_lines"):
        value = entry.get(key)
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{where}.{key} is not a text")
        fields[key] = value
    try:
        return Design(
            id=fields["id"],
            name=fields["name"],
            landscape=_points(fields["landscape"]),
            blanks=_points(fields["blanks"]),
            planets=_points(fields["planets"]),
            printed_lines=_lines(fields["printed_lines"]),
        )
    except ValueError as error:
        raise ValueError(f"{where} ({fields['name']}): {error}") from error


def _points(text: str) -> frozenset[Point]:
    parts = text.split()
    points = frozenset(sky.point(part) for part in parts)
    if len(points) != len(parts):
        raise ValueError(f"{text!r} names a point twice")
    return points


def _lines(text: str) -> frozenset[Line]:
    parts = text.split()
    lines = sky.parse_shape(text)
    if len(lines) != len(parts):
        raise ValueError(f"{text!r} names a line twice")
    return lines


DESIGNS: tuple[Design, ...] = load_designs(json.loads(DATA.read_text(encoding="utf-8")))
DESIGN_BY_ID: dict[str, Design] = {design.id: design for design in DESIGNS}
