"""The printed sheet and boards of Observatory as data (sheet_data.py): the Star Map and its
sectors (M1-M3, X1), the dice faces (D1), the Research tracks (R1, X5), the Night boards (N2,
X6) and the Asterism table (E3), against RULES.md's tables carried here as literals."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.observatory.rules.sheet_data import (
    ABILITY_AT,
    ASTERISM_POINTS,
    BONUS_TRACKS,
    DIE_VALUES,
    DRIVE_NUMBERS,
    FINDER_STARS,
    ICON_NIGHTS,
    MAP_SIZE,
    NIGHTS,
    PLAYER_COUNTS,
    POSITIONS,
    SECTORS,
    SPACES,
    TRACK_BONUS_AT,
    TRACK_VALUES,
    Track,
    asterism_points,
    face_label,
    face_value,
    icon_nights,
    is_space,
    line_spaces,
    sector_column_spaces,
    sector_of,
    sector_row_spaces,
    sector_spaces,
    track_value,
)

# -- RULES.md's tables, as the page writes them --------------------------------------------------

R1 = {
    "Lens": "2 2 5 5 6",
    "Drive": "3 3 4 4 6",
    "Finder": "2 3 3 5 6",
    "Filter": "2 4 4 5 6",
    "Funding": "2 3 4 5 6",
}
# X6 as balanced by the page's own remedy (sheet_data.NIGHTS): fewer Nights than the page's
# table (12, 8, 6, 5, 4), whose 24-25 stars from dice gave 8.2-9.8 cards a seat (aim 5-8).
X6 = {  # players: (Nights, icon Nights, stars from dice per seat, research fills per seat)
    1: (10, {3, 6, 8}, 20, 10),
    2: (6, {2, 4, 5}, 18, 12),
    3: (4, {2, 3, 4}, 16, 12),
    4: (3, {2, 3}, 15, 12),
    5: (3, {2, 3}, 18, 15),
}
E3 = {0: 0, 1: 1, 2: 3, 3: 6, 4: 10, 5: 15, 6: 21}

spaces = st.tuples(st.integers(1, 12), st.integers(1, 12))
sectors = st.tuples(st.integers(1, 6), st.integers(1, 6))
values = st.integers(1, 6)
FEW = settings(max_examples=60, deadline=None)


# -- M1, X1: the map -----------------------------------------------------------------------------


def test_m1_x1_the_map_is_12_by_12_spaces_row_1_at_the_top() -> None:
    """M1, X1: 144 spaces (r, c), both 1-12, listed row by row from the top-left."""
    assert MAP_SIZE == 12
    assert len(SPACES) == len(set(SPACES)) == 144
    assert SPACES[0] == (1, 1) and SPACES[11] == (1, 12) and SPACES[-1] == (12, 12)
    assert {r for r, _ in SPACES} == {c for _, c in SPACES} == set(range(1, 13))
    assert all(is_space(space) for space in SPACES)
    assert not any(is_space(space) for space in [(0, 1), (1, 0), (13, 5), (5, 13), (-1, -1)])


# -- M2: sectors ---------------------------------------------------------------------------------


def test_m2_x1_thirty_six_sectors_of_four_spaces_cut_the_map() -> None:
    """M2, X1: 6 x 6 sectors of 2 x 2; every space in exactly one sector."""
    assert len(SECTORS) == len(set(SECTORS)) == 36
    assert {big_r for big_r, _ in SECTORS} == set(range(1, 7))
    pieces = [sector_spaces(sector) for sector in SECTORS]
    assert all(len(piece) == 4 for piece in pieces)
    assert Counter(space for piece in pieces for space in piece) == Counter(SPACES)


def test_m2_sector_spaces_are_rows_2r_minus_1_and_2r_by_columns_2c_minus_1_and_2c() -> None:
    """M2: sector (R, C) holds r in {2R-1, 2R} and c in {2C-1, 2C}; examples from the page."""
    assert sector_spaces((1, 1)) == {(1, 1), (1, 2), (2, 1), (2, 2)}
    assert sector_spaces((3, 5)) == {(5, 9), (5, 10), (6, 9), (6, 10)}
    assert sector_spaces((6, 6)) == {(11, 11), (11, 12), (12, 11), (12, 12)}
    assert sector_of((5, 10)) == (3, 5)  # worked example 1
    assert sector_of((7, 2)) == (4, 1)
    assert sector_of((6, 1)) == (3, 1)


@FEW
@given(spaces)
def test_m2_a_space_lies_in_its_sector_ceil_r_half_ceil_c_half(space: tuple[int, int]) -> None:
    """M2: sector_of is (ceil(r/2), ceil(c/2)) and the space is one of that sector's four."""
    r, c = space
    assert sector_of(space) == (-(-r // 2), -(-c // 2))
    assert space in sector_spaces(sector_of(space))


@FEW
@given(sectors)
def test_m2_every_space_of_a_sector_maps_back_to_it(sector: tuple[int, int]) -> None:
    """M2: sector_of and sector_spaces are each other's inverse."""
    assert {sector_of(space) for space in sector_spaces(sector)} == {sector}


@pytest.mark.parametrize("space", [(0, 1), (1, 13), (13, 13)])
def test_m2_a_space_off_the_map_has_no_sector(space: tuple[int, int]) -> None:
    """M1, M2: asking for the sector of a space that is not on the map is an error."""
    with pytest.raises(ValueError, match="not a space"):
        sector_of(space)


@pytest.mark.parametrize("sector", [(0, 1), (7, 1), (1, 7)])
def test_m2_there_is_no_sector_outside_1_to_6(sector: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="not a sector"):
        sector_spaces(sector)


# -- M3: "row v" and "column v" of the dice ------------------------------------------------------


@pytest.mark.parametrize("v", range(1, 7))
def test_m3_row_v_and_column_v_cover_44_spaces(v: int) -> None:
    """M3: sector-row v is map rows 2v-1, 2v (24 spaces), sector-column v is map columns
    2v-1, 2v (24 spaces); together 44, the 4 of sector (v, v) being in both."""
    rows = {(r, c) for r in (2 * v - 1, 2 * v) for c in range(1, 13)}
    columns = {(r, c) for r in range(1, 13) for c in (2 * v - 1, 2 * v)}
    assert sector_row_spaces(v) == rows and len(rows) == 24
    assert sector_column_spaces(v) == columns and len(columns) == 24
    assert line_spaces(v) == rows | columns
    assert len(line_spaces(v)) == 44
    assert sector_row_spaces(v) & sector_column_spaces(v) == sector_spaces((v, v))


def test_m3_the_page_s_example_row_and_column_3() -> None:
    """M3 with worked example 1: the orange 3 reaches rows 5-6 or columns 5-6, e.g. (6, 1);
    (?, 4) reaches rows 7-8 and columns 7-8, e.g. (7, 2)."""
    assert (6, 1) in line_spaces(3)
    assert (5, 10) in line_spaces(3)  # sector-row 3
    assert (7, 2) in line_spaces(4)
    assert (5, 10) not in line_spaces(4)
    assert (5, 10) in line_spaces(5)  # sector-column 5: columns 9-10


@FEW
@given(spaces, values)
def test_m3_a_space_is_in_line_v_exactly_when_its_sector_row_or_column_is_v(
    space: tuple[int, int], v: int
) -> None:
    """M3: membership of line_spaces(v) read off the space's sector."""
    big_r, big_c = sector_of(space)
    assert (space in line_spaces(v)) == (v in (big_r, big_c))


@pytest.mark.parametrize("v", [0, 7])
def test_m3_no_row_or_column_outside_1_to_6(v: int) -> None:
    with pytest.raises(ValueError, match="1-6"):
        line_spaces(v)


# -- D1: dice faces ------------------------------------------------------------------------------


def test_d1_six_faces_question_mark_then_2_to_6_and_question_mark_is_1() -> None:
    """D1: faces ?, 2, 3, 4, 5, 6; "?" has the value 1. M2: the sheet labels sector-rows and
    sector-columns the same way, "? 2 3 4 5 6"."""
    assert DIE_VALUES == (1, 2, 3, 4, 5, 6)
    assert [face_label(v) for v in DIE_VALUES] == ["?", "2", "3", "4", "5", "6"]
    assert " ".join(face_label(v) for v in range(1, 7)) == "? 2 3 4 5 6"
    assert face_value("?") == 1
    assert [face_value(label) for label in "23456"] == [2, 3, 4, 5, 6]
    with pytest.raises(ValueError):
        face_value("1")
    with pytest.raises(ValueError):
        face_label(7)


# -- R1, X5: the Research tracks -----------------------------------------------------------------


def test_r1_x5_the_tracks_are_exactly_the_page_s_table() -> None:
    """R1, X5: five tracks of five spaces, values left to right as the table prints them."""
    assert [track.name.title() for track in Track] == list(R1)
    assert {track.name.title(): " ".join(map(str, TRACK_VALUES[track])) for track in Track} == R1
    assert POSITIONS == (1, 2, 3, 4, 5)
    assert track_value(Track.LENS, 3) == 5
    assert track_value(Track.DRIVE, 5) == 6
    assert track_value(Track.FUNDING, 1) == 2
    with pytest.raises(ValueError):
        track_value(Track.LENS, 6)


def test_x5_each_value_2_to_6_on_five_spaces_one_6_per_track_funding_one_of_each() -> None:
    """X5: every value 2-6 on exactly 5 of the 25 spaces, never a 1; one 6 per track; Funding
    2 3 4 5 6; Finder and Filter four distinct values; Lens and Drive three."""
    everything = Counter(value for values in TRACK_VALUES.values() for value in values)
    assert sum(everything.values()) == 25
    assert everything == {2: 5, 3: 5, 4: 5, 5: 5, 6: 5}
    assert all(values.count(6) == 1 for values in TRACK_VALUES.values())
    assert sorted(TRACK_VALUES[Track.FUNDING]) == [2, 3, 4, 5, 6]
    distinct = {track: len(set(values)) for track, values in TRACK_VALUES.items()}
    assert distinct == {
        Track.LENS: 3,
        Track.DRIVE: 3,
        Track.FINDER: 4,
        Track.FILTER: 4,
        Track.FUNDING: 5,
    }


def test_r1_r4_r6_r8_r9_bonus_at_3_ability_at_5_four_finder_stars_drive_2_to_6() -> None:
    """R1's last columns: a track bonus at 3 filled and an ability at 5, for every track but
    Funding (R4, R6, R11); R9: 4 Finder stars; R8: the Drive number is 2-6."""
    assert TRACK_BONUS_AT == 3 and ABILITY_AT == 5
    assert BONUS_TRACKS == (Track.LENS, Track.DRIVE, Track.FINDER, Track.FILTER)
    assert Track.FUNDING not in BONUS_TRACKS
    assert FINDER_STARS == 4
    assert DRIVE_NUMBERS == (2, 3, 4, 5, 6)


# -- N2, X6: the Night boards --------------------------------------------------------------------


def test_n2_x6_nights_per_player_count_are_the_balanced_table() -> None:
    """N2, X6 (balanced, "Data to design": the Night counts are the remedy): 1 player 10
    Nights, 2 6, 3 4, 4 3, 5 3; icon Nights as the table lists."""
    assert PLAYER_COUNTS == (1, 2, 3, 4, 5)
    assert {players: row[0] for players, row in X6.items()} == NIGHTS
    assert {players: row[1] for players, row in X6.items()} == ICON_NIGHTS


@pytest.mark.parametrize("players", range(1, 6))
def test_x6_icon_nights_are_floor_k_nights_over_4_plus_1_never_night_1(
    players: int,
) -> None:
    """X6, N8: icon Nights are floor(k x Nights / 4) + 1 for k = 1, 2, 3, never Night 1:
    three distinct Nights on a board of four or more, the 2nd and 3rd on a board of three."""
    nights = NIGHTS[players]
    assert icon_nights(nights) == {k * nights // 4 + 1 for k in (1, 2, 3)} - {1}
    assert len(ICON_NIGHTS[players]) == (3 if nights >= 4 else 2)
    assert 1 not in ICON_NIGHTS[players]
    assert ICON_NIGHTS[players] <= set(range(2, nights + 1))


@pytest.mark.parametrize("players", range(1, 6))
def test_n2_x6_every_seat_plots_15_to_20_stars_from_dice(players: int) -> None:
    """N2, X6: a Night gives every seat (players + 1) stars from dice (a pair plot each turn,
    one Shooting Star plot as the active seat) and one research fill a turn; balanced, a
    seat plays 10 to 15 turns."""
    nights, _, stars, fills = X6[players]
    turns = players * NIGHTS[players]
    assert turns + nights == stars == (players + 1) * NIGHTS[players]
    assert 15 <= stars <= 20
    assert turns == fills and 10 <= turns <= 15


# -- E3: the Asterisms -----------------------------------------------------------------------------


def test_e3_asterisms_completed_to_points_is_the_page_s_table() -> None:
    """E3: 0 -> 0, 1 -> 1, 2 -> 3, 3 -> 6, 4 -> 10, 5 -> 15, 6 or more -> 21."""
    assert {n: asterism_points(n) for n in E3} == E3
    assert tuple(E3.values()) == ASTERISM_POINTS
    assert asterism_points(7) == asterism_points(15) == 21
    with pytest.raises(ValueError):
        asterism_points(-1)
