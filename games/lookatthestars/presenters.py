"""What the Look at the Stars templates read, for one audience (a seat, or the public).

Everything a browser receives is built here from the rules' ``view_for`` (V1-V6) and, for a
seat drawing this round, its draft (U1: never game state, never stored). The draft's board
is the seat's own (V3); every other board is as of the last closed round (V2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from games.audiences import (
    HISTORY,
    Names,
    WaitingWords,
    listed,
    name_of,
    points,
    seat_of,
    waiting_line,
    when_another_seat_submits,
)
from games.audiences import PUBLIC as PUBLIC  # the seam (Screens.of) and tests read these here
from games.audiences import audience_of as audience_of
from games.audiences import audiences as audiences
from games.fragments import render_fragment
from games.kit import SeatStatus

from . import drafting, pictures
from .options import power_name
from .pictures import BoardPicture, CardPicture
from .rules import cards, sky
from .rules.board import StarBoard
from .rules.evolve import turn_of
from .rules.model import ClosedRound, State
from .rules.scoring import ScoreSheet
from .rules.view import SeatBoard, View, view_for

DRAFT = "draft"  # the preview that answers every tap (game.py)
STAR_BOARD = "lookatthestars/star_board.html"
BOARD = "lookatthestars/board.html"
WAITING = WaitingWords(acted="done", step="round", counted="other", doing=" to draw")


# -- what the template reads ------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line of a score sheet (the end screen and the breakdowns)."""

    label: str
    value: str


@dataclass(frozen=True)
class SeatPanel:
    seat: int
    name: str
    you: bool
    design: str
    status: str  # "✓ done", "drawing", "" between rounds
    done: bool
    score: int
    breakdown: tuple[Line, ...]
    board_html: SafeString  # the board as of the last closed round (star_board_html)
    winner: bool


@dataclass(frozen=True)
class Drafting:
    """The seat's drawing area this round (the ``#preview`` partial): its own board with the
    draft, the one status line, the power's choices, the hidden fields carrying the draft."""

    code: str
    area: str  # the element id: a new round (or a submission) replaces the area
    round: int
    picture: BoardPicture
    fields: Mapping[str, str]
    line: str  # U3, the Screens' one status line
    said: str  # what the last step did or why not (the live region)
    refused: bool
    ready: bool  # Confirm enabled (U3)
    shooting: bool  # a shooting-star card (U6)
    can_place: bool  # U4: a shape card, and no ghost yet
    ghost: bool  # a ghost is on the board: Turn and Use this
    copies: tuple[tuple[str, str], ...]  # (the copy's lines, its words) for Use / Decline (U7)
    using: bool  # a copy's power is being used: its targets are being tapped
    power: str
    score: int  # the provisional score with the draft (U1)
    can_undo: bool


@dataclass(frozen=True)
class Board:
    code: str
    audience: str
    version: int
    dealt: bool
    ended: bool
    history: bool
    mode: str  # "Look at the Stars · round 7 of 18 · pile 2"
    sun: str  # "☀ rows 1–2 are day" or ""
    you: str  # who you are, at a glance
    turn: str  # what to do now, or whom the table waits for
    last: str  # what the last closed round did
    result: str
    deadline: str | None
    server_now: str
    step_seconds: int | None
    done_count: str  # "3/5 done"
    card: CardPicture | None
    card_text: str
    point: CardPicture
    point_text: str
    power: CardPicture
    power_text: str
    drafting: str  # the seat's drawing area's element id ("": not drawing now)
    drafting_html: SafeString | None  # the area's #preview partial, drawn once a round
    own: SafeString | None  # the seat's board when it is not drawing (submitted, or ended)
    own_title: str
    seats: tuple[SeatPanel, ...]  # scores, highest first
    others: tuple[SeatPanel, ...]  # every board but the viewer's, seat order
    night: tuple[CardPicture, ...]  # the cards revealed so far (E7: all 18 at the end)
    log: tuple[str, ...]


def present(
    state: State,
    audience: str,
    names: Names,
    code: str,
    now: datetime | None = None,
    *,
    history: bool = False,
) -> Board:
    seat = seat_of(audience)
    view = view_for(state, seat)
    panels = tuple(_panel(view, board, names) for board in view.boards)
    mine = next((p for p in panels if p.you), None)
    return Board(
        code=code,
        audience=audience,
        version=view.version,
        dealt=view.dealt,
        ended=view.ended,
        history=history,
        mode=_mode(view),
        sun=_sun(view),
        you=_you(view, names, mine),
        turn=_turn(view, names, history),
        last=round_line(view.closed[-1], names) if view.closed and not view.ended else "",
        result=result_text(view, names),
        deadline=view.deadline.isoformat() if view.deadline and not history else None,
        server_now=(now or timezone.now()).isoformat(),
        step_seconds=view.step_seconds,
        done_count=_done_count(view),
        card=pictures.card_picture(view.card) if view.card and not view.ended else None,
        card_text=_card_text(view),
        point=pictures.card_picture(view.point_card),
        point_text=_point_text(view),
        power=pictures.card_picture(view.power.value),
        power_text=_power_text(view),
        drafting=area_id(view.round) if _drawing(view, history) else "",
        drafting_html=_fresh_html(state, view) if _drawing(view, history) else None,
        own=_own_picture(view),
        own_title=_own_title(view, names),
        seats=tuple(sorted(panels, key=lambda p: (-p.score, p.seat))),
        others=tuple(p for p in panels if not p.you or view.ended),
        night=tuple(pictures.card_picture(card) for card in view.revealed) if view.ended else (),
        log=tuple(round_line(r, names) for r in reversed(view.closed)),
    )


# The platform's pushes by area: another seat's submission changes only the top bar (the
# done count, whom the table waits for) and the score strip (that seat's "✓ done"); every
# board on the page stays as of the last closed round (V2, V3) and a seat's drawing area is
# its own.
areas = when_another_seat_submits("status", "scores")


def present_history(state: State, names: Names, code: str) -> Board:
    """A step of a replay: the boards as of the last closed round, nothing to press."""
    return present(state, HISTORY, names, code, history=True)


# -- the top bar ------------------------------------------------------------------------------


def _mode(view: View) -> str:
    if not view.dealt:
        return "Look at the Stars"
    if view.ended:
        return "The night is over"
    return f"Round {view.round} of {view.rounds} · pile {view.pile}"


def _sun(view: View) -> str:
    if view.ended or not view.day:
        return ""
    return f"☀ rows 1–{view.day} are day: nothing new there"


def _you(view: View, names: Names, mine: SeatPanel | None) -> str:
    if view.seat is None or mine is None:
        return "You are watching: every board as of the last closed round."
    solo = " · Solo" if view.solo else ""
    who = f"{name_of(names, view.seat)}, Seat {view.seat}"
    return f"You: {who} · {mine.design}{solo} · {points(mine.score)}"


def _turn(view: View, names: Names, history: bool) -> str:
    if view.ended or not view.dealt or history:
        return ""
    status = view.status
    waiting = [s for s, st in (status.seats.items() if status else ()) if st != SeatStatus.DONE]
    if view.seat is not None and view.can_submit:
        if view.card and cards.is_shooting_star(view.card):
            return "Your turn: draw a shooting star, or pass."
        return "Your turn: draw the card's shape on your board, then Confirm."
    acted = view.seat if status is not None else None
    return waiting_line(WAITING, waiting, names, acted)


def _done_count(view: View) -> str:
    status = view.status
    if status is None or view.ended:
        return ""
    done = sum(1 for st in status.seats.values() if st == SeatStatus.DONE)
    return f"{done}/{len(status.seats)} done"


def _card_text(view: View) -> str:
    if not view.card or view.ended:
        return ""
    if cards.is_shooting_star(view.card):
        return "A run of 1 to 3 diagonal lines one way, touching nothing; or pass."
    return "Draw both lines: move it anywhere, turn it if you like, never mirror it."


def _point_text(view: View) -> str:
    card = cards.POINT_CARDS[view.point_card]
    return (
        f"Point card {card.id}, {card.name}: {card.value} points for each copy of its shape "
        "on your board (copies may not share a line)."
    )


def _power_text(view: View) -> str:
    card = cards.POWER_CARDS[view.power]
    kind = "Basic" if view.power.basic else "Experienced"
    effect = f" {card.effect}" if card.effect else ""
    return f"Power card: {power_name(view.power)} ({kind}).{effect}"


# -- boards -----------------------------------------------------------------------------------


def _panel(view: View, board: SeatBoard, names: Names) -> SeatPanel:
    you = board.seat == view.seat
    status = ""
    if board.status is not None:
        status = "✓ done" if board.status == SeatStatus.DONE else "drawing"
    title = f"{name_of(names, board.seat)} — {board.design.name}"
    return SeatPanel(
        seat=board.seat,
        name=name_of(names, board.seat),
        you=you,
        design=board.design.name,
        status=status,
        done=board.status == SeatStatus.DONE,
        score=board.score.total,
        breakdown=sheet_lines(board.score),
        board_html=star_board_html(board.board, view.day, title, f"seat-{board.seat}"),
        winner=board.seat in view.winners,
    )


def sheet_lines(sheet: ScoreSheet) -> tuple[Line, ...]:
    """A score sheet, part by part (E2, the end screen)."""
    sizes = ", ".join(str(n) for n in sheet.sizes) or "none"
    copies = f"{sheet.point_copies} × {sheet.point_value}"
    return (
        Line("Constellations", f"{sheet.constellations} (sizes {sizes})"),
        Line("Planets", str(sheet.planets)),
        Line("Shooting stars", str(sheet.shooting_stars)),
        Line("Point card", f"{sheet.point_bonus} ({copies})"),
        Line("Power", str(sheet.power_bonus)),
        Line("Total", str(sheet.total)),
    )


def _own_picture(view: View) -> SafeString | None:
    """The seat's board when it is not drawing: with its accepted submission (U10), or as
    the public sees it between rounds and at the end."""
    if view.seat is None or view.can_submit:
        return None
    board = view.own if view.own is not None else view.boards[view.seat - 1].board
    # The section's heading says "Your board"; the picture's caption names its design.
    return star_board_html(board, view.day, board.design.name, "own")


@lru_cache(maxsize=1024)
def star_board_html(board: StarBoard, day: int, title: str, uid: str) -> SafeString:
    """A read-only star board, drawn once. Every audience of a push shows the same boards
    (as of the last closed round: V2), and every push of a round until it closes shows them
    again, so each board is rendered once per change, not once per audience and push (9
    audiences x 8 boards for a table of 8). A board is an immutable value: same board, same
    picture."""
    picture = pictures.board_picture(board, day=day, interactive=False, title=title, uid=uid)
    return mark_safe(render_fragment(STAR_BOARD, {"picture": picture}))


def _own_title(view: View, names: Names) -> str:
    if view.seat is None:
        return ""
    if view.own is not None:
        return "Your board, with this round's drawing (only you see it until the round closes)"
    return "Your board"


def _drawing(view: View, history: bool) -> bool:
    """The viewer is a seat drawing this round (a replay never draws)."""
    return not history and view.seat is not None and view.can_submit


def area_id(round_number: int) -> str:
    """The drawing area's element id: a new round's area replaces the last one (the area is
    hx-preserve'd within a round, so pushes keep the draft the seat is building)."""
    return f"lats-drafting-{round_number}"


@lru_cache(maxsize=256)
def fresh_drawing_html(round_number: int, table: drafting.Table) -> SafeString:
    """A seat's drawing area with nothing drawn yet (the ``#preview`` partial), drawn once
    per round: every push of the round re-renders the seat's page, and until it submits its
    area is the same (the browser keeps its draft: the area is hx-preserve'd)."""
    area = drafting_area("", round_number, table, drafting.Draft())
    return mark_safe(render_fragment(f"{BOARD}#preview", {"preview": area}))


def _fresh_html(state: State, view: View) -> SafeString | None:
    assert view.seat is not None, "only a seat draws"
    return fresh_drawing_html(view.round, draft_table(state, view.seat))


def draft_table(state: State, seat: int) -> drafting.Table:
    """What a seat's draft is checked against: its board as the round began (R6)."""
    card = cards.POINT_CARDS[state.point_card]
    return drafting.Table(board=state.boards[seat - 1], turn=turn_of(state), point_lines=card.lines)


def drafting_area(
    code: str,
    round_number: int,
    table: drafting.Table,
    draft: drafting.Draft,
    said: str = "",
    refused: bool = False,
) -> Drafting:
    status = drafting.status(draft, table)
    copies = tuple((sky.shape_name(c), _copy_words(c)) for c in status.open_copies)
    ghost = tuple(
        pictures.GhostLine(ln, "" if fits else "cannot be drawn") for ln, fits in status.ghost
    )
    new_lines = frozenset(draft.lines) | (status.board.lines - table.board.lines)
    picture = pictures.board_picture(
        # The draft's lines are drawn dashed, as new (Screens), not as lines of the board.
        status.board.changed(drawn=table.board.drawn),
        day=table.turn.day,
        interactive=True,
        draft=new_lines,
        selected=draft.selected or (draft.shooting[-1] if draft.shooting else None),
        open_copies=status.open_copies,
        chosen_copy=draft.using or (status.open_copies[0] if status.open_copies else None),
        ghost=ghost,
        title="Your board",
        uid="draft",
        field="at",
    )
    power = power_name(table.turn.power)
    return Drafting(
        code=code,
        area=area_id(round_number),
        round=round_number,
        picture=picture,
        fields=drafting.fields(draft),
        line="" if said and status.line in said else status.line,
        said="" if said in status.line else said,
        refused=refused,
        ready=status.ready,
        shooting=table.turn.card is None,
        can_place=table.turn.card is not None and draft.ghost is None and not draft.lines,
        ghost=draft.ghost is not None,
        copies=copies,
        using=draft.using is not None,
        power=power,
        score=status.score.total,
        can_undo=draft != drafting.Draft(),
    )


def _copy_words(copy: frozenset[sky.Line]) -> str:
    return f"the copy {sky.shape_name(copy)}"


# -- the log and the result -------------------------------------------------------------------


def round_line(closed: ClosedRound, names: Names) -> str:
    """What a closed round did, for everyone (V2, V6)."""
    card = "a shooting star" if cards.is_shooting_star(closed.card) else f"shape {closed.card}"
    passed = [
        name_of(names, seat)
        for seat, drawing in enumerate(closed.drawings, start=1)
        if drawing.passed and seat not in closed.passed_by_clock
    ]
    timed_out = [name_of(names, seat) for seat in closed.passed_by_clock]
    parts = [f"Round {closed.number} ({card})"]
    if passed:
        parts.append(f"{listed(passed)} passed")
    if timed_out:
        parts.append(f"the clock passed {listed(timed_out)}")
    if not passed and not timed_out:
        parts.append("everyone drew")
    return ": ".join(parts[:1]) + ": " + "; ".join(parts[1:]) + "."


def result_text(view: View, names: Names) -> str:
    """E6: the winner, a shared win, or a solo score."""
    if not view.ended:
        return ""
    totals = {b.seat: b.score.total for b in view.boards}
    if view.solo:
        return f"Solo: {points(totals[1])}."
    best = max(totals.values())
    who = [name_of(names, s) for s in view.winners]
    if len(who) == 1:
        return f"{who[0]} wins with {best}."
    return f"{listed(who)} share the win with {best}."


# -- the replay -------------------------------------------------------------------------------


def describe(before: State, after: State, names: Names) -> str:
    """What one step of a replay did, in a sentence."""
    if not before.dealt and after.dealt:
        return f"The night began: {len(after.designs)} boards dealt."
    if after.ended and not before.ended:
        return "Round 18 closed: the night is over."
    if len(after.closed) > len(before.closed):
        return round_line(after.closed[-1], names)
    if after.round_number != before.round_number:
        return f"Round {after.round_number}'s card was revealed."
    if after.round is not None and before.round is not None:
        new = sorted(after.round.submitted.keys() - before.round.submitted.keys())
        if new:
            return f"{name_of(names, new[0])} submitted a drawing."
    return ""


def jumps(final: State, names: Names) -> list[tuple[int, str]]:
    return [(r.version, f"Round {r.number} closed") for r in final.closed]
