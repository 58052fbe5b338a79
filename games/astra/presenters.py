"""What the Astra templates read, for one audience (a seat, the public, or a replay).

Everything a browser receives is built here from the rules' ``view_for`` (H1-H6, U9) and
nothing else: the public table for all (U1), and for the viewing seat only its own Final
Scoring card, its own sealed Boon pick and its own controls. The Screens of RULES.md: the
status bar (whose turn, the phase, the clock, "Your turn", the effects in force: U2, U7), the
marking strip (U3), the Boon pick and card-limit panels (U5, U6), the Sphere with the deck
counter, the cards as tiles, the own Journal, the other players, the discard pile, the log,
and the results at the end (U8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from games.audiences import HISTORY, Names, listed, name_of, plural, seat_of
from games.audiences import PUBLIC as PUBLIC  # the seam (Screens.of) and tests read these here
from games.audiences import audience_of as audience_of
from games.audiences import audiences as audiences
from games.fragments import render_fragment

from . import markings
from .pictures import ELEMENT_ICONS, CardFace, ability_name, ability_text, boon_text, card_face
from .rules.boards import (
    POUCH_SPOTS,
    ROWS,
    SPHERE_BOARDS,
    SPOT_VALUES,
    WISDOM_SPOTS,
    FinalScoringCard,
    row_marks,
)
from .rules.cards import BY_NUMBER, BoonKind
from .rules.discovery import exhausted, open_boxes
from .rules.ending import SCORING_CARDS
from .rules.events import (
    AbilityMarked,
    AbilityUsed,
    ActionPhaseEnded,
    BoonPickOpened,
    BoonsCrossed,
    CardDiscovered,
    CardDrawn,
    CardGained,
    CardLimitExceeded,
    CardsDiscarded,
    DreamCardDiscarded,
    DreamDiscovered,
    DreamMarked,
    DreamOpened,
    DreamSkipped,
    FinalScore,
    GameEnded,
    GameEndExposed,
    Rested,
    StarsMarked,
    TableSet,
    TelescopeSpent,
    TurnEnded,
    TurnStarted,
)
from .rules.model import Ending, Held, Journal, Phase, State
from .rules.view import View, view_for

BOARD = "astra/board.html"
PHASE_WORDS = {
    Phase.UNDEALT: "Waiting for the deal",
    Phase.ABILITY: "Abilities, then Observe or Rest",
    Phase.OBSERVING: "Observing",
    Phase.ACTION_ENDED: "Action over",
    Phase.DISCOVERY: "Discovery",
    Phase.PICKING: "Boon picks",
    Phase.DISCARDING: "Card limit",
    Phase.DREAMING: "Dream phase",
    Phase.TURN_ENDED: "Turn over",
    Phase.ENDED: "The game is over",
}


# -- what the template reads --------------------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    slot: int
    face: CardFace | None  # None: an empty slot (D13)
    discovered: bool
    banner: str  # U5: the pick under way on this card
    refill: bool = False  # an empty slot the deck will refill (D12); else the deck ran out

    @property
    def html(self) -> SafeString:
        return tile_html(self)


@lru_cache(maxsize=1024)
def tile_html(tile: Tile) -> SafeString:
    """A tile's HTML, rendered once per value (a tile is immutable and the same for every
    audience): a push renders only the tiles that changed since the last one."""
    return mark_safe(render_fragment(f"{BOARD}#tile", {"tile": tile}))


@dataclass(frozen=True)
class SphereSpot:
    name: str
    icon: str
    current: bool
    number: int | None  # V2: the 2-player side's number
    discard_after: bool  # R5: the discard icon lies after this Sphere


@dataclass(frozen=True)
class HeldCard:
    card: int
    name: str
    element: str
    icon: str
    active: bool
    ability: str
    fame: int


@dataclass(frozen=True)
class Track:
    label: str
    spots: tuple[tuple[str, bool], ...]  # (printed value, marked)


@dataclass(frozen=True)
class JournalPanel:
    seat: int
    name: str
    letter: str
    active: bool  # whose turn it is
    stardust: int
    telescopes: int
    pouch: int
    limit: int
    fame: int
    held: tuple[HeldCard, ...]
    tracks: tuple[Track, ...]


@dataclass(frozen=True)
class AbilityButton:
    card: int
    name: str
    text: str
    forge: tuple[int, ...]  # K4: the counts a Forge may name


@dataclass(frozen=True)
class ActionBar:
    version: int
    rest: bool
    done: bool
    done_label: str
    abilities: tuple[AbilityButton, ...]


@dataclass(frozen=True)
class BoxChoice:
    box: int
    text: str
    open: bool
    why: str  # why not (crossed, or V3)


@dataclass(frozen=True)
class PickPanel:
    step: int
    card: str
    boxes: tuple[BoxChoice, ...]
    exhausted: tuple[HeldCard, ...]  # B7: which Exhausted cards an Activation may name
    activation_most: int


@dataclass(frozen=True)
class DiscardPanel:
    version: int
    limit: int
    held: tuple[HeldCard, ...]
    held_field: str


@dataclass(frozen=True)
class ScoringRow:
    element: str
    icon: str
    spots: tuple[tuple[int, bool, bool], ...]  # (value, marked, pre-marked)


@dataclass(frozen=True)
class ScoringCard:
    id: str
    owner: str
    rows: tuple[ScoringRow, ...]


@dataclass(frozen=True)
class ResultRow:
    label: str
    values: tuple[int, ...]
    total: bool = False


@dataclass(frozen=True)
class Results:
    names: tuple[str, ...]
    rows: tuple[ResultRow, ...]
    winners: str
    cards: tuple[ScoringCard, ...]


@dataclass(frozen=True)
class Board:
    version: int
    dealt: bool
    ended: bool
    spectator: bool
    history: bool
    code: str
    seat: int | None
    mode: str
    phase: str
    active: str
    active_seat: int | None
    your_turn: bool
    you: str
    turn: str
    in_force: tuple[str, ...]
    deadline: str | None  # the countdown's (games/countdown.html)
    server_now: str
    step_seconds: int | None  # the seconds left when this board was drawn
    spheres: tuple[SphereSpot, ...]
    deck: str
    tiles: tuple[Tile, ...]
    mark_area: markings.MarkArea | None
    bar: ActionBar | None
    pick: PickPanel | None
    picked: str  # U5: the viewer's own sealed pick, and who is still picking
    discard: DiscardPanel | None
    own: JournalPanel | None
    scoring: ScoringCard | None
    others: tuple[JournalPanel, ...]
    discards: tuple[str, ...]
    log: tuple[str, ...]
    results: Results | None


# -- the board ----------------------------------------------------------------------------------


def present(
    state: State,
    audience: str,
    names: Names,
    code: str,
    now: datetime | None = None,
    *,
    history: bool = False,
) -> Board:
    now = now or timezone.now()
    seat = seat_of(audience)
    view = view_for(state, seat)
    own = _journal(view, view.seat, names) if view.seat is not None and view.dealt else None
    return Board(
        version=view.version,
        dealt=view.dealt,
        ended=view.ended,
        spectator=view.seat is None and not history,
        history=history,
        code=code,
        seat=view.seat,
        mode=_mode(view),
        phase=PHASE_WORDS[view.phase],
        active=name_of(names, view.active) if view.active else "",
        active_seat=view.active,
        your_turn=view.seat is not None and view.active == view.seat and not view.ended,
        you=_you(view, names),
        turn=_turn(view, names),
        in_force=tuple(f"{BY_NUMBER[card].name} in force" for card in view.in_force),
        deadline=view.deadline.isoformat() if view.deadline and not history else None,
        server_now=now.isoformat(),
        step_seconds=_seconds_left(view, now),
        spheres=_spheres(view),
        deck=_deck(view),
        tiles=_tiles(view, names),
        mark_area=_mark_area(state, view, now, history),
        bar=_bar(state, view) if not history else None,
        pick=_pick(state, view) if not history else None,
        picked=_picked(view, names),
        discard=_discard(view) if not history else None,
        own=own,
        scoring=_own_scoring(view, names),
        others=tuple(
            _journal(view, seat, names) for seat in range(1, view.players + 1) if seat != view.seat
        ),
        discards=tuple(BY_NUMBER[card].name for card in reversed(view.discard)),
        log=tuple(line for event in reversed(view.recent) if (line := event_line(event, names))),
        results=_results(view, names),
    )


def present_history(state: State, names: Names, code: str) -> Board:
    """A step of a replay: the public table, nothing to press."""
    return present(state, HISTORY, names, code, history=True)


def _seconds_left(view: View, now: datetime) -> int | None:
    if view.deadline is None:
        return None
    return max(0, round((view.deadline - now).total_seconds()))


def _mode(view: View) -> str:
    if not view.dealt:
        return "Waiting for the deal"
    if view.ended:
        return "The game is over"
    last = " · last round" if view.last_turn is not None else ""
    return f"Round {view.round + 1} · turn {view.turn + 1}{last}"


def _you(view: View, names: Names) -> str:
    if view.seat is None:
        return "You are watching." if view.dealt else ""
    return f"You are {name_of(names, view.seat)}: your marks carry the number {view.seat}."


# -- what to do now ---------------------------------------------------------------------------


def _turn(view: View, names: Names) -> str:
    if not view.dealt or view.ended or view.active is None:
        return ""
    who = name_of(names, view.active)
    mine = view.seat == view.active
    match view.phase:
        case Phase.ABILITY if view.skipped:
            return "Use another Ability, or press Done." if mine else f"{who} is using Abilities."
        case Phase.ABILITY:
            if mine:
                return "Your turn: use Abilities if you like, then Observe (tap stars) or Rest."
            return f"{who} may use Abilities, then Observes or Rests."
        case Phase.OBSERVING:
            if mine:
                return "Observe again with a Telescope, or press Done."
            return f"{who} may Observe again with a Telescope."
        case Phase.PICKING:
            return _picking_line(view, names)
        case Phase.DISCARDING:
            if mine:
                return "You hold more cards than your limit: choose which to keep."
            return f"{who} is choosing cards to discard (card limit)."
        case Phase.DREAMING:
            if mine:
                return "Choose the dreamer's card and stars."
            return f"{who} is choosing the dreamer's stars."
    return f"{who}'s turn."


def _picking_line(view: View, names: Names) -> str:
    """U5: the discovered card, its discoverer, who is picking (H4: picks stay sealed)."""
    if view.picks is None:
        return ""

    def who(seat: int) -> str:
        return "you" if seat == view.seat else name_of(names, seat)

    waiting = [who(seat) for seat in view.picks.waiting]
    done = [who(seat) for seat in view.picks.seats if seat not in view.picks.waiting]
    card = _resolving_card(view)
    by = f" discovered by {who(view.active)}" if view.active else ""
    plural_verb = len(waiting) > 1 or waiting == ["you"]
    line = f"{card}{by}: {listed(waiting)} {'are' if plural_verb else 'is'} picking a Boon."
    if done:
        verb = "have" if len(done) > 1 or done == ["you"] else "has"
        line += f" {listed(done).capitalize() if done[0] == 'you' else listed(done)} {verb} picked."
    return line


def _resolving_card(view: View) -> str:
    slot = _resolving_slot(view)
    if slot is None:
        return "A card"
    placed = view.slots[slot - 1]
    return placed.constellation.name if placed.card is not None else "A card"


def _resolving_slot(view: View) -> int | None:
    """D3: while a group picks, the card being resolved is the lowest discovered slot's
    (the rules open each pick step for it: ``rules.discovery``), read from the Sphere
    itself rather than from the recent log, which keeps only the last events."""
    if view.picks is None:
        return None
    return next((n for n, placed in enumerate(view.slots, 1) if placed.discovered), None)


# -- the Sphere, the deck, the cards ------------------------------------------------------------


def _spheres(view: View) -> tuple[SphereSpot, ...]:
    if not view.dealt:
        return ()
    board = SPHERE_BOARDS[view.players]
    return tuple(
        SphereSpot(
            name=sphere.label,
            icon=ELEMENT_ICONS[sphere],
            current=sphere is view.sphere,
            number=board.number(sphere),
            discard_after=board.passes_discard(sphere),
        )
        for sphere in board.spheres
    )


def _deck(view: View) -> str:
    """H2: the counts, never the order."""
    if not view.dealt:
        return ""
    if view.game_end_exposed:
        return f"Game End card set aside · {plural(view.below_game_end, 'card')} left"
    return f"{view.above_game_end} before the end · {view.below_game_end} below"


def _tiles(view: View, names: Names) -> tuple[Tile, ...]:
    banner_slot = _resolving_slot(view) if view.phase is Phase.PICKING else None
    refill = bool(view.above_game_end + view.below_game_end)  # D12: the deck is not empty
    tiles = []
    for n, placed in enumerate(view.slots, 1):
        if placed.card is None:
            tiles.append(Tile(n, None, False, "", refill=refill))
            continue
        face = card_face(placed.card, placed.marks, placed.crossed)
        banner = _picking_line(view, names) if n == banner_slot else ""
        tiles.append(Tile(n, face, placed.discovered, banner))
    return tuple(tiles)


def _mark_area(state: State, view: View, now: datetime, history: bool) -> markings.MarkArea | None:
    if history or view.seat is None:
        return None
    return markings.mark_area(state, view.seat, now)


# -- the controls --------------------------------------------------------------------------------


def _bar(state: State, view: View) -> ActionBar | None:
    if view.seat is None or view.active != view.seat or view.ended:
        return None
    journal = view.journals[view.seat - 1]
    acting = view.phase in (Phase.ABILITY, Phase.OBSERVING)
    abilities: tuple[AbilityButton, ...] = ()
    if view.phase is Phase.ABILITY:
        abilities = tuple(  # the marking ones are the marking strip's (its tabs)
            _ability_button(held, journal)
            for held in journal.held
            if held.active and BY_NUMBER[held.card].ability.kind not in markings.MARKING_KINDS
        )
    done = view.phase is Phase.OBSERVING or (view.phase is Phase.ABILITY and view.skipped)
    if not (acting or abilities):
        return None
    return ActionBar(
        version=view.version,
        rest=view.phase is Phase.ABILITY and not view.skipped,
        done=done,
        done_label="Done: end my Abilities" if view.skipped else "Done observing",
        abilities=abilities,
    )


def _ability_button(held: Held, journal: Journal) -> AbilityButton:
    card = BY_NUMBER[held.card]
    kind = card.ability.kind
    forge = tuple(range(1, journal.stardust // 3 + 1)) if kind.value == "forge" else ()
    return AbilityButton(
        card=held.card,
        name=card.name,
        text=ability_text(card),
        forge=forge,
    )


def _pick(state: State, view: View) -> PickPanel | None:
    """U5: the picker's four boxes, unavailable ones struck (crossed, or V3)."""
    if not view.can_pick or view.seat is None:
        return None
    slot_number = _resolving_slot(view)
    if slot_number is None or view.picks is None:
        return None
    placed = state.slot(slot_number)
    allowed = open_boxes(state, view.seat, placed)
    boxes = []
    for box in range(1, 5):
        boon = placed.boon(box)
        why = (
            ""
            if box in allowed
            else ("crossed out" if box in placed.crossed else "the dreamer marked more (V3)")
        )
        boxes.append(BoxChoice(box, boon_text(boon), box in allowed, why))
    tired = tuple(_held_card(Held(card, False)) for card in exhausted(state, view.seat))
    most = max(
        (
            placed.boon(box).amount
            for box in allowed
            if placed.boon(box).kind is BoonKind.ACTIVATION
        ),
        default=0,
    )
    return PickPanel(
        step=view.picks.number,
        card=placed.constellation.name,
        boxes=tuple(boxes),
        exhausted=tired if most and len(tired) > most else (),
        activation_most=most,
    )


def _picked(view: View, names: Names) -> str:
    """H4, U5: the viewer's own pick, sealed from the others until the group completes."""
    if view.picks is None or view.seat is None or view.picks.own is None:
        return ""
    slot = _resolving_slot(view)
    box = view.picks.own.box
    text = boon_text(view.slots[slot - 1].boon(box)) if slot else f"box {box}"
    waiting = [name_of(names, seat) for seat in view.picks.waiting]
    tail = f" — waiting for {listed(waiting)}" if waiting else ""
    return f"You picked {text}{tail}."


def _discard(view: View) -> DiscardPanel | None:
    """U6: the discoverer's held cards, to keep as many as the limit."""
    if view.phase is not Phase.DISCARDING or view.seat is None or view.active != view.seat:
        return None
    journal = view.journals[view.seat - 1]
    return DiscardPanel(
        version=view.version,
        limit=journal.card_limit,
        held=tuple(_held_card(held) for held in journal.held),
        held_field="-".join(str(held.card) for held in journal.held),
    )


# -- the Journals --------------------------------------------------------------------------------


def _held_card(held: Held) -> HeldCard:
    card = BY_NUMBER[held.card]
    return HeldCard(
        card=held.card,
        name=card.name,
        element=card.element.label,
        icon=ELEMENT_ICONS[card.element],
        active=held.active,
        ability=ability_name(card),
        fame=card.final_fame,
    )


def _journal(view: View, seat: int | None, names: Names) -> JournalPanel:
    assert seat is not None
    journal = view.journals[seat - 1]
    pouch = tuple((str(value), n <= journal.pouch_gains) for n, value in enumerate(POUCH_SPOTS))
    wisdom = tuple(
        (str(value) if value else "–", n <= journal.wisdom) for n, value in enumerate(WISDOM_SPOTS)
    )
    return JournalPanel(
        seat=seat,
        name=name_of(names, seat),
        letter=str(seat),
        active=view.active == seat and not view.ended,
        stardust=journal.stardust,
        telescopes=journal.telescopes,
        pouch=journal.pouch_size,
        limit=journal.card_limit,
        fame=journal.fame,
        held=tuple(_held_card(held) for held in journal.held),
        tracks=(Track("Pouch size", pouch), Track("Wisdom (card limit)", wisdom)),
    )


def _scoring_card(card_id: str, owner: str, held: Sequence[Held]) -> ScoringCard:
    card: FinalScoringCard = SCORING_CARDS[card_id]
    marks = row_marks(card, (BY_NUMBER[h.card].element for h in held))
    rows = tuple(
        ScoringRow(
            element=element.label,
            icon=ELEMENT_ICONS[element],
            spots=tuple(
                (value, n < marks[element], n == 0 and element in card.premarked)
                for n, value in enumerate(SPOT_VALUES)
            ),
        )
        for element in ROWS
    )
    return ScoringCard(card_id, owner, rows)


def _own_scoring(view: View, names: Names) -> ScoringCard | None:
    """H1: the viewer's own Final Scoring card, marked with the cards held now."""
    if view.scoring is None or view.seat is None or view.ended:
        return None
    return _scoring_card(view.scoring, name_of(names, view.seat), view.journals[view.seat - 1].held)


# -- the end (U8) --------------------------------------------------------------------------------

RESULT_LINES: tuple[tuple[str, str], ...] = (
    ("Fame during play", "fame_in_play"),
    ("Marked stars (F2)", "marked_stars"),
    ("Active cards (F3)", "active_cards"),
    ("Element rows (F4)", "element_rows"),
    ("Element columns (F5)", "element_columns"),
    ("Pouch size (F6)", "pouch_size"),
    ("Card limit (F7)", "card_limit"),
    ("Leftover Stardust (F8)", "leftover_stardust"),
)


def _results(view: View, names: Names) -> Results | None:
    if view.final is None:
        return None
    scores: Sequence[FinalScore] = view.final.scores
    rows = tuple(
        ResultRow(label, tuple(int(getattr(score, field)) for score in scores))
        for label, field in RESULT_LINES
    )
    total = ResultRow("Total", tuple(score.total for score in scores), total=True)
    winners = [name_of(names, seat) for seat in view.final.winners]
    verb = "wins" if len(winners) == 1 else "share the victory"
    cards = tuple(
        _scoring_card(
            score.scoring_card, name_of(names, score.seat), view.journals[score.seat - 1].held
        )
        for score in scores
    )
    return Results(
        names=tuple(name_of(names, score.seat) for score in scores),
        rows=(*rows, total),
        winners=f"{listed(winners)} {verb}!",
        cards=cards,
    )


# -- the log and the replay ----------------------------------------------------------------------


def event_line(event: object, names: Names) -> str:  # noqa: C901 - one line per event kind
    """One public event in a sentence (H3: nothing sealed is ever logged)."""
    match event:
        case TableSet():
            return f"The table is laid: the Sphere starts on {event.sphere.label}."
        case TurnStarted():
            return f"{name_of(names, event.seat)}'s turn."
        case AbilityUsed():
            card = BY_NUMBER[event.card]
            return f"{name_of(names, event.seat)} used {card.name} ({ability_name(card)})."
        case AbilityMarked():
            where = BY_NUMBER[event.card].name
            return f"{name_of(names, event.seat)} marked {_stars(event.stars)} on {where} for free."
        case TelescopeSpent():
            return f"{name_of(names, event.seat)} spent a Telescope for another Observe."
        case StarsMarked():
            wisdom = f", +{event.wisdom} Wisdom" if event.wisdom else ""
            return (
                f"{name_of(names, event.seat)} observed {BY_NUMBER[event.card].name}: "
                f"{_stars(event.stars)} for {event.stardust} Stardust{wisdom}."
            )
        case CardDiscovered():
            return f"{name_of(names, event.seat)} discovered {BY_NUMBER[event.card].name}!"
        case ActionPhaseEnded() if event.by_clock:
            return f"Time ran out for {name_of(names, event.seat)}'s Action phase."
        case ActionPhaseEnded() if event.ending is Ending.DONE:
            return f"{name_of(names, event.seat)} is done observing."
        case Rested():
            clock = " (the clock rested for them)" if event.by_clock else ""
            return (
                f"{name_of(names, event.seat)} rested{clock}: +{event.stardust} Stardust, "
                f"the Sphere moves to {event.sphere_to.label}."
            )
        case BoonPickOpened():
            who = listed([name_of(names, s) for s in event.seats])
            return f"{who} pick a Boon of {BY_NUMBER[event.card].name}."
        case BoonsCrossed():
            boons = BY_NUMBER[event.card].boons
            picks = [
                f"{name_of(names, entry.seat)} took {boon_text(boons[entry.submission.box - 1])}"
                for entry in event.submissions
            ]
            return f"{'; '.join(picks)}."
        case CardGained():
            return f"{name_of(names, event.seat)} takes {BY_NUMBER[event.card].name}, Active."
        case CardLimitExceeded():
            who = name_of(names, event.seat)
            return f"{who} holds more than {event.limit} cards and must discard."
        case CardsDiscarded():
            cards = listed([BY_NUMBER[c].name for c in event.cards])
            return f"{name_of(names, event.seat)} discarded {cards}."
        case DreamOpened():
            return (
                f"{name_of(names, event.seat)} chooses the dreamer's {plural(event.stars, 'star')}."
            )
        case DreamSkipped():
            return "The dreamer has nothing to mark."
        case DreamMarked():
            return f"The dreamer marked {_stars(event.stars)} on {BY_NUMBER[event.card].name}."
        case DreamDiscovered():
            return f"The dreamer completed {BY_NUMBER[event.card].name}."
        case DreamCardDiscarded():
            return f"{BY_NUMBER[event.card].name} goes to the discard pile."
        case CardDrawn() if event.card is not None:
            return f"{BY_NUMBER[event.card].name} is laid in slot {event.slot}."
        case GameEndExposed():
            return "The Game End card is exposed: the final round is coming."
        case TurnEnded() if event.stardust_returned or event.fame:
            return (
                f"End of {name_of(names, event.seat)}'s turn: +{event.stardust_returned} "
                f"Stardust back, +{event.fame} Fame."
            )
        case GameEnded():
            return "The game is over: final scoring."
    return ""


def _stars(stars: Sequence[int]) -> str:
    return plural(len(stars), "star")


def describe(before: State, after: State, names: Names) -> str:
    """What one step of a replay did, in a sentence."""
    if not before.dealt and after.dealt:
        return f"The cards are dealt to {plural(after.players, 'player')}."
    if after.recent and after.recent != before.recent:
        return event_line(after.recent[-1], names)
    return ""


def jumps(final: State, names: Names) -> list[tuple[int, str]]:
    return [
        (version, f"Turn {n}: {name_of(names, seat)}")
        for n, (version, seat) in enumerate(final.turns, 1)
    ]
