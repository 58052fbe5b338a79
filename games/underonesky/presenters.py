"""What a template receives: the table as one audience may see it, built from the seat's
view. Templates never see the rule state, so they cannot show a card they were not given."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from . import rules
from .rules.geometry import extent

PUBLIC = "public"
HISTORY = "history"  # a replay sees every card: the game is over, or a moderator is looking

GLYPHS = {  # a shape for each colour, so colour is never the only clue
    rules.Tile.BLUE: "◆",
    rules.Tile.ORANGE: "▲",
    rules.Tile.YELLOW: "●",
    rules.Tile.NORTH: "✦",
}
SHAPES = {
    rules.Tile.BLUE: "diamond",
    rules.Tile.ORANGE: "triangle",
    rules.Tile.YELLOW: "circle",
    rules.Tile.NORTH: "four-pointed star",
}
ACTIONS = {
    rules.Tile.BLUE: "move one tile next to it one space up, down, left or right",
    rules.Tile.ORANGE: "move one tile next to it one space diagonally",
    rules.Tile.YELLOW: "turn the board 90° clockwise",
}
WAYS = {rules.Tile.BLUE: "up, down, left or right", rules.Tile.ORANGE: "diagonally"}
ARROWS = {rules.Compass.N: "↑", rules.Compass.E: "→", rules.Compass.S: "↓", rules.Compass.W: "←"}
POINTS = {  # where the chart's north points on the screen
    rules.Compass.N: "up",
    rules.Compass.E: "right",
    rules.Compass.S: "down",
    rules.Compass.W: "left",
}


def audience_of(state: rules.State, seat: int | None) -> str:
    """Who this viewer is for pushes: one of the two players, or the public."""
    if seat in (1, 2) and state.dealt:
        return f"seat-{seat}"
    return PUBLIC


def audiences(state: rules.State) -> list[str]:
    return [PUBLIC, "seat-1", "seat-2"]


def _seat_of(audience: str) -> int | None:
    role, _, number = audience.partition("-")
    return int(number) if role == "seat" and number in ("1", "2") else None


def tile_name(tile: rules.Tile) -> str:
    if tile is rules.Tile.NORTH:
        return "the North Star"
    return f"{tile.value} star ({SHAPES[tile]})"


@dataclass(frozen=True)
class TilePresenter:
    colour: str
    glyph: str
    name: str


def _tile(tile: rules.Tile) -> TilePresenter:
    return TilePresenter(tile.value, GLYPHS[tile], tile_name(tile))


@dataclass(frozen=True)
class SpacePresenter:
    index: int
    label: str  # A1..E5
    tile: TilePresenter | None
    target: bool = False  # an empty space this player may place on now
    origin: bool = False  # a tile this player may move now
    dest: bool = False  # an empty space a move may end on now
    sources: str = ""  # the classes naming the origins that can reach this space
    placed: bool = False  # this turn's tile (its action is due)
    completed: bool = False  # part of a completed constellation

    @property
    def description(self) -> str:
        what = self.tile.name if self.tile else "empty"
        return f"{self.label}, {what}"


@dataclass(frozen=True)
class CardPresenter:
    title: str  # "Your constellation", "Bo's constellation", "The face-down card"
    name: str
    rows: tuple[tuple[bool, ...], ...]  # the shape as it must lie on the board
    mine: bool


@dataclass(frozen=True)
class Board:
    code: str
    audience: str
    version: int
    ended: bool
    result: str
    history: bool
    chart: str
    chart_title: str
    compass: str
    compass_arrow: str
    compass_text: str
    spaces: tuple[SpacePresenter, ...]
    face_up: tuple[TilePresenter, ...]
    stack_count: int
    cards: tuple[CardPresenter, ...]
    turn_text: str
    hint: str
    last: str
    log: tuple[str, ...]
    can_place: bool
    can_move: bool
    deadline: str | None
    server_now: str
    step_seconds: int | None


def present(
    state: rules.State,
    audience: str,
    names: Mapping[int, str],
    code: str,
    now: datetime | None = None,
    *,
    history: bool = False,
) -> Board:
    seat = _seat_of(audience)
    view = rules.view_for(state, seat, reveal=audience == HISTORY)
    can_place = bool(view.targets) and not history
    can_move = bool(view.moves) and not history
    return Board(
        code=code,
        audience=audience,
        version=view.version,
        ended=state.ended,
        result=result_text(state, names),
        history=history,
        chart=view.chart.value if view.chart else "",
        chart_title=rules.CHARTS[view.chart].title if view.chart else "",
        compass=view.compass.value,
        compass_arrow=ARROWS[view.compass],
        compass_text=f"The chart's north points {POINTS[view.compass]}.",
        spaces=_spaces(view, can_place, can_move),
        face_up=tuple(_tile(t) for t in view.face_up),
        stack_count=view.stack_count,
        cards=tuple(_card(c, seat, names) for c in view.cards),
        turn_text=_turn_text(state, seat, names, watching=audience == PUBLIC),
        hint=_hint(view, names) if not history else "",
        last=_last_turn(state, names),
        log=tuple(_turn_line(t, names) for t in reversed(state.turns) if t.tile),
        can_place=can_place,
        can_move=can_move,
        deadline=view.deadline.isoformat() if view.deadline and not history else None,
        server_now=(now or timezone.now()).isoformat(),
        step_seconds=view.step_seconds,
    )


def present_history(state: rules.State, names: Mapping[int, str], code: str) -> Board:
    """A step of a replay: every card, nothing to press, no clock."""
    return present(state, HISTORY, names, code, history=True)


def _spaces(view: rules.SeatView, can_place: bool, can_move: bool) -> tuple[SpacePresenter, ...]:
    targets = set(view.targets) if can_place else set()
    moves = view.moves if can_move else ()
    origins = {o for o, _ in moves}
    sources: dict[int, list[int]] = {}
    for origin, target in moves:
        sources.setdefault(target, []).append(origin)
    completed = set(view.completed)
    return tuple(
        SpacePresenter(
            index=i,
            label=rules.label(i),
            tile=_tile(tile) if tile else None,
            target=i in targets,
            origin=i in origins,
            dest=i in sources,
            sources=" ".join(f"from-{o}" for o in sorted(sources.get(i, ()))),
            placed=i == view.placed,
            completed=i in completed,
        )
        for i, tile in enumerate(view.board)
    )


def _card(card: rules.CardView, seat: int | None, names: Mapping[int, str]) -> CardPresenter:
    if card.seat is None:
        title = "The face-down card"
    elif card.seat == seat:
        title = "Your constellation"
    else:
        title = f"{names.get(card.seat, f'Seat {card.seat}')}'s constellation"
    rows, columns = extent(card.shape)
    stars = set(card.shape)
    grid = tuple(tuple((r, c) in stars for c in range(columns)) for r in range(rows))
    return CardPresenter(title=title, name=card.card.name, rows=grid, mine=card.seat == seat)


def _name(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, f"Seat {seat}")


def _turn_text(
    state: rules.State, seat: int | None, names: Mapping[int, str], *, watching: bool = False
) -> str:
    """Whose turn it is, said to this player (or to a spectator, who is told so)."""
    if state.ended or not state.dealt:
        return ""
    if seat == state.seat:
        task = "move a tile" if state.step is rules.Step.ACTING else "place a tile"
        return f"Your turn (turn {state.turn}): {task}"
    theirs = f"{_name(names, state.seat)}'s turn (turn {state.turn})"
    if watching:
        return f"You are watching: {theirs}"
    return f"Wait: it is {theirs}" if seat is not None else theirs


def _hint(view: rules.SeatView, names: Mapping[int, str]) -> str:
    """The step hint: what the player whose turn it is does now."""
    if view.step in (rules.Step.SETUP, rules.Step.ENDED):
        return ""
    if view.step is rules.Step.PLACING:
        if view.my_turn:
            return (
                "Pick a tile beside the board, or the blind tile from the stack, "
                "then an empty space for it."
            )
        return f"{_name(names, view.turn_seat)} is placing a tile."
    tile, placed = view.placed_tile, view.placed
    assert tile is not None and placed is not None, "while acting, the placed tile is known"
    if view.my_turn:
        return (
            f"Now move a tile {WAYS[tile]}: pick one next to your {tile.value} star on "
            f"{rules.label(placed)}, then a highlighted empty space."
        )
    return f"{_name(names, view.turn_seat)} is moving a tile {WAYS[tile]}."


def _last_turn(state: rules.State, names: Mapping[int, str]) -> str:
    """The last finished turn: what the other player just did."""
    done = state.turns if state.ended else state.turns[:-1]
    return _turn_line(done[-1], names) if done else ""


def _turn_line(turn: rules.TurnRecord, names: Mapping[int, str]) -> str:
    """One turn in a sentence, spaces named as the board stood then."""
    if turn.tile is None or turn.space is None:
        return ""  # the turn has no placed tile yet
    who = _name(names, turn.seat)
    star = f"{'an' if turn.tile is rules.Tile.ORANGE else 'a'} {turn.tile.value} star"
    source = f"the blind tile, {star}" if turn.blind else star
    clock = " Time ran out: the clock placed" if turn.by_clock else f" {who} placed"
    line = f"Turn {turn.number}:{clock} {source} on {rules.label(turn.space)}"
    if turn.action is rules.Action.ROTATED:
        return f"{line}, and the board turned 90° clockwise."
    if turn.action is rules.Action.SKIPPED:
        way = WAYS[turn.tile]
        return f"{line}; no tile next to it could move {way}, so its action was skipped."
    if turn.action is rules.Action.MOVED:
        assert turn.origin is not None and turn.target is not None, "a move has both spaces"
        mover = " (by the clock)" if turn.by_clock else ""
        return (
            f"{line}, and moved the tile on {rules.label(turn.origin)} to "
            f"{rules.label(turn.target)}{mover}."
        )
    return f"{line}."


def result_text(state: rules.State, names: Mapping[int, str]) -> str:
    if not state.ended:
        return ""
    if state.finish is rules.Finish.CONSTELLATION and state.winner:
        card = state.card_of(state.winner)
        name = card.name if card else "their constellation"
        return f"{_name(names, state.winner)} wins! {name} shines under one sky."
    if state.finish is rules.Finish.BOTH:
        return "A draw: both constellations were completed on the same turn."
    return "A draw: the board is full and neither constellation is complete."


def describe(before: rules.State, after: rules.State, names: Mapping[int, str]) -> str:
    """What one step of a replay did, in a sentence."""
    if not before.dealt:
        chart = rules.CHARTS[after.chart].title if after.chart else "a chart"
        return (
            f"The table was set: {chart}, its north pointing {POINTS[after.compass]}; "
            f"{_name(names, after.first_seat)} starts."
        )
    if after.ended:
        return result_text(after, names)
    if after.turn != before.turn:
        who = _name(names, after.seat)
        return f"Turn {after.turn}: {who}'s turn; the tiles beside the board were refilled."
    return _turn_line(after.turns[-1], names)


def jumps(final: rules.State, names: Mapping[int, str]) -> list[tuple[int, str]]:
    return [(t.started, f"Turn {t.number}: {_name(names, t.seat)}") for t in final.turns]
