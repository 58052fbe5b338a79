"""The printed sheet and boards as data: the Star Map's spaces and sectors (M1-M3, X1), the
dice faces (D1), the Research tracks (R1, X5), the Night boards (N2, X6) and the Asterism
table (E3).

Coordinates are 1-based and row 1 is the top (M1): a space is ``(r, c)`` with ``r, c`` in
1..12, a sector ``(R, C)`` with ``R, C`` in 1..6 (M2). Sets of spaces are frozensets, which
iterate in the same order on every run (their members are tuples of small ints).

Nothing here decides a move: ``sheet.py`` and ``steps.py`` apply the rules to these numbers.
"""

from __future__ import annotations

from enum import StrEnum

Space = tuple[int, int]
Sector = tuple[int, int]

# -- M1-M3, X1: the Star Map -------------------------------------------------------------------

MAP_SIZE = 12  # M1: 12 x 12 spaces
SECTOR_SIZE = 2  # M2: a sector is 2 x 2 spaces
SECTORS_PER_SIDE = MAP_SIZE // SECTOR_SIZE  # M2: 6 sector-rows, 6 sector-columns

SPACES: tuple[Space, ...] = tuple(
    (r, c) for r in range(1, MAP_SIZE + 1) for c in range(1, MAP_SIZE + 1)
)  # all 144, row by row from the top
SECTORS: tuple[Sector, ...] = tuple(
    (big_r, big_c)
    for big_r in range(1, SECTORS_PER_SIDE + 1)
    for big_c in range(1, SECTORS_PER_SIDE + 1)
)  # all 36


def is_space(space: Space) -> bool:
    """Whether ``space`` is on the map (M1)."""
    r, c = space
    return 1 <= r <= MAP_SIZE and 1 <= c <= MAP_SIZE


def sector_of(space: Space) -> Sector:
    """The sector holding ``space``: ``(ceil(r/2), ceil(c/2))`` (M2)."""
    if not is_space(space):
        raise ValueError(f"{space!r} is not a space of the 12 x 12 map")
    r, c = space
    return ((r + 1) // SECTOR_SIZE, (c + 1) // SECTOR_SIZE)


def sector_spaces(sector: Sector) -> frozenset[Space]:
    """The four spaces of sector ``(R, C)``: rows ``2R-1, 2R``, columns ``2C-1, 2C`` (M2)."""
    big_r, big_c = sector
    if not (1 <= big_r <= SECTORS_PER_SIDE and 1 <= big_c <= SECTORS_PER_SIDE):
        raise ValueError(f"{sector!r} is not a sector of the 6 x 6 grid")
    return frozenset((r, c) for r in (2 * big_r - 1, 2 * big_r) for c in (2 * big_c - 1, 2 * big_c))


def sector_row_spaces(v: int) -> frozenset[Space]:
    """Sector-row ``v``: map rows ``2v-1`` and ``2v``, all 12 columns (M3), 24 spaces."""
    _check_value(v)
    return frozenset(space for space in SPACES if sector_of(space)[0] == v)


def sector_column_spaces(v: int) -> frozenset[Space]:
    """Sector-column ``v``: map columns ``2v-1`` and ``2v``, all 12 rows (M3), 24 spaces."""
    _check_value(v)
    return frozenset(space for space in SPACES if sector_of(space)[1] == v)


def line_spaces(v: int) -> frozenset[Space]:
    """ "Row ``v`` or column ``v``" of a dice rule (M3; P3, P4, P6): sector-row ``v`` together
    with sector-column ``v``, 44 spaces (the 4 of sector ``(v, v)`` are in both)."""
    return sector_row_spaces(v) | sector_column_spaces(v)


def _check_value(v: int) -> None:
    if not 1 <= v <= SECTORS_PER_SIDE:
        raise ValueError(f"{v!r} is not a sector-row or sector-column (1-6)")


# -- D1: the dice ------------------------------------------------------------------------------

DIE_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)  # D1: equally likely; "?" is 1
WILD_FACE = "?"  # D1: the face with the value 1, also the sheet's label for sector 1 (M2)


def face_label(value: int) -> str:
    """How a die face or a sheet edge label shows ``value``: "?" for 1 (D1, M2)."""
    if value not in DIE_VALUES:
        raise ValueError(f"{value!r} is no die value (1-6)")
    return WILD_FACE if value == 1 else str(value)


def face_value(label: str) -> int:
    """The value of a face shown as ``label``: "?" is 1 (D1)."""
    for value in DIE_VALUES:
        if face_label(value) == label:
            return value
    raise ValueError(f"{label!r} is no die face (?, 2-6)")


# -- R1, X5: the Research tracks ---------------------------------------------------------------


class Track(StrEnum):
    """The five Research tracks, top to bottom as printed (R1)."""

    LENS = "lens"
    DRIVE = "drive"
    FINDER = "finder"
    FILTER = "filter"
    FUNDING = "funding"


TRACK_VALUES: dict[Track, tuple[int, ...]] = {
    Track.LENS: (2, 2, 5, 5, 6),
    Track.DRIVE: (3, 3, 4, 4, 6),
    Track.FINDER: (2, 3, 3, 5, 6),
    Track.FILTER: (2, 4, 4, 5, 6),
    Track.FUNDING: (2, 3, 4, 5, 6),
}  # R1: positions 1-5, left to right
TRACK_LENGTH = 5  # R1
POSITIONS: tuple[int, ...] = tuple(range(1, TRACK_LENGTH + 1))  # a track space is (track, 1..5)
TRACK_BONUS_AT = 3  # R4: a banked track bonus when 3 spaces are filled (not Funding)
ABILITY_AT = 5  # R6: the ability when all 5 are filled (not Funding)
BONUS_TRACKS: tuple[Track, ...] = (Track.LENS, Track.DRIVE, Track.FINDER, Track.FILTER)
FINDER_STARS = 4  # R9
DRIVE_NUMBERS: tuple[int, ...] = (2, 3, 4, 5, 6)  # R8
FUNDING_POINT = 1  # R11: a point per filled Funding space


def track_value(track: Track, position: int) -> int:
    """The die value printed on ``track``'s space at ``position`` (1-5, R1)."""
    if position not in POSITIONS:
        raise ValueError(f"{position!r} is no track position (1-5)")
    return TRACK_VALUES[track][position - 1]


# -- N2, X6: the Night boards ------------------------------------------------------------------

PLAYER_COUNTS: tuple[int, ...] = (1, 2, 3, 4, 5)  # N1
# N2, X6 as balanced (RULES.md "Data to design", Open: "adjust X2's formula or the Night
# counts"). The page's table (12, 8, 6, 5, 4 Nights: 24-25 stars from dice a seat) made the
# simulated greedy seat complete 8.2-9.8 cards (aim 5-8) and emptied the Small deck in every
# 5-player game (scripts/observatory_balance.py). These counts give 10-15 turns a seat.
NIGHTS: dict[int, int] = {1: 10, 2: 6, 3: 4, 4: 3, 5: 3}  # N2: players -> Nights


def icon_nights(nights: int) -> frozenset[int]:
    """The Nights with the star/research icon on a board of ``nights`` Nights (X6):
    ``floor(k * nights / 4) + 1`` for ``k = 1, 2, 3``, never Night 1 (N8): three Nights on
    a board of four or more, two (the 2nd and the 3rd) on a board of three."""
    return frozenset(k * nights // 4 + 1 for k in (1, 2, 3)) - {1}


ICON_NIGHTS: dict[int, frozenset[int]] = {
    players: icon_nights(nights) for players, nights in NIGHTS.items()
}  # X6, N8: players -> the Nights that open with a Night bonus


# -- E3: the Asterisms -------------------------------------------------------------------------

ASTERISM_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21)  # E3: index = Asterisms completed


def asterism_points(completed: int) -> int:
    """The points of ``completed`` Asterisms together (E3): 6 or more score 21."""
    if completed < 0:
        raise ValueError(f"{completed!r} Asterisms is no count")
    return ASTERISM_POINTS[min(completed, len(ASTERISM_POINTS) - 1)]
