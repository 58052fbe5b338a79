"""What the Observatory templates read, for one audience (a seat, the public, or a replay).

Everything a browser receives is built here from the rules' ``view_for`` (V1-V3) and nothing
else: every seat's sheet as of the last closed step, ready/choosing per seat, and for the
viewing seat only its six dealt cards while the setup choice runs and its own accepted
submission with the sheet it makes (U3). The Screens of RULES.md: a top bar (Night and turn,
the active seat, the four dice, the clock, a ready dot per seat), the viewer's Star Map, its
Research tracks and goals, the Night Sky with the deck counts (counts only), every other
seat's small map, goals and score, a short log of closed steps, and the end screen (E2, E5,
E6, S3).

The pictures (a Star Map, a card's pattern) are plain coordinates for an SVG: a space is 10
units wide, with a 2-unit gap between sectors (M2), so a map is 130 units square.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from math import cos, pi, sin

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from games.audiences import (
    HISTORY,
    Names,
    WaitingWords,
    listed,
    name_of,
    plural,
    points,
    seat_of,
    waiting_line,
    when_another_seat_submits,
)
from games.audiences import PUBLIC as PUBLIC  # the seam (Screens.of) and tests read these here
from games.audiences import audience_of as audience_of
from games.audiences import audiences as audiences
from games.definition import Earlier, EarlierAsked
from games.fragments import render_fragment
from games.kit import SeatStatus

from . import planner  # it uses map_html at call time only
from .rules import steps
from .rules.decide import default_keep
from .rules.deck import CARDS, BonusKind, Card
from .rules.events import GameEnded
from .rules.model import ClosedStep, DraftPick, Keep, Phase, Source, State, Submission
from .rules.scoring import ScoreSheet
from .rules.sheet import DIE_NAMES, SHOOTING_STAR_DIE, Dice, Sheet, Slot
from .rules.sheet_data import (
    ABILITY_AT,
    BONUS_TRACKS,
    MAP_SIZE,
    POSITIONS,
    SECTORS,
    TRACK_BONUS_AT,
    Track,
    face_label,
    track_value,
)
from .rules.view import SeatView, View, view_for

BOARD = "observatory/board.html"
MAP = "observatory/map.html"
LOG_LINES = 8  # "a short log of closed steps"
WAITING = WaitingWords(acted="ready", step="step", counted="player")

# -- small words ------------------------------------------------------------------------------


# -- the pictures: a Star Map and a card -------------------------------------------------------

SPACE = 10  # SVG units a space
GAP = 2  # between two sectors (M2)
SECTOR_SPAN = 2 * SPACE + GAP
MAP_SPAN = MAP_SIZE * SPACE + (MAP_SIZE // 2 - 1) * GAP  # 130
LABEL_MARGIN = 9  # the edge labels' band, top and left


def _centre(index: int) -> float:
    """The centre of map row or column ``index`` (1-12) in SVG units."""
    return (index - 1) * SPACE + (index - 1) // 2 * GAP + SPACE / 2


def _star_path(outer: float, inner: float) -> str:
    """A five-pointed star ★ centred on 0, 0, point up."""
    corners = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -pi / 2 + i * pi / 5
        corners.append(f"{radius * cos(angle):.2f},{radius * sin(angle):.2f}")
    return "M" + " ".join(corners) + "Z"


STAR_PATH = _star_path(4.6, 1.9)


@dataclass(frozen=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Mark:
    """A star on a map: used (in a completed constellation, P7) or not, and new (plotted by
    the viewer's own accepted submission, seen by that seat only until the step closes)."""

    x: float
    y: float
    used: bool
    new: bool
    label: str


@dataclass(frozen=True)
class FigureMark:
    """A completed constellation as drawn: its card's name and its lines (C6, C8)."""

    name: str
    lines: tuple[Segment, ...]
    new: bool


@dataclass(frozen=True)
class SectorBox:
    """A sector's square (M2), every other one shaded like a chessboard."""

    x: float
    y: float
    shaded: bool


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str


@dataclass(frozen=True)
class MapPicture:
    title: str
    uid: str
    labels: bool  # the edge labels "? 2 3 4 5 6" (not on the small maps)
    view_box: str
    size: int
    sectors: tuple[SectorBox, ...]
    star: str  # the ★'s SVG path
    sector_pitch: int  # a sector and its gap: the dots' pattern tiles at this pitch
    stars: tuple[Mark, ...]
    figures: tuple[FigureMark, ...]
    edge: tuple[Label, ...]
    summary: str  # the picture in words (its aria-label)
    names: tuple[str, ...]  # the constellations drawn, in claim order
    any_new: bool


def map_picture(
    sheet: Sheet, title: str, uid: str, *, labels: bool, before: Sheet | None
) -> MapPicture:
    """A Star Map: ``before`` is the same seat's public sheet when ``sheet`` carries its own
    accepted submission (what differs is marked new)."""
    old_stars = before.stars if before is not None else sheet.stars
    old_cards = set(before.completed) if before is not None else set(sheet.completed)
    used = sheet.used_stars
    marks = tuple(
        Mark(_centre(c), _centre(r), (r, c) in used, (r, c) not in old_stars, f"({r}, {c})")
        for r, c in sorted(sheet.stars)
    )
    drawn = tuple(
        FigureMark(
            CARDS[figure.card].name,
            tuple(
                Segment(_centre(a[1]), _centre(a[0]), _centre(b[1]), _centre(b[0]))
                for a, b in figure.lines
            ),
            figure.card not in old_cards,
        )
        for figure in sheet.figures
    )
    margin = LABEL_MARGIN if labels else 1
    return MapPicture(
        title=title,
        uid=uid,
        labels=labels,
        view_box=f"{-margin} {-margin} {MAP_SPAN + margin + 1} {MAP_SPAN + margin + 1}",
        size=MAP_SPAN,
        sectors=tuple(
            SectorBox((c - 1) * SECTOR_SPAN, (r - 1) * SECTOR_SPAN, (r + c) % 2 == 1)
            for r, c in SECTORS
        ),
        star=STAR_PATH,
        sector_pitch=SECTOR_SPAN,
        stars=marks,
        figures=drawn,
        edge=_edge_labels() if labels else (),
        summary=_map_summary(sheet, title),
        names=tuple(mark.name for mark in drawn),
        any_new=any(m.new for m in marks) or any(f.new for f in drawn),
    )


def _edge_labels() -> tuple[Label, ...]:
    """M2: sector-rows down the left edge and sector-columns along the top, "?" for 1."""
    labels = []
    for v in range(1, MAP_SIZE // 2 + 1):
        middle = (v - 1) * SECTOR_SPAN + SPACE
        labels.append(Label(middle, -2.6, face_label(v)))
        labels.append(Label(-4.5, middle + 2.2, face_label(v)))
    return tuple(labels)


def _map_summary(sheet: Sheet, title: str) -> str:
    used = len(sheet.used_stars)
    names = [CARDS[card].name for card in sheet.completed]
    drawn = f"; constellations: {listed(names)}" if names else "; no constellation yet"
    return f"{title}: {plural(len(sheet.stars), 'star')}, {used} in constellations{drawn}."


@lru_cache(maxsize=1024)
def map_html(
    sheet: Sheet, title: str, uid: str, labels: bool = True, before: Sheet | None = None
) -> SafeString:
    """A Star Map, drawn once: every audience of a push shows the same public sheets, so
    each is rendered once per change (a sheet is an immutable value)."""
    picture = map_picture(sheet, title, uid, labels=labels, before=before)
    return mark_safe(render_fragment(MAP, {"map": picture}))


CARD_CELL = 8  # SVG units between two dots of a card's pattern


@dataclass(frozen=True)
class CardPicture:
    """A Constellation card as a small star picture, with its points and bonus (C1, X2, B1)."""

    id: str
    name: str
    kind: str  # "large", "small", "asterism"
    size: str  # "Large", "Small", "Asterism"
    value: str  # "6 points", or "Asterism" (E3 scores them together)
    bonus: str  # "Bonus: Shooting Star 3", "No bonus"
    bonus_icon: str
    view_box: str
    stars: tuple[Point, ...]
    lines: tuple[Segment, ...]
    summary: str
    kept: bool = False  # the viewer kept it (its own setup choice, U3)


BONUS_WORDS = {
    BonusKind.NONE: ("No bonus", "–"),
    BonusKind.RESEARCH: ("Bonus: Research", "✚"),
    BonusKind.FREE_STAR: ("Bonus: Free Star", "☆"),
}


def bonus_text(card: Card) -> tuple[str, str]:
    if card.bonus.kind is BonusKind.SHOOTING_STAR:
        return f"Bonus: Shooting Star {card.bonus.value}", "☄"
    return BONUS_WORDS[card.bonus.kind]


def value_text(card: Card) -> str:
    return "Asterism" if card.asterism else points(card.points or 0)


@lru_cache(maxsize=256)
def card_picture(card_id: str, kept: bool = False) -> CardPicture:
    card = CARDS[card_id]
    height = max(r for r, _ in card.stars) + 1
    width = max(c for _, c in card.stars) + 1
    side = max(height, width)

    def at(offset: tuple[int, int]) -> Point:
        # centred in a square, whatever the pattern's own width and height
        r, c = offset
        return Point(
            (c + (side - width) / 2) * CARD_CELL + CARD_CELL / 2,
            (r + (side - height) / 2) * CARD_CELL + CARD_CELL / 2,
        )

    points_at = tuple(at(offset) for offset in card.stars)
    lines = tuple(
        Segment(points_at[a].x, points_at[a].y, points_at[b].x, points_at[b].y)
        for a, b in card.lines
    )
    bonus, icon = bonus_text(card)
    size = "Asterism" if card.asterism else card.size.capitalize()
    span = side * CARD_CELL
    return CardPicture(
        id=card.id,
        name=card.name,
        kind="asterism" if card.asterism else card.size,
        size=size,
        value=value_text(card),
        bonus=bonus,
        bonus_icon=icon,
        view_box=f"0 0 {span} {span}",
        stars=points_at,
        lines=lines,
        summary=(
            f"{card.name} ({card.id}): {plural(len(card.stars), 'star')}, "
            f"{plural(len(card.lines), 'line')}"
        ),
        kept=kept,
    )


# -- the Research tracks -----------------------------------------------------------------------

TRACK_NAMES = {track: track.value.capitalize() for track in Track}
ABILITY_WORDS = {
    Track.LENS: "Lens: ±1 on a die",
    Track.DRIVE: "Drive: a wild number",
    Track.FINDER: "4 Finder stars",
    Track.FILTER: "Filter: bonuses twice",
    Track.FUNDING: "1 point a space",
}


@dataclass(frozen=True)
class Box:
    value: str
    filled: bool
    new: bool  # filled by the viewer's own accepted submission
    label: str


@dataclass(frozen=True)
class TrackRow:
    name: str
    boxes: tuple[Box, ...]
    filled: int
    bonus: str  # at 3 filled: "track bonus gained" / "track bonus at 3"; "" for Funding
    bonus_gained: bool
    ability: str
    ability_gained: bool


def track_rows(sheet: Sheet, before: Sheet | None = None) -> tuple[TrackRow, ...]:
    old: frozenset[Slot] = before.research if before is not None else sheet.research
    return tuple(_track_row(sheet, track, old) for track in Track)


def _track_row(sheet: Sheet, track: Track, old: frozenset[Slot]) -> TrackRow:
    boxes = tuple(
        Box(
            face_label(track_value(track, p)),
            (track, p) in sheet.research,
            (track, p) in sheet.research and (track, p) not in old,
            f"{TRACK_NAMES[track]} space {p}, value {face_label(track_value(track, p))}"
            + (", filled" if (track, p) in sheet.research else ", empty"),
        )
        for p in POSITIONS
    )
    count = sheet.count(track)
    gained = track in BONUS_TRACKS and count >= TRACK_BONUS_AT
    bonus = ""
    if track in BONUS_TRACKS:
        bonus = "◉ bonus gained" if gained else f"○ bonus at {TRACK_BONUS_AT}"
    ability_gained = count >= ABILITY_AT and track is not Track.FUNDING
    ability = ("✓ " if ability_gained else f"at {ABILITY_AT}: ") + ABILITY_WORDS[track]
    if track is Track.FUNDING:
        ability = f"{ABILITY_WORDS[track]}: {count} now"
    return TrackRow(TRACK_NAMES[track], boxes, count, bonus, gained, ability, ability_gained)


def sheet_facts(sheet: Sheet) -> tuple[str, ...]:
    """Banked track bonuses, Finder stars left, the Drive number (R4-R9)."""
    drive = (
        f"Drive number {sheet.drive} (wild)" if sheet.drive is not None else "No Drive number yet"
    )
    return (
        f"◉ {plural(sheet.banked, 'banked track bonus')}".replace("bonuss", "bonuses"),
        f"✦ {plural(sheet.finder_left, 'Finder star')} left",
        drive,
    )


# -- the score (E2) ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    label: str
    value: str


def score_lines(score: ScoreSheet, sheet: Sheet) -> tuple[Line, ...]:
    """E2's four parts, with what each counts, and the total."""
    cards = sum(1 for c in sheet.completed if not CARDS[c].asterism)
    return (
        Line("Cards", f"{score.cards} ({plural(cards, 'card')})"),
        Line("Asterisms", f"{score.asterisms} ({score.asterism_count} completed)"),
        Line("Funding", f"{score.funding} ({plural(sheet.count(Track.FUNDING), 'space')})"),
        Line("Unused stars", f"{score.unused} ({score.unused_stars} ÷ 2)"),
        Line("Total", str(score.total)),
    )


# -- what the template reads ------------------------------------------------------------------


@dataclass(frozen=True)
class DieFace:
    label: str  # "?", "2".."6"
    name: str  # "1st blue", "orange"
    orange: bool
    note: str  # "not yours", "Ana's only", ""
    words: str  # for a screen reader


@dataclass(frozen=True)
class ReadyDot:
    seat: int
    name: str
    you: bool
    active: bool
    status: str  # "ready", "choosing", "" (no simultaneous step runs)


@dataclass(frozen=True)
class SeatPanel:
    seat: int
    name: str
    you: bool
    active: bool
    status: str
    score: int
    winner: bool
    map_html: SafeString
    goals: tuple[CardPicture, ...]
    completed: tuple[CardPicture, ...]
    tracks: tuple[TrackRow, ...]
    facts: tuple[str, ...]
    breakdown: tuple[Line, ...]


@dataclass(frozen=True)
class Board:
    code: str
    audience: str
    version: int
    dealt: bool
    ended: bool
    history: bool
    spectator: bool
    mode: str  # "Night 2/6 · turn 3/3"
    active: str  # "Ana rolls" / ""
    dice: tuple[DieFace, ...]
    ready: tuple[ReadyDot, ...]
    you: str
    turn: str  # what to do now, or whom the table waits for
    own_steps: tuple[str, ...]  # the viewer's own accepted submission, step by step
    deadline: str | None
    server_now: str
    step_seconds: int | None
    result: str
    own: SeatPanel | None  # the viewer's sheet (with its accepted submission)
    own_note: str
    hand: tuple[CardPicture, ...]  # the viewer's six dealt cards, while the choice runs
    sky_large: tuple[CardPicture | None, ...]
    sky_small: tuple[CardPicture | None, ...]
    large_left: str
    small_left: str
    others: tuple[SeatPanel, ...]  # every seat but the viewer (all, for a spectator)
    final: tuple[SeatPanel, ...]  # the end screen: every sheet, highest score first
    log: tuple[str, ...]
    last: str  # the newest log line, under the top bar while the game runs
    plan: bool  # the viewer may submit or choose now (the plan strip's place)
    plan_area: planner.PlanArea | None = None  # the plan strip, while the seat may submit
    choosing: Choosing | None = None  # G3's prompt, while the seat may choose
    drafting: Drafting | None = None  # G5's prompt, while the seat drafts


@dataclass(frozen=True)
class Choosing:
    """G3: keep 4 of your 6: each card with its checkbox (``keep-n``), ticked as the clock
    would keep them (T5) until the seat chooses."""

    round: int
    boxes: tuple[tuple[int, CardPicture, bool], ...]  # (box number, card, ticked)


@dataclass(frozen=True)
class Drafting:
    """G5, G6: the drafting seat takes a face-up card or a deck's top, one at a time."""

    version: int
    left: int  # replacements still to take
    large_deck: bool  # the deck holds a card
    small_deck: bool


def _choosing(state: State, view: View) -> Choosing | None:
    if view.seat is None or not view.can_choose or state.choice is None:
        return None
    ticked = set(default_keep(state, view.seat).cards)
    boxes = tuple(
        (n, card_picture(card), card in ticked) for n, card in enumerate(view.hand, start=1)
    )
    return Choosing(state.choice.number, boxes)


def _drafting(view: View) -> Drafting | None:
    if view.seat is None or not view.can_pick:
        return None
    return Drafting(view.version, view.picks_left, view.large_left > 0, view.small_left > 0)


def present(
    state: State,
    audience: str,
    names: Names,
    code: str,
    now: datetime | None = None,
    *,
    history: bool = False,
    best_solo: int | None = None,
) -> Board:
    seat = seat_of(audience)
    view = view_for(state, seat, best_solo=best_solo)
    panels = tuple(_panel(view, s, names) for s in view.seats)
    log = log_lines(view, names)
    return Board(
        code=code,
        audience=audience,
        version=view.version,
        dealt=view.dealt,
        ended=view.ended,
        history=history,
        spectator=view.seat is None,
        mode=mode_text(view),
        active=f"{name_of(names, view.active)} rolls" if view.active is not None else "",
        dice=_dice(view, names),
        ready=_ready(view, names),
        you=_you(view, names, panels),
        turn=_turn(view, names, history),
        own_steps=_own_steps(view),
        deadline=view.deadline.isoformat() if view.deadline and not history else None,
        server_now=(now or timezone.now()).isoformat(),
        step_seconds=view.step_seconds,
        result=result_text(view, names),
        own=_own_panel(view, names) if not view.ended else None,
        own_note=_own_note(view),
        hand=_hand(view),
        sky_large=tuple(card_picture(c) if c else None for c in view.sky_large),
        sky_small=tuple(card_picture(c) if c else None for c in view.sky_small),
        large_left=f"Large deck: {plural(view.large_left, 'card')} left",
        small_left=f"Small deck: {plural(view.small_left, 'card')} left",
        others=tuple(p for p in panels if not p.you) if not view.ended else (),
        final=tuple(sorted(panels, key=lambda p: (-p.score, p.seat))) if view.ended else (),
        log=log,
        last=log[0] if log and not view.ended else "",
        plan=not history and (view.can_submit or view.can_choose or view.can_pick),
        plan_area=(
            planner.plan_area(state, seat, (), now or timezone.now())
            if seat is not None and view.can_submit and not history
            else None
        ),
        choosing=None if history else _choosing(state, view),
        drafting=None if history else _drafting(view),
    )


def best_solo_asked(state: State, audience: str) -> EarlierAsked | None:
    """S3: only a solo game's end screen, for its seat, shows the player's best earlier solo
    score: only it asks the platform for their earlier solo games."""
    seat = seat_of(audience)
    if seat is None or not state.solo or not state.ended:
        return None
    return EarlierAsked(seat=seat, players=1)


def present_with_best_solo(
    state: State, audience: str, names: Names, code: str, earlier: Sequence[Earlier]
) -> Board:
    """S3: the board, with the best final score of the seat's player's earlier solo games."""
    scores = [
        game.last_event.scores[game.seat - 1].total
        for game in earlier
        if isinstance(game.last_event, GameEnded)
    ]
    return present(state, audience, names, code, best_solo=max(scores, default=None))


# The platform's pushes by area: another seat's submission (a turn's steps, or the cards it
# keeps) changes only the top bar (its ready dot) and the line under it (whom the table
# waits for); every sheet on the page stays as of the last closed step (V2, V3).
areas = when_another_seat_submits("status", "say")


def present_history(state: State, names: Names, code: str) -> Board:
    """A step of a replay: every sheet as of the last closed step, nothing to press."""
    return present(state, HISTORY, names, code, history=True)


# -- the top bar ------------------------------------------------------------------------------


def mode_text(view: View) -> str:
    """Where the game is: "Night 2/6 · turn 3/3" (Screens)."""
    night = f"Night {view.night}/{view.nights}"
    match view.phase:
        case Phase.UNDEALT:
            return "Observatory"
        case Phase.CHOICE:
            return "Setup choice · keep 4 of 6"
        case Phase.OPENING:
            return f"{night} · opening"
        case Phase.TURN:
            return f"{night} · turn {view.turn}/{view.turns}"
        case Phase.DRAFT:
            return f"{night} · draft after turn {view.turn}/{view.turns}"
        case Phase.ENDED:
            return f"The game is over · {view.nights} Nights played"
    return ""


def _dice(view: View, names: Names) -> tuple[DieFace, ...]:
    dice: Dice | None = view.dice
    if dice is None:
        return ()
    faces = []
    for die in range(SHOOTING_STAR_DIE + 1):
        orange = die == SHOOTING_STAR_DIE
        label = face_label(dice.face(die))
        name = "orange" if orange else ("1st", "2nd", "3rd")[die] + " blue"
        note = _orange_note(view, names) if orange else ""
        wild = " (1: wild)" if label == "?" else ""
        faces.append(DieFace(label, name, orange, note, f"{DIE_NAMES[die]}: {label}{wild}"))
    return tuple(faces)


def _orange_note(view: View, names: Names) -> str:
    """N7: only the active seat uses the Shooting Star die."""
    if view.active is None or view.seat == view.active:
        return "yours" if view.seat is not None else ""
    if view.seat is None:
        return f"{name_of(names, view.active)}'s only"
    return "not yours"


def _status_word(status: SeatStatus | None) -> str:
    if status is None:
        return ""
    return "ready" if status == SeatStatus.DONE else "choosing"


def _ready(view: View, names: Names) -> tuple[ReadyDot, ...]:
    return tuple(
        ReadyDot(
            s.seat,
            name_of(names, s.seat),
            s.seat == view.seat,
            s.seat == view.active,
            _status_word(s.status),
        )
        for s in view.seats
    )


def _you(view: View, names: Names, panels: Sequence[SeatPanel]) -> str:
    if not view.dealt:
        return ""
    if view.seat is None:
        return "You are watching: every sheet as of the last closed step."
    mine = panels[view.seat - 1]
    solo = " · Solo" if view.solo else ""
    return f"You: {name_of(names, view.seat)}, Seat {view.seat}{solo} · {points(mine.score)}"


def _waiting(view: View) -> list[int]:
    return [s.seat for s in view.seats if s.status == SeatStatus.CHOOSING]


def _turn(view: View, names: Names, history: bool) -> str:
    if view.ended or not view.dealt or history:
        return ""
    if view.phase is Phase.DRAFT:
        return _draft_turn(view, names)
    waiting = _waiting(view)
    if view.can_choose:
        return "Keep 4 of your 6 dealt cards (any mix); the other 2 go back under their decks."
    if view.can_submit:
        return _submit_turn(view)
    acted = view.seat if view.round or view.choice else None
    return waiting_line(WAITING, waiting, names, acted)


def _submit_turn(view: View) -> str:
    if view.phase is Phase.OPENING:
        return "Night opening: take a free star in any empty space, or one research space."
    if view.seat == view.active:
        return (
            "Your roll: plot with two blue dice, research with the third, "
            "and plot with the orange die."
        )
    return (
        "Plot a star with two blue dice and research with the third (the orange die is not yours)."
    )


def _draft_turn(view: View, names: Names) -> str:
    if view.drafter is None:
        return ""
    more = plural(view.picks_left, "card")
    if view.can_pick:
        return f"Draft: take {more} more — a face-up card of the Night Sky or the top of a deck."
    return f"Draft: {name_of(names, view.drafter)} takes {more} to replace completed goals."


def _own_steps(view: View) -> tuple[str, ...]:
    """The viewer's own accepted submission (U3: that seat only, until the step closes)."""
    if view.seat is None:
        return ()
    if view.round is not None and isinstance(view.round.own, Submission):
        found = tuple(steps.describe(step) for step in view.round.own.steps)
        return found or ("pass",)
    if view.choice is not None and isinstance(view.choice.own, Keep):
        return tuple(f"keep {CARDS[card].name}" for card in view.choice.own.cards)
    return ()


# -- sheets -----------------------------------------------------------------------------------


def _panel(view: View, seat: SeatView, names: Names) -> SeatPanel:
    """One seat's public sheet (V1), as of the last closed step."""
    name = name_of(names, seat.seat)
    small = not view.ended
    return SeatPanel(
        seat=seat.seat,
        name=name,
        you=seat.seat == view.seat,
        active=seat.seat == view.active,
        status=_status_word(seat.status),
        score=seat.score.total,
        winner=seat.seat in view.winners,
        map_html=map_html(seat.sheet, f"{name}'s Star Map", f"seat-{seat.seat}", not small),
        goals=tuple(card_picture(card) for card in seat.sheet.goals),
        completed=tuple(card_picture(card) for card in seat.sheet.completed),
        tracks=track_rows(seat.sheet),
        facts=sheet_facts(seat.sheet),
        breakdown=score_lines(seat.score, seat.sheet),
    )


def _own_panel(view: View, names: Names) -> SeatPanel | None:
    """The viewer's own sheet, full size: with its accepted submission if any (U3)."""
    if view.seat is None or not view.dealt:
        return None
    public = view.seats[view.seat - 1]
    sheet = view.own if view.own is not None else public.sheet
    before = public.sheet if view.own is not None else None
    return SeatPanel(
        seat=view.seat,
        name=name_of(names, view.seat),
        you=True,
        active=view.seat == view.active,
        status=_status_word(public.status),
        score=public.score.total,
        winner=False,
        map_html=map_html(sheet, "Your Star Map", "own", True, before),
        goals=tuple(card_picture(card) for card in sheet.goals),
        completed=tuple(card_picture(card) for card in sheet.completed),
        tracks=track_rows(sheet, before),
        facts=sheet_facts(sheet),
        breakdown=score_lines(public.score, public.sheet),
    )


def _own_note(view: View) -> str:
    if view.own is None:
        return ""
    return "With your accepted submission (◇ marks it): only you see it until the step closes."


def _hand(view: View) -> tuple[CardPicture, ...]:
    """V2: the viewer's own six dealt cards while the setup choice runs, its kept ones marked."""
    kept: tuple[str, ...] = ()
    if view.choice is not None and isinstance(view.choice.own, Keep):
        kept = view.choice.own.cards
    return tuple(card_picture(card, card in kept) for card in view.hand)


# -- the log and the result -------------------------------------------------------------------


def _completion(card_id: str) -> str:
    card = CARDS[card_id]
    return f"{card.name} (Asterism)" if card.asterism else f"{card.name} (+{card.points})"


def step_line(closed: ClosedStep, names: Names) -> str:
    """A closed Night opening or turn, for everyone (V1, U3: revealed once closed)."""
    when = f"Night {closed.night} " + ("opening" if closed.turn == 0 else f"turn {closed.turn}")
    parts = [
        f"{name_of(names, seat)} completed {listed([_completion(c) for c in cards])}"
        for seat, cards in enumerate(closed.completed, start=1)
        if cards
    ]
    passed = [
        name_of(names, seat)
        for seat, sub in enumerate(closed.submissions, start=1)
        if sub is not None and not sub.entries
    ]
    if passed:
        parts.append(f"{listed(passed)} passed")
    if closed.skipped:
        parts.append(f"{listed([name_of(names, s) for s in closed.skipped])} skipped by the clock")
    if not parts:
        parts.append("no constellation completed")
    return f"{when} closed: {'; '.join(parts)}."


SOURCE_WORDS = {
    Source.LARGE_ROW: "the Large row",
    Source.SMALL_ROW: "the Small row",
    Source.LARGE_DECK: "the top of the Large deck",
    Source.SMALL_DECK: "the top of the Small deck",
}


def pick_line(pick: DraftPick, names: Names) -> str:
    where = SOURCE_WORDS[pick.source]
    if pick.slot is not None:
        where += f", slot {pick.slot}"
    clock = " (by the clock)" if pick.by_clock else ""
    return f"{name_of(names, pick.seat)} took {CARDS[pick.card].name} from {where}{clock}."


def log_lines(view: View, names: Names) -> tuple[str, ...]:
    """The last closed steps and draft picks, newest first."""
    entries: list[tuple[int, str]] = [(c.version, step_line(c, names)) for c in view.closed]
    entries += [(p.version, pick_line(p, names)) for p in view.picks]
    entries.sort(key=lambda entry: -entry[0])
    return tuple(line for _, line in entries[:LOG_LINES])


def result_text(view: View, names: Names) -> str:
    """E5, S3: the winner, the tie-break that decided it, a shared win, or a solo score."""
    if not view.ended:
        return ""
    totals = {s.seat: s.score.total for s in view.seats}
    if view.solo:
        best = (
            f" Your best earlier solo score here: {points(view.best_solo)}."
            if view.best_solo is not None
            else ""
        )
        return f"Solo: {points(totals[1])}.{best}"
    best_total = max(totals.values())
    tied = [s for s, total in totals.items() if total == best_total]
    cards = {s.seat: s.score.completed for s in view.seats}
    who = [name_of(names, s) for s in view.winners]
    if len(who) == 1 and len(tied) > 1:
        return (
            f"{who[0]} wins with {best_total}: tied on points, the fewest completed cards "
            f"({cards[view.winners[0]]}) breaks the tie."
        )
    if len(who) == 1:
        return f"{who[0]} wins with {points(best_total)}."
    each = cards[view.winners[0]]
    return f"{listed(who)} share the win: {best_total} points and {each} completed cards each."


# -- the replay -------------------------------------------------------------------------------


def describe(before: State, after: State, names: Names) -> str:
    """What one step of a replay did, in a sentence."""
    if not before.dealt and after.dealt:
        first = name_of(names, after.first_player)
        return (
            f"The game was dealt to {plural(after.players, 'seat')}; {first} is the first player."
        )
    if after.ended and not before.ended:
        return "The last turn closed: the game is over."
    if len(after.closed) > len(before.closed):
        return step_line(after.closed[-1], names)
    if len(after.picks) > len(before.picks):
        return pick_line(after.picks[-1], names)
    if before.phase is Phase.CHOICE and after.phase is not Phase.CHOICE:
        return "Every seat kept 4 cards: the Night Sky is turned face up."
    started = _started(before, after, names)
    return started or _submitted(before, after, names)


def _started(before: State, after: State, names: Names) -> str:
    if (after.night, after.turn, after.phase) == (before.night, before.turn, before.phase):
        return ""
    if after.phase is Phase.OPENING:
        return f"Night {after.night} opens with a Night bonus."
    if after.phase is Phase.TURN and after.active is not None and after.dice is not None:
        who = name_of(names, after.active)
        return f"Night {after.night}, turn {after.turn}: {who} rolled {after.dice}."
    if after.phase is Phase.DRAFT:
        return f"The draft begins after Night {after.night} turn {after.turn}."
    return ""


def _submitted(before: State, after: State, names: Names) -> str:
    for old, new in ((before.round, after.round), (before.choice, after.choice)):
        if old is not None and new is not None and old.number == new.number:
            fresh = sorted(new.submitted.keys() - old.submitted.keys())
            if fresh:
                return f"{name_of(names, fresh[0])} is ready."
    return ""


def jumps(final: State, names: Names) -> list[tuple[int, str]]:
    return [
        (c.version, f"Night {c.night} " + ("opening" if c.turn == 0 else f"turn {c.turn}"))
        for c in final.closed
    ]
