"""Observatory's rules page (/rules/observatory/): what its template reads.

Every number the page states is read here from the rules' own data, so the page can never
disagree with the game: the Nights and the Night openings per player count
(``sheet_data.NIGHTS``, ``icon_nights``), the Research tracks' printed values and where their
bonus and ability come (``TRACK_VALUES``, ``TRACK_BONUS_AT``, ``ABILITY_AT``), the deck's
counts, star counts, points and bonuses (``deck.CARDS``), the Asterism table, the deal and
the plan strip's tabs (``planner.MODES``). The pictures are the board's own: its card
partial, its Research table and its Star Map, and the example (RULES.md worked example 2) is
judged and scored by the rules' ``figures`` and ``scoring``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.safestring import SafeString

from . import planner, presenters
from .rules import figures
from .rules.deck import CARDS, LARGE_SIZE, BonusKind, Card
from .rules.model import DEALT_LARGE, DEALT_SMALL, FIRST_GAME_LARGE, FIRST_GAME_SMALL, KEEP, SLOTS
from .rules.scoring import UNUSED_PER_POINT, score
from .rules.sheet import Sheet
from .rules.sheet_data import (
    ABILITY_AT,
    ASTERISM_POINTS,
    BONUS_TRACKS,
    DIE_VALUES,
    DRIVE_NUMBERS,
    FINDER_STARS,
    FUNDING_POINT,
    MAP_SIZE,
    NIGHTS,
    SECTORS_PER_SIDE,
    TRACK_BONUS_AT,
    TRACK_VALUES,
    Space,
    Track,
    face_label,
    icon_nights,
    line_spaces,
)

# What each track's full row gives (R6, R8-R11), in players' words; the numbers are the data's.
ABILITIES: dict[Track, str] = {
    Track.LENS: (
        "once a turn, treat one die you use as one higher or one lower (never below ? or "
        "above 6). The roller may use it on the orange die too."
    ),
    Track.DRIVE: (
        f"the step that fills its last space writes your Drive number, "
        f"{DRIVE_NUMBERS[0]} to {DRIVE_NUMBERS[-1]}: from then on every die showing that "
        "number is wild for you, like a ?."
    ),
    Track.FINDER: (
        f"{FINDER_STARS} Finder stars: each is a star in any empty space, spent whenever you "
        "like in your own turns."
    ),
    Track.FILTER: "every card you complete after that gives its bonus twice.",
    Track.FUNDING: (
        f"no bonus and no ability: each filled Funding space is worth {FUNDING_POINT} point "
        "at the end, full track or not."
    ),
}


@dataclass(frozen=True)
class NightRow:
    """One player count's Night board (N2, X6)."""

    players: int
    label: str  # "1 (solo)", "2", ...
    nights: int
    turns: int  # turns in the game: a Night has one turn per seat (N4)
    openings: str  # the Nights that open with a Night bonus, e.g. "2 and 3"


@dataclass(frozen=True)
class TrackFact:
    """One Research track (R1): its printed values left to right, and what it gives."""

    name: str
    values: tuple[str, ...]
    bonus: bool  # a track bonus at TRACK_BONUS_AT filled (R4); not Funding
    ability: str


@dataclass(frozen=True)
class Group:
    """One kind of card in the deck (X3): how many, their stars, points and bonuses."""

    name: str
    count: int
    stars: str  # "5 to 8"
    points: str  # "5 to 10 points", or how Asterisms score
    bonuses: str  # "20 none, 15 Free Star, ..."


@dataclass(frozen=True)
class Example:
    """RULES.md worked example 2 on a Star Map: two constellations completed, one claim
    refused for touching, one for being flipped; scored as the end screen scores it."""

    cards: tuple[presenters.CardPicture, ...]
    map_html: SafeString
    complete_at: str  # the spaces, as the game's messages name them: "(2, 3), (3, 2) and (4, 2)"
    touching_at: str
    apart_at: str
    flipped_at: str
    bonus_at: str
    touching: str  # the game's own reason
    flipped: str
    bonus: str  # the accepted card's bonus, in the card's words
    bonus_rows: str  # where its Shooting Star may go, by the map's edge labels
    score: tuple[presenters.Line, ...]
    total: int


def context() -> dict[str, object]:
    """Everything ``observatory/rules.html`` reads."""
    return {
        "faces": [face_label(v) for v in DIE_VALUES],
        "map_size": MAP_SIZE,
        "bands": SECTORS_PER_SIDE,
        "line_spaces": len(line_spaces(2)),
        "nights": night_rows(),
        "tracks": track_facts(),
        "track_rows": presenters.track_rows(Sheet()),
        "track_bonus_at": TRACK_BONUS_AT,
        "ability_at": ABILITY_AT,
        "groups": groups(),
        "deck_total": len(CARDS),
        "shooting_values": _span(
            {c.bonus.value for c in CARDS.values() if c.bonus.value is not None}
        ),
        "asterism_table": asterism_table(),
        "asterism_most": ASTERISM_POINTS[-1],
        "unused_per_point": UNUSED_PER_POINT,
        "dealt_large": DEALT_LARGE,
        "dealt_small": DEALT_SMALL,
        "dealt": DEALT_LARGE + DEALT_SMALL,
        "keep": KEEP,
        "returned": DEALT_LARGE + DEALT_SMALL - KEEP,
        "first_large": FIRST_GAME_LARGE,
        "first_small": FIRST_GAME_SMALL,
        "slots": SLOTS,
        "solo_nights": NIGHTS[1],
        "modes": planner.MODES,
        "example": example(),
    }


def _span(values: Iterable[int]) -> str:
    found = sorted(values)
    return f"{found[0]} to {found[-1]}" if found[0] != found[-1] else str(found[0])


def _and(words: list[str]) -> str:
    if not words:
        return "none"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def night_rows() -> tuple[NightRow, ...]:
    """N2, X6 as the game plays them: ``NIGHTS`` and ``icon_nights``."""
    return tuple(
        NightRow(
            players=players,
            label=f"{players} (solo)" if players == 1 else str(players),
            nights=nights,
            turns=nights * players,
            openings=_and([str(n) for n in sorted(icon_nights(nights))]),
        )
        for players, nights in sorted(NIGHTS.items())
    )


def track_facts() -> tuple[TrackFact, ...]:
    return tuple(
        TrackFact(
            name=track.value.capitalize(),
            values=tuple(face_label(v) for v in TRACK_VALUES[track]),
            bonus=track in BONUS_TRACKS,
            ability=ABILITIES[track],
        )
        for track in Track
    )


BONUS_NAMES = {
    BonusKind.NONE: "none",
    BonusKind.FREE_STAR: "Free Star",
    BonusKind.RESEARCH: "Research",
    BonusKind.SHOOTING_STAR: "Shooting Star",
}


def _bonuses(cards: list[Card]) -> str:
    counted = Counter(card.bonus.kind for card in cards)
    return ", ".join(f"{counted[kind]} {BONUS_NAMES[kind]}" for kind in BonusKind if counted[kind])


def groups() -> tuple[Group, ...]:
    """X3's three kinds of card, counted on the deck itself."""
    large = [c for c in CARDS.values() if c.size == LARGE_SIZE]
    small = [c for c in CARDS.values() if c.size != LARGE_SIZE and not c.asterism]
    asterisms = [c for c in CARDS.values() if c.asterism]

    def group(name: str, cards: list[Card], points: str) -> Group:
        return Group(name, len(cards), _span(len(c.stars) for c in cards), points, _bonuses(cards))

    def printed(cards: list[Card]) -> str:
        return _span(c.points or 0 for c in cards) + " points"

    return (
        group("Large", large, printed(large)),
        group("Small", small, printed(small)),
        group("Asterisms", asterisms, "scored together (below)"),
    )


def asterism_table() -> tuple[tuple[str, int], ...]:
    """E3: Asterisms completed and what they score together; the last line is "or more"."""
    last = len(ASTERISM_POINTS) - 1
    return tuple(
        (f"{n} or more" if n == last else str(n), pts)
        for n, pts in enumerate(ASTERISM_POINTS)
        if n > 0
    )


# -- the example: RULES.md worked example 2 ---------------------------------------------------

SAGITTA = "S03"
CANES = "S10"
LACERTA = "S05"
SAGITTA_AT = frozenset({(2, 3), (3, 2), (4, 2)})
TOUCHING_AT = frozenset({(2, 2), (3, 3), (4, 3)})
APART_AT = frozenset({(2, 4), (3, 5), (4, 5)})
FLIPPED_AT = frozenset({(6, 6), (6, 7), (8, 6)})
BONUS_STAR: Space = (6, 12)  # Canes Venatici's Shooting Star 3: the row band labelled 3


def spaces_text(spaces: Iterable[Space]) -> str:
    """Spaces as the game's messages name them, (row, column), in reading order."""
    return _and([f"({r}, {c})" for r, c in sorted(spaces)])


def example_sheet() -> Sheet:
    """The example's map when the turn is over: Sagitta and Canes Venatici completed, the
    touching and the flipped stars left unused, and Canes Venatici's bonus star."""
    sagitta = figures.place(CARDS[SAGITTA], SAGITTA_AT)
    canes = figures.place(CARDS[CANES], APART_AT)
    if sagitta is None or canes is None:
        raise ValueError("the rules page's example no longer fits its cards")
    stars = SAGITTA_AT | TOUCHING_AT | APART_AT | FLIPPED_AT | {BONUS_STAR}
    return Sheet(stars=stars, goals=(LACERTA,), figures=(sagitta, canes))


def example() -> Example:
    sheet = example_sheet()
    before = sheet.figures[:1]  # only Sagitta when the claims are made
    stars = sheet.stars - {BONUS_STAR}
    touching = figures.claim_refused(CARDS[CANES], TOUCHING_AT, stars, before)
    flipped = figures.claim_refused(CARDS[LACERTA], FLIPPED_AT, stars, sheet.figures)
    if not isinstance(touching, str) or not isinstance(flipped, str):
        raise ValueError("the rules page's refused claims are accepted now")
    bonus = CARDS[CANES].bonus
    value = bonus.value or 0
    scored = score(sheet)
    return Example(
        cards=tuple(presenters.card_picture(card) for card in (SAGITTA, CANES, LACERTA)),
        map_html=presenters.map_html(sheet, "Example: a Star Map", "rules-example"),
        complete_at=spaces_text(SAGITTA_AT),
        touching_at=spaces_text(TOUCHING_AT),
        apart_at=spaces_text(APART_AT),
        flipped_at=spaces_text(FLIPPED_AT),
        bonus_at=spaces_text({BONUS_STAR}),
        touching=touching,
        flipped=flipped,
        bonus=presenters.bonus_text(CARDS[CANES])[0].removeprefix("Bonus: "),
        bonus_rows=face_label(value),
        score=presenters.score_lines(scored, sheet),
        total=scored.total,
    )
